//! deepgemmGemmEx and deepgemmGemmStridedBatchedEx (the cuBLAS-style entry points that
//! PyTorch's matmul and bmm call) on a CUDA GPU against the float64 CPU reference. Every
//! test needs a GPU: `cargo test --release --test gpu_blas -- --ignored --test-threads=1
//! --nocapture`.

mod common;

use std::ffi::c_void;

use common::blas::{self, BlasHandle};
use common::case::{Prepared, TYPE_COMBOS};
use common::host::{DType, GemmSpec, Rng};
use common::suite::{Env, Group};
use deepgemm::ffi::{
    DEEPGEMM_COMPUTE_32F, DEEPGEMM_COMPUTE_32F_FAST_TF32, DEEPGEMM_DEFAULT_MATH,
    DEEPGEMM_PEDANTIC_MATH, DEEPGEMM_TF32_TENSOR_OP_MATH,
};

const TRANSPOSES: [(bool, bool); 4] = [(false, false), (false, true), (true, false), (true, true)];

/// Runs `spec` (column-major, in place) through GemmEx or GemmStridedBatchedEx on the
/// env's stream and checks the result against the full reference.
fn run_ex(
    env: &Env,
    h: &BlasHandle,
    spec: &GemmSpec,
    strided: bool,
    rng: &mut Rng,
) -> Result<common::host::Comparison, String> {
    run_with(env, h, spec, rng, |alpha, beta, [a, b, c]| {
        blas::gemm_ex(h, spec, strided, alpha, beta, a, b, c)
    })
}

/// Runs `spec` through `call(alpha, beta, [A, B, C])` (a classic entry point, in place: D's
/// buffer starts as C, NaN when the spec says so) on the env's stream with the handle's pointer
/// mode set for the spec's scalars, and checks the result against the full reference.
fn run_with(
    env: &Env,
    h: &BlasHandle,
    spec: &GemmSpec,
    rng: &mut Rng,
    call: impl FnOnce(*const c_void, *const c_void, [u64; 3]) -> Result<(), String>,
) -> Result<common::host::Comparison, String> {
    h.set_stream(env.stream.raw())?;
    h.set_device_scalars(spec.device_scalars)?;
    let prep = Prepared::new(spec, rng, true)?;
    let c = prep.new_output()?;
    let args = prep.args(&c, None, env.stream.raw());
    call(args.alpha, args.beta, [args.a, args.b, c.ptr])?;
    env.stream.synchronize()?;
    Ok(prep.check_full(&c.download()?))
}

fn ex_spec(
    ab: DType,
    cd: DType,
    tf32: bool,
    (ta, tb): (bool, bool),
    m: u64,
    n: u64,
    k: u64,
) -> GemmSpec {
    let mut s = GemmSpec::new(ab, cd, m, n, k);
    s.tf32 = tf32;
    s.trans_a = ta;
    s.trans_b = tb;
    s.in_place = true;
    s
}

/// GemmEx: every type and transpose, tail shapes, padded leading dimensions, beta != 0,
/// beta = 0 over a NaN C, k = 0, and alpha/beta in device memory.
#[test]
#[ignore = "needs a CUDA GPU"]
fn gemm_ex() {
    let env = Env::new();
    let h = BlasHandle::new().unwrap_or_else(|e| panic!("{e}"));
    let mut g = Group::new("gemm_ex");
    let shapes = [
        (1u64, 1u64, 1u64),
        (17, 129, 64),
        (127, 3, 255),
        (1000, 8, 17),
        (64, 128, 4097),
        (4097, 2, 3),
        (33, 65, 0),
    ];
    for &(ab, cd, tf32) in &TYPE_COMBOS {
        for (i, &tr) in TRANSPOSES.iter().enumerate() {
            for (j, &(m, n, k)) in shapes.iter().enumerate() {
                let mut s = ex_spec(ab, cd, tf32, tr, m, n, k);
                s.pad = [(i as u64 * 3) % 5, (j as u64) % 4, 0, 3 * (j as u64 % 2)];
                match (i + j) % 4 {
                    0 => {
                        s.beta = 0.0;
                        s.c_nan = true;
                    }
                    1 => {
                        s.alpha = -0.75;
                        s.beta = 0.5;
                    }
                    2 => {
                        s.alpha = 1.25;
                        s.beta = -1.0;
                        s.device_scalars = true;
                    }
                    _ => {
                        s.beta = 0.0;
                        s.c_nan = true;
                        s.device_scalars = true;
                    }
                }
                let r = run_ex(&env, &h, &s, false, &mut g.rng);
                g.record(&s, "GemmEx", r);
            }
        }
    }
    g.finish();
}

/// The handle's math mode (cuBLAS's rules): fp32 at COMPUTE_32F under TF32_TENSOR_OP_MATH runs
/// TF32 (checked at TF32's tolerance), an explicit FAST_TF32 under PEDANTIC_MATH runs exact
/// fp32 (checked at fp32's), bf16 under PEDANTIC_MATH runs without tensor cores; every
/// transpose, tail shapes, beta != 0.
#[test]
#[ignore = "needs a CUDA GPU"]
fn gemm_ex_math_mode() {
    let env = Env::new();
    let h = BlasHandle::new().unwrap_or_else(|e| panic!("{e}"));
    let mut g = Group::new("gemm_ex_math_mode");
    let shapes = [(17u64, 129u64, 64u64), (256, 384, 1000), (1024, 512, 4097)];
    // (math mode, compute type passed, TF32 tolerance)
    let modes = [
        (DEEPGEMM_TF32_TENSOR_OP_MATH, DEEPGEMM_COMPUTE_32F, true),
        (
            DEEPGEMM_PEDANTIC_MATH,
            DEEPGEMM_COMPUTE_32F_FAST_TF32,
            false,
        ),
        (DEEPGEMM_DEFAULT_MATH, DEEPGEMM_COMPUTE_32F, false),
    ];
    // (inputs, math mode, compute type passed, TF32 tolerance): pedantic math on bf16 runs
    // without tensor cores (the portable FFMA kernel), checked at bf16's tolerance.
    let cases: Vec<(DType, i32, i32, bool)> = modes
        .iter()
        .map(|&(mode, compute, tf32)| (DType::F32, mode, compute, tf32))
        .chain([(
            DType::BF16,
            DEEPGEMM_PEDANTIC_MATH,
            DEEPGEMM_COMPUTE_32F,
            false,
        )])
        .collect();
    for &(ab, mode, compute, tf32) in &cases {
        h.set_math_mode(mode).unwrap_or_else(|e| panic!("{e}"));
        for (i, &tr) in TRANSPOSES.iter().enumerate() {
            for &(m, n, k) in &shapes {
                let mut s = ex_spec(ab, ab, tf32, tr, m, n, k);
                if i % 2 == 1 {
                    s.alpha = -0.75;
                    s.beta = 0.5;
                }
                let r = run_with(&env, &h, &s, &mut g.rng, |alpha, beta, abc| {
                    blas::gemm_ex_as(&h, &s, false, compute, alpha, beta, abc)
                });
                g.record(&s, &format!("GemmEx math {mode} compute {compute}"), r);
            }
        }
    }
    g.finish();
}

/// deepgemmSgemm and deepgemmSgemmStridedBatched (session 54): exact fp32 under the default
/// math mode and TF32 under TF32_TENSOR_OP_MATH (checked at each one's tolerance), every
/// transpose, tail shapes, padded leading dimensions, beta != 0 and beta = 0 over a NaN C,
/// device scalars, batches of 3 with padded strides.
#[test]
#[ignore = "needs a CUDA GPU"]
fn sgemm_matches_the_reference() {
    let env = Env::new();
    let h = BlasHandle::new().unwrap_or_else(|e| panic!("{e}"));
    let mut g = Group::new("sgemm");
    let shapes = [
        (1u64, 1u64, 1u64),
        (17, 129, 64),
        (127, 3, 255),
        (256, 384, 1000),
        (33, 65, 0),
    ];
    for (mode, tf32) in [
        (DEEPGEMM_DEFAULT_MATH, false),
        (DEEPGEMM_TF32_TENSOR_OP_MATH, true),
    ] {
        h.set_math_mode(mode).unwrap_or_else(|e| panic!("{e}"));
        for (i, &tr) in TRANSPOSES.iter().enumerate() {
            for (j, &(m, n, k)) in shapes.iter().enumerate() {
                for strided in [false, true] {
                    let mut s = ex_spec(DType::F32, DType::F32, tf32, tr, m, n, k);
                    s.pad = [(i as u64) % 3, (j as u64) % 2, 0, 3 * (j as u64 % 2)];
                    if strided {
                        s.batch = 3;
                        s.batch_pad = [5, 0, 0, 7];
                    }
                    match (i + j) % 3 {
                        0 => {
                            s.beta = 0.0;
                            s.c_nan = true;
                        }
                        1 => {
                            s.alpha = -0.75;
                            s.beta = 0.5;
                        }
                        _ => {
                            s.alpha = 1.25;
                            s.beta = -1.0;
                            s.device_scalars = true;
                        }
                    }
                    let r = run_with(&env, &h, &s, &mut g.rng, |alpha, beta, abc| {
                        blas::sgemm(&h, &s, strided, alpha, beta, abc)
                    });
                    let what = if strided {
                        "SgemmStridedBatched"
                    } else {
                        "Sgemm"
                    };
                    g.record(&s, &format!("{what} math {mode}"), r);
                }
            }
        }
    }
    g.finish();
}

/// The batched tests' cases: batch counts 1, 3 and 7, strides equal to and larger than the
/// matrices, every type and transpose, beta 0 over a NaN C and beta != 0; with each its
/// transpose's index (`i`).
fn batched_specs() -> Vec<(usize, GemmSpec)> {
    let mut out = Vec::new();
    for &(ab, cd, tf32) in &TYPE_COMBOS {
        for (i, &tr) in TRANSPOSES.iter().enumerate() {
            for (j, &batch) in [1u64, 3, 7].iter().enumerate() {
                let mut s = ex_spec(
                    ab,
                    cd,
                    tf32,
                    tr,
                    65 + j as u64 * 62,
                    33,
                    129 - 64 * (i as u64 % 2),
                );
                s.batch = batch;
                if (i + j) % 2 == 1 {
                    s.batch_pad = [37, 3, 0, 11];
                    s.pad = [1, 0, 0, 3];
                }
                s.beta = if j == 1 { 0.0 } else { 0.5 };
                s.c_nan = s.beta == 0.0;
                out.push((i, s));
            }
        }
        // k = 0: D = beta * C (GemmBatchedEx passes NULL arrays for A and B then, which
        // cuBLAS allows as it allows NULL matrices: the kernel must not read them).
        let mut s = ex_spec(ab, cd, tf32, TRANSPOSES[1], 33, 17, 0);
        s.batch = 3;
        s.beta = 0.5;
        out.push((1, s));
    }
    out
}

/// GemmStridedBatchedEx on `batched_specs`.
#[test]
#[ignore = "needs a CUDA GPU"]
fn gemm_strided_batched_ex() {
    let env = Env::new();
    let h = BlasHandle::new().unwrap_or_else(|e| panic!("{e}"));
    let mut g = Group::new("gemm_strided_batched_ex");
    for (_, s) in batched_specs() {
        let r = run_ex(&env, &h, &s, true, &mut g.rng);
        g.record(&s, "GemmStridedBatchedEx", r);
    }
    g.finish();
}

/// GemmBatchedEx (arrays of matrix pointers, the portable kernel's pointer-array form):
/// `batched_specs` with the matrices' addresses in device arrays, in order and reversed (with
/// the batch order: see `blas::gemm_batched_ex`), device scalars for one transpose.
#[test]
#[ignore = "needs a CUDA GPU"]
fn gemm_batched_ex() {
    let env = Env::new();
    let h = BlasHandle::new().unwrap_or_else(|e| panic!("{e}"));
    let mut g = Group::new("gemm_batched_ex");
    for (i, mut s) in batched_specs() {
        s.device_scalars = i == 2;
        for (reversed, label) in [(false, "GemmBatchedEx"), (true, "GemmBatchedEx reversed")] {
            let r = run_with(&env, &h, &s, &mut g.rng, |alpha, beta, abc| {
                blas::gemm_batched_ex(&h, &s, alpha, beta, abc, reversed)
            });
            g.record(&s, label, r);
        }
    }
    g.finish();
}

/// GemmEx and GemmStridedBatchedEx with a workspace set on the handle (deepgemmSetWorkspace,
/// session 51): odd leading dimensions and A or B one element past an aligned allocation
/// (packed copies in the workspace, or blocks of them where it is smaller: before, the
/// portable kernel), and long k over few tiles (Stream-K and split-K partials); 64 MiB and 4
/// MiB, every type and transpose.
#[test]
#[ignore = "needs a CUDA GPU"]
fn gemm_ex_with_workspace() {
    let env = Env::new();
    let h = BlasHandle::new().unwrap_or_else(|e| panic!("{e}"));
    let ws = common::device::DevBuf::alloc(64 << 20).unwrap_or_else(|e| panic!("{e}"));
    let mut g = Group::new("gemm_ex_with_workspace");
    for &(ab, cd, tf32) in &TYPE_COMBOS {
        for (i, &tr) in TRANSPOSES.iter().enumerate() {
            for (j, bytes) in [64usize << 20, 4 << 20].into_iter().enumerate() {
                let (m, n, k) = [(1024, 768, 1088), (128, 256, 8192)][(i + j) % 2];
                let mut s = ex_spec(ab, cd, tf32, tr, m, n, k);
                match (i + 2 * j) % 4 {
                    0 => s.pad = [1, 0, 0, 0],
                    1 => s.shift = [1, 0],
                    2 => s.shift = [0, 3],
                    _ => s.pad = [3, 1, 0, 2],
                }
                s.beta = if i % 2 == 0 { 0.0 } else { 0.5 };
                s.c_nan = s.beta == 0.0;
                let r = (|| {
                    h.set_stream(env.stream.raw())?;
                    h.set_workspace(ws.ptr, bytes)?;
                    let prep = Prepared::new(&s, &mut g.rng, true)?;
                    let c = prep.new_output()?;
                    let args = prep.args(&c, None, env.stream.raw());
                    blas::gemm_ex(&h, &s, j == 1, args.alpha, args.beta, args.a, args.b, c.ptr)?;
                    env.stream.synchronize()?;
                    Ok(prep.check_full(&c.download()?))
                })();
                g.record(&s, &format!("workspace {bytes}"), r);
            }
        }
    }
    g.finish();
}

/// GemmEx and GemmStridedBatchedEx with no workspace set: the handle's default workspace for
/// the stream (cuBLAS's default pool, session 76), on the shapes `gemm_ex_with_workspace`
/// runs (packed copies of operands TMA cannot read, Stream-K and split-K partials), on two
/// streams in turn and on the NULL stream, then the handle destroyed with the last calls
/// possibly still running (deepgemmDestroy waits before freeing).
#[test]
#[ignore = "needs a CUDA GPU"]
fn gemm_ex_default_workspace() {
    let env = Env::new();
    let other = common::device::Stream::new().unwrap_or_else(|e| panic!("{e}"));
    let mut g = Group::new("gemm_ex_default_workspace");
    for &(ab, cd, tf32) in &TYPE_COMBOS {
        let h = BlasHandle::new().unwrap_or_else(|e| panic!("{e}"));
        for (i, &tr) in TRANSPOSES.iter().enumerate() {
            for j in 0..3usize {
                let (m, n, k) =
                    [(1024, 768, 1088), (128, 256, 8192), (255, 129, 4097)][(i + j) % 3];
                let mut s = ex_spec(ab, cd, tf32, tr, m, n, k);
                match (i + 2 * j) % 4 {
                    0 => s.pad = [1, 0, 0, 0],
                    1 => s.shift = [1, 0],
                    2 => s.shift = [0, 3],
                    _ => s.pad = [3, 1, 0, 2],
                }
                s.beta = if i % 2 == 0 { 0.0 } else { 0.5 };
                s.c_nan = s.beta == 0.0;
                let stream = [env.stream.raw(), other.raw(), std::ptr::null_mut()][j];
                let r = (|| {
                    h.set_stream(stream)?;
                    let prep = Prepared::new(&s, &mut g.rng, true)?;
                    let c = prep.new_output()?;
                    let args = prep.args(&c, None, stream);
                    blas::gemm_ex(&h, &s, j == 1, args.alpha, args.beta, args.a, args.b, c.ptr)?;
                    env.gpu.synchronize()?;
                    Ok(prep.check_full(&c.download()?))
                })();
                g.record(&s, &format!("default workspace, stream {j}"), r);
            }
        }
        // Enqueued, not waited for: the handle goes while it may still run.
        let s = ex_spec(ab, cd, tf32, TRANSPOSES[0], 512, 512, 8192);
        let r = (|| {
            h.set_stream(env.stream.raw())?;
            let prep = Prepared::new(&s, &mut g.rng, true)?;
            let c = prep.new_output()?;
            let args = prep.args(&c, None, env.stream.raw());
            blas::gemm_ex(&h, &s, false, args.alpha, args.beta, args.a, args.b, c.ptr)?;
            drop(h);
            env.stream.synchronize()?;
            Ok(prep.check_full(&c.download()?))
        })();
        g.record(&s, "destroyed behind its last call", r);
    }
    g.finish();
}

/// One thread's GEMM: its spec, a label, and the comparison with the reference.
type ThreadResult = (GemmSpec, String, Result<common::host::Comparison, String>);

/// Four threads on one handle and one stream, none setting a workspace: their calls share the
/// stream's default buffer, each holding it while it enqueues (a call's packed copies and
/// partials span several launches; interleaved with another call's on the one buffer they
/// would read each other's operands). Packed shapes (odd leading dimensions) and split-K ones,
/// each thread its own data, checked after each round.
#[test]
#[ignore = "needs a CUDA GPU"]
fn gemm_ex_default_workspace_threads() {
    let env = Env::new();
    let h = BlasHandle::new().unwrap_or_else(|e| panic!("{e}"));
    h.set_stream(env.stream.raw())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut g = Group::new("gemm_ex_default_workspace_threads");
    let seed = g.seed;
    let (hp, stream) = (h.0 as usize, env.stream.raw() as usize);
    let results: Vec<Vec<ThreadResult>> = std::thread::scope(|sc| {
        let threads: Vec<_> = (0..4u64)
            .map(|t| {
                let gpu = &env.gpu;
                sc.spawn(move || {
                    let mut out = Vec::new();
                    let mut rng = Rng::new(seed ^ (t + 1).wrapping_mul(0x9e37_79b9));
                    if let Err(e) = gpu.bind() {
                        panic!("bind: {e}");
                    }
                    let h = std::mem::ManuallyDrop::new(BlasHandle(hp as _));
                    for round in 0..6u64 {
                        let (m, n, k) = [(255, 129, 4097), (128, 256, 8192), (1000, 520, 1032)]
                            [((t + round) % 3) as usize];
                        let mut s =
                            ex_spec(DType::BF16, DType::BF16, false, (true, false), m, n, k);
                        s.pad = [1, 0, 0, 3];
                        s.beta = if round % 2 == 0 { 0.0 } else { 0.5 };
                        s.c_nan = s.beta == 0.0;
                        let r = (|| {
                            let prep = Prepared::new(&s, &mut rng, true)?;
                            let c = prep.new_output()?;
                            let args = prep.args(&c, None, stream as *mut c_void);
                            blas::gemm_ex(
                                &h, &s, false, args.alpha, args.beta, args.a, args.b, c.ptr,
                            )?;
                            gpu.synchronize()?;
                            Ok(prep.check_full(&c.download()?))
                        })();
                        out.push((s, format!("thread {t} round {round}"), r));
                    }
                    out
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|j| j.join().expect("a thread panicked"))
            .collect()
    });
    for (s, how, r) in results.into_iter().flatten() {
        g.record(&s, &how, r);
    }
    g.finish();
}

/// GemmEx on the handle's default stream (none set: the legacy NULL stream).
#[test]
#[ignore = "needs a CUDA GPU"]
fn gemm_ex_default_stream() {
    let env = Env::new();
    let h = BlasHandle::new().unwrap_or_else(|e| panic!("{e}"));
    let mut g = Group::new("gemm_ex_default_stream");
    for &(ab, cd, tf32) in &TYPE_COMBOS {
        let mut s = ex_spec(ab, cd, tf32, (true, false), 255, 128, 1000);
        s.beta = 0.25;
        let r = (|| {
            let prep = Prepared::new(&s, &mut g.rng, true)?;
            let c = prep.new_output()?;
            let args = prep.args(&c, None, std::ptr::null_mut());
            blas::gemm_ex(&h, &s, false, args.alpha, args.beta, args.a, args.b, c.ptr)?;
            env.gpu.synchronize()?;
            Ok(prep.check_full(&c.download()?))
        })();
        g.record(&s, "GemmEx stream=NULL", r);
    }
    g.finish();
}
