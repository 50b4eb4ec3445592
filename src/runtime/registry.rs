//! The thread-safe kernel registry.
//!
//! Two levels, each filled at most once per key even when many threads ask at once (the first
//! asker does the work inside a `OnceCell`, the others wait for it):
//! - `cubins`: (variant, architecture) -> CUBIN, from the disk cache or NVRTC. Devices of the
//!   same architecture share it.
//! - `loaded`: (device, variant) -> the CUBIN loaded as a context-independent CUlibrary and
//!   its CUkernel. A context-bound CUmodule would go stale when the caller's context is
//!   destroyed and a new one created (PyTorch, cudarc and test harnesses release primary
//!   contexts); a library is loaded by the driver into whichever context launches it.

use std::collections::HashMap;
use std::ffi::CString;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use cudarc::driver::sys::{self, CUdevice, CUfunction, CUfunction_attribute, CUkernel, CUlibrary};
use once_cell::sync::{Lazy, OnceCell};
use parking_lot::Mutex;

use super::driver::{ContextGuard, check};
use crate::error::{Error, Result};
use crate::jit::{cache, nvrtc, pack, sm90, source};
use crate::plan::Kernel;

/// A kernel loaded for one device.
pub struct Loaded {
    pub kernel: CUkernel,
    pub library: CUlibrary,
    pub device: i32,
    pub name: String,
}

impl Loaded {
    /// What cuLaunchKernel takes: a CUkernel is accepted where a CUfunction is expected and
    /// runs in the context current at launch (CUDA 12.0+ driver API).
    pub fn launchable(&self) -> CUfunction {
        self.kernel as CUfunction
    }
}

// SAFETY: CUlibrary/CUkernel are driver handles valid from any thread and any context of the
// process; the registry never unloads a library, so they outlive every user.
unsafe impl Send for Loaded {}
unsafe impl Sync for Loaded {}

type Slot<T> = Arc<OnceCell<Arc<T>>>;
/// Key -> the cell its first asker fills.
type SlotMap<K, T> = Mutex<HashMap<K, Slot<T>>>;

#[derive(Default)]
struct Registry {
    cubins: SlotMap<(Kernel, String), Vec<u8>>,
    loaded: SlotMap<(i32, Kernel), Loaded>,
    compiles: AtomicU64,
    disk_hits: AtomicU64,
    loads: AtomicU64,
}

static REGISTRY: Lazy<Registry> = Lazy::new(Registry::default);

/// Counters and contents, for tests, logs and the bench.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// NVRTC compilations done by this process.
    pub compiles: u64,
    /// CUBINs taken from the disk cache instead.
    pub disk_hits: u64,
    /// Libraries loaded (one per device and variant).
    pub loads: u64,
    /// (device ordinal, variant name) of every loaded kernel, sorted.
    pub entries: Vec<(i32, String)>,
}

pub fn stats() -> Stats {
    let r = &*REGISTRY;
    let mut entries: Vec<(i32, String)> = r
        .loaded
        .lock()
        .values()
        .filter_map(|slot| slot.get().map(|k| (k.device, k.name.clone())))
        .collect();
    entries.sort();
    Stats {
        compiles: r.compiles.load(Ordering::Relaxed),
        disk_hits: r.disk_hits.load(Ordering::Relaxed),
        loads: r.loads.load(Ordering::Relaxed),
        entries,
    }
}

fn slot<K: Eq + std::hash::Hash, T>(map: &SlotMap<K, T>, key: K) -> Slot<T> {
    map.lock().entry(key).or_default().clone()
}

/// The CUBIN of `k` for `arch`: memory, else disk cache, else NVRTC (then written to disk).
pub fn cubin(k: &Kernel, arch: &str) -> Result<Arc<Vec<u8>>> {
    let r = &*REGISTRY;
    let cell = slot(&r.cubins, (*k, arch.to_string()));
    cell.get_or_try_init(|| {
        let name = k.name();
        let (src, opts) = match k {
            Kernel::Portable(v) => (source::render(v), source::options(arch)),
            Kernel::Sm90(v) => (sm90::render(v), sm90::options()),
            Kernel::Pack(v) => (pack::render(v), pack::options(arch)),
        };
        let (major, minor) = nvrtc::version()?;
        let key = cache::fnv1a128(&[
            name.as_bytes(),
            src.as_bytes(),
            opts.join("\u{1}").as_bytes(),
            format!("nvrtc {major}.{minor}").as_bytes(),
            arch.as_bytes(),
            env!("CARGO_PKG_VERSION").as_bytes(),
        ]);
        let disk = cache::global();
        if let Some(bin) = disk.load(&name, key) {
            r.disk_hits.fetch_add(1, Ordering::Relaxed);
            crate::log::info("jit", format!("{name} ({arch}): disk cache hit"));
            return Ok(Arc::new(bin));
        }
        let t = Instant::now();
        let compiled = nvrtc::compile(&name, &src, &opts)?;
        r.compiles.fetch_add(1, Ordering::Relaxed);
        crate::log::info(
            "jit",
            format!(
                "{name} ({arch}): compiled by NVRTC {major}.{minor} in {:.0} ms",
                t.elapsed().as_secs_f64() * 1e3
            ),
        );
        disk.store(&name, key, &compiled.cubin);
        Ok(Arc::new(compiled.cubin))
    })
    .cloned()
}

/// The kernel `k` loaded for the guard's device.
pub fn get(ctx: &ContextGuard, k: &Kernel) -> Result<Arc<Loaded>> {
    let r = &*REGISTRY;
    let cell = slot(&r.loaded, (ctx.device.ordinal, *k));
    if let Some(l) = cell.get() {
        return Ok(l.clone());
    }
    cell.get_or_try_init(|| {
        if !k.runs_on(&ctx.device.spec) {
            return Err(Error::ArchMismatch(format!(
                "{} cannot run on {}",
                k.name(),
                ctx.device.spec.arch()
            )));
        }
        let bin = cubin(k, &ctx.device.spec.arch())?;
        let name = k.name();
        let mut library: CUlibrary = std::ptr::null_mut();
        // SAFETY: `bin` is a complete CUBIN image; no JIT or library options are passed.
        check(
            unsafe {
                sys::cuLibraryLoadData(
                    &mut library,
                    bin.as_ptr().cast(),
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                    0,
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                    0,
                )
            },
            "cuLibraryLoadData",
        )?;
        let cname = CString::new(name.clone()).expect("kernel names have no NUL");
        let mut kernel: CUkernel = std::ptr::null_mut();
        // SAFETY: library was just loaded; the entry name is the kernel's extern "C" symbol.
        check(
            unsafe { sys::cuLibraryGetKernel(&mut kernel, library, cname.as_ptr()) },
            "cuLibraryGetKernel",
        )?;
        let smem = k.dynamic_smem();
        if smem > 48 * 1024 {
            // Above 48 KiB a kernel must opt in to its dynamic shared memory, per device.
            let mut dev: CUdevice = 0;
            // SAFETY: out-pointer valid; the ordinal came from the driver.
            check(
                unsafe { sys::cuDeviceGet(&mut dev, ctx.device.ordinal) },
                "cuDeviceGet",
            )?;
            // SAFETY: kernel is live; smem is within the device's opt-in limit (runs_on).
            check(
                unsafe {
                    sys::cuKernelSetAttribute(
                        CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                        smem as i32,
                        kernel,
                        dev,
                    )
                },
                "cuKernelSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)",
            )?;
        }
        r.loads.fetch_add(1, Ordering::Relaxed);
        Ok(Arc::new(Loaded {
            kernel,
            library,
            device: ctx.device.ordinal,
            name,
        }))
    })
    .cloned()
}
