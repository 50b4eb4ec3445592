//! The real cuBLAS and cuBLASLt functions this library stands in front of.
//!
//! Each table is resolved once, on the first call that needs it (`OnceLock`: one atomic
//! load afterwards), in the order the issue prescribes:
//! 1. `dlopen(soname, RTLD_NOLOAD)` + `dlsym`: the copy the host already loaded. This is
//!    the one that works inside PyTorch, which loads cuBLAS with RTLD_LOCAL, so its symbols
//!    are not in the global scope and `RTLD_NEXT` finds nothing (reference.md §1).
//! 2. `dlsym(RTLD_NEXT, name)`: a cuBLAS linked normally into the program.
//! 3. `dlopen(soname, RTLD_LAZY | RTLD_LOCAL)`: load it ourselves (the host called a cuBLAS
//!    function, so it must exist somewhere on the loader path).
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

/// Finds `name` for a library known by `sonames`; `None` when no step finds it or every
/// hit is one of `ours` (our own exports).
fn resolve(sonames: &[&CStr], name: &CStr, ours: &[usize]) -> Option<*mut c_void> {
    let accept = |p: *mut c_void| (!p.is_null() && !ours.contains(&(p as usize))).then_some(p);
    let sym = |flags: c_int| {
        sonames.iter().find_map(|so| {
            // SAFETY: dlopen/dlsym with NUL-terminated names; a NULL handle is checked.
            unsafe {
                let h = libc::dlopen(so.as_ptr(), flags);
                if h.is_null() {
                    return None;
                }
                accept(libc::dlsym(h, name.as_ptr()))
            }
        })
    };
    sym(libc::RTLD_NOLOAD | libc::RTLD_LAZY)
        // SAFETY: RTLD_NEXT lookup of a NUL-terminated name.
        .or_else(|| accept(unsafe { libc::dlsym(libc::RTLD_NEXT, name.as_ptr()) }))
        .or_else(|| sym(libc::RTLD_LAZY | libc::RTLD_LOCAL))
}

macro_rules! lookup {
    ($sonames:expr, $name:literal, $ty:ty, $ours:expr) => {
        // SAFETY: the symbol of that name in cuBLAS has exactly the C signature `$ty`
        // (cublas_api.h / cublasLt.h); data and function pointers have one size here.
        resolve(&$sonames, $name, $ours)
            .map(|p| unsafe { std::mem::transmute::<*mut c_void, $ty>(p) })
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
        Lt {
            matmul: lookup!(LT_SONAMES, c"cublasLtMatmul", LtMatmulFn, &ours),
            desc_get: lookup!(
                LT_SONAMES,
                c"cublasLtMatmulDescGetAttribute",
                GetAttributeFn,
                &ours
            ),
            layout_get: lookup!(
                LT_SONAMES,
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
        Blas {
            gemm_ex: lookup!(BLAS_SONAMES, c"cublasGemmEx", GemmExFn, &ours),
            gemm_strided_batched_ex: lookup!(
                BLAS_SONAMES,
                c"cublasGemmStridedBatchedEx",
                GemmStridedBatchedExFn,
                &ours
            ),
            gemm_batched_ex: lookup!(BLAS_SONAMES, c"cublasGemmBatchedEx", GemmBatchedExFn, &ours),
            sgemm: lookup!(BLAS_SONAMES, c"cublasSgemm_v2", SgemmFn, &ours),
            sgemm_strided_batched: lookup!(
                BLAS_SONAMES,
                c"cublasSgemmStridedBatched",
                SgemmStridedBatchedFn,
                &ours
            ),
            hgemm: lookup!(BLAS_SONAMES, c"cublasHgemm", HgemmFn, &ours),
            get_stream: lookup!(BLAS_SONAMES, c"cublasGetStream_v2", GetStreamFn, &ours),
            get_pointer_mode: lookup!(BLAS_SONAMES, c"cublasGetPointerMode_v2", GetIntFn, &ours),
            get_math_mode: lookup!(BLAS_SONAMES, c"cublasGetMathMode", GetIntFn, &ours),
            get_sm_count_target: lookup!(BLAS_SONAMES, c"cublasGetSmCountTarget", GetIntFn, &ours),
            set_workspace: lookup!(
                BLAS_SONAMES,
                c"cublasSetWorkspace_v2",
                SetWorkspaceFn,
                &ours
            ),
            destroy: lookup!(BLAS_SONAMES, c"cublasDestroy_v2", DestroyFn, &ours),
            set_stream: lookup!(BLAS_SONAMES, c"cublasSetStream_v2", SetStreamFn, &ours),
        }
    })
}
