//! CPU cost of the host path of one call, with the recording handle (no GPU): planning,
//! algo decoding, and deepgemmLtMatmul / the heuristic through the C exports. Timing, so
//! ignored by default (timing tests are flaky); run with
//! `cargo test --release --test host_overhead -- --ignored --nocapture`.

mod api_common;
use api_common::*;
use std::ffi::c_void;
use std::ptr::null;
use std::time::Instant;

use deepgemm::ffi::testing;
use deepgemm::plan::{self, DeviceSpec, Plan, cache};
use deepgemm::problem::{GemmPointers, GemmProblem, MatrixSpec, OpSpec, Scalar};

/// Nanoseconds per call of `f`: `n` calls (after n/10 warm-up calls) in 10 rounds, the
/// fastest round's mean (robust to other work on a shared machine).
fn ns_per_call(n: usize, mut f: impl FnMut()) -> f64 {
    for _ in 0..n / 10 {
        f();
    }
    let per_round = n.div_ceil(10);
    (0..10)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..per_round {
                f();
            }
            t.elapsed().as_nanos() as f64 / per_round as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// bf16 TN m x n x k, column-major, tight leading dimensions (PyTorch Linear).
fn tn(m: u64, n: u64, k: u64) -> GemmProblem {
    let mut op = OpSpec::new(68, 0);
    op.trans_a = 1;
    GemmProblem::new(
        &op,
        &MatrixSpec::col(14, k, m, k as i64),
        &MatrixSpec::col(14, k, n, k as i64),
        &MatrixSpec::col(14, m, n, m as i64),
        &MatrixSpec::col(14, m, n, m as i64),
    )
    .unwrap()
}

fn ptrs() -> GemmPointers {
    GemmPointers {
        alpha: Scalar::Host(1.0),
        beta: Scalar::Host(0.0),
        a: 0x10000,
        b: 0x20000,
        c: 0x40000,
        d: 0x40000,
        bias: 0,
    }
}

#[test]
#[ignore = "timing: run by hand with --nocapture"]
fn planning_cost() {
    let dev = DeviceSpec::H200;
    for (m, n, k) in [(64, 64, 64), (4096, 4096, 4096), (4097, 4097, 4097)] {
        let p = tn(m, n, k);
        let iters = if m < 1000 { 20_000 } else { 2_000 };
        let c = plan::candidates(&p, &dev).unwrap();
        let best = c[0].to_algo();
        let t_cand = ns_per_call(iters, || {
            std::hint::black_box(plan::candidates(std::hint::black_box(&p), &dev).unwrap());
        });
        let t_algo = ns_per_call(iters, || {
            std::hint::black_box(Plan::from_algo(&best, std::hint::black_box(&p), &dev).unwrap());
        });
        let t_call = ns_per_call(iters, || {
            std::hint::black_box(
                plan::choose_for_call(std::hint::black_box(&p), &dev, &ptrs(), 32 << 20).unwrap(),
            );
        });
        // The same through the plan cache (every call after the first is a hit).
        let c_cand = ns_per_call(iters, || {
            std::hint::black_box(cache::candidates(std::hint::black_box(&p), &dev).unwrap());
        });
        let c_algo = ns_per_call(iters, || {
            std::hint::black_box(cache::from_algo(&best, std::hint::black_box(&p), &dev).unwrap());
        });
        let c_call = ns_per_call(iters, || {
            std::hint::black_box(
                cache::choose_for_call(std::hint::black_box(&p), &dev, &ptrs(), 32 << 20).unwrap(),
            );
        });
        println!(
            "{m}x{n}x{k}: {} candidates; uncached / cached (us): candidates {:.2} / {:.3}, \
             from_algo {:.2} / {:.3}, choose_for_call {:.2} / {:.3}",
            c.len(),
            t_cand / 1e3,
            c_cand / 1e3,
            t_algo / 1e3,
            c_algo / 1e3,
            t_call / 1e3,
            c_call / 1e3
        );
    }
}

#[test]
#[ignore = "timing: run by hand with --nocapture"]
fn api_call_cost() {
    let h = testing::recording_lt_handle(DeviceSpec::H200);
    let d = desc(DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F);
    assert_eq!(
        Obj::Desc(d).set(DEEPGEMMLT_MATMUL_DESC_TRANSA, DEEPGEMM_OP_T),
        DEEPGEMM_STATUS_SUCCESS
    );
    let a = layout(DEEPGEMM_R_16BF, 64, 64, 64);
    let pr = pref();
    assert_eq!(
        Obj::Pref(pr).set(DEEPGEMMLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, 32u64 << 20),
        DEEPGEMM_STATUS_SUCCESS
    );
    let mut res = [deepgemmLtMatmulHeuristicResult_t {
        algo: deepgemmLtMatmulAlgo_t::default(),
        workspaceSize: 0,
        state: DEEPGEMM_STATUS_SUCCESS,
        wavesCount: 0.0,
        reserved: [0; 4],
    }; 1];
    let mut count = 0;
    let mut heuristic =
        || deepgemmLtMatmulAlgoGetHeuristic(h, d, a, a, a, a, pr, 1, res.as_mut_ptr(), &mut count);
    let t_heur = ns_per_call(20_000, || assert_eq!(heuristic(), DEEPGEMM_STATUS_SUCCESS));
    assert_eq!(heuristic(), DEEPGEMM_STATUS_SUCCESS);
    let algo = res[0].algo;
    let one = 1.0f32;
    let zero = 0.0f32;
    let matmul = |algo: *const deepgemmLtMatmulAlgo_t| {
        deepgemmLtMatmul(
            h,
            d,
            (&one as *const f32).cast(),
            0x10000 as *const c_void,
            a,
            0x20000 as *const c_void,
            a,
            (&zero as *const f32).cast(),
            0x40000 as *const c_void,
            a,
            0x40000 as *mut c_void,
            a,
            algo,
            0x100000 as *mut c_void,
            32 << 20,
            0x1234_5600 as deepgemmStream_t,
        )
    };
    let t_algo = ns_per_call(20_000, || {
        assert_eq!(matmul(&algo), DEEPGEMM_STATUS_SUCCESS)
    });
    let t_null = ns_per_call(20_000, || {
        assert_eq!(matmul(null()), DEEPGEMM_STATUS_SUCCESS)
    });
    println!(
        "64x64x64 bf16 TN through the C exports (recording handle): heuristic {:.2} us, \
         matmul with its algo {:.2} us, matmul algo=NULL {:.2} us (recorded: the backend plans no NULL-algo call)",
        t_heur / 1e3,
        t_algo / 1e3,
        t_null / 1e3
    );
    Obj::Pref(pr).destroy();
    Obj::Layout(a).destroy();
    Obj::Desc(d).destroy();
    assert_eq!(deepgemmLtDestroy(h), DEEPGEMM_STATUS_SUCCESS);
}
