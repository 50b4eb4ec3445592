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

use cudarc::driver::sys::{self, CUfunction, CUkernel, CUlibrary};
use once_cell::sync::{Lazy, OnceCell};
use parking_lot::Mutex;

use super::driver::{ContextGuard, check};
use crate::error::{Error, Result};
use crate::jit::{cache, nvrtc, source};
use crate::plan::KernelVariant;

/// A kernel loaded for one device.
pub struct Kernel {
    pub kernel: CUkernel,
    pub library: CUlibrary,
    pub device: i32,
    pub name: String,
}

impl Kernel {
    /// What cuLaunchKernel takes: a CUkernel is accepted where a CUfunction is expected and
    /// runs in the context current at launch (CUDA 12.0+ driver API).
    pub fn launchable(&self) -> CUfunction {
        self.kernel as CUfunction
    }
}

// SAFETY: CUlibrary/CUkernel are driver handles valid from any thread and any context of the
// process; the registry never unloads a library, so they outlive every user.
unsafe impl Send for Kernel {}
unsafe impl Sync for Kernel {}

type Slot<T> = Arc<OnceCell<Arc<T>>>;

#[derive(Default)]
struct Registry {
    cubins: Mutex<HashMap<(KernelVariant, String), Slot<Vec<u8>>>>,
    loaded: Mutex<HashMap<(i32, KernelVariant), Slot<Kernel>>>,
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

fn slot<K: Eq + std::hash::Hash, T>(map: &Mutex<HashMap<K, Slot<T>>>, key: K) -> Slot<T> {
    map.lock().entry(key).or_default().clone()
}

/// The CUBIN of `v` for `arch`: memory, else disk cache, else NVRTC (then written to disk).
pub fn cubin(v: &KernelVariant, arch: &str) -> Result<Arc<Vec<u8>>> {
    let r = &*REGISTRY;
    let cell = slot(&r.cubins, (*v, arch.to_string()));
    cell.get_or_try_init(|| {
        let name = v.name();
        let src = source::render(v);
        let opts = source::options(arch);
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
            crate::log::info("jit", &format!("{name} ({arch}): disk cache hit"));
            return Ok(Arc::new(bin));
        }
        let t = Instant::now();
        let compiled = nvrtc::compile(&name, &src, &opts)?;
        r.compiles.fetch_add(1, Ordering::Relaxed);
        crate::log::info(
            "jit",
            &format!(
                "{name} ({arch}): compiled by NVRTC {major}.{minor} in {:.0} ms",
                t.elapsed().as_secs_f64() * 1e3
            ),
        );
        disk.store(&name, key, &compiled.cubin);
        Ok(Arc::new(compiled.cubin))
    })
    .cloned()
}

/// The kernel for `v` on the guard's device.
pub fn get(ctx: &ContextGuard, v: &KernelVariant) -> Result<Arc<Kernel>> {
    let r = &*REGISTRY;
    let cell = slot(&r.loaded, (ctx.device.ordinal, *v));
    if let Some(k) = cell.get() {
        return Ok(k.clone());
    }
    cell.get_or_try_init(|| {
        if v.needs_mma() && !ctx.device.spec.has_mma_sync() {
            return Err(Error::ArchMismatch(format!(
                "{} needs sm_80 or newer",
                v.name()
            )));
        }
        let bin = cubin(v, &ctx.device.spec.arch())?;
        let name = v.name();
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
        let cname = CString::new(name.clone()).expect("variant names have no NUL");
        let mut kernel: CUkernel = std::ptr::null_mut();
        // SAFETY: library was just loaded; the entry name is the variant's extern "C" symbol.
        check(
            unsafe { sys::cuLibraryGetKernel(&mut kernel, library, cname.as_ptr()) },
            "cuLibraryGetKernel",
        )?;
        r.loads.fetch_add(1, Ordering::Relaxed);
        Ok(Arc::new(Kernel {
            kernel,
            library,
            device: ctx.device.ordinal,
            name,
        }))
    })
    .cloned()
}
