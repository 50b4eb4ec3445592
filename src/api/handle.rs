//! The contexts behind `deepgemmLtHandle_t` and `deepgemmHandle_t`, and the backend a
//! handle runs its calls on.

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};

use parking_lot::Mutex;

use crate::error::Result;
use crate::gemm;
use crate::invalid;
use crate::log::Level;
use crate::plan::{self, DeviceSpec, Plan};
use crate::problem::{GemmPointers, GemmProblem};
use crate::runtime::driver::{self, DeviceBuffer};
use crate::types::pointer_mode;

/// One call a `Backend::Record` handle would have launched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RecordedCall {
    pub problem: GemmProblem,
    pub ptrs: GemmPointers,
    pub plan: Option<Plan>,
    pub stream: usize,
    pub workspace: u64,
    pub workspace_size: u64,
    /// The SMs the call asked to be planned for (0: all).
    pub sm_target: u32,
}

/// Where a handle's work goes. Either way the handle is bound to one device (cuBLAS
/// semantics): plans are made for it, and a call whose stream is on another device is
/// INVALID_VALUE (`driver::same_device`).
#[derive(Debug)]
pub enum Backend {
    /// The real runtime: `gemm::run`, device facts from the driver.
    /// `device`: the ordinal current when the handle was created.
    Gpu { device: i32 },
    /// No device (CPU tests of the C API): planning uses `dev` (through `plan::cache`, as
    /// `gemm::run` does), and every call that passed validation is recorded instead of
    /// launched, with the caller's algo decoded (`plan: None` for a NULL algo), so tests can
    /// check exactly what would have reached `gemm::run`. The handle is on device `device`; a
    /// stream is on the device `stream_devices` gives it, else on `device`.
    Record {
        dev: DeviceSpec,
        device: i32,
        stream_devices: Mutex<HashMap<usize, i32>>,
        calls: Mutex<Vec<RecordedCall>>,
        /// Streams to report as capturing a graph (`place_capture`).
        capturing: Mutex<Vec<usize>>,
        /// Handle workspaces "allocated" (made-up addresses) and freed, in order; shared so
        /// that a test can read it after the handle is destroyed.
        buffers: Arc<Mutex<RecordedBuffers>>,
        /// Allocations fail (`fail_allocations`).
        fail_allocs: AtomicBool,
        /// Calls with a workspace take a moment and count overlaps (`track_overlaps`).
        track_overlaps: AtomicBool,
    },
}

/// What a recording backend's handle allocated and freed (`Backend::alloc_workspace`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordedBuffers {
    pub allocated: Vec<DeviceBuffer>,
    pub freed: Vec<DeviceBuffer>,
    /// Allocations that failed as told (`Backend::fail_allocations`).
    pub failed: usize,
    /// Workspaces of calls being recorded now (each "enqueues" for a moment).
    pub running: Vec<u64>,
    /// Calls recorded while another call with the same workspace was (two threads' launches
    /// interleaved on one buffer).
    pub overlaps: usize,
}

impl Backend {
    /// The runtime, bound to the device of the calling thread's current context (device 0
    /// when none is current, as `driver::current_device` decides). NOT_INITIALIZED without
    /// a usable driver and device.
    pub fn gpu() -> Result<Backend> {
        gemm::init()?;
        Ok(Backend::Gpu {
            device: driver::current_device()?.ordinal,
        })
    }

    pub fn record(dev: DeviceSpec) -> Backend {
        Backend::record_on(dev, 0)
    }

    /// A recording backend whose handle is on device `device`.
    pub fn record_on(dev: DeviceSpec, device: i32) -> Backend {
        Backend::Record {
            dev,
            device,
            stream_devices: Mutex::new(HashMap::new()),
            calls: Mutex::new(Vec::new()),
            capturing: Mutex::new(Vec::new()),
            buffers: Arc::new(Mutex::new(RecordedBuffers::default())),
            fail_allocs: AtomicBool::new(false),
            track_overlaps: AtomicBool::new(false),
        }
    }

    /// The device the handle is bound to.
    pub fn device(&self) -> i32 {
        match self {
            Backend::Gpu { device } | Backend::Record { device, .. } => *device,
        }
    }

    /// Recording backends only: `stream` runs on `device` (tests of the device check).
    pub fn place_stream(&self, stream: *mut c_void, device: i32) {
        if let Backend::Record { stream_devices, .. } = self {
            stream_devices.lock().insert(stream as usize, device);
        }
    }

    /// Recording backends only: `stream` captures a graph from now on.
    pub fn place_capture(&self, stream: *mut c_void) {
        if let Backend::Record { capturing, .. } = self {
            capturing.lock().push(stream as usize);
        }
    }

    /// The calling thread's current context where `stream` is the NULL, legacy or per-thread
    /// stream handle, which name a stream of that context; 0 for other streams (and on
    /// recording backends).
    pub fn context_of_special_stream(&self, stream: *mut c_void) -> usize {
        match (self, stream as usize) {
            (Backend::Gpu { .. }, 0..=2) => driver::current_context_id(),
            _ => 0,
        }
    }

    /// Whether work enqueued on `stream` is being captured into a graph.
    pub fn capturing(&self, stream: *mut c_void) -> bool {
        match self {
            Backend::Gpu { .. } => driver::capturing(stream),
            Backend::Record { capturing, .. } => capturing.lock().contains(&(stream as usize)),
        }
    }

    /// `bytes` of device memory for a handle's default workspace on `stream`, in the stream's
    /// context; `Ok(None)` when the stream is on another device than the handle's (the call
    /// then fails its device check). Recording backends make up 256-byte aligned addresses,
    /// taking 2 ms (a real allocation's window for racing threads) or failing as told.
    pub fn alloc_workspace(&self, stream: *mut c_void, bytes: u64) -> Result<Option<DeviceBuffer>> {
        match self {
            Backend::Gpu { device } => driver::alloc_for_stream(stream, *device, bytes),
            Backend::Record {
                device,
                stream_devices,
                buffers,
                fail_allocs,
                ..
            } => {
                let stream_dev = stream_devices.lock().get(&(stream as usize)).copied();
                if stream_dev.is_some_and(|d| d != *device) {
                    return Ok(None);
                }
                std::thread::sleep(std::time::Duration::from_millis(2));
                if fail_allocs.load(Ordering::Relaxed) {
                    buffers.lock().failed += 1;
                    return Err(crate::error::Error::AllocFailed(
                        "recorded allocation told to fail".into(),
                    ));
                }
                let mut b = buffers.lock();
                let buf = DeviceBuffer {
                    ptr: 0x7e00_0000_0000 + ((b.allocated.len() as u64 + 1) << 32),
                    bytes,
                    ctx: 0,
                };
                b.allocated.push(buf);
                Ok(Some(buf))
            }
        }
    }

    /// Frees a buffer `alloc_workspace` gave, after the device's work on it is done.
    pub fn free_workspace(&self, buf: &DeviceBuffer) {
        match self {
            Backend::Gpu { .. } => driver::free_synchronized(buf),
            Backend::Record { buffers, .. } => buffers.lock().freed.push(*buf),
        }
    }

    /// A recording backend's log of allocations and frees, which outlives the handle (a
    /// `Gpu` backend's: a new empty one).
    pub fn buffer_log(&self) -> Arc<Mutex<RecordedBuffers>> {
        match self {
            Backend::Gpu { .. } => Arc::default(),
            Backend::Record { buffers, .. } => buffers.clone(),
        }
    }

    /// Recording backends only: whether later calls with a workspace "enqueue" for 0.3 ms,
    /// counting those that overlap on one buffer (`RecordedBuffers::overlaps`).
    pub fn track_overlaps(&self, on: bool) {
        if let Backend::Record { track_overlaps, .. } = self {
            track_overlaps.store(on, Ordering::Relaxed);
        }
    }

    /// Recording backends only: whether later allocations fail.
    pub fn fail_allocations(&self, fail: bool) {
        if let Backend::Record { fail_allocs, .. } = self {
            fail_allocs.store(fail, Ordering::Relaxed);
        }
    }

    /// The facts of the handle's device (cached by the driver layer: no context is
    /// resolved). A call on a stream of another device is refused by `run`.
    pub fn device_spec(&self) -> Result<DeviceSpec> {
        match self {
            Backend::Gpu { device } => Ok(driver::device(*device)?.spec),
            Backend::Record { dev, .. } => Ok(*dev),
        }
    }

    /// Runs (or records) one call; `algo` is the caller's `deepgemmLtMatmulAlgo_t`, if any,
    /// decoded where the device is known (`gemm::run` for `Gpu`). `sm_target`: the SMs the
    /// call is planned for (`DeviceSpec::with_sm_target`; 0: all).
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        &self,
        problem: &GemmProblem,
        ptrs: &GemmPointers,
        algo: Option<&[u64; 8]>,
        stream: *mut c_void,
        workspace: u64,
        workspace_size: u64,
        sm_target: u32,
    ) -> Result<()> {
        match self {
            // The stream's device is resolved once, inside `gemm::run`, and checked there.
            Backend::Gpu { device } => gemm::run(
                problem,
                ptrs,
                algo,
                stream,
                workspace,
                workspace_size,
                Some(*device),
                sm_target,
            ),
            Backend::Record {
                dev,
                device,
                stream_devices,
                calls,
                buffers,
                track_overlaps,
                ..
            } => {
                let stream_dev = stream_devices.lock().get(&(stream as usize)).copied();
                driver::same_device(*device, stream_dev.unwrap_or(*device))?;
                // Where asked, a call "enqueues" for 0.3 ms, counting the calls that ran
                // meanwhile with the same workspace (`RecordedBuffers::overlaps`).
                if workspace != 0 && track_overlaps.load(Ordering::Relaxed) {
                    let mut b = buffers.lock();
                    if b.running.contains(&workspace) {
                        b.overlaps += 1;
                    }
                    b.running.push(workspace);
                    drop(b);
                    std::thread::sleep(std::time::Duration::from_micros(300));
                    let mut b = buffers.lock();
                    if let Some(i) = b.running.iter().position(|&w| w == workspace) {
                        b.running.swap_remove(i);
                    }
                }
                // As `gemm::run` decodes it: the algo must also take these pointers.
                let dev = dev.with_sm_target(sm_target);
                let plan = algo
                    .map(|a| plan::cache::for_call(problem, &dev, ptrs, Some(a), workspace_size))
                    .transpose()?;
                calls.lock().push(RecordedCall {
                    problem: *problem,
                    ptrs: *ptrs,
                    plan,
                    stream: stream as usize,
                    workspace,
                    workspace_size,
                    sm_target,
                });
                Ok(())
            }
        }
    }

    /// The recorded calls (empty for `Gpu`).
    pub fn recorded(&self) -> Vec<RecordedCall> {
        match self {
            Backend::Gpu { .. } => Vec::new(),
            Backend::Record { calls, .. } => calls.lock().clone(),
        }
    }
}

/// The context of a cuBLASLt-style handle. It has no mutable state: a handle is used from
/// many threads at once.
#[derive(Debug)]
pub struct LtHandle {
    pub backend: Backend,
}

impl LtHandle {
    /// cublasLtCreate: NOT_INITIALIZED without a usable driver and device. The handle is
    /// bound to the current device (`Backend::gpu`).
    pub fn new() -> Result<LtHandle> {
        Ok(LtHandle {
            backend: Backend::gpu()?,
        })
    }

    /// A handle that needs no device and records instead of launching (tests).
    pub fn recording(dev: DeviceSpec) -> LtHandle {
        Self::recording_on(dev, 0)
    }

    /// A recording handle bound to device `device`.
    pub fn recording_on(dev: DeviceSpec, device: i32) -> LtHandle {
        LtHandle {
            backend: Backend::record_on(dev, device),
        }
    }
}

/// The most streams a handle keeps a default workspace for (cuBLAS's default pool,
/// CUBLAS_WORKSPACE_CONFIG's count, is 8 buffers too).
pub const DEFAULT_WORKSPACE_STREAMS: usize = 8;

/// The bytes of a handle's default workspace: `DEEPGEMM_HANDLE_WORKSPACE_MIB` MiB where set
/// (0: none; read once a process), else cuBLAS's default, 32 MiB on Hopper and later, 4 MiB
/// before.
pub fn default_workspace_bytes(cc_major: u32) -> u64 {
    static SETTING: once_cell::sync::OnceCell<Option<String>> = once_cell::sync::OnceCell::new();
    let setting = SETTING.get_or_init(|| std::env::var("DEEPGEMM_HANDLE_WORKSPACE_MIB").ok());
    workspace_bytes_for(cc_major, setting.as_deref())
}

/// `default_workspace_bytes` with the variable's value given: a number of MiB (capped at 1
/// TiB), anything else the default.
fn workspace_bytes_for(cc_major: u32, setting: Option<&str>) -> u64 {
    let mib = setting
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(if cc_major >= 9 { 32 } else { 4 });
    mib.min(1 << 20) << 20
}

/// A stream as a handle's default workspaces are keyed: the NULL and legacy handles are one
/// stream of the calling thread's current context (`context`, 0 for real streams, whose
/// handle names their context), a per-thread default stream is a stream of each thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamKey(usize, u64, usize);

impl StreamKey {
    pub fn of(stream: *mut c_void, context: usize) -> StreamKey {
        thread_local! {
            static THREAD: u64 = {
                static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
                NEXT.fetch_add(1, Ordering::Relaxed)
            };
        }
        match stream as usize {
            0 | 1 => StreamKey(1, 0, context),
            2 => StreamKey(2, THREAD.with(|t| *t), context),
            s => StreamKey(s, 0, 0),
        }
    }
}

/// The lock a call holds on a default workspace while it enqueues (`DefaultWorkspace`).
type InUse = Arc<parking_lot::Mutex<()>>;

/// A default workspace found for a call: its lock and (address, bytes).
type Found = Option<(InUse, (u64, u64))>;

/// One of a handle's default workspaces: its stream, its buffer (`None`: the allocation failed,
/// and is not tried again), and the lock a call holds from choosing the buffer until its last
/// launch is enqueued, so that two threads' calls on one stream do not interleave their
/// launches on it (one call's packs and partials live across several launches).
#[derive(Debug)]
struct DefaultWorkspace {
    key: StreamKey,
    buffer: Option<DeviceBuffer>,
    in_use: InUse,
}

/// The context of a cuBLAS-style handle: a stream, a pointer mode and a math mode, each set and
/// read atomically because the handle may be shared between threads.
#[derive(Debug)]
pub struct BlasHandle {
    pub backend: Backend,
    stream: AtomicUsize,
    pointer_mode: AtomicI32,
    /// cublasSetMathMode's cublasMath_t (`api::blas::math_mode`).
    math_mode: AtomicI32,
    /// cublasSetWorkspace's (address, bytes): the caller's device memory that GEMMs on this
    /// handle may use (Stream-K and split-K partials, packed copies); (0, 0): none asked;
    /// `None`: the default, the handle's own buffer for the stream (`defaults`).
    workspace: parking_lot::Mutex<Option<(u64, u64)>>,
    /// The handle's default workspaces, one a stream (`default_workspace`).
    defaults: parking_lot::Mutex<Vec<DefaultWorkspace>>,
    /// Whether a stream past `DEFAULT_WORKSPACE_STREAMS` was logged.
    defaults_full_logged: AtomicBool,
    /// cublasSetSmCountTarget's SMs (0: all).
    sm_target: AtomicI32,
}

impl Drop for BlasHandle {
    fn drop(&mut self) {
        self.release_default_workspaces();
    }
}

impl BlasHandle {
    /// cublasCreate: NOT_INITIALIZED without a usable driver and device. The handle is
    /// bound to the current device (`Backend::gpu`).
    pub fn new() -> Result<BlasHandle> {
        Ok(Self::with_backend(Backend::gpu()?))
    }

    /// A handle that needs no device and records instead of launching (tests).
    pub fn recording(dev: DeviceSpec) -> BlasHandle {
        Self::recording_on(dev, 0)
    }

    /// A recording handle bound to device `device`.
    pub fn recording_on(dev: DeviceSpec, device: i32) -> BlasHandle {
        Self::with_backend(Backend::record_on(dev, device))
    }

    fn with_backend(backend: Backend) -> BlasHandle {
        BlasHandle {
            backend,
            stream: AtomicUsize::new(0),
            pointer_mode: AtomicI32::new(pointer_mode::HOST),
            math_mode: AtomicI32::new(super::blas::math_mode::DEFAULT),
            workspace: parking_lot::Mutex::new(None),
            defaults: parking_lot::Mutex::new(Vec::new()),
            defaults_full_logged: AtomicBool::new(false),
            sm_target: AtomicI32::new(0),
        }
    }

    /// cublasGetSmCountTarget: the SMs this handle's GEMMs are planned for (0: all).
    pub fn sm_target(&self) -> i32 {
        self.sm_target.load(Ordering::Acquire)
    }

    /// cublasSetSmCountTarget: plan this handle's later GEMMs for `target` SMs (0: all; more
    /// than the device has: all), leaving the rest to work the caller runs beside them.
    /// INVALID_VALUE below 0.
    pub fn set_sm_target(&self, target: i32) -> Result<()> {
        if target < 0 {
            return Err(invalid!("smCountTarget {target} < 0"));
        }
        self.sm_target.store(target, Ordering::Release);
        Ok(())
    }

    pub fn stream(&self) -> *mut c_void {
        self.stream.load(Ordering::Acquire) as *mut c_void
    }

    /// cublasSetStream: also drops the workspace set before (cuBLAS resets it to its default
    /// pool, since memory given for one stream's work must not serve another's).
    pub fn set_stream(&self, stream: *mut c_void) {
        let mut ws = self.workspace.lock();
        self.stream.store(stream as usize, Ordering::Release);
        *ws = None;
    }

    /// Runs `f` with the stream and the workspace (address, bytes) a GEMM on this handle uses
    /// now, read together: `set_stream` stores the stream and drops the workspace under the
    /// workspace's lock, so a call racing with SetStream + SetWorkspace on another thread never
    /// pairs one stream with the workspace set for another (read apart, it could: a review).
    /// With none set, the handle's default workspace for the stream (`default_workspace`),
    /// whose lock `f` runs under: `f` must only enqueue (never wait on the device).
    pub fn with_stream_workspace<R>(&self, f: impl FnOnce(*mut c_void, (u64, u64)) -> R) -> R {
        let (stream, ws) = {
            let ws = self.workspace.lock();
            (self.stream(), *ws)
        };
        if let Some(ws) = ws {
            return f(stream, ws);
        }
        match self.default_workspace(stream) {
            Some((in_use, ws)) => {
                let _enqueueing = in_use.lock();
                f(stream, ws)
            }
            None => f(stream, (0, 0)),
        }
    }

    /// cublasSetWorkspace: `bytes` of device memory at `address` (256-byte aligned, as
    /// cuBLASLt's workspace; NULL only with 0 bytes, which means none), used by this handle's
    /// later GEMMs on its stream instead of the default; the caller keeps it alive while they
    /// run.
    pub fn set_workspace(&self, address: u64, bytes: u64) -> Result<()> {
        super::matmul::check_workspace(address, bytes)?;
        *self.workspace.lock() = Some((address, bytes));
        Ok(())
    }

    /// cuBLAS's default workspace: with none set (cublasSetWorkspace), a GEMM uses memory the
    /// handle allocates itself, so that split-K / Stream-K partials and packed copies of
    /// operands TMA cannot read (odd leading dimensions) are planned as through
    /// deepgemmLtMatmul with a workspace; without it they fell to plans that need none (the
    /// portable kernel for unaligned operands). One buffer a stream (work on two streams must
    /// not share one; a per-thread default stream is one a thread; the NULL stream one a
    /// context), allocated at the first GEMM on that stream, at most
    /// `DEFAULT_WORKSPACE_STREAMS` of them (streams past that get none, logged once), freed by
    /// deepgemmDestroy. The buffer and the lock a call holds while it enqueues; `None` while
    /// the stream is capturing a graph (a buffer used in a graph would be shared between its
    /// replays and eager calls), when the size is 0 (`DEEPGEMM_HANDLE_WORKSPACE_MIB=0`), the
    /// stream is on another device (the call then fails), or the allocation failed (logged
    /// once; the stream then runs without one).
    fn default_workspace(&self, stream: *mut c_void) -> Found {
        if self.backend.capturing(stream) {
            return None;
        }
        let key = StreamKey::of(stream, self.backend.context_of_special_stream(stream));
        let (found, log) = {
            let mut defaults = self.defaults.lock();
            match defaults.iter().find(|d| d.key == key) {
                Some(d) => (d.buffer.map(|b| (d.in_use.clone(), (b.ptr, b.bytes))), None),
                None => self.add_default_workspace(&mut defaults, key, stream),
            }
        };
        // Logged with no lock held: a logger callback may call back into the library.
        if let Some((level, m)) = log {
            crate::log::write(level, "deepgemmGemmEx", format_args!("{m}"));
        }
        found
    }

    /// `default_workspace` for a stream the handle has none for yet: allocates and adds it
    /// (a failed allocation is added too, without a buffer, so it is not tried again), unless
    /// the size is 0, the stream is on another device or the handle has
    /// `DEFAULT_WORKSPACE_STREAMS` already. With what to log.
    fn add_default_workspace(
        &self,
        defaults: &mut Vec<DefaultWorkspace>,
        key: StreamKey,
        stream: *mut c_void,
    ) -> (Found, Option<(Level, String)>) {
        let Ok(spec) = self.backend.device_spec() else {
            return (None, None);
        };
        let bytes = default_workspace_bytes(spec.cc_major);
        if bytes == 0 {
            return (None, None);
        }
        if defaults.len() >= DEFAULT_WORKSPACE_STREAMS {
            let first = !self.defaults_full_logged.swap(true, Ordering::Relaxed);
            let log = first.then(|| {
                let m = format!(
                    "stream {:#x}: no default workspace (the handle has one for \
                     {DEFAULT_WORKSPACE_STREAMS} streams already; deepgemmSetWorkspace gives one)",
                    stream as usize
                );
                (Level::Info, m)
            });
            return (None, log);
        }
        let (buffer, log) = match self.backend.alloc_workspace(stream, bytes) {
            Ok(None) => return (None, None),
            Ok(Some(b)) => {
                let m = format!(
                    "default workspace for stream {:#x}: {} MiB at {:#x}",
                    stream as usize,
                    bytes >> 20,
                    b.ptr
                );
                (Some(b), (Level::Info, m))
            }
            Err(e) => {
                let m = format!(
                    "default workspace of {} MiB for stream {:#x}: {e}; the stream runs without \
                     one",
                    bytes >> 20,
                    stream as usize
                );
                (None, (Level::Error, m))
            }
        };
        let in_use = InUse::default();
        defaults.push(DefaultWorkspace {
            key,
            buffer,
            in_use: in_use.clone(),
        });
        (buffer.map(|b| (in_use, (b.ptr, b.bytes))), Some(log))
    }

    /// Frees the default workspaces (after the device is done with them); deepgemmDestroy.
    pub fn release_default_workspaces(&self) {
        let defaults = std::mem::take(&mut *self.defaults.lock());
        for b in defaults.iter().filter_map(|d| d.buffer.as_ref()) {
            self.backend.free_workspace(b);
        }
    }

    pub fn pointer_mode(&self) -> i32 {
        self.pointer_mode.load(Ordering::Acquire)
    }

    /// cublasSetPointerMode: HOST (0) or DEVICE (1), INVALID_VALUE otherwise.
    pub fn set_pointer_mode(&self, mode: i32) -> Result<()> {
        if mode != pointer_mode::HOST && mode != pointer_mode::DEVICE {
            return Err(invalid!(
                "pointer mode {mode} (DEEPGEMM_POINTER_MODE_HOST 0 or _DEVICE 1)"
            ));
        }
        self.pointer_mode.store(mode, Ordering::Release);
        Ok(())
    }

    pub fn math_mode(&self) -> i32 {
        self.math_mode.load(Ordering::Acquire)
    }

    /// cublasSetMathMode: DEFAULT (0), TENSOR_OP (1), PEDANTIC (2) or TF32_TENSOR_OP (3),
    /// each with or without DISALLOW_REDUCED_PRECISION_REDUCTION (16); INVALID_VALUE otherwise.
    pub fn set_math_mode(&self, mode: i32) -> Result<()> {
        if !super::blas::math_mode::is_valid(mode) {
            return Err(invalid!(
                "math mode {mode} (DEEPGEMM_DEFAULT_MATH 0, _TENSOR_OP_MATH 1, _PEDANTIC_MATH 2 \
                 or _TF32_TENSOR_OP_MATH 3, optionally | \
                 DEEPGEMM_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION 16)"
            ));
        }
        self.math_mode.store(mode, Ordering::Release);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// cuBLAS's default sizes by architecture; DEEPGEMM_HANDLE_WORKSPACE_MIB in MiB, 0 none,
    /// anything unreadable the default.
    #[test]
    fn default_workspace_sizes() {
        assert_eq!(workspace_bytes_for(9, None), 32 << 20);
        assert_eq!(workspace_bytes_for(10, None), 32 << 20);
        assert_eq!(workspace_bytes_for(8, None), 4 << 20);
        assert_eq!(workspace_bytes_for(9, Some("0")), 0);
        assert_eq!(workspace_bytes_for(8, Some(" 64 ")), 64 << 20);
        assert_eq!(workspace_bytes_for(9, Some("lots")), 32 << 20);
        assert_eq!(workspace_bytes_for(9, Some("-1")), 32 << 20);
        assert_eq!(workspace_bytes_for(9, Some("99999999999")), 1 << 40);
    }

    /// The NULL and legacy handles are one stream of a context; per-thread streams one a
    /// thread; real streams by handle whatever the context.
    #[test]
    fn stream_keys() {
        let k = |s: usize, c: usize| StreamKey::of(s as *mut c_void, c);
        assert_eq!(k(0, 7), k(1, 7));
        assert_ne!(k(0, 7), k(0, 8));
        assert_eq!(k(2, 7), k(2, 7));
        let other = std::thread::spawn(move || k(2, 7)).join().unwrap();
        assert_ne!(other, k(2, 7));
        assert_eq!(k(0x5000, 0), k(0x5000, 0));
        assert_ne!(k(0x5000, 0), k(0x5100, 0));
    }
}
