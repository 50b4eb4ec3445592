//! The real cuBLAS and cuBLASLt functions this library stands in front of.
//!
//! Each table is resolved once, on the first call that needs it (`OnceLock`: one atomic
//! load afterwards): first its library, by an anchor symbol every version has
//! (`cublasGemmEx`, `cublasLtMatmul`), in the order the issue prescribes:
//! 1. `dlopen(soname, RTLD_NOLOAD)` + `dlsym`: the copy the host already loaded. This is
//!    the one that works inside PyTorch, which loads cuBLAS with RTLD_LOCAL, so its symbols
//!    are not in the global scope and `RTLD_NEXT` finds nothing (reference.md §1).
//! 2. `dlsym(RTLD_NEXT, anchor)`: a cuBLAS linked normally into the program (also one whose
//!    soname is not listed here), pinned through `dladdr` + `dlopen(RTLD_NOLOAD)` of its file.
//! 3. `dlopen(soname, RTLD_LAZY | RTLD_LOCAL)`: load it ourselves (the host called a cuBLAS
//!    function, so it must exist somewhere on the loader path).
//!
//! Then every function from that one library. A function it lacks (cuBLAS 11.0's
//! `cublasGetSmCountTarget`) stays absent: searched for alone, it once reached step 3 and
//! loaded a cuBLAS 13 beside the host's 11, whose cuBLASLt then took every cuBLASLt call
//! (a session-73 review).
//!
//! A lookup that lands on one of our own exports (possible with `RTLD_NEXT` tricks or a
//! second preload) is discarded, so a forwarded call can never loop back into us.
//! Handles from `dlopen` are never closed: the functions must stay valid until exit.

use std::ffi::{CStr, c_int, c_void};
use std::sync::OnceLock;

/// cublasStatus_t.
pub type Status = i32;
pub type Handle = *mut c_void;

pub type LtMatmulFn = unsafe extern "C" fn(
    Handle,
    *mut c_void,
    *const c_void,
    *const c_void,
    *mut c_void,
    *const c_void,
    *mut c_void,
    *const c_void,
    *const c_void,
    *mut c_void,
    *mut c_void,
    *mut c_void,
    *const c_void,
    *mut c_void,
    usize,
    *mut c_void,
) -> Status;
/// cublasLtMatmulDescGetAttribute and cublasLtMatrixLayoutGetAttribute have this shape.
pub type GetAttributeFn =
    unsafe extern "C" fn(*mut c_void, i32, *mut c_void, usize, *mut usize) -> Status;

pub type GemmExFn = unsafe extern "C" fn(
    Handle,
    i32,
    i32,
    i32,
    i32,
    i32,
    *const c_void,
    *const c_void,
    i32,
    i32,
    *const c_void,
    i32,
    i32,
    *const c_void,
    *mut c_void,
    i32,
    i32,
    i32,
    i32,
) -> Status;
pub type GemmStridedBatchedExFn = unsafe extern "C" fn(
    Handle,
    i32,
    i32,
    i32,
    i32,
    i32,
    *const c_void,
    *const c_void,
    i32,
    i32,
    i64,
    *const c_void,
    i32,
    i32,
    i64,
    *const c_void,
    *mut c_void,
    i32,
    i32,
    i64,
    i32,
    i32,
    i32,
) -> Status;
pub type GemmBatchedExFn = unsafe extern "C" fn(
    Handle,
    i32,
    i32,
    i32,
    i32,
    i32,
    *const c_void,
    *const *const c_void,
    i32,
    i32,
    *const *const c_void,
    i32,
    i32,
    *const c_void,
    *const *mut c_void,
    i32,
    i32,
    i32,
    i32,
    i32,
) -> Status;
pub type SgemmFn = unsafe extern "C" fn(
    Handle,
    i32,
    i32,
    i32,
    i32,
    i32,
    *const f32,
    *const f32,
    i32,
    *const f32,
    i32,
    *const f32,
    *mut f32,
    i32,
) -> Status;
pub type SgemmStridedBatchedFn = unsafe extern "C" fn(
    Handle,
    i32,
    i32,
    i32,
    i32,
    i32,
    *const f32,
    *const f32,
    i32,
    i64,
    *const f32,
    i32,
    i64,
    *const f32,
    *mut f32,
    i32,
    i64,
    i32,
) -> Status;
/// `__half` travels as its 16 bits.
pub type HgemmFn = unsafe extern "C" fn(
    Handle,
    i32,
    i32,
    i32,
    i32,
    i32,
    *const u16,
    *const u16,
    i32,
    *const u16,
    i32,
    *const u16,
    *mut u16,
    i32,
) -> Status;
pub type GetStreamFn = unsafe extern "C" fn(Handle, *mut *mut c_void) -> Status;
pub type SetWorkspaceFn = unsafe extern "C" fn(Handle, *mut c_void, usize) -> Status;
pub type DestroyFn = unsafe extern "C" fn(Handle) -> Status;
pub type SetStreamFn = unsafe extern "C" fn(Handle, *mut c_void) -> Status;
/// cublasGetPointerMode_v2, cublasGetMathMode and cublasGetSmCountTarget: an int-sized out.
pub type GetIntFn = unsafe extern "C" fn(Handle, *mut i32) -> Status;

/// The real cuBLASLt functions used here.
pub struct Lt {
    pub matmul: Option<LtMatmulFn>,
    pub desc_get: Option<GetAttributeFn>,
    pub layout_get: Option<GetAttributeFn>,
}

/// The real cuBLAS functions used here.
pub struct Blas {
    pub gemm_ex: Option<GemmExFn>,
    pub gemm_strided_batched_ex: Option<GemmStridedBatchedExFn>,
    pub gemm_batched_ex: Option<GemmBatchedExFn>,
    pub sgemm: Option<SgemmFn>,
    pub sgemm_strided_batched: Option<SgemmStridedBatchedFn>,
    pub hgemm: Option<HgemmFn>,
    pub get_stream: Option<GetStreamFn>,
    pub get_pointer_mode: Option<GetIntFn>,
    pub get_math_mode: Option<GetIntFn>,
    /// Absent before cuBLAS 11.3; absent means "no target".
    pub get_sm_count_target: Option<GetIntFn>,
    /// Interposed to learn each handle's workspace (`workspace`).
    pub set_workspace: Option<SetWorkspaceFn>,
    pub destroy: Option<DestroyFn>,
    pub set_stream: Option<SetStreamFn>,
}

/// Every major version a host may have loaded (step 1 finds the one it did: a CUDA 11 build of
/// PyTorch loads .so.11, and without it here step 3 would load a .so.12 or .so.13 from the
/// path and hand it the .so.11's handles, or find nothing: a session-51 review).
const LT_SONAMES: [&CStr; 4] = [
    c"libcublasLt.so.13",
    c"libcublasLt.so.12",
    c"libcublasLt.so.11",
    c"libcublasLt.so",
];
const BLAS_SONAMES: [&CStr; 4] = [
    c"libcublas.so.13",
    c"libcublas.so.12",
    c"libcublas.so.11",
    c"libcublas.so",
];

/// `p` unless it is NULL or one of `ours` (our own exports).
fn accept(p: *mut c_void, ours: &[usize]) -> Option<*mut c_void> {
    (!p.is_null() && !ours.contains(&(p as usize))).then_some(p)
}

/// The `dlsym` handle of the library of `sonames` whose `anchor` a forwarded call should
/// reach (the module comment's three steps; `RTLD_NEXT` itself where the library found
/// through it cannot be reopened by its file name); `None` when none has it.
fn library(sonames: &[&CStr], anchor: &CStr, ours: &[usize]) -> Option<*mut c_void> {
    let open = |flags: c_int| {
        sonames.iter().find_map(|so| {
            // SAFETY: dlopen/dlsym with NUL-terminated names; a NULL handle is checked. The
            // handle is kept (never closed) when it is chosen.
            unsafe {
                let h = libc::dlopen(so.as_ptr(), flags);
                if h.is_null() {
                    return None;
                }
                if accept(libc::dlsym(h, anchor.as_ptr()), ours).is_some() {
                    Some(h)
                } else {
                    libc::dlclose(h);
                    None
                }
            }
        })
    };
    open(libc::RTLD_NOLOAD | libc::RTLD_LAZY)
        .or_else(|| {
            // SAFETY: RTLD_NEXT lookup of a NUL-terminated name; dladdr fills `info` for an
            // address inside a loaded object (checked by its return value), whose file name
            // is NUL-terminated and reopened without loading anything.
            unsafe {
                let p = accept(libc::dlsym(libc::RTLD_NEXT, anchor.as_ptr()), ours)?;
                let mut info: libc::Dl_info = std::mem::zeroed();
                if libc::dladdr(p, &mut info) != 0 && !info.dli_fname.is_null() {
                    let h = libc::dlopen(info.dli_fname, libc::RTLD_NOLOAD | libc::RTLD_LAZY);
                    if !h.is_null() {
                        if libc::dlsym(h, anchor.as_ptr()) == p {
                            return Some(h);
                        }
                        libc::dlclose(h);
                    }
                }
                Some(libc::RTLD_NEXT)
            }
        })
        .or_else(|| open(libc::RTLD_LAZY | libc::RTLD_LOCAL))
}

/// `name` in `lib`, `None` when it lacks it (or it is one of `ours`).
fn resolve(lib: Option<*mut c_void>, name: &CStr, ours: &[usize]) -> Option<*mut c_void> {
    // SAFETY: dlsym of a NUL-terminated name in a handle dlopen returned, or RTLD_NEXT.
    accept(unsafe { libc::dlsym(lib?, name.as_ptr()) }, ours)
}

macro_rules! lookup {
    ($lib:expr, $name:literal, $ty:ty, $ours:expr) => {
        // SAFETY: the symbol of that name in cuBLAS has exactly the C signature `$ty`
        // (cublas_api.h / cublasLt.h); data and function pointers have one size here.
        resolve($lib, $name, $ours).map(|p| unsafe { std::mem::transmute::<*mut c_void, $ty>(p) })
    };
}

/// The versioned sonames of `sonames` loaded in the process now (RTLD_NOLOAD: nothing loads).
fn loaded(sonames: &[&CStr]) -> Vec<String> {
    sonames
        .iter()
        .filter(|so| so.to_bytes().last().is_some_and(u8::is_ascii_digit))
        .filter(|so| {
            // SAFETY: dlopen with RTLD_NOLOAD of a NUL-terminated name only looks the library
            // up; the handle (a reference count) is dropped again.
            unsafe {
                let h = libc::dlopen(so.as_ptr(), libc::RTLD_NOLOAD | libc::RTLD_LAZY);
                !h.is_null() && {
                    libc::dlclose(h);
                    true
                }
            }
        })
        .map(|so| so.to_string_lossy().into_owned())
        .collect()
}

/// Two major versions of one cuBLAS library in the process (e.g. PyTorch on CUDA 12 beside a
/// package built for CUDA 13): every interposed call, forwarded or not, goes to the first one
/// found, and a handle of the other would be handed to it. Said once, loudly (a review): the
/// caller of each call is not known here, so nothing better can be done than not to
/// preload this library into such a process.
fn warn_if_several(sonames: &[&CStr]) {
    let found = loaded(sonames);
    if found.len() > 1 {
        crate::stats::emit(&format!(
            "deepgemm-preload: WARNING: {} are all loaded; every call is sent to {}, and a \
             handle made by another of them will fail or crash there. Do not preload \
             libdeepgemm_preload.so into this process.\n",
            found.join(", "),
            found[0]
        ));
    }
}

/// The real cuBLASLt, resolved on first use.
pub fn lt() -> &'static Lt {
    static LT: OnceLock<Lt> = OnceLock::new();
    LT.get_or_init(|| {
        warn_if_several(&LT_SONAMES);
        let ours = crate::exports::addresses();
        let lib = library(&LT_SONAMES, c"cublasLtMatmul", &ours);
        Lt {
            matmul: lookup!(lib, c"cublasLtMatmul", LtMatmulFn, &ours),
            desc_get: lookup!(
                lib,
                c"cublasLtMatmulDescGetAttribute",
                GetAttributeFn,
                &ours
            ),
            layout_get: lookup!(
                lib,
                c"cublasLtMatrixLayoutGetAttribute",
                GetAttributeFn,
                &ours
            ),
        }
    })
}

/// The real cuBLAS, resolved on first use.
pub fn blas() -> &'static Blas {
    static BLAS: OnceLock<Blas> = OnceLock::new();
    BLAS.get_or_init(|| {
        warn_if_several(&BLAS_SONAMES);
        let ours = crate::exports::addresses();
        let lib = library(&BLAS_SONAMES, c"cublasGemmEx", &ours);
        Blas {
            gemm_ex: lookup!(lib, c"cublasGemmEx", GemmExFn, &ours),
            gemm_strided_batched_ex: lookup!(
                lib,
                c"cublasGemmStridedBatchedEx",
                GemmStridedBatchedExFn,
                &ours
            ),
            gemm_batched_ex: lookup!(lib, c"cublasGemmBatchedEx", GemmBatchedExFn, &ours),
            sgemm: lookup!(lib, c"cublasSgemm_v2", SgemmFn, &ours),
            sgemm_strided_batched: lookup!(
                lib,
                c"cublasSgemmStridedBatched",
                SgemmStridedBatchedFn,
                &ours
            ),
            hgemm: lookup!(lib, c"cublasHgemm", HgemmFn, &ours),
            get_stream: lookup!(lib, c"cublasGetStream_v2", GetStreamFn, &ours),
            get_pointer_mode: lookup!(lib, c"cublasGetPointerMode_v2", GetIntFn, &ours),
            get_math_mode: lookup!(lib, c"cublasGetMathMode", GetIntFn, &ours),
            get_sm_count_target: lookup!(lib, c"cublasGetSmCountTarget", GetIntFn, &ours),
            set_workspace: lookup!(lib, c"cublasSetWorkspace_v2", SetWorkspaceFn, &ours),
            destroy: lookup!(lib, c"cublasDestroy_v2", DestroyFn, &ours),
            set_stream: lookup!(lib, c"cublasSetStream_v2", SetStreamFn, &ours),
        }
    })
}
