//! Several GPUs in one process (issue 7), through the C API exactly as an engine that drives
//! one stream per GPU uses it. Every test needs a GPU:
//! `cargo test --release --test gpu_multi -- --ignored --test-threads=1 --nocapture`
//! (packed: `.gpu/tests/gpu_multi --ignored --test-threads=1 --nocapture`).
//!
//! - `several_devices_concurrently`: one thread per visible GPU, each with its own Lt and
//!   cuBLAS-style handle and its own stream, issues GEMMs of varied shapes and types for
//!   `DEEPGEMM_MULTI_SECONDS` (default 3) through deepgemmLtMatmul and deepgemmGemmEx, each
//!   on fresh random data with a NaN-poisoned output, checked against the float64 CPU
//!   reference. Then the registry must hold exactly one entry per (device, variant) used,
//!   and each device only the variants its own GEMMs used. With one GPU, two threads with
//!   two handles and two streams share GPU 0 (the "one-GPU mapping", printed as such).
//! - `handle_and_stream_of_different_devices`: a handle of device 0 given a stream of
//!   device 1 returns DEEPGEMM_STATUS_INVALID_VALUE, logs both devices and enqueues
//!   nothing; the handle keeps working on its own device. With one GPU that refusal cannot
//!   be produced (it is tested on the CPU: `api_multi`, `driver::same_device`); the test
//!   checks instead that a stream of a second context on the same device is accepted.

mod common;

use std::collections::BTreeSet;
use std::ffi::{CString, c_void};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use cudarc::driver::result as cu;
use cudarc::driver::sys;

use common::blas::{self, BlasHandle};
use common::case::{Prepared, TYPE_COMBOS, WORKSPACE_BYTES};
use common::device::{CuResult, DevBuf, Gpu, Stream};
use common::host::{self, Comparison, D, DType, Epi, GemmSpec, HostData, Rng, Widened};
use common::lt::{self, Descs, LtApi, LtHandle};
use common::suite::group_seed;
use deepgemm::ffi::testing;
use deepgemm::plan::pack::PackVariant;
use deepgemm::plan::{self, DeviceSpec, Kernel, Plan};
use deepgemm::runtime::{driver, registry};

/// DEEPGEMM_STATUS_INVALID_VALUE.
const INVALID_VALUE: i32 = 7;
/// Bytes of each operand buffer of a thread (the largest case needs 8 MiB).
const ARENA_BYTES: usize = 16 << 20;
/// Shapes checked by sampling: the CPU reference of a whole one would not keep up.
const LARGE: [(u64, u64, u64); 3] = [(1024, 768, 512), (2048, 512, 1024), (777, 1029, 640)];
/// Random positions checked in a large case (plus corners; every element is NaN-scanned).
const SAMPLES: usize = 512;

fn seconds() -> f64 {
    match std::env::var("DEEPGEMM_MULTI_SECONDS") {
        Ok(s) => s
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("DEEPGEMM_MULTI_SECONDS='{s}' is not a number")),
        Err(_) => 3.0,
    }
}

/// The number of visible GPUs (panics without a driver: these tests are ignored by default
/// and run only where a GPU is expected).
fn device_count() -> usize {
    // SAFETY: only tries to dlopen libcuda.
    assert!(
        unsafe { sys::is_culib_present() },
        "no CUDA driver (libcuda.so)"
    );
    cu::init().expect("cuInit");
    cu::device::get_count().expect("cuDeviceGetCount") as usize
}

/// How a case is called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Call {
    /// deepgemmLtMatmul with the heuristic's algo and the workspace.
    LtAlgo,
    /// deepgemmLtMatmul with algo NULL (and the workspace).
    LtNull,
    /// deepgemmGemmEx on the cuBLAS-style handle (in place, column-major).
    GemmEx,
}

const CALLS: [Call; 3] = [Call::LtAlgo, Call::LtNull, Call::GemmEx];

/// The type combinations thread `t` uses: all of them except one per thread for the first
/// two, so that with two GPUs each device has variants the other has not (and the registry
/// check can see a kernel loaded for the wrong device).
fn combos_of(t: usize) -> Vec<(DType, DType, bool)> {
    let skip = match t {
        0 => Some((DType::F16, DType::F32, false)),
        1 => Some((DType::BF16, DType::F32, false)),
        _ => None,
    };
    TYPE_COMBOS
        .iter()
        .copied()
        .filter(|c| Some(*c) != skip)
        .collect()
}

/// A random case of `combo` for `call`: mostly small shapes (full reference), sometimes a
/// large one (sampled); TN or NN (the K-major A that PyTorch passes, and the plain one);
/// beta 0 over a NaN C, or 0.5; a few with padding, batches or an epilogue.
fn random_spec(rng: &mut Rng, (ab, cd, tf32): (DType, DType, bool), call: Call) -> GemmSpec {
    let large = rng.below(10) == 0;
    let (m, n, k) = if large {
        LARGE[rng.below(LARGE.len() as u64) as usize]
    } else {
        let dim = |rng: &mut Rng| {
            if rng.below(4) == 0 {
                1 + rng.below(512)
            } else {
                1 + rng.below(256)
            }
        };
        (dim(rng), dim(rng), dim(rng))
    };
    let mut s = GemmSpec::new(ab, cd, m, n, k);
    s.tf32 = tf32;
    s.trans_a = rng.below(4) != 0;
    s.alpha = [1.0, 0.75, -1.25][rng.below(3) as usize];
    if rng.below(2) == 0 {
        s.beta = 0.5;
    } else {
        s.c_nan = true;
    }
    if call == Call::GemmEx {
        s.in_place = true;
        if rng.below(4) == 0 {
            s.pad = [1, 3, 0, 2];
        }
        return s;
    }
    if !large && rng.below(4) == 0 {
        s.pad = [rng.below(4), rng.below(4), rng.below(4), rng.below(4)];
    }
    if !large && rng.below(6) == 0 {
        s.batch = 2 + rng.below(2);
    }
    s.epi = match rng.below(6) {
        0 => Epi::Relu,
        1 => Epi::Bias,
        _ => Epi::Default,
    };
    s
}

/// One thread's device buffers, allocated once so that the loop neither allocates nor frees
/// (cuMemFree can synchronize the device) and copies only on the thread's stream.
struct Arena {
    a: DevBuf,
    b: DevBuf,
    c: DevBuf,
    d: DevBuf,
    bias: DevBuf,
    workspace: DevBuf,
}

impl Arena {
    /// Allocates in the current context and checks that every buffer is on `device`.
    fn new(device: i32) -> CuResult<Arena> {
        let arena = Arena {
            a: DevBuf::alloc(ARENA_BYTES)?,
            b: DevBuf::alloc(ARENA_BYTES)?,
            c: DevBuf::alloc(ARENA_BYTES)?,
            d: DevBuf::alloc(ARENA_BYTES)?,
            bias: DevBuf::alloc(1 << 20)?,
            workspace: DevBuf::alloc(WORKSPACE_BYTES)?,
        };
        for buf in [
            &arena.a,
            &arena.b,
            &arena.c,
            &arena.d,
            &arena.bias,
            &arena.workspace,
        ] {
            let on = pointer_device(buf.ptr)?;
            if on != device {
                return Err(format!(
                    "buffer {:#x} is on device {on}, expected {device}",
                    buf.ptr
                ));
            }
        }
        Ok(arena)
    }
}

/// The device a device pointer belongs to.
fn pointer_device(ptr: u64) -> CuResult<i32> {
    let mut ordinal = -1i32;
    // SAFETY: the attribute is an int; `ptr` is a live allocation of this process.
    let r = unsafe {
        sys::cuPointerGetAttribute(
            (&mut ordinal as *mut i32).cast(),
            sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
            ptr,
        )
    };
    r.result()
        .map_err(|e| format!("cuPointerGetAttribute: {e}"))?;
    Ok(ordinal)
}

/// Host -> device copy on `stream` (the source is staged before the call returns).
fn upload(dst: &DevBuf, data: &[u8], stream: &Stream) -> CuResult<()> {
    if data.len() > dst.bytes {
        return Err(format!(
            "{} bytes into a {}-byte buffer",
            data.len(),
            dst.bytes
        ));
    }
    if data.is_empty() {
        return Ok(());
    }
    // SAFETY: `data.len()` bytes fit in the allocation (checked above); pageable memory is
    // staged before the call returns.
    unsafe { cu::memcpy_htod_async(dst.ptr, data, stream.0) }
        .map_err(|e| format!("cuMemcpyHtoDAsync: {e}"))
}

/// Device -> host copy of `bytes` bytes on `stream`, after everything enqueued before.
fn download(src: &DevBuf, bytes: usize, stream: &Stream) -> CuResult<Vec<u8>> {
    let mut v = vec![0u8; bytes];
    if bytes > 0 {
        // SAFETY: `bytes` fit in the allocation (the caller's case sized it); the copy is
        // complete after the synchronize below, before `v` is read.
        unsafe { cu::memcpy_dtoh_async(&mut v[..], src.ptr, stream.0) }
            .map_err(|e| format!("cuMemcpyDtoHAsync: {e}"))?;
    }
    stream.synchronize()?;
    Ok(v)
}

/// The kernels `gemm::run` loads for `plan`: the GEMM kernel, and the copy kernel of each
/// operand that goes through the workspace (A, B, and D's aligned copy, which C's copy-in
/// shares). Must follow `gemm::run`.
fn kernels_of(plan: &Plan) -> Vec<String> {
    let mut names = vec![plan.kernel.name()];
    if let Some(spec) = &plan.pack {
        for o in spec.operands().map(|(_, o)| o).chain(spec.d) {
            if let Some(v) = PackVariant::for_operand(&o) {
                names.push(Kernel::Pack(v).name());
            }
        }
    }
    names
}

/// What one thread needs for a case.
struct Worker<'a> {
    spec: DeviceSpec,
    api: &'a LtApi,
    lt: LtHandle<'a>,
    ex: BlasHandle,
    stream: Stream,
    arena: Arena,
    /// Names of the kernels this thread's calls ran (predicted from their plans).
    kernels: BTreeSet<String>,
}

impl Worker<'_> {
    /// Runs `s` once through `call` on fresh data and compares D with the reference.
    fn case(&mut self, s: &GemmSpec, call: Call, rng: &mut Rng) -> Result<Comparison, String> {
        let data = HostData::random(s, rng);
        let d_elems = s.geom(D).buffer_elems() as usize;
        let d_bytes = d_elems * s.cd.size();
        let d_before = if s.in_place {
            data.c.clone()
        } else {
            s.cd.nan_buffer(d_elems)
        };
        let ar = &self.arena;
        upload(&ar.a, &data.a, &self.stream)?;
        upload(&ar.b, &data.b, &self.stream)?;
        if !s.in_place {
            upload(&ar.c, &data.c, &self.stream)?;
        }
        upload(&ar.bias, &data.bias, &self.stream)?;
        upload(&ar.d, &d_before, &self.stream)?;
        let (alpha, beta) = (s.alpha, s.beta);
        let args = lt::Args {
            alpha: (&alpha as *const f32).cast(),
            beta: (&beta as *const f32).cast(),
            a: ar.a.ptr,
            b: ar.b.ptr,
            c: if s.in_place { ar.d.ptr } else { ar.c.ptr },
            d: ar.d.ptr,
            workspace: ar.workspace.ptr,
            workspace_size: ar.workspace.bytes,
            stream: self.stream.raw(),
        };
        // The same call on a recording handle planning for this device tells which plan
        // (and so which kernels) the real call runs.
        let recorded = match call {
            Call::LtAlgo | Call::LtNull => {
                let descs = Descs::new(self.api, s, ar.bias.ptr, WORKSPACE_BYTES as u64)?;
                let algo = match call {
                    Call::LtAlgo => Some(descs.heuristic(&self.lt, WORKSPACE_BYTES as u64)?.algo),
                    _ => None,
                };
                lt::matmul(&self.lt, &descs, algo.as_ref(), &args)?;
                let sh = LtHandle {
                    api: self.api,
                    h: testing::recording_lt_handle(self.spec) as lt::Handle,
                };
                lt::matmul(&sh, &descs, algo.as_ref(), &args)?;
                testing::lt_recorded(sh.h as _)
            }
            Call::GemmEx => {
                blas::gemm_ex(
                    &self.ex, s, false, args.alpha, args.beta, args.a, args.b, args.d,
                )?;
                let sh = BlasHandle(testing::recording_handle(self.spec));
                sh.set_stream(self.stream.raw())?;
                blas::gemm_ex(&sh, s, false, args.alpha, args.beta, args.a, args.b, args.d)?;
                testing::recorded(sh.0)
            }
        };
        let rc = recorded
            .last()
            .ok_or("the recording handle recorded no call")?;
        let plan = match rc.plan {
            Some(p) => p,
            None => plan::choose_for_call(&rc.problem, &self.spec, &rc.ptrs, rc.workspace_size)
                .map_err(|e| format!("predicting the plan: {e}"))?,
        };
        self.kernels.extend(kernels_of(&plan));
        let out = download(&ar.d, d_bytes, &self.stream)?;
        let w = Widened::new(s, &data);
        let large = s.m * s.n * s.k * s.batch > 512 * 512 * 512;
        Ok(if large {
            host::compare_sampled(s, &w, &out, SAMPLES, rng)
        } else {
            let r = host::reference(s, &w);
            host::compare_full(s, &out, &d_before, &r)
        })
    }
}

/// What one thread did.
struct Report {
    thread: usize,
    device: i32,
    gemms: u64,
    by_call: [u64; 3],
    failures: Vec<String>,
    first_pass_s: f64,
    total_s: f64,
    kernels: BTreeSet<String>,
}

/// Thread `t` on device `device`: its own context binding, handles, stream and buffers;
/// one pass over every (type, call) pair first (which compiles what is new), then random
/// cases until `secs` have passed.
fn run_thread(t: usize, device: i32, seed: u64, secs: f64) -> CuResult<Report> {
    let start = Instant::now();
    let api = &LtApi::deepgemm();
    let gpu = Gpu::open(device as usize)?;
    let spec = driver::device(device)
        .map_err(|e| format!("device {device}: {e}"))?
        .spec;
    // Created with this thread's device current: both handles are bound to it.
    let lt = LtHandle::new(api)?;
    let ex = BlasHandle::new()?;
    let stream = Stream::new()?;
    ex.set_stream(stream.raw())?;
    let arena = Arena::new(device)?;
    let mut w = Worker {
        spec,
        api,
        lt,
        ex,
        stream,
        arena,
        kernels: BTreeSet::new(),
    };
    let mut rng = Rng::new(seed ^ (0x9e37_79b9_7f4a_7c15u64.wrapping_mul(t as u64 + 1)));
    let combos = combos_of(t);
    let first: Vec<((DType, DType, bool), Call)> = combos
        .iter()
        .flat_map(|&c| CALLS.iter().map(move |&k| (c, k)))
        .collect();
    let mut r = Report {
        thread: t,
        device,
        gemms: 0,
        by_call: [0; 3],
        failures: Vec::new(),
        first_pass_s: 0.0,
        total_s: 0.0,
        kernels: BTreeSet::new(),
    };
    let deadline = start + Duration::from_secs_f64(secs);
    let mut i = 0usize;
    while i < first.len() || Instant::now() < deadline {
        let (combo, call) = if i < first.len() {
            first[i]
        } else {
            (
                combos[rng.below(combos.len() as u64) as usize],
                CALLS[rng.below(3) as usize],
            )
        };
        let s = random_spec(&mut rng, combo, call);
        let res = w.case(&s, call, &mut rng);
        r.gemms += 1;
        r.by_call[CALLS.iter().position(|&c| c == call).unwrap()] += 1;
        let tol = s.tolerance();
        match res {
            Ok(c) if c.passes(tol) => {}
            Ok(c) => r
                .failures
                .push(format!("{s} [{call:?}]: {c} (tolerance {tol:.0e})")),
            Err(e) => r.failures.push(format!("{s} [{call:?}]: {e}")),
        }
        i += 1;
        if i == first.len() {
            r.first_pass_s = start.elapsed().as_secs_f64();
        }
    }
    w.stream.synchronize()?;
    r.total_s = start.elapsed().as_secs_f64();
    r.kernels = std::mem::take(&mut w.kernels);
    drop(w);
    drop(gpu);
    Ok(r)
}

/// The tests of this binary compare registry counters before and after: one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn several_devices_concurrently() {
    let _serial = serial();
    let count = device_count();
    let secs = seconds();
    let devices: Vec<i32> = if count >= 2 {
        println!("{count} GPUs: one thread, handle and stream per GPU");
        (0..count as i32).collect()
    } else {
        println!(
            "one GPU: the one-GPU mapping (two threads, two handles, two streams, all on \
             GPU 0)"
        );
        vec![0, 0]
    };
    let seed = group_seed();
    println!("seed {seed} (replay: DEEPGEMM_TEST_SEED={seed}); {secs} s per thread");
    let before = registry::stats();
    let reports: Vec<CuResult<Report>> = std::thread::scope(|s| {
        let handles: Vec<_> = devices
            .iter()
            .enumerate()
            .map(|(t, &d)| s.spawn(move || run_thread(t, d, seed, secs)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("the thread panicked".into()))
            })
            .collect()
    });
    let after = registry::stats();

    let mut failures = Vec::new();
    let mut gemms = 0u64;
    let mut expected: BTreeSet<(i32, String)> = BTreeSet::new();
    for (t, r) in reports.iter().enumerate() {
        match r {
            Err(e) => failures.push(format!("thread {t}: {e}")),
            Ok(r) => {
                println!(
                    "thread {} on device {}: {} GEMMs ({} Lt+algo, {} Lt NULL algo, {} \
                     GemmEx), {} failed; first pass {:.2} s, total {:.2} s; {} kernels",
                    r.thread,
                    r.device,
                    r.gemms,
                    r.by_call[0],
                    r.by_call[1],
                    r.by_call[2],
                    r.failures.len(),
                    r.first_pass_s,
                    r.total_s,
                    r.kernels.len()
                );
                for f in r.failures.iter().take(10) {
                    println!("  FAIL {f}");
                }
                failures.extend(r.failures.iter().map(|f| format!("thread {t}: {f}")));
                gemms += r.gemms;
                expected.extend(r.kernels.iter().map(|k| (r.device, k.clone())));
            }
        }
    }

    // The registry: exactly the (device, variant) pairs the threads' plans used, each
    // loaded once; CUBINs made once per (variant, architecture).
    let entries: BTreeSet<(i32, String)> = after.entries.iter().cloned().collect();
    assert_eq!(
        entries.len(),
        after.entries.len(),
        "duplicate registry entries: {:?}",
        after.entries
    );
    let old: BTreeSet<(i32, String)> = before.entries.iter().cloned().collect();
    let new: BTreeSet<(i32, String)> = entries.difference(&old).cloned().collect();
    let missing: Vec<_> = expected.difference(&entries).collect();
    let unexpected: Vec<_> = new.difference(&expected).collect();
    if !missing.is_empty() {
        failures.push(format!("used but not in the registry: {missing:?}"));
    }
    if !unexpected.is_empty() {
        failures.push(format!(
            "loaded for a device whose calls did not use them: {unexpected:?}"
        ));
    }
    let loads = after.loads - before.loads;
    if loads != new.len() as u64 {
        failures.push(format!(
            "{loads} loads for {} new (device, variant) entries",
            new.len()
        ));
    }
    let per_arch: BTreeSet<(String, String)> = new
        .iter()
        .map(|(d, k)| (driver::device(*d).unwrap().spec.arch(), k.clone()))
        .collect();
    let made = (after.compiles - before.compiles) + (after.disk_hits - before.disk_hits);
    if made > per_arch.len() as u64 {
        failures.push(format!(
            "{made} CUBINs compiled or read for {} (architecture, variant) pairs",
            per_arch.len()
        ));
    }
    let mut per_device: Vec<(i32, usize)> = Vec::new();
    for (d, _) in &entries {
        match per_device.last_mut() {
            Some((pd, n)) if pd == d => *n += 1,
            _ => per_device.push((*d, 1)),
        }
    }
    println!(
        "registry: entries per device {per_device:?}; {} new, {loads} loads, {} compiles + {} \
         disk hits for {} (arch, variant) pairs",
        new.len(),
        after.compiles - before.compiles,
        after.disk_hits - before.disk_hits,
        per_arch.len()
    );
    // The GEMMs that passed; every failure (a GEMM's, a thread's or the registry's) counts.
    let gemm_failures: u64 = reports
        .iter()
        .flatten()
        .map(|r| r.failures.len() as u64)
        .sum();
    println!(
        "group several_devices_concurrently: {} passed, {} failed (seed {seed})",
        gemms - gemm_failures,
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures (seed {seed}); first: {}",
        failures.len(),
        failures[0]
    );
}

/// bf16 GEMM checked in full: the positive control of the device-mismatch test.
fn small_spec() -> GemmSpec {
    let mut s = GemmSpec::new(DType::BF16, DType::BF16, 96, 80, 64);
    s.trans_a = true;
    s.beta = 0.5;
    s
}

fn check_small(p: &Prepared, out: &[u8]) -> Result<(), String> {
    let c = p.check_full(out);
    if c.passes(p.spec.tolerance()) {
        Ok(())
    } else {
        Err(format!("{}: {c}", p.spec))
    }
}

/// deepgemmGemmEx of `s` (in place) on `h`, returning the status as it is.
fn gemm_ex_status(h: &BlasHandle, s: &GemmSpec, p: &Prepared, c: &DevBuf) -> i32 {
    use deepgemm::ffi::*;
    let (ga, gb, gc) = (s.geom(0), s.geom(1), s.geom(2));
    let op = |t: bool| if t { DEEPGEMM_OP_T } else { DEEPGEMM_OP_N };
    deepgemmGemmEx(
        h.0,
        op(s.trans_a),
        op(s.trans_b),
        s.m as i32,
        s.n as i32,
        s.k as i32,
        (&p.alpha as *const f32).cast(),
        p.a.ptr as *const c_void,
        s.ab.cuda(),
        ga.ld as i32,
        p.b.ptr as *const c_void,
        s.ab.cuda(),
        gb.ld as i32,
        (&p.beta as *const f32).cast(),
        c.ptr as *mut c_void,
        s.cd.cuda(),
        gc.ld as i32,
        s.compute_type(),
        DEEPGEMM_GEMM_DEFAULT,
    ) as i32
}

/// Logs errors to a fresh file while `f` runs; returns the log's text.
fn logged(name: &str, f: impl FnOnce()) -> String {
    logged_at(name, 1, f)
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn handle_and_stream_of_different_devices() {
    let _serial = serial();
    let count = device_count();
    let api = LtApi::deepgemm();
    let mut rng = Rng::new(group_seed());
    if count < 2 {
        println!(
            "one GPU: a stream of another device cannot exist here, so the refusal is not \
             exercised (the CPU tests cover it: api_multi, driver::same_device); checking \
             instead that a stream of a second context on the same device is accepted"
        );
        second_context_on_the_same_device(&api, &mut rng);
        return;
    }
    let gpu0 = Gpu::open(0).unwrap();
    let lt0 = LtHandle::new(&api).unwrap();
    let ex0 = BlasHandle::new().unwrap();
    let s0 = Stream::new().unwrap();
    let gpu1 = Gpu::open(1).unwrap(); // now current
    let lt1 = LtHandle::new(&api).unwrap(); // bound to device 1
    let s1 = Stream::new().unwrap();
    gpu0.bind().unwrap();

    let s = small_spec();
    let p0 = Prepared::new(&s, &mut rng, true).unwrap();
    let d0 = p0.new_output().unwrap();
    let descs = Descs::new(&api, &s, 0, 0).unwrap();
    let algo = descs.heuristic(&lt0, 0).unwrap().algo;
    let mut ex_spec = s.clone();
    ex_spec.in_place = true;
    let pe = Prepared::new(&ex_spec, &mut rng, true).unwrap();
    let ce = pe.new_output().unwrap();

    let mut statuses = Vec::new();
    let log = logged("multi-mismatch", || {
        let on = |stream: &Stream| p0.args(&d0, None, stream.raw());
        statuses.push((
            "Lt handle 0, stream 1, algo NULL",
            lt::matmul_status(&lt0, &descs, None, &on(&s1)),
        ));
        statuses.push((
            "Lt handle 0, stream 1, heuristic algo",
            lt::matmul_status(&lt0, &descs, Some(&algo), &on(&s1)),
        ));
        gpu1.bind().unwrap();
        statuses.push((
            "Lt handle 0, stream 1, device 1 current",
            lt::matmul_status(&lt0, &descs, None, &on(&s1)),
        ));
        statuses.push((
            "Lt handle 0, NULL stream, device 1 current",
            lt::matmul_status(
                &lt0,
                &descs,
                None,
                &p0.args(&d0, None, std::ptr::null_mut()),
            ),
        ));
        gpu0.bind().unwrap();
        statuses.push((
            "Lt handle 1, stream 0",
            lt::matmul_status(&lt1, &descs, None, &on(&s0)),
        ));
        ex0.set_stream(s1.raw()).unwrap();
        statuses.push((
            "GemmEx handle 0, stream 1",
            gemm_ex_status(&ex0, &ex_spec, &pe, &ce),
        ));
    });
    for (what, st) in &statuses {
        println!("{what}: status {st}");
    }
    let wrong: Vec<_> = statuses
        .iter()
        .filter(|(_, st)| *st != INVALID_VALUE)
        .collect();
    assert!(
        wrong.is_empty(),
        "expected INVALID_VALUE ({INVALID_VALUE}): {wrong:?}"
    );
    let lines: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("DEEPGEMM_STATUS_INVALID_VALUE"))
        .collect();
    println!("log: {}", lines.first().copied().unwrap_or("(none)"));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("handle belongs to device 0")
                && l.contains("stream runs on device 1")),
        "no log line names both devices:\n{log}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("handle belongs to device 1")
                && l.contains("stream runs on device 0")),
        "{log}"
    );
    assert!(
        lines.iter().any(|l| l.contains("[deepgemmGemmEx]")),
        "{log}"
    );

    // Nothing was enqueued and nothing is sticky: each handle still works on its device.
    for st in [&s0, &s1] {
        st.synchronize().unwrap();
    }
    let out = d0.download().unwrap();
    assert_eq!(out, p0.d_before, "a refused call wrote D");
    lt::matmul(&lt0, &descs, None, &p0.args(&d0, None, s0.raw())).unwrap();
    s0.synchronize().unwrap();
    check_small(&p0, &d0.download().unwrap()).unwrap();
    ex0.set_stream(s0.raw()).unwrap();
    assert_eq!(gemm_ex_status(&ex0, &ex_spec, &pe, &ce), 0);
    s0.synchronize().unwrap();
    check_small(&pe, &ce.download().unwrap()).unwrap();
    gpu1.bind().unwrap();
    let p1 = Prepared::new(&s, &mut rng, true).unwrap();
    let d1 = p1.new_output().unwrap();
    let descs1 = Descs::new(&api, &s, 0, 0).unwrap();
    lt::matmul(&lt1, &descs1, None, &p1.args(&d1, None, s1.raw())).unwrap();
    s1.synchronize().unwrap();
    check_small(&p1, &d1.download().unwrap()).unwrap();
    println!("after the refusals both handles ran correct GEMMs on their own devices");
    drop((p1, d1, descs1, lt1, s1));
    gpu0.bind().unwrap();
}

/// One GPU: a handle made in the primary context of device 0, given a stream of a second
/// context on device 0 (its buffers allocated there): accepted, correct, and no new
/// registry entry (the device's loaded kernels serve every context of the device).
fn second_context_on_the_same_device(api: &LtApi, rng: &mut Rng) {
    let gpu = Gpu::open(0).unwrap();
    let h = LtHandle::new(api).unwrap();
    let s = small_spec();
    // First in the primary context, so the kernel is loaded for device 0.
    let p = Prepared::new(&s, rng, true).unwrap();
    let d = p.new_output().unwrap();
    let st = Stream::new().unwrap();
    let descs = Descs::new(api, &s, 0, 0).unwrap();
    let algo = descs.heuristic(&h, 0).unwrap().algo;
    lt::matmul(&h, &descs, Some(&algo), &p.args(&d, None, st.raw())).unwrap();
    st.synchronize().unwrap();
    check_small(&p, &d.download().unwrap()).unwrap();
    let before = registry::stats();

    let dev = cu::device::get(0).unwrap();
    // SAFETY: `dev` came from cuDeviceGet; the context is destroyed below, after everything
    // made in it is dropped.
    let ctx2 = unsafe { cu::ctx::create_v4(std::ptr::null_mut(), 0, dev) }.unwrap();
    {
        // ctx2 is current (cuCtxCreate makes it so).
        let p2 = Prepared::new(&s, rng, true).unwrap();
        let d2 = p2.new_output().unwrap();
        let st2 = Stream::new().unwrap();
        gpu.bind().unwrap(); // the caller's current context is the primary one
        let status = lt::matmul_status(&h, &descs, Some(&algo), &p2.args(&d2, None, st2.raw()));
        // SAFETY: ctx2 is live.
        unsafe { cu::ctx::set_current(ctx2) }.unwrap();
        assert_eq!(
            status, 0,
            "a stream of a second context on the handle's device"
        );
        st2.synchronize().unwrap();
        check_small(&p2, &d2.download().unwrap()).unwrap();
    }
    gpu.bind().unwrap();
    // SAFETY: everything made in ctx2 was dropped above; it is not current.
    unsafe { sys::cuCtxDestroy_v2(ctx2) }.result().unwrap();
    let after = registry::stats();
    assert_eq!(
        (after.loads, &after.entries),
        (before.loads, &before.entries),
        "a second context on the same device reuses the device's loaded kernels"
    );
    println!(
        "second context on device 0: accepted, correct, no new load ({} entries)",
        after.entries.len()
    );
}

/// A green context of part of the SMs (CUDA 12.4+): a call on its stream is planned for the
/// partition's SMs (`driver::context_sm_limit`: persistent grids, Stream-K ranges and clusters
/// sized to them, where they were sized to the whole device and their CTAs queued), logs so at
/// the hints level, and is correct; the primary context still plans for every SM. Also a
/// stream of the same partition through the NULL algo and the heuristic's algo.
#[test]
#[ignore = "needs a CUDA GPU (driver 12.4+)"]
fn green_context_plans_for_its_sms() {
    let _serial = serial();
    let api = LtApi::deepgemm();
    let mut rng = Rng::new(group_seed());
    let gpu = Gpu::open(0).unwrap();
    let full = deepgemm::gemm::device_spec(std::ptr::null_mut()).unwrap();
    if driver::driver_version() < 12040 {
        println!(
            "driver {} has no green contexts: nothing to check",
            driver::driver_version()
        );
        return;
    }
    let dev = cu::device::get(0).unwrap();
    // SAFETY (this block): plain driver calls on zeroed out-structs; the green context is
    // destroyed at the end, after everything made in it is dropped.
    let (green, stream, part_sms) = unsafe {
        let mut all: sys::CUdevResource = std::mem::zeroed();
        sys::cuDeviceGetDevResource(
            dev,
            &mut all,
            sys::CUdevResourceType::CU_DEV_RESOURCE_TYPE_SM,
        )
        .result()
        .unwrap();
        let want = (all.__bindgen_anon_1.sm.smCount / 4).max(8);
        let mut group: sys::CUdevResource = std::mem::zeroed();
        let mut rest: sys::CUdevResource = std::mem::zeroed();
        let mut groups = 1u32;
        sys::cuDevSmResourceSplitByCount(&mut group, &mut groups, &all, &mut rest, 0, want)
            .result()
            .unwrap();
        assert_eq!(groups, 1);
        let mut desc: sys::CUdevResourceDesc = std::ptr::null_mut();
        sys::cuDevResourceGenerateDesc(&mut desc, &mut group, 1)
            .result()
            .unwrap();
        let mut green: sys::CUgreenCtx = std::ptr::null_mut();
        sys::cuGreenCtxCreate(
            &mut green,
            desc,
            dev,
            sys::CUgreenCtxCreate_flags::CU_GREEN_CTX_DEFAULT_STREAM as u32,
        )
        .result()
        .unwrap();
        let mut stream: sys::CUstream = std::ptr::null_mut();
        sys::cuGreenCtxStreamCreate(
            &mut stream,
            green,
            sys::CUstream_flags::CU_STREAM_NON_BLOCKING as u32,
            0,
        )
        .result()
        .unwrap();
        (green, stream, group.__bindgen_anon_1.sm.smCount)
    };
    println!(
        "green context of {part_sms} of {} SMs (driver {})",
        full.sm_count,
        driver::driver_version()
    );
    assert!(part_sms < full.sm_count);
    let spec = deepgemm::gemm::device_spec(stream.cast()).unwrap();
    assert_eq!(
        (spec.sm_count, spec.partial),
        (part_sms, true),
        "planned for the partition"
    );
    let again = deepgemm::gemm::device_spec(std::ptr::null_mut()).unwrap();
    assert_eq!(again, full, "the primary context still plans for every SM");

    let h = LtHandle::new(&api).unwrap();
    // Buffers made in the green context (current while they live), as an engine that
    // switches to it would; the handle was made in the primary one.
    let mut as_ctx: sys::CUcontext = std::ptr::null_mut();
    // SAFETY: `green` is live; the CUcontext stands for it, valid as long as it is.
    unsafe { sys::cuCtxFromGreenCtx(&mut as_ctx, green) }
        .result()
        .unwrap();
    let mut cases = vec![small_spec()];
    for (m, n, k) in [(512, 768, 1024), (256, 256, 8192), (1000, 1200, 2048)] {
        let mut s = GemmSpec::new(DType::BF16, DType::BF16, m, n, k);
        s.trans_a = true;
        cases.push(s);
    }
    let mut failed = Vec::new();
    let mut passed = 0;
    let log = logged_at("green", 3, || {
        // SAFETY: as_ctx is live; the primary context is made current again below.
        unsafe { cu::ctx::set_current(as_ctx) }.unwrap();
        let ws = DevBuf::alloc(WORKSPACE_BYTES).unwrap();
        for s in &cases {
            let p = Prepared::new(s, &mut rng, true).unwrap();
            // The preference allows the workspace, so the heuristic's algo may split.
            let descs = Descs::new(&api, s, 0, WORKSPACE_BYTES as u64).unwrap();
            let algo = descs.heuristic(&h, WORKSPACE_BYTES as u64).unwrap().algo;
            for (what, a) in [("NULL algo", None), ("heuristic algo", Some(&algo))] {
                let d = p.new_output().unwrap();
                let r = lt::matmul(&h, &descs, a, &p.args(&d, Some(&ws), stream.cast()));
                // SAFETY: the green context's live stream.
                unsafe { sys::cuStreamSynchronize(stream) }
                    .result()
                    .unwrap();
                match r.and_then(|()| check_small(&p, &d.download().unwrap())) {
                    Ok(()) => passed += 1,
                    Err(e) => failed.push(format!("{s} {what}: {e}")),
                }
            }
        }
        drop(ws);
    });
    gpu.bind().unwrap();
    // SAFETY: the stream and green context are not used after this; every buffer made in
    // it was dropped above.
    unsafe {
        sys::cuStreamDestroy_v2(stream).result().unwrap();
        sys::cuGreenCtxDestroy(green).result().unwrap();
    }
    for l in log
        .lines()
        .filter(|l| l.contains("SMs") || l.contains("plan"))
    {
        println!("  log: {}", l.chars().take(240).collect::<String>());
    }
    // Every call's choice says the share it was planned for.
    let choices = log
        .lines()
        .filter(|l| l.contains("[deepgemmLtMatmul]") && l.contains(" batch 1: "))
        .count();
    let shared = log
        .lines()
        .filter(|l| l.contains(&format!("planned for {part_sms} SMs")))
        .count();
    assert!(
        choices >= cases.len() && shared == choices,
        "{shared} of {choices} logged choices planned for the green context's {part_sms} SMs"
    );
    println!(
        "group green_context: {passed} passed, {} failed",
        failed.len()
    );
    assert!(failed.is_empty(), "{failed:#?}");
    assert!(passed > 0);
}

/// `logged` at `level` (3: hints, where deepgemm says which kernel it chose and why).
fn logged_at(name: &str, level: i32, f: impl FnOnce()) -> String {
    use deepgemm::ffi::*;
    let path = std::env::temp_dir().join(format!("deepgemm-{name}-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let cpath = CString::new(path.to_str().unwrap()).unwrap();
    assert_eq!(deepgemmLtLoggerOpenFile(cpath.as_ptr()) as i32, 0);
    assert_eq!(deepgemmLtLoggerSetLevel(level) as i32, 0);
    f();
    assert_eq!(deepgemmLtLoggerSetLevel(0) as i32, 0);
    assert_eq!(deepgemmLtLoggerOpenFile(std::ptr::null()) as i32, 0);
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let _ = std::fs::remove_file(&path);
    text
}
