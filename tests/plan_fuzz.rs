//! The planner on random problems, legal or absurd (session 51): it never panics (CI runs this
//! in a debug build, so an integer overflow anywhere in planning or the cost model fails it),
//! every problem `GemmProblem::new` accepts gets a non-empty candidate list ending in the
//! portable plan, and a call's choice fits its workspace and takes its pointers. Sizes reach
//! 2^40 and 2^31 batches; strides and leading dimensions are odd, padded, zero or negative.

use deepgemm::plan::{self, DeviceSpec, Kernel, pack};
use deepgemm::problem::{GemmPointers, GemmProblem, MatrixSpec, OpSpec, Scalar};
use deepgemm::types::{compute_type as ct, cuda_data_type as dt, epilogue};

mod common;

use common::host::Rng;

/// One of `v`.
fn pick<T: Copy>(rng: &mut Rng, v: &[T]) -> T {
    v[rng.below(v.len() as u64) as usize]
}

/// A dimension: mostly small and ragged, sometimes huge.
fn dim(rng: &mut Rng) -> u64 {
    match rng.below(10) {
        0 => 0,
        1 => 1 + rng.below(16),
        2..=5 => 1 + rng.below(5000),
        6 | 7 => 1 + rng.below(70_000),
        8 => 1 << (20 + rng.below(21)),
        _ => (1 << 31) - rng.below(2048),
    }
}

/// `shared`: a batch that reuses one matrix (stride 0) or walks backwards, the only way a
/// batch of ~2^31 fits int64 offsets with large matrices.
fn layout(rng: &mut Rng, dtype: i32, rows: u64, cols: u64, batch: i32, shared: bool) -> MatrixSpec {
    let row_major = rng.below(6) == 0;
    let min_ld = if row_major { cols } else { rows }.max(1);
    let ld = match rng.below(6) {
        0 => min_ld as i64 + rng.below(9) as i64,
        1 => min_ld.next_multiple_of(64) as i64,
        2 => min_ld as i64 - rng.below(2) as i64, // may be one short: refused
        _ => min_ld as i64,
    };
    let elems = rows.saturating_mul(cols) as i64;
    let batch_stride = match rng.below(5) {
        _ if shared && rng.below(4) != 0 => 0,
        0 => 0,
        1 => -(elems.max(1)),
        2 => elems.saturating_add(rng.below(17) as i64),
        _ => elems,
    };
    MatrixSpec {
        dtype,
        order: row_major as i32,
        rows,
        cols,
        ld,
        batch_count: batch,
        batch_stride,
    }
}

#[test]
fn random_problems_plan_without_panics() {
    let seed = 0x5e55_1051_u64;
    let mut rng = Rng::new(seed);
    let types = [
        (dt::R_16BF, dt::R_16BF, ct::COMPUTE_32F),
        (dt::R_16BF, dt::R_32F, ct::COMPUTE_32F),
        (dt::R_16F, dt::R_16F, ct::COMPUTE_32F),
        (dt::R_32F, dt::R_32F, ct::COMPUTE_32F_FAST_TF32),
        (dt::R_32F, dt::R_32F, ct::COMPUTE_32F),
        (dt::R_8I, dt::R_32I, ct::COMPUTE_32I),
    ];
    let epilogues = [
        epilogue::DEFAULT,
        epilogue::RELU,
        epilogue::BIAS,
        epilogue::GELU_BIAS,
    ];
    let devices = [DeviceSpec::H200, DeviceSpec::A100, DeviceSpec::T4];
    let (mut accepted, mut refused) = (0, 0);
    for case in 0..1200 {
        let (ab, cd, compute) = pick(&mut rng, &types);
        let (m, n, k) = (dim(&mut rng), dim(&mut rng), dim(&mut rng));
        let batch = match rng.below(6) {
            0 => 1 + rng.below(64) as i32,
            1 => i32::MAX - rng.below(3) as i32,
            _ => 1,
        };
        let shared = batch > 1 << 20;
        let mut op = OpSpec::new(compute, dt::R_32F);
        op.trans_a = rng.below(2) as i32;
        op.trans_b = rng.below(2) as i32;
        op.epilogue = pick(&mut rng, &epilogues);
        let (ar, ac) = if op.trans_a == 0 { (m, k) } else { (k, m) };
        let (br, bc) = if op.trans_b == 0 { (k, n) } else { (n, k) };
        let a = layout(&mut rng, ab, ar, ac, batch, shared);
        let b = layout(&mut rng, ab, br, bc, batch, shared);
        let d = layout(&mut rng, cd, m, n, batch, shared);
        let what = format!(
            "seed {seed:#x} case {case}: {m}x{n}x{k} batch {batch} {op:?} A {a:?} B {b:?} D {d:?}"
        );
        let Ok(p) = GemmProblem::new(&op, &a, &b, &d, &d) else {
            refused += 1;
            continue;
        };
        accepted += 1;
        let dev = pick(&mut rng, &devices);
        let misaligned = pack::Which {
            a: rng.below(4) == 0,
            b: rng.below(4) == 0,
            d: false,
        };
        let Ok(list) = plan::candidates_for(&p, &dev, misaligned) else {
            // Refused by every kernel (e.g. integer types): a status, not a panic.
            continue;
        };
        assert!(!list.is_empty(), "{what}");
        assert!(
            list.iter().any(|c| matches!(c.kernel, Kernel::Portable(_))),
            "{what}: no portable plan among {:?}",
            list.iter().map(|c| c.name()).collect::<Vec<_>>()
        );
        // Every listed algo decodes to its plan (through the list its word 6 names).
        let ranked = plan::cache::candidates_for(&p, &dev, misaligned).unwrap();
        assert_eq!(ranked.plans(), &list[..], "{what}");
        for (c, algo) in ranked.iter() {
            assert_eq!(
                plan::cache::from_algo(algo, &p, &dev).as_ref(),
                Ok(c),
                "{what}"
            );
            assert!(c.waves(&dev) >= 0.0, "{what}");
        }
        let elem = p.ab_type.size_bytes() as u64;
        let ptrs = GemmPointers {
            alpha: Scalar::Host(1.0),
            beta: Scalar::Host(if rng.below(2) == 0 { 0.0 } else { 0.5 }),
            a: 0x1000_0000 + if misaligned.a { elem } else { 0 },
            b: 0x2000_0000 + if misaligned.b { elem } else { 0 },
            c: 0x3000_0000,
            d: 0x3000_0000,
            bias: if p.epilogue.bias { 0x4000_0000 } else { 0 },
        };
        let ws = pick(&mut rng, &[0u64, 1 << 20, 32 << 20, 1 << 40]);
        let chosen = plan::choose_for_call(&p, &dev, &ptrs, ws)
            .unwrap_or_else(|e| panic!("{what}: no plan for the call: {e}"));
        assert!(chosen.workspace <= ws, "{what}: {}", chosen.name());
        assert!(chosen.accepts(&p, &ptrs), "{what}: {}", chosen.name());
    }
    // The generator must reach both sides of validation.
    assert!(
        accepted > 100 && refused > 20,
        "{accepted} accepted, {refused} refused"
    );
}
