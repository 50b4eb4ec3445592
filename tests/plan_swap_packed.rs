//! `DEEPGEMM_SWAP_PACKED=1` (the default since session 54; set here before anything reads it:
//! this binary's only test) on random problems with A and B at random element offsets past
//! aligned addresses (session 53):
//! a call's choice fits its workspace and takes its pointers; a transposed plan on packed
//! copies runs its kernel on operands TMA can take (both maps encode at the addresses the
//! kernel gets, inside the workspace for every copied operand); and small-m calls with A off
//! the grid (decode's activations) choose such plans, modelled faster than the direct ones.

use deepgemm::plan::{self, DeviceSpec, Kernel, pack};
use deepgemm::problem::{GemmPointers, GemmProblem, MatrixSpec, OpSpec, Scalar};
use deepgemm::runtime::tensor_map::{Operand, encode_args};
use deepgemm::types::{compute_type as ct, cuda_data_type as dt};

mod common;

use common::host::Rng;

#[test]
fn swapped_plans_on_packed_copies() {
    // SAFETY: the only test of this binary sets the variable before any thread reads it.
    unsafe { std::env::set_var("DEEPGEMM_SWAP_PACKED", "1") };
    assert!(plan::swap_packed());
    decode_with_misaligned_activations_runs_transposed();
    let seed = 0x5a9_0053_u64;
    let mut rng = Rng::new(seed);
    let types = [
        (dt::R_16BF, dt::R_16BF, ct::COMPUTE_32F),
        (dt::R_16BF, dt::R_32F, ct::COMPUTE_32F),
        (dt::R_16F, dt::R_16F, ct::COMPUTE_32F),
        (dt::R_32F, dt::R_32F, ct::COMPUTE_32F_FAST_TF32),
    ];
    let dev = DeviceSpec::H200;
    let ws_base = 0x7000_0000u64;
    let mut swapped_packed = 0;
    for case in 0..1000 {
        let (ab, cd, compute) = types[rng.below(types.len() as u64) as usize];
        let dim = |rng: &mut Rng| match rng.below(4) {
            0 => 1 + rng.below(64),
            _ => 1 + rng.below(3000),
        };
        let (m, n, k) = (dim(&mut rng), dim(&mut rng), dim(&mut rng));
        let batch = if rng.below(5) == 0 {
            2 + rng.below(3) as i32
        } else {
            1
        };
        let mut op = OpSpec::new(compute, dt::R_32F);
        op.trans_a = rng.below(2) as i32;
        op.trans_b = rng.below(2) as i32;
        let mut layout = |dtype: i32, rows: u64, cols: u64| {
            let row_major = rng.below(5) == 0;
            let min_ld = if row_major { cols } else { rows }.max(1);
            let ld = match rng.below(3) {
                0 => min_ld,
                1 => min_ld + rng.below(17),
                _ => min_ld.next_multiple_of(64),
            } as i64;
            let span = ld * if row_major { rows } else { cols } as i64;
            MatrixSpec {
                dtype,
                order: row_major as i32,
                rows,
                cols,
                ld,
                batch_count: batch,
                batch_stride: if batch > 1 {
                    (span as u64).next_multiple_of(64) as i64
                } else {
                    0
                },
            }
        };
        let (ar, ac) = if op.trans_a == 0 { (m, k) } else { (k, m) };
        let (br, bc) = if op.trans_b == 0 { (k, n) } else { (n, k) };
        let a = layout(ab, ar, ac);
        let b = layout(ab, br, bc);
        let d = layout(cd, m, n);
        let what = format!("seed {seed:#x} case {case}: {m}x{n}x{k} {op:?} A {a:?} B {b:?}");
        let Ok(p) = GemmProblem::new(&op, &a, &b, &d, &d) else {
            continue;
        };
        let elem = p.ab_type.size_bytes() as u64;
        let off = [rng.below(8), rng.below(8)];
        let ptrs = GemmPointers {
            alpha: Scalar::Host(1.0),
            beta: Scalar::Host(0.0),
            a: 0x1000_0000 + off[0] * elem,
            b: 0x2000_0000 + off[1] * elem,
            c: 0x3000_0000,
            d: 0x3000_0000,
            bias: 0,
        };
        let ws = [0u64, 32 << 20, 1 << 40][rng.below(3) as usize];
        let chosen = plan::choose_for_call(&p, &dev, &ptrs, ws)
            .unwrap_or_else(|e| panic!("{what}: no plan for the call: {e}"));
        assert!(chosen.workspace <= ws, "{what}: {}", chosen.name());
        assert!(chosen.accepts(&p, &ptrs), "{what}: {}", chosen.name());
        let Kernel::Sm90(v) = chosen.kernel else {
            continue;
        };
        if chosen.is_slabbed() {
            continue;
        }
        // The kernel's operands: aligned where TMA reads them, copies inside the workspace.
        let (kp, kptrs) = chosen.kernel_operands(&p, &ptrs, ws_base);
        let copied = chosen.pack.map_or(pack::Which::NONE, |s| s.which());
        for (which, address, was_copied) in [
            (Operand::A, kptrs.a, copied.a),
            (Operand::B, kptrs.b, copied.b),
        ] {
            encode_args(&v, &kp, which, address)
                .unwrap_or_else(|e| panic!("{what}: {} refuses {which:?}: {e}", chosen.name()));
            let in_ws = (ws_base..ws_base + chosen.workspace).contains(&address);
            assert_eq!(in_ws, was_copied, "{what}: {} {which:?}", chosen.name());
        }
        if chosen.swap && chosen.pack.is_some() {
            swapped_packed += 1;
            // The operand off the grid is the one copied, in the transposed orientation.
            let misfits = pack::pointer_misfits(&ptrs).swapped();
            assert!(
                (!misfits.a || copied.a) && (!misfits.b || copied.b),
                "{what}: {}",
                chosen.name()
            );
        }
    }
    assert!(
        swapped_packed > 30,
        "{swapped_packed} swapped plans on packed copies"
    );
}

/// (Part of the test above, which sets the switch.) Decode's activations off the grid: the
/// transposed plan on a copy of A, modelled near the
/// aligned call and well under the direct plans on copies (`--plans --offset 1,0` at session
/// 53: 15.3 us against 27.3, aligned 12.3).
fn decode_with_misaligned_activations_runs_transposed() {
    let dev = DeviceSpec::H200;
    let mut op = OpSpec::new(ct::COMPUTE_32F, dt::R_32F);
    op.trans_a = 1;
    let a = MatrixSpec::col(dt::R_16BF, 4096, 16, 4096);
    let b = MatrixSpec::col(dt::R_16BF, 4096, 4096, 4096);
    let d = MatrixSpec::col(dt::R_16BF, 16, 4096, 16);
    let p = GemmProblem::new(&op, &a, &b, &d, &d).unwrap();
    let ptrs = GemmPointers {
        alpha: Scalar::Host(1.0),
        beta: Scalar::Host(0.0),
        a: 0x1000_0002,
        b: 0x2000_0000,
        c: 0x3000_0000,
        d: 0x3000_0000,
        bias: 0,
    };
    let chosen = plan::choose_for_call(&p, &dev, &ptrs, 32 << 20).unwrap();
    assert!(chosen.swap, "{}", chosen.name());
    assert!(chosen.name().contains("+swap+pack_b"), "{}", chosen.name());
    let direct = plan::pack::hopper_packed(&p, &dev, pack::pointer_misfits(&ptrs)).unwrap();
    assert!(
        (chosen.estimate_ns as f64) < 0.7 * direct.estimate_ns as f64,
        "{} {} against {} {}",
        chosen.name(),
        chosen.estimate_ns,
        direct.name(),
        direct.estimate_ns
    );
}
