# Tests of DeepGEMM.jl against an installed deepgemm:
#     DEEPGEMM_PREFIX=/path/to/prefix julia --startup-file=no ffi-tests/julia/runtests.jl
# Host-side behaviour everywhere (versions, statuses, attributes, errors, NULL handles,
# NOT_INITIALIZED without a GPU); with a GPU also GEMMs against a Float64 reference, device
# memory from the driver API (libcuda.so.1 through ccall, no CUDA.jl).
#   DEEPGEMM_EXPECT_VERSION=X.Y.Z, DEEPGEMM_EXPECT_NO_GPU=1, DEEPGEMM_EXPECT_GPU=1 as for
#   the other consumers.
using Test
using Libdl
using LinearAlgebra
using Random

include(joinpath(@__DIR__, "DeepGEMM.jl"))
using .DeepGEMM
const DG = DeepGEMM

const expect_gpu = haskey(ENV, "DEEPGEMM_EXPECT_GPU")
const expect_no_gpu = haskey(ENV, "DEEPGEMM_EXPECT_NO_GPU")

# The installed header's #define NAME VALUE lines, to check this module's constants.
function header_defines()
    prefix = get(ENV, "DEEPGEMM_PREFIX", "")
    path = isempty(prefix) ? "" : joinpath(prefix, "include", "deepgemm.h")
    isfile(path) || return nothing
    defs = Dict{String,Int64}()
    for line in eachline(path)
        m = match(r"^#define (DEEPGEMM\w*) (-?\d+)$", line)
        m === nothing || (defs[m.captures[1]] = parse(Int64, m.captures[2]))
    end
    return defs
end

# --- the GPU half: the driver API through ccall, and two GEMMs -------------------------
const libcuda = "libcuda.so.1"

# Loads the driver and makes device 0's primary context current; false without a driver
# or a device.
function cuda_open()
    Libdl.dlopen(libcuda; throw_error=false) === nothing && return false
    ccall((:cuInit, libcuda), Cint, (Cuint,), 0) == 0 || return false
    count = Ref{Cint}(0)
    ccall((:cuDeviceGetCount, libcuda), Cint, (Ref{Cint},), count) == 0 || return false
    count[] > 0 || return false
    dev = Ref{Cint}(0)
    ctx = Ref{Ptr{Cvoid}}(C_NULL)
    ccall((:cuDeviceGet, libcuda), Cint, (Ref{Cint}, Cint), dev, 0) == 0 ||
        error("cuDeviceGet failed")
    ccall((:cuDevicePrimaryCtxRetain, libcuda), Cint, (Ref{Ptr{Cvoid}}, Cint), ctx, dev[]) == 0 ||
        error("cuDevicePrimaryCtxRetain failed")
    ccall((:cuCtxSetCurrent, libcuda), Cint, (Ptr{Cvoid},), ctx[]) == 0 ||
        error("cuCtxSetCurrent failed")
    return true
end

function upload(x::Array)
    p = Ref{UInt64}(0)
    ccall((:cuMemAlloc_v2, libcuda), Cint, (Ref{UInt64}, Csize_t), p, sizeof(x)) == 0 ||
        error("cuMemAlloc failed")
    ccall((:cuMemcpyHtoD_v2, libcuda), Cint, (UInt64, Ptr{Cvoid}, Csize_t), p[], x, sizeof(x)) == 0 ||
        error("cuMemcpyHtoD failed")
    return p[]
end

function download!(x::Array, p::UInt64)
    ccall((:cuCtxSynchronize, libcuda), Cint, ()) == 0 || error("cuCtxSynchronize failed")
    ccall((:cuMemcpyDtoH_v2, libcuda), Cint, (Ptr{Cvoid}, UInt64, Csize_t), x, p, sizeof(x)) == 0 ||
        error("cuMemcpyDtoH failed")
    return x
end

free(p::UInt64) = ccall((:cuMemFree_v2, libcuda), Cint, (UInt64,), p)

# Relative Frobenius error, Inf when the result holds a NaN or infinity (tolerances as
# ffi-tests/common/ref_gemm.h).
relerr(d, ref) = all(isfinite, d) ? norm(Float64.(d) .- ref) / norm(ref) : Inf

function run_gemms()
    Random.seed!(6)
    lt = LtHandle()
    h = Handle()

    # deepgemmLtMatmul, fp32 NN with alpha and beta, padded lda, the heuristic's algorithm.
    m, n, k = 67, 45, 129
    A = rand(Float32, m + 3, k) .- 0.5f0
    B = rand(Float32, k, n) .- 0.5f0
    C = rand(Float32, m, n) .- 0.5f0
    dA, dB, dC, dD = upload(A), upload(B), upload(C), upload(zeros(Float32, m, n))
    d = MatmulDesc(DG.COMPUTE_32F, DG.R_32F)
    la = MatrixLayout(DG.R_32F, m, k, m + 3)
    lb = MatrixLayout(DG.R_32F, k, n, k)
    lc = MatrixLayout(DG.R_32F, m, n, m)
    pref = Preference()
    res = heuristic(lt, d, la, lb, lc, lc, pref, 4)
    @test !isempty(res) && res[1].state == DG.STATUS_SUCCESS
    matmul!(lt, d, 1.5f0, dA, la, dB, lb, -0.5f0, dC, lc, dD, lc; algo=res[1])
    D = download!(zeros(Float32, m, n), dD)
    ref = 1.5 .* (Float64.(A[1:m, :]) * Float64.(B)) .- 0.5 .* Float64.(C)
    e1 = relerr(D, ref)
    @info "Lt f32 NN $(m)x$(n)x$(k): rel err $(e1) (tolerance 1e-5)"
    @test e1 <= 1e-5
    foreach(free, (dA, dB, dC, dD))
    foreach(destroy!, (d, la, lb, lc, pref))

    # deepgemmGemmEx, fp16 TN (A stored k x m) into fp32 C.
    m, n, k = 96, 80, 160
    At = Float16.(rand(Float32, k, m) .- 0.5f0)
    B16 = Float16.(rand(Float32, k, n) .- 0.5f0)
    dA, dB, dC = upload(At), upload(B16), upload(zeros(Float32, m, n))
    gemm_ex!(h, DG.OP_T, DG.OP_N, m, n, k, 1f0, dA, DG.R_16F, k, dB, DG.R_16F, k, 0f0, dC,
             DG.R_32F, m, DG.COMPUTE_32F)
    D = download!(zeros(Float32, m, n), dC)
    ref = transpose(Float64.(At)) * Float64.(B16)
    e2 = relerr(D, ref)
    @info "GemmEx f16 TN $(m)x$(n)x$(k) -> f32: rel err $(e2) (tolerance 1e-3)"
    @test e2 <= 1e-3
    foreach(free, (dA, dB, dC))
    destroy!(lt)
    destroy!(h)
end

@testset "DeepGEMM.jl" begin
    @testset "versions" begin
        @test DG.lt_version() == DG.get_version()
        v = DG.lt_version()
        want = get(ENV, "DEEPGEMM_EXPECT_VERSION", "")
        if !isempty(want)
            parts = parse.(Int, split(want, "."))
            @test v == parts[1] * 10000 + parts[2] * 100 + parts[3]
        end
    end

    @testset "constants match the installed header" begin
        defs = header_defines()
        if defs === nothing
            @info "DEEPGEMM_PREFIX not set: header constants not compared"
        else
            @test defs["DEEPGEMM_VERSION"] == DG.lt_version()
            for (name, value) in [("DEEPGEMM_R_32F", DG.R_32F), ("DEEPGEMM_R_16F", DG.R_16F),
                                  ("DEEPGEMM_R_16BF", DG.R_16BF),
                                  ("DEEPGEMM_COMPUTE_32F", DG.COMPUTE_32F),
                                  ("DEEPGEMM_COMPUTE_32F_FAST_TF32", DG.COMPUTE_32F_FAST_TF32),
                                  ("DEEPGEMM_OP_T", DG.OP_T), ("DEEPGEMM_OP_CONJG", DG.OP_CONJG),
                                  ("DEEPGEMM_POINTER_MODE_DEVICE", DG.POINTER_MODE_DEVICE),
                                  ("DEEPGEMM_GEMM_DEFAULT", DG.GEMM_DEFAULT),
                                  ("DEEPGEMMLT_MATMUL_DESC_TRANSA", DG.MATMUL_DESC_TRANSA),
                                  ("DEEPGEMMLT_MATMUL_DESC_EPILOGUE", DG.MATMUL_DESC_EPILOGUE),
                                  ("DEEPGEMMLT_MATMUL_DESC_FAST_ACCUM", DG.MATMUL_DESC_FAST_ACCUM),
                                  ("DEEPGEMMLT_MATMUL_DESC_AMAX_D_POINTER", DG.MATMUL_DESC_AMAX_D_POINTER),
                                  ("DEEPGEMMLT_MATRIX_LAYOUT_LD", DG.MATRIX_LAYOUT_LD),
                                  ("DEEPGEMMLT_MATRIX_LAYOUT_BATCH_COUNT", DG.MATRIX_LAYOUT_BATCH_COUNT),
                                  ("DEEPGEMMLT_MATMUL_PREF_MAX_WORKSPACE_BYTES", DG.MATMUL_PREF_MAX_WORKSPACE_BYTES),
                                  ("DEEPGEMMLT_MATMUL_PREF_IMPL_MASK", DG.MATMUL_PREF_IMPL_MASK),
                                  ("DEEPGEMMLT_EPILOGUE_GELU_BIAS", DG.EPILOGUE_GELU_BIAS),
                                  ("DEEPGEMMLT_ORDER_ROW", DG.ORDER_ROW)]
                @test get(defs, name, nothing) == value
            end
        end
    end

    @testset "status strings" begin
        for (s, name) in [(0, "SUCCESS"), (1, "NOT_INITIALIZED"), (3, "ALLOC_FAILED"),
                          (7, "INVALID_VALUE"), (8, "ARCH_MISMATCH"), (11, "MAPPING_ERROR"),
                          (13, "EXECUTION_FAILED"), (14, "INTERNAL_ERROR"),
                          (15, "NOT_SUPPORTED"), (16, "LICENSE_ERROR")]
            @test DG.status_name(s) == "DEEPGEMM_STATUS_" * name
            @test DG.lt_status_name(s) == DG.status_name(s)
            @test !isempty(DG.status_string(s)) && DG.status_string(s) != "unknown status"
            @test DG.lt_status_string(s) == DG.status_string(s)
        end
        @test DG.status_name(12345) == "DEEPGEMM_STATUS_UNKNOWN"
        @test DG.status_string(-3) == "unknown status"
        @test occursin("DEEPGEMM_STATUS_INVALID_VALUE", sprint(showerror, DeepGEMMError(7)))
    end

    @testset "matmul descriptor" begin
        d = MatmulDesc(DG.COMPUTE_32F, DG.R_32F)
        @test get_attr(d, DG.MATMUL_DESC_EPILOGUE, UInt32) == (DG.EPILOGUE_DEFAULT, 4)
        set_attr!(d, DG.MATMUL_DESC_TRANSA, DG.OP_T)
        @test get_attr(d, DG.MATMUL_DESC_TRANSA, Int32) == (DG.OP_T, 4)
        set_attr!(d, DG.MATMUL_DESC_EPILOGUE, DG.EPILOGUE_GELU_BIAS)
        @test get_attr(d, DG.MATMUL_DESC_EPILOGUE, UInt32)[1] == 36
        bias = Ptr{Cvoid}(UInt(0x7f0000001000))
        set_attr!(d, DG.MATMUL_DESC_BIAS_POINTER, bias)
        @test get_attr(d, DG.MATMUL_DESC_BIAS_POINTER, Ptr{Cvoid}) == (bias, 8)
        set_attr!(d, DG.MATMUL_DESC_FAST_ACCUM, Int8(1))
        @test get_attr(d, DG.MATMUL_DESC_FAST_ACCUM, Int8) == (1, 1)
        @test attr_size(d, DG.MATMUL_DESC_AMAX_D_POINTER) == 8

        invalid(f) = try
            f()
            false
        catch e
            e isa DeepGEMMError && e.status == DG.STATUS_INVALID_VALUE
        end
        @test invalid(() -> set_attr!(d, DG.MATMUL_DESC_TRANSA, Int64(1)))    # wrong size
        @test invalid(() -> set_attr!(d, 9, DG.OP_T))                         # unknown attribute
        @test invalid(() -> set_attr!(d, DG.MATMUL_DESC_TRANSA, DG.OP_CONJG)) # rejected value
        @test invalid(() -> set_attr!(d, DG.MATMUL_DESC_EPILOGUE, UInt32(3)))
        @test invalid(() -> get_attr(d, DG.MATMUL_DESC_TRANSA, Int16))        # buffer too small
        @test get_attr(d, DG.MATMUL_DESC_TRANSA, Int32)[1] == DG.OP_T         # unchanged
        @test invalid(() -> MatmulDesc(0, DG.R_32F))
        destroy!(d)
        destroy!(d) # a second destroy! does nothing
        @test d.ptr == C_NULL
    end

    @testset "layout and preference" begin
        l = MatrixLayout(DG.R_16BF, 4096, 1024, 4096)
        @test get_attr(l, DG.MATRIX_LAYOUT_ROWS, UInt64) == (4096, 8)
        @test get_attr(l, DG.MATRIX_LAYOUT_LD, Int64)[1] == 4096
        @test get_attr(l, DG.MATRIX_LAYOUT_TYPE, Int32)[1] == DG.R_16BF
        set_attr!(l, DG.MATRIX_LAYOUT_ORDER, DG.ORDER_ROW)
        @test get_attr(l, DG.MATRIX_LAYOUT_ORDER, Int32)[1] == DG.ORDER_ROW
        @test_throws DeepGEMMError set_attr!(l, DG.MATRIX_LAYOUT_BATCH_COUNT, Int32(0))
        @test_throws DeepGEMMError MatrixLayout(99, 2, 2, 2)
        @test_throws DeepGEMMError MatrixLayout(DG.R_32F, 2, 2, -1)
        destroy!(l)

        p = Preference()
        @test get_attr(p, DG.MATMUL_PREF_MAX_WORKSPACE_BYTES, UInt64)[1] == 0
        set_attr!(p, DG.MATMUL_PREF_MAX_WORKSPACE_BYTES, UInt64(32 << 20))
        @test get_attr(p, DG.MATMUL_PREF_MAX_WORKSPACE_BYTES, UInt64)[1] == 32 << 20
        set_attr!(p, DG.MATMUL_PREF_MAX_WAVES_COUNT, 2.5f0)
        @test get_attr(p, DG.MATMUL_PREF_MAX_WAVES_COUNT, Float32)[1] == 2.5f0
        @test get_attr(p, DG.MATMUL_PREF_IMPL_MASK, UInt64)[1] == typemax(UInt64)
        destroy!(p)
        @test sizeof(HeuristicResult) == 96
    end

    @testset "handles" begin
        lt = try
            LtHandle()
        catch e
            e
        end
        if lt isa LtHandle
            @test !expect_no_gpu
            destroy!(lt)
        else
            @test lt isa DeepGEMMError && lt.status == DG.STATUS_NOT_INITIALIZED
            @test !expect_gpu
        end
        h = try
            Handle()
        catch e
            e
        end
        if h isa Handle
            @test !expect_no_gpu
            set_stream!(h, C_NULL)
            @test get_stream(h) == C_NULL
            set_pointer_mode!(h, DG.POINTER_MODE_DEVICE)
            @test get_pointer_mode(h) == DG.POINTER_MODE_DEVICE
            destroy!(h)
        else
            @test h isa DeepGEMMError && h.status == DG.STATUS_NOT_INITIALIZED
            @test !expect_gpu
        end
        # NULL handles are NOT_INITIALIZED, as in cuBLAS / cuBLASLt.
        not_init(f) = try
            f()
            false
        catch e
            e isa DeepGEMMError && e.status == DG.STATUS_NOT_INITIALIZED
        end
        @test not_init(() -> set_stream!(Handle(nothing), C_NULL))
        @test not_init(() -> gemm_ex!(Handle(nothing), DG.OP_N, DG.OP_N, 4, 4, 4, 1f0, UInt64(0),
                                      DG.R_32F, 4, UInt64(0), DG.R_32F, 4, 0f0, UInt64(0),
                                      DG.R_32F, 4, DG.COMPUTE_32F))
        set_log_level(0)
        @test_throws DeepGEMMError set_log_level(9)
    end

    @testset "GEMM on the GPU" begin
        gpu = cuda_open()
        if !gpu
            @test !expect_gpu
            @test_throws DeepGEMMError LtHandle()
            @info "no GPU: the library answers NOT_INITIALIZED; GEMMs not run"
        else
            @test !expect_no_gpu
            run_gemms()
        end
    end
end
