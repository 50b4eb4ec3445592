//! Host-side pieces of the GPU checks: element types, random data, matrix geometry, the
//! float64 reference GEMM (with cuBLASLt's epilogues) and the error metric with its
//! tolerances. Pure Rust: no CUDA, so every piece is unit-tested on a CPU-only machine
//! (`cargo test --bin deepgemm-bench`, which includes this file).

#![allow(dead_code)]

use std::fmt;

/// cudaDataType_t values (library_types.h).
pub const R_32F: i32 = 0;
pub const R_16F: i32 = 2;
pub const R_16BF: i32 = 14;

/// Element type of a matrix or of the bias vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    F32,
    F16,
    BF16,
}

impl DType {
    pub fn cuda(self) -> i32 {
        match self {
            DType::F32 => R_32F,
            DType::F16 => R_16F,
            DType::BF16 => R_16BF,
        }
    }

    pub fn size(self) -> usize {
        match self {
            DType::F32 => 4,
            DType::F16 | DType::BF16 => 2,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            DType::F32 => "f32",
            DType::F16 => "f16",
            DType::BF16 => "bf16",
        }
    }

    /// The value `x` becomes once stored in this type (round to nearest even).
    pub fn round(self, x: f32) -> f32 {
        match self {
            DType::F32 => x,
            DType::F16 => half::f16::from_f32(x).to_f32(),
            DType::BF16 => half::bf16::from_f32(x).to_f32(),
        }
    }

    /// Appends the little-endian encoding of `x` (rounded to this type) to `out`.
    pub fn push(self, out: &mut Vec<u8>, x: f32) {
        match self {
            DType::F32 => out.extend_from_slice(&x.to_le_bytes()),
            DType::F16 => out.extend_from_slice(&half::f16::from_f32(x).to_le_bytes()),
            DType::BF16 => out.extend_from_slice(&half::bf16::from_f32(x).to_le_bytes()),
        }
    }

    /// Writes `x` (rounded to this type) as element `i` of the little-endian buffer `buf`.
    pub fn put(self, buf: &mut [u8], i: usize, x: f32) {
        let s = self.size();
        let dst = &mut buf[i * s..(i + 1) * s];
        match self {
            DType::F32 => dst.copy_from_slice(&x.to_le_bytes()),
            DType::F16 => dst.copy_from_slice(&half::f16::from_f32(x).to_le_bytes()),
            DType::BF16 => dst.copy_from_slice(&half::bf16::from_f32(x).to_le_bytes()),
        }
    }

    /// Element `i` of the little-endian buffer `buf`, widened to f64.
    pub fn get(self, buf: &[u8], i: usize) -> f64 {
        let s = self.size();
        let b = &buf[i * s..(i + 1) * s];
        match self {
            DType::F32 => f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
            DType::F16 => half::f16::from_le_bytes([b[0], b[1]]).to_f64(),
            DType::BF16 => half::bf16::from_le_bytes([b[0], b[1]]).to_f64(),
        }
    }

    /// The quiet-NaN bit pattern used to poison outputs (one element, little-endian).
    pub fn nan_bits(self) -> u32 {
        match self {
            DType::F32 => 0x7fc0_0000,
            DType::F16 => 0x7e00,
            DType::BF16 => 0x7fc0,
        }
    }

    /// A buffer of `elems` elements, every one the poison NaN.
    pub fn nan_buffer(self, elems: usize) -> Vec<u8> {
        let bits = self.nan_bits().to_le_bytes();
        let s = self.size();
        let mut v = Vec::with_capacity(elems * s);
        for _ in 0..elems {
            v.extend_from_slice(&bits[..s]);
        }
        v
    }

    /// Decodes a whole buffer to f64.
    pub fn decode(self, buf: &[u8]) -> Vec<f64> {
        (0..buf.len() / self.size())
            .map(|i| self.get(buf, i))
            .collect()
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// SplitMix64: small, fast, and the same sequence on every machine for a given seed, so
/// a failing case can be replayed from the seed printed with it.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1) with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in [-1, 1).
    pub fn symmetric(&mut self) -> f32 {
        (self.unit() * 2.0 - 1.0) as f32
    }

    /// Uniform integer in [0, n); n > 0.
    pub fn below(&mut self, n: u64) -> u64 {
        // Multiply-shift: unbiased enough for test sampling and never divides by zero.
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
}

/// A seed that differs from run to run (fresh data for every check), printed by callers.
pub fn fresh_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    Rng::new(t ^ (std::process::id() as u64) << 32).next_u64()
}

/// Buffers of at least this many elements are filled on every core (`random_buffer`).
const PARALLEL_FILL: usize = 1 << 24;

/// A buffer of `elems` random values uniform in [-1, 1), rounded to `t`. From
/// `PARALLEL_FILL` elements on, chunks of 2^22 elements each draw from their own generator
/// seeded from `rng` (one draw), filled on every core: the same values for a seed whatever
/// the core count (an output past 2^31 elements took over 100 s on one thread, session 53).
pub fn random_buffer(rng: &mut Rng, t: DType, elems: usize) -> Vec<u8> {
    if elems < PARALLEL_FILL {
        let mut v = Vec::with_capacity(elems * t.size());
        for _ in 0..elems {
            t.push(&mut v, rng.symmetric());
        }
        return v;
    }
    const CHUNK: usize = 1 << 22;
    let base = rng.next_u64();
    let size = t.size();
    let mut v = vec![0u8; elems * size];
    let per_thread = elems.div_ceil(CHUNK).div_ceil(cpu_threads());
    std::thread::scope(|s| {
        for (t_i, part) in v.chunks_mut(per_thread * CHUNK * size).enumerate() {
            s.spawn(move || {
                for (j, out) in part.chunks_mut(CHUNK * size).enumerate() {
                    let c = (t_i * per_thread + j) as u64;
                    let mut r = Rng::new(base ^ c.wrapping_mul(0x9e37_79b9_7f4a_7c15));
                    for e in 0..out.len() / size {
                        t.put(out, e, r.symmetric());
                    }
                }
            });
        }
    });
    v
}

/// Storage order of a matrix (cublasLtOrder_t COL = 0, ROW = 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    Col,
    Row,
}

impl Order {
    pub fn cuda(self) -> i32 {
        match self {
            Order::Col => 0,
            Order::Row => 1,
        }
    }
}

/// Where a stored matrix's elements live: rows x cols (as the layout describes it, before
/// any transpose), leading dimension, order and batch stride, all in elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geom {
    pub rows: u64,
    pub cols: u64,
    pub ld: u64,
    pub order: Order,
    pub batch: u64,
    pub batch_stride: u64,
}

impl Geom {
    /// A geometry with `pad` extra elements of leading dimension and, when batched,
    /// `batch_pad` extra elements between consecutive matrices.
    pub fn new(rows: u64, cols: u64, order: Order, pad: u64, batch: u64, batch_pad: u64) -> Geom {
        let min_ld = match order {
            Order::Col => rows,
            Order::Row => cols,
        };
        let ld = min_ld.max(1) + pad;
        let mut g = Geom {
            rows,
            cols,
            ld,
            order,
            batch,
            batch_stride: 0,
        };
        if batch > 1 {
            g.batch_stride = g.matrix_elems() + batch_pad;
        }
        g
    }

    /// Elements one matrix spans, padding included.
    pub fn matrix_elems(&self) -> u64 {
        match self.order {
            Order::Col => self.ld * self.cols,
            Order::Row => self.ld * self.rows,
        }
    }

    /// Elements the whole (batched) buffer needs; at least 1 so that it has an address.
    pub fn buffer_elems(&self) -> u64 {
        let last = (self.batch.max(1) - 1) * self.batch_stride + self.matrix_elems();
        last.max(1)
    }

    /// Offset of element (r, c) of matrix `b`.
    pub fn at(&self, b: u64, r: u64, c: u64) -> usize {
        let within = match self.order {
            Order::Col => r + c * self.ld,
            Order::Row => r * self.ld + c,
        };
        (b * self.batch_stride + within) as usize
    }
}

/// The epilogues cuBLASLt and deepgemm share (cublasLtEpilogue_t values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Epi {
    Default,
    Relu,
    Bias,
    ReluBias,
    Gelu,
    GeluBias,
}

impl Epi {
    pub const ALL: [Epi; 6] = [
        Epi::Default,
        Epi::Relu,
        Epi::Bias,
        Epi::ReluBias,
        Epi::Gelu,
        Epi::GeluBias,
    ];

    pub fn cuda(self) -> u32 {
        match self {
            Epi::Default => 1,
            Epi::Relu => 2,
            Epi::Bias => 4,
            Epi::ReluBias => 6,
            Epi::Gelu => 32,
            Epi::GeluBias => 36,
        }
    }

    pub fn has_bias(self) -> bool {
        matches!(self, Epi::Bias | Epi::ReluBias | Epi::GeluBias)
    }

    pub fn name(self) -> &'static str {
        match self {
            Epi::Default => "default",
            Epi::Relu => "relu",
            Epi::Bias => "bias",
            Epi::ReluBias => "relu_bias",
            Epi::Gelu => "gelu",
            Epi::GeluBias => "gelu_bias",
        }
    }

    pub fn parse(s: &str) -> Option<Epi> {
        Epi::ALL.into_iter().find(|e| e.name() == s)
    }

    /// The activation applied last, in f64.
    pub fn activate(self, x: f64) -> f64 {
        match self {
            Epi::Default | Epi::Bias => x,
            // NaN stays NaN, as in the kernels (f64::max would give 0).
            Epi::Relu | Epi::ReluBias => {
                if x < 0.0 {
                    0.0
                } else {
                    x
                }
            }
            Epi::Gelu | Epi::GeluBias => gelu(x),
        }
    }
}

/// GELU, tanh approximation (what cuBLASLt's GELU epilogues compute).
pub fn gelu(x: f64) -> f64 {
    // Clamped below at -16 as the kernels are (the value there is already -0), so that -inf
    // gives -0 rather than -inf * 0 = NaN; NaN stays NaN.
    let x = if x < -16.0 { -16.0 } else { x };
    let c = (2.0 / std::f64::consts::PI).sqrt();
    0.5 * x * (1.0 + (c * (x + 0.044715 * x * x * x)).tanh())
}

/// Everything that defines one GEMM, without its data:
/// D = act(alpha * op(A) op(B) + beta * C + bias), column-major cuBLAS conventions.
#[derive(Clone, Debug, PartialEq)]
pub struct GemmSpec {
    /// A and B element type.
    pub ab: DType,
    /// C and D element type.
    pub cd: DType,
    /// fp32 inputs through COMPUTE_32F_FAST_TF32.
    pub tf32: bool,
    pub trans_a: bool,
    pub trans_b: bool,
    pub m: u64,
    pub n: u64,
    pub k: u64,
    pub batch: u64,
    /// Storage order of A, B, C, D.
    pub order: [Order; 4],
    /// Extra leading-dimension elements of A, B, C, D.
    pub pad: [u64; 4],
    /// Extra elements between consecutive matrices of A, B, C, D when batched.
    pub batch_pad: [u64; 4],
    pub alpha: f32,
    pub beta: f32,
    pub epi: Epi,
    /// None: the default (D's type), left unset in the descriptor.
    pub bias_type: Option<DType>,
    /// Elements between the bias vectors of consecutive batches (0: one shared vector).
    pub bias_batch_stride: u64,
    /// C and D are the same buffer (C's layout is D's).
    pub in_place: bool,
    /// alpha and beta are read from device memory (POINTER_MODE_DEVICE).
    pub device_scalars: bool,
    /// C is filled with NaN (only meaningful with beta == 0: C must not be read).
    pub c_nan: bool,
    /// Elements by which A's and B's base addresses sit past an aligned allocation (a view at
    /// an offset; TMA needs 16 bytes), announced to the heuristic as MIN_ALIGNMENT_A/B_BYTES.
    pub shift: [u64; 2],
}

pub const A: usize = 0;
pub const B: usize = 1;
pub const C: usize = 2;
pub const D: usize = 3;

impl GemmSpec {
    /// A column-major, unpadded, unbatched D = op(A) op(B) with alpha = 1, beta = 0.
    pub fn new(ab: DType, cd: DType, m: u64, n: u64, k: u64) -> GemmSpec {
        GemmSpec {
            ab,
            cd,
            tf32: false,
            trans_a: false,
            trans_b: false,
            m,
            n,
            k,
            batch: 1,
            order: [Order::Col; 4],
            pad: [0; 4],
            batch_pad: [0; 4],
            alpha: 1.0,
            beta: 0.0,
            epi: Epi::Default,
            bias_type: None,
            bias_batch_stride: 0,
            in_place: false,
            device_scalars: false,
            c_nan: false,
            shift: [0; 2],
        }
    }

    /// The alignment (bytes, at most 256) of A's or B's base address: MIN_ALIGNMENT_*_BYTES.
    pub fn alignment(&self, which: usize) -> u32 {
        let bytes = self.shift[which] * self.ab.size() as u64;
        1u32 << (bytes | 256).trailing_zeros()
    }

    /// cublasComputeType_t: COMPUTE_32F (68) or COMPUTE_32F_FAST_TF32 (77).
    pub fn compute_type(&self) -> i32 {
        if self.tf32 { 77 } else { 68 }
    }

    /// The bias element type actually used.
    pub fn bias_dtype(&self) -> DType {
        self.bias_type.unwrap_or(self.cd)
    }

    /// Geometry of A, B, C or D (index `A`..`D`). In place, C's layout is D's.
    pub fn geom(&self, which: usize) -> Geom {
        let which_layout = if which == C && self.in_place {
            D
        } else {
            which
        };
        let (rows, cols) = match which {
            A if self.trans_a => (self.k, self.m),
            A => (self.m, self.k),
            B if self.trans_b => (self.n, self.k),
            B => (self.k, self.n),
            _ => (self.m, self.n),
        };
        Geom::new(
            rows,
            cols,
            self.order[which_layout],
            self.pad[which_layout],
            self.batch,
            self.batch_pad[which_layout],
        )
    }

    /// Elements of the bias buffer.
    pub fn bias_elems(&self) -> u64 {
        if !self.epi.has_bias() {
            return 0;
        }
        (self.batch.max(1) - 1) * self.bias_batch_stride + self.m.max(1)
    }

    /// Offset in A's buffer of op(A)[b](i, kk).
    pub fn a_at(&self, g: &Geom, b: u64, i: u64, kk: u64) -> usize {
        if self.trans_a {
            g.at(b, kk, i)
        } else {
            g.at(b, i, kk)
        }
    }

    /// Offset in B's buffer of op(B)[b](kk, j).
    pub fn b_at(&self, g: &Geom, b: u64, kk: u64, j: u64) -> usize {
        if self.trans_b {
            g.at(b, j, kk)
        } else {
            g.at(b, kk, j)
        }
    }

    /// Multiply-adds times two.
    pub fn flops(&self) -> f64 {
        2.0 * self.m as f64 * self.n as f64 * self.k as f64 * self.batch as f64
    }

    /// The relative Frobenius error allowed for this type combination.
    pub fn tolerance(&self) -> f64 {
        tolerance(self.ab, self.cd, self.tf32)
    }

    /// cuBLAS op letters, e.g. "TN" for transa = T, transb = N.
    pub fn ops(&self) -> String {
        format!(
            "{}{}",
            if self.trans_a { 'T' } else { 'N' },
            if self.trans_b { 'T' } else { 'N' }
        )
    }

    /// "bf16->f32" or "tf32->f32".
    pub fn types(&self) -> String {
        let ab = if self.tf32 { "tf32" } else { self.ab.name() };
        format!("{ab}->{}", self.cd)
    }
}

impl fmt::Display for GemmSpec {
    /// One line with every field that matters, so a failure can be reproduced by hand.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ord = |o: Order| if o == Order::Col { 'C' } else { 'R' };
        write!(
            f,
            "{} {} m={} n={} k={} batch={} order(ABCD)={}{}{}{} pad={:?}",
            self.types(),
            self.ops(),
            self.m,
            self.n,
            self.k,
            self.batch,
            ord(self.order[0]),
            ord(self.order[1]),
            ord(self.order[2]),
            ord(self.order[3]),
            self.pad,
        )?;
        if self.batch > 1 {
            write!(f, " batch_pad={:?}", self.batch_pad)?;
        }
        if self.shift != [0; 2] {
            write!(f, " shift(AB)={:?}", self.shift)?;
        }
        write!(
            f,
            " alpha={} beta={} epi={}",
            self.alpha,
            self.beta,
            self.epi.name()
        )?;
        if self.epi.has_bias() {
            match self.bias_type {
                Some(t) => write!(f, " bias={t}")?,
                None => write!(f, " bias=default({})", self.cd)?,
            }
            if self.bias_batch_stride != 0 {
                write!(f, " bias_stride={}", self.bias_batch_stride)?;
            }
        }
        if self.in_place {
            f.write_str(" in-place")?;
        }
        if self.device_scalars {
            f.write_str(" ptr-mode=device")?;
        }
        if self.c_nan {
            f.write_str(" C=NaN")?;
        }
        Ok(())
    }
}

/// Allowed relative Frobenius error: fp32 exact 1e-5, tf32 5e-4, 16-bit output 1e-2,
/// 16-bit inputs with fp32 output 1e-3.
pub fn tolerance(ab: DType, cd: DType, tf32: bool) -> f64 {
    match (ab, cd) {
        (DType::F32, _) if tf32 => 5e-4,
        (DType::F32, _) => 1e-5,
        (_, DType::F32) => 1e-3,
        _ => 1e-2,
    }
}

/// The inputs of one GEMM as stored (little-endian bytes, already rounded to their types).
#[derive(Clone, Debug)]
pub struct HostData {
    pub a: Vec<u8>,
    pub b: Vec<u8>,
    /// C's initial contents (for an in-place GEMM this is also D's).
    pub c: Vec<u8>,
    pub bias: Vec<u8>,
}

impl HostData {
    /// Fresh random inputs in [-1, 1) for `spec`; C is NaN when `spec.c_nan`.
    pub fn random(spec: &GemmSpec, rng: &mut Rng) -> HostData {
        let a = random_buffer(rng, spec.ab, spec.geom(A).buffer_elems() as usize);
        let b = random_buffer(rng, spec.ab, spec.geom(B).buffer_elems() as usize);
        let c_elems = spec.geom(C).buffer_elems() as usize;
        let c = if spec.c_nan {
            spec.cd.nan_buffer(c_elems)
        } else {
            random_buffer(rng, spec.cd, c_elems)
        };
        let bias = random_buffer(rng, spec.bias_dtype(), spec.bias_elems() as usize);
        HostData { a, b, c, bias }
    }
}

/// The operands widened to f64 once, so that the reference's inner loop is plain
/// arithmetic over contiguous memory.
pub struct Widened {
    a: Vec<f64>,
    b: Vec<f64>,
    c: Vec<f64>,
    bias: Vec<f64>,
}

/// fp32 rounded to TF32 (10 explicit mantissa bits), to nearest with ties away from zero,
/// as `cvt.rna.tf32.f32` does. Inf and NaN pass through.
pub fn round_tf32(x: f64) -> f64 {
    let f = x as f32;
    if !f.is_finite() {
        return x;
    }
    let u = f.to_bits();
    f32::from_bits(u.wrapping_add(0x1000) & 0xffff_e000) as f64
}

impl Widened {
    /// The inputs as the GEMM consumes them. With COMPUTE_32F_FAST_TF32, A and B are first
    /// rounded to TF32: that rounding is the documented semantics of the compute type, not an
    /// error to tolerate. Without it, the relative error of a short output (1 element, k =
    /// 1000) sits right at the 5e-4 bound by chance alone (one such case failed at 5.008e-4
    /// on the H200, 2026-11-29), because the Frobenius norm averages nothing.
    pub fn new(spec: &GemmSpec, data: &HostData) -> Widened {
        let input = |bytes: &[u8]| {
            let v = spec.ab.decode(bytes);
            if spec.tf32 {
                v.into_iter().map(round_tf32).collect()
            } else {
                v
            }
        };
        Widened {
            a: input(&data.a),
            b: input(&data.b),
            // Read only where beta != 0 (`finish`); as f64 it would take 8 bytes an element
            // of D.
            c: if spec.beta != 0.0 {
                spec.cd.decode(&data.c)
            } else {
                Vec::new()
            },
            bias: spec.bias_dtype().decode(&data.bias),
        }
    }
}

/// The epilogue after the product: act(alpha * acc + beta * C + bias). C is not read
/// when beta == 0 (as in cuBLAS, where it may hold anything, NaN included).
fn finish(spec: &GemmSpec, w: &Widened, acc: f64, b: u64, i: u64, j: u64) -> f64 {
    let mut v = spec.alpha as f64 * acc;
    if spec.beta != 0.0 {
        let gc = spec.geom(C);
        v += spec.beta as f64 * w.c[gc.at(b, i, j)];
    }
    if spec.epi.has_bias() {
        v += w.bias[(b * spec.bias_batch_stride + i) as usize];
    }
    spec.epi.activate(v)
}

/// Reference value of D[b](i, j), computed directly (for sampled checks).
pub fn reference_at(spec: &GemmSpec, w: &Widened, b: u64, i: u64, j: u64) -> f64 {
    let (ga, gb) = (spec.geom(A), spec.geom(B));
    let mut acc = 0.0f64;
    for kk in 0..spec.k {
        acc += w.a[spec.a_at(&ga, b, i, kk)] * w.b[spec.b_at(&gb, b, kk, j)];
    }
    finish(spec, w, acc, b, i, j)
}

/// Dot product with four partial sums: lets the compiler keep several f64 adds in
/// flight (f64 accuracy is far beyond what any tolerance here needs).
fn dot(x: &[f64], y: &[f64]) -> f64 {
    let mut s = [0.0f64; 4];
    let n4 = x.len() / 4 * 4;
    for (cx, cy) in x[..n4].chunks_exact(4).zip(y[..n4].chunks_exact(4)) {
        s[0] += cx[0] * cy[0];
        s[1] += cx[1] * cy[1];
        s[2] += cx[2] * cy[2];
        s[3] += cx[3] * cy[3];
    }
    let mut t = (s[0] + s[1]) + (s[2] + s[3]);
    for q in n4..x.len() {
        t += x[q] * y[q];
    }
    t
}

/// Threads for CPU work: all the machine's cores.
pub fn cpu_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// The full float64 reference D, logical layout: element (b, i, j) at `(b*m + i)*n + j`.
/// op(A) rows and op(B) columns are packed contiguously per batch, then rows of D are
/// spread over all cores with `std::thread::scope`.
pub fn reference(spec: &GemmSpec, w: &Widened) -> Vec<f64> {
    let (m, n, k) = (spec.m as usize, spec.n as usize, spec.k as usize);
    let mut out = vec![0.0f64; spec.batch as usize * m * n];
    if m == 0 || n == 0 {
        return out;
    }
    let (ga, gb) = (spec.geom(A), spec.geom(B));
    let threads = cpu_threads();
    for (b, out_b) in out.chunks_mut(m * n).enumerate() {
        let b = b as u64;
        let mut ap = vec![0.0f64; m * k];
        for i in 0..m {
            for kk in 0..k {
                ap[i * k + kk] = w.a[spec.a_at(&ga, b, i as u64, kk as u64)];
            }
        }
        let mut bp = vec![0.0f64; n * k];
        for j in 0..n {
            for kk in 0..k {
                bp[j * k + kk] = w.b[spec.b_at(&gb, b, kk as u64, j as u64)];
            }
        }
        let rows_per = m.div_ceil(threads);
        std::thread::scope(|s| {
            for (t, chunk) in out_b.chunks_mut(rows_per * n).enumerate() {
                let (ap, bp) = (&ap, &bp);
                s.spawn(move || {
                    for (r, row) in chunk.chunks_mut(n).enumerate() {
                        let i = t * rows_per + r;
                        let arow = &ap[i * k..(i + 1) * k];
                        for (j, d) in row.iter_mut().enumerate() {
                            let acc = dot(arow, &bp[j * k..(j + 1) * k]);
                            *d = finish(spec, w, acc, b, i as u64, j as u64);
                        }
                    }
                });
            }
        });
    }
    out
}

/// How an output compares with its reference.
#[derive(Clone, Debug, Default)]
pub struct Comparison {
    /// ||out - ref|| / ||ref|| over the compared elements (||out - ref|| when ref is 0).
    pub rel_err: f64,
    /// Elements compared.
    pub count: u64,
    /// Compared elements that are NaN or infinite (unwritten: the poison is NaN).
    pub nonfinite: u64,
    /// Elements outside the logical D (padding, gaps between batches) that changed.
    pub outside_writes: u64,
    /// The element with the largest |out - ref|: (b, i, j, out, ref).
    pub worst: Option<(u64, u64, u64, f64, f64)>,
}

impl Comparison {
    /// Accumulates sums over (out, ref) pairs; `finish` turns them into the metric.
    fn accumulate(&mut self, sums: &mut (f64, f64, f64), pos: (u64, u64, u64), out: f64, r: f64) {
        self.count += 1;
        if !out.is_finite() {
            self.nonfinite += 1;
            if self.worst.is_none() || self.worst.unwrap().3.is_finite() {
                self.worst = Some((pos.0, pos.1, pos.2, out, r));
            }
            return;
        }
        let d = out - r;
        sums.0 += d * d;
        sums.1 += r * r;
        let worse = match self.worst {
            None => true,
            Some((_, _, _, wo, wr)) => wo.is_finite() && d.abs() > (wo - wr).abs(),
        };
        if worse {
            self.worst = Some((pos.0, pos.1, pos.2, out, r));
        }
        sums.2 = sums.2.max(d.abs());
    }

    /// Adds a later part's counts and sums (`scan_d`), keeping the worst element as one
    /// `accumulate` over both parts in order would: the first non-finite one, else the first
    /// largest difference.
    fn merge(&mut self, sums: &mut (f64, f64, f64), part: Comparison, psums: (f64, f64, f64)) {
        self.count += part.count;
        self.nonfinite += part.nonfinite;
        self.outside_writes += part.outside_writes;
        sums.0 += psums.0;
        sums.1 += psums.1;
        sums.2 = sums.2.max(psums.2);
        if let Some(w) = part.worst {
            let take = match self.worst {
                None => true,
                Some((_, _, _, so, sr)) => {
                    so.is_finite() && (!w.3.is_finite() || (w.3 - w.4).abs() > (so - sr).abs())
                }
            };
            if take {
                self.worst = Some(w);
            }
        }
    }

    fn finish(&mut self, sums: (f64, f64, f64)) {
        self.rel_err = if self.nonfinite > 0 {
            f64::NAN
        } else if sums.1 > 0.0 {
            (sums.0 / sums.1).sqrt()
        } else {
            sums.0.sqrt()
        };
    }

    /// True when every element is finite, nothing outside D changed and the error is
    /// within `tol` (NaN never passes).
    pub fn passes(&self, tol: f64) -> bool {
        self.nonfinite == 0 && self.outside_writes == 0 && self.rel_err <= tol
    }
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "rel_err={:.3e} over {} elements",
            self.rel_err, self.count
        )?;
        if self.nonfinite > 0 {
            write!(f, ", {} NaN/inf (unwritten?)", self.nonfinite)?;
        }
        if self.outside_writes > 0 {
            write!(f, ", {} writes outside D", self.outside_writes)?;
        }
        if let Some((b, i, j, o, r)) = self.worst {
            write!(f, ", worst D[{b}]({i},{j}) = {o} vs {r}")?;
        }
        Ok(())
    }
}

/// Compares the device's whole D buffer with the full reference (`reference`'s layout).
/// `before` is D's buffer as it was before the call: every element outside the logical
/// matrices must still hold exactly those bytes.
pub fn compare_full(spec: &GemmSpec, d_buf: &[u8], before: &[u8], reference: &[f64]) -> Comparison {
    let g = spec.geom(D);
    let t = spec.cd;
    let mut cmp = Comparison::default();
    let mut sums = (0.0, 0.0, 0.0);
    let mut inside = vec![false; d_buf.len() / t.size()];
    for b in 0..spec.batch {
        for i in 0..spec.m {
            for j in 0..spec.n {
                let off = g.at(b, i, j);
                inside[off] = true;
                let r = reference[((b * spec.m + i) * spec.n + j) as usize];
                cmp.accumulate(&mut sums, (b, i, j), t.get(d_buf, off), r);
            }
        }
    }
    let s = t.size();
    for (e, &ins) in inside.iter().enumerate() {
        if !ins && d_buf[e * s..(e + 1) * s] != before[e * s..(e + 1) * s] {
            cmp.outside_writes += 1;
        }
    }
    cmp.finish(sums);
    cmp
}

/// Runs `visit(cmp, sums, b, i, j)` over every logical element of D, its rows spread over the
/// cores when D has `PARALLEL_FILL` elements or more; the parts merged in row order.
fn scan_d(
    spec: &GemmSpec,
    visit: impl Fn(&mut Comparison, &mut (f64, f64, f64), u64, u64, u64) + Sync,
) -> (Comparison, (f64, f64, f64)) {
    let rows = spec.batch * spec.m;
    let mut cmp = Comparison::default();
    let mut sums = (0.0, 0.0, 0.0);
    if rows == 0 || spec.n == 0 {
        return (cmp, sums);
    }
    let big = rows.saturating_mul(spec.n) >= PARALLEL_FILL as u64;
    let threads = if big { cpu_threads() as u64 } else { 1 }.clamp(1, rows);
    let per = rows.div_ceil(threads);
    let visit = &visit;
    let parts: Vec<(Comparison, (f64, f64, f64))> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut cmp = Comparison::default();
                    let mut sums = (0.0, 0.0, 0.0);
                    for r in t * per..((t + 1) * per).min(rows) {
                        let (b, i) = (r / spec.m, r % spec.m);
                        for j in 0..spec.n {
                            visit(&mut cmp, &mut sums, b, i, j);
                        }
                    }
                    (cmp, sums)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a scan thread panicked"))
            .collect()
    });
    for (part, psums) in parts {
        cmp.merge(&mut sums, part, psums);
    }
    (cmp, sums)
}

/// Compares D with the reference at `samples` random positions (plus the four corners of
/// the first and last batch), and scans all of D for NaN/inf.
pub fn compare_sampled(
    spec: &GemmSpec,
    w: &Widened,
    d_buf: &[u8],
    samples: usize,
    rng: &mut Rng,
) -> Comparison {
    let g = spec.geom(D);
    let t = spec.cd;
    let mut cmp = Comparison::default();
    let mut sums = (0.0, 0.0, 0.0);
    if spec.m == 0 || spec.n == 0 {
        cmp.finish(sums);
        return cmp;
    }
    let mut pos = Vec::new();
    for b in [0, spec.batch - 1] {
        for (i, j) in [
            (0, 0),
            (spec.m - 1, 0),
            (0, spec.n - 1),
            (spec.m - 1, spec.n - 1),
        ] {
            pos.push((b, i, j));
        }
    }
    for _ in 0..samples {
        pos.push((rng.below(spec.batch), rng.below(spec.m), rng.below(spec.n)));
    }
    let values: Vec<f64> = {
        let chunk = pos.len().div_ceil(cpu_threads());
        let mut v = vec![0.0; pos.len()];
        std::thread::scope(|s| {
            for (ps, vs) in pos.chunks(chunk).zip(v.chunks_mut(chunk)) {
                s.spawn(move || {
                    for (&(b, i, j), out) in ps.iter().zip(vs.iter_mut()) {
                        *out = reference_at(spec, w, b, i, j);
                    }
                });
            }
        });
        v
    };
    for (&(b, i, j), &r) in pos.iter().zip(&values) {
        cmp.accumulate(&mut sums, (b, i, j), t.get(d_buf, g.at(b, i, j)), r);
    }
    let sampled_nonfinite = cmp.nonfinite;
    cmp.finish(sums);
    // Unwritten elements anywhere in D: the whole logical output must be finite.
    let (scan, _) = scan_d(spec, |c, _, b, i, j| {
        if !t.get(d_buf, g.at(b, i, j)).is_finite() {
            c.nonfinite += 1;
        }
    });
    let all_nonfinite = scan.nonfinite;
    if all_nonfinite > sampled_nonfinite {
        cmp.nonfinite = all_nonfinite;
        cmp.rel_err = f64::NAN;
    }
    cmp
}

/// Relative Frobenius difference of two logical D outputs (e.g. deepgemm vs cuBLASLt),
/// both read through `spec`'s D geometry; NaN when either holds a non-finite value.
pub fn compare_outputs(spec: &GemmSpec, x: &[u8], y: &[u8]) -> Comparison {
    let g = spec.geom(D);
    let t = spec.cd;
    let (mut cmp, sums) = scan_d(spec, |cmp, sums, b, i, j| {
        let off = g.at(b, i, j);
        let (xv, yv) = (t.get(x, off), t.get(y, off));
        if !yv.is_finite() {
            // The other library left a NaN: count it, the metric is meaningless.
            cmp.count += 1;
            cmp.nonfinite += 1;
            return;
        }
        cmp.accumulate(sums, (b, i, j), xv, yv);
    });
    cmp.finish(sums);
    if cmp.nonfinite > 0 {
        cmp.rel_err = f64::NAN;
    }
    cmp
}
