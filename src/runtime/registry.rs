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
//!
//! The keying and bookkeeping of both levels (`Tables`) take the compiling and loading as
//! closures, so they are unit-tested on the CPU; `cubin` and `get` plug in NVRTC, the disk
//! cache and the driver.

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
use crate::jit::{cache, nvrtc, pack, skinny, sm90, source};
use crate::plan::{DeviceSpec, Kernel};

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

fn slot<K: Eq + std::hash::Hash, T>(map: &SlotMap<K, T>, key: K) -> Slot<T> {
    map.lock().entry(key).or_default().clone()
}

/// Key -> the outcome its first asker got, a failure included (`Tables::cubin`).
type OutcomeMap<K, T> = Mutex<HashMap<K, Arc<OnceCell<Result<Arc<T>>>>>>;

/// The registry's bookkeeping, apart from NVRTC and the driver: which CUBINs exist per
/// (variant, architecture) and which loads per (device, variant), each made at most once
/// however many threads ask. What a load yields (`L`) and how CUBINs are made and loaded are
/// the caller's, so the keying is unit-tested on the CPU with plain values.
struct Tables<L> {
    cubins: OutcomeMap<(Kernel, String), Vec<u8>>,
    loaded: SlotMap<(i32, Kernel), L>,
    /// Successful loads.
    loads: AtomicU64,
}

impl<L> Tables<L> {
    fn new() -> Tables<L> {
        Tables {
            cubins: Mutex::new(HashMap::new()),
            loaded: Mutex::new(HashMap::new()),
            loads: AtomicU64::new(0),
        }
    }

    /// The CUBIN of `k` for `arch`: `make` runs for the first asker only; every device of
    /// that architecture shares the result, and every later asker a failure too. A compile
    /// fails the same way each time (the same source, options and NVRTC): kept, so threads
    /// waiting on it and later calls get its error at once instead of compiling again one
    /// after another for seconds each (a session-51 review measured 8 waiters, 8 compiles).
    fn cubin(
        &self,
        k: &Kernel,
        arch: &str,
        make: impl FnOnce() -> Result<Vec<u8>>,
    ) -> Result<Arc<Vec<u8>>> {
        let key = (*k, arch.to_string());
        let cell = self.cubins.lock().entry(key.clone()).or_default().clone();
        let out = cell.get_or_init(|| make().map(Arc::new)).clone();
        if let Err(Error::NotInitialized(_)) = out {
            // No NVRTC (yet): not kept, so a library installed while the process runs is
            // found by a later call (`nvrtc::is_available` re-checks).
            let mut map = self.cubins.lock();
            if map.get(&key).is_some_and(|c| Arc::ptr_eq(c, &cell)) {
                map.remove(&key);
            }
        }
        out
    }

    /// `k` for device `device` (facts `spec`): ARCH_MISMATCH when the device cannot run it;
    /// else the CUBIN of the device's architecture (`make`, once per architecture) handed to
    /// `load` once per device. A failed load leaves no entry and is retried by the next call.
    fn load(
        &self,
        device: i32,
        spec: &DeviceSpec,
        k: &Kernel,
        make: impl FnOnce(&str) -> Result<Vec<u8>>,
        load: impl FnOnce(&[u8]) -> Result<L>,
    ) -> Result<Arc<L>> {
        let cell = slot(&self.loaded, (device, *k));
        if let Some(l) = cell.get() {
            return Ok(l.clone());
        }
        cell.get_or_try_init(|| {
            if !k.runs_on(spec) {
                return Err(Error::ArchMismatch(format!(
                    "{} cannot run on {}",
                    k.name(),
                    spec.arch()
                )));
            }
            let arch = compile_arch(spec);
            let bin = self.cubin(k, &arch, || make(&arch))?;
            let l = load(&bin)?;
            self.loads.fetch_add(1, Ordering::Relaxed);
            Ok(Arc::new(l))
        })
        .cloned()
    }

    /// (device, variant name) of every loaded kernel, sorted.
    fn entries(&self) -> Vec<(i32, String)> {
        let mut entries: Vec<(i32, String)> = self
            .loaded
            .lock()
            .iter()
            .filter(|(_, slot)| slot.get().is_some())
            .map(|((device, k), _)| (*device, k.name()))
            .collect();
        entries.sort();
        entries
    }
}

/// The target a kernel for `spec`'s device is compiled for: its own architecture, or where
/// this NVRTC predates the GPU an older one of the same major (`nvrtc::target_arch`; logged
/// once a target).
fn compile_arch(spec: &DeviceSpec) -> String {
    let exact = spec.arch();
    let Ok(archs) = crate::jit::nvrtc::supported_archs() else {
        return exact; // the compile reports what is missing
    };
    let arch = crate::jit::nvrtc::target_arch(spec.cc_major, spec.cc_minor, &exact, &archs);
    if arch != exact {
        static SAID: Lazy<Mutex<Vec<String>>> = Lazy::new(Default::default);
        let mut said = SAID.lock();
        if !said.contains(&exact) {
            said.push(exact.clone());
            crate::log::info(
                "jit",
                format!("NVRTC has no {exact}: compiling for {arch}, which runs on it"),
            );
        }
    }
    arch
}

struct Registry {
    tables: Tables<Loaded>,
    compiles: AtomicU64,
    disk_hits: AtomicU64,
}

static REGISTRY: Lazy<Registry> = Lazy::new(|| Registry {
    tables: Tables::new(),
    compiles: AtomicU64::new(0),
    disk_hits: AtomicU64::new(0),
});

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
    Stats {
        compiles: r.compiles.load(Ordering::Relaxed),
        disk_hits: r.disk_hits.load(Ordering::Relaxed),
        loads: r.tables.loads.load(Ordering::Relaxed),
        entries: r.tables.entries(),
    }
}

/// The CUBIN of `k` for `arch`: memory, else disk cache, else NVRTC (then written to disk).
pub fn cubin(k: &Kernel, arch: &str) -> Result<Arc<Vec<u8>>> {
    REGISTRY.tables.cubin(k, arch, || build(k, arch))
}

/// What NVRTC compiles for `k` on `arch`: its name, source and options, and the disk-cache key
/// over everything that changes the CUBIN (those three, NVRTC's version, the architecture and
/// the library's version).
struct Inputs {
    name: String,
    src: String,
    opts: Vec<String>,
    key: u128,
    nvrtc: (i32, i32),
}

fn inputs(k: &Kernel, arch: &str) -> Result<Inputs> {
    let name = k.name();
    let (src, opts) = match k {
        Kernel::Portable(v) => (source::render(v), source::options(arch)),
        Kernel::Sm90(v) => (sm90::render(v), sm90::options()),
        Kernel::Pack(v) => (pack::render(v), pack::options(arch)),
        Kernel::Skinny(v) => (skinny::render(v), skinny::options(arch)),
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
    Ok(Inputs {
        name,
        src,
        opts,
        key,
        nvrtc: (major, minor),
    })
}

/// The disk-cache file that holds (or would hold) the CUBIN of `k` for `arch`; None without a
/// cache directory. For tools that carry a cache to another machine (`deepgemm-bench
/// --precompile ... --manifest`): the file's name is the same wherever this library runs.
pub fn cache_file(k: &Kernel, arch: &str) -> Result<Option<std::path::PathBuf>> {
    let i = inputs(k, arch)?;
    Ok(cache::global().entry_path(&i.name, i.key))
}

/// The CUBIN of `k` for `arch` from the disk cache, else compiled by NVRTC and stored there.
fn build(k: &Kernel, arch: &str) -> Result<Vec<u8>> {
    let r = &*REGISTRY;
    let Inputs {
        name,
        src,
        opts,
        key,
        nvrtc: (major, minor),
    } = inputs(k, arch)?;
    let disk = cache::global();
    if let Some(bin) = disk.load(&name, key) {
        r.disk_hits.fetch_add(1, Ordering::Relaxed);
        crate::log::info("jit", format!("{name} ({arch}): disk cache hit"));
        return Ok(bin);
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
    Ok(compiled.cubin)
}

/// The kernel `k` loaded for the guard's device (one load per device and variant, one
/// CUBIN per architecture).
pub fn get(ctx: &ContextGuard, k: &Kernel) -> Result<Arc<Loaded>> {
    let dev = ctx.device;
    REGISTRY.tables.load(
        dev.ordinal,
        &dev.spec,
        k,
        |arch| build(k, arch),
        |bin| load_library(dev.ordinal, k, bin),
    )
}

/// Loads a CUBIN as a context-independent library and finds `k`'s entry in it, opted into
/// its dynamic shared memory on device `ordinal` (`find_kernel`).
fn load_library(ordinal: i32, k: &Kernel, bin: &[u8]) -> Result<Loaded> {
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
    // The library is unloaded again if the rest fails (the next call loads it anew).
    find_kernel(ordinal, k, library, name).inspect_err(|_| {
        // SAFETY: loaded above and handed to no one.
        let _ = unsafe { sys::cuLibraryUnload(library) };
    })
}

/// `k`'s entry in `library`, opted into its dynamic shared memory on device `ordinal`.
fn find_kernel(ordinal: i32, k: &Kernel, library: CUlibrary, name: String) -> Result<Loaded> {
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
            unsafe { sys::cuDeviceGet(&mut dev, ordinal) },
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
        // The whole unified L1 as shared memory: left to the driver, a solo sm90 variant
        // (two CTAs an SM, `Sm90Variant::ctas_per_sm`) may get a carveout that holds one.
        // Every other kernel this large already needs the largest carveout.
        // SAFETY: as above; 100 is CU_SHAREDMEM_CARVEOUT_MAX_SHARED.
        check(
            unsafe {
                sys::cuKernelSetAttribute(
                    CUfunction_attribute::CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                    100,
                    kernel,
                    dev,
                )
            },
            "cuKernelSetAttribute(PREFERRED_SHARED_MEMORY_CARVEOUT)",
        )?;
    }
    Ok(Loaded {
        kernel,
        library,
        device: ordinal,
        name,
    })
}

#[cfg(test)]
mod tests {
    //! The keying and bookkeeping of the registry, with plain values for loads and CUBINs
    //! (no NVRTC, no driver): what a second device, a second architecture, a failed load
    //! and many concurrent askers do to the tables.

    use std::sync::Barrier;
    use std::sync::atomic::AtomicUsize;

    use super::*;
    use crate::plan::KernelVariant;
    use crate::types::{Math, ScalarType};

    fn kernel(ab: ScalarType, cd: ScalarType, math: Math) -> Kernel {
        Kernel::Portable(KernelVariant::portable(ab, cd, math))
    }

    fn bf16() -> Kernel {
        kernel(ScalarType::BF16, ScalarType::BF16, Math::Mma)
    }

    fn fp32() -> Kernel {
        kernel(ScalarType::F32, ScalarType::F32, Math::Ffma)
    }

    /// A load as the tables see it: which device it was for, and the CUBIN it was given.
    #[derive(Debug, PartialEq)]
    struct FakeLoad {
        device: i32,
        cubin: Vec<u8>,
    }

    /// Counts `make` and `load` calls; CUBINs are "<arch>:<variant>" so a test can tell
    /// which one a load received.
    #[derive(Default)]
    struct Counters {
        makes: Mutex<Vec<String>>,
        loads: AtomicUsize,
    }

    impl Counters {
        fn ask(
            &self,
            t: &Tables<FakeLoad>,
            device: i32,
            spec: &DeviceSpec,
            k: &Kernel,
        ) -> Result<Arc<FakeLoad>> {
            t.load(
                device,
                spec,
                k,
                |arch| {
                    self.makes.lock().push(format!("{arch}:{}", k.name()));
                    Ok(format!("{arch}:{}", k.name()).into_bytes())
                },
                |bin| {
                    self.loads.fetch_add(1, Ordering::Relaxed);
                    Ok(FakeLoad {
                        device,
                        cubin: bin.to_vec(),
                    })
                },
            )
        }

        fn makes(&self) -> Vec<String> {
            let mut m = self.makes.lock().clone();
            m.sort();
            m
        }
    }

    #[test]
    fn a_second_device_gets_its_own_load_of_the_same_cubin() {
        let (t, c) = (Tables::new(), Counters::default());
        let h = DeviceSpec::H200;
        let on0 = c.ask(&t, 0, &h, &bf16()).unwrap();
        let again = c.ask(&t, 0, &h, &bf16()).unwrap();
        assert!(Arc::ptr_eq(&on0, &again), "device 0 reuses its load");
        let on1 = c.ask(&t, 1, &h, &bf16()).unwrap();
        assert!(!Arc::ptr_eq(&on0, &on1), "device 1 has its own load");
        assert_eq!((on0.device, on1.device), (0, 1));
        assert_eq!(on0.cubin, on1.cubin, "same architecture: same CUBIN");
        assert_eq!(c.makes(), [format!("sm_90a:{}", bf16().name())]);
        assert_eq!(c.loads.load(Ordering::Relaxed), 2);
        assert_eq!(t.loads.load(Ordering::Relaxed), 2);
        assert_eq!(
            t.entries(),
            [(0, bf16().name()), (1, bf16().name())],
            "one entry per (device, variant)"
        );
    }

    #[test]
    fn each_device_has_entries_only_for_the_variants_it_used() {
        let (t, c) = (Tables::new(), Counters::default());
        let h = DeviceSpec::H200;
        c.ask(&t, 0, &h, &bf16()).unwrap();
        c.ask(&t, 1, &h, &fp32()).unwrap();
        let mut want = vec![(0, bf16().name()), (1, fp32().name())];
        want.sort();
        assert_eq!(t.entries(), want);
        assert_eq!(c.makes().len(), 2);
    }

    #[test]
    fn devices_of_different_architectures_compile_separately() {
        let (t, c) = (Tables::new(), Counters::default());
        let hopper = c.ask(&t, 0, &DeviceSpec::H200, &bf16()).unwrap();
        let ampere = c.ask(&t, 1, &DeviceSpec::A100, &bf16()).unwrap();
        let hopper2 = c.ask(&t, 2, &DeviceSpec::H200, &bf16()).unwrap();
        assert_eq!(
            c.makes(),
            [
                format!("sm_80:{}", bf16().name()),
                format!("sm_90a:{}", bf16().name())
            ],
            "one CUBIN per architecture, not per device"
        );
        assert_eq!(
            ampere.cubin,
            format!("sm_80:{}", bf16().name()).into_bytes()
        );
        assert_eq!(hopper.cubin, hopper2.cubin);
        assert_eq!(c.loads.load(Ordering::Relaxed), 3);
        assert_eq!(t.entries().len(), 3);
    }

    #[test]
    fn a_device_that_cannot_run_the_variant_gets_arch_mismatch_and_no_entry() {
        let (t, c) = (Tables::new(), Counters::default());
        // mma.sync needs sm_80; a T4 (sm_75) cannot run the bf16 kernel.
        match c.ask(&t, 1, &DeviceSpec::T4, &bf16()) {
            Err(Error::ArchMismatch(m)) => assert!(m.contains("sm_75"), "{m}"),
            other => panic!("{other:?}"),
        }
        assert!(
            c.makes().is_empty(),
            "nothing compiled for a device that cannot run it"
        );
        assert!(t.entries().is_empty());
        c.ask(&t, 0, &DeviceSpec::H200, &bf16()).unwrap();
        assert_eq!(t.entries(), [(0, bf16().name())]);
    }

    #[test]
    fn a_failed_load_leaves_no_entry_and_is_retried() {
        let (t, c) = (Tables::new(), Counters::default());
        let h = DeviceSpec::H200;
        c.ask(&t, 0, &h, &bf16()).unwrap();
        let failed = t.load(
            1,
            &h,
            &bf16(),
            |_| panic!("the CUBIN is already there"),
            |_| Err(Error::Internal("cuLibraryLoadData failed".into())),
        );
        assert!(matches!(failed, Err(Error::Internal(_))), "{failed:?}");
        assert_eq!(t.entries(), [(0, bf16().name())]);
        assert_eq!(t.loads.load(Ordering::Relaxed), 1);
        let on1 = c.ask(&t, 1, &h, &bf16()).unwrap();
        assert_eq!(on1.device, 1);
        assert_eq!(t.entries(), [(0, bf16().name()), (1, bf16().name())]);
        assert_eq!(c.makes().len(), 1, "the retry reuses the CUBIN");
    }

    /// A CUBIN that failed to compile is not compiled again: its error goes to every asker
    /// on every device of that architecture, waiting threads included.
    #[test]
    fn a_failed_compile_is_remembered() {
        let t: Tables<FakeLoad> = Tables::new();
        let makes = AtomicUsize::new(0);
        let ask = |device| {
            t.load(
                device,
                &DeviceSpec::H200,
                &bf16(),
                |_| {
                    makes.fetch_add(1, Ordering::Relaxed);
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    Err(Error::Internal("nvrtcCompileProgram failed".into()))
                },
                |_| panic!("nothing to load"),
            )
        };
        let barrier = Barrier::new(8);
        std::thread::scope(|s| {
            for i in 0..8 {
                let (ask, barrier) = (&ask, &barrier);
                s.spawn(move || {
                    barrier.wait();
                    let r = ask(i % 2);
                    assert!(matches!(r, Err(Error::Internal(_))), "{r:?}");
                });
            }
        });
        assert!(matches!(ask(2), Err(Error::Internal(_))));
        assert_eq!(
            makes.load(Ordering::Relaxed),
            1,
            "one compile, its failure kept"
        );
        assert!(t.entries().is_empty());
        // No NVRTC is not kept: a later call looks again.
        let missing = |device| {
            t.load(
                device,
                &DeviceSpec::A100,
                &bf16(),
                |_| {
                    makes.fetch_add(1, Ordering::Relaxed);
                    Err(Error::NotInitialized("libnvrtc could not be loaded".into()))
                },
                |_| panic!("nothing to load"),
            )
        };
        assert!(matches!(missing(3), Err(Error::NotInitialized(_))));
        assert!(matches!(missing(3), Err(Error::NotInitialized(_))));
        assert_eq!(makes.load(Ordering::Relaxed), 3);
    }

    /// 8 threads per device, 2 devices, 2 variants, all released at once: one CUBIN per
    /// variant, one load per (device, variant), and every thread of a device gets the same
    /// load.
    #[test]
    fn concurrent_askers_on_two_devices() {
        let (t, c) = (Tables::new(), Counters::default());
        let barrier = Barrier::new(16);
        let got: Vec<(i32, Kernel, Arc<FakeLoad>)> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..16)
                .map(|i| {
                    let (t, c, barrier) = (&t, &c, &barrier);
                    s.spawn(move || {
                        let device = i % 2;
                        barrier.wait();
                        [bf16(), fp32()]
                            .into_iter()
                            .map(|k| (device, k, c.ask(t, device, &DeviceSpec::H200, &k).unwrap()))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap())
                .collect()
        });
        assert_eq!(c.makes().len(), 2, "{:?}", c.makes());
        assert_eq!(c.loads.load(Ordering::Relaxed), 4);
        assert_eq!(t.entries().len(), 4);
        for (device, k, l) in &got {
            assert_eq!(l.device, *device);
            let first = got
                .iter()
                .find(|(d, k2, _)| d == device && k2 == k)
                .unwrap();
            assert!(Arc::ptr_eq(l, &first.2), "one load per (device, variant)");
        }
    }
}
