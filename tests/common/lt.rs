//! One table of cuBLASLt-shaped entry points, filled either from deepgemm's C API
//! (`deepgemm::ffi`) or from NVIDIA's libcublasLt loaded at run time with dlopen, plus
//! the calls every check makes through it: descriptors, heuristic, matmul.
//!
//! deepgemm's exports have cuBLASLt's shapes and numeric values, so one table type serves
//! both and the bench times the two libraries through identical code.

#![allow(dead_code)]

use std::ffi::{CStr, CString, c_void};
use std::ptr;

use super::host::{A, B, C, D, GemmSpec};

/// cublasStatus_t; 0 is success.
pub type Status = i32;
/// Any cuBLASLt object handle (handle, matmul desc, layout, preference).
pub type Handle = *mut c_void;

/// cublasLtMatmulAlgo_t: 8 opaque words.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Algo {
    pub data: [u64; 8],
}

/// cublasLtMatmulHeuristicResult_t (96 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct HeuristicResult {
    pub algo: Algo,
    pub workspace_size: usize,
    pub state: Status,
    pub waves_count: f32,
    pub reserved: [i32; 4],
}

const _: () = assert!(std::mem::size_of::<HeuristicResult>() == 96);

/// Attribute numbers (cublasLt.h), shared by both libraries.
pub mod attr {
    pub const DESC_POINTER_MODE: i32 = 2;
    pub const DESC_TRANSA: i32 = 3;
    pub const DESC_TRANSB: i32 = 4;
    pub const DESC_EPILOGUE: i32 = 7;
    pub const DESC_BIAS_POINTER: i32 = 8;
    pub const DESC_BIAS_BATCH_STRIDE: i32 = 10;
    pub const DESC_BIAS_DATA_TYPE: i32 = 26;
    pub const LAYOUT_ORDER: i32 = 1;
    pub const LAYOUT_BATCH_COUNT: i32 = 5;
    pub const LAYOUT_STRIDED_BATCH_OFFSET: i32 = 6;
    pub const PREF_MAX_WORKSPACE_BYTES: i32 = 1;
    pub const PREF_MIN_ALIGNMENT_A_BYTES: i32 = 5;
    pub const PREF_MIN_ALIGNMENT_B_BYTES: i32 = 6;
    pub const POINTER_MODE_DEVICE: i32 = 1;
    pub const SCALE_R_32F: i32 = 0;
}

type FnCreate = unsafe extern "C" fn(*mut Handle) -> Status;
type FnDestroy = unsafe extern "C" fn(Handle) -> Status;
type FnDescCreate = unsafe extern "C" fn(*mut Handle, i32, i32) -> Status;
type FnSet = unsafe extern "C" fn(Handle, i32, *const c_void, usize) -> Status;
type FnLayoutCreate = unsafe extern "C" fn(*mut Handle, i32, u64, u64, i64) -> Status;
type FnHeuristic = unsafe extern "C" fn(
    Handle,
    Handle,
    Handle,
    Handle,
    Handle,
    Handle,
    Handle,
    i32,
    *mut HeuristicResult,
    *mut i32,
) -> Status;
type FnMatmul = unsafe extern "C" fn(
    Handle,
    Handle,
    *const c_void,
    *const c_void,
    Handle,
    *const c_void,
    Handle,
    *const c_void,
    *const c_void,
    Handle,
    *mut c_void,
    Handle,
    *const Algo,
    *mut c_void,
    usize,
    *mut c_void,
) -> Status;

/// The entry points of one library.
pub struct LtApi {
    pub name: &'static str,
    pub create: FnCreate,
    pub destroy: FnDestroy,
    pub desc_create: FnDescCreate,
    pub desc_destroy: FnDestroy,
    pub desc_set: FnSet,
    pub layout_create: FnLayoutCreate,
    pub layout_destroy: FnDestroy,
    pub layout_set: FnSet,
    pub pref_create: FnCreate,
    pub pref_destroy: FnDestroy,
    pub pref_set: FnSet,
    pub heuristic: FnHeuristic,
    pub matmul: FnMatmul,
    /// The dlopen handle of a loaded library. Never dlclose'd: cuBLASLt keeps internal
    /// state (and may keep threads) until the process exits.
    pub dl_handle: *mut c_void,
    /// The file that was loaded, for the report.
    pub file: String,
}

fn dl_error() -> String {
    // SAFETY: dlerror returns NULL or a NUL-terminated string owned by libc.
    let e = unsafe { libc::dlerror() };
    if e.is_null() {
        "unknown dlopen error".into()
    } else {
        // SAFETY: non-NULL, NUL-terminated (above).
        unsafe { CStr::from_ptr(e) }.to_string_lossy().into_owned()
    }
}

impl LtApi {
    /// NVIDIA's cuBLASLt: libcublasLt.so.13, then .so.12, then the unversioned name.
    /// The error lists what was tried and why each failed.
    pub fn cublaslt() -> Result<LtApi, String> {
        let mut why = Vec::new();
        for name in ["libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so"] {
            let c = CString::new(name).unwrap_or_default();
            // SAFETY: dlopen with a valid C string; the handle is kept for the process.
            let h = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
            if h.is_null() {
                why.push(dl_error());
                continue;
            }
            return LtApi::from_dl(h, name).map_err(|e| format!("{name}: {e}"));
        }
        Err(why.join("; "))
    }

    fn from_dl(h: *mut c_void, name: &str) -> Result<LtApi, String> {
        let sym = |s: &str| -> Result<*mut c_void, String> {
            let c = CString::new(s).map_err(|e| e.to_string())?;
            // SAFETY: `h` is a live dlopen handle, `c` a valid C string.
            let p = unsafe { libc::dlsym(h, c.as_ptr()) };
            if p.is_null() {
                Err(format!("symbol {s} missing"))
            } else {
                Ok(p)
            }
        };
        // SAFETY (each transmute): the symbol is cuBLASLt's function of that name, whose C
        // signature (cublasLt.h) is the pointer type it is cast to: handles are pointers,
        // enums are int, cublasStatus_t is int.
        unsafe {
            Ok(LtApi {
                name: "cuBLASLt",
                create: std::mem::transmute::<*mut c_void, FnCreate>(sym("cublasLtCreate")?),
                destroy: std::mem::transmute::<*mut c_void, FnDestroy>(sym("cublasLtDestroy")?),
                desc_create: std::mem::transmute::<*mut c_void, FnDescCreate>(sym(
                    "cublasLtMatmulDescCreate",
                )?),
                desc_destroy: std::mem::transmute::<*mut c_void, FnDestroy>(sym(
                    "cublasLtMatmulDescDestroy",
                )?),
                desc_set: std::mem::transmute::<*mut c_void, FnSet>(sym(
                    "cublasLtMatmulDescSetAttribute",
                )?),
                layout_create: std::mem::transmute::<*mut c_void, FnLayoutCreate>(sym(
                    "cublasLtMatrixLayoutCreate",
                )?),
                layout_destroy: std::mem::transmute::<*mut c_void, FnDestroy>(sym(
                    "cublasLtMatrixLayoutDestroy",
                )?),
                layout_set: std::mem::transmute::<*mut c_void, FnSet>(sym(
                    "cublasLtMatrixLayoutSetAttribute",
                )?),
                pref_create: std::mem::transmute::<*mut c_void, FnCreate>(sym(
                    "cublasLtMatmulPreferenceCreate",
                )?),
                pref_destroy: std::mem::transmute::<*mut c_void, FnDestroy>(sym(
                    "cublasLtMatmulPreferenceDestroy",
                )?),
                pref_set: std::mem::transmute::<*mut c_void, FnSet>(sym(
                    "cublasLtMatmulPreferenceSetAttribute",
                )?),
                heuristic: std::mem::transmute::<*mut c_void, FnHeuristic>(sym(
                    "cublasLtMatmulAlgoGetHeuristic",
                )?),
                matmul: std::mem::transmute::<*mut c_void, FnMatmul>(sym("cublasLtMatmul")?),
                dl_handle: h,
                file: match sym("cublasLtGetVersion") {
                    Ok(v) => {
                        let get =
                            std::mem::transmute::<*mut c_void, unsafe extern "C" fn() -> usize>(v);
                        format!("{name} (version {})", get())
                    }
                    Err(_) => name.to_string(),
                },
            })
        }
    }

    /// deepgemm's C API, linked into this executable.
    pub fn deepgemm() -> LtApi {
        super::dg::table()
    }
}

/// `Err("<library> <call>: status N")` unless `s` is success.
pub fn check(api: &LtApi, call: &str, s: Status) -> Result<(), String> {
    if s == 0 {
        Ok(())
    } else {
        Err(format!(
            "{} {call}: status {s} ({})",
            api.name,
            status_name(s)
        ))
    }
}

/// cublasStatus_t names, for messages.
pub fn status_name(s: Status) -> &'static str {
    match s {
        0 => "SUCCESS",
        1 => "NOT_INITIALIZED",
        3 => "ALLOC_FAILED",
        7 => "INVALID_VALUE",
        8 => "ARCH_MISMATCH",
        11 => "MAPPING_ERROR",
        13 => "EXECUTION_FAILED",
        14 => "INTERNAL_ERROR",
        15 => "NOT_SUPPORTED",
        16 => "LICENSE_ERROR",
        _ => "unknown status",
    }
}

/// A library handle (cublasLtHandle_t), destroyed on drop.
pub struct LtHandle<'a> {
    pub api: &'a LtApi,
    pub h: Handle,
}

impl<'a> LtHandle<'a> {
    pub fn new(api: &'a LtApi) -> Result<LtHandle<'a>, String> {
        let mut h = ptr::null_mut();
        // SAFETY: out-pointer to a local.
        check(api, "Create", unsafe { (api.create)(&mut h) })?;
        Ok(LtHandle { api, h })
    }
}

impl Drop for LtHandle<'_> {
    fn drop(&mut self) {
        // SAFETY: created by `create`, destroyed once.
        unsafe { (self.api.destroy)(self.h) };
    }
}

/// An object with a destroy function (matmul desc, layout, preference).
pub struct Obj<'a> {
    pub h: Handle,
    destroy: FnDestroy,
    set: FnSet,
    api: &'a LtApi,
    what: &'static str,
}

impl Obj<'_> {
    /// Sets one attribute from a plain value (its size is the attribute's size).
    pub fn set<T: Copy>(&self, attr: i32, value: T) -> Result<(), String> {
        // SAFETY: `value` lives for the call and is `size_of::<T>()` bytes.
        let s = unsafe {
            (self.set)(
                self.h,
                attr,
                &value as *const T as *const c_void,
                std::mem::size_of::<T>(),
            )
        };
        check(self.api, &format!("{}SetAttribute({attr})", self.what), s)
    }
}

impl Drop for Obj<'_> {
    fn drop(&mut self) {
        // SAFETY: created by the matching create, destroyed once.
        unsafe { (self.destroy)(self.h) };
    }
}

/// Descriptors of one GEMM for one library: matmul desc, the four layouts, preference.
pub struct Descs<'a> {
    pub desc: Obj<'a>,
    pub layouts: [Obj<'a>; 4],
    pub pref: Obj<'a>,
}

impl<'a> Descs<'a> {
    /// Describes `spec` the way a C caller would. `bias_ptr` is set when the epilogue has
    /// a bias; `max_workspace` goes into the preference.
    pub fn new(
        api: &'a LtApi,
        spec: &GemmSpec,
        bias_ptr: u64,
        max_workspace: u64,
    ) -> Result<Descs<'a>, String> {
        let mut h = ptr::null_mut();
        // SAFETY: out-pointer to a local.
        let s = unsafe { (api.desc_create)(&mut h, spec.compute_type(), attr::SCALE_R_32F) };
        check(api, "MatmulDescCreate", s)?;
        let desc = Obj {
            h,
            destroy: api.desc_destroy,
            set: api.desc_set,
            api,
            what: "MatmulDesc",
        };
        desc.set(attr::DESC_TRANSA, spec.trans_a as i32)?;
        desc.set(attr::DESC_TRANSB, spec.trans_b as i32)?;
        if spec.epi != super::host::Epi::Default {
            desc.set(attr::DESC_EPILOGUE, spec.epi.cuda())?;
        }
        if spec.epi.has_bias() {
            desc.set(attr::DESC_BIAS_POINTER, bias_ptr as *const c_void)?;
            if let Some(t) = spec.bias_type {
                desc.set(attr::DESC_BIAS_DATA_TYPE, t.cuda())?;
            }
            if spec.bias_batch_stride != 0 {
                desc.set(attr::DESC_BIAS_BATCH_STRIDE, spec.bias_batch_stride as i64)?;
            }
        }
        if spec.device_scalars {
            desc.set(attr::DESC_POINTER_MODE, attr::POINTER_MODE_DEVICE)?;
        }
        let layout = |which: usize| -> Result<Obj<'a>, String> {
            let g = spec.geom(which);
            let t = if which == A || which == B {
                spec.ab
            } else {
                spec.cd
            };
            let mut h = ptr::null_mut();
            // SAFETY: out-pointer to a local.
            let s = unsafe { (api.layout_create)(&mut h, t.cuda(), g.rows, g.cols, g.ld as i64) };
            check(api, "MatrixLayoutCreate", s)?;
            let l = Obj {
                h,
                destroy: api.layout_destroy,
                set: api.layout_set,
                api,
                what: "MatrixLayout",
            };
            if g.order != super::host::Order::Col {
                l.set(attr::LAYOUT_ORDER, g.order.cuda())?;
            }
            if spec.batch > 1 {
                l.set(attr::LAYOUT_BATCH_COUNT, spec.batch as i32)?;
                l.set(attr::LAYOUT_STRIDED_BATCH_OFFSET, g.batch_stride as i64)?;
            }
            Ok(l)
        };
        let layouts = [layout(A)?, layout(B)?, layout(C)?, layout(D)?];
        let mut h = ptr::null_mut();
        // SAFETY: out-pointer to a local.
        check(api, "MatmulPreferenceCreate", unsafe {
            (api.pref_create)(&mut h)
        })?;
        let pref = Obj {
            h,
            destroy: api.pref_destroy,
            set: api.pref_set,
            api,
            what: "MatmulPreference",
        };
        pref.set(attr::PREF_MAX_WORKSPACE_BYTES, max_workspace)?;
        // A view at an offset: the alignment its address has, as PyTorch announces it.
        for (w, id) in [
            (A, attr::PREF_MIN_ALIGNMENT_A_BYTES),
            (B, attr::PREF_MIN_ALIGNMENT_B_BYTES),
        ] {
            if spec.shift[w] != 0 {
                pref.set(id, spec.alignment(w))?;
            }
        }
        Ok(Descs {
            desc,
            layouts,
            pref,
        })
    }

    /// The heuristic's best algorithm. An error when the library returns none, or one
    /// whose state is not success or whose workspace exceeds `max_workspace`.
    pub fn heuristic(
        &self,
        handle: &LtHandle,
        max_workspace: u64,
    ) -> Result<HeuristicResult, String> {
        self.heuristic_nth(handle, max_workspace, 0)
    }

    /// The heuristic's algorithm of rank `index` (0: the best), for timing each candidate.
    pub fn heuristic_nth(
        &self,
        handle: &LtHandle,
        max_workspace: u64,
        index: usize,
    ) -> Result<HeuristicResult, String> {
        let api = handle.api;
        let mut res = vec![HeuristicResult::default(); index + 1];
        let mut count = -1i32;
        // SAFETY: every handle is live; `res` has room for the index + 1 results requested.
        let s = unsafe {
            (api.heuristic)(
                handle.h,
                self.desc.h,
                self.layouts[A].h,
                self.layouts[B].h,
                self.layouts[C].h,
                self.layouts[D].h,
                self.pref.h,
                (index + 1) as i32,
                res.as_mut_ptr(),
                &mut count,
            )
        };
        check(api, "MatmulAlgoGetHeuristic", s)?;
        if count < index as i32 + 1 {
            return Err(format!(
                "{} heuristic returned {count} algorithms (rank {index} asked for)",
                api.name
            ));
        }
        let r = res[index];
        check(api, "heuristic result state", r.state)?;
        if r.workspace_size as u64 > max_workspace {
            return Err(format!(
                "{} heuristic wants {} bytes of workspace, more than the {max_workspace} allowed",
                api.name, r.workspace_size
            ));
        }
        Ok(r)
    }
}

/// The pointers of one matmul call.
#[derive(Clone, Copy, Debug)]
pub struct Args {
    /// Host f32 values, or device addresses of f32 values when the spec says
    /// `device_scalars`.
    pub alpha: *const c_void,
    pub beta: *const c_void,
    pub a: u64,
    pub b: u64,
    pub c: u64,
    pub d: u64,
    pub workspace: u64,
    pub workspace_size: usize,
    pub stream: *mut c_void,
}

/// One asynchronous matmul call (`algo = None` lets the library choose).
pub fn matmul(
    handle: &LtHandle,
    descs: &Descs,
    algo: Option<&Algo>,
    x: &Args,
) -> Result<(), String> {
    check(handle.api, "Matmul", matmul_status(handle, descs, algo, x))
}

/// `matmul`, returning the library's status as it is (for tests of refused calls).
pub fn matmul_status(handle: &LtHandle, descs: &Descs, algo: Option<&Algo>, x: &Args) -> Status {
    let api = handle.api;
    // SAFETY: handles are live, the device addresses come from allocations sized by the
    // same spec that built the layouts, and alpha/beta point at f32 values that outlive
    // the call (host) or the stream's work (device).
    unsafe {
        (api.matmul)(
            handle.h,
            descs.desc.h,
            x.alpha,
            x.a as *const c_void,
            descs.layouts[A].h,
            x.b as *const c_void,
            descs.layouts[B].h,
            x.beta,
            x.c as *const c_void,
            descs.layouts[C].h,
            x.d as *mut c_void,
            descs.layouts[D].h,
            algo.map_or(ptr::null(), |a| a as *const Algo),
            x.workspace as *mut c_void,
            x.workspace_size,
            x.stream,
        )
    }
}
