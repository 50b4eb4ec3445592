//! Whether deepgemm computes a call exactly as cuBLAS would: pure rules over the values read
//! from the call, unit-tested without a GPU or a cuBLAS.
//!
//! The common reasons to forward (types, compute type, epilogue, layout order) are checked
//! here first, without allocating, because they sit on the forwarded path; whatever passes
//! goes through `GemmProblem::new`, deepgemm's own validation, so the preload never accepts
//! more than the library does.

use std::fmt;

use deepgemm::Error;
use deepgemm::problem::{GemmProblem, MatrixSpec, OpSpec};
use deepgemm::types::{Epilogue, PointerMode, compute_type as ct, cuda_data_type as dt, order};

use crate::stats::Reason;

/// Why a call goes to the real library, with enough detail for the per-call log.
#[derive(Clone, Debug, PartialEq)]
pub struct Forward {
    pub reason: Reason,
    pub why: Why,
    /// The decoded operation, when the call got that far (the per-call log shows it).
    /// Boxed: the common refusals (types, compute, epilogue) return before there is one,
    /// and should not carry its size around.
    pub problem: Option<Box<GemmProblem>>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Why {
    Text(&'static str),
    Value(&'static str, i64),
    Error(Error),
}

impl Forward {
    pub fn new(reason: Reason, text: &'static str) -> Forward {
        Forward {
            reason,
            why: Why::Text(text),
            problem: None,
        }
    }

    pub fn value(reason: Reason, what: &'static str, v: i64) -> Forward {
        Forward {
            reason,
            why: Why::Value(what, v),
            problem: None,
        }
    }

    pub fn error(reason: Reason, e: Error) -> Forward {
        Forward {
            reason,
            why: Why::Error(e),
            problem: None,
        }
    }

    pub fn with_problem(mut self, p: &GemmProblem) -> Forward {
        self.problem = Some(Box::new(*p));
        self
    }
}

/// The operation as the per-call log shows it.
pub fn problem_text(p: &GemmProblem) -> String {
    format!(
        "m={} n={} k={} batch={} ab={} cd={} math={} epilogue={:?}{}",
        p.m,
        p.n,
        p.k,
        p.batch,
        p.ab_type.tag(),
        p.cd_type.tag(),
        p.math.tag(),
        p.epilogue.activation,
        if p.epilogue.bias { "+bias" } else { "" },
    )
}

impl fmt::Display for Forward {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.why {
            Why::Text(t) => write!(f, "{}: {t}", self.reason.key()),
            Why::Value(w, v) => write!(f, "{}: {w} {v}", self.reason.key()),
            Why::Error(e) => write!(f, "{}: {e}", self.reason.key()),
        }
    }
}

/// Whether deepgemm should run `plan`: not where it is the portable kernel (the correctness
/// reference: ~70 TFLOP/s on tensor cores against cuBLAS's 700+ on the H200, and its exact-fp32
/// FFMA path at 0.49-0.59x cuBLAS under PyTorch, BENCHMARKS.md session 15), unless
/// DEEPGEMM_PRELOAD_PORTABLE=1 (`allow`) asks for it. That covers every GPU without deepgemm's
/// Hopper kernel, and on Hopper exact fp32, and operands TMA cannot read (or tf32 NT's B, which
/// the Hopper kernel reads through a transposed copy) when the workspace is too small to copy
/// them.
pub fn portable(plan: &deepgemm::plan::Plan, allow: bool) -> Result<(), Forward> {
    if allow || !matches!(plan.kernel, deepgemm::plan::Kernel::Portable(_)) {
        return Ok(());
    }
    Err(Forward::new(
        Reason::Portable,
        "deepgemm would run its portable reference kernel (DEEPGEMM_PRELOAD_PORTABLE=1 runs it)",
    ))
}

fn computed(t: i32) -> bool {
    matches!(t, dt::R_32F | dt::R_16F | dt::R_16BF)
}

/// A and B of one type, C and D of one type, D of A's type or fp32, all three deepgemm types.
pub fn check_types(a: i32, b: i32, c: i32, d: i32) -> Result<(), Forward> {
    for (what, t) in [("A type", a), ("B type", b), ("C type", c), ("D type", d)] {
        if !computed(t) {
            return Err(Forward::value(Reason::DataType, what, t as i64));
        }
    }
    if a != b {
        return Err(Forward::value(
            Reason::DataType,
            "B type differs from A's:",
            b as i64,
        ));
    }
    if c != d {
        return Err(Forward::value(
            Reason::DataType,
            "C type differs from D's:",
            c as i64,
        ));
    }
    if d != a && d != dt::R_32F {
        return Err(Forward::value(
            Reason::DataType,
            "D type is neither A's nor R_32F:",
            d as i64,
        ));
    }
    Ok(())
}

/// The compute types deepgemm runs as specified (fp32 accumulation; TF32 only when asked).
pub fn check_compute(compute: i32, scale: i32) -> Result<(), Forward> {
    if !matches!(
        compute,
        ct::COMPUTE_32F | ct::COMPUTE_32F_PEDANTIC | ct::COMPUTE_32F_FAST_TF32
    ) {
        return Err(Forward::value(
            Reason::ComputeType,
            "compute type",
            compute as i64,
        ));
    }
    if scale != dt::R_32F {
        return Err(Forward::value(
            Reason::ComputeType,
            "scale type",
            scale as i64,
        ));
    }
    Ok(())
}

/// cublasMath_t (low bits of the math mode; higher bits are flags such as
/// DISALLOW_REDUCED_PRECISION_REDUCTION, which deepgemm's fp32 accumulation satisfies).
pub mod math_mode {
    pub const DEFAULT: i32 = 0;
    pub const TENSOR_OP: i32 = 1;
    pub const PEDANTIC: i32 = 2;
    pub const TF32_TENSOR_OP: i32 = 3;
    pub const MASK: i32 = 0xf;
}

/// The compute type a cuBLAS call really runs with, given the handle's math mode and
/// NVIDIA_TF32_OVERRIDE. fp32 with COMPUTE_32F uses TF32 only under
/// CUBLAS_TF32_TENSOR_OP_MATH; otherwise it stays exact fp32 (deepgemm's FFMA path).
/// The deprecated CUBLAS_TENSOR_OP_MATH turns fp32 into COMPUTE_32F_FAST_16F, which
/// deepgemm does not have. Where TF32 is forbidden (override, pedantic math), exact fp32
/// runs instead of TF32: at least as accurate as what was asked.
pub fn effective_compute(
    compute: i32,
    ab_type: i32,
    math: i32,
    tf32_disabled: bool,
) -> Result<i32, Forward> {
    let mode = math & math_mode::MASK;
    if !matches!(
        mode,
        math_mode::DEFAULT | math_mode::TENSOR_OP | math_mode::PEDANTIC | math_mode::TF32_TENSOR_OP
    ) {
        return Err(Forward::value(
            Reason::ComputeType,
            "math mode",
            math as i64,
        ));
    }
    if ab_type != dt::R_32F {
        if compute == ct::COMPUTE_32F_FAST_TF32 {
            // cuBLAS lists TF32 compute for fp32 inputs only; deepgemm would run the 16-bit
            // product as COMPUTE_32F. Whatever cuBLAS answers (NOT_SUPPORTED, as its type
            // tables read) is the host program's to see (a review, session 78).
            return Err(Forward::new(
                Reason::ComputeType,
                "COMPUTE_32F_FAST_TF32 on 16-bit inputs (cuBLAS's tables have it for fp32 only)",
            ));
        }
        if mode == math_mode::PEDANTIC || compute == ct::COMPUTE_32F_PEDANTIC {
            // cuBLAS's pedantic modes keep tensor cores out (IEEE fp32 accumulation), which
            // deepgemm's 16-bit plans do not.
            return Err(Forward::new(
                Reason::ComputeType,
                "pedantic math on 16-bit inputs (cuBLAS runs it without tensor cores)",
            ));
        }
        return Ok(compute);
    }
    let no_tf32 = tf32_disabled || mode == math_mode::PEDANTIC;
    Ok(match compute {
        ct::COMPUTE_32F if mode == math_mode::TENSOR_OP => {
            return Err(Forward::new(
                Reason::ComputeType,
                "CUBLAS_TENSOR_OP_MATH makes fp32 COMPUTE_32F_FAST_16F",
            ));
        }
        ct::COMPUTE_32F if mode == math_mode::TF32_TENSOR_OP && !no_tf32 => {
            ct::COMPUTE_32F_FAST_TF32
        }
        ct::COMPUTE_32F_FAST_TF32 if no_tf32 => ct::COMPUTE_32F,
        c => c,
    })
}

/// The GEMM deepgemm would run for these descriptors, or why not.
pub fn problem(
    op: &OpSpec,
    a: &MatrixSpec,
    b: &MatrixSpec,
    c: &MatrixSpec,
    d: &MatrixSpec,
) -> Result<GemmProblem, Forward> {
    check_types(a.dtype, b.dtype, c.dtype, d.dtype)?;
    check_compute(op.compute_type, op.scale_type)?;
    if PointerMode::from_cuda(op.pointer_mode).is_none() {
        return Err(Forward::value(
            Reason::PointerMode,
            "pointer mode",
            op.pointer_mode as i64,
        ));
    }
    if Epilogue::from_cuda(op.epilogue).is_none() {
        return Err(Forward::value(
            Reason::Epilogue,
            "epilogue",
            op.epilogue as i64,
        ));
    }
    // Only a bias epilogue reads BIAS_DATA_TYPE (as GemmProblem::new decides).
    let has_bias = Epilogue::from_cuda(op.epilogue).is_some_and(|e| e.bias);
    if has_bias
        && op.bias_data_type != -1
        && op.bias_data_type != d.dtype
        && op.bias_data_type != dt::R_32F
    {
        return Err(Forward::value(
            Reason::Epilogue,
            "bias type",
            op.bias_data_type as i64,
        ));
    }
    for (what, s) in [
        ("A order", a),
        ("B order", b),
        ("C order", c),
        ("D order", d),
    ] {
        if s.order != order::COL && s.order != order::ROW {
            return Err(Forward::value(Reason::Layout, what, s.order as i64));
        }
    }
    if op.trans_c != 0 {
        return Err(Forward::value(Reason::Layout, "TRANSC", op.trans_c as i64));
    }
    GemmProblem::new(op, a, b, c, d).map_err(|e| match e {
        Error::InvalidValue(_) => Forward::error(Reason::Invalid, e),
        _ => Forward::error(Reason::Unsupported, e),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use deepgemm::types::{Math, ScalarType, epilogue, pointer_mode};

    fn specs(ab: i32, cd: i32) -> (OpSpec, MatrixSpec, MatrixSpec, MatrixSpec) {
        let mut op = OpSpec::new(ct::COMPUTE_32F, dt::R_32F);
        op.trans_a = 1; // "TN": A stored k x m
        (
            op,
            MatrixSpec::col(ab, 64, 32, 64),
            MatrixSpec::col(ab, 64, 48, 64),
            MatrixSpec::col(cd, 32, 48, 32),
        )
    }

    fn reason(r: Result<GemmProblem, Forward>) -> Reason {
        r.expect_err("must forward").reason
    }

    #[test]
    fn supported_calls_become_problems() {
        for (ab, cd) in [
            (dt::R_16BF, dt::R_16BF),
            (dt::R_16F, dt::R_16F),
            (dt::R_16BF, dt::R_32F),
            (dt::R_32F, dt::R_32F),
        ] {
            let (op, a, b, c) = specs(ab, cd);
            let p = problem(&op, &a, &b, &c, &c).unwrap();
            assert_eq!((p.m, p.n, p.k), (32, 48, 64));
            assert_eq!(p.cd_type.cuda_value(), cd);
        }
        let (mut op, a, b, c) = specs(dt::R_16BF, dt::R_16BF);
        op.epilogue = epilogue::GELU_BIAS;
        op.bias_data_type = dt::R_32F;
        op.pointer_mode = pointer_mode::DEVICE;
        let p = problem(&op, &a, &b, &c, &c).unwrap();
        assert!(p.epilogue.bias);
        assert_eq!(p.bias_type, ScalarType::F32);
        assert_eq!(p.pointer_mode, PointerMode::Device);
    }

    /// The plans deepgemm makes for an H200 (no GPU needed): the portable kernel's go to cuBLAS
    /// unless DEEPGEMM_PRELOAD_PORTABLE=1; the Hopper kernel's run.
    #[test]
    fn portable_plans_are_forwarded_unless_asked_for() {
        use deepgemm::plan::{self, DeviceSpec, Kernel};
        let plan_of = |ab: i32, compute: i32, ta: i32, tb: i32, dev: &DeviceSpec| {
            let mut op = OpSpec::new(compute, dt::R_32F);
            op.trans_a = ta;
            op.trans_b = tb;
            let (m, n, k) = (512, 512, 512);
            let a = if ta == 1 {
                MatrixSpec::col(ab, k, m, k as i64)
            } else {
                MatrixSpec::col(ab, m, k, m as i64)
            };
            let b = if tb == 1 {
                MatrixSpec::col(ab, n, k, n as i64)
            } else {
                MatrixSpec::col(ab, k, n, k as i64)
            };
            let c = MatrixSpec::col(ab, m, n, m as i64);
            let p = GemmProblem::new(&op, &a, &b, &c, &c).unwrap();
            let ptrs = deepgemm::problem::GemmPointers {
                alpha: deepgemm::problem::Scalar::Host(1.0),
                beta: deepgemm::problem::Scalar::Host(0.0),
                a: 0x10_0000,
                b: 0x20_0000,
                c: 0x30_0000,
                d: 0x30_0000,
                bias: 0,
            };
            plan::choose_for_call(&p, dev, &ptrs, 32 << 20).unwrap()
        };
        let h200 = &DeviceSpec::H200;
        // bf16 in every layout and tf32 TN: the Hopper kernel.
        for (ta, tb) in [(1, 0), (0, 0), (1, 1), (0, 1)] {
            let bf16 = plan_of(dt::R_16BF, ct::COMPUTE_32F, ta, tb, h200);
            assert!(matches!(bf16.kernel, Kernel::Sm90(_)), "{ta}{tb}");
            assert_eq!(portable(&bf16, false), Ok(()));
        }
        let tf32_tn = plan_of(dt::R_32F, ct::COMPUTE_32F_FAST_TF32, 1, 0, h200);
        assert_eq!(portable(&tf32_tn, false), Ok(()));
        // tf32 NT: the Hopper kernel on B's transposed copy in the workspace, substituted
        // (session 56, H100: 1.23-1.38x cuBLASLt's NT, whose kernel reads B as it is).
        let tf32_nt = plan_of(dt::R_32F, ct::COMPUTE_32F_FAST_TF32, 0, 1, h200);
        assert!(
            tf32_nt
                .pack
                .is_some_and(|s| s.b.is_some_and(|b| b.transposed))
        );
        assert_eq!(portable(&tf32_nt, false), Ok(()));
        // Exact fp32 (FFMA), and any problem on a GPU without the Hopper kernel.
        for plan in [
            plan_of(dt::R_32F, ct::COMPUTE_32F, 1, 0, h200),
            plan_of(dt::R_16BF, ct::COMPUTE_32F, 1, 0, &DeviceSpec::A100),
        ] {
            assert!(
                matches!(plan.kernel, Kernel::Portable(_)),
                "{}",
                plan.name()
            );
            let f = portable(&plan, false).unwrap_err();
            assert_eq!(f.reason, Reason::Portable);
            assert_eq!(portable(&plan, true), Ok(()), "DEEPGEMM_PRELOAD_PORTABLE=1");
        }
    }

    #[test]
    fn unsupported_calls_forward_with_their_reason() {
        let (op, a, b, c) = specs(dt::R_8F_E4M3, dt::R_16BF);
        assert_eq!(reason(problem(&op, &a, &b, &c, &c)), Reason::DataType);
        let (op, a, b, c) = specs(dt::R_16BF, dt::R_16F); // D neither A's type nor fp32
        assert_eq!(reason(problem(&op, &a, &b, &c, &c)), Reason::DataType);
        let (op, a, mut b, c) = specs(dt::R_16BF, dt::R_16BF);
        b.dtype = dt::R_16F;
        assert_eq!(reason(problem(&op, &a, &b, &c, &c)), Reason::DataType);
        let (op, a, b, c) = specs(dt::R_64F, dt::R_64F);
        assert_eq!(reason(problem(&op, &a, &b, &c, &c)), Reason::DataType);
        let (op, a, b, c) = specs(dt::R_16BF, dt::R_16BF);
        let mut d = c;
        d.dtype = dt::R_32F; // C and D differ
        assert_eq!(reason(problem(&op, &a, &b, &c, &d)), Reason::DataType);

        let (mut op, a, b, c) = specs(dt::R_16F, dt::R_16F);
        op.compute_type = ct::COMPUTE_16F;
        op.scale_type = dt::R_16F;
        assert_eq!(reason(problem(&op, &a, &b, &c, &c)), Reason::ComputeType);
        op.compute_type = ct::COMPUTE_32F; // scale type still R_16F
        assert_eq!(reason(problem(&op, &a, &b, &c, &c)), Reason::ComputeType);
        let (mut op, a, b, c) = specs(dt::R_32F, dt::R_32F);
        op.compute_type = ct::COMPUTE_32F_FAST_16BF;
        assert_eq!(reason(problem(&op, &a, &b, &c, &c)), Reason::ComputeType);
        op.compute_type = 78; // CUDA 13's emulated BF16x9
        assert_eq!(reason(problem(&op, &a, &b, &c, &c)), Reason::ComputeType);

        for (e, r) in [
            (epilogue::GELU_AUX, Reason::Epilogue),
            (epilogue::GELU_AUX_BIAS, Reason::Epilogue),
            (epilogue::DGELU_BGRAD, Reason::Epilogue),
            (epilogue::BGRADB, Reason::Epilogue),
        ] {
            let (mut op, a, b, c) = specs(dt::R_16BF, dt::R_16BF);
            op.epilogue = e;
            assert_eq!(reason(problem(&op, &a, &b, &c, &c)), r, "epilogue {e}");
        }
        let (mut op, a, b, c) = specs(dt::R_16BF, dt::R_16BF);
        op.epilogue = epilogue::BIAS;
        op.bias_data_type = dt::R_16F;
        assert_eq!(reason(problem(&op, &a, &b, &c, &c)), Reason::Epilogue);
        // A descriptor reused without a bias epilogue: its BIAS_DATA_TYPE is not read.
        op.epilogue = epilogue::DEFAULT;
        assert!(problem(&op, &a, &b, &c, &c).is_ok());

        let (mut op, a, b, c) = specs(dt::R_16BF, dt::R_16BF);
        op.pointer_mode = pointer_mode::ALPHA_DEVICE_VECTOR_BETA_HOST;
        assert_eq!(reason(problem(&op, &a, &b, &c, &c)), Reason::PointerMode);

        let (op, mut a, b, c) = specs(dt::R_16BF, dt::R_16BF);
        a.order = order::COL32;
        assert_eq!(reason(problem(&op, &a, &b, &c, &c)), Reason::Layout);
        let (mut op, a, b, c) = specs(dt::R_16BF, dt::R_16BF);
        op.trans_c = 1;
        assert_eq!(reason(problem(&op, &a, &b, &c, &c)), Reason::Layout);

        // Malformed: inner dimensions differ. The real library reports it.
        let (op, a, mut b, c) = specs(dt::R_16BF, dt::R_16BF);
        b.rows = 65;
        b.ld = 65;
        assert_eq!(reason(problem(&op, &a, &b, &c, &c)), Reason::Invalid);
        // Unknown compute type: also the real library's to report... as compute type.
        let (mut op, a, b, c) = specs(dt::R_16BF, dt::R_16BF);
        op.compute_type = 12345;
        assert_eq!(reason(problem(&op, &a, &b, &c, &c)), Reason::ComputeType);
    }

    #[test]
    fn math_mode_decides_tf32() {
        use math_mode::*;
        let f32c = |math, env_off| effective_compute(ct::COMPUTE_32F, dt::R_32F, math, env_off);
        assert_eq!(f32c(DEFAULT, false), Ok(ct::COMPUTE_32F));
        assert_eq!(f32c(PEDANTIC, false), Ok(ct::COMPUTE_32F));
        assert_eq!(f32c(TF32_TENSOR_OP, false), Ok(ct::COMPUTE_32F_FAST_TF32));
        // DISALLOW_REDUCED_PRECISION_REDUCTION (16) is a flag on top of the mode.
        assert_eq!(
            f32c(TF32_TENSOR_OP | 16, false),
            Ok(ct::COMPUTE_32F_FAST_TF32)
        );
        assert_eq!(f32c(DEFAULT | 16, false), Ok(ct::COMPUTE_32F));
        assert_eq!(f32c(TF32_TENSOR_OP, true), Ok(ct::COMPUTE_32F));
        assert_eq!(
            f32c(TENSOR_OP, false).unwrap_err().reason,
            Reason::ComputeType
        );
        assert_eq!(f32c(7, false).unwrap_err().reason, Reason::ComputeType);
        // The compute type itself asks for TF32: kept unless TF32 is forbidden.
        let tf =
            |math, env_off| effective_compute(ct::COMPUTE_32F_FAST_TF32, dt::R_32F, math, env_off);
        assert_eq!(tf(DEFAULT, false), Ok(ct::COMPUTE_32F_FAST_TF32));
        assert_eq!(tf(DEFAULT, true), Ok(ct::COMPUTE_32F));
        assert_eq!(tf(PEDANTIC, false), Ok(ct::COMPUTE_32F));
        // Pedantic compute never becomes TF32.
        assert_eq!(
            effective_compute(ct::COMPUTE_32F_PEDANTIC, dt::R_32F, TF32_TENSOR_OP, false),
            Ok(ct::COMPUTE_32F_PEDANTIC)
        );
        // Half-precision inputs: the math mode does not change the compute type.
        assert_eq!(
            effective_compute(ct::COMPUTE_32F, dt::R_16BF, TF32_TENSOR_OP, false),
            Ok(ct::COMPUTE_32F)
        );
        assert_eq!(
            effective_compute(ct::COMPUTE_32F, dt::R_16F, TENSOR_OP, false),
            Ok(ct::COMPUTE_32F)
        );
        // TF32 compute on 16-bit inputs is cuBLAS's to accept or refuse.
        for ab in [dt::R_16BF, dt::R_16F] {
            let e = effective_compute(ct::COMPUTE_32F_FAST_TF32, ab, DEFAULT, false).unwrap_err();
            assert_eq!(e.reason, Reason::ComputeType);
        }
        // ... but pedantic math or compute keeps them on cuBLAS (no tensor cores there).
        for (compute, math) in [
            (ct::COMPUTE_32F, PEDANTIC),
            (ct::COMPUTE_32F_PEDANTIC, DEFAULT),
            (ct::COMPUTE_32F_PEDANTIC, PEDANTIC | 16),
        ] {
            for ab in [dt::R_16BF, dt::R_16F] {
                let e = effective_compute(compute, ab, math, false).unwrap_err();
                assert_eq!(e.reason, Reason::ComputeType);
            }
        }
        // And the resulting problems compute what was decided.
        let (mut op, a, b, c) = specs(dt::R_32F, dt::R_32F);
        op.compute_type = f32c(DEFAULT, false).unwrap();
        assert_eq!(problem(&op, &a, &b, &c, &c).unwrap().math, Math::Ffma);
        op.compute_type = f32c(TF32_TENSOR_OP, false).unwrap();
        assert_eq!(problem(&op, &a, &b, &c, &c).unwrap().math, Math::MmaTf32);
    }

    #[test]
    fn forward_displays_its_reason() {
        let f = Forward::value(Reason::DataType, "A type", 28);
        assert_eq!(f.to_string(), "data_type: A type 28");
        let f = Forward::error(Reason::Deepgemm, Error::NotInitialized("no GPU".into()));
        assert_eq!(f.to_string(), "deepgemm_error: no GPU");
    }
}
