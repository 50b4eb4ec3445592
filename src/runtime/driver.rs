//! The result layer over the CUDA driver (cudarc's `sys`, loaded at run time).
//!
//! Every driver call goes through `check`, which turns a `CUresult` into an `Error` with the
//! driver's own error name. cudarc panics when libcuda or a symbol is missing, so the first
//! touch of the driver (`init`) checks for the library and catches panics: with no driver or
//! no GPU the library reports NOT_INITIALIZED and the process lives on.

use std::ffi::{CStr, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};

use cudarc::driver::sys::{self, CUcontext, CUdevice, CUdevice_attribute, CUresult, CUstream};
use once_cell::sync::OnceCell;
use parking_lot::Mutex;

use crate::error::{Error, Result};
use crate::plan::DeviceSpec;

/// The driver's name for an error code, e.g. "CUDA_ERROR_INVALID_VALUE".
pub fn error_name(r: CUresult) -> String {
    let mut p: *const std::ffi::c_char = std::ptr::null();
    // SAFETY: cuGetErrorName writes a pointer to a static string (or leaves it NULL).
    let ok = unsafe { sys::cuGetErrorName(r, &mut p) } == CUresult::CUDA_SUCCESS;
    if ok && !p.is_null() {
        // SAFETY: the driver returns a NUL-terminated static string.
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    } else {
        format!("{r:?}")
    }
}

/// Maps a driver result to the cuBLAS status with the same meaning.
pub fn check(r: CUresult, what: &str) -> Result<()> {
    use CUresult::*;
    if r == CUDA_SUCCESS {
        return Ok(());
    }
    let msg = format!("{what}: {}", error_name(r));
    Err(match r {
        CUDA_ERROR_NOT_INITIALIZED
        | CUDA_ERROR_DEINITIALIZED
        | CUDA_ERROR_NO_DEVICE
        | CUDA_ERROR_INVALID_DEVICE
        | CUDA_ERROR_STUB_LIBRARY
        | CUDA_ERROR_SYSTEM_DRIVER_MISMATCH => Error::NotInitialized(msg),
        CUDA_ERROR_OUT_OF_MEMORY => Error::AllocFailed(msg),
        CUDA_ERROR_INVALID_VALUE
        | CUDA_ERROR_INVALID_HANDLE
        | CUDA_ERROR_INVALID_CONTEXT
        | CUDA_ERROR_CONTEXT_IS_DESTROYED => Error::InvalidValue(msg),
        CUDA_ERROR_NO_BINARY_FOR_GPU | CUDA_ERROR_UNSUPPORTED_PTX_VERSION => {
            Error::ArchMismatch(msg)
        }
        CUDA_ERROR_LAUNCH_FAILED
        | CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
        | CUDA_ERROR_LAUNCH_TIMEOUT
        | CUDA_ERROR_ILLEGAL_ADDRESS
        | CUDA_ERROR_MISALIGNED_ADDRESS
        | CUDA_ERROR_ILLEGAL_INSTRUCTION
        | CUDA_ERROR_HARDWARE_STACK_ERROR
        | CUDA_ERROR_ECC_UNCORRECTABLE => Error::ExecutionFailed(msg),
        _ => Error::Internal(msg),
    })
}

/// Runs a closure that touches cudarc's lazily loaded symbols; a missing symbol panics inside
/// cudarc, which becomes NOT_INITIALIZED here instead of unwinding further.
fn guarded<T>(what: &str, f: impl FnOnce() -> Result<T>) -> Result<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| {
        Err(Error::NotInitialized(format!(
            "{what}: the CUDA driver library lacks a needed symbol"
        )))
    })
}

/// Loads and initialises the driver once per process; the outcome (success or the reason for
/// failure) is remembered, so later calls cost one atomic load.
pub fn init() -> Result<()> {
    static INIT: OnceCell<Result<()>> = OnceCell::new();
    INIT.get_or_init(|| {
        // SAFETY: probing for the library has no preconditions.
        if !unsafe { sys::is_culib_present() } {
            return Err(Error::NotInitialized(
                "no CUDA driver (libcuda.so) could be loaded".into(),
            ));
        }
        guarded("cuInit", || {
            // SAFETY: cuInit(0) is always valid to call.
            check(unsafe { sys::cuInit(0) }, "cuInit")
                .map_err(|e| Error::NotInitialized(e.to_string()))?;
            let mut count = 0;
            // SAFETY: count is a valid out-pointer.
            check(
                unsafe { sys::cuDeviceGetCount(&mut count) },
                "cuDeviceGetCount",
            )?;
            if count < 1 {
                return Err(Error::NotInitialized("no CUDA device found".into()));
            }
            driver_supported(driver_version())
        })
    })
    .clone()
}

/// The oldest driver deepgemm runs on: CUDA 12.0's, the first with the entry points every
/// launch goes through (cuLibraryLoadData, cuLaunchKernelEx; cuTensorMapEncodeTiled on
/// Hopper).
const MIN_DRIVER: i32 = 12000;

/// NOT_INITIALIZED, said once at initialisation, for a driver older than `MIN_DRIVER`
/// (`version` as cuDriverGetVersion gives it; 0: unknown, let the calls tell). Before session
/// 78 such a driver initialised, and every call then failed on a missing symbol inside
/// cudarc: a panic caught at the C boundary each time, printed by the default panic hook
/// (a review of the LD_PRELOAD library, where that is every GEMM of the host program).
fn driver_supported(version: i32) -> Result<()> {
    if version != 0 && version < MIN_DRIVER {
        return Err(Error::NotInitialized(format!(
            "the CUDA driver supports CUDA {}.{}; deepgemm needs a driver for CUDA 12.0 or later",
            version / 1000,
            version % 1000 / 10
        )));
    }
    Ok(())
}

/// A device as the library sees it: ordinal plus the plain facts planning needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Device {
    pub ordinal: i32,
    pub spec: DeviceSpec,
}

fn attribute(dev: CUdevice, attr: CUdevice_attribute) -> Result<u32> {
    let mut v = 0;
    // SAFETY: v is a valid out-pointer; dev came from the driver.
    check(
        unsafe { sys::cuDeviceGetAttribute(&mut v, attr, dev) },
        "cuDeviceGetAttribute",
    )?;
    Ok(v.max(0) as u32)
}

/// Device facts, queried once per ordinal.
pub fn device(ordinal: i32) -> Result<Device> {
    static SPECS: Mutex<Vec<Option<DeviceSpec>>> = Mutex::new(Vec::new());
    let idx = usize::try_from(ordinal).map_err(|_| Error::InvalidValue("bad device".into()))?;
    if let Some(Some(spec)) = SPECS.lock().get(idx) {
        return Ok(Device {
            ordinal,
            spec: *spec,
        });
    }
    let spec = guarded("device query", || {
        let mut dev: CUdevice = 0;
        // SAFETY: dev is a valid out-pointer.
        check(
            unsafe { sys::cuDeviceGet(&mut dev, ordinal) },
            "cuDeviceGet",
        )?;
        use CUdevice_attribute::*;
        Ok(DeviceSpec {
            cc_major: attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
            cc_minor: attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
            sm_count: attribute(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
            smem_per_block: attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)?,
            partial: false,
        })
    })?;
    let mut specs = SPECS.lock();
    if specs.len() <= idx {
        specs.resize(idx + 1, None);
    }
    specs[idx] = Some(spec);
    Ok(Device { ordinal, spec })
}

/// The special stream handles the driver accepts besides real streams.
const STREAM_LEGACY: usize = 0x1;
const STREAM_PER_THREAD: usize = 0x2;

/// The context a call runs in, made current for the guard's lifetime (and the previous one
/// restored on drop) when it was not already current on this thread.
pub struct ContextGuard {
    pub ctx: CUcontext,
    pub device: Device,
    pushed: bool,
}

impl Drop for ContextGuard {
    fn drop(&mut self) {
        if self.pushed {
            let mut old: CUcontext = std::ptr::null_mut();
            // SAFETY: we pushed exactly this context in `enter`; popping restores the caller's.
            let _ = unsafe { sys::cuCtxPopCurrent_v2(&mut old) };
        }
    }
}

fn current_context() -> Result<CUcontext> {
    let mut ctx: CUcontext = std::ptr::null_mut();
    // SAFETY: ctx is a valid out-pointer.
    check(unsafe { sys::cuCtxGetCurrent(&mut ctx) }, "cuCtxGetCurrent")?;
    Ok(ctx)
}

/// The primary context of device 0, retained once for the life of the process. Used when
/// the calling thread has no current context, as the CUDA runtime (and so cuBLAS) would.
fn default_context() -> Result<CUcontext> {
    static CTX: OnceCell<usize> = OnceCell::new();
    CTX.get_or_try_init(|| {
        let mut dev: CUdevice = 0;
        // SAFETY: out-pointers are valid.
        check(unsafe { sys::cuDeviceGet(&mut dev, 0) }, "cuDeviceGet")?;
        let mut ctx: CUcontext = std::ptr::null_mut();
        // SAFETY: out-pointer valid; the retain is deliberately never released.
        check(
            unsafe { sys::cuDevicePrimaryCtxRetain(&mut ctx, dev) },
            "cuDevicePrimaryCtxRetain",
        )?;
        Ok(ctx as usize)
    })
    .map(|&c| c as CUcontext)
}

/// Resolves the context of `stream` (the caller's; NULL and the legacy/per-thread handles
/// mean the current context) and makes it current for the returned guard's lifetime.
///
/// The device is re-derived on every call because callers move between threads and devices.
pub fn enter(stream: *mut c_void) -> Result<ContextGuard> {
    init()?;
    guarded("context", || {
        let current = current_context()?;
        let ctx = match stream as usize {
            0 | STREAM_LEGACY | STREAM_PER_THREAD => {
                if current.is_null() {
                    default_context()?
                } else {
                    current
                }
            }
            _ => {
                let mut ctx: CUcontext = std::ptr::null_mut();
                // SAFETY: the caller promises `stream` is a live CUstream (as with cuBLASLt).
                check(
                    unsafe { sys::cuStreamGetCtx(stream as CUstream, &mut ctx) },
                    "cuStreamGetCtx (is the stream valid?)",
                )?;
                ctx
            }
        };
        let pushed = ctx != current;
        if pushed {
            // SAFETY: ctx is a live context (from the stream, current, or retained primary).
            check(unsafe { sys::cuCtxPushCurrent_v2(ctx) }, "cuCtxPushCurrent")?;
        }
        // From here on the guard owns the push: any error below pops it again.
        let mut guard = ContextGuard {
            ctx,
            device: Device {
                ordinal: -1,
                spec: DeviceSpec::H200,
            },
            pushed,
        };
        let mut dev: CUdevice = 0;
        // SAFETY: `ctx` is current on this thread; dev is a valid out-pointer.
        check(unsafe { sys::cuCtxGetDevice(&mut dev) }, "cuCtxGetDevice")?;
        guard.device = device(dev)?;
        // A green context's stream (or a context limited by execution affinity) may use only
        // some of the SMs: plan for those, as for SM_COUNT_TARGET.
        if let Some(sms) = context_sm_limit(ctx, guard.device.spec.sm_count) {
            guard.device.spec = guard.device.spec.with_sm_target(sms);
        }
        Ok(guard)
    })
}

/// The driver's CUDA version (cuDriverGetVersion, e.g. 12040), asked once a process; 0 where
/// it cannot say.
pub fn driver_version() -> i32 {
    static V: OnceCell<i32> = OnceCell::new();
    *V.get_or_init(|| {
        guarded("cuDriverGetVersion", || {
            let mut v = 0;
            // SAFETY: a valid out-pointer.
            check(
                unsafe { sys::cuDriverGetVersion(&mut v) },
                "cuDriverGetVersion",
            )?;
            Ok(v)
        })
        .unwrap_or(0)
    })
}

/// The first driver with green contexts (cuCtxGetDevResource); cuCtxGetId is 12.0's.
const GREEN_CONTEXT_MIN_DRIVER: i32 = 12040;

/// The SMs a context may use where fewer than `device_sms`: the least of a green context's SM
/// partition (`resource_sms`, from cuCtxGetDevResource) and an execution-affinity limit
/// (`affinity_sms`, cuCtxGetExecAffinity's SM count); None where neither limits it (a
/// primary context reports every SM; 0 means the driver gave nothing).
pub fn sm_limit_of(resource_sms: u32, affinity_sms: u32, device_sms: u32) -> Option<u32> {
    [resource_sms, affinity_sms]
        .into_iter()
        .filter(|&n| n > 0)
        .min()
        .filter(|&n| n < device_sms)
}

/// `sm_limit_of` for `ctx`, current on this thread, on a device of `device_sms`: so a call
/// on a green context's stream is planned for the partition's SMs (persistent grids,
/// Stream-K ranges, clusters), where it was planned for the whole device and its persistent
/// CTAs queued behind each other. Remembered per thread for its last four contexts by their
/// process-unique ids (cuCtxGetId: a destroyed context's address may come back), so a call
/// pays one driver call for it. None on drivers before 12.4 or where the driver refuses.
fn context_sm_limit(ctx: CUcontext, device_sms: u32) -> Option<u32> {
    use std::cell::Cell;
    use std::sync::atomic::{AtomicBool, Ordering};
    // Set if a symbol the version promised is missing after all: not tried again.
    static BROKEN: AtomicBool = AtomicBool::new(false);
    thread_local! {
        // (context id, its limit or 0) of the last contexts this thread resolved, newest
        // first: a thread that moves between a primary and a green context asks the driver
        // about each once, not at every switch. Id 0: an empty entry.
        static LAST: Cell<[(u64, u32); 4]> = const { Cell::new([(0, 0); 4]) };
    }
    if driver_version() < GREEN_CONTEXT_MIN_DRIVER || BROKEN.load(Ordering::Relaxed) {
        return None;
    }
    let r = catch_unwind(AssertUnwindSafe(|| {
        let mut id: std::ffi::c_ulonglong = 0;
        // SAFETY: ctx is a live context (current on this thread); id a valid out-pointer.
        if unsafe { sys::cuCtxGetId(ctx, &mut id) } != CUresult::CUDA_SUCCESS {
            return None;
        }
        if let Some(&(_, limit)) = LAST.with(Cell::get).iter().find(|e| e.0 == id && id != 0) {
            return (limit > 0).then_some(limit);
        }
        // Room for a larger struct than the binding's: the driver writes its own version's.
        let mut buf = [0u64; 64];
        const _: () = assert!(std::mem::size_of::<sys::CUdevResource>() <= 512);
        let res = buf.as_mut_ptr().cast::<sys::CUdevResource>();
        let mut resource_sms = 0;
        // SAFETY: `res` points at 512 zeroed, 8-byte aligned bytes, more than the struct.
        let ok = unsafe {
            sys::cuCtxGetDevResource(ctx, res, sys::CUdevResourceType::CU_DEV_RESOURCE_TYPE_SM)
        } == CUresult::CUDA_SUCCESS;
        // SAFETY: the driver filled the SM resource's fields (the union's `sm` member for an SM
        // resource); read from the zeroed buffer otherwise.
        if ok && unsafe { (*res).type_ } == sys::CUdevResourceType::CU_DEV_RESOURCE_TYPE_SM {
            resource_sms = unsafe { (*res).__bindgen_anon_1.sm.smCount };
        }
        // SAFETY: a zeroed plain C struct is a valid value to be overwritten.
        let mut aff: sys::CUexecAffinityParam = unsafe { std::mem::zeroed() };
        // SAFETY: valid out-pointer; the current context (ctx) is asked.
        let ok = unsafe {
            sys::cuCtxGetExecAffinity(
                &mut aff,
                sys::CUexecAffinityType::CU_EXEC_AFFINITY_TYPE_SM_COUNT,
            )
        } == CUresult::CUDA_SUCCESS;
        // SAFETY: the SM-count member is the union's only one.
        let affinity_sms = if ok {
            unsafe { aff.param.smCount.val }
        } else {
            0
        };
        let limit = sm_limit_of(resource_sms, affinity_sms, device_sms);
        LAST.with(|l| {
            let mut e = l.get();
            e.rotate_right(1);
            e[0] = (id, limit.unwrap_or(0));
            l.set(e);
        });
        if let Some(n) = limit {
            crate::log::hint(
                "deepgemm",
                format_args!(
                    "context {id} may use {n} of the device's {device_sms} SMs (a green \
                     context or an execution-affinity limit): its calls are planned for {n}"
                ),
            );
        }
        limit
    }));
    r.unwrap_or_else(|_| {
        BROKEN.store(true, Ordering::Relaxed);
        None
    })
}

/// Whether work enqueued on `stream` is being captured into a CUDA graph (or cannot be asked:
/// the legacy stream while another captures in global mode answers an error, taken as yes).
pub fn capturing(stream: *mut c_void) -> bool {
    let mut status = sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE;
    // SAFETY: `stream` is the caller's (or NULL / a special handle); valid out-pointer.
    let r = guarded("cuStreamIsCapturing", || {
        Ok(unsafe { sys::cuStreamIsCapturing(stream as CUstream, &mut status) })
    });
    !matches!(r, Ok(CUresult::CUDA_SUCCESS))
        || status != sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE
}

/// Device memory a handle owns (its default workspace): `bytes` at `ptr`, allocated in
/// context `ctx`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceBuffer {
    pub ptr: u64,
    pub bytes: u64,
    pub ctx: usize,
}

/// This thread's stream-capture mode set to RELAXED until the guard drops: a call that must
/// allocate (cuMemAlloc) or synchronise while another stream of the process captures a graph
/// in GLOBAL mode (PyTorch's default) would otherwise be refused and invalidate that capture.
pub struct RelaxedCapture(sys::CUstreamCaptureMode);

impl RelaxedCapture {
    pub fn enter() -> Result<RelaxedCapture> {
        let mut mode = sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_RELAXED;
        guarded("cuThreadExchangeStreamCaptureMode", || {
            // SAFETY: valid in/out pointer; affects only this thread's mode.
            check(
                unsafe { sys::cuThreadExchangeStreamCaptureMode(&mut mode) },
                "cuThreadExchangeStreamCaptureMode",
            )
        })?;
        Ok(RelaxedCapture(mode))
    }
}

impl Drop for RelaxedCapture {
    fn drop(&mut self) {
        let mut mode = self.0;
        // SAFETY: as above; puts back the mode `enter` replaced.
        let _ = unsafe { sys::cuThreadExchangeStreamCaptureMode(&mut mode) };
    }
}

/// The calling thread's current context as a number (0 when none or the driver cannot say):
/// what the NULL, legacy and per-thread stream handles refer to.
pub fn current_context_id() -> usize {
    guarded("cuCtxGetCurrent", current_context)
        .map(|c| c as usize)
        .unwrap_or(0)
}

/// `bytes` of device memory (cuMemAlloc) in the context of `stream`, when that context is on
/// device `device`; `Ok(None)` when it is on another (the call then fails its device check).
/// In relaxed capture mode, so that another stream's graph capture is not disturbed.
pub fn alloc_for_stream(
    stream: *mut c_void,
    device: i32,
    bytes: u64,
) -> Result<Option<DeviceBuffer>> {
    let guard = enter(stream)?;
    if guard.device.ordinal != device {
        return Ok(None);
    }
    let _relaxed = RelaxedCapture::enter()?;
    guarded("cuMemAlloc", || {
        let mut ptr: sys::CUdeviceptr = 0;
        // SAFETY: valid out-pointer; the stream's context is current (`guard`).
        check(
            unsafe { sys::cuMemAlloc_v2(&mut ptr, bytes as usize) },
            "cuMemAlloc (handle workspace)",
        )?;
        Ok(Some(DeviceBuffer {
            ptr,
            bytes,
            ctx: guard.ctx as usize,
        }))
    })
}

/// Frees `buf` once every launch in its context has finished (cuCtxSynchronize first, as
/// cublasDestroy synchronises: a GEMM still running may use it); where the context cannot be
/// entered or synchronised (destroyed, or a sticky error) the buffer is left, not freed.
/// Errors are logged, not returned: this runs when a handle is destroyed.
pub fn free_synchronized(buf: &DeviceBuffer) {
    let r = guarded("cuMemFree", || {
        let _relaxed = RelaxedCapture::enter()?;
        let ctx = buf.ctx as CUcontext;
        // SAFETY: the context the buffer was allocated in, made current for the free only.
        check(unsafe { sys::cuCtxPushCurrent_v2(ctx) }, "cuCtxPushCurrent")?;
        // SAFETY: `ctx` is current; `buf.ptr` came from cuMemAlloc there and is freed once,
        // only after its context's work is done.
        let free = check(unsafe { sys::cuCtxSynchronize() }, "cuCtxSynchronize")
            .and_then(|()| check(unsafe { sys::cuMemFree_v2(buf.ptr) }, "cuMemFree"));
        let mut old: CUcontext = std::ptr::null_mut();
        // SAFETY: pops exactly the context pushed above.
        let _ = unsafe { sys::cuCtxPopCurrent_v2(&mut old) };
        free
    });
    if let Err(e) = r {
        crate::log::error(
            "deepgemmDestroy",
            format_args!("handle workspace at {:#x}: {e}", buf.ptr),
        );
    }
}

/// The device of the calling thread's current context (device 0 when there is none).
pub fn current_device() -> Result<Device> {
    Ok(enter(std::ptr::null_mut())?.device)
}

/// A handle is bound to the device that was current when it was created (cuBLAS: "the
/// cuBLAS library context is tied to the current CUDA device"; one handle per device).
/// `Ok` when a call's stream (`stream_dev`, the device of the context `enter` resolved:
/// the stream's, or the current one for the NULL stream) is on the handle's device
/// (`handle_dev`); another context on the same device is fine.
///
/// A stream on another device is INVALID_VALUE. cuBLAS documents no status for it (it is
/// undefined there, and typically surfaces later as EXECUTION_FAILED or an illegal
/// address); INVALID_VALUE is what a cuBLAS user expects for an argument that cannot be
/// used with this handle: nothing was enqueued, nothing sticky happened, fix the call.
/// EXECUTION_FAILED would suggest a device fault, MAPPING_ERROR is documented for memory
/// access and texture binding, ARCH_MISMATCH for devices lacking a feature.
pub fn same_device(handle_dev: i32, stream_dev: i32) -> Result<()> {
    if handle_dev == stream_dev {
        return Ok(());
    }
    Err(Error::InvalidValue(format!(
        "the handle belongs to device {handle_dev} (current when it was created) but the \
         stream runs on device {stream_dev}; create one handle per device, with that \
         device current"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drivers_before_cuda_12_are_not_initialized() {
        for v in [11080, 11000, 10020] {
            let e = driver_supported(v).unwrap_err();
            assert!(matches!(e, Error::NotInitialized(_)), "{v}: {e}");
        }
        assert!(
            driver_supported(11080)
                .unwrap_err()
                .to_string()
                .contains("CUDA 11.8")
        );
        for v in [0, 12000, 12040, 13010] {
            driver_supported(v).unwrap();
        }
    }

    #[test]
    fn a_context_limits_its_calls_to_the_fewest_sms_it_reports() {
        // A primary context reports every SM: no limit.
        assert_eq!(sm_limit_of(132, 0, 132), None);
        // A green context's partition.
        assert_eq!(sm_limit_of(64, 0, 132), Some(64));
        // An execution-affinity limit alone (the resource query refused: 0), and both.
        assert_eq!(sm_limit_of(0, 40, 132), Some(40));
        assert_eq!(sm_limit_of(64, 40, 132), Some(40));
        assert_eq!(sm_limit_of(32, 132, 132), Some(32));
        // Nothing known, or nothing under the device's count (device unknown: 0).
        assert_eq!(sm_limit_of(0, 0, 132), None);
        assert_eq!(sm_limit_of(64, 0, 0), None);
    }

    #[test]
    fn same_device_accepts_only_the_handles_device() {
        assert_eq!(same_device(0, 0), Ok(()));
        assert_eq!(same_device(7, 7), Ok(()));
        for (h, s) in [(0, 1), (1, 0), (3, 7)] {
            match same_device(h, s) {
                Err(e @ Error::InvalidValue(_)) => {
                    assert_eq!(e.status(), crate::error::status::INVALID_VALUE);
                    let msg = e.to_string();
                    assert!(
                        msg.contains(&format!("handle belongs to device {h}"))
                            && msg.contains(&format!("stream runs on device {s}")),
                        "{msg}"
                    );
                }
                other => panic!("({h}, {s}): {other:?}"),
            }
        }
    }
}
