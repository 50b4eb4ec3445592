//! One GEMM as plain data: what the descriptors said, validated and normalised.
//!
//! `GemmProblem::new` holds every semantic rule of cuBLASLt that deepgemm enforces (shapes
//! against transposes, leading dimensions, batches, types, compute type, epilogue). It is
//! pure Rust (no CUDA), so the rules are unit-tested on any machine.
//!
//! Matrices are normalised to element strides of the *logical* operand: op(A) is m x k and
//! its element (i, kk) lives at `A + i*a.ms + kk*a.ks + batch*a.bs`; likewise op(B) (k x n,
//! strides `ks`, `ns`), C and D (m x n). Transposes and row/column order disappear here, so
//! kernels see one form.

use crate::error::Result;
use crate::types::{
    Epilogue, Math, Op, Order, PointerMode, ScalarType, compute_type, cuda_data_type, epilogue,
    order, pointer_mode,
};
use crate::{invalid, unsupported};

/// A matrix layout as the caller described it (cublasLtMatrixLayout attributes), raw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatrixSpec {
    pub dtype: i32,
    pub order: i32,
    pub rows: u64,
    pub cols: u64,
    pub ld: i64,
    pub batch_count: i32,
    pub batch_stride: i64,
}

impl MatrixSpec {
    /// A column-major, unbatched layout (what cublasGemmEx describes).
    pub fn col(dtype: i32, rows: u64, cols: u64, ld: i64) -> Self {
        MatrixSpec {
            dtype,
            order: order::COL,
            rows,
            cols,
            ld,
            batch_count: 1,
            batch_stride: 0,
        }
    }
}

/// The matmul descriptor's attributes that decide the operation, raw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpSpec {
    pub compute_type: i32,
    pub scale_type: i32,
    pub pointer_mode: i32,
    pub trans_a: i32,
    pub trans_b: i32,
    pub trans_c: i32,
    pub epilogue: i32,
    /// -1 (cuBLASLt's default) means "the type of D".
    pub bias_data_type: i32,
    pub bias_batch_stride: i64,
}

impl OpSpec {
    pub fn new(compute_type: i32, scale_type: i32) -> Self {
        OpSpec {
            compute_type,
            scale_type,
            pointer_mode: pointer_mode::HOST,
            trans_a: 0,
            trans_b: 0,
            trans_c: 0,
            epilogue: epilogue::DEFAULT,
            bias_data_type: -1,
            bias_batch_stride: 0,
        }
    }
}

/// Element strides of one logical (post-op) operand: op(A) m x k, op(B) k x n, C/D m x n.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Strides {
    /// Stride between consecutive rows of the logical (post-op) matrix.
    pub row: i64,
    /// Stride between consecutive columns of the logical matrix.
    pub col: i64,
    /// Stride between batches.
    pub batch: i64,
}

/// A validated GEMM: D = act(alpha * op(A) op(B) + beta * C + bias), batched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GemmProblem {
    pub m: u64,
    pub n: u64,
    pub k: u64,
    pub batch: u64,
    pub ab_type: ScalarType,
    pub cd_type: ScalarType,
    pub math: Math,
    pub op_a: Op,
    pub op_b: Op,
    pub a: Strides,
    pub b: Strides,
    pub c: Strides,
    pub d: Strides,
    pub epilogue: Epilogue,
    /// Bias element type (only meaningful when `epilogue.bias`).
    pub bias_type: ScalarType,
    pub bias_batch_stride: i64,
    pub pointer_mode: PointerMode,
    /// Element extent (max offset + 1) of each operand over all batches, for bounds reasoning.
    pub extent: [u64; 4],
}

fn stored_strides(spec: &MatrixSpec, ord: Order) -> (i64, i64) {
    match ord {
        Order::Col => (1, spec.ld),
        Order::Row => (spec.ld, 1),
    }
}

fn check_layout(name: &str, spec: &MatrixSpec) -> Result<Order> {
    if !cuda_data_type::is_known(spec.dtype) {
        return Err(invalid!("{name}: unknown data type {}", spec.dtype));
    }
    let ord = match spec.order {
        order::COL => Order::Col,
        order::ROW => Order::Row,
        o if order::is_known(o) => {
            return Err(unsupported!(
                "{name}: matrix order {o} (only COL and ROW are supported)"
            ));
        }
        o => return Err(invalid!("{name}: unknown matrix order {o}")),
    };
    if spec.rows > i64::MAX as u64 || spec.cols > i64::MAX as u64 {
        return Err(invalid!(
            "{name}: dimensions {}x{} overflow int64",
            spec.rows,
            spec.cols
        ));
    }
    let min_ld = match ord {
        Order::Col => spec.rows,
        Order::Row => spec.cols,
    };
    if spec.ld < 0 || (spec.ld as u64) < min_ld.max(1) {
        return Err(invalid!(
            "{name}: leading dimension {} < {} ({} order, {}x{})",
            spec.ld,
            min_ld.max(1),
            if ord == Order::Col { "column" } else { "row" },
            spec.rows,
            spec.cols
        ));
    }
    if spec.batch_count < 1 {
        return Err(invalid!("{name}: batch count {} < 1", spec.batch_count));
    }
    Ok(ord)
}

/// Largest element offset + 1 touched by a logical rows x cols matrix with these strides,
/// over `batch` batches; an error when it does not fit in int64.
fn extent(name: &str, rows: u64, cols: u64, s: Strides, batch: u64) -> Result<u64> {
    if rows == 0 || cols == 0 {
        return Ok(0);
    }
    let ovf = || invalid!("{name}: element offsets overflow int64");
    let last = |x: u64, stride: i64| -> Result<i128> { Ok((x as i128 - 1) * stride as i128) };
    let mut max = last(rows, s.row)? + last(cols, s.col)?;
    if batch > 1 && s.batch > 0 {
        max += last(batch, s.batch)?;
    }
    if max < 0 || max >= i64::MAX as i128 {
        return Err(ovf());
    }
    Ok(max as u64 + 1)
}

impl GemmProblem {
    /// Validates the descriptors as cuBLASLt would. INVALID_VALUE for malformed input,
    /// NOT_SUPPORTED for well-formed requests deepgemm does not implement.
    pub fn new(
        op: &OpSpec,
        a: &MatrixSpec,
        b: &MatrixSpec,
        c: &MatrixSpec,
        d: &MatrixSpec,
    ) -> Result<GemmProblem> {
        let op_a = Op::from_cuda(op.trans_a)
            .ok_or_else(|| invalid!("TRANSA: invalid operation {}", op.trans_a))?;
        let op_b = Op::from_cuda(op.trans_b)
            .ok_or_else(|| invalid!("TRANSB: invalid operation {}", op.trans_b))?;
        match Op::from_cuda(op.trans_c) {
            Some(Op::N) => {}
            Some(Op::T) => return Err(unsupported!("TRANSC must be CUBLAS_OP_N")),
            None => return Err(invalid!("TRANSC: invalid operation {}", op.trans_c)),
        }
        let ord_a = check_layout("A", a)?;
        let ord_b = check_layout("B", b)?;
        let ord_c = check_layout("C", c)?;
        let ord_d = check_layout("D", d)?;

        // Shapes: op(A) is m x k, op(B) k x n, C and D m x n.
        let (m, k) = match op_a {
            Op::N => (a.rows, a.cols),
            Op::T => (a.cols, a.rows),
        };
        let (kb, n) = match op_b {
            Op::N => (b.rows, b.cols),
            Op::T => (b.cols, b.rows),
        };
        if kb != k {
            return Err(invalid!(
                "op(A) is {m}x{k} but op(B) is {kb}x{n}: inner dimensions differ"
            ));
        }
        for (name, s) in [("C", c), ("D", d)] {
            if s.rows != m || s.cols != n {
                return Err(invalid!(
                    "{name} is {}x{} but op(A) op(B) is {m}x{n}",
                    s.rows,
                    s.cols
                ));
            }
        }
        let batch = d.batch_count;
        for (name, s) in [("A", a), ("B", b), ("C", c)] {
            if s.batch_count != batch {
                return Err(invalid!(
                    "{name} batch count {} differs from D's {batch}",
                    s.batch_count
                ));
            }
        }

        // Types.
        if !compute_type::is_known(op.compute_type) {
            return Err(invalid!("unknown compute type {}", op.compute_type));
        }
        let ab_type = ScalarType::from_cuda(a.dtype)
            .ok_or_else(|| unsupported!("A type {} (supported: R_32F, R_16F, R_16BF)", a.dtype))?;
        if b.dtype != a.dtype {
            return Err(unsupported!(
                "A type {} and B type {} differ",
                a.dtype,
                b.dtype
            ));
        }
        if c.dtype != d.dtype {
            return Err(unsupported!(
                "C type {} and D type {} differ",
                c.dtype,
                d.dtype
            ));
        }
        let cd_type = ScalarType::from_cuda(d.dtype)
            .ok_or_else(|| unsupported!("D type {} is not supported", d.dtype))?;
        if cd_type != ab_type && cd_type != ScalarType::F32 {
            return Err(unsupported!(
                "D type {} with A type {}: D must be the type of A or R_32F",
                d.dtype,
                a.dtype
            ));
        }
        let math = match (op.compute_type, ab_type) {
            (compute_type::COMPUTE_32F | compute_type::COMPUTE_32F_PEDANTIC, ScalarType::F32) => {
                Math::Ffma
            }
            (compute_type::COMPUTE_32F_FAST_TF32, ScalarType::F32) => Math::MmaTf32,
            (
                compute_type::COMPUTE_32F
                | compute_type::COMPUTE_32F_PEDANTIC
                | compute_type::COMPUTE_32F_FAST_TF32,
                _,
            ) => Math::Mma,
            (ct, _) => {
                return Err(unsupported!(
                    "compute type {ct} with A type {} (supported: COMPUTE_32F, \
                     COMPUTE_32F_PEDANTIC, COMPUTE_32F_FAST_TF32)",
                    a.dtype
                ));
            }
        };
        if op.scale_type != cuda_data_type::R_32F {
            return Err(unsupported!(
                "scale type {} (COMPUTE_32F needs R_32F)",
                op.scale_type
            ));
        }
        let pointer_mode = match PointerMode::from_cuda(op.pointer_mode) {
            Some(p) => p,
            None if pointer_mode::is_known(op.pointer_mode) => {
                return Err(unsupported!(
                    "pointer mode {} (only HOST and DEVICE)",
                    op.pointer_mode
                ));
            }
            None => return Err(invalid!("unknown pointer mode {}", op.pointer_mode)),
        };
        let epi = match Epilogue::from_cuda(op.epilogue) {
            Some(e) => e,
            None if epilogue::is_known(op.epilogue) => {
                return Err(unsupported!(
                    "epilogue {} (supported: DEFAULT, RELU, BIAS, RELU_BIAS, GELU, GELU_BIAS)",
                    op.epilogue
                ));
            }
            None => return Err(invalid!("unknown epilogue {}", op.epilogue)),
        };
        let bias_type = if op.bias_data_type == -1 {
            cd_type
        } else {
            match ScalarType::from_cuda(op.bias_data_type) {
                Some(t) if t == cd_type || t == ScalarType::F32 => t,
                _ => {
                    return Err(unsupported!(
                        "bias type {} (must be D's type or R_32F)",
                        op.bias_data_type
                    ));
                }
            }
        };

        let logical = |spec: &MatrixSpec, ord: Order, op: Op| -> Strides {
            let (sr, sc) = stored_strides(spec, ord);
            let (row, col) = match op {
                Op::N => (sr, sc),
                Op::T => (sc, sr),
            };
            Strides {
                row,
                col,
                batch: spec.batch_stride,
            }
        };
        let sa = logical(a, ord_a, op_a);
        let sb = logical(b, ord_b, op_b);
        let sc = logical(c, ord_c, Op::N);
        let sd = logical(d, ord_d, Op::N);
        let batch = batch as u64;
        let extent = [
            extent("A", m, k, sa, batch)?,
            extent("B", k, n, sb, batch)?,
            extent("C", m, n, sc, batch)?,
            extent("D", m, n, sd, batch)?,
        ];
        Ok(GemmProblem {
            m,
            n,
            k,
            batch,
            ab_type,
            cd_type,
            math,
            op_a,
            op_b,
            a: sa,
            b: sb,
            c: sc,
            d: sd,
            epilogue: epi,
            bias_type,
            bias_batch_stride: op.bias_batch_stride,
            pointer_mode,
            extent,
        })
    }

    /// Multiply-adds times two.
    pub fn flops(&self) -> f64 {
        2.0 * self.m as f64 * self.n as f64 * self.k as f64 * self.batch as f64
    }

    /// Nothing to compute: D is empty.
    pub fn is_empty(&self) -> bool {
        self.m == 0 || self.n == 0
    }
}

/// alpha or beta: a host value or (pointer mode DEVICE) a device address of one float.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Host(f32),
    Device(u64),
}

/// The device addresses of one call, as the caller passed them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GemmPointers {
    pub alpha: Scalar,
    pub beta: Scalar,
    pub a: u64,
    pub b: u64,
    pub c: u64,
    pub d: u64,
    /// 0 when the epilogue has no bias.
    pub bias: u64,
}

impl GemmPointers {
    /// Null and alignment checks that need the problem (element-size alignment: the
    /// portable kernels read single elements; faster paths check their own rules).
    pub fn check(&self, p: &GemmProblem) -> Result<()> {
        let need = |name: &str, ptr: u64, used: bool, align: usize| -> Result<()> {
            if !used {
                return Ok(());
            }
            if ptr == 0 {
                return Err(invalid!("{name} is NULL"));
            }
            if ptr % align as u64 != 0 {
                return Err(invalid!(
                    "{name} = {ptr:#x} is not aligned to its element size {align}"
                ));
            }
            Ok(())
        };
        let nonempty = !p.is_empty();
        let ab = p.ab_type.size_bytes();
        let cd = p.cd_type.size_bytes();
        need("A", self.a, nonempty && p.k > 0, ab)?;
        need("B", self.b, nonempty && p.k > 0, ab)?;
        need("D", self.d, nonempty, cd)?;
        // C is read only when beta may be non-zero; with beta on the device we cannot know.
        let c_used = nonempty
            && match self.beta {
                Scalar::Host(b) => b != 0.0,
                Scalar::Device(_) => true,
            };
        need("C", self.c, c_used, cd)?;
        need(
            "bias pointer (EPILOGUE needs BIAS_POINTER)",
            self.bias,
            nonempty && p.epilogue.bias,
            p.bias_type.size_bytes(),
        )?;
        for (name, s) in [("alpha", self.alpha), ("beta", self.beta)] {
            if let Scalar::Device(ptr) = s {
                need(name, ptr, true, 4)?;
            }
        }
        if self.c == self.d && c_used && p.c != p.d {
            return Err(invalid!(
                "C aliases D but their layouts differ (in-place needs identical layouts)"
            ));
        }
        Ok(())
    }
}
