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
    /// The bias runs along n (one value per column of D) instead of m: set only by
    /// `transposed`, whose columns are the caller's rows.
    pub bias_along_n: bool,
    /// A, B, C and D are device arrays of `batch` device pointers, one matrix each
    /// (cublasGemmBatchedEx; batch strides 0): only the portable kernel's pointer-array
    /// variant runs it (`plan::candidates`). Set by the caller after `new`.
    pub pointer_arrays: bool,
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
    if name == "C" && spec.ld == 0 {
        // cuBLASLt's row / column broadcast of C (ld 0, out of place): a valid request that
        // deepgemm does not implement (a review: it said INVALID_VALUE).
        return Err(unsupported!(
            "C: leading dimension 0 (C broadcast along its {}) is not supported",
            if ord == Order::Col { "columns" } else { "rows" }
        ));
    }
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
    // Batches before the base (a negative stride) must be addressable too (a review).
    if batch > 1 && s.batch < 0 && last(batch, s.batch)? < i64::MIN as i128 {
        return Err(ovf());
    }
    if max < 0 || max >= i64::MAX as i128 {
        return Err(ovf());
    }
    Ok(max as u64 + 1)
}

/// The strides of a logical `rows` x `cols` matrix with one row (or column), which never steps
/// along its rows (columns): when it is contiguous along the other dimension, the unused
/// stride becomes the line length rounded up to 16 elements. The layout then reads as the
/// contiguous line it is (an m = 1 column-major D with ld = 1 is one row, as TMA and the
/// TMA-store epilogue can take it) instead of a column-major matrix with a 2-byte ld.
fn unit_extent_strides(rows: u64, cols: u64, s: Strides) -> Strides {
    let line = |len: u64| len.max(1).next_multiple_of(16).min(i64::MAX as u64) as i64;
    if rows == 1 && s.col == 1 {
        Strides {
            row: line(cols),
            ..s
        }
    } else if cols == 1 && s.row == 1 {
        Strides {
            col: line(rows),
            ..s
        }
    } else {
        s
    }
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
        // D before C: a NULL Cdesc is Ddesc, and D's ld of 0 is malformed (INVALID_VALUE),
        // not the C broadcast deepgemm lacks (NOT_SUPPORTED; a review).
        let ord_d = check_layout("D", d)?;
        let ord_c = check_layout("C", c)?;

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
            // Pedantic: no tensor cores, as in cuBLAS (their fp32 sums are not IEEE's): exact
            // products of the 16-bit values, fp32 FMAs (the portable FFMA kernel). Before session
            // 52 these ran on tensor cores like COMPUTE_32F.
            (compute_type::COMPUTE_32F_PEDANTIC, _) => Math::Ffma,
            (compute_type::COMPUTE_32F | compute_type::COMPUTE_32F_FAST_TF32, _) => Math::Mma,
            // 16-bit inputs under a "down-convert fp32 to 16-bit" compute type: nothing to
            // down-convert, so COMPUTE_32F's math, as cuBLASLt runs them (a review found them
            // NOT_SUPPORTED). fp32 inputs there (rounded to fp16 / bf16) stay unsupported.
            (
                compute_type::COMPUTE_32F_FAST_16F | compute_type::COMPUTE_32F_FAST_16BF,
                ScalarType::F16 | ScalarType::BF16,
            ) => Math::Mma,
            (ct, _) => {
                return Err(unsupported!(
                    "compute type {ct} with A type {} (supported: COMPUTE_32F, \
                     COMPUTE_32F_PEDANTIC, COMPUTE_32F_FAST_TF32; COMPUTE_32F_FAST_16F and \
                     _FAST_16BF with 16-bit inputs)",
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
        // BIAS_DATA_TYPE matters only with a bias: a descriptor reused for a plain GEMM may
        // still carry one (cuBLASLt documents it for the bias epilogues only).
        let bias_type = if op.bias_data_type == -1 || !epi.bias {
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
        let sa = unit_extent_strides(m, k, logical(a, ord_a, op_a));
        let sb = unit_extent_strides(k, n, logical(b, ord_b, op_b));
        let sc = unit_extent_strides(m, n, logical(c, ord_c, Op::N));
        let sd = unit_extent_strides(m, n, logical(d, ord_d, Op::N));
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
            bias_along_n: false,
            pointer_arrays: false,
        })
    }

    /// The same product transposed: D^T = op(B)^T op(A)^T, an n x m problem over the same
    /// memory (B is its A, A its B, every stride pair exchanged; the bias then runs along its
    /// n). A small-m problem computed this way gets a small n, the case the narrow tiles serve.
    /// `GemmPointers::swapped` is the matching exchange of the pointers.
    pub fn transposed(&self) -> GemmProblem {
        let t = |s: Strides| Strides {
            row: s.col,
            col: s.row,
            batch: s.batch,
        };
        let flip = |op: Op| match op {
            Op::N => Op::T,
            Op::T => Op::N,
        };
        GemmProblem {
            m: self.n,
            n: self.m,
            op_a: flip(self.op_b),
            op_b: flip(self.op_a),
            a: t(self.b),
            b: t(self.a),
            c: t(self.c),
            d: t(self.d),
            extent: [
                self.extent[1],
                self.extent[0],
                self.extent[2],
                self.extent[3],
            ],
            bias_along_n: !self.bias_along_n,
            ..*self
        }
    }

    /// The block of D rows `m0..m0 + mc` and columns `n0..n0 + nc` as a problem of its own:
    /// the same k, batches, types, epilogue and strides, over op(A)'s rows `m0..` and op(B)'s
    /// columns `n0..` (`GemmPointers::block` moves the pointers there). Every element of D is
    /// in exactly one block of a partition, and a block's D depends only on its own rows of
    /// op(A) and columns of op(B), so the blocks of a partition compute the whole product.
    /// The block must lie inside D (`m0 + mc <= m`, `n0 + nc <= n`, neither empty).
    pub fn block(&self, m0: u64, mc: u64, n0: u64, nc: u64) -> GemmProblem {
        debug_assert!(mc > 0 && nc > 0 && m0 + mc <= self.m && n0 + nc <= self.n);
        let (m, n, k, batch) = (mc, nc, self.k, self.batch);
        // A sub-matrix of a valid operand never reaches further than the operand itself.
        let ext = |rows: u64, cols: u64, s: Strides| {
            let s = unit_extent_strides(rows, cols, s);
            (s, extent("", rows, cols, s, batch).unwrap_or(0))
        };
        let (a, ea) = ext(m, k, self.a);
        let (b, eb) = ext(k, n, self.b);
        let (c, ec) = ext(m, n, self.c);
        let (d, ed) = ext(m, n, self.d);
        GemmProblem {
            m,
            n,
            a,
            b,
            c,
            d,
            extent: [ea, eb, ec, ed],
            ..*self
        }
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

impl Scalar {
    /// The kernels' form: (host value, device address), the address 0 in host mode. Kernels
    /// read the scalar through the address when it is non-zero.
    pub fn split(self) -> (f32, u64) {
        match self {
            Scalar::Host(v) => (v, 0),
            Scalar::Device(ptr) => (0.0, ptr),
        }
    }
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
    /// A and B exchanged: the pointers of `GemmProblem::transposed`.
    pub fn swapped(&self) -> GemmPointers {
        GemmPointers {
            a: self.b,
            b: self.a,
            ..*self
        }
    }

    /// The pointers of `p.block(m0, .., n0, ..)`: A at op(A)'s row m0, B at op(B)'s column n0,
    /// C and D at (m0, n0), the bias at its m0-th (n0-th when it runs along n) element. Element
    /// offsets use the caller's strides (`p`'s, not the block's).
    pub fn block(&self, p: &GemmProblem, m0: u64, n0: u64) -> GemmPointers {
        let at = |ptr: u64, elems: i64, elem_bytes: usize| -> u64 {
            if ptr == 0 {
                return 0;
            }
            ptr.wrapping_add((elems as i128 * elem_bytes as i128) as u64)
        };
        let (m0, n0) = (m0 as i64, n0 as i64);
        let ab = p.ab_type.size_bytes();
        let cd = p.cd_type.size_bytes();
        GemmPointers {
            a: at(self.a, m0 * p.a.row, ab),
            b: at(self.b, n0 * p.b.col, ab),
            c: at(self.c, m0 * p.c.row + n0 * p.c.col, cd),
            d: at(self.d, m0 * p.d.row + n0 * p.d.col, cd),
            bias: at(
                self.bias,
                if p.bias_along_n { n0 } else { m0 },
                p.bias_type.size_bytes(),
            ),
            ..*self
        }
    }

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
        // Arrays of matrix pointers (`pointer_arrays`) are 8-byte aligned; the matrices they
        // point to are the device's to read (the caller's promise, as cuBLAS's).
        let (ab, cd) = if p.pointer_arrays {
            (8, 8)
        } else {
            (p.ab_type.size_bytes(), p.cd_type.size_bytes())
        };
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
        // One batch: the batch strides are never used, so descriptors that differ only there
        // are the same layout (a review: such an in-place call was INVALID_VALUE).
        let same_layout = if p.batch > 1 {
            p.c == p.d
        } else {
            (p.c.row, p.c.col) == (p.d.row, p.d.col)
        };
        if self.c == self.d && c_used && !same_layout {
            return Err(invalid!(
                "C aliases D but their layouts differ (in-place needs identical layouts)"
            ));
        }
        Ok(())
    }
}

/// A dense bf16 problem for unit tests: op(A) m x k and op(B) k x n stored column-major as the
/// cuBLAS transposes say (`ta`, `tb`: 1 = T), every leading dimension tight, C = D m x n.
#[cfg(test)]
pub(crate) fn dense_bf16(m: u64, n: u64, k: u64, ta: i32, tb: i32) -> GemmProblem {
    use crate::types::{compute_type::COMPUTE_32F, cuda_data_type::*};
    let mut op = OpSpec::new(COMPUTE_32F, R_32F);
    op.trans_a = ta;
    op.trans_b = tb;
    let (ar, ac) = if ta == 0 { (m, k) } else { (k, m) };
    let (br, bc) = if tb == 0 { (k, n) } else { (n, k) };
    let a = MatrixSpec::col(R_16BF, ar, ac, ar as i64);
    let b = MatrixSpec::col(R_16BF, br, bc, br as i64);
    let d = MatrixSpec::col(R_16BF, m, n, m as i64);
    GemmProblem::new(&op, &a, &b, &d, &d).unwrap()
}

/// 16-byte aligned A, B and D, host alpha = 1 and beta = 0, no C or bias: pointers for unit
/// tests that any variant's alignment rules accept.
#[cfg(test)]
pub(crate) fn aligned_ptrs() -> GemmPointers {
    GemmPointers {
        alpha: Scalar::Host(1.0),
        beta: Scalar::Host(0.0),
        a: 0x1000,
        b: 0x2000,
        c: 0,
        d: 0x3000,
        bias: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::types::{Activation, compute_type::*, cuda_data_type::*};

    fn op() -> OpSpec {
        OpSpec::new(COMPUTE_32F, R_32F)
    }

    /// A problem with A m x k, B k x n (as stored for the given ops), C = D m x n.
    fn specs(
        m: u64,
        n: u64,
        k: u64,
        ta: i32,
        tb: i32,
        ab: i32,
        cd: i32,
    ) -> (MatrixSpec, MatrixSpec, MatrixSpec) {
        let (ar, ac) = if ta == 0 { (m, k) } else { (k, m) };
        let (br, bc) = if tb == 0 { (k, n) } else { (n, k) };
        (
            MatrixSpec::col(ab, ar, ac, ar.max(1) as i64),
            MatrixSpec::col(ab, br, bc, br.max(1) as i64),
            MatrixSpec::col(cd, m, n, m.max(1) as i64),
        )
    }

    fn problem(o: &OpSpec, m: u64, n: u64, k: u64, ab: i32, cd: i32) -> Result<GemmProblem> {
        let (a, b, c) = specs(m, n, k, o.trans_a, o.trans_b, ab, cd);
        GemmProblem::new(o, &a, &b, &c, &c)
    }

    #[test]
    fn column_major_strides_follow_transposes() {
        let mut o = op();
        let p = problem(&o, 5, 7, 3, R_32F, R_32F).unwrap();
        assert_eq!((p.m, p.n, p.k), (5, 7, 3));
        assert_eq!((p.a.row, p.a.col), (1, 5));
        assert_eq!((p.b.row, p.b.col), (1, 3));
        assert_eq!((p.d.row, p.d.col), (1, 5));
        o.trans_a = 1;
        o.trans_b = 2; // OP_C on real types is a transpose
        let p = problem(&o, 5, 7, 3, R_32F, R_32F).unwrap();
        // A stored k x m (ld 3): op(A)(i, kk) = A[kk + i*3]
        assert_eq!((p.a.row, p.a.col), (3, 1));
        // B stored n x k (ld 7): op(B)(kk, j) = B[j + kk*7]
        assert_eq!((p.b.row, p.b.col), (7, 1));
        assert_eq!((p.op_a, p.op_b), (Op::T, Op::T));
    }

    #[test]
    fn a_single_row_or_column_reads_as_the_contiguous_line_it_is() {
        // m = 1, NN, column-major with the smallest lds: A (1 x 64, lda 1) and D (1 x 96,
        // ldd 1) are rows; B (64 x 96, ldb 64) keeps its strides.
        let o = op();
        let (a, b, c) = specs(1, 96, 64, 0, 0, R_16BF, R_16BF);
        assert_eq!((a.ld, c.ld), (1, 1));
        let p = GemmProblem::new(&o, &a, &b, &c, &c).unwrap();
        assert_eq!((p.a.row, p.a.col), (64, 1));
        assert_eq!((p.d.row, p.d.col), (96, 1));
        assert_eq!((p.c.row, p.c.col), (96, 1));
        assert_eq!((p.b.row, p.b.col), (1, 64));
        assert_eq!(p.extent, [64, 96 * 64, 96, 96]);
        // n = 1: B (k x 1) and D (m x 1) are columns; ld rounded up to 16 elements.
        let (a, b, c) = specs(5, 1, 7, 0, 0, R_32F, R_32F);
        let p = GemmProblem::new(&o, &a, &b, &c, &c).unwrap();
        assert_eq!((p.b.row, p.b.col), (1, 16));
        assert_eq!((p.d.row, p.d.col), (1, 16));
        assert_eq!(p.extent[3], 5);
        // A strided row (1 x 5 column-major, ld 3) has no unit stride along it: unchanged.
        let mut a = MatrixSpec::col(R_32F, 1, 5, 3);
        a.batch_count = 1;
        let b = MatrixSpec::col(R_32F, 5, 2, 5);
        let c = MatrixSpec::col(R_32F, 1, 2, 1);
        let p = GemmProblem::new(&o, &a, &b, &c, &c).unwrap();
        assert_eq!((p.a.row, p.a.col), (1, 3));
        // The transposed problem exchanges the settled strides.
        let t = p.transposed();
        assert_eq!((t.d.row, t.d.col), (p.d.col, p.d.row));
    }

    /// cuBLASLt's broadcast C (leading dimension 0): valid there, not built here, so
    /// NOT_SUPPORTED, not INVALID_VALUE; ld 0 for any other matrix stays invalid.
    #[test]
    fn a_broadcast_c_is_not_supported() {
        let o = op();
        let (a, b, c) = specs(5, 7, 3, 0, 0, R_32F, R_32F);
        let mut c0 = c;
        c0.ld = 0;
        assert!(matches!(
            GemmProblem::new(&o, &a, &b, &c0, &c),
            Err(Error::NotSupported(_))
        ));
        assert!(matches!(
            GemmProblem::new(&o, &a, &b, &c, &c0),
            Err(Error::InvalidValue(_))
        ));
        // A NULL Cdesc is Ddesc: D's ld of 0 is malformed, not a broadcast C.
        assert!(matches!(
            GemmProblem::new(&o, &a, &b, &c0, &c0),
            Err(Error::InvalidValue(_))
        ));
        let mut a0 = a;
        a0.ld = 0;
        assert!(matches!(
            GemmProblem::new(&o, &a0, &b, &c, &c),
            Err(Error::InvalidValue(_))
        ));
    }

    #[test]
    fn row_order_swaps_strides() {
        let o = op();
        let mut a = MatrixSpec::col(R_16BF, 4, 6, 9);
        a.order = order::ROW; // 4 x 6 row-major with ld 9 >= cols
        let b = MatrixSpec::col(R_16BF, 6, 2, 6);
        let c = MatrixSpec::col(R_16BF, 4, 2, 4);
        let p = GemmProblem::new(&o, &a, &b, &c, &c).unwrap();
        assert_eq!((p.a.row, p.a.col), (9, 1));
        assert_eq!(p.math, Math::Mma);
        a.ld = 5; // < cols
        assert!(matches!(
            GemmProblem::new(&o, &a, &b, &c, &c),
            Err(Error::InvalidValue(_))
        ));
        a.order = 2; // COL32: a real order deepgemm does not do
        a.ld = 9;
        assert!(matches!(
            GemmProblem::new(&o, &a, &b, &c, &c),
            Err(Error::NotSupported(_))
        ));
        a.order = 17;
        assert!(matches!(
            GemmProblem::new(&o, &a, &b, &c, &c),
            Err(Error::InvalidValue(_))
        ));
    }

    #[test]
    fn negative_batch_strides_must_stay_within_int64() {
        let o = op();
        let (mut a, b, c) = specs(4, 5, 6, 0, 0, R_32F, R_32F);
        let (mut b, mut c) = (b, c);
        for s in [&mut a, &mut b, &mut c] {
            s.batch_count = 4;
        }
        a.batch_stride = -(1 << 40);
        assert!(GemmProblem::new(&o, &a, &b, &c, &c).is_ok());
        // (4 - 1) * -2^62 is below INT64_MIN.
        a.batch_stride = -(1 << 62);
        assert!(matches!(
            GemmProblem::new(&o, &a, &b, &c, &c),
            Err(Error::InvalidValue(_))
        ));
    }

    #[test]
    fn malformed_shapes_are_invalid_values() {
        let o = op();
        let (a, b, c) = specs(4, 5, 6, 0, 0, R_32F, R_32F);
        let mut b2 = b;
        b2.rows = 7; // inner dimension mismatch
        assert!(matches!(
            GemmProblem::new(&o, &a, &b2, &c, &c),
            Err(Error::InvalidValue(_))
        ));
        let mut d = c;
        d.cols = 4;
        assert!(matches!(
            GemmProblem::new(&o, &a, &b, &c, &d),
            Err(Error::InvalidValue(_))
        ));
        let mut a2 = a;
        a2.ld = 3; // < rows
        assert!(matches!(
            GemmProblem::new(&o, &a2, &b, &c, &c),
            Err(Error::InvalidValue(_))
        ));
        a2.ld = -1;
        assert!(matches!(
            GemmProblem::new(&o, &a2, &b, &c, &c),
            Err(Error::InvalidValue(_))
        ));
        let mut c2 = c;
        c2.batch_count = 2;
        assert!(matches!(
            GemmProblem::new(&o, &a, &b, &c2, &c),
            Err(Error::InvalidValue(_))
        ));
        c2.batch_count = 0;
        assert!(matches!(
            GemmProblem::new(&o, &a, &b, &c2, &c2),
            Err(Error::InvalidValue(_))
        ));
        let mut a3 = a;
        a3.rows = u64::MAX;
        assert!(matches!(
            GemmProblem::new(&o, &a3, &b, &c, &c),
            Err(Error::InvalidValue(_))
        ));
        // Offsets that overflow int64 even though each dimension fits.
        let big = MatrixSpec::col(R_32F, 1 << 32, 1 << 32, 1 << 32);
        let bb = MatrixSpec::col(R_32F, 1 << 32, 1, 1 << 32);
        let cc = MatrixSpec::col(R_32F, 1 << 32, 1, 1 << 32);
        assert!(matches!(
            GemmProblem::new(&o, &big, &bb, &cc, &cc),
            Err(Error::InvalidValue(_))
        ));
        let mut o2 = o;
        o2.trans_a = 3; // CONJG does not exist for real GEMM
        assert!(matches!(
            GemmProblem::new(&o2, &a, &b, &c, &c),
            Err(Error::InvalidValue(_))
        ));
        o2.trans_a = 0;
        o2.trans_c = 1;
        assert!(matches!(
            GemmProblem::new(&o2, &a, &b, &c, &c),
            Err(Error::NotSupported(_))
        ));
    }

    #[test]
    fn type_rules() {
        let o = op();
        assert_eq!(problem(&o, 2, 2, 2, R_32F, R_32F).unwrap().math, Math::Ffma);
        let tf = OpSpec::new(COMPUTE_32F_FAST_TF32, R_32F);
        assert_eq!(
            problem(&tf, 2, 2, 2, R_32F, R_32F).unwrap().math,
            Math::MmaTf32
        );
        for (ab, cd) in [
            (R_16F, R_16F),
            (R_16F, R_32F),
            (R_16BF, R_16BF),
            (R_16BF, R_32F),
        ] {
            let p = problem(&o, 2, 2, 2, ab, cd).unwrap();
            assert_eq!(p.math, Math::Mma);
            assert_eq!(p.bias_type.cuda_value(), cd, "bias defaults to D's type");
        }
        let not =
            |r: Result<GemmProblem>| assert!(matches!(r, Err(Error::NotSupported(_))), "{r:?}");
        not(problem(&o, 2, 2, 2, R_16F, R_16BF));
        not(problem(&o, 2, 2, 2, R_32F, R_16F));
        not(problem(&o, 2, 2, 2, R_64F, R_64F));
        not(problem(&o, 2, 2, 2, R_8F_E4M3, R_16BF));
        not(problem(
            &OpSpec::new(COMPUTE_16F, R_16F),
            2,
            2,
            2,
            R_16F,
            R_16F,
        ));
        not(problem(
            &OpSpec::new(COMPUTE_32F, R_16F),
            2,
            2,
            2,
            R_16F,
            R_16F,
        ));
        not(problem(
            &OpSpec::new(COMPUTE_32F_FAST_16BF, R_32F),
            2,
            2,
            2,
            R_32F,
            R_32F,
        ));
        // With 16-bit inputs the FAST_16F / FAST_16BF compute types are COMPUTE_32F's math.
        for (ct, t) in [
            (COMPUTE_32F_FAST_16BF, R_16BF),
            (COMPUTE_32F_FAST_16F, R_16F),
            (COMPUTE_32F_FAST_16F, R_16BF),
        ] {
            let p = problem(&OpSpec::new(ct, R_32F), 2, 2, 2, t, t).unwrap();
            assert_eq!(p.math, Math::Mma);
        }
        assert!(matches!(
            problem(&OpSpec::new(99, R_32F), 2, 2, 2, R_32F, R_32F),
            Err(Error::InvalidValue(_))
        ));
        // A and B of different types; C and D of different types.
        let (a, b, c) = specs(2, 2, 2, 0, 0, R_16F, R_16F);
        let mut b2 = b;
        b2.dtype = R_16BF;
        not(GemmProblem::new(&o, &a, &b2, &c, &c));
        let mut d2 = c;
        d2.dtype = R_32F;
        not(GemmProblem::new(&o, &a, &b, &c, &d2));
        let mut a2 = a;
        a2.dtype = 99;
        assert!(matches!(
            GemmProblem::new(&o, &a2, &b, &c, &c),
            Err(Error::InvalidValue(_))
        ));
    }

    #[test]
    fn pedantic_compute_keeps_16_bit_inputs_off_tensor_cores() {
        let mut o = op();
        for (ct, ab, want) in [
            (COMPUTE_32F, R_16BF, Math::Mma),
            (COMPUTE_32F_PEDANTIC, R_16BF, Math::Ffma),
            (COMPUTE_32F_PEDANTIC, R_16F, Math::Ffma),
            (COMPUTE_32F_PEDANTIC, R_32F, Math::Ffma),
            (COMPUTE_32F_FAST_TF32, R_16F, Math::Mma),
        ] {
            o.compute_type = ct;
            assert_eq!(
                problem(&o, 3, 3, 3, ab, ab).unwrap().math,
                want,
                "{ct} {ab}"
            );
        }
    }

    #[test]
    fn epilogue_and_pointer_mode_rules() {
        let mut o = op();
        o.epilogue = epilogue::GELU_BIAS;
        o.bias_data_type = R_32F;
        let p = problem(&o, 3, 3, 3, R_16BF, R_16BF).unwrap();
        assert_eq!(p.epilogue.activation, Activation::Gelu);
        assert!(p.epilogue.bias);
        assert_eq!(p.bias_type, ScalarType::F32);
        o.bias_data_type = R_16F; // neither D's type nor fp32
        assert!(matches!(
            problem(&o, 3, 3, 3, R_16BF, R_16BF),
            Err(Error::NotSupported(_))
        ));
        // ... which only a bias epilogue minds: a reused descriptor without one is fine.
        for e in [epilogue::DEFAULT, epilogue::RELU, epilogue::GELU] {
            o.epilogue = e;
            let p = problem(&o, 3, 3, 3, R_16BF, R_16BF).unwrap();
            assert_eq!(p.bias_type, ScalarType::BF16, "epilogue {e}");
        }
        o.bias_data_type = -1;
        for (e, ok) in [
            (epilogue::GELU_AUX, false),
            (epilogue::DGELU_BGRAD, false),
            (epilogue::BGRADA, false),
            (epilogue::RELU_BIAS, true),
        ] {
            o.epilogue = e;
            assert_eq!(
                problem(&o, 3, 3, 3, R_16BF, R_16BF).is_ok(),
                ok,
                "epilogue {e}"
            );
        }
        o.epilogue = 12345;
        assert!(matches!(
            problem(&o, 3, 3, 3, R_16BF, R_16BF),
            Err(Error::InvalidValue(_))
        ));
        o.epilogue = epilogue::DEFAULT;
        o.pointer_mode = pointer_mode::DEVICE_VECTOR;
        assert!(matches!(
            problem(&o, 3, 3, 3, R_16BF, R_16BF),
            Err(Error::NotSupported(_))
        ));
        o.pointer_mode = 9;
        assert!(matches!(
            problem(&o, 3, 3, 3, R_16BF, R_16BF),
            Err(Error::InvalidValue(_))
        ));
    }

    #[test]
    fn empty_and_batched_problems() {
        let o = op();
        assert!(problem(&o, 0, 5, 5, R_32F, R_32F).unwrap().is_empty());
        let p = problem(&o, 5, 5, 0, R_32F, R_32F).unwrap();
        assert!(!p.is_empty() && p.k == 0);
        let (mut a, mut b, mut c) = specs(4, 4, 4, 0, 0, R_32F, R_32F);
        for s in [&mut a, &mut b, &mut c] {
            s.batch_count = 3;
            s.batch_stride = 100;
        }
        let p = GemmProblem::new(&o, &a, &b, &c, &c).unwrap();
        assert_eq!(p.batch, 3);
        assert_eq!(p.a.batch, 100);
        assert_eq!(p.extent[0], 2 * 100 + 3 + 3 * 4 + 1);
        assert_eq!(p.flops(), 2.0 * 64.0 * 3.0);
    }

    #[test]
    fn pointer_checks() {
        let mut o = op();
        let p = problem(&o, 4, 4, 4, R_32F, R_32F).unwrap();
        let good = aligned_ptrs();
        good.check(&p).unwrap(); // beta == 0: C is not read, may be NULL
        let bad = |f: &dyn Fn(&mut GemmPointers)| {
            let mut x = good;
            f(&mut x);
            assert!(matches!(x.check(&p), Err(Error::InvalidValue(_))), "{x:?}");
        };
        bad(&|x| x.d = 0);
        bad(&|x| x.a = 0);
        bad(&|x| x.b = 0x2002); // not 4-byte aligned
        bad(&|x| x.beta = Scalar::Host(1.0)); // C needed but NULL
        bad(&|x| x.beta = Scalar::Device(0));
        o.epilogue = epilogue::BIAS;
        let pb = problem(&o, 4, 4, 4, R_32F, R_32F).unwrap();
        assert!(
            good.check(&pb).is_err(),
            "bias epilogue without a bias pointer"
        );
        // In place with an identical layout is fine.
        let mut inplace = good;
        inplace.beta = Scalar::Host(2.0);
        inplace.c = inplace.d;
        inplace.check(&p).unwrap();
        // ... also where C's and D's batch strides differ but there is one batch; with more,
        // they must match.
        for (batch, ok) in [(1u64, true), (2, false)] {
            let mut q = p;
            q.batch = batch;
            q.c.batch = 0;
            q.d.batch = 16;
            assert_eq!(inplace.check(&q).is_ok(), ok, "batch {batch}");
        }
        // Empty problems need no pointers at all.
        let e = problem(&op(), 0, 4, 4, R_32F, R_32F).unwrap();
        let none = GemmPointers {
            a: 0,
            b: 0,
            d: 0,
            ..good
        };
        none.check(&e).unwrap();
    }
}
