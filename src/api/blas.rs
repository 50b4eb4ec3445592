//! cublasGemmEx / cublasGemmStridedBatchedEx mapped onto the same `GemmProblem` path as
//! cublasLtMatmul (column-major matrices, C is both input and output).

use crate::error::Result;
use crate::invalid;
use crate::problem::{MatrixSpec, OpSpec};
use crate::types::{Op, compute_type, cuda_data_type};

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
