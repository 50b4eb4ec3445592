//! deepgemmLtMatmul on a CUDA GPU against a float64 CPU reference, through the C API
//! exactly as a C caller uses it. Every test needs a GPU: run with
//! `cargo test --release --test gpu_matmul -- --ignored --test-threads=1 --nocapture`.
//!
//! Each test is a group of cases on fresh random data (seed printed; set
//! DEEPGEMM_TEST_SEED to replay); outputs are poisoned with NaN first, so an unwritten
//! element fails; every failure is collected, then the test asserts once.

mod common;

use common::case::TYPE_COMBOS;
use common::host::{C, Comparison, D, DType, Epi, GemmSpec, Order, Rng};
use common::suite::{CallMode, Env, Group};

/// The dimension values every type and transpose meets at least once, in m, n and k.
const VALUES: [u64; 12] = [1, 2, 3, 8, 17, 64, 127, 128, 129, 255, 1000, 4097];
/// Partners for the large values, so the CPU reference stays cheap.
const SMALL: [u64; 6] = [1, 2, 3, 8, 17, 64];
/// Multiply-add budget of one sweep case (the CPU reference's cost).
const SWEEP_MACS: u64 = 1 << 22;

const TRANSPOSES: [(bool, bool); 4] = [(false, false), (false, true), (true, false), (true, true)];

fn pick(rng: &mut Rng, v: &[u64]) -> u64 {
    v[rng.below(v.len() as u64) as usize]
}

fn spec(
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
    s
}

fn random_order(rng: &mut Rng) -> Order {
    if rng.below(2) == 0 {
        Order::Col
    } else {
        Order::Row
    }
}

/// The case variations the decode and orientation groups cycle through (besides the plain case).
#[derive(Clone, Copy)]
enum Variation {
    /// alpha 0.75, beta 0.5, C aliasing D or not.
    AlphaBeta { in_place: bool },
    /// An epilogue, its bias in fp32 or in D's type.
    Epilogue { epi: Epi, f32_bias: bool },
    /// Row-major D with padded leading dimensions, beta -1.
    RowMajorD,
}

fn vary(s: &mut GemmSpec, v: Variation) {
    match v {
        Variation::AlphaBeta { in_place } => {
            s.alpha = 0.75;
            s.beta = 0.5;
            s.in_place = in_place;
        }
        Variation::Epilogue { epi, f32_bias } => {
            s.epi = epi;
            if epi.has_bias() && f32_bias {
                s.bias_type = Some(DType::F32);
            }
        }
        Variation::RowMajorD => {
            s.order[D] = Order::Row;
            s.pad = [0, 0, 1, 3];
            s.beta = -1.0;
        }
    }
}

/// Every type combination x every transpose x every value of m, n and k (with random
/// partners drawn from the same list, shrunk to the budget); half the cases use random
/// orders and leading-dimension padding, a quarter pass algo = NULL.
#[test]
#[ignore = "needs a CUDA GPU"]
fn shapes_types_transposes() {
    let env = Env::new();
    let mut g = Group::new("shapes_types_transposes");
    for &(ab, cd, tf32) in &TYPE_COMBOS {
        for &tr in &TRANSPOSES {
            for dim in 0..3 {
                for &v in &VALUES {
                    let rng = &mut g.rng;
                    let mut mnk = [pick(rng, &VALUES), pick(rng, &VALUES), pick(rng, &VALUES)];
                    mnk[dim] = v;
                    // Shrink the larger partner until the case fits the budget.
                    while mnk.iter().product::<u64>() > SWEEP_MACS {
                        let (p, q) = ((dim + 1) % 3, (dim + 2) % 3);
                        let big = if mnk[p] >= mnk[q] { p } else { q };
                        mnk[big] = pick(rng, &SMALL).min(mnk[big] / 2).max(1);
                    }
                    let mut s = spec(ab, cd, tf32, tr, mnk[0], mnk[1], mnk[2]);
                    if rng.below(2) == 0 {
                        for w in 0..4 {
                            s.order[w] = random_order(rng);
                            s.pad[w] = [0, 1, 3][rng.below(3) as usize];
                        }
                    }
                    let mode = match rng.below(4) {
                        0 => CallMode::MINIMAL,
                        _ => CallMode::USUAL,
                    };
                    g.lt_case(&env, &s, mode);
                }
            }
        }
    }
    g.finish();
}

/// Row and column order in every combination pattern, with odd leading-dimension
/// padding, for every type and transpose.
#[test]
#[ignore = "needs a CUDA GPU"]
fn orders_and_padding() {
    use Order::{Col as C, Row as R};
    let patterns = [
        [C, C, C, C],
        [R, R, R, R],
        [R, R, C, C],
        [C, C, R, R],
        [R, C, R, C],
        [C, R, C, R],
    ];
    let pads = [[3, 3, 3, 3], [0, 5, 1, 3], [7, 0, 3, 0]];
    let env = Env::new();
    let mut g = Group::new("orders_and_padding");
    for &(ab, cd, tf32) in &TYPE_COMBOS {
        for &tr in &TRANSPOSES {
            for (i, order) in patterns.iter().enumerate() {
                let mut s = spec(ab, cd, tf32, tr, 67, 45, 131);
                s.order = *order;
                s.pad = pads[i % pads.len()];
                s.beta = 0.5;
                g.lt_case(&env, &s, CallMode::USUAL);
            }
        }
    }
    g.finish();
}

/// alpha and beta (beta != 0 reads C; alpha = 0 leaves only beta*C), out of place and in
/// place (C aliases D, same layout).
#[test]
#[ignore = "needs a CUDA GPU"]
fn alpha_beta_in_place() {
    let scalars = [(0.75f32, 0.5f32), (-1.5, 1.0), (0.0, 2.0), (1.0, -1.0)];
    let env = Env::new();
    let mut g = Group::new("alpha_beta_in_place");
    for &(ab, cd, tf32) in &TYPE_COMBOS {
        for (i, &(alpha, beta)) in scalars.iter().enumerate() {
            for in_place in [false, true] {
                let mut s = spec(ab, cd, tf32, TRANSPOSES[i], 129, 65 + i as u64, 255);
                s.alpha = alpha;
                s.beta = beta;
                s.in_place = in_place;
                if in_place && i % 2 == 1 {
                    s.order[D] = Order::Row;
                    s.pad[D] = 3;
                }
                g.lt_case(&env, &s, CallMode::USUAL);
            }
        }
    }
    g.finish();
}

/// Every epilogue; bias of D's type (the default, and set explicitly) and of fp32.
#[test]
#[ignore = "needs a CUDA GPU"]
fn epilogues() {
    let env = Env::new();
    let mut g = Group::new("epilogues");
    for &(ab, cd, tf32) in &TYPE_COMBOS {
        for (i, &epi) in Epi::ALL.iter().enumerate() {
            let bias_types: Vec<Option<DType>> = if epi.has_bias() {
                vec![None, Some(cd), Some(DType::F32)]
            } else {
                vec![None]
            };
            for (j, &bt) in bias_types.iter().enumerate() {
                let mut s = spec(ab, cd, tf32, TRANSPOSES[(i + j) % 4], 131, 67, 129);
                s.epi = epi;
                s.bias_type = bt;
                s.beta = if j % 2 == 0 { 0.0 } else { 0.5 };
                g.lt_case(&env, &s, CallMode::USUAL);
            }
        }
    }
    g.finish();
}

/// Strided batches: BATCH_COUNT and STRIDED_BATCH_OFFSET, strides equal to and larger
/// than the matrix, per-batch bias vectors, row order.
#[test]
#[ignore = "needs a CUDA GPU"]
fn strided_batch() {
    let env = Env::new();
    let mut g = Group::new("strided_batch");
    for &(ab, cd, tf32) in &TYPE_COMBOS {
        for (i, &batch) in [2u64, 5].iter().enumerate() {
            for (j, gap) in [[0u64; 4], [37, 5, 11, 3]].into_iter().enumerate() {
                let mut s = spec(ab, cd, tf32, TRANSPOSES[(i * 2 + j) % 4], 65, 33, 47);
                s.batch = batch;
                s.batch_pad = gap;
                s.beta = 0.5;
                if j == 1 {
                    s.epi = Epi::GeluBias;
                    s.bias_batch_stride = s.m + 5;
                }
                if i == 1 && j == 1 {
                    s.order = [Order::Row, Order::Col, Order::Row, Order::Row];
                    s.pad = [3, 0, 1, 2];
                }
                g.lt_case(&env, &s, CallMode::USUAL);
            }
        }
        // One bias vector shared by every batch (BIAS_BATCH_STRIDE 0), in place.
        let mut s = spec(ab, cd, tf32, (true, false), 40, 24, 72);
        s.batch = 3;
        s.batch_pad = [1, 2, 3, 3];
        s.epi = Epi::Bias;
        s.beta = 1.0;
        s.in_place = true;
        g.lt_case(&env, &s, CallMode::USUAL);
    }
    g.finish();
}

/// POINTER_MODE_DEVICE: alpha and beta read from device memory.
#[test]
#[ignore = "needs a CUDA GPU"]
fn pointer_mode_device() {
    let env = Env::new();
    let mut g = Group::new("pointer_mode_device");
    for &(ab, cd, tf32) in &TYPE_COMBOS {
        for (i, &(alpha, beta)) in [(1.25f32, -0.5f32), (-0.5, 0.0)].iter().enumerate() {
            let mut s = spec(ab, cd, tf32, TRANSPOSES[i + 1], 100, 31, 70);
            s.alpha = alpha;
            s.beta = beta;
            s.device_scalars = true;
            // beta = 0 on the device: C must not be read, so make it NaN.
            s.c_nan = beta == 0.0;
            g.lt_case(&env, &s, CallMode::USUAL);
        }
    }
    g.finish();
}

/// k = 0: D = act(beta*C + bias), with and without C.
#[test]
#[ignore = "needs a CUDA GPU"]
fn k_zero() {
    let env = Env::new();
    let mut g = Group::new("k_zero");
    for &(ab, cd, tf32) in &TYPE_COMBOS {
        for (i, &beta) in [0.0f32, 0.5].iter().enumerate() {
            for (j, epi) in [Epi::Default, Epi::GeluBias].into_iter().enumerate() {
                let mut s = spec(ab, cd, tf32, TRANSPOSES[i * 2 + j], 33, 17, 0);
                s.beta = beta;
                s.epi = epi;
                s.c_nan = beta == 0.0;
                g.lt_case(&env, &s, CallMode::USUAL);
            }
        }
    }
    g.finish();
}

/// beta = 0 with C full of NaN in its own buffer: C must not be read.
#[test]
#[ignore = "needs a CUDA GPU"]
fn beta_zero_ignores_c() {
    let env = Env::new();
    let mut g = Group::new("beta_zero_ignores_c");
    for &(ab, cd, tf32) in &TYPE_COMBOS {
        for &tr in &TRANSPOSES {
            let mut s = spec(ab, cd, tf32, tr, 127, 129, 64);
            s.c_nan = true;
            s.epi = if tr.0 { Epi::Relu } else { Epi::Default };
            g.lt_case(&env, &s, CallMode::USUAL);
        }
    }
    g.finish();
}

/// The minimal C call: algo NULL, no workspace, the legacy default stream.
#[test]
#[ignore = "needs a CUDA GPU"]
fn null_algo_no_workspace_default_stream() {
    let env = Env::new();
    let mut g = Group::new("null_algo_no_workspace_default_stream");
    for &(ab, cd, tf32) in &TYPE_COMBOS {
        for (i, &tr) in TRANSPOSES.iter().enumerate() {
            let mut s = spec(ab, cd, tf32, tr, 255, 129, 1000);
            s.beta = if i % 2 == 0 { 0.0 } else { -0.25 };
            g.lt_case(&env, &s, CallMode::MINIMAL);
        }
    }
    g.finish();
}

/// Larger problems (several waves of tiles, long k loops; the last three take the Stream-K
/// and split-K schedules of the Hopper kernel).
#[test]
#[ignore = "needs a CUDA GPU"]
fn large_shapes() {
    let env = Env::new();
    let mut g = Group::new("large_shapes");
    let shapes = [
        (2048, 2048, 512),
        (1000, 1000, 1000),
        (4097, 257, 513),
        (129, 4097, 1000),
        (64, 64, 16384),
        (3000, 17, 4097),
        // Stream-K / split-K territory: few tiles and long k, ragged waves.
        (127, 4095, 4096),
        (1664, 1664, 2048),
        (16, 2048, 8192),
    ];
    for &(ab, cd, tf32) in &TYPE_COMBOS {
        for (i, &(m, n, k)) in shapes.iter().enumerate() {
            let mut s = spec(ab, cd, tf32, TRANSPOSES[i % 4], m, n, k);
            if i == 1 {
                s.beta = 0.5;
                s.epi = Epi::GeluBias;
            }
            g.lt_case(&env, &s, CallMode::USUAL);
        }
    }
    g.finish();
}

/// Tiles past both edges among many (260 of 128 x 128, so a CTA takes several): their loads
/// start moved back inside A and B (kernels/sm90/gemm.cuh `inside`), and their epilogue must
/// skip what the tile before owns, in the TMA stores (whole warpgroups and boxes) and the
/// staged path: C read in place (beta applied once), an epilogue, a row-major padded D. Under
/// `DEEPGEMM_DECOMPOSITION=streamk` the same through the Stream-K fixup.
#[test]
#[ignore = "needs a CUDA GPU"]
fn tiles_past_the_edges() {
    let env = Env::new();
    let mut g = Group::new("tiles_past_the_edges");
    let variations = [
        None,
        Some(Variation::AlphaBeta { in_place: true }),
        Some(Variation::Epilogue {
            epi: Epi::GeluBias,
            f32_bias: false,
        }),
        Some(Variation::RowMajorD),
    ];
    for &(ab, cd, tf32) in &TYPE_COMBOS {
        for (i, v) in variations.iter().enumerate() {
            // Last tile row 40 of 128 rows (moved back 64), last column 8 of 128 (moved back
            // 64; 8 of 256 moved back 192).
            let mut s = spec(ab, cd, tf32, TRANSPOSES[i % 4], 2472, 1544, 72);
            if let Some(v) = v {
                vary(&mut s, *v);
            }
            g.lt_case(&env, &s, CallMode::USUAL);
        }
    }
    g.finish();
}

/// Decode-sized GEMMs: a small m (computed transposed on the narrow n16/n32 tiles, `Plan::swap`)
/// and a small n (the narrow tiles directly, PyTorch's Linear layout), with data-parallel,
/// split-K and Stream-K schedules as the model picks them; alpha/beta (in place too), every
/// epilogue (a swapped bias runs along the kernel's n), row-major D, odd leading dimensions,
/// batches. `plan::tests::small_m_goes_swapped_to_narrow_tiles` checks the routing.
#[test]
#[ignore = "needs a CUDA GPU"]
fn narrow_and_swapped() {
    let env = Env::new();
    let mut g = Group::new("narrow_and_swapped");
    let shapes = [
        (1, 4096, 4096),
        (3, 2112, 1000),
        (16, 1000, 4097),
        (17, 4096, 512),
        (33, 3000, 1024),
        (64, 1536, 2048),
        (4096, 1, 4096),
        (1000, 16, 2048),
        (3000, 31, 777),
    ];
    for &(ab, cd, tf32) in &TYPE_COMBOS {
        for (i, &(m, n, k)) in shapes.iter().enumerate() {
            // TN (both K-major) is where the narrow tiles apply; every fourth case another
            // transpose, which must still be right whatever path it takes.
            let tr = if i % 4 == 3 {
                TRANSPOSES[i % 3]
            } else {
                (true, false)
            };
            let mut s = spec(ab, cd, tf32, tr, m, n, k);
            let epi = Epi::ALL[i % Epi::ALL.len()];
            vary(
                &mut s,
                Variation::Epilogue {
                    epi,
                    f32_bias: i % 2 == 0,
                },
            );
            match i % 3 {
                0 => {}
                1 => vary(
                    &mut s,
                    Variation::AlphaBeta {
                        in_place: i % 2 == 1,
                    },
                ),
                _ => vary(&mut s, Variation::RowMajorD),
            }
            if i == 5 {
                s.batch = 3;
                s.batch_pad = [8, 16, 0, 0];
                s.bias_batch_stride = if s.epi.has_bias() { m + 5 } else { 0 };
            }
            let mode = if i % 2 == 0 {
                CallMode::USUAL
            } else {
                CallMode::MINIMAL
            };
            g.lt_case(&env, &s, mode);
        }
    }
    g.finish();
}

/// Problems computed transposed because their tiles quantise clearly better that way round
/// (`plan::swapped_plans` above SWAP_MAX_M: TT 3000 x 1000 on 128x192 tiles as NN 1000 x 3000),
/// and tf32 TT, which only the transposed problem (NN, A through registers) takes on the Hopper
/// kernel: every transpose, alpha/beta in place, every epilogue (a bias then runs along the
/// kernel's n), row-major and padded D. `plan::tests::small_m_goes_swapped_to_narrow_tiles` and
/// `tf32_goes_to_hopper_when_b_is_k_major_else_portable_with_a_reason` check the routing.
#[test]
#[ignore = "needs a CUDA GPU"]
fn transposed_orientation() {
    let env = Env::new();
    let mut g = Group::new("transposed_orientation");
    let shapes = [
        (3000, 1000, 256),
        (2900, 1000, 256),
        (1000, 255, 129),
        (1500, 4097, 64),
    ];
    for &(ab, cd, tf32) in &TYPE_COMBOS {
        for (i, &(m, n, k)) in shapes.iter().enumerate() {
            for (j, &tr) in TRANSPOSES.iter().enumerate() {
                let mut s = spec(ab, cd, tf32, tr, m, n, k);
                let epi = Epi::ALL[(i + 2 * j) % Epi::ALL.len()];
                match (i + j) % 4 {
                    0 => {}
                    1 => vary(
                        &mut s,
                        Variation::AlphaBeta {
                            in_place: j % 2 == 1,
                        },
                    ),
                    2 => vary(
                        &mut s,
                        Variation::Epilogue {
                            epi,
                            f32_bias: j % 2 == 0,
                        },
                    ),
                    _ => vary(&mut s, Variation::RowMajorD),
                }
                let mode = if j % 2 == 0 {
                    CallMode::USUAL
                } else {
                    CallMode::MINIMAL
                };
                g.lt_case(&env, &s, mode);
            }
        }
    }
    g.finish();
}

/// The same GEMM ten times gives the same bits every time (no races, no order-dependent
/// reductions), each run starting from a NaN-poisoned output.
#[test]
#[ignore = "needs a CUDA GPU"]
fn repeated_runs_are_bitwise_identical() {
    use common::case::{Prepared, WORKSPACE_BYTES};
    use common::lt::{self, Descs};
    let env = Env::new();
    let mut g = Group::new("repeated_runs_are_bitwise_identical");
    for &(ab, cd, tf32) in &TYPE_COMBOS {
        for (i, &(m, n, k)) in [(1000u64, 1000u64, 1000u64), (256, 256, 8192)]
            .iter()
            .enumerate()
        {
            let mut s = spec(ab, cd, tf32, TRANSPOSES[i + 1], m, n, k);
            s.beta = 0.5;
            let desc = format!("{s} x10");
            let mut run = || -> Result<(), String> {
                let prep = Prepared::new(&s, &mut g.rng, true)?;
                let d = prep.new_output()?;
                let descs =
                    Descs::new(env.handle.api, &s, prep.bias_ptr(), WORKSPACE_BYTES as u64)?;
                let algo = descs.heuristic(&env.handle, WORKSPACE_BYTES as u64)?.algo;
                let args = prep.args(&d, Some(&env.workspace), env.stream.raw());
                let mut first: Option<Vec<u8>> = None;
                for r in 0..10 {
                    prep.reset_output(&d)?;
                    lt::matmul(&env.handle, &descs, Some(&algo), &args)?;
                    env.stream.synchronize()?;
                    let out = d.download()?;
                    match &first {
                        None => {
                            let c = prep.check_full(&out);
                            if !c.passes(s.tolerance()) {
                                return Err(format!("first run: {c}"));
                            }
                            first = Some(out);
                        }
                        Some(f) if *f != out => {
                            let differ = f
                                .chunks(s.cd.size())
                                .zip(out.chunks(s.cd.size()))
                                .filter(|(a, b)| a != b)
                                .count();
                            return Err(format!("run {r} differs from run 0 in {differ} elements"));
                        }
                        Some(_) => {}
                    }
                }
                Ok(())
            };
            let r = run();
            g.record_result(desc, r);
        }
    }
    g.finish();
}

/// Dependent calls back to back on one stream, no synchronisation between them: each reads the
/// D its predecessor wrote (read after write) as A, and as C the buffer its predecessor read
/// (write after read). With programmatic dependent launch (DEEPGEMM_PDL, on by default) a call's
/// kernel starts before its predecessor ends, so a global access ahead of the kernel's
/// griddepcontrol.wait shows up here as wrong values (the DG_PDL_NO_WAIT build must fail it).
/// X_{i+1} = X_i W + 0.25 X_{i-1}, m x k times k x k, W's entries scaled so X keeps its size;
/// the reference rounds every step to D's type as the library does. The chain runs twice: on the
/// stream, and captured into a CUDA graph (programmatic launches become graph edges) and replayed.
#[test]
#[ignore = "needs a CUDA GPU"]
fn back_to_back_dependent_calls() {
    use common::case::WORKSPACE_BYTES;
    use common::device::DevBuf;
    use common::lt::{self, Args, Descs};
    const STEPS: usize = 12;
    const BETA: f32 = 0.25;
    let env = Env::new();
    let mut g = Group::new("back_to_back_dependent_calls");
    // (A/B type, tf32, m, k, X's leading-dimension padding): short data-parallel launches, a
    // decode shape (split over the workspace: its flags are the next call's too), tiles past
    // the edges, several waves; odd leading dimensions (each call packs X into the workspace
    // first and writes D in place or through its copy: the pack kernels launch
    // programmatically too).
    let cases: [(DType, bool, u64, u64, u64); 8] = [
        (DType::BF16, false, 256, 512, 0),
        (DType::BF16, false, 16, 2048, 0),
        (DType::BF16, false, 129, 264, 0),
        (DType::F16, false, 1000, 512, 0),
        (DType::BF16, false, 3, 4096, 0),
        (DType::F32, true, 200, 768, 0),
        (DType::BF16, false, 256, 512, 1),
        (DType::F16, false, 1000, 512, 3),
    ];
    for &(t, tf32, m, k, pad) in &cases {
        let mut s = spec(t, t, tf32, (false, false), m, k, k);
        s.beta = BETA;
        s.pad = [pad, 0, pad, pad];
        let desc = format!("{s} x{STEPS} chained");
        let mut run = || -> Result<(), String> {
            let scale = (3.0 / k as f64).sqrt();
            let x_elems = (m * k) as usize;
            // X's buffers hold k lines of m + pad; the reference works on the m x k inside.
            let ld = (m + pad) as usize;
            let dense = |v: Vec<f64>| -> Vec<f64> {
                (0..k as usize)
                    .flat_map(|c| v[c * ld..c * ld + m as usize].to_vec())
                    .collect()
            };
            let mut x0 = vec![0u8; ld * k as usize * t.size()];
            let mut x1 = vec![0u8; ld * k as usize * t.size()];
            let mut w = vec![0u8; (k * k) as usize * t.size()];
            for i in 0..ld * k as usize {
                t.put(&mut x0, i, g.rng.symmetric());
                t.put(&mut x1, i, g.rng.symmetric());
            }
            for i in 0..(k * k) as usize {
                t.put(&mut w, i, (g.rng.symmetric() as f64 * scale) as f32);
            }
            // Column-major: X is m x k (ld m + pad), W is k x k (ld k).
            let mut prev: Vec<f64> = dense(t.decode(&x1));
            let mut cur: Vec<f64> = dense(t.decode(&x0));
            let wd: Vec<f64> = t.decode(&w);
            let wbuf = DevBuf::from_bytes(&w)?;
            let descs = Descs::new(env.handle.api, &s, 0, WORKSPACE_BYTES as u64)?;
            let algo = descs.heuristic(&env.handle, WORKSPACE_BYTES as u64)?.algo;
            let (alpha, beta) = (1.0f32, BETA);
            // The chain from fresh copies of X_0 and X_-1, enqueued on the stream or captured
            // into a CUDA graph (as PyTorch's CUDA graphs do) and the graph launched; X_STEPS.
            let chain = |graph: bool| -> Result<Vec<f64>, String> {
                let bufs = [DevBuf::from_bytes(&x0)?, DevBuf::from_bytes(&x1)?];
                // (Allocated before the capture: GLOBAL capture mode refuses cuMemAlloc.)
                let hold = DevBuf::alloc(1 << 30)?;
                let stream = env.stream.0;
                if graph {
                    // SAFETY: a live stream of the current context; no other thread uses it.
                    let r = unsafe {
                        cudarc::driver::sys::cuStreamBeginCapture_v2(
                            stream,
                            cudarc::driver::sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_GLOBAL,
                        )
                    };
                    r.result()
                        .map_err(|e| format!("cuStreamBeginCapture: {e}"))?;
                }
                // ~0.3 ms of memset ahead of the calls, so that all of them are enqueued before
                // the first runs and each kernel is launched while its predecessor still runs.
                hold.fill_async(4, 0, (1 << 30) / 4, stream)?;
                let mut enqueued = Ok(());
                for i in 0..STEPS {
                    let (src, dst) = (&bufs[i % 2], &bufs[(i + 1) % 2]);
                    let args = Args {
                        alpha: (&alpha as *const f32).cast(),
                        beta: (&beta as *const f32).cast(),
                        a: src.as_ptr() as u64,
                        b: wbuf.as_ptr() as u64,
                        c: dst.as_ptr() as u64,
                        d: dst.as_ptr() as u64,
                        workspace: env.workspace.as_ptr() as u64,
                        workspace_size: WORKSPACE_BYTES,
                        stream: env.stream.raw(),
                    };
                    enqueued = lt::matmul(&env.handle, &descs, Some(&algo), &args);
                    if enqueued.is_err() {
                        break;
                    }
                }
                if graph {
                    use cudarc::driver::sys as cu;
                    let mut g = std::ptr::null_mut();
                    // SAFETY: ends the capture begun above (also after a failed call, so the
                    // stream is usable again); out-pointers to locals.
                    let r = unsafe { cu::cuStreamEndCapture(stream, &mut g) };
                    enqueued?;
                    r.result().map_err(|e| format!("cuStreamEndCapture: {e}"))?;
                    let mut exec = std::ptr::null_mut();
                    // SAFETY: `g` is the captured graph; `exec` is launched on the same stream
                    // and destroyed after it finished, then `g`.
                    unsafe {
                        let r = cu::cuGraphInstantiateWithFlags(&mut exec, g, 0);
                        let r = r
                            .result()
                            .and_then(|()| cu::cuGraphLaunch(exec, stream).result());
                        let done = env.stream.synchronize();
                        if !exec.is_null() {
                            cu::cuGraphExecDestroy(exec);
                        }
                        cu::cuGraphDestroy(g);
                        r.map_err(|e| format!("graph instantiate/launch: {e}"))?;
                        done?;
                    }
                } else {
                    enqueued?;
                }
                env.stream.synchronize()?;
                Ok(dense(t.decode(&bufs[STEPS % 2].download()?)))
            };
            let on_stream = chain(false)?;
            let in_graph = chain(true)?;
            // The reference only after every call is enqueued: computed between them, it let each
            // kernel finish before the next was launched, and nothing overlapped.
            for _ in 0..STEPS {
                // next = round(cur W + beta prev).
                let (mu, ku) = (m as usize, k as usize);
                let mut next = vec![0f64; x_elems];
                for j in 0..ku {
                    let col = &mut next[j * mu..(j + 1) * mu];
                    for kk in 0..ku {
                        let wv = wd[j * ku + kk];
                        for (o, x) in col.iter_mut().zip(&cur[kk * mu..(kk + 1) * mu]) {
                            *o += x * wv;
                        }
                    }
                    for (o, p) in col.iter_mut().zip(&prev[j * mu..(j + 1) * mu]) {
                        *o = t.round((*o + beta as f64 * p) as f32) as f64;
                    }
                }
                prev = std::mem::replace(&mut cur, next);
            }
            let size = cur.iter().fold(0f64, |a, v| a.max(v.abs())).max(1e-30);
            let mut worst = 0f64;
            for (o, r) in on_stream
                .iter()
                .chain(&in_graph)
                .zip(cur.iter().chain(&cur))
            {
                let e = if o.is_finite() {
                    (o - r).abs() / size
                } else {
                    f64::INFINITY
                };
                worst = worst.max(e);
            }
            // Rounding differences (fp32 sums in another order, then D's type) stay ~1e-2 of
            // the largest value after 12 steps; a call that read stale data is off by ~1.
            if worst > 0.05 {
                return Err(format!(
                    "largest error {worst:.3e} of the largest value {size:.3}"
                ));
            }
            println!("  {desc}: largest error {worst:.2e} of the largest value");
            Ok(())
        };
        let r = run();
        g.record_result(desc, r);
    }
    g.finish();
}

/// A bias along the kernel's n through the TMA-store epilogue (session 34): decode-sized
/// problems computed transposed on 128 x 64 tiles (64 x 4096 x 4096 with Stream-K, 56 x 14336
/// x 1024 data-parallel, in TN and TT) with a bias: beta = 0 (C NaN, unread), beta != 0 with C
/// loaded by TMA (in place too), alpha/beta on the device, every biased epilogue, an fp32
/// bias, row-major C and D, and D at an odd leading dimension (the general epilogue); the
/// heuristic's algo and NULL.
#[test]
#[ignore = "needs a CUDA GPU"]
fn swapped_bias_through_the_tma_store() {
    swapped_bias_group(
        "swapped_bias_through_the_tma_store",
        &[
            ((true, false), 64, 4096, 4096),
            ((true, false), 56, 14336, 1024),
            ((false, false), 56, 14336, 1024),
        ],
        6,
    );
}

/// A bias along the kernel's n on tiles over 64 wide (session 35): problems computed
/// transposed on 128x144-208 tiles (TN 2368 x 1120, 416 x 3696; TT 3000 x 1000) with a bias,
/// which only the TMA-store epilogue's instantiations with it add there: beta = 0 (C NaN,
/// unread) with either D order; beta != 0 (C by TMA, or other plans where C's layout is not
/// D's: `plan::sm90::wide_bias_col_accepts`), in place, alpha/beta on the device; every biased
/// epilogue, an fp32 bias, row-major C and D; the heuristic's algo and NULL.
#[test]
#[ignore = "needs a CUDA GPU"]
fn swapped_bias_on_wide_tiles() {
    swapped_bias_group(
        "swapped_bias_on_wide_tiles",
        &[
            ((true, false), 2368, 1120, 928),
            ((true, false), 416, 3696, 1832),
            ((false, false), 3000, 1000, 256),
        ],
        7,
    );
}

/// The biased problems of `shapes` (transposes, m, n, k) in every type combination, each with
/// the first `variations` of: beta = 0 (C NaN, unread), alpha/beta, the same in place,
/// alpha/beta on the device, D at an odd leading dimension, row-major C and D with beta = 1,
/// row-major C and D with beta = 0 (C unread); the epilogue and the bias's type rotating, the
/// heuristic's algo and NULL in turn.
fn swapped_bias_group(name: &str, shapes: &[((bool, bool), u64, u64, u64)], variations: usize) {
    let env = Env::new();
    let mut g = Group::new(name);
    let epis = [Epi::Bias, Epi::GeluBias, Epi::ReluBias];
    for &(ab, cd, tf32) in &TYPE_COMBOS {
        for (i, &(tr, m, n, k)) in shapes.iter().enumerate() {
            for j in 0..variations {
                let mut s = spec(ab, cd, tf32, tr, m, n, k);
                vary(
                    &mut s,
                    Variation::Epilogue {
                        epi: epis[(i + j) % epis.len()],
                        f32_bias: j % 2 == 1,
                    },
                );
                match j {
                    0 => s.c_nan = true,
                    1 => vary(&mut s, Variation::AlphaBeta { in_place: false }),
                    2 => vary(&mut s, Variation::AlphaBeta { in_place: true }),
                    3 => {
                        s.alpha = 1.25;
                        s.beta = -0.5;
                        s.device_scalars = true;
                    }
                    4 => vary(&mut s, Variation::RowMajorD),
                    5 => {
                        // Row-major C and D at TMA's strides, beta = 1.
                        s.order[D] = Order::Row;
                        s.order[C] = Order::Row;
                        s.beta = 1.0;
                    }
                    _ => {
                        // Row-major D (the kernel's column-major), beta = 0, C unread.
                        s.order[D] = Order::Row;
                        s.order[C] = Order::Row;
                        s.c_nan = true;
                    }
                }
                let mode = if (i + j) % 2 == 0 {
                    CallMode::USUAL
                } else {
                    CallMode::MINIMAL
                };
                g.lt_case(&env, &s, mode);
            }
        }
    }
    g.finish();
}

/// A 16-bit column-major D whose columns are not 16 bytes apart (odd leading dimensions)
/// written in place, beta = 0 and 0.5: shapes that reach the Hopper tiles 64+ wide, whose
/// general epilogue stores such a D down its columns (session 49 also ran this group on two
/// granule-store epilogues it measured and reverted, BENCHMARKS.md). Ragged m on both sides of
/// a warpgroup's 64 rows, every epilogue, batches with odd strides, device scalars.
#[test]
#[ignore = "needs a CUDA GPU"]
fn odd_d_in_place() {
    let env = Env::new();
    let mut g = Group::new("odd_d_in_place");
    let shapes: [(u64, u64, u64); 8] = [
        (63, 200, 256),
        (64, 130, 320),
        (65, 256, 192),
        (127, 300, 512),
        (129, 72, 256),
        (200, 520, 128),
        (1000, 257, 384),
        (1003, 1001, 512),
    ];
    for (i, &(m, n, k)) in shapes.iter().enumerate() {
        for (j, &cd) in [DType::BF16, DType::F16].iter().enumerate() {
            let mut s = spec(cd, cd, false, TRANSPOSES[(i + j) % 4], m, n, k);
            s.pad[D] = [1, 3, 5, 7][(i + 2 * j) % 4];
            s.pad[C] = s.pad[D];
            s.epi = Epi::ALL[(i + j) % Epi::ALL.len()];
            if s.epi.has_bias() && j == 1 {
                s.bias_type = Some(DType::F32);
            }
            if i % 3 == 2 {
                s.batch = 2;
                s.batch_pad = [0, 0, 3, 3];
                s.bias_batch_stride = if s.epi.has_bias() { m + 1 } else { 0 };
            }
            s.device_scalars = i % 4 == 3;
            g.lt_case(&env, &s, CallMode::USUAL);
            if i % 2 == 0 {
                // The same D with beta != 0: C is read, so the general epilogue stores it.
                let mut t = s;
                t.beta = 0.5;
                g.lt_case(&env, &t, CallMode::USUAL);
            }
        }
    }
    g.finish();
}

/// The skinny kernel (`plan::skinny`: decode's GEMMs, one side of D at most 16, both operands
/// K-major): the small side as m (computed transposed, a bias then along n) and as n, at 1, 3,
/// 8, 9 and 16 columns (both column variants, ragged), long sides over and under whole CTAs
/// (4097, 2112, 1111 rows), k from 8 to 4104 including k = 8 (one partial chunk) and k not a
/// multiple of the chunks a CTA's warps take; every 16-bit type pair, every epilogue, alpha /
/// beta in place, a row-major D, batches with padded strides, leading dimensions padded by
/// whole 16-byte units. Under DEEPGEMM_SKINNY=1 it passes only if skinny variants actually ran
/// (the registry loaded them).
#[test]
#[ignore = "needs a CUDA GPU"]
fn skinny_decode() {
    let env = Env::new();
    let mut g = Group::new("skinny_decode");
    let smalls = [1u64, 3, 8, 9, 16];
    let larges = [4097u64, 2112, 1111];
    let ks = [8u64, 24, 264, 1000, 4104];
    let mut i = 0usize;
    for &(ab, cd, tf32) in TYPE_COMBOS.iter().filter(|c| c.0 != DType::F32) {
        for &small in &smalls {
            for (j, &large) in larges.iter().enumerate() {
                let k = ks[(i + j) % ks.len()];
                // TN: both K-major; the small side as m (PyTorch's batch in cuBLAS terms is
                // n, the small-M set is m) or as n.
                let (m, n) = if i % 2 == 0 {
                    (small, large)
                } else {
                    (large, small)
                };
                let mut s = spec(ab, cd, tf32, (true, false), m, n, k);
                let epi = Epi::ALL[i % Epi::ALL.len()];
                vary(
                    &mut s,
                    Variation::Epilogue {
                        epi,
                        f32_bias: i % 3 == 0,
                    },
                );
                match i % 4 {
                    0 => {}
                    1 => vary(
                        &mut s,
                        Variation::AlphaBeta {
                            in_place: i % 8 == 1,
                        },
                    ),
                    2 => vary(&mut s, Variation::RowMajorD),
                    _ => {
                        // Whole 16-byte units of padding keep A's and B's lines aligned.
                        s.pad = [8, 16, 3, 5];
                        s.batch = 3;
                        s.batch_pad = [8, 24, 1, 0];
                        s.bias_batch_stride = if s.epi.has_bias() { m.max(n) + 5 } else { 0 };
                    }
                }
                let mode = if i % 3 == 0 {
                    CallMode::MINIMAL
                } else {
                    CallMode::USUAL
                };
                g.lt_case(&env, &s, mode);
                i += 1;
            }
        }
    }
    // Long k over several items a CTA: the bulk form's ring wraps within and across items, its
    // producer refilling each stage the moment it is released (`42e` caught a stage released
    // before its reads had landed only on shapes like these).
    for &(m, n, k) in &[(1u64, 8192u64, 8192u64), (16, 4096, 7168), (4321, 8, 8960)] {
        let mut s = spec(DType::BF16, DType::BF16, false, (true, false), m, n, k);
        s.epi = Epi::Default;
        g.lt_case(&env, &s, CallMode::USUAL);
    }
    let loaded: Vec<String> = deepgemm::runtime::registry::stats()
        .entries
        .into_iter()
        .map(|(_, name)| name)
        .filter(|name| name.starts_with("dg_skinny_"))
        .collect();
    println!("skinny variants loaded: {}", loaded.join(", "));
    // Planned only under DEEPGEMM_SKINNY=1 / auto (run so: scripts/gpu-session42*.sh); otherwise
    // these cases check the tile plans on the same shapes.
    if deepgemm::plan::skinny::mode() != deepgemm::plan::skinny::Mode::Never {
        assert!(
            loaded.len() >= 8,
            "the skinny kernel ran as {} variants only",
            loaded.len()
        );
    }
    g.finish();
}

/// Algos made by deepgemmLtMatmulAlgoInit and configured as a profiler does (a few of each
/// family's tiles, no split, split-K in two, Stream-K) against the float64 reference: every
/// configuration AlgoCheck accepts runs with the workspace it reports and matches.
#[test]
#[ignore = "needs a CUDA GPU"]
fn configured_algos_match_the_reference() {
    use common::case::{Prepared, WORKSPACE_BYTES};
    use common::lt::{self, Algo, Descs};
    use deepgemm::ffi::*;
    let env = Env::new();
    let mut g = Group::new("configured_algos_match_the_reference");
    let h = env.handle.h as deepgemmLtHandle_t;
    let mut refused = 0;
    for &(ab, cd, tf32) in &[
        (DType::BF16, DType::BF16, false),
        (DType::F16, DType::F32, false),
        (DType::F32, DType::F32, true),
    ] {
        // NN and TT; tf32 TN too (both operands K-major: the only layout of its solo family,
        // id 3, which must run there, below).
        let mut cases = vec![
            (300u64, 200u64, 520u64, TRANSPOSES[0]),
            (129, 1000, 2000, TRANSPOSES[3]),
        ];
        if tf32 {
            cases.push((300, 200, 520, TRANSPOSES[2]));
        }
        for &(m, n, k, tr) in &cases {
            let mut s = spec(ab, cd, tf32, tr, m, n, k);
            s.beta = 0.5;
            let types = [
                s.compute_type(),
                0,
                ab.cuda(),
                ab.cuda(),
                cd.cuda(),
                cd.cuda(),
            ];
            let mut ids = [0i32; 8];
            let mut count = 0;
            let st = deepgemmLtMatmulAlgoGetIds(
                h,
                types[0],
                types[1],
                types[2],
                types[3],
                types[4],
                types[5],
                8,
                ids.as_mut_ptr(),
                &mut count,
            );
            assert_eq!(st, deepgemmStatus_t::DEEPGEMM_STATUS_SUCCESS);
            if tf32 && tr == TRANSPOSES[2] {
                // tf32 TN has solo tiles (session 60): AlgoGetIds lists their family.
                g.record_result(
                    format!("{s}: AlgoGetIds lists the solo family"),
                    if ids[..count as usize].contains(&3) {
                        Ok(())
                    } else {
                        Err(format!("ids {:?}", &ids[..count as usize]))
                    },
                );
            }
            for &id in &ids[..count as usize] {
                // Configurations of this id that ran (and matched) on this case.
                let mut ran = 0;
                let mut base = deepgemmLtMatmulAlgo_t::default();
                let st = deepgemmLtMatmulAlgoInit(
                    h, types[0], types[1], types[2], types[3], types[4], types[5], id, &mut base,
                );
                assert_eq!(st, deepgemmStatus_t::DEEPGEMM_STATUS_SUCCESS);
                // The heuristic under SEARCH_LIMITED_BY_ALGO_ID: the id's best configurations
                // (configured algos where the plan is beyond the usual list); the first four run.
                let mut limited = || -> Result<usize, String> {
                    let prep = Prepared::new(&s, &mut g.rng, true)?;
                    let descs =
                        Descs::new(env.handle.api, &s, prep.bias_ptr(), WORKSPACE_BYTES as u64)?;
                    descs.pref.set(0, 1u32)?; // SEARCH_MODE = LIMITED_BY_ALGO_ID
                    let mut res = vec![
                        deepgemmLtMatmulHeuristicResult_t {
                            algo: base,
                            workspaceSize: 0,
                            state: deepgemmStatus_t::DEEPGEMM_STATUS_SUCCESS,
                            wavesCount: 0.0,
                            reserved: [0; 4],
                        };
                        4
                    ];
                    let mut n = 0;
                    let l = |i: usize| descs.layouts[i].h as deepgemmLtMatrixLayout_t;
                    let st = deepgemmLtMatmulAlgoGetHeuristic(
                        h,
                        descs.desc.h as deepgemmLtMatmulDesc_t,
                        l(0),
                        l(1),
                        l(2),
                        l(3),
                        descs.pref.h as deepgemmLtMatmulPreference_t,
                        4,
                        res.as_mut_ptr(),
                        &mut n,
                    );
                    if st == deepgemmStatus_t::DEEPGEMM_STATUS_NOT_SUPPORTED {
                        return Ok(0); // the family has no plan for this problem
                    }
                    if st != deepgemmStatus_t::DEEPGEMM_STATUS_SUCCESS {
                        return Err(format!("heuristic: {st:?}"));
                    }
                    for r in &res[..n as usize] {
                        let d = prep.new_output()?;
                        let args = prep.args(&d, Some(&env.workspace), env.stream.raw());
                        lt::matmul(
                            &env.handle,
                            &descs,
                            Some(&Algo { data: r.algo.data }),
                            &args,
                        )?;
                        env.stream.synchronize()?;
                        let c = prep.check_full(&d.download()?);
                        if !c.passes(s.tolerance()) {
                            return Err(c.to_string());
                        }
                    }
                    Ok(n as usize)
                };
                // Refused (no plan of the family here) is not a pass: only runs count.
                match limited() {
                    Ok(0) => {}
                    Ok(n) => {
                        ran += n;
                        g.record_result(format!("{s} id {id} LIMITED_BY_ALGO_ID"), Ok(()))
                    }
                    Err(e) => g.record_result(format!("{s} id {id} LIMITED_BY_ALGO_ID"), Err(e)),
                }
                let mut bytes = 0usize;
                deepgemmLtMatmulAlgoCapGetAttribute(
                    &base,
                    DEEPGEMMLT_ALGO_CAP_TILE_IDS,
                    std::ptr::null_mut(),
                    0,
                    &mut bytes,
                );
                let mut tiles = vec![0u32; bytes / 4];
                deepgemmLtMatmulAlgoCapGetAttribute(
                    &base,
                    DEEPGEMMLT_ALGO_CAP_TILE_IDS,
                    tiles.as_mut_ptr().cast(),
                    bytes,
                    &mut bytes,
                );
                // Any tile, then the first, a middle and the last one listed.
                let mut pick = vec![0u32];
                if !tiles.is_empty() {
                    pick.extend([tiles[0], tiles[tiles.len() / 2], tiles[tiles.len() - 1]]);
                }
                pick.dedup();
                for tile in pick {
                    for (split, custom) in [(1u32, 0u32), (2, 0), (1, 1)] {
                        let mut algo = base;
                        let set = |a: &mut deepgemmLtMatmulAlgo_t, attr, v: u32| {
                            deepgemmLtMatmulAlgoConfigSetAttribute(
                                a,
                                attr,
                                (&v as *const u32).cast(),
                                4,
                            )
                        };
                        set(&mut algo, DEEPGEMMLT_ALGO_CONFIG_TILE_ID, tile);
                        set(&mut algo, DEEPGEMMLT_ALGO_CONFIG_SPLITK_NUM, split);
                        set(&mut algo, DEEPGEMMLT_ALGO_CONFIG_CUSTOM_OPTION, custom);
                        let desc = format!("{s} id {id} tile {tile} split {split} option {custom}");
                        let mut run = || -> Result<bool, String> {
                            let prep = Prepared::new(&s, &mut g.rng, true)?;
                            let d = prep.new_output()?;
                            let descs = Descs::new(
                                env.handle.api,
                                &s,
                                prep.bias_ptr(),
                                WORKSPACE_BYTES as u64,
                            )?;
                            let mut r = deepgemmLtMatmulHeuristicResult_t {
                                algo: deepgemmLtMatmulAlgo_t::default(),
                                workspaceSize: 0,
                                state: deepgemmStatus_t::DEEPGEMM_STATUS_SUCCESS,
                                wavesCount: 0.0,
                                reserved: [0; 4],
                            };
                            let l = |i: usize| descs.layouts[i].h as deepgemmLtMatrixLayout_t;
                            let st = deepgemmLtMatmulAlgoCheck(
                                h,
                                descs.desc.h as deepgemmLtMatmulDesc_t,
                                l(0),
                                l(1),
                                l(2),
                                l(3),
                                &algo,
                                &mut r,
                            );
                            if st == deepgemmStatus_t::DEEPGEMM_STATUS_NOT_SUPPORTED
                                || r.workspaceSize > WORKSPACE_BYTES
                            {
                                return Ok(false);
                            }
                            if st != deepgemmStatus_t::DEEPGEMM_STATUS_SUCCESS {
                                return Err(format!("AlgoCheck: {st:?}"));
                            }
                            let args = prep.args(&d, Some(&env.workspace), env.stream.raw());
                            lt::matmul(
                                &env.handle,
                                &descs,
                                Some(&Algo { data: algo.data }),
                                &args,
                            )?;
                            env.stream.synchronize()?;
                            let c = prep.check_full(&d.download()?);
                            if c.passes(s.tolerance()) {
                                Ok(true)
                            } else {
                                Err(c.to_string())
                            }
                        };
                        match run() {
                            Ok(true) => {
                                ran += 1;
                                g.record_result(desc, Ok(()))
                            }
                            Ok(false) => refused += 1,
                            Err(e) => g.record_result(desc, Err(e)),
                        }
                    }
                }
                // Every family AlgoGetIds lists for tf32 TN runs some configuration there, and
                // the Hopper and portable families everywhere (they have a plan for every one
                // of these problems: packed copies where TMA cannot read in place).
                if (tf32 && tr == TRANSPOSES[2]) || id == 0 || id == 1 {
                    g.record_result(
                        format!("{s} id {id}: {ran} configurations ran"),
                        if ran > 0 {
                            Ok(())
                        } else {
                            Err("listed, but no configuration of it ran".to_string())
                        },
                    );
                }
            }
        }
    }
    println!("configured_algos: {refused} configurations refused by AlgoCheck");
    g.finish();
}

/// A heuristic algo reused on other shapes of its types, as TensorRT-LLM reuses the tactic it
/// profiled at one m for every m of the bucket (cuBLASLt runs the algo's configuration there;
/// deepgemm refused it with INVALID_VALUE before session 61): each of the first four algos
/// listed at m = 256 runs m = 256, 200, 129, 64, 17 and 1 (SUCCESS and matching the float64
/// reference, or NOT_SUPPORTED where its configuration has no plan), and every m runs one.
#[test]
#[ignore = "needs a CUDA GPU"]
fn heuristic_algos_reused_on_other_shapes() {
    use common::case::{Prepared, WORKSPACE_BYTES};
    use common::lt::{self, Algo, Descs};
    let env = Env::new();
    let mut g = Group::new("heuristic_algos_reused_on_other_shapes");
    for &(ab, cd, tf32, tr) in &[
        (DType::BF16, DType::BF16, false, TRANSPOSES[2]),
        (DType::F16, DType::F32, false, TRANSPOSES[1]),
        (DType::F32, DType::F32, true, TRANSPOSES[2]),
    ] {
        let listed = spec(ab, cd, tf32, tr, 256, 1000, 2000);
        let algos: Vec<Algo> = match Descs::new(env.handle.api, &listed, 0, WORKSPACE_BYTES as u64)
        {
            Ok(descs) => (0..4)
                .filter_map(|i| {
                    descs
                        .heuristic_nth(&env.handle, WORKSPACE_BYTES as u64, i)
                        .ok()
                        .map(|r| r.algo)
                })
                .collect(),
            Err(e) => {
                g.record_result(format!("{listed}: descriptors"), Err(e));
                continue;
            }
        };
        for m in [256u64, 200, 129, 64, 17, 1] {
            let mut s = spec(ab, cd, tf32, tr, m, 1000, 2000);
            s.beta = 0.5;
            let mut ran = 0;
            for (i, algo) in algos.iter().enumerate() {
                // None: NOT_SUPPORTED (no plan of that configuration).
                let mut run = || -> Result<Option<Comparison>, String> {
                    let prep = Prepared::new(&s, &mut g.rng, true)?;
                    let d = prep.new_output()?;
                    let descs =
                        Descs::new(env.handle.api, &s, prep.bias_ptr(), WORKSPACE_BYTES as u64)?;
                    let args = prep.args(&d, Some(&env.workspace), env.stream.raw());
                    match lt::matmul_status(&env.handle, &descs, Some(algo), &args) {
                        15 => return Ok(None),
                        0 => {}
                        st => return Err(format!("status {st}")),
                    }
                    env.stream.synchronize()?;
                    Ok(Some(prep.check_full(&d.download()?)))
                };
                let how = format!("algo {i} of m = 256");
                match run() {
                    Ok(None) => {}
                    Ok(Some(c)) => {
                        ran += c.passes(s.tolerance()) as usize;
                        g.record(&s, &how, Ok(c));
                    }
                    Err(e) => g.record(&s, &how, Err(e)),
                }
            }
            g.record_result(
                format!("{s}: {ran} of {} reused algos ran", algos.len()),
                if ran > 0 {
                    Ok(())
                } else {
                    Err("none ran".to_string())
                },
            );
        }
    }
    g.finish();
}

/// SM_COUNT_TARGET (cuBLASLt's SM carve-out): the heuristic's plans for 1, 33, 66 and 100 SMs
/// (persistent grids, Stream-K and split-K ranges, clusters sized for them) against the
/// float64 reference, with the workspace each reports.
#[test]
#[ignore = "needs a CUDA GPU"]
fn sm_count_target_matches_the_reference() {
    use common::case::{Prepared, WORKSPACE_BYTES};
    use common::lt::{self, Descs};
    let env = Env::new();
    let mut g = Group::new("sm_count_target_matches_the_reference");
    for &(m, n, k, t) in &[
        (2048u64, 2048u64, 4096u64, 2usize),
        (1000, 3000, 4000, 0),
        (256, 288, 7224, 2),
        (4097, 129, 1000, 3),
        (16, 4096, 4096, 2),
    ] {
        for target in [1i32, 33, 66, 100] {
            let mut s = spec(DType::BF16, DType::BF16, false, TRANSPOSES[t], m, n, k);
            s.beta = 0.5;
            let mut run = || -> Result<Comparison, String> {
                let prep = Prepared::new(&s, &mut g.rng, true)?;
                let d = prep.new_output()?;
                let descs =
                    Descs::new(env.handle.api, &s, prep.bias_ptr(), WORKSPACE_BYTES as u64)?;
                descs.desc.set(15, target)?; // SM_COUNT_TARGET
                let h = descs.heuristic(&env.handle, WORKSPACE_BYTES as u64)?;
                let args = prep.args(&d, Some(&env.workspace), env.stream.raw());
                lt::matmul(&env.handle, &descs, Some(&h.algo), &args)?;
                env.stream.synchronize()?;
                Ok(prep.check_full(&d.download()?))
            };
            let r = run();
            g.record(&s, &format!("on {target} SMs"), r);
        }
    }
    g.finish();
}

/// Every configuration a configured algo can name for a few problems (each distinct
/// configuration of the problem's universe: `plan::configured_universe`, the heuristic's plans
/// and every other Hopper plan, ping-pong, solo, 128-deep and ring-epilogue kernels, clusters,
/// split-K and Stream-K schedules, both orientations), run once each through
/// deepgemmLtMatmul with its configured algo and checked against the float64 reference. Long
/// (~150 kernels): precompile first (`deepgemm-bench --precompile _bf16_,_f16_,_f32_`);
/// `DEEPGEMM_CASE=N` runs case N only.
#[test]
#[ignore = "needs a CUDA GPU"]
fn every_configuration_matches_the_reference() {
    use common::case::{Prepared, WORKSPACE_BYTES};
    use common::host;
    use common::lt::{self, Algo, Descs};
    use deepgemm::plan::algo::{Config, Types, View};
    use deepgemm::problem::{GemmProblem, MatrixSpec, OpSpec};
    let env = Env::new();
    let mut g = Group::new("every_configuration_matches_the_reference");
    let dev = deepgemm::gemm::device_spec(std::ptr::null_mut()).unwrap();
    let only: Option<usize> = std::env::var("DEEPGEMM_CASE")
        .ok()
        .and_then(|v| v.parse().ok());
    #[allow(clippy::too_many_arguments)]
    let case = |ab, cd, tf32, tr, (m, n, k), beta: f32, epi: Epi, row_d: bool| {
        let mut s = spec(ab, cd, tf32, tr, m, n, k);
        s.beta = beta;
        s.epi = epi;
        if row_d {
            s.order[C] = Order::Row;
            s.order[D] = Order::Row;
        }
        s
    };
    let cases = [
        case(
            DType::BF16,
            DType::BF16,
            false,
            (true, false),
            (300, 200, 520),
            0.5,
            Epi::Default,
            false,
        ),
        case(
            DType::BF16,
            DType::BF16,
            false,
            (false, false),
            (129, 1000, 600),
            0.5,
            Epi::Default,
            false,
        ),
        case(
            DType::BF16,
            DType::BF16,
            false,
            (true, false),
            (72, 520, 1024),
            0.0,
            Epi::Bias,
            false,
        ),
        case(
            DType::F16,
            DType::F32,
            false,
            (false, true),
            (520, 264, 600),
            0.5,
            Epi::GeluBias,
            false,
        ),
        case(
            DType::F32,
            DType::F32,
            true,
            (true, true),
            (200, 300, 512),
            0.0,
            Epi::Default,
            false,
        ),
        case(
            DType::BF16,
            DType::BF16,
            false,
            (true, false),
            (264, 136, 256),
            0.0,
            Epi::Bias,
            true,
        ),
        case(
            DType::BF16,
            DType::BF16,
            false,
            (true, true),
            (1000, 72, 768),
            0.5,
            Epi::ReluBias,
            false,
        ),
    ];
    let mut runs = 0;
    for (ci, s) in cases.iter().enumerate() {
        if only.is_some_and(|o| o != ci) {
            continue;
        }
        let geom = |w: usize, t: DType| {
            let gm = s.geom(w);
            MatrixSpec {
                dtype: t.cuda(),
                order: gm.order.cuda(),
                rows: gm.rows,
                cols: gm.cols,
                ld: gm.ld as i64,
                batch_count: 1,
                batch_stride: 0,
            }
        };
        let mut op = OpSpec::new(s.compute_type(), deepgemm::types::cuda_data_type::R_32F);
        op.trans_a = s.trans_a as i32;
        op.trans_b = s.trans_b as i32;
        op.epilogue = s.epi.cuda() as i32;
        let p = GemmProblem::new(
            &op,
            &geom(host::A, s.ab),
            &geom(host::B, s.ab),
            &geom(C, s.cd),
            &geom(D, s.cd),
        )
        .unwrap();
        let types = Types::of(&p);
        let universe =
            deepgemm::plan::configured_universe(&p, &dev, deepgemm::plan::pack::Which::NONE)
                .unwrap();
        let mut seen = std::collections::HashSet::new();
        for plan in universe {
            let config = Config::of(&plan);
            if !seen.insert(config) || plan.workspace > WORKSPACE_BYTES as u64 {
                continue;
            }
            runs += 1;
            let words = View::configured_words(&config, &types);
            let how = format!("case {ci}: {}", plan.name());
            let mut run = || -> Result<Comparison, String> {
                let prep = Prepared::new(s, &mut g.rng, true)?;
                let d = prep.new_output()?;
                let descs = Descs::new(env.handle.api, s, prep.bias_ptr(), WORKSPACE_BYTES as u64)?;
                let args = prep.args(&d, Some(&env.workspace), env.stream.raw());
                lt::matmul(&env.handle, &descs, Some(&Algo { data: words }), &args)?;
                env.stream.synchronize()?;
                Ok(prep.check_full(&d.download()?))
            };
            let r = run();
            g.record(s, &how, r);
        }
        println!("case {ci}: {} configurations", seen.len());
    }
    println!("every_configuration: {runs} run");
    g.finish();
}
