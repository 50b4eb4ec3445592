//! A forced decomposition (`DEEPGEMM_DECOMPOSITION`) that leaves a problem no Hopper plan must
//! still plan it: on the portable kernel, not by panicking (session 11: under `splitk-cluster`
//! the heuristic returned INTERNAL_ERROR for 460 `gpu_matmul` cases, such as fp16 NN
//! 127x129x64, whose one k-iteration no split-K cluster takes). Pure planning, no GPU. The
//! variable is read once per process, so this file holds only tests that force the same value.

use deepgemm::plan::{self, DeviceSpec, Kernel};
use deepgemm::problem::{GemmProblem, MatrixSpec, OpSpec};
use deepgemm::types::{compute_type::*, cuda_data_type::*};

fn problem(m: u64, n: u64, k: u64, ta: i32, tb: i32, dtype: i32, compute: i32) -> GemmProblem {
    let mut op = OpSpec::new(compute, R_32F);
    op.trans_a = ta;
    op.trans_b = tb;
    let (ar, ac) = if ta == 0 { (m, k) } else { (k, m) };
    let (br, bc) = if tb == 0 { (k, n) } else { (n, k) };
    let a = MatrixSpec::col(dtype, ar, ac, ar as i64);
    let b = MatrixSpec::col(dtype, br, bc, br as i64);
    let d = MatrixSpec::col(dtype, m, n, m as i64);
    GemmProblem::new(&op, &a, &b, &d, &d).unwrap()
}

#[test]
fn forced_split_k_clusters_fall_back_to_portable_where_none_fits() {
    // SAFETY: set before any other thread of this test binary reads the environment (the only
    // test here; the planner reads it once, on first use).
    unsafe { std::env::set_var("DEEPGEMM_DECOMPOSITION", "splitk-cluster") };
    let dev = DeviceSpec::H200;
    // One k-iteration (fp16 NN; 127 rows: A's leading dimension also rules out TMA, so the
    // packed-operand plans are asked too) and tf32 NN (register A, no pairs): no pair fits,
    // and every other Hopper variant is refused under the forcing.
    for p in [
        problem(128, 129, 64, 0, 0, R_16F, COMPUTE_32F),
        problem(127, 129, 64, 0, 0, R_16F, COMPUTE_32F),
        problem(129, 65, 255, 0, 0, R_32F, COMPUTE_32F_FAST_TF32),
    ] {
        let all = plan::candidates(&p, &dev).unwrap();
        assert!(
            matches!(all[0].kernel, Kernel::Portable(_)),
            "{}",
            all[0].name()
        );
        assert!(all.iter().all(|c| !matches!(c.kernel, Kernel::Sm90(_))));
    }
    // Where a pair fits, only pairs are planned on the Hopper kernel.
    let p = problem(128, 4096, 4096, 1, 0, R_16BF, COMPUTE_32F);
    let all = plan::candidates(&p, &dev).unwrap();
    assert!(all[0].name().contains("_ks2"), "{}", all[0].name());
    for c in &all {
        if let Kernel::Sm90(v) = c.kernel {
            assert_eq!(v.split_k, 2, "{}", c.name());
        }
    }
}
