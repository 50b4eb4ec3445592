//! cublasGemmEx / cublasGemmStridedBatchedEx mapped onto the same `GemmProblem` path as
//! cublasLtMatmul (column-major matrices, C is both input and output).

use crate::error::Result;
use crate::invalid;
use crate::problem::{MatrixSpec, OpSpec};
use crate::types::{Op, compute_type, cuda_data_type};

/// cublasMath_t: a base mode in the low bits, flags above them.
pub mod math_mode {
    pub const DEFAULT: i32 = 0;
    /// Deprecated in cuBLAS 11; fp32 work may then run as COMPUTE_32F_FAST_16F there.
    pub const TENSOR_OP: i32 = 1;
    pub const PEDANTIC: i32 = 2;
    pub const TF32_TENSOR_OP: i32 = 3;
    /// A flag: no reductions in a precision below the compute type's. deepgemm's split-k and
    /// Stream-K partials are always fp32, so every plan honours it.
    pub const DISALLOW_REDUCED_PRECISION_REDUCTION: i32 = 16;
    const BASE: i32 = 0xf;

    /// Whether cublasSetMathMode takes `mode`: one of the four base modes, with or without the
    /// flag.
    pub fn is_valid(mode: i32) -> bool {
        mode & !(BASE | DISALLOW_REDUCED_PRECISION_REDUCTION) == 0 && mode & BASE <= TF32_TENSOR_OP
    }

    pub fn base(mode: i32) -> i32 {
        mode & BASE
    }
}

/// The compute type a GemmEx call runs with under the handle's math mode, as cuBLAS decides
/// it: fp32 inputs at COMPUTE_32F take TF32 tensor cores only under
/// CUBLAS_TF32_TENSOR_OP_MATH (and not with NVIDIA_TF32_OVERRIDE=0, `tf32_disabled`);
/// pedantic math keeps the prescribed precision (COMPUTE_32F becomes COMPUTE_32F_PEDANTIC,
/// which runs 16-bit inputs without tensor cores, `GemmProblem::new`, and an explicit
/// COMPUTE_32F_FAST_TF32 on fp32 inputs exact fp32, at least as accurate as asked). The
/// deprecated CUBLAS_TENSOR_OP_MATH would let cuBLAS run fp32 as FAST_16F; deepgemm keeps it
/// exact. The preload library's `effective_compute` (preload/src/decide.rs) follows the same
/// rules but leaves pedantic 16-bit calls to cuBLAS, whose non-tensor-core kernels are faster
/// than deepgemm's portable one.
pub fn effective_compute(compute: i32, ab_type: i32, math: i32, tf32_disabled: bool) -> i32 {
    use compute_type::*;
    let mode = math_mode::base(math);
    let pedantic = mode == math_mode::PEDANTIC;
    match compute {
        COMPUTE_32F if pedantic => COMPUTE_32F_PEDANTIC,
        COMPUTE_32F
            if ab_type == cuda_data_type::R_32F
                && mode == math_mode::TF32_TENSOR_OP
                && !tf32_disabled =>
        {
            COMPUTE_32F_FAST_TF32
        }
        COMPUTE_32F_FAST_TF32
            if ab_type == cuda_data_type::R_32F && (pedantic || tf32_disabled) =>
        {
            COMPUTE_32F
        }
        COMPUTE_16F if pedantic => COMPUTE_16F_PEDANTIC,
        c => c,
    }
}

/// cuBLAS 10's form of GemmEx took the compute type as a cudaDataType (CUDA_R_32F = 0, ...);
/// cublas_api.h keeps such calls compiling in C++ by overloads that migrate the value by the
/// handle's math mode (`cublasMigrateComputeType`). deepgemm's header declares both types as
/// int32_t, so no overload can tell them apart: the call migrates them instead, the same way
/// (the two ranges do not overlap: data types are 0-35, compute types 64-79). Ok(value
/// unchanged) for anything that is not such a data type (an unknown value stays INVALID_VALUE); NOT_SUPPORTED for a data type the
/// migration has no compute type for, as the overloads return.
pub fn migrate_legacy_compute(compute: i32, math: i32) -> Result<i32> {
    use compute_type::*;
    use cuda_data_type as dt;
    if compute_type::is_known(compute) || !dt::is_known(compute) {
        return Ok(compute);
    }
    let pedantic = math_mode::base(math) == math_mode::PEDANTIC;
    let pick = |plain, strict| if pedantic { strict } else { plain };
    match compute {
        dt::R_32F | dt::C_32F => Ok(pick(COMPUTE_32F, COMPUTE_32F_PEDANTIC)),
        dt::R_64F | dt::C_64F => Ok(pick(COMPUTE_64F, COMPUTE_64F_PEDANTIC)),
        dt::R_16F => Ok(pick(COMPUTE_16F, COMPUTE_16F_PEDANTIC)),
        dt::R_32I => Ok(pick(COMPUTE_32I, COMPUTE_32I_PEDANTIC)),
        other => Err(crate::unsupported!(
            "computeType {other} is a cudaDataType with no compute type (cuBLAS 10's form of \
             GemmEx takes CUDA_R_16F, R_32F, C_32F, R_64F, C_64F or R_32I there)"
        )),
    }
}

/// NVIDIA_TF32_OVERRIDE=0: NVIDIA's libraries then use no TF32 for what a math mode merely
/// allows. Read at the first GemmEx that asks (a program may set it before its first GEMM).
pub fn tf32_override_off() -> bool {
    static V: once_cell::sync::OnceCell<bool> = once_cell::sync::OnceCell::new();
    *V.get_or_init(|| std::env::var("NVIDIA_TF32_OVERRIDE").is_ok_and(|v| v.trim() == "0"))
}

/// The integer arguments of a GemmEx call (batch 1, strides 0 for the unbatched form).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemmExArgs {
    pub transa: i32,
    pub transb: i32,
    pub m: i32,
    pub n: i32,
    pub k: i32,
    pub a_type: i32,
    pub lda: i32,
    pub stride_a: i64,
    pub b_type: i32,
    pub ldb: i32,
    pub stride_b: i64,
    pub c_type: i32,
    pub ldc: i32,
    pub stride_c: i64,
    pub batch: i32,
    pub compute_type: i32,
    pub algo: i32,
}

impl GemmExArgs {
    /// The GemmEx arguments of cublasSgemm (`batch` 1, strides 0) or cublasSgemmStridedBatched:
    /// fp32 A, B and C, COMPUTE_32F (the handle's math mode then decides TF32), the default
    /// algo.
    pub fn sgemm(
        transa: i32,
        transb: i32,
        [m, n, k]: [i32; 3],
        [lda, ldb, ldc]: [i32; 3],
        [stride_a, stride_b, stride_c]: [i64; 3],
        batch: i32,
    ) -> GemmExArgs {
        let f32 = cuda_data_type::R_32F;
        GemmExArgs {
            transa,
            transb,
            m,
            n,
            k,
            a_type: f32,
            lda,
            stride_a,
            b_type: f32,
            ldb,
            stride_b,
            c_type: f32,
            ldc,
            stride_c,
            batch,
            compute_type: compute_type::COMPUTE_32F,
            algo: -1,
        }
    }
}

/// cublasGemmAlgo_t values cuBLAS defines (AUTOTUNE excluded); all mean "default" here.
pub fn algo_is_known(algo: i32) -> bool {
    matches!(algo, -1 | 0..=23 | 99 | 100..=115)
}

/// The scale type (type of alpha and beta) cuBLAS implies for a compute type.
pub fn scale_type_for(compute: i32) -> i32 {
    match compute {
        compute_type::COMPUTE_16F | compute_type::COMPUTE_16F_PEDANTIC => cuda_data_type::R_16F,
        compute_type::COMPUTE_64F | compute_type::COMPUTE_64F_PEDANTIC => cuda_data_type::R_64F,
        compute_type::COMPUTE_32I | compute_type::COMPUTE_32I_PEDANTIC => cuda_data_type::R_32I,
        _ => cuda_data_type::R_32F,
    }
}

/// The call as descriptors. `Ok(None)` when there is nothing to do (m, n or batchCount
/// is 0: cuBLAS returns SUCCESS after checking the arguments). k == 0 is not "nothing":
/// as in BLAS, C = beta * C then.
pub fn describe(x: &GemmExArgs) -> Result<Option<(OpSpec, MatrixSpec, MatrixSpec, MatrixSpec)>> {
    let op_a = Op::from_cuda(x.transa)
        .ok_or_else(|| invalid!("transa: invalid operation {}", x.transa))?;
    let op_b = Op::from_cuda(x.transb)
        .ok_or_else(|| invalid!("transb: invalid operation {}", x.transb))?;
    for (name, v) in [("m", x.m), ("n", x.n), ("k", x.k), ("batchCount", x.batch)] {
        if v < 0 {
            return Err(invalid!("{name} = {v} < 0"));
        }
    }
    let (m, n, k) = (x.m as u64, x.n as u64, x.k as u64);
    // Stored shapes (column-major): A is m x k or k x m, B k x n or n x k, C m x n.
    let (a_rows, a_cols) = if op_a == Op::N { (m, k) } else { (k, m) };
    let (b_rows, b_cols) = if op_b == Op::N { (k, n) } else { (n, k) };
    for (name, ld, rows) in [
        ("lda", x.lda, a_rows),
        ("ldb", x.ldb, b_rows),
        ("ldc", x.ldc, m),
    ] {
        if (ld as i64) < rows.max(1) as i64 {
            return Err(invalid!("{name} = {ld} < max(1, {rows})"));
        }
    }
    if !algo_is_known(x.algo) {
        return Err(invalid!("unknown algo {}", x.algo));
    }
    if m == 0 || n == 0 || x.batch == 0 {
        return Ok(None);
    }
    super::matmul::reject_emulated(x.compute_type)?;
    let mut op = OpSpec::new(x.compute_type, scale_type_for(x.compute_type));
    op.trans_a = x.transa;
    op.trans_b = x.transb;
    let spec = |dtype, rows, cols, ld: i32, stride| MatrixSpec {
        batch_count: x.batch,
        batch_stride: stride,
        ..MatrixSpec::col(dtype, rows, cols, ld as i64)
    };
    let a = spec(x.a_type, a_rows, a_cols, x.lda, x.stride_a);
    let b = spec(x.b_type, b_rows, b_cols, x.ldb, x.stride_b);
    let c = spec(x.c_type, m, n, x.ldc, x.stride_c);
    Ok(Some((op, a, b, c)))
}

#[cfg(test)]
mod tests {
    use super::math_mode::*;
    use super::*;
    use crate::types::compute_type::*;
    use crate::types::cuda_data_type::{R_16BF, R_16F, R_32F};

    #[test]
    fn math_modes_cublas_takes() {
        for m in [0, 1, 2, 3, 16, 17, 18, 19] {
            assert!(is_valid(m), "{m}");
        }
        for m in [-1, 4, 5, 15, 20, 32, 48, 1 << 20] {
            assert!(!is_valid(m), "{m}");
        }
    }

    #[test]
    fn legacy_data_type_compute_types_migrate_as_cublas_overloads_do() {
        use crate::types::cuda_data_type as dt;
        let m = |c, math| migrate_legacy_compute(c, math);
        for math in [DEFAULT, TENSOR_OP, TF32_TENSOR_OP, TF32_TENSOR_OP | 16] {
            assert_eq!(m(dt::R_32F, math).unwrap(), COMPUTE_32F);
            assert_eq!(m(dt::C_32F, math).unwrap(), COMPUTE_32F);
            assert_eq!(m(dt::R_64F, math).unwrap(), COMPUTE_64F);
            assert_eq!(m(dt::C_64F, math).unwrap(), COMPUTE_64F);
            assert_eq!(m(dt::R_16F, math).unwrap(), COMPUTE_16F);
            assert_eq!(m(dt::R_32I, math).unwrap(), COMPUTE_32I);
        }
        for math in [PEDANTIC, PEDANTIC | DISALLOW_REDUCED_PRECISION_REDUCTION] {
            assert_eq!(m(dt::R_32F, math).unwrap(), COMPUTE_32F_PEDANTIC);
            assert_eq!(m(dt::R_64F, math).unwrap(), COMPUTE_64F_PEDANTIC);
            assert_eq!(m(dt::R_16F, math).unwrap(), COMPUTE_16F_PEDANTIC);
            assert_eq!(m(dt::R_32I, math).unwrap(), COMPUTE_32I_PEDANTIC);
        }
        // Data types the overloads reject.
        for c in [dt::R_16BF, dt::C_16F, dt::R_8I, dt::R_8F_E4M3, dt::C_32I] {
            assert!(
                matches!(m(c, DEFAULT), Err(crate::Error::NotSupported(_))),
                "{c}"
            );
        }
        // Compute types, and values of neither kind (GemmProblem refuses those), unchanged.
        for c in [
            COMPUTE_32F,
            COMPUTE_32F_FAST_TF32,
            COMPUTE_16F_PEDANTIC,
            66,
            80,
            -1,
            1000,
            // Below 64 but no cudaDataType either: INVALID_VALUE later, as 66 is.
            36,
            40,
            63,
        ] {
            assert_eq!(m(c, PEDANTIC).unwrap(), c);
        }
        // Then the math mode decides TF32 as for COMPUTE_32F itself.
        let legacy = m(dt::R_32F, TF32_TENSOR_OP).unwrap();
        assert_eq!(
            effective_compute(legacy, R_32F, TF32_TENSOR_OP, false),
            COMPUTE_32F_FAST_TF32
        );
    }

    #[test]
    fn math_mode_decides_the_compute_type() {
        let f32c = |math, off| effective_compute(COMPUTE_32F, R_32F, math, off);
        // fp32 at COMPUTE_32F: TF32 only under TF32_TENSOR_OP_MATH, flags aside, and not
        // with the override.
        assert_eq!(f32c(DEFAULT, false), COMPUTE_32F);
        assert_eq!(f32c(TENSOR_OP, false), COMPUTE_32F);
        assert_eq!(f32c(TF32_TENSOR_OP, false), COMPUTE_32F_FAST_TF32);
        assert_eq!(
            f32c(TF32_TENSOR_OP | DISALLOW_REDUCED_PRECISION_REDUCTION, false),
            COMPUTE_32F_FAST_TF32
        );
        assert_eq!(f32c(TF32_TENSOR_OP, true), COMPUTE_32F);
        assert_eq!(f32c(PEDANTIC, false), COMPUTE_32F_PEDANTIC);
        // An explicit FAST_TF32 stays, unless pedantic math or the override forbid TF32.
        let tf = |math, off| effective_compute(COMPUTE_32F_FAST_TF32, R_32F, math, off);
        assert_eq!(tf(DEFAULT, false), COMPUTE_32F_FAST_TF32);
        assert_eq!(tf(TF32_TENSOR_OP, false), COMPUTE_32F_FAST_TF32);
        assert_eq!(tf(PEDANTIC, false), COMPUTE_32F);
        assert_eq!(tf(DEFAULT, true), COMPUTE_32F);
        // 16-bit inputs: the math mode changes nothing but pedantic's naming.
        for ab in [R_16F, R_16BF] {
            for math in [DEFAULT, TENSOR_OP, TF32_TENSOR_OP] {
                assert_eq!(effective_compute(COMPUTE_32F, ab, math, false), COMPUTE_32F);
            }
            assert_eq!(
                effective_compute(COMPUTE_32F, ab, PEDANTIC, false),
                COMPUTE_32F_PEDANTIC
            );
            assert_eq!(
                effective_compute(COMPUTE_32F_FAST_TF32, ab, PEDANTIC, false),
                COMPUTE_32F_FAST_TF32
            );
        }
        assert_eq!(
            effective_compute(COMPUTE_16F, R_16F, PEDANTIC, false),
            COMPUTE_16F_PEDANTIC
        );
        assert_eq!(
            effective_compute(COMPUTE_16F, R_16F, TF32_TENSOR_OP, false),
            COMPUTE_16F
        );
    }
}
