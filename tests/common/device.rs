//! The few CUDA driver objects the GPU checks need, as small RAII types over cudarc's
//! `result` layer: the primary context, device buffers addressed by raw `u64` (what a C
//! caller passes to deepgemm and cuBLASLt), streams and events. Errors are `String`s
//! that name the failing call; `Drop` never panics.

#![allow(dead_code)]

use std::ffi::c_void;
use std::sync::Arc;

use cudarc::driver::CudaContext;
use cudarc::driver::result as cu;
use cudarc::driver::sys;

/// `Err("<what>: <driver error>")` for any driver failure.
pub type CuResult<T> = Result<T, String>;

fn ctx_err(what: &str) -> impl Fn(cu::DriverError) -> String + '_ {
    move |e| format!("{what}: {e}")
}

/// The primary context of one device, made current on the calling thread.
pub struct Gpu {
    pub ctx: Arc<CudaContext>,
    pub name: String,
    pub cc: (i32, i32),
    pub sm_count: i32,
    pub smem_optin: i32,
    pub l2_bytes: i32,
    /// Peak DRAM bandwidth from the memory clock and bus width (double data rate), bytes/s:
    /// ~3.35e12 on an H100 SXM, ~4.8e12 on an H200. 0 where the driver does not say.
    pub dram_bytes_per_s: f64,
}

impl Gpu {
    /// Loads the driver, retains the primary context of device `ordinal` and binds it to
    /// this thread. The error is one line saying why (no libcuda, no device, ...).
    pub fn open(ordinal: usize) -> CuResult<Gpu> {
        // SAFETY: only tries to dlopen libcuda; cudarc would panic later without it.
        if !unsafe { sys::is_culib_present() } {
            return Err("libcuda.so could not be loaded (no NVIDIA driver)".into());
        }
        cu::init().map_err(ctx_err("cuInit"))?;
        let count = cu::device::get_count().map_err(ctx_err("cuDeviceGetCount"))?;
        if count <= 0 {
            return Err("the driver reports no CUDA device".into());
        }
        if ordinal >= count as usize {
            return Err(format!("device {ordinal} requested, {count} present"));
        }
        let ctx = CudaContext::new(ordinal).map_err(ctx_err("primary context"))?;
        let name = ctx.name().unwrap_or_else(|_| "?".into());
        let cc = ctx
            .compute_capability()
            .map_err(ctx_err("compute capability"))?;
        use sys::CUdevice_attribute_enum as Attr;
        let attr = |a: Attr| ctx.attribute(a).map_err(ctx_err("cuDeviceGetAttribute"));
        // Both attributes are in kHz and bits; either may be 0 (or refused) on some drivers.
        let clock_khz = attr(Attr::CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE).unwrap_or(0);
        let bus_bits = attr(Attr::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH).unwrap_or(0);
        Ok(Gpu {
            dram_bytes_per_s: 2.0 * clock_khz.max(0) as f64 * 1e3 * bus_bits.max(0) as f64 / 8.0,
            name,
            cc,
            sm_count: attr(Attr::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
            smem_optin: attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)?,
            l2_bytes: attr(Attr::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)?,
            ctx,
        })
    }

    /// Makes the context current on the calling thread (each libtest test may run on
    /// its own thread; deepgemm uses the calling thread's current context).
    pub fn bind(&self) -> CuResult<()> {
        self.ctx
            .bind_to_thread()
            .map_err(ctx_err("cuCtxSetCurrent"))
    }

    pub fn synchronize(&self) -> CuResult<()> {
        cu::ctx::synchronize().map_err(ctx_err("cuCtxSynchronize"))
    }
}

/// A device allocation, freed on drop.
pub struct DevBuf {
    pub ptr: u64,
    pub bytes: usize,
}

impl DevBuf {
    /// At least `bytes` bytes (never a zero-byte allocation, so the address is valid).
    pub fn alloc(bytes: usize) -> CuResult<DevBuf> {
        let size = bytes.max(256);
        // SAFETY: plain allocation in the current context; freed once in Drop.
        let ptr = unsafe { cu::malloc_sync(size) }
            .map_err(|e| format!("cuMemAlloc({size} bytes): {e}"))?;
        Ok(DevBuf { ptr, bytes })
    }

    /// A buffer holding a copy of `data`.
    pub fn from_bytes(data: &[u8]) -> CuResult<DevBuf> {
        let b = DevBuf::alloc(data.len())?;
        b.upload(data)?;
        Ok(b)
    }

    /// Synchronous host -> device copy of `data` to the start of the buffer.
    pub fn upload(&self, data: &[u8]) -> CuResult<()> {
        if data.len() > self.bytes {
            return Err(format!(
                "upload of {} bytes into {}",
                data.len(),
                self.bytes
            ));
        }
        if data.is_empty() {
            return Ok(());
        }
        // SAFETY: `data.len()` bytes fit in the allocation (checked above).
        unsafe { cu::memcpy_htod_sync(self.ptr, data) }.map_err(ctx_err("cuMemcpyHtoD"))?;
        // From pageable memory cuMemcpyHtoD may return before the DMA has landed, and it
        // is ordered only with the legacy stream: the non-blocking streams the GEMMs run on
        // would not wait for it. Finish it here.
        cu::ctx::synchronize().map_err(ctx_err("cuCtxSynchronize after upload"))
    }

    /// Device -> host copy of the first `self.bytes` bytes. It runs on the legacy stream,
    /// which does not wait for non-blocking streams: synchronize the producer first.
    pub fn download(&self) -> CuResult<Vec<u8>> {
        let mut v = vec![0u8; self.bytes];
        if !v.is_empty() {
            // SAFETY: the allocation holds at least `self.bytes` bytes.
            unsafe { cu::memcpy_dtoh_sync(&mut v[..], self.ptr) }
                .map_err(ctx_err("cuMemcpyDtoH"))?;
        }
        Ok(v)
    }

    /// Fills `elems` elements of `elem_size` (2 or 4) bytes with `bits` on `stream`.
    pub fn fill_async(
        &self,
        elem_size: usize,
        bits: u32,
        elems: usize,
        stream: sys::CUstream,
    ) -> CuResult<()> {
        if elems * elem_size > self.bytes {
            return Err(format!(
                "fill of {} bytes into {}",
                elems * elem_size,
                self.bytes
            ));
        }
        // SAFETY: in bounds (checked above); the stream belongs to the current context.
        let r = unsafe {
            match elem_size {
                2 => sys::cuMemsetD16Async(self.ptr, bits as u16, elems, stream),
                4 => sys::cuMemsetD32Async(self.ptr, bits, elems, stream),
                _ => sys::cuMemsetD8Async(self.ptr, bits as u8, elems * elem_size, stream),
            }
        };
        r.result().map_err(ctx_err("cuMemset"))
    }

    pub fn as_ptr(&self) -> *mut c_void {
        self.ptr as *mut c_void
    }
}

impl Drop for DevBuf {
    fn drop(&mut self) {
        // SAFETY: allocated by malloc_sync and freed only here. A failure (e.g. after a
        // sticky launch error) leaks the allocation rather than panicking.
        let _ = unsafe { cu::free_sync(self.ptr) };
    }
}

/// A non-blocking stream, destroyed on drop.
pub struct Stream(pub sys::CUstream);

impl Stream {
    pub fn new() -> CuResult<Stream> {
        cu::stream::create(cu::stream::StreamKind::NonBlocking)
            .map(Stream)
            .map_err(ctx_err("cuStreamCreate"))
    }

    /// The stream as a C `cudaStream_t` argument.
    pub fn raw(&self) -> *mut c_void {
        self.0 as *mut c_void
    }

    pub fn synchronize(&self) -> CuResult<()> {
        // SAFETY: a live stream of the current context.
        unsafe { cu::stream::synchronize(self.0) }.map_err(ctx_err("cuStreamSynchronize"))
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        // SAFETY: created by stream::create, destroyed only here.
        let _ = unsafe { cu::stream::destroy(self.0) };
    }
}

/// A timing event, destroyed on drop.
pub struct Event(pub sys::CUevent);

impl Event {
    pub fn new() -> CuResult<Event> {
        cu::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT)
            .map(Event)
            .map_err(ctx_err("cuEventCreate"))
    }

    pub fn record(&self, stream: &Stream) -> CuResult<()> {
        // SAFETY: live event and stream of the same context.
        unsafe { cu::event::record(self.0, stream.0) }.map_err(ctx_err("cuEventRecord"))
    }

    /// Milliseconds from `self` to `end`; both recorded and complete.
    pub fn elapsed_ms(&self, end: &Event) -> CuResult<f32> {
        // SAFETY: both events are live and were recorded on one stream.
        unsafe { cu::event::elapsed(self.0, end.0) }.map_err(ctx_err("cuEventElapsedTime"))
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        // SAFETY: created by event::create, destroyed only here.
        let _ = unsafe { cu::event::destroy(self.0) };
    }
}
