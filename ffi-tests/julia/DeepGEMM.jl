# A small Julia module over an installed libdeepgemm (ccall, no compiled glue):
#
#     ENV["DEEPGEMM_PREFIX"] = "/path/to/prefix"      # or DEEPGEMM_LIBRARY = the .so itself
#     include("DeepGEMM.jl"); using .DeepGEMM
#     d = MatmulDesc(COMPUTE_32F, R_32F); set_attr!(d, MATMUL_DESC_TRANSA, OP_T)
#
# Every failing call throws a DeepGEMMError carrying the status. Objects are freed by
# destroy! (or their finalizer). Device memory is addressed by UInt64 (a CUdeviceptr);
# alpha and beta are Float32 on the host, the scale type of every compute type deepgemm
# implements. Values are cuBLAS's, as in include/deepgemm.h (runtests.jl checks them
# against the installed header).
module DeepGEMM

export DeepGEMMError, lt_version, get_version, status_name, status_string, lt_status_name,
       lt_status_string, set_log_level, MatmulDesc, MatrixLayout, Preference, LtHandle, Handle,
       HeuristicResult, set_attr!, get_attr, attr_size, destroy!, heuristic, matmul!,
       set_stream!, get_stream, set_workspace!, set_math_mode!, set_pointer_mode!, get_pointer_mode,
       gemm_ex!

# The library: DEEPGEMM_LIBRARY, else PREFIX/lib/libdeepgemm.so.MAJOR-linked name under
# DEEPGEMM_PREFIX, else whatever the loader finds as libdeepgemm.so.
const libdeepgemm = let lib = get(ENV, "DEEPGEMM_LIBRARY", ""), prefix = get(ENV, "DEEPGEMM_PREFIX", "")
    if !isempty(lib)
        lib
    elseif !isempty(prefix)
        joinpath(prefix, "lib", "libdeepgemm.so")
    else
        "libdeepgemm.so"
    end
end

# deepgemmStatus_t (cublasStatus_t)
const STATUS_SUCCESS = Int32(0)
const STATUS_NOT_INITIALIZED = Int32(1)
const STATUS_ALLOC_FAILED = Int32(3)
const STATUS_INVALID_VALUE = Int32(7)
const STATUS_ARCH_MISMATCH = Int32(8)
const STATUS_MAPPING_ERROR = Int32(11)
const STATUS_EXECUTION_FAILED = Int32(13)
const STATUS_INTERNAL_ERROR = Int32(14)
const STATUS_NOT_SUPPORTED = Int32(15)
const STATUS_LICENSE_ERROR = Int32(16)

# cudaDataType_t, cublasComputeType_t, cublasOperation_t, cublasPointerMode_t, cublasGemmAlgo_t
const R_32F = Int32(0)
const R_16F = Int32(2)
const R_16BF = Int32(14)
const COMPUTE_32F = Int32(68)
const COMPUTE_32F_FAST_TF32 = Int32(77)
const OP_N = Int32(0)
const OP_T = Int32(1)
const OP_CONJG = Int32(3)
const POINTER_MODE_HOST = Int32(0)
const POINTER_MODE_DEVICE = Int32(1)
const GEMM_DEFAULT = Int32(-1)

# cuBLASLt attributes and values
const MATMUL_DESC_COMPUTE_TYPE = Int32(0)
const MATMUL_DESC_SCALE_TYPE = Int32(1)
const MATMUL_DESC_POINTER_MODE = Int32(2)
const MATMUL_DESC_TRANSA = Int32(3)
const MATMUL_DESC_TRANSB = Int32(4)
const MATMUL_DESC_EPILOGUE = Int32(7)
const MATMUL_DESC_BIAS_POINTER = Int32(8)
const MATMUL_DESC_AMAX_D_POINTER = Int32(21)
const MATMUL_DESC_FAST_ACCUM = Int32(25)
const MATRIX_LAYOUT_TYPE = Int32(0)
const MATRIX_LAYOUT_ORDER = Int32(1)
const MATRIX_LAYOUT_ROWS = Int32(2)
const MATRIX_LAYOUT_LD = Int32(4)
const MATRIX_LAYOUT_BATCH_COUNT = Int32(5)
const MATMUL_PREF_MAX_WORKSPACE_BYTES = Int32(1)
const MATMUL_PREF_MAX_WAVES_COUNT = Int32(9)
const MATMUL_PREF_IMPL_MASK = Int32(12)
const ORDER_COL = Int32(0)
const ORDER_ROW = Int32(1)
const EPILOGUE_DEFAULT = UInt32(1)
const EPILOGUE_BIAS = UInt32(4)
const EPILOGUE_GELU_BIAS = UInt32(36)

"""A call that returned a status other than SUCCESS."""
struct DeepGEMMError <: Exception
    status::Int32
end
Base.showerror(io::IO, e::DeepGEMMError) =
    print(io, "DeepGEMMError: ", status_name(e.status), ": ", status_string(e.status))

check(st::Integer) = st == 0 ? nothing : throw(DeepGEMMError(Int32(st)))

lt_version() = Int(ccall((:deepgemmLtGetVersion, libdeepgemm), Csize_t, ()))
function get_version()
    v = Ref{Int32}(-1)
    check(ccall((:deepgemmGetVersion, libdeepgemm), Cint, (Ptr{Cvoid}, Ref{Int32}), C_NULL, v))
    return Int(v[])
end
status_name(s::Integer) = unsafe_string(ccall((:deepgemmGetStatusName, libdeepgemm), Cstring, (Int32,), s))
status_string(s::Integer) = unsafe_string(ccall((:deepgemmGetStatusString, libdeepgemm), Cstring, (Int32,), s))
lt_status_name(s::Integer) = unsafe_string(ccall((:deepgemmLtGetStatusName, libdeepgemm), Cstring, (Int32,), s))
lt_status_string(s::Integer) = unsafe_string(ccall((:deepgemmLtGetStatusString, libdeepgemm), Cstring, (Int32,), s))
set_log_level(level::Integer) = check(ccall((:deepgemmLtLoggerSetLevel, libdeepgemm), Cint, (Int32,), level))

# Fixed-size values an attribute can hold (cuBLASLt fixes each attribute's C type).
const AttrValue = Union{Int8,Int16,Int32,UInt32,Int64,UInt64,Float32,Ptr{Cvoid}}

mutable struct MatmulDesc
    ptr::Ptr{Cvoid}
    function MatmulDesc(compute::Integer, scale::Integer)
        p = Ref{Ptr{Cvoid}}(C_NULL)
        check(ccall((:deepgemmLtMatmulDescCreate, libdeepgemm), Cint, (Ref{Ptr{Cvoid}}, Int32, Int32),
                    p, compute, scale))
        return finalizer(destroy!, new(p[]))
    end
end

mutable struct MatrixLayout
    ptr::Ptr{Cvoid}
    function MatrixLayout(dtype::Integer, rows::Integer, cols::Integer, ld::Integer)
        p = Ref{Ptr{Cvoid}}(C_NULL)
        check(ccall((:deepgemmLtMatrixLayoutCreate, libdeepgemm), Cint,
                    (Ref{Ptr{Cvoid}}, Int32, UInt64, UInt64, Int64), p, dtype, rows, cols, ld))
        return finalizer(destroy!, new(p[]))
    end
end

mutable struct Preference
    ptr::Ptr{Cvoid}
    function Preference()
        p = Ref{Ptr{Cvoid}}(C_NULL)
        check(ccall((:deepgemmLtMatmulPreferenceCreate, libdeepgemm), Cint, (Ref{Ptr{Cvoid}},), p))
        return finalizer(destroy!, new(p[]))
    end
end

"""deepgemmLtCreate; throws DeepGEMMError(STATUS_NOT_INITIALIZED) without a driver or GPU."""
mutable struct LtHandle
    ptr::Ptr{Cvoid}
    function LtHandle()
        p = Ref{Ptr{Cvoid}}(C_NULL)
        check(ccall((:deepgemmLtCreate, libdeepgemm), Cint, (Ref{Ptr{Cvoid}},), p))
        return finalizer(destroy!, new(p[]))
    end
    LtHandle(::Nothing) = new(C_NULL) # a NULL handle, for testing the status it gets
end

"""deepgemmCreate (cuBLAS-style handle); throws like LtHandle()."""
mutable struct Handle
    ptr::Ptr{Cvoid}
    function Handle()
        p = Ref{Ptr{Cvoid}}(C_NULL)
        check(ccall((:deepgemmCreate, libdeepgemm), Cint, (Ref{Ptr{Cvoid}},), p))
        return finalizer(destroy!, new(p[]))
    end
    Handle(::Nothing) = new(C_NULL)
end

# destroy! frees the object once; later calls (and the finalizer) do nothing.
function destroy!(x::MatmulDesc)
    x.ptr == C_NULL || check(ccall((:deepgemmLtMatmulDescDestroy, libdeepgemm), Cint, (Ptr{Cvoid},), x.ptr))
    x.ptr = C_NULL
    return nothing
end
function destroy!(x::MatrixLayout)
    x.ptr == C_NULL || check(ccall((:deepgemmLtMatrixLayoutDestroy, libdeepgemm), Cint, (Ptr{Cvoid},), x.ptr))
    x.ptr = C_NULL
    return nothing
end
function destroy!(x::Preference)
    x.ptr == C_NULL || check(ccall((:deepgemmLtMatmulPreferenceDestroy, libdeepgemm), Cint, (Ptr{Cvoid},), x.ptr))
    x.ptr = C_NULL
    return nothing
end
function destroy!(x::LtHandle)
    x.ptr == C_NULL || check(ccall((:deepgemmLtDestroy, libdeepgemm), Cint, (Ptr{Cvoid},), x.ptr))
    x.ptr = C_NULL
    return nothing
end
function destroy!(x::Handle)
    x.ptr == C_NULL || check(ccall((:deepgemmDestroy, libdeepgemm), Cint, (Ptr{Cvoid},), x.ptr))
    x.ptr = C_NULL
    return nothing
end

# Set/Get for the three attribute-carrying objects, one ccall each: the symbol must be a
# literal in ccall, so each object's pair is written out.
function set_attr!(d::MatmulDesc, attr::Integer, v::T) where {T<:AttrValue}
    check(ccall((:deepgemmLtMatmulDescSetAttribute, libdeepgemm), Cint,
                (Ptr{Cvoid}, Int32, Ref{T}, Csize_t), d.ptr, attr, v, sizeof(T)))
end
function set_attr!(l::MatrixLayout, attr::Integer, v::T) where {T<:AttrValue}
    check(ccall((:deepgemmLtMatrixLayoutSetAttribute, libdeepgemm), Cint,
                (Ptr{Cvoid}, Int32, Ref{T}, Csize_t), l.ptr, attr, v, sizeof(T)))
end
function set_attr!(p::Preference, attr::Integer, v::T) where {T<:AttrValue}
    check(ccall((:deepgemmLtMatmulPreferenceSetAttribute, libdeepgemm), Cint,
                (Ptr{Cvoid}, Int32, Ref{T}, Csize_t), p.ptr, attr, v, sizeof(T)))
end

# get_attr(obj, attr, T) -> (value::T, bytes written); buffer sizes other than the
# attribute's are INVALID_VALUE.
function get_attr(d::MatmulDesc, attr::Integer, ::Type{T}) where {T<:AttrValue}
    v, n = Ref{T}(), Ref{Csize_t}(0)
    check(ccall((:deepgemmLtMatmulDescGetAttribute, libdeepgemm), Cint,
                (Ptr{Cvoid}, Int32, Ref{T}, Csize_t, Ref{Csize_t}), d.ptr, attr, v, sizeof(T), n))
    return v[], Int(n[])
end
function get_attr(l::MatrixLayout, attr::Integer, ::Type{T}) where {T<:AttrValue}
    v, n = Ref{T}(), Ref{Csize_t}(0)
    check(ccall((:deepgemmLtMatrixLayoutGetAttribute, libdeepgemm), Cint,
                (Ptr{Cvoid}, Int32, Ref{T}, Csize_t, Ref{Csize_t}), l.ptr, attr, v, sizeof(T), n))
    return v[], Int(n[])
end
function get_attr(p::Preference, attr::Integer, ::Type{T}) where {T<:AttrValue}
    v, n = Ref{T}(), Ref{Csize_t}(0)
    check(ccall((:deepgemmLtMatmulPreferenceGetAttribute, libdeepgemm), Cint,
                (Ptr{Cvoid}, Int32, Ref{T}, Csize_t, Ref{Csize_t}), p.ptr, attr, v, sizeof(T), n))
    return v[], Int(n[])
end

"""The size in bytes of a matmul descriptor attribute (the size query: no buffer, size 0)."""
function attr_size(d::MatmulDesc, attr::Integer)
    n = Ref{Csize_t}(0)
    check(ccall((:deepgemmLtMatmulDescGetAttribute, libdeepgemm), Cint,
                (Ptr{Cvoid}, Int32, Ptr{Cvoid}, Csize_t, Ref{Csize_t}), d.ptr, attr, C_NULL, 0, n))
    return Int(n[])
end

"""deepgemmLtMatmulHeuristicResult_t (96 bytes, as cuBLASLt's)."""
struct HeuristicResult
    algo::NTuple{8,UInt64}
    workspaceSize::Csize_t
    state::Int32
    wavesCount::Float32
    reserved::NTuple{4,Int32}
end

"""deepgemmLtMatmulAlgoGetHeuristic: up to n candidates, best first."""
function heuristic(h::LtHandle, d::MatmulDesc, a::MatrixLayout, b::MatrixLayout, c::MatrixLayout,
                   dl::MatrixLayout, pref::Preference, n::Integer)
    results = Vector{HeuristicResult}(undef, n)
    count = Ref{Int32}(0)
    check(ccall((:deepgemmLtMatmulAlgoGetHeuristic, libdeepgemm), Cint,
                (Ptr{Cvoid}, Ptr{Cvoid}, Ptr{Cvoid}, Ptr{Cvoid}, Ptr{Cvoid}, Ptr{Cvoid}, Ptr{Cvoid},
                 Int32, Ptr{HeuristicResult}, Ref{Int32}),
                h.ptr, d.ptr, a.ptr, b.ptr, c.ptr, dl.ptr, pref.ptr, n, results, count))
    return results[1:count[]]
end

"""deepgemmLtMatmul: D = alpha * op(A) op(B) + beta * C on `stream` (algo `nothing`: deepgemm chooses)."""
function matmul!(h::LtHandle, d::MatmulDesc, alpha::Float32, A::UInt64, la::MatrixLayout,
                 B::UInt64, lb::MatrixLayout, beta::Float32, C::UInt64, lc::MatrixLayout,
                 D::UInt64, ld::MatrixLayout; algo::Union{Nothing,HeuristicResult}=nothing,
                 workspace::UInt64=UInt64(0), workspace_size::Integer=0,
                 stream::Ptr{Cvoid}=C_NULL)
    algo_ref = algo === nothing ? C_NULL : Ref(algo.algo)
    check(ccall((:deepgemmLtMatmul, libdeepgemm), Cint,
                (Ptr{Cvoid}, Ptr{Cvoid}, Ref{Float32}, UInt64, Ptr{Cvoid}, UInt64, Ptr{Cvoid},
                 Ref{Float32}, UInt64, Ptr{Cvoid}, UInt64, Ptr{Cvoid}, Ptr{Cvoid}, UInt64, Csize_t,
                 Ptr{Cvoid}),
                h.ptr, d.ptr, alpha, A, la.ptr, B, lb.ptr, beta, C, lc.ptr, D, ld.ptr,
                algo_ref, workspace, workspace_size, stream))
end

set_stream!(h::Handle, s::Ptr{Cvoid}) =
    check(ccall((:deepgemmSetStream, libdeepgemm), Cint, (Ptr{Cvoid}, Ptr{Cvoid}), h.ptr, s))
# deepgemmSetWorkspace: device memory (256-byte aligned) later gemm_ex! calls may use;
# set_stream! resets it to none, as cublasSetStream does.
set_workspace!(h::Handle, ws::UInt64, bytes::Integer) =
    check(ccall((:deepgemmSetWorkspace, libdeepgemm), Cint, (Ptr{Cvoid}, UInt64, Csize_t),
                h.ptr, ws, bytes))
# deepgemmSetMathMode: 3 (DEEPGEMM_TF32_TENSOR_OP_MATH) lets fp32 gemm_ex! calls at
# COMPUTE_32F run on TF32 tensor cores, as cublasSetMathMode does.
set_math_mode!(h::Handle, mode::Integer) =
    check(ccall((:deepgemmSetMathMode, libdeepgemm), Cint, (Ptr{Cvoid}, Cint), h.ptr, mode))
function get_stream(h::Handle)
    s = Ref{Ptr{Cvoid}}(Ptr{Cvoid}(1))
    check(ccall((:deepgemmGetStream, libdeepgemm), Cint, (Ptr{Cvoid}, Ref{Ptr{Cvoid}}), h.ptr, s))
    return s[]
end
set_pointer_mode!(h::Handle, m::Integer) =
    check(ccall((:deepgemmSetPointerMode, libdeepgemm), Cint, (Ptr{Cvoid}, Int32), h.ptr, m))
function get_pointer_mode(h::Handle)
    m = Ref{Int32}(-1)
    check(ccall((:deepgemmGetPointerMode, libdeepgemm), Cint, (Ptr{Cvoid}, Ref{Int32}), h.ptr, m))
    return m[]
end

"""deepgemmGemmEx with host alpha/beta (pointer mode HOST): C = alpha * op(A) op(B) + beta * C."""
function gemm_ex!(h::Handle, ta::Integer, tb::Integer, m::Integer, n::Integer, k::Integer,
                  alpha::Float32, A::UInt64, atype::Integer, lda::Integer, B::UInt64,
                  btype::Integer, ldb::Integer, beta::Float32, C::UInt64, ctype::Integer,
                  ldc::Integer, compute::Integer, algo::Integer=GEMM_DEFAULT)
    check(ccall((:deepgemmGemmEx, libdeepgemm), Cint,
                (Ptr{Cvoid}, Int32, Int32, Int32, Int32, Int32, Ref{Float32}, UInt64, Int32, Int32,
                 UInt64, Int32, Int32, Ref{Float32}, UInt64, Int32, Int32, Int32, Int32),
                h.ptr, ta, tb, m, n, k, alpha, A, atype, lda, B, btype, ldb, beta, C, ctype, ldc,
                compute, algo))
end

end # module
