//! `DEEPGEMM_TMA_SHIFT=1` (set here before anything reads it: this binary's only test) on
//! random problems with A and B at random element offsets past aligned addresses (session 52):
//! a call's choice fits its workspace and takes its pointers, and every Hopper plan it runs
//! whole can encode A's and B's tensor maps at the addresses its kernel gets (the launch's
//! `encode_operand` never refuses what planning accepted); views into wider lines (their lines
//! apart after the shift) are chosen without copies of the operands they shift.

use deepgemm::plan::{self, DeviceSpec, Kernel, pack};
use deepgemm::problem::{GemmPointers, GemmProblem, MatrixSpec, OpSpec, Scalar};
use deepgemm::runtime::tensor_map::{Operand, encode_operand};
use deepgemm::types::{compute_type as ct, cuda_data_type as dt};

mod common;

use common::host::Rng;

#[test]
fn shifted_operands_plan_and_encode() {
    // SAFETY: the only test of this binary sets the variable before any thread reads it.
    unsafe { std::env::set_var("DEEPGEMM_TMA_SHIFT", "1") };
    assert!(pack::tma_shift());
    let seed = 0x5e55_1052_u64;
    let mut rng = Rng::new(seed);
    let types = [
        (dt::R_16BF, dt::R_16BF, ct::COMPUTE_32F),
        (dt::R_16BF, dt::R_32F, ct::COMPUTE_32F),
        (dt::R_16F, dt::R_16F, ct::COMPUTE_32F),
        (dt::R_32F, dt::R_32F, ct::COMPUTE_32F_FAST_TF32),
    ];
    let dev = DeviceSpec::H200;
    let (mut in_place, mut shifted_sm90) = (0, 0);
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
        // Leading dimensions: the minimum (a flat view, shifted lines would overlap), or up to
        // 16 more (a view into wider lines), or the next multiple of 64.
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
        let (kp, kptrs) = chosen.kernel_operands(&p, &ptrs, 0x7000_0000);
        let mut shifted = false;
        for (which, address) in [(Operand::A, kptrs.a), (Operand::B, kptrs.b)] {
            let (_, shift) = encode_operand(&v, &kp, which, address, true)
                .unwrap_or_else(|e| panic!("{what}: {} refuses {which:?}: {e}", chosen.name()));
            shifted |= shift > 0;
        }
        shifted_sm90 += shifted as u32;
        // A misaligned view whose lines stay apart is never copied for its alignment.
        let misfits = pack::pointer_misfits(&p, &ptrs);
        let strides = pack::stride_misfits(&p);
        let copied = chosen.pack.map_or(pack::Which::NONE, |s| s.which());
        let (sa, sb) = if chosen.swap {
            (copied.b, copied.a)
        } else {
            (copied.a, copied.b)
        };
        if !misfits.a && !misfits.b && !strides.a && !strides.b {
            assert!(!sa && !sb, "{what}: {} copies an operand", chosen.name());
            in_place += (off != [0, 0]) as u32;
        }
    }
    // The generator must reach the shifted path often.
    assert!(
        in_place > 80 && shifted_sm90 > 200,
        "{in_place} misaligned calls in place, {shifted_sm90} Hopper launches shifted"
    );
}
