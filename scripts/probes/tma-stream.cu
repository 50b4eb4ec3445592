// Probe (not part of the library): how fast can a decode GEMM's loads alone stream a weight
// matrix from HBM into shared memory on this GPU, and how long does a launch's first stage
// take? The weight is `rows` lines of K bf16 (K-major, ld = K: a row of PyTorch's W, or a
// column of cuBLAS's B in the small-M set). No arithmetic: one thread per CTA issues loads into
// a ring of `stages` buffers and waits on their mbarriers, so the time is the loads' own.
//
// Modes:
//   tile  - deepgemm's swapped decode tiles: CTA c takes 128 rows and a 1/split k-range and
//           loads (64 k x 128 rows) boxes through a 2D tensor map, 128-byte swizzle: 128
//           lines of 128 bytes a box (the kernel's own box for a K-major 128-row tile).
//   rows  - as tile with R-row boxes (R = 16, 32, 64) and every CTA a block of R rows over the
//           whole k (no split: no fixup would be needed).
//   bulk  - CTA c takes a contiguous 1/grid of the matrix and loads it in chunks of `chunk`
//           bytes by cp.async.bulk (1D): each CTA's requests are sequential addresses.
// Each launch follows an L2 flush (a 256 MiB memset), as deepgemm-bench's; events around it,
// median of 15. CTA 0's thread 0 also records cycles from its first issue to its first stage's
// barrier completing (`first`), and (mode `probe`) a plain ld.global.cg's latency at entry.
//
//     nvcc -O3 -std=c++17 -arch=sm_90a -I kernels scripts/probes/tma-stream.cu -lcuda -o probe
//     ./probe            (prints one line per case: mode, MB, CTAs, box/chunk, stages, us, GB/s)
#include "probe.cuh"

__device__ long long g_first[4];  // [issue->first full cycles, probe load cycles, -, -]

__device__ __forceinline__ void bulk_load(unsigned dst, const void* src, unsigned bytes,
                                          unsigned bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
          dst),
      "l"(src), "r"(bytes), "r"(bar)
      : "memory");
}
__device__ __forceinline__ void tile_load(unsigned dst, const CUtensorMap* m, unsigned bar,
                                          int c0, int c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4}], [%2];" ::"r"(dst),
      "l"(m), "r"(bar), "r"(c0), "r"(c1)
      : "memory");
}

constexpr int kMaxStages = 24;

// A CTA's work: `n` loads; load i is chunk (bulk: bytes [base + i * chunk, ...)) or box
// (k0 + 64 i, row0) of the tensor map.
__global__ void __launch_bounds__(32, 1)
    stream(const __grid_constant__ Tmap tmap, const char* base, long long cta_bytes, int chunk,
           int mode, int rows_per_cta, int k_per_cta, int split, int stages, int probe) {
  extern __shared__ __align__(1024) unsigned char smem[];
  __shared__ unsigned long long full[kMaxStages];
  if (threadIdx.x != 0) return;
  const long long t0 = clock64_now();
  if (probe) {
    unsigned v;
    const long long a = clock64_now();
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(base + blockIdx.x * cta_bytes) : "memory");
    asm volatile("add.u32 %0, %0, 1;" : "+r"(v));
    const long long b = clock64_now();
    if (blockIdx.x == 0) g_first[1] = b - a + (v == 0x12345u);
  }
  asm volatile("prefetch.tensormap [%0];" ::"l"(&tmap.m) : "memory");
  for (int s = 0; s < stages; ++s) mbarrier_init(smem_addr(&full[s]), 1);
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  const int stage_bytes = mode == 0 ? chunk : 64 * 2 * rows_per_cta;
  const long long n = mode == 0 ? cta_bytes / chunk : k_per_cta / 64;
  // Tile modes: CTA c takes rows (c / split) * rows_per_cta.. and k from (c % split) * k_per_cta.
  const int row0 = mode == 0 ? 0 : static_cast<int>(blockIdx.x / split) * rows_per_cta;
  const int k0 = mode == 0 ? 0 : static_cast<int>(blockIdx.x % split) * k_per_cta;
  long long issue0 = 0;
  for (long long i = 0; i < n + stages; ++i) {
    const int s = static_cast<int>(i % stages);
    const unsigned bar = smem_addr(&full[s]);
    if (i >= stages) {
      mbarrier_wait_parity(bar, static_cast<unsigned>((i / stages - 1) & 1));
      if (i == stages && blockIdx.x == 0) g_first[0] = clock64_now() - issue0;
    }
    if (i < n) {
      const unsigned dst = smem_addr(smem + s * stage_bytes);
      mbarrier_arrive_expect_tx(bar, stage_bytes);
      if (i == 0) issue0 = clock64_now();
      if (mode == 0) {
        bulk_load(dst, base + blockIdx.x * cta_bytes + i * chunk, chunk, bar);
      } else {
        tile_load(dst, &tmap.m, bar, k0 + static_cast<int>(i) * 64, row0);
      }
    }
  }
  (void)t0;
}

static float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  const long long kMaxBytes = 512ll << 20;
  char* w = nullptr;
  char* flush = nullptr;
  CK(cudaMalloc(&w, kMaxBytes + (1 << 20)));
  CK(cudaMalloc(&flush, 256ll << 20));
  CK(cudaMemset(w, 1, kMaxBytes));
  CK(cudaFuncSetAttribute(stream, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  auto encode = [&](Tmap& t, const void* base, long long rows, long long k, int box_rows) {
    cuuint64_t dims[2] = {static_cast<cuuint64_t>(k), static_cast<cuuint64_t>(rows)};
    cuuint64_t strides[1] = {static_cast<cuuint64_t>(k * 2)};
    cuuint32_t box[2] = {64, static_cast<cuuint32_t>(box_rows)};
    cuuint32_t es[2] = {1, 1};
    CUresult r = cuTensorMapEncodeTiled(&t.m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2,
                                        const_cast<void*>(base), dims, strides, box, es,
                                        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                        CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
      std::fprintf(stderr, "encode failed %d\n", static_cast<int>(r));
      std::exit(1);
    }
  };
  // One case: returns median us; prints a line.
  auto run = [&](const char* name, int mode, long long rows, long long k, int grid, int chunk,
                 int box_rows, int split, int stages, int probe) {
    const long long bytes = rows * k * 2;
    Tmap t{};
    encode(t, w, rows, k, box_rows > 0 ? box_rows : 128);
    const long long cta_bytes = bytes / grid / 16 * 16;
    const int k_per_cta = static_cast<int>(k / split);
    const int stage_bytes = mode == 0 ? chunk : 64 * 2 * box_rows;
    std::vector<float> ts;
    long long first = 0, pl = 0;
    for (int it = 0; it < 18; ++it) {
      CK(cudaMemsetAsync(flush, it, 256ll << 20));
      CK(cudaEventRecord(e0));
      stream<<<grid, 32, stages * stage_bytes>>>(t, w, cta_bytes, chunk, mode, box_rows,
                                                 k_per_cta, split, stages, probe);
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      if (it >= 3) ts.push_back(ms * 1000.f);
      long long g[4];
      CK(cudaMemcpyFromSymbol(g, g_first, sizeof(g)));
      first = g[0];
      pl = g[1];
    }
    CK(cudaGetLastError());
    const float us = median(ts);
    std::printf("%-6s %7.1f MB  ctas %4d  %s %6d  stages %2d  %8.2f us  %7.0f GB/s  first %6lld cyc%s",
                name, bytes / 1e6, grid, mode == 0 ? "chunk" : "rows ", mode == 0 ? chunk : box_rows,
                stages, us, bytes / (us * 1e3), first, probe ? "" : "\n");
    if (probe) std::printf("  plain ld %lld cyc\n", pl);
    return us;
  };
  (void)run;
  const long long shapes[][2] = {{4096, 4096}, {8192, 8192}, {14336, 4096}, {28672, 8192}};
  for (auto& s : shapes) {
    const long long rows = s[0], k = s[1];
    // deepgemm's decode tiles: 128 rows, k split 1, 2 and 4 ways (11 stages of 16 KiB).
    for (int split : {1, 2, 4}) {
      run("tile", 1, rows, k, static_cast<int>(rows / 128) * split, 0, 128, split, 11, 0);
    }
    // Narrower boxes, whole k per CTA (no split, so no fixup): grid = rows / box.
    for (int br : {64, 32, 16}) {
      const int grid = static_cast<int>(rows / br);
      if (grid > 2048) continue;
      run("rows", 1, rows, k, grid, 0, br, 1, std::min(kMaxStages, 180 * 1024 / (128 * br)), 0);
    }
    // Bulk: 64, 128, 132 CTAs, 16 / 32 KiB chunks, ~180 KiB in flight.
    for (int grid : {64, 128, 132}) {
      for (int chunk : {16384, 32768}) {
        run("bulk", 0, rows, k, grid, chunk, 0, 1, std::min(kMaxStages, 180 * 1024 / chunk), 0);
      }
    }
  }
  // First-stage and plain-load latency at 4096 x 4096, flushed.
  run("bulk", 0, 4096, 4096, 128, 16384, 0, 1, 11, 1);
  run("tile", 1, 4096, 4096, 128, 0, 128, 4, 11, 1);
  return 0;
}
