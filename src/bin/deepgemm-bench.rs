//! deepgemm-bench: runs GEMMs through deepgemm's C API and NVIDIA's cuBLASLt in one
//! process (same inputs, same stream), checks deepgemm's output against a float64
//! reference, and prints a timing table (optionally JSON).
//!
//! The helpers shared with the GPU test suite live in `tests/common/` and are compiled
//! into this binary too, so the bench and the tests check with the same code.

#[cfg(test)]
#[path = "../../tests/common/blas.rs"]
mod blas;
#[path = "../../tests/common/case.rs"]
mod case;
#[path = "../../tests/common/device.rs"]
mod device;
#[path = "../../tests/common/dg.rs"]
mod dg;
#[path = "../../tests/common/host.rs"]
mod host;
#[path = "../../tests/common/lt.rs"]
mod lt;

#[path = "bench/args.rs"]
mod args;
#[path = "bench/json.rs"]
mod json;
#[path = "bench/overhead.rs"]
mod overhead;
#[path = "bench/run.rs"]
mod run;
#[cfg(test)]
#[path = "bench/tests.rs"]
mod tests;

use std::process::ExitCode;

use args::{Command, Options};
use device::{DevBuf, Gpu, Stream};
use json::{Json, obj};
use lt::LtApi;
use run::{Bench, Lib};

/// Exit statuses (documented in `args::USAGE`).
const EXIT_FAILED: u8 = 1;
const EXIT_NO_GPU: u8 = 2;
const EXIT_USAGE: u8 = 64;

fn main() -> ExitCode {
    // A bug here must still end with one readable line, not a backtrace.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("deepgemm-bench: internal error: {info}");
    }));
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let opts = match args::parse(&argv) {
        Ok(Command::Help) => {
            println!("{}", args::USAGE);
            return ExitCode::SUCCESS;
        }
        Ok(Command::Run(o)) => *o,
        Err(e) => {
            eprintln!("deepgemm-bench: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    match std::panic::catch_unwind(|| run_all(&opts)) {
        Ok(code) => code,
        Err(_) => ExitCode::from(EXIT_FAILED),
    }
}

fn run_all(opts: &Options) -> ExitCode {
    if let Some(mib) = opts.workspace_mib {
        run::WORKSPACE.store((mib as usize) << 20, std::sync::atomic::Ordering::Relaxed);
    }
    if opts.plans_all {
        return print_all_plans(opts);
    }
    if opts.plans {
        return print_plans(opts);
    }
    if opts.plan_time {
        return print_plan_time(opts);
    }
    if let Some(names) = &opts.precompile {
        return precompile(names, opts.manifest.as_deref());
    }
    let gpu = match Gpu::open(opts.device) {
        Ok(g) => g,
        Err(why) => {
            println!("deepgemm-bench: no CUDA driver/GPU found: {why}");
            return ExitCode::from(EXIT_NO_GPU);
        }
    };
    println!(
        "device {}: {} (sm_{}{}, {} SMs, L2 {} MiB)",
        opts.device,
        gpu.name,
        gpu.cc.0,
        gpu.cc.1,
        gpu.sm_count,
        gpu.l2_bytes >> 20
    );
    if opts.host_overhead {
        return host_overhead(opts);
    }
    let seed = opts.seed.unwrap_or_else(host::fresh_seed);
    println!(
        "seed {seed} (replay with --seed {seed}); layout {}; {} timed launches after {} warm-up, \
         median{}",
        opts.layout_label(),
        opts.iters,
        opts.warmup,
        if opts.flush_l2 {
            ", L2 flushed before each"
        } else {
            ""
        }
    );
    if opts.chain > 1 {
        println!(
            "each sample: {} launches back to back (no flush between), time a launch",
            opts.chain
        );
    }

    let cublas = load_cublas(opts);
    let dg_api = LtApi::deepgemm();
    let setup = || -> Result<(Lib, Option<Lib>, Stream, Option<DevBuf>), String> {
        let dg = Lib::new(&dg_api)?;
        let lt = match &cublas {
            Some(api) => Some(Lib::new(api)?),
            None => None,
        };
        let stream = Stream::new()?;
        let flush = if opts.flush_l2 {
            // Several times the L2 size, so nothing of the previous launch survives.
            let bytes = (4 * gpu.l2_bytes.max(0) as usize).max(64 << 20);
            Some(DevBuf::alloc(bytes)?)
        } else {
            None
        };
        Ok((dg, lt, stream, flush))
    };
    let (dg, lt, stream, flush) = match setup() {
        Ok(s) => s,
        Err(e) => {
            println!("deepgemm-bench: setup failed: {e}");
            return ExitCode::from(EXIT_FAILED);
        }
    };
    if let Some(api) = &cublas {
        println!("cuBLASLt: {}", api.file);
    }
    let bench = Bench {
        gpu: &gpu,
        opts,
        dg,
        lt,
        stream,
        flush,
    };

    let mut rng = host::Rng::new(seed);
    let mut results = Vec::new();
    for (i, &shape) in opts.shapes.iter().enumerate() {
        let r = bench.run_shape(shape, &mut rng);
        println!("[{}/{}] {}", i + 1, opts.shapes.len(), r.detail_line());
        results.push(r);
    }

    println!();
    print!("{}", run::table(&results));
    let failed = results.iter().filter(|r| !r.passed).count();
    println!(
        "{} shapes: {} passed, {failed} failed (ratio = cuBLASLt time / deepgemm time; \
         first ms = deepgemm's first call, JIT or cache load, not in dg ms)",
        results.len(),
        results.len() - failed
    );

    if let Some((g, lo, hi, n)) = run::ratio_summary(&results) {
        println!("ratio over {n} shapes: geometric mean {g:.3}, min {lo:.2}, max {hi:.2}");
    }

    if let Some(path) = &opts.json {
        let doc = obj(vec![
            ("tool", "deepgemm-bench".into()),
            (
                "device",
                obj(vec![
                    ("ordinal", opts.device.into()),
                    ("name", gpu.name.as_str().into()),
                    ("cc", format!("{}.{}", gpu.cc.0, gpu.cc.1).into()),
                    ("sm_count", gpu.sm_count.into()),
                    ("l2_bytes", gpu.l2_bytes.into()),
                ]),
            ),
            ("seed", seed.to_string().into()), // a string: u64 does not survive a JSON number (f64)
            ("layout", opts.layout_label().into()),
            ("iters", opts.iters.into()),
            ("chain", opts.chain.into()),
            ("warmup", opts.warmup.into()),
            ("l2_flush", opts.flush_l2.into()),
            ("workspace_bytes", run::workspace_bytes().into()),
            ("cublaslt", cublas.as_ref().map(|a| a.file.clone()).into()),
            (
                "results",
                Json::Arr(results.iter().map(|r| r.to_json()).collect()),
            ),
            ("passed", (failed == 0).into()),
        ]);
        if let Err(e) = std::fs::write(path, doc.render()) {
            println!("deepgemm-bench: cannot write {}: {e}", path.display());
            return ExitCode::from(EXIT_FAILED);
        }
        println!("wrote {}", path.display());
    }
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_FAILED)
    }
}

/// NVIDIA's cuBLASLt, unless `--no-cublas` or it cannot be loaded (then the bench says so and
/// times deepgemm alone).
fn load_cublas(opts: &Options) -> Option<LtApi> {
    if !opts.cublas {
        return None;
    }
    match LtApi::cublaslt() {
        Ok(api) => Some(api),
        Err(e) => {
            println!("cuBLASLt not loaded ({e}); timing deepgemm alone");
            None
        }
    }
}

/// `--host-overhead` (bench/overhead.rs), after the device was found.
fn host_overhead(opts: &Options) -> ExitCode {
    let cublas = load_cublas(opts);
    if let Some(api) = &cublas {
        println!("cuBLASLt: {}", api.file);
    }
    match overhead::run(opts, &LtApi::deepgemm(), cublas.as_ref()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(EXIT_FAILED),
        Err(e) => {
            println!("deepgemm-bench: host overhead: {e}");
            ExitCode::from(EXIT_FAILED)
        }
    }
}

/// `--precompile`: the matching sm90 kernels compiled for sm_90a into the disk cache, one
/// NVRTC compile per core at a time, so a GPU session's first calls load instead of compiling
/// one kernel after another (a few seconds each). `manifest`: their cache files' names, one a
/// line, for scripts/gpu-pack.sh to carry exactly the current build's entries.
fn precompile(names: &str, manifest: Option<&std::path::Path>) -> ExitCode {
    use deepgemm::plan::{Kernel, sm90::Sm90Variant};
    use deepgemm::runtime::registry;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let pats: Vec<&str> = names
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let kernels: Vec<Kernel> = Sm90Variant::all()
        .into_iter()
        .filter(|v| pats.contains(&"all") || pats.iter().any(|p| v.name().contains(p)))
        .map(Kernel::Sm90)
        .collect();
    let workers = std::thread::available_parallelism().map_or(4, |n| n.get());
    let (next, failed) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let t = std::time::Instant::now();
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(k) = kernels.get(i) else { break };
                    if let Err(e) = registry::cubin(k, "sm_90a") {
                        eprintln!("deepgemm-bench: {}: {e}", k.name());
                        failed.fetch_add(1, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    let failed = failed.into_inner();
    println!(
        "precompiled {} sm90 kernels ({failed} failed, {} from the disk cache) in {:.1} s on \
         {workers} threads",
        kernels.len() - failed,
        registry::stats().disk_hits,
        t.elapsed().as_secs_f64()
    );
    if failed != 0 {
        return ExitCode::from(EXIT_FAILED);
    }
    if let Some(path) = manifest {
        let mut lines = String::new();
        for k in &kernels {
            match registry::cache_file(k, "sm_90a") {
                Ok(Some(f)) if !f.is_file() => {
                    // The cache could not be written (it says why at DEEPGEMM_LOG_LEVEL >= 1).
                    eprintln!(
                        "deepgemm-bench: --manifest: {} is not in the disk cache ({})",
                        k.name(),
                        f.display()
                    );
                    return ExitCode::from(EXIT_FAILED);
                }
                Ok(Some(f)) => {
                    let name = f.file_name().map(|n| n.to_string_lossy().into_owned());
                    lines.push_str(&name.unwrap_or_default());
                    lines.push('\n');
                }
                Ok(None) => {
                    eprintln!(
                        "deepgemm-bench: --manifest: no disk cache directory (DEEPGEMM_CACHE_DIR)"
                    );
                    return ExitCode::from(EXIT_FAILED);
                }
                Err(e) => {
                    eprintln!("deepgemm-bench: --manifest: {}: {e}", k.name());
                    return ExitCode::from(EXIT_FAILED);
                }
            }
        }
        if let Err(e) = std::fs::write(path, lines) {
            eprintln!("deepgemm-bench: --manifest {}: {e}", path.display());
            return ExitCode::from(EXIT_FAILED);
        }
    }
    ExitCode::SUCCESS
}

/// The shapes `--plans` and `--plans-all` print: the given ones, else the default set.
fn plan_shapes(opts: &Options) -> Vec<(u64, u64, u64)> {
    if opts.shapes.is_empty() {
        args::DEFAULT_SHAPES.to_vec()
    } else {
        opts.shapes.clone()
    }
}

/// `--plans-all`: every Hopper plan of each shape and of its transpose, with the model's
/// estimate, one per line (`SHAPE us NAME`); needs no GPU.
fn print_all_plans(opts: &Options) -> ExitCode {
    use deepgemm::plan::{DeviceSpec, hopper_plans_upto};
    let dev = DeviceSpec::H200.with_sm_target(opts.sm_target);
    for shape in plan_shapes(opts) {
        let spec = run::spec_for(opts, shape);
        let p = match run::problem_of(&spec) {
            Ok(p) => p,
            Err(e) => {
                println!("{}x{}x{}: {e}", shape.0, shape.1, shape.2);
                continue;
            }
        };
        for (problem, swap) in [(p, false), (p.transposed(), true)] {
            for mut plan in hopper_plans_upto(&problem, &dev, usize::MAX).unwrap_or_default() {
                plan.swap = swap;
                println!(
                    "{}x{}x{} {:.1} {}",
                    shape.0,
                    shape.1,
                    shape.2,
                    plan.estimate_ns as f64 / 1e3,
                    plan.name()
                );
            }
        }
    }
    ExitCode::SUCCESS
}

/// The addresses `--plans` and `--plan-time` plan a call at: aligned, but A and B moved by
/// `--offset` elements (the list a call at such addresses chooses from: views at an offset
/// are packed, or run in blocks).
fn plan_pointers(opts: &Options, spec: &host::GemmSpec) -> deepgemm::problem::GemmPointers {
    let e = spec.ab.size() as u64;
    deepgemm::problem::GemmPointers {
        alpha: deepgemm::problem::Scalar::Host(1.0),
        beta: deepgemm::problem::Scalar::Host(0.0),
        a: 0x1000_0000 + opts.offset[0] * e,
        b: 0x2000_0000 + opts.offset[1] * e,
        c: 0x3000_0000,
        d: 0x3000_0000,
        bias: 0,
    }
}

/// `--plan-time`: the CPU time of each shape's first sight in this process (an H200's plans,
/// the process-wide plan cache cold for it): the candidate list (what the heuristic builds),
/// then that plus what a call with the bench's workspace plans (`plan::choose_among` and, for a
/// slab plan, each block's `slab::block_plan`): a call's planning before its first launch.
/// Shapes are timed in the order given; the first pays the planner's one-time set-up.
fn print_plan_time(opts: &Options) -> ExitCode {
    use deepgemm::plan::{DeviceSpec, cache, choose_among, pack, slab};
    let dev = DeviceSpec::H200.with_sm_target(opts.sm_target);
    let workspace = run::workspace_bytes() as u64;
    println!(
        "shape                 list ms  call ms  blocks  plan ({} MiB workspace)",
        workspace >> 20
    );
    for shape in plan_shapes(opts) {
        let spec = run::spec_for(opts, shape);
        let ptrs = plan_pointers(opts, &spec);
        let label = format!("{}x{}x{}", shape.0, shape.1, shape.2);
        let p = match run::problem_of(&spec) {
            Ok(p) => p,
            Err(e) => {
                println!("{label}: {e}");
                continue;
            }
        };
        let t = std::time::Instant::now();
        let timed =
            cache::candidates_for(&p, &dev, pack::pointer_misfits(&ptrs)).and_then(|list| {
                let listed = t.elapsed();
                let chosen = choose_among(list.plans(), &p, &dev, &ptrs, workspace)?;
                let mut blocks = 0;
                if chosen.is_slabbed() {
                    for (m0, mc, n0, nc) in slab::blocks(&p, chosen.slabs) {
                        let b = p.block(m0, mc, n0, nc);
                        slab::block_plan(&b, &dev, &ptrs.block(&p, m0, n0), chosen.workspace)?;
                        blocks += 1;
                    }
                }
                Ok((listed, t.elapsed(), blocks, chosen))
            });
        match timed {
            Ok((listed, called, blocks, chosen)) => println!(
                "{label:<20} {:8.2} {:8.2} {blocks:7}  {}",
                listed.as_secs_f64() * 1e3,
                called.as_secs_f64() * 1e3,
                chosen.name()
            ),
            Err(e) => println!("{label}: {e}"),
        }
    }
    ExitCode::SUCCESS
}

/// `--plans`: the planner's ranked candidates for each shape on an H200, with the cost
/// model's estimate; needs no GPU.
fn print_plans(opts: &Options) -> ExitCode {
    use deepgemm::plan::{DeviceSpec, candidates_for};
    let dev = DeviceSpec::H200.with_sm_target(opts.sm_target);
    for shape in plan_shapes(opts) {
        let spec = run::spec_for(opts, shape);
        let plans = match run::problem_of(&spec).and_then(|p| {
            let misaligned = deepgemm::plan::pack::pointer_misfits(&plan_pointers(opts, &spec));
            candidates_for(&p, &dev, misaligned)
        }) {
            Ok(p) => p,
            Err(e) => {
                println!("{}x{}x{}: {e}", shape.0, shape.1, shape.2);
                continue;
            }
        };
        println!("{}x{}x{}:", shape.0, shape.1, shape.2);
        for p in plans {
            let flops = 2.0 * (shape.0 * shape.1 * shape.2 * opts.batch) as f64;
            let tflops = if p.estimate_ns > 0 {
                format!("{:7.1} TFLOP/s", flops / p.estimate_ns as f64 / 1e3)
            } else {
                "      (no model)".into()
            };
            println!(
                "  {:9.1} us {tflops}  ws {:>9}  {}",
                p.estimate_ns as f64 / 1e3,
                p.workspace,
                p.name()
            );
        }
    }
    ExitCode::SUCCESS
}
