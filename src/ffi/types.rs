//! The C types of the API: the status enum, the value typedefs and their constants, the
//! opaque objects and the two plain structs (algo, heuristic result).
//!
//! Every numeric value is cuBLAS's/cuBLASLt's (checked against cublasLt.h and cublas_api.h of
//! CUDA 13.0), so a caller switches libraries by renaming. Values the caller passes in are
//! `int32_t` typedefs, not C enums: a C enum from the caller may hold any value, and a Rust
//! enum with an invalid discriminant would be undefined behaviour; the library checks them.
#![allow(non_camel_case_types, non_upper_case_globals)]

use crate::error::status;

/// cublasStatus_t. Returned by every function; never read from the caller.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum deepgemmStatus_t {
    DEEPGEMM_STATUS_SUCCESS = 0,
    /// No CUDA driver or no device, or the handle is NULL.
    DEEPGEMM_STATUS_NOT_INITIALIZED = 1,
    DEEPGEMM_STATUS_ALLOC_FAILED = 3,
    /// An argument is invalid (NULL pointer, unknown enum value, inconsistent sizes).
    DEEPGEMM_STATUS_INVALID_VALUE = 7,
    DEEPGEMM_STATUS_ARCH_MISMATCH = 8,
    DEEPGEMM_STATUS_MAPPING_ERROR = 11,
    DEEPGEMM_STATUS_EXECUTION_FAILED = 13,
    /// A bug inside deepgemm (including a caught panic).
    DEEPGEMM_STATUS_INTERNAL_ERROR = 14,
    /// A valid request deepgemm does not implement.
    DEEPGEMM_STATUS_NOT_SUPPORTED = 15,
    DEEPGEMM_STATUS_LICENSE_ERROR = 16,
}

impl deepgemmStatus_t {
    /// Every status, in numeric order.
    pub const ALL: [deepgemmStatus_t; 10] = [
        Self::DEEPGEMM_STATUS_SUCCESS,
        Self::DEEPGEMM_STATUS_NOT_INITIALIZED,
        Self::DEEPGEMM_STATUS_ALLOC_FAILED,
        Self::DEEPGEMM_STATUS_INVALID_VALUE,
        Self::DEEPGEMM_STATUS_ARCH_MISMATCH,
        Self::DEEPGEMM_STATUS_MAPPING_ERROR,
        Self::DEEPGEMM_STATUS_EXECUTION_FAILED,
        Self::DEEPGEMM_STATUS_INTERNAL_ERROR,
        Self::DEEPGEMM_STATUS_NOT_SUPPORTED,
        Self::DEEPGEMM_STATUS_LICENSE_ERROR,
    ];

    /// The status with this numeric value (the `error::status` constants).
    pub fn from_i32(v: i32) -> Option<Self> {
        Self::ALL.into_iter().find(|s| *s as i32 == v)
    }

    /// The C spelling, e.g. "DEEPGEMM_STATUS_SUCCESS".
    pub fn name(self) -> &'static std::ffi::CStr {
        match self {
            Self::DEEPGEMM_STATUS_SUCCESS => c"DEEPGEMM_STATUS_SUCCESS",
            Self::DEEPGEMM_STATUS_NOT_INITIALIZED => c"DEEPGEMM_STATUS_NOT_INITIALIZED",
            Self::DEEPGEMM_STATUS_ALLOC_FAILED => c"DEEPGEMM_STATUS_ALLOC_FAILED",
            Self::DEEPGEMM_STATUS_INVALID_VALUE => c"DEEPGEMM_STATUS_INVALID_VALUE",
            Self::DEEPGEMM_STATUS_ARCH_MISMATCH => c"DEEPGEMM_STATUS_ARCH_MISMATCH",
            Self::DEEPGEMM_STATUS_MAPPING_ERROR => c"DEEPGEMM_STATUS_MAPPING_ERROR",
            Self::DEEPGEMM_STATUS_EXECUTION_FAILED => c"DEEPGEMM_STATUS_EXECUTION_FAILED",
            Self::DEEPGEMM_STATUS_INTERNAL_ERROR => c"DEEPGEMM_STATUS_INTERNAL_ERROR",
            Self::DEEPGEMM_STATUS_NOT_SUPPORTED => c"DEEPGEMM_STATUS_NOT_SUPPORTED",
            Self::DEEPGEMM_STATUS_LICENSE_ERROR => c"DEEPGEMM_STATUS_LICENSE_ERROR",
        }
    }

    /// A sentence for logs and users (cuBLAS's wording where it has one).
    pub fn description(self) -> &'static std::ffi::CStr {
        match self {
            Self::DEEPGEMM_STATUS_SUCCESS => c"success",
            Self::DEEPGEMM_STATUS_NOT_INITIALIZED => {
                c"the library was not initialized (no CUDA driver or device, or a NULL handle)"
            }
            Self::DEEPGEMM_STATUS_ALLOC_FAILED => c"resource allocation failed",
            Self::DEEPGEMM_STATUS_INVALID_VALUE => c"an invalid value was used as an argument",
            Self::DEEPGEMM_STATUS_ARCH_MISMATCH => {
                c"the device does not support the requested feature"
            }
            Self::DEEPGEMM_STATUS_MAPPING_ERROR => c"an access to GPU memory space failed",
            Self::DEEPGEMM_STATUS_EXECUTION_FAILED => c"the GPU program failed to execute",
            Self::DEEPGEMM_STATUS_INTERNAL_ERROR => c"an internal operation failed",
            Self::DEEPGEMM_STATUS_NOT_SUPPORTED => c"the functionality requested is not supported",
            Self::DEEPGEMM_STATUS_LICENSE_ERROR => c"license error",
        }
    }
}

impl From<&crate::error::Error> for deepgemmStatus_t {
    fn from(e: &crate::error::Error) -> Self {
        // error::status holds exactly the values of this enum.
        Self::from_i32(e.status()).unwrap_or(Self::DEEPGEMM_STATUS_INTERNAL_ERROR)
    }
}

const _: () = {
    assert!(deepgemmStatus_t::DEEPGEMM_STATUS_SUCCESS as i32 == status::SUCCESS);
    assert!(deepgemmStatus_t::DEEPGEMM_STATUS_NOT_INITIALIZED as i32 == status::NOT_INITIALIZED);
    assert!(deepgemmStatus_t::DEEPGEMM_STATUS_ALLOC_FAILED as i32 == status::ALLOC_FAILED);
    assert!(deepgemmStatus_t::DEEPGEMM_STATUS_INVALID_VALUE as i32 == status::INVALID_VALUE);
    assert!(deepgemmStatus_t::DEEPGEMM_STATUS_ARCH_MISMATCH as i32 == status::ARCH_MISMATCH);
    assert!(deepgemmStatus_t::DEEPGEMM_STATUS_MAPPING_ERROR as i32 == status::MAPPING_ERROR);
    assert!(deepgemmStatus_t::DEEPGEMM_STATUS_EXECUTION_FAILED as i32 == status::EXECUTION_FAILED);
    assert!(deepgemmStatus_t::DEEPGEMM_STATUS_INTERNAL_ERROR as i32 == status::INTERNAL_ERROR);
    assert!(deepgemmStatus_t::DEEPGEMM_STATUS_NOT_SUPPORTED as i32 == status::NOT_SUPPORTED);
    assert!(deepgemmStatus_t::DEEPGEMM_STATUS_LICENSE_ERROR as i32 == status::LICENSE_ERROR);
};

// ---------------------------------------------------------------------------------------
// cudaDataType_t (library_types.h)

/// cudaDataType_t: the element type of a matrix, or the scale type of a matmul.
pub type deepgemmDataType_t = i32;
pub const DEEPGEMM_R_16F: deepgemmDataType_t = 2;
pub const DEEPGEMM_C_16F: deepgemmDataType_t = 6;
pub const DEEPGEMM_R_16BF: deepgemmDataType_t = 14;
pub const DEEPGEMM_C_16BF: deepgemmDataType_t = 15;
pub const DEEPGEMM_R_32F: deepgemmDataType_t = 0;
pub const DEEPGEMM_C_32F: deepgemmDataType_t = 4;
pub const DEEPGEMM_R_64F: deepgemmDataType_t = 1;
pub const DEEPGEMM_C_64F: deepgemmDataType_t = 5;
pub const DEEPGEMM_R_4I: deepgemmDataType_t = 16;
pub const DEEPGEMM_C_4I: deepgemmDataType_t = 17;
pub const DEEPGEMM_R_4U: deepgemmDataType_t = 18;
pub const DEEPGEMM_C_4U: deepgemmDataType_t = 19;
pub const DEEPGEMM_R_8I: deepgemmDataType_t = 3;
pub const DEEPGEMM_C_8I: deepgemmDataType_t = 7;
pub const DEEPGEMM_R_8U: deepgemmDataType_t = 8;
pub const DEEPGEMM_C_8U: deepgemmDataType_t = 9;
pub const DEEPGEMM_R_16I: deepgemmDataType_t = 20;
pub const DEEPGEMM_C_16I: deepgemmDataType_t = 21;
pub const DEEPGEMM_R_16U: deepgemmDataType_t = 22;
pub const DEEPGEMM_C_16U: deepgemmDataType_t = 23;
pub const DEEPGEMM_R_32I: deepgemmDataType_t = 10;
pub const DEEPGEMM_C_32I: deepgemmDataType_t = 11;
pub const DEEPGEMM_R_32U: deepgemmDataType_t = 12;
pub const DEEPGEMM_C_32U: deepgemmDataType_t = 13;
pub const DEEPGEMM_R_64I: deepgemmDataType_t = 24;
pub const DEEPGEMM_C_64I: deepgemmDataType_t = 25;
pub const DEEPGEMM_R_64U: deepgemmDataType_t = 26;
pub const DEEPGEMM_C_64U: deepgemmDataType_t = 27;
pub const DEEPGEMM_R_8F_E4M3: deepgemmDataType_t = 28;
pub const DEEPGEMM_R_8F_E5M2: deepgemmDataType_t = 29;
pub const DEEPGEMM_R_8F_UE8M0: deepgemmDataType_t = 30;
pub const DEEPGEMM_R_6F_E2M3: deepgemmDataType_t = 31;
pub const DEEPGEMM_R_6F_E3M2: deepgemmDataType_t = 32;
pub const DEEPGEMM_R_4F_E2M1: deepgemmDataType_t = 33;

// ---------------------------------------------------------------------------------------
// cublasComputeType_t

/// cublasComputeType_t: how products are accumulated. deepgemm implements COMPUTE_32F,
/// COMPUTE_32F_PEDANTIC and COMPUTE_32F_FAST_TF32; the others are NOT_SUPPORTED.
pub type deepgemmComputeType_t = i32;
pub const DEEPGEMM_COMPUTE_16F: deepgemmComputeType_t = 64;
pub const DEEPGEMM_COMPUTE_16F_PEDANTIC: deepgemmComputeType_t = 65;
pub const DEEPGEMM_COMPUTE_32F: deepgemmComputeType_t = 68;
pub const DEEPGEMM_COMPUTE_32F_PEDANTIC: deepgemmComputeType_t = 69;
pub const DEEPGEMM_COMPUTE_32F_FAST_16F: deepgemmComputeType_t = 74;
pub const DEEPGEMM_COMPUTE_32F_FAST_16BF: deepgemmComputeType_t = 75;
pub const DEEPGEMM_COMPUTE_32F_FAST_TF32: deepgemmComputeType_t = 77;
/// CUDA 13.0: fp32 emulated with bf16x9 (accepted by Create, NOT_SUPPORTED at use).
pub const DEEPGEMM_COMPUTE_32F_EMULATED_16BFX9: deepgemmComputeType_t = 78;
pub const DEEPGEMM_COMPUTE_64F: deepgemmComputeType_t = 70;
pub const DEEPGEMM_COMPUTE_64F_PEDANTIC: deepgemmComputeType_t = 71;
/// CUDA 13.0: fp64 emulated with fixed point (accepted by Create, NOT_SUPPORTED at use).
pub const DEEPGEMM_COMPUTE_64F_EMULATED_FIXEDPOINT: deepgemmComputeType_t = 79;
pub const DEEPGEMM_COMPUTE_32I: deepgemmComputeType_t = 72;
pub const DEEPGEMM_COMPUTE_32I_PEDANTIC: deepgemmComputeType_t = 73;

// ---------------------------------------------------------------------------------------
// cuBLAS enums

/// cublasOperation_t. OP_C on real types is a transpose; OP_CONJG is rejected.
pub type deepgemmOperation_t = i32;
pub const DEEPGEMM_OP_N: deepgemmOperation_t = 0;
pub const DEEPGEMM_OP_T: deepgemmOperation_t = 1;
pub const DEEPGEMM_OP_C: deepgemmOperation_t = 2;
pub const DEEPGEMM_OP_CONJG: deepgemmOperation_t = 3;

/// libraryPropertyType (library_types.h): which part of the version GetProperty reads.
pub type deepgemmLibraryPropertyType_t = i32;
pub const DEEPGEMM_MAJOR_VERSION: deepgemmLibraryPropertyType_t = 0;
pub const DEEPGEMM_MINOR_VERSION: deepgemmLibraryPropertyType_t = 1;
pub const DEEPGEMM_PATCH_LEVEL: deepgemmLibraryPropertyType_t = 2;

/// cublasMath_t: the handle API's math mode (deepgemmSetMathMode).
pub type deepgemmMath_t = i32;
pub const DEEPGEMM_DEFAULT_MATH: deepgemmMath_t = 0;
pub const DEEPGEMM_TENSOR_OP_MATH: deepgemmMath_t = 1;
pub const DEEPGEMM_PEDANTIC_MATH: deepgemmMath_t = 2;
pub const DEEPGEMM_TF32_TENSOR_OP_MATH: deepgemmMath_t = 3;
pub const DEEPGEMM_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION: deepgemmMath_t = 16;

/// cublasPointerMode_t: where alpha and beta live for the handle API.
pub type deepgemmPointerMode_t = i32;
pub const DEEPGEMM_POINTER_MODE_HOST: deepgemmPointerMode_t = 0;
pub const DEEPGEMM_POINTER_MODE_DEVICE: deepgemmPointerMode_t = 1;

/// cublasFillMode_t (the matmul descriptor's FILL_MODE; only FULL is supported).
pub type deepgemmFillMode_t = i32;
pub const DEEPGEMM_FILL_MODE_LOWER: deepgemmFillMode_t = 0;
pub const DEEPGEMM_FILL_MODE_UPPER: deepgemmFillMode_t = 1;
pub const DEEPGEMM_FILL_MODE_FULL: deepgemmFillMode_t = 2;

/// cublasGemmAlgo_t. Every value cuBLAS defines except AUTOTUNE is accepted and means
/// "let deepgemm choose".
pub type deepgemmGemmAlgo_t = i32;
pub const DEEPGEMM_GEMM_DEFAULT: deepgemmGemmAlgo_t = -1;
pub const DEEPGEMM_GEMM_DFALT: deepgemmGemmAlgo_t = -1;
pub const DEEPGEMM_GEMM_ALGO0: deepgemmGemmAlgo_t = 0;
pub const DEEPGEMM_GEMM_ALGO1: deepgemmGemmAlgo_t = 1;
pub const DEEPGEMM_GEMM_ALGO2: deepgemmGemmAlgo_t = 2;
pub const DEEPGEMM_GEMM_ALGO3: deepgemmGemmAlgo_t = 3;
pub const DEEPGEMM_GEMM_ALGO4: deepgemmGemmAlgo_t = 4;
pub const DEEPGEMM_GEMM_ALGO5: deepgemmGemmAlgo_t = 5;
pub const DEEPGEMM_GEMM_ALGO6: deepgemmGemmAlgo_t = 6;
pub const DEEPGEMM_GEMM_ALGO7: deepgemmGemmAlgo_t = 7;
pub const DEEPGEMM_GEMM_ALGO8: deepgemmGemmAlgo_t = 8;
pub const DEEPGEMM_GEMM_ALGO9: deepgemmGemmAlgo_t = 9;
pub const DEEPGEMM_GEMM_ALGO10: deepgemmGemmAlgo_t = 10;
pub const DEEPGEMM_GEMM_ALGO11: deepgemmGemmAlgo_t = 11;
pub const DEEPGEMM_GEMM_ALGO12: deepgemmGemmAlgo_t = 12;
pub const DEEPGEMM_GEMM_ALGO13: deepgemmGemmAlgo_t = 13;
pub const DEEPGEMM_GEMM_ALGO14: deepgemmGemmAlgo_t = 14;
pub const DEEPGEMM_GEMM_ALGO15: deepgemmGemmAlgo_t = 15;
pub const DEEPGEMM_GEMM_ALGO16: deepgemmGemmAlgo_t = 16;
pub const DEEPGEMM_GEMM_ALGO17: deepgemmGemmAlgo_t = 17;
pub const DEEPGEMM_GEMM_ALGO18: deepgemmGemmAlgo_t = 18;
pub const DEEPGEMM_GEMM_ALGO19: deepgemmGemmAlgo_t = 19;
pub const DEEPGEMM_GEMM_ALGO20: deepgemmGemmAlgo_t = 20;
pub const DEEPGEMM_GEMM_ALGO21: deepgemmGemmAlgo_t = 21;
pub const DEEPGEMM_GEMM_ALGO22: deepgemmGemmAlgo_t = 22;
pub const DEEPGEMM_GEMM_ALGO23: deepgemmGemmAlgo_t = 23;
pub const DEEPGEMM_GEMM_DEFAULT_TENSOR_OP: deepgemmGemmAlgo_t = 99;
pub const DEEPGEMM_GEMM_DFALT_TENSOR_OP: deepgemmGemmAlgo_t = 99;
pub const DEEPGEMM_GEMM_ALGO0_TENSOR_OP: deepgemmGemmAlgo_t = 100;
pub const DEEPGEMM_GEMM_ALGO1_TENSOR_OP: deepgemmGemmAlgo_t = 101;
pub const DEEPGEMM_GEMM_ALGO2_TENSOR_OP: deepgemmGemmAlgo_t = 102;
pub const DEEPGEMM_GEMM_ALGO3_TENSOR_OP: deepgemmGemmAlgo_t = 103;
pub const DEEPGEMM_GEMM_ALGO4_TENSOR_OP: deepgemmGemmAlgo_t = 104;
pub const DEEPGEMM_GEMM_ALGO5_TENSOR_OP: deepgemmGemmAlgo_t = 105;
pub const DEEPGEMM_GEMM_ALGO6_TENSOR_OP: deepgemmGemmAlgo_t = 106;
pub const DEEPGEMM_GEMM_ALGO7_TENSOR_OP: deepgemmGemmAlgo_t = 107;
pub const DEEPGEMM_GEMM_ALGO8_TENSOR_OP: deepgemmGemmAlgo_t = 108;
pub const DEEPGEMM_GEMM_ALGO9_TENSOR_OP: deepgemmGemmAlgo_t = 109;
pub const DEEPGEMM_GEMM_ALGO10_TENSOR_OP: deepgemmGemmAlgo_t = 110;
pub const DEEPGEMM_GEMM_ALGO11_TENSOR_OP: deepgemmGemmAlgo_t = 111;
pub const DEEPGEMM_GEMM_ALGO12_TENSOR_OP: deepgemmGemmAlgo_t = 112;
pub const DEEPGEMM_GEMM_ALGO13_TENSOR_OP: deepgemmGemmAlgo_t = 113;
pub const DEEPGEMM_GEMM_ALGO14_TENSOR_OP: deepgemmGemmAlgo_t = 114;
pub const DEEPGEMM_GEMM_ALGO15_TENSOR_OP: deepgemmGemmAlgo_t = 115;

// ---------------------------------------------------------------------------------------
// cuBLASLt enums

/// cublasLtOrder_t: memory order of a matrix layout (COL and ROW are supported).
pub type deepgemmLtOrder_t = i32;
pub const DEEPGEMMLT_ORDER_COL: deepgemmLtOrder_t = 0;
pub const DEEPGEMMLT_ORDER_ROW: deepgemmLtOrder_t = 1;
pub const DEEPGEMMLT_ORDER_COL32: deepgemmLtOrder_t = 2;
pub const DEEPGEMMLT_ORDER_COL4_4R2_8C: deepgemmLtOrder_t = 3;
pub const DEEPGEMMLT_ORDER_COL32_2R_4R4: deepgemmLtOrder_t = 4;

/// cublasLtEpilogue_t (stored as uint32_t). Supported: DEFAULT, RELU, BIAS, RELU_BIAS,
/// GELU, GELU_BIAS (GELU is the tanh approximation, bias has one value per row of D).
pub type deepgemmLtEpilogue_t = i32;
pub const DEEPGEMMLT_EPILOGUE_DEFAULT: deepgemmLtEpilogue_t = 1;
pub const DEEPGEMMLT_EPILOGUE_RELU: deepgemmLtEpilogue_t = 2;
pub const DEEPGEMMLT_EPILOGUE_RELU_AUX: deepgemmLtEpilogue_t = 130;
pub const DEEPGEMMLT_EPILOGUE_BIAS: deepgemmLtEpilogue_t = 4;
pub const DEEPGEMMLT_EPILOGUE_RELU_BIAS: deepgemmLtEpilogue_t = 6;
pub const DEEPGEMMLT_EPILOGUE_RELU_AUX_BIAS: deepgemmLtEpilogue_t = 134;
pub const DEEPGEMMLT_EPILOGUE_DRELU: deepgemmLtEpilogue_t = 136;
pub const DEEPGEMMLT_EPILOGUE_DRELU_BGRAD: deepgemmLtEpilogue_t = 152;
pub const DEEPGEMMLT_EPILOGUE_GELU: deepgemmLtEpilogue_t = 32;
pub const DEEPGEMMLT_EPILOGUE_GELU_AUX: deepgemmLtEpilogue_t = 160;
pub const DEEPGEMMLT_EPILOGUE_GELU_BIAS: deepgemmLtEpilogue_t = 36;
pub const DEEPGEMMLT_EPILOGUE_GELU_AUX_BIAS: deepgemmLtEpilogue_t = 164;
pub const DEEPGEMMLT_EPILOGUE_DGELU: deepgemmLtEpilogue_t = 192;
pub const DEEPGEMMLT_EPILOGUE_DGELU_BGRAD: deepgemmLtEpilogue_t = 208;
pub const DEEPGEMMLT_EPILOGUE_BGRADA: deepgemmLtEpilogue_t = 256;
pub const DEEPGEMMLT_EPILOGUE_BGRADB: deepgemmLtEpilogue_t = 512;

/// cublasLtPointerMode_t: where alpha and beta live (HOST and DEVICE are supported).
pub type deepgemmLtPointerMode_t = i32;
pub const DEEPGEMMLT_POINTER_MODE_HOST: deepgemmLtPointerMode_t = 0;
pub const DEEPGEMMLT_POINTER_MODE_DEVICE: deepgemmLtPointerMode_t = 1;
pub const DEEPGEMMLT_POINTER_MODE_DEVICE_VECTOR: deepgemmLtPointerMode_t = 2;
pub const DEEPGEMMLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO: deepgemmLtPointerMode_t = 3;
pub const DEEPGEMMLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_HOST: deepgemmLtPointerMode_t = 4;

/// cublasLtMatmulSearch_t (the preference's SEARCH_MODE).
pub type deepgemmLtMatmulSearch_t = i32;
pub const DEEPGEMMLT_SEARCH_BEST_FIT: deepgemmLtMatmulSearch_t = 0;
pub const DEEPGEMMLT_SEARCH_LIMITED_BY_ALGO_ID: deepgemmLtMatmulSearch_t = 1;

/// cublasLtReductionScheme_t (bits of the preference's REDUCTION_SCHEME_MASK).
pub type deepgemmLtReductionScheme_t = i32;
pub const DEEPGEMMLT_REDUCTION_SCHEME_NONE: deepgemmLtReductionScheme_t = 0;
pub const DEEPGEMMLT_REDUCTION_SCHEME_INPLACE: deepgemmLtReductionScheme_t = 1;
pub const DEEPGEMMLT_REDUCTION_SCHEME_COMPUTE_TYPE: deepgemmLtReductionScheme_t = 2;
pub const DEEPGEMMLT_REDUCTION_SCHEME_OUTPUT_TYPE: deepgemmLtReductionScheme_t = 4;
pub const DEEPGEMMLT_REDUCTION_SCHEME_MASK: deepgemmLtReductionScheme_t = 7;

/// cublasLtMatmulMatrixScale_t (the descriptor's *_SCALE_MODE; only SCALAR_32F, the
/// default, is accepted by deepgemmLtMatmul).
pub type deepgemmLtMatmulMatrixScale_t = i32;
pub const DEEPGEMMLT_MATMUL_MATRIX_SCALE_SCALAR_32F: deepgemmLtMatmulMatrixScale_t = 0;
pub const DEEPGEMMLT_MATMUL_MATRIX_SCALE_VEC16_UE4M3: deepgemmLtMatmulMatrixScale_t = 1;
pub const DEEPGEMMLT_MATMUL_MATRIX_SCALE_VEC32_UE8M0: deepgemmLtMatmulMatrixScale_t = 2;
pub const DEEPGEMMLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F: deepgemmLtMatmulMatrixScale_t = 3;
pub const DEEPGEMMLT_MATMUL_MATRIX_SCALE_VEC128_32F: deepgemmLtMatmulMatrixScale_t = 4;
pub const DEEPGEMMLT_MATMUL_MATRIX_SCALE_BLK128x128_32F: deepgemmLtMatmulMatrixScale_t = 5;

/// cublasLtBatchMode_t (the layout's BATCH_MODE; only STRIDED is supported).
pub type deepgemmLtBatchMode_t = i32;
pub const DEEPGEMMLT_BATCH_MODE_STRIDED: deepgemmLtBatchMode_t = 0;
pub const DEEPGEMMLT_BATCH_MODE_POINTER_ARRAY: deepgemmLtBatchMode_t = 1;

/// cublasLtMatmulDescAttributes_t. The comment on each gives the C type of its value
/// (Set/Get sizes must match it exactly) and its default.
pub type deepgemmLtMatmulDescAttributes_t = i32;
/// int32_t (deepgemmComputeType_t), set by deepgemmLtMatmulDescCreate.
pub const DEEPGEMMLT_MATMUL_DESC_COMPUTE_TYPE: deepgemmLtMatmulDescAttributes_t = 0;
/// int32_t (deepgemmDataType_t), set by deepgemmLtMatmulDescCreate.
pub const DEEPGEMMLT_MATMUL_DESC_SCALE_TYPE: deepgemmLtMatmulDescAttributes_t = 1;
/// int32_t (deepgemmLtPointerMode_t), default HOST.
pub const DEEPGEMMLT_MATMUL_DESC_POINTER_MODE: deepgemmLtMatmulDescAttributes_t = 2;
/// int32_t (deepgemmOperation_t), default OP_N.
pub const DEEPGEMMLT_MATMUL_DESC_TRANSA: deepgemmLtMatmulDescAttributes_t = 3;
/// int32_t (deepgemmOperation_t), default OP_N.
pub const DEEPGEMMLT_MATMUL_DESC_TRANSB: deepgemmLtMatmulDescAttributes_t = 4;
/// int32_t (deepgemmOperation_t), default OP_N; only OP_N is supported.
pub const DEEPGEMMLT_MATMUL_DESC_TRANSC: deepgemmLtMatmulDescAttributes_t = 5;
/// int32_t (deepgemmFillMode_t), default FULL; only FULL is supported.
pub const DEEPGEMMLT_MATMUL_DESC_FILL_MODE: deepgemmLtMatmulDescAttributes_t = 6;
/// uint32_t (deepgemmLtEpilogue_t), default DEFAULT.
pub const DEEPGEMMLT_MATMUL_DESC_EPILOGUE: deepgemmLtMatmulDescAttributes_t = 7;
/// const void * (device), default NULL.
pub const DEEPGEMMLT_MATMUL_DESC_BIAS_POINTER: deepgemmLtMatmulDescAttributes_t = 8;
/// int64_t, default 0.
pub const DEEPGEMMLT_MATMUL_DESC_BIAS_BATCH_STRIDE: deepgemmLtMatmulDescAttributes_t = 10;
/// void *, default NULL; non-NULL is NOT_SUPPORTED.
pub const DEEPGEMMLT_MATMUL_DESC_EPILOGUE_AUX_POINTER: deepgemmLtMatmulDescAttributes_t = 11;
/// int64_t, default 0.
pub const DEEPGEMMLT_MATMUL_DESC_EPILOGUE_AUX_LD: deepgemmLtMatmulDescAttributes_t = 12;
/// int64_t, default 0.
pub const DEEPGEMMLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE: deepgemmLtMatmulDescAttributes_t = 13;
/// int64_t, default 0.
pub const DEEPGEMMLT_MATMUL_DESC_ALPHA_VECTOR_BATCH_STRIDE: deepgemmLtMatmulDescAttributes_t = 14;
/// int32_t, default 0 (all SMs): the SMs the call is planned for, leaving the rest to work the
/// caller runs beside it: the Hopper, skinny and pack kernels launch at most that many CTAs at
/// once (one an SM), no cluster larger, and not under the previous kernel (no programmatic
/// dependent launch). The portable kernels, not persistent, take SMs as they free. An algo
/// the heuristic listed under one target runs under that target only (its grid is part of it).
pub const DEEPGEMMLT_MATMUL_DESC_SM_COUNT_TARGET: deepgemmLtMatmulDescAttributes_t = 15;
/// const void *, default NULL; non-NULL is NOT_SUPPORTED.
pub const DEEPGEMMLT_MATMUL_DESC_A_SCALE_POINTER: deepgemmLtMatmulDescAttributes_t = 17;
/// const void *, default NULL; non-NULL is NOT_SUPPORTED.
pub const DEEPGEMMLT_MATMUL_DESC_B_SCALE_POINTER: deepgemmLtMatmulDescAttributes_t = 18;
/// const void *, default NULL; non-NULL is NOT_SUPPORTED.
pub const DEEPGEMMLT_MATMUL_DESC_C_SCALE_POINTER: deepgemmLtMatmulDescAttributes_t = 19;
/// const void *, default NULL; non-NULL is NOT_SUPPORTED.
pub const DEEPGEMMLT_MATMUL_DESC_D_SCALE_POINTER: deepgemmLtMatmulDescAttributes_t = 20;
/// void *, default NULL; non-NULL is NOT_SUPPORTED.
pub const DEEPGEMMLT_MATMUL_DESC_AMAX_D_POINTER: deepgemmLtMatmulDescAttributes_t = 21;
/// int32_t (deepgemmDataType_t), default -1.
pub const DEEPGEMMLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE: deepgemmLtMatmulDescAttributes_t = 22;
/// void *, default NULL; non-NULL is NOT_SUPPORTED.
pub const DEEPGEMMLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_POINTER: deepgemmLtMatmulDescAttributes_t = 23;
/// void *, default NULL; non-NULL is NOT_SUPPORTED.
pub const DEEPGEMMLT_MATMUL_DESC_EPILOGUE_AUX_AMAX_POINTER: deepgemmLtMatmulDescAttributes_t = 24;
/// int8_t, default 0; accepted and ignored (it only concerns fp8).
pub const DEEPGEMMLT_MATMUL_DESC_FAST_ACCUM: deepgemmLtMatmulDescAttributes_t = 25;
/// int32_t (deepgemmDataType_t), default -1 (the type of D).
pub const DEEPGEMMLT_MATMUL_DESC_BIAS_DATA_TYPE: deepgemmLtMatmulDescAttributes_t = 26;
/// int32_t, default 0 (CUDA 12.x only); non-zero is NOT_SUPPORTED.
pub const DEEPGEMMLT_MATMUL_DESC_ATOMIC_SYNC_NUM_CHUNKS_D_ROWS: deepgemmLtMatmulDescAttributes_t =
    27;
/// int32_t, default 0 (CUDA 12.x only); non-zero is NOT_SUPPORTED.
pub const DEEPGEMMLT_MATMUL_DESC_ATOMIC_SYNC_NUM_CHUNKS_D_COLS: deepgemmLtMatmulDescAttributes_t =
    28;
/// int32_t *, default NULL (CUDA 12.x only); non-NULL is NOT_SUPPORTED.
pub const DEEPGEMMLT_MATMUL_DESC_ATOMIC_SYNC_IN_COUNTERS_POINTER: deepgemmLtMatmulDescAttributes_t =
    29;
/// int32_t *, default NULL (CUDA 12.x only); non-NULL is NOT_SUPPORTED.
pub const DEEPGEMMLT_MATMUL_DESC_ATOMIC_SYNC_OUT_COUNTERS_POINTER:
    deepgemmLtMatmulDescAttributes_t = 30;
/// int32_t (deepgemmLtMatmulMatrixScale_t), default 0; non-zero is NOT_SUPPORTED.
pub const DEEPGEMMLT_MATMUL_DESC_A_SCALE_MODE: deepgemmLtMatmulDescAttributes_t = 31;
/// int32_t (deepgemmLtMatmulMatrixScale_t), default 0; non-zero is NOT_SUPPORTED.
pub const DEEPGEMMLT_MATMUL_DESC_B_SCALE_MODE: deepgemmLtMatmulDescAttributes_t = 32;
/// int32_t (deepgemmLtMatmulMatrixScale_t), default 0; non-zero is NOT_SUPPORTED.
pub const DEEPGEMMLT_MATMUL_DESC_C_SCALE_MODE: deepgemmLtMatmulDescAttributes_t = 33;
/// int32_t (deepgemmLtMatmulMatrixScale_t), default 0; non-zero is NOT_SUPPORTED.
pub const DEEPGEMMLT_MATMUL_DESC_D_SCALE_MODE: deepgemmLtMatmulDescAttributes_t = 34;
/// int32_t (deepgemmLtMatmulMatrixScale_t), default 0; non-zero is NOT_SUPPORTED.
pub const DEEPGEMMLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_MODE: deepgemmLtMatmulDescAttributes_t = 35;
/// void *, default NULL; non-NULL is NOT_SUPPORTED.
pub const DEEPGEMMLT_MATMUL_DESC_D_OUT_SCALE_POINTER: deepgemmLtMatmulDescAttributes_t = 36;
/// int32_t (deepgemmLtMatmulMatrixScale_t), default 0; non-zero is NOT_SUPPORTED.
pub const DEEPGEMMLT_MATMUL_DESC_D_OUT_SCALE_MODE: deepgemmLtMatmulDescAttributes_t = 37;
/// pointer to an emulation descriptor, default NULL; non-NULL is NOT_SUPPORTED.
pub const DEEPGEMMLT_MATMUL_DESC_EMULATION_DESCRIPTOR: deepgemmLtMatmulDescAttributes_t = 38;

/// cublasLtMatrixLayoutAttribute_t.
pub type deepgemmLtMatrixLayoutAttribute_t = i32;
/// uint32_t (deepgemmDataType_t), set by deepgemmLtMatrixLayoutCreate.
pub const DEEPGEMMLT_MATRIX_LAYOUT_TYPE: deepgemmLtMatrixLayoutAttribute_t = 0;
/// int32_t (deepgemmLtOrder_t), default COL.
pub const DEEPGEMMLT_MATRIX_LAYOUT_ORDER: deepgemmLtMatrixLayoutAttribute_t = 1;
/// uint64_t, set by deepgemmLtMatrixLayoutCreate.
pub const DEEPGEMMLT_MATRIX_LAYOUT_ROWS: deepgemmLtMatrixLayoutAttribute_t = 2;
/// uint64_t, set by deepgemmLtMatrixLayoutCreate.
pub const DEEPGEMMLT_MATRIX_LAYOUT_COLS: deepgemmLtMatrixLayoutAttribute_t = 3;
/// int64_t, set by deepgemmLtMatrixLayoutCreate.
pub const DEEPGEMMLT_MATRIX_LAYOUT_LD: deepgemmLtMatrixLayoutAttribute_t = 4;
/// int32_t, default 1.
pub const DEEPGEMMLT_MATRIX_LAYOUT_BATCH_COUNT: deepgemmLtMatrixLayoutAttribute_t = 5;
/// int64_t (elements), default 0.
pub const DEEPGEMMLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET: deepgemmLtMatrixLayoutAttribute_t = 6;
/// int64_t, default 0; non-zero (planar complex) is NOT_SUPPORTED.
pub const DEEPGEMMLT_MATRIX_LAYOUT_PLANE_OFFSET: deepgemmLtMatrixLayoutAttribute_t = 7;
/// int32_t (deepgemmLtBatchMode_t), default STRIDED; POINTER_ARRAY is NOT_SUPPORTED.
pub const DEEPGEMMLT_MATRIX_LAYOUT_BATCH_MODE: deepgemmLtMatrixLayoutAttribute_t = 8;

/// cublasLtMatmulPreferenceAttributes_t.
pub type deepgemmLtMatmulPreferenceAttributes_t = i32;
/// uint32_t (deepgemmLtMatmulSearch_t), default BEST_FIT.
pub const DEEPGEMMLT_MATMUL_PREF_SEARCH_MODE: deepgemmLtMatmulPreferenceAttributes_t = 0;
/// uint64_t, default 0 (no workspace).
pub const DEEPGEMMLT_MATMUL_PREF_MAX_WORKSPACE_BYTES: deepgemmLtMatmulPreferenceAttributes_t = 1;
/// uint32_t (deepgemmLtReductionScheme_t bits), default MASK (all).
pub const DEEPGEMMLT_MATMUL_PREF_REDUCTION_SCHEME_MASK: deepgemmLtMatmulPreferenceAttributes_t = 3;
/// uint32_t, default 256.
pub const DEEPGEMMLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES: deepgemmLtMatmulPreferenceAttributes_t = 5;
/// uint32_t, default 256.
pub const DEEPGEMMLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES: deepgemmLtMatmulPreferenceAttributes_t = 6;
/// uint32_t, default 256.
pub const DEEPGEMMLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES: deepgemmLtMatmulPreferenceAttributes_t = 7;
/// uint32_t, default 256.
pub const DEEPGEMMLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES: deepgemmLtMatmulPreferenceAttributes_t = 8;
/// float, default 0 (no limit).
pub const DEEPGEMMLT_MATMUL_PREF_MAX_WAVES_COUNT: deepgemmLtMatmulPreferenceAttributes_t = 9;
/// uint64_t, default all bits set: the deepgemmLtNumericalImplFlags_t bits a listed algo may have.
pub const DEEPGEMMLT_MATMUL_PREF_IMPL_MASK: deepgemmLtMatmulPreferenceAttributes_t = 12;

// ---------------------------------------------------------------------------------------
// Algo enumeration (deepgemmLtMatmulAlgoGetIds / Init / CapGetAttribute / Config*Attribute);
// the tile, stages, cluster-shape and inner-shape enums are in algo_enums.rs (generated).

/// cublasLtMatmulAlgoCapAttributes_t: read-only facts of an algorithm.
pub type deepgemmLtMatmulAlgoCapAttributes_t = i32;
/// int32_t: 1 if the algorithm splits k across CTAs (SPLITK_NUM > 1, Stream-K).
pub const DEEPGEMMLT_ALGO_CAP_SPLITK_SUPPORT: deepgemmLtMatmulAlgoCapAttributes_t = 0;
/// uint32_t: the reduction schemes its splits use (COMPUTE_TYPE: fp32 partials).
pub const DEEPGEMMLT_ALGO_CAP_REDUCTION_SCHEME_MASK: deepgemmLtMatmulAlgoCapAttributes_t = 1;
/// uint32_t: 0, deepgemm offers no CTA swizzling option.
pub const DEEPGEMMLT_ALGO_CAP_CTA_SWIZZLING_SUPPORT: deepgemmLtMatmulAlgoCapAttributes_t = 2;
/// int32_t: 1.
pub const DEEPGEMMLT_ALGO_CAP_STRIDED_BATCH_SUPPORT: deepgemmLtMatmulAlgoCapAttributes_t = 3;
/// int32_t: 1 (C and D may differ).
pub const DEEPGEMMLT_ALGO_CAP_OUT_OF_PLACE_RESULT_SUPPORT: deepgemmLtMatmulAlgoCapAttributes_t = 4;
/// int32_t: 0.
pub const DEEPGEMMLT_ALGO_CAP_UPLO_SUPPORT: deepgemmLtMatmulAlgoCapAttributes_t = 5;
/// uint32_t array: the family's tiles (deepgemmLtMatmulTile_t, rows x columns of D).
pub const DEEPGEMMLT_ALGO_CAP_TILE_IDS: deepgemmLtMatmulAlgoCapAttributes_t = 6;
/// int32_t: the largest CUSTOM_OPTION: the family's bits (ALGO_CONFIG_CUSTOM_OPTION), 0 for
/// the portable kernels.
pub const DEEPGEMMLT_ALGO_CAP_CUSTOM_OPTION_MAX: deepgemmLtMatmulAlgoCapAttributes_t = 7;
/// int32_t: 0 (COL and ROW orders only).
pub const DEEPGEMMLT_ALGO_CAP_CUSTOM_MEMORY_ORDER: deepgemmLtMatmulAlgoCapAttributes_t = 10;
/// uint32_t (deepgemmLtPointerModeMask_t bits): HOST | DEVICE.
pub const DEEPGEMMLT_ALGO_CAP_POINTER_MODE_MASK: deepgemmLtMatmulAlgoCapAttributes_t = 11;
/// uint32_t (deepgemmLtEpilogue_t bits): DEFAULT | RELU | BIAS | GELU.
pub const DEEPGEMMLT_ALGO_CAP_EPILOGUE_MASK: deepgemmLtMatmulAlgoCapAttributes_t = 12;
/// uint32_t array: the family's stage ids (`<depth>xAUTO`: the count follows shared memory).
pub const DEEPGEMMLT_ALGO_CAP_STAGES_IDS: deepgemmLtMatmulAlgoCapAttributes_t = 13;
/// int32_t: 0.
pub const DEEPGEMMLT_ALGO_CAP_LD_NEGATIVE: deepgemmLtMatmulAlgoCapAttributes_t = 14;
/// uint64_t (deepgemmLtNumericalImplFlags_t): instruction, accumulator, input type.
pub const DEEPGEMMLT_ALGO_CAP_NUMERICAL_IMPL_FLAGS: deepgemmLtMatmulAlgoCapAttributes_t = 15;
/// uint32_t: 16 for the Hopper and skinny families, the element size for portable.
pub const DEEPGEMMLT_ALGO_CAP_MIN_ALIGNMENT_A_BYTES: deepgemmLtMatmulAlgoCapAttributes_t = 16;
/// uint32_t: as A's.
pub const DEEPGEMMLT_ALGO_CAP_MIN_ALIGNMENT_B_BYTES: deepgemmLtMatmulAlgoCapAttributes_t = 17;
/// uint32_t: as A's.
pub const DEEPGEMMLT_ALGO_CAP_MIN_ALIGNMENT_C_BYTES: deepgemmLtMatmulAlgoCapAttributes_t = 18;
/// uint32_t: as A's.
pub const DEEPGEMMLT_ALGO_CAP_MIN_ALIGNMENT_D_BYTES: deepgemmLtMatmulAlgoCapAttributes_t = 19;
/// int32_t: 0 (CUDA 12.x; cuBLASLt 13 dropped it, deepgemm answers 0).
pub const DEEPGEMMLT_ALGO_CAP_ATOMIC_SYNC: deepgemmLtMatmulAlgoCapAttributes_t = 20;
/// int32_t: 0.
pub const DEEPGEMMLT_ALGO_CAP_POINTER_ARRAY_BATCH_SUPPORT: deepgemmLtMatmulAlgoCapAttributes_t = 21;
/// int32_t: 0.
pub const DEEPGEMMLT_ALGO_CAP_FLOATING_POINT_EMULATION_SUPPORT:
    deepgemmLtMatmulAlgoCapAttributes_t = 22;
/// int32_t: 0.
pub const DEEPGEMMLT_ALGO_CAP_POINTER_ARRAY_GROUPED_SUPPORT: deepgemmLtMatmulAlgoCapAttributes_t =
    23;

/// cublasLtMatmulAlgoConfigAttributes_t: what a caller may set on an algorithm.
pub type deepgemmLtMatmulAlgoConfigAttributes_t = i32;
/// int32_t, read-only: the id (kernel family) AlgoInit was given.
pub const DEEPGEMMLT_ALGO_CONFIG_ID: deepgemmLtMatmulAlgoConfigAttributes_t = 0;
/// uint32_t (deepgemmLtMatmulTile_t), default UNDEFINED (any).
pub const DEEPGEMMLT_ALGO_CONFIG_TILE_ID: deepgemmLtMatmulAlgoConfigAttributes_t = 1;
/// uint32_t, default 1: the ways each split tile's k is divided (0 and 1: none).
pub const DEEPGEMMLT_ALGO_CONFIG_SPLITK_NUM: deepgemmLtMatmulAlgoConfigAttributes_t = 2;
/// uint32_t (deepgemmLtReductionScheme_t), default NONE.
pub const DEEPGEMMLT_ALGO_CONFIG_REDUCTION_SCHEME: deepgemmLtMatmulAlgoConfigAttributes_t = 3;
/// uint32_t, default 0 (the only value deepgemm runs).
pub const DEEPGEMMLT_ALGO_CONFIG_CTA_SWIZZLING: deepgemmLtMatmulAlgoConfigAttributes_t = 4;
/// uint32_t, default 0 (a plain kernel on D as it is, tiles whole or split evenly); bits: 1
/// Stream-K's uneven ranges, 2 D computed transposed, 4 ring epilogue, 8 split-K within a
/// cluster pair (SPLITK_NUM 2), 16 a solo tile's whole-SM ring.
pub const DEEPGEMMLT_ALGO_CONFIG_CUSTOM_OPTION: deepgemmLtMatmulAlgoConfigAttributes_t = 5;
/// uint32_t (deepgemmLtMatmulStages_t), default UNDEFINED (any).
pub const DEEPGEMMLT_ALGO_CONFIG_STAGES_ID: deepgemmLtMatmulAlgoConfigAttributes_t = 6;
/// uint16_t (deepgemmLtMatmulInnerShape_t), default UNDEFINED (the only value deepgemm runs).
pub const DEEPGEMMLT_ALGO_CONFIG_INNER_SHAPE_ID: deepgemmLtMatmulAlgoConfigAttributes_t = 7;
/// uint16_t (deepgemmLtClusterShape_t), default AUTO (any).
pub const DEEPGEMMLT_ALGO_CONFIG_CLUSTER_SHAPE_ID: deepgemmLtMatmulAlgoConfigAttributes_t = 8;

/// cublasLtPointerModeMask_t (CAP_POINTER_MODE_MASK bits).
pub type deepgemmLtPointerModeMask_t = i32;
pub const DEEPGEMMLT_POINTER_MODE_MASK_NO_FILTERING: deepgemmLtPointerModeMask_t = 0;
pub const DEEPGEMMLT_POINTER_MODE_MASK_HOST: deepgemmLtPointerModeMask_t = 1;
pub const DEEPGEMMLT_POINTER_MODE_MASK_DEVICE: deepgemmLtPointerModeMask_t = 2;
pub const DEEPGEMMLT_POINTER_MODE_MASK_DEVICE_VECTOR: deepgemmLtPointerModeMask_t = 4;
pub const DEEPGEMMLT_POINTER_MODE_MASK_ALPHA_DEVICE_VECTOR_BETA_ZERO: deepgemmLtPointerModeMask_t =
    8;
pub const DEEPGEMMLT_POINTER_MODE_MASK_ALPHA_DEVICE_VECTOR_BETA_HOST: deepgemmLtPointerModeMask_t =
    16;

/// cublasLtNumericalImplFlags_t (CAP_NUMERICAL_IMPL_FLAGS bits).
pub type deepgemmLtNumericalImplFlags_t = u64;
pub const DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_FMA: deepgemmLtNumericalImplFlags_t = 0x01;
pub const DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_HMMA: deepgemmLtNumericalImplFlags_t = 0x02;
pub const DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_IMMA: deepgemmLtNumericalImplFlags_t = 0x04;
pub const DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_DMMA: deepgemmLtNumericalImplFlags_t = 0x08;
pub const DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_TENSOR_OP_MASK: deepgemmLtNumericalImplFlags_t = 0xfe;
pub const DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_OP_TYPE_MASK: deepgemmLtNumericalImplFlags_t = 0xff;
pub const DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_ACCUMULATOR_16F: deepgemmLtNumericalImplFlags_t = 0x100;
pub const DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_ACCUMULATOR_32F: deepgemmLtNumericalImplFlags_t = 0x200;
pub const DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_ACCUMULATOR_64F: deepgemmLtNumericalImplFlags_t = 0x400;
pub const DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_ACCUMULATOR_32I: deepgemmLtNumericalImplFlags_t = 0x800;
pub const DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_ACCUMULATOR_TYPE_MASK: deepgemmLtNumericalImplFlags_t =
    0xff00;
pub const DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_INPUT_16F: deepgemmLtNumericalImplFlags_t = 0x1_0000;
pub const DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_INPUT_16BF: deepgemmLtNumericalImplFlags_t = 0x2_0000;
pub const DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_INPUT_TF32: deepgemmLtNumericalImplFlags_t = 0x4_0000;
pub const DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_INPUT_32F: deepgemmLtNumericalImplFlags_t = 0x8_0000;
pub const DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_INPUT_64F: deepgemmLtNumericalImplFlags_t = 0x10_0000;
pub const DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_INPUT_8I: deepgemmLtNumericalImplFlags_t = 0x20_0000;
pub const DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_INPUT_8F_E4M3: deepgemmLtNumericalImplFlags_t = 0x40_0000;
pub const DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_INPUT_8F_E5M2: deepgemmLtNumericalImplFlags_t = 0x80_0000;
pub const DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_OP_INPUT_TYPE_MASK: deepgemmLtNumericalImplFlags_t =
    0xff_0000;
pub const DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_GAUSSIAN: deepgemmLtNumericalImplFlags_t = 1 << 32;

// ---------------------------------------------------------------------------------------
// Objects

/// The library context behind a deepgemmLtHandle_t.
pub struct deepgemmLtContext {
    _private: [u8; 0],
}
/// A cuBLASLt-style handle: made by deepgemmLtCreate, freed by deepgemmLtDestroy.
pub type deepgemmLtHandle_t = *mut deepgemmLtContext;

/// A matmul descriptor (the operation: types, transposes, epilogue): cuBLASLt's
/// semi-opaque storage, 256 bytes. Made on the heap by deepgemmLtMatmulDescCreate (freed by
/// deepgemmLtMatmulDescDestroy), or in the caller's storage by deepgemmLtMatmulDescInit
/// (nothing to free; its bytes may be copied).
#[repr(C)]
pub struct deepgemmLtMatmulDescOpaque_t {
    pub data: [u64; 32],
}
/// A matmul descriptor: a pointer to its storage.
pub type deepgemmLtMatmulDesc_t = *mut deepgemmLtMatmulDescOpaque_t;
/// The storage's name before deepgemm 0.1's Init functions (kept for source compatibility).
pub type deepgemmLtMatmulDescOpaque = deepgemmLtMatmulDescOpaque_t;

/// A matrix layout (type, shape, leading dimension, order, batch): 64 bytes of storage, made
/// by deepgemmLtMatrixLayoutCreate (freed by deepgemmLtMatrixLayoutDestroy) or
/// deepgemmLtMatrixLayoutInit (in the caller's storage).
#[repr(C)]
pub struct deepgemmLtMatrixLayoutOpaque_t {
    pub data: [u64; 8],
}
/// A matrix layout: a pointer to its storage.
pub type deepgemmLtMatrixLayout_t = *mut deepgemmLtMatrixLayoutOpaque_t;
/// The storage's earlier name (source compatibility).
pub type deepgemmLtMatrixLayoutOpaque = deepgemmLtMatrixLayoutOpaque_t;

/// Heuristic search preferences (workspace limit, ...): 64 bytes of storage, made by
/// deepgemmLtMatmulPreferenceCreate (freed by deepgemmLtMatmulPreferenceDestroy) or
/// deepgemmLtMatmulPreferenceInit (in the caller's storage).
#[repr(C)]
pub struct deepgemmLtMatmulPreferenceOpaque_t {
    pub data: [u64; 8],
}
/// A preference: a pointer to its storage.
pub type deepgemmLtMatmulPreference_t = *mut deepgemmLtMatmulPreferenceOpaque_t;
/// The storage's earlier name (source compatibility).
pub type deepgemmLtMatmulPreferenceOpaque = deepgemmLtMatmulPreferenceOpaque_t;

/// The context behind a cuBLAS-style deepgemmHandle_t (stream and pointer mode).
pub struct deepgemmContext {
    _private: [u8; 0],
}
/// A cuBLAS-style handle: made by deepgemmCreate, freed by deepgemmDestroy.
pub type deepgemmHandle_t = *mut deepgemmContext;

/// CUDA's own stream struct tag, so that a cudaStream_t or CUstream is a deepgemmStream_t
/// without a cast. The header declares it by hand (cbindgen.toml) so that it never clashes
/// with CUDA's headers.
pub struct CUstream_st {
    _private: [u8; 0],
}
/// A CUDA stream (cudaStream_t / CUstream); NULL is the legacy default stream.
pub type deepgemmStream_t = *mut CUstream_st;

/// An algorithm: one chosen by deepgemmLtMatmulAlgoGetHeuristic for one problem (pass it back
/// to deepgemmLtMatmul for that problem), or one made by deepgemmLtMatmulAlgoInit and
/// configured by deepgemmLtMatmulAlgoConfigSetAttribute (any problem of its types). Opaque:
/// read and change it only through those functions.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct deepgemmLtMatmulAlgo_t {
    pub data: [u64; 8],
}

/// One result of deepgemmLtMatmulAlgoGetHeuristic (cublasLtMatmulHeuristicResult_t).
#[repr(C)]
#[allow(non_snake_case)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct deepgemmLtMatmulHeuristicResult_t {
    pub algo: deepgemmLtMatmulAlgo_t,
    /// Workspace bytes the algo needs.
    pub workspaceSize: usize,
    /// DEEPGEMM_STATUS_SUCCESS for every returned result.
    pub state: deepgemmStatus_t,
    /// CTAs of the launch divided by the SMs of the device.
    pub wavesCount: f32,
    pub reserved: [i32; 4],
}

const _: () = assert!(std::mem::size_of::<deepgemmLtMatmulAlgo_t>() == 64);
const _: () = assert!(std::mem::size_of::<deepgemmLtMatmulHeuristicResult_t>() == 96);
const _: () = assert!(std::mem::size_of::<deepgemmStatus_t>() == 4);
