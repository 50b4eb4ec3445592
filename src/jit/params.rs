//! The kernel parameter block, passed by value to every portable kernel.
//!
//! Mirrors `struct GemmParams` in kernels/common/params.cuh field for field; every field is
//! 8 bytes except the trailing four 4-byte ones, so the C and Rust layouts agree without
//! padding rules (a CPU test checks the size, and the kernel side static_asserts it).

use crate::problem::{GemmPointers, GemmProblem};
use crate::types::ScalarType;

pub const FLAG_BIAS: i32 = 1;
pub const FLAG_BIAS_F32: i32 = 2;

/// FLAG_BIAS / FLAG_BIAS_F32 for `p` (the same bits in every kernel family's parameters).
pub fn bias_flags(p: &GemmProblem) -> i32 {
    match (p.epilogue.bias, p.bias_type) {
        (false, _) => 0,
        (true, ScalarType::F32) => FLAG_BIAS | FLAG_BIAS_F32,
        (true, _) => FLAG_BIAS,
    }
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GemmParams {
    pub a: u64,
    pub b: u64,
    pub c: u64,
    pub d: u64,
    pub bias: u64,
    /// Non-zero in pointer mode DEVICE: alpha is read from here instead of `alpha`.
    pub alpha_ptr: u64,
    pub beta_ptr: u64,
    pub m: i64,
    pub n: i64,
    pub k: i64,
    pub batch: i64,
    /// op(A)(i, kk) = a[i*a_ms + kk*a_ks + batch*a_bs]
    pub a_ms: i64,
    pub a_ks: i64,
    pub a_bs: i64,
    /// op(B)(kk, j) = b[kk*b_ks + j*b_ns + batch*b_bs]
    pub b_ks: i64,
    pub b_ns: i64,
    pub b_bs: i64,
    pub c_ms: i64,
    pub c_ns: i64,
    pub c_bs: i64,
    pub d_ms: i64,
    pub d_ns: i64,
    pub d_bs: i64,
    pub bias_bs: i64,
    pub alpha: f32,
    pub beta: f32,
    /// `Activation` as i32: 0 none, 1 ReLU, 2 GELU (tanh).
    pub activation: i32,
    /// FLAG_* bits.
    pub flags: i32,
}

pub const GEMM_PARAMS_SIZE: usize = 24 * 8 + 4 * 4;
const _: () = assert!(std::mem::size_of::<GemmParams>() == GEMM_PARAMS_SIZE);

impl GemmParams {
    pub fn new(p: &GemmProblem, ptr: &GemmPointers) -> Self {
        let flags = bias_flags(p);
        let (alpha, alpha_ptr) = ptr.alpha.split();
        let (beta, beta_ptr) = ptr.beta.split();
        GemmParams {
            a: ptr.a,
            b: ptr.b,
            c: ptr.c,
            d: ptr.d,
            bias: if p.epilogue.bias { ptr.bias } else { 0 },
            alpha_ptr,
            beta_ptr,
            m: p.m as i64,
            n: p.n as i64,
            k: p.k as i64,
            batch: p.batch as i64,
            a_ms: p.a.row,
            a_ks: p.a.col,
            a_bs: p.a.batch,
            b_ks: p.b.row,
            b_ns: p.b.col,
            b_bs: p.b.batch,
            c_ms: p.c.row,
            c_ns: p.c.col,
            c_bs: p.c.batch,
            d_ms: p.d.row,
            d_ns: p.d.col,
            d_bs: p.d.batch,
            bias_bs: p.bias_batch_stride,
            alpha,
            beta,
            activation: p.epilogue.activation as i32,
            flags,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::{MatrixSpec, OpSpec, Scalar};
    use crate::types::{Activation, cuda_data_type::*, epilogue, order};

    #[test]
    fn params_follow_the_problem() {
        let mut op = OpSpec::new(68, R_32F);
        op.trans_b = 1;
        op.epilogue = epilogue::RELU_BIAS;
        let a = MatrixSpec::col(R_16F, 30, 20, 32);
        let b = MatrixSpec::col(R_16F, 10, 20, 11); // op(B) = B^T: 20 x 10
        let mut c = MatrixSpec::col(R_16F, 30, 10, 12);
        c.order = order::ROW;
        let p = GemmProblem::new(&op, &a, &b, &c, &c).unwrap();
        let ptrs = GemmPointers {
            alpha: Scalar::Host(1.5),
            beta: Scalar::Device(0x5000),
            a: 0x1000,
            b: 0x2000,
            c: 0x3000,
            d: 0x4000,
            bias: 0x6000,
        };
        let g = GemmParams::new(&p, &ptrs);
        assert_eq!((g.m, g.n, g.k, g.batch), (30, 10, 20, 1));
        assert_eq!((g.a_ms, g.a_ks), (1, 32));
        assert_eq!((g.b_ks, g.b_ns), (11, 1), "op(B)(kk, j) = B[j + 11 kk]");
        assert_eq!((g.d_ms, g.d_ns), (12, 1), "row-major D");
        assert_eq!((g.alpha, g.alpha_ptr), (1.5, 0));
        assert_eq!((g.beta, g.beta_ptr), (0.0, 0x5000));
        assert_eq!(g.flags, FLAG_BIAS, "bias of D's type");
        assert_eq!(g.bias, 0x6000);
        assert_eq!(g.activation, Activation::Relu as i32);
        op.bias_data_type = R_32F;
        let p = GemmProblem::new(&op, &a, &b, &c, &c).unwrap();
        assert_eq!(bias_flags(&p), FLAG_BIAS | FLAG_BIAS_F32);
        op.epilogue = epilogue::GELU;
        let p = GemmProblem::new(&op, &a, &b, &c, &c).unwrap();
        let g = GemmParams::new(&p, &ptrs);
        assert_eq!(
            (g.flags, g.bias),
            (0, 0),
            "no bias epilogue: no bias pointer"
        );
    }
}
