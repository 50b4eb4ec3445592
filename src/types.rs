//! Internal, validated forms of the cuBLAS/cuBLASLt enums deepgemm understands.
//!
//! The C boundary receives raw `i32` values (a C enum from the caller may hold any
//! value, and a Rust enum with an invalid discriminant is undefined behaviour); these
//! types are what the raw values become once checked. Numeric values are cuBLAS's.

/// cudaDataType_t values (library_types.h).
pub mod cuda_data_type {
    pub const R_16F: i32 = 2;
    pub const C_16F: i32 = 6;
    pub const R_16BF: i32 = 14;
    pub const C_16BF: i32 = 15;
    pub const R_32F: i32 = 0;
    pub const C_32F: i32 = 4;
    pub const R_64F: i32 = 1;
    pub const C_64F: i32 = 5;
    pub const R_4I: i32 = 16;
    pub const C_4I: i32 = 17;
    pub const R_4U: i32 = 18;
    pub const C_4U: i32 = 19;
    pub const R_8I: i32 = 3;
    pub const C_8I: i32 = 7;
    pub const R_8U: i32 = 8;
    pub const C_8U: i32 = 9;
    pub const R_16I: i32 = 20;
    pub const C_16I: i32 = 21;
    pub const R_16U: i32 = 22;
    pub const C_16U: i32 = 23;
    pub const R_32I: i32 = 10;
    pub const C_32I: i32 = 11;
    pub const R_32U: i32 = 12;
    pub const C_32U: i32 = 13;
    pub const R_64I: i32 = 24;
    pub const C_64I: i32 = 25;
    pub const R_64U: i32 = 26;
    pub const C_64U: i32 = 27;
    pub const R_8F_E4M3: i32 = 28;
    pub const R_8F_E5M2: i32 = 29;

    /// True for every value cudaDataType_t defines (0..=29 as of CUDA 12/13, plus the
    /// CUDA 12.8+ sub-byte float types 30..=35). Anything else is INVALID_VALUE.
    pub fn is_known(v: i32) -> bool {
        (0..=35).contains(&v)
    }
}

/// cublasComputeType_t values.
pub mod compute_type {
    pub const COMPUTE_16F: i32 = 64;
    pub const COMPUTE_16F_PEDANTIC: i32 = 65;
    pub const COMPUTE_32F: i32 = 68;
    pub const COMPUTE_32F_PEDANTIC: i32 = 69;
    pub const COMPUTE_32F_FAST_16F: i32 = 74;
    pub const COMPUTE_32F_FAST_16BF: i32 = 75;
    pub const COMPUTE_32F_FAST_TF32: i32 = 77;
    pub const COMPUTE_64F: i32 = 70;
    pub const COMPUTE_64F_PEDANTIC: i32 = 71;
    pub const COMPUTE_32I: i32 = 72;
    pub const COMPUTE_32I_PEDANTIC: i32 = 73;

    pub fn is_known(v: i32) -> bool {
        matches!(v, 64 | 65 | 68 | 69 | 70 | 71 | 72 | 73 | 74 | 75 | 77)
    }
}

/// Element types deepgemm computes with (A, B, C, D and bias).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScalarType {
    F32,
    F16,
    BF16,
}

impl ScalarType {
    /// The supported subset of cudaDataType_t; `None` means NOT_SUPPORTED.
    pub fn from_cuda(v: i32) -> Option<Self> {
        match v {
            cuda_data_type::R_32F => Some(Self::F32),
            cuda_data_type::R_16F => Some(Self::F16),
            cuda_data_type::R_16BF => Some(Self::BF16),
            _ => None,
        }
    }

    pub fn cuda_value(self) -> i32 {
        match self {
            Self::F32 => cuda_data_type::R_32F,
            Self::F16 => cuda_data_type::R_16F,
            Self::BF16 => cuda_data_type::R_16BF,
        }
    }

    pub fn size_bytes(self) -> usize {
        match self {
            Self::F32 => 4,
            Self::F16 | Self::BF16 => 2,
        }
    }

    /// Short tag used in kernel variant names.
    pub fn tag(self) -> &'static str {
        match self {
            Self::F32 => "f32",
            Self::F16 => "f16",
            Self::BF16 => "bf16",
        }
    }

    /// The storage type's name in kernels/common/types.cuh.
    pub fn kernel_type(self) -> &'static str {
        match self {
            Self::F32 => "float",
            Self::F16 => "half_t",
            Self::BF16 => "bf16_t",
        }
    }
}

/// How the inner product is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Math {
    /// FP32 fused multiply-add on CUDA cores: exact-fp32 path and pre-sm_80 fallback.
    Ffma,
    /// Tensor cores (mma.sync) with the inputs' own type (fp16/bf16 in, fp32 accumulate).
    Mma,
    /// Tensor cores with fp32 inputs rounded to TF32 (COMPUTE_32F_FAST_TF32).
    MmaTf32,
}

impl Math {
    pub fn tag(self) -> &'static str {
        match self {
            Self::Ffma => "ffma",
            Self::Mma => "mma",
            Self::MmaTf32 => "tf32",
        }
    }
}

/// cublasOperation_t.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    N,
    T,
}

impl Op {
    /// CUBLAS_OP_C on real types is a transpose, as in cuBLAS. CUBLAS_OP_CONJG (3) is rejected.
    pub fn from_cuda(v: i32) -> Option<Self> {
        match v {
            0 => Some(Self::N),
            1 | 2 => Some(Self::T),
            _ => None,
        }
    }
}

/// cublasLtOrder_t (only the two dense orders; the IMMA orders are NOT_SUPPORTED).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    Col,
    Row,
}

pub mod order {
    pub const COL: i32 = 0;
    pub const ROW: i32 = 1;
    pub const COL32: i32 = 2;
    pub const COL4_4R2_8C: i32 = 3;
    pub const COL32_2R_4R4: i32 = 4;
    pub fn is_known(v: i32) -> bool {
        (0..=4).contains(&v)
    }
}

/// cublasLtEpilogue_t values.
pub mod epilogue {
    pub const DEFAULT: i32 = 1;
    pub const RELU: i32 = 2;
    pub const RELU_AUX: i32 = 130;
    pub const BIAS: i32 = 4;
    pub const RELU_BIAS: i32 = 6;
    pub const RELU_AUX_BIAS: i32 = 134;
    pub const DRELU: i32 = 136;
    pub const DRELU_BGRAD: i32 = 152;
    pub const GELU: i32 = 32;
    pub const GELU_AUX: i32 = 160;
    pub const GELU_BIAS: i32 = 36;
    pub const GELU_AUX_BIAS: i32 = 164;
    pub const DGELU: i32 = 192;
    pub const DGELU_BGRAD: i32 = 208;
    pub const BGRADA: i32 = 256;
    pub const BGRADB: i32 = 512;

    pub fn is_known(v: i32) -> bool {
        matches!(
            v,
            1 | 2 | 130 | 4 | 6 | 134 | 136 | 152 | 32 | 160 | 36 | 164 | 192 | 208 | 256 | 512
        )
    }
}

/// Activation applied last in the epilogue. Values are the kernel's `epilogue` field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum Activation {
    None = 0,
    Relu = 1,
    /// tanh approximation, as cuBLASLt's GELU epilogues.
    Gelu = 2,
}

/// The supported epilogues: an activation and whether a bias vector is added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Epilogue {
    pub activation: Activation,
    pub bias: bool,
}

impl Epilogue {
    pub const DEFAULT: Epilogue = Epilogue {
        activation: Activation::None,
        bias: false,
    };

    /// `None` for epilogues deepgemm does not implement (AUX, gradients): NOT_SUPPORTED.
    pub fn from_cuda(v: i32) -> Option<Self> {
        let (activation, bias) = match v {
            epilogue::DEFAULT => (Activation::None, false),
            epilogue::RELU => (Activation::Relu, false),
            epilogue::BIAS => (Activation::None, true),
            epilogue::RELU_BIAS => (Activation::Relu, true),
            epilogue::GELU => (Activation::Gelu, false),
            epilogue::GELU_BIAS => (Activation::Gelu, true),
            _ => return None,
        };
        Some(Epilogue { activation, bias })
    }

    pub fn cuda_value(self) -> i32 {
        match (self.activation, self.bias) {
            (Activation::None, false) => epilogue::DEFAULT,
            (Activation::Relu, false) => epilogue::RELU,
            (Activation::None, true) => epilogue::BIAS,
            (Activation::Relu, true) => epilogue::RELU_BIAS,
            (Activation::Gelu, false) => epilogue::GELU,
            (Activation::Gelu, true) => epilogue::GELU_BIAS,
        }
    }
}

/// cublasLtPointerMode_t: HOST 0, DEVICE 1, DEVICE_VECTOR 2, ALPHA_DEVICE_VECTOR_BETA_ZERO 3,
/// ALPHA_DEVICE_VECTOR_BETA_HOST 4. deepgemm supports the two scalar modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PointerMode {
    Host,
    Device,
}

pub mod pointer_mode {
    pub const HOST: i32 = 0;
    pub const DEVICE: i32 = 1;
    pub const DEVICE_VECTOR: i32 = 2;
    pub const ALPHA_DEVICE_VECTOR_BETA_ZERO: i32 = 3;
    pub const ALPHA_DEVICE_VECTOR_BETA_HOST: i32 = 4;
    pub fn is_known(v: i32) -> bool {
        (0..=4).contains(&v)
    }
}

impl PointerMode {
    pub fn from_cuda(v: i32) -> Option<Self> {
        match v {
            pointer_mode::HOST => Some(Self::Host),
            pointer_mode::DEVICE => Some(Self::Device),
            _ => None,
        }
    }
}
