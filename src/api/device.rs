//! The facts about the device a call runs on, for decoding a caller's algo and reporting
//! `wavesCount`.
//!
//! NOTE: `gemm` does not expose the device it plans for, so the C boundary asks the driver
//! itself (the same rule cuBLASLt uses: the device of the stream's context, else of the
//! calling thread's current context). If `gemm`/`runtime` grows such a function, this
//! module should call it instead.

use std::collections::HashMap;
use std::ffi::c_void;
use std::mem::MaybeUninit;

use cudarc::driver::sys;
use once_cell::sync::Lazy;
use parking_lot::Mutex;

use crate::error::{Error, Result};
use crate::plan::DeviceSpec;

static CACHE: Lazy<Mutex<HashMap<i32, DeviceSpec>>> = Lazy::new(|| Mutex::new(HashMap::new()));

fn check(r: sys::CUresult, what: &str) -> Result<()> {
    match r {
        sys::CUresult::CUDA_SUCCESS => Ok(()),
        sys::CUresult::CUDA_ERROR_INVALID_CONTEXT
        | sys::CUresult::CUDA_ERROR_NOT_INITIALIZED
        | sys::CUresult::CUDA_ERROR_DEINITIALIZED
        | sys::CUresult::CUDA_ERROR_NO_DEVICE => Err(Error::NotInitialized(format!(
            "{what}: {r:?} (no current CUDA context)"
        ))),
        _ => Err(Error::Internal(format!("{what}: {r:?}"))),
    }
}

/// The ordinal of the device that `stream` (NULL: the legacy default stream of the current
/// context) runs on.
fn device_of(stream: *mut c_void) -> Result<sys::CUdevice> {
    // SAFETY: probing whether libcuda can be loaded has no preconditions.
    if !unsafe { sys::is_culib_present() } {
        return Err(Error::NotInitialized(
            "the CUDA driver (libcuda) is not loadable".into(),
        ));
    }
    let mut dev = MaybeUninit::<sys::CUdevice>::uninit();
    if stream.is_null() {
        // SAFETY: `dev` is a valid out-pointer.
        check(
            unsafe { sys::cuCtxGetDevice(dev.as_mut_ptr()) },
            "cuCtxGetDevice",
        )?;
    } else {
        let mut ctx = MaybeUninit::<sys::CUcontext>::uninit();
        // SAFETY: the caller promises `stream` is a live stream (cuBLASLt's contract);
        // `ctx` is a valid out-pointer.
        check(
            unsafe { sys::cuStreamGetCtx(stream as sys::CUstream, ctx.as_mut_ptr()) },
            "cuStreamGetCtx",
        )?;
        // SAFETY: written by the successful call above.
        let ctx = unsafe { ctx.assume_init() };
        // SAFETY: `ctx` is the stream's live context; it is popped again right after.
        check(unsafe { sys::cuCtxPushCurrent_v2(ctx) }, "cuCtxPushCurrent")?;
        // SAFETY: `dev` is a valid out-pointer.
        let r = unsafe { sys::cuCtxGetDevice(dev.as_mut_ptr()) };
        let mut popped = MaybeUninit::<sys::CUcontext>::uninit();
        // SAFETY: pops the context pushed above.
        let pop = unsafe { sys::cuCtxPopCurrent_v2(popped.as_mut_ptr()) };
        check(r, "cuCtxGetDevice")?;
        check(pop, "cuCtxPopCurrent")?;
    }
    // SAFETY: written by a successful cuCtxGetDevice.
    Ok(unsafe { dev.assume_init() })
}

fn attribute(dev: sys::CUdevice, attr: sys::CUdevice_attribute) -> Result<u32> {
    // SAFETY: `dev` came from cuCtxGetDevice.
    let v = unsafe { cudarc::driver::result::device::get_attribute(dev, attr) }
        .map_err(|e| Error::Internal(format!("cuDeviceGetAttribute({attr:?}): {e:?}")))?;
    u32::try_from(v).map_err(|_| Error::Internal(format!("{attr:?} = {v}")))
}

/// The `DeviceSpec` of the device `stream` runs on (cached per device ordinal).
pub fn spec_for_stream(stream: *mut c_void) -> Result<DeviceSpec> {
    let dev = device_of(stream)?;
    if let Some(s) = CACHE.lock().get(&dev) {
        return Ok(*s);
    }
    use sys::CUdevice_attribute as A;
    let spec = DeviceSpec {
        cc_major: attribute(dev, A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
        cc_minor: attribute(dev, A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
        sm_count: attribute(dev, A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
        smem_per_block: attribute(
            dev,
            A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
        )?,
    };
    CACHE.lock().insert(dev, spec);
    Ok(spec)
}
