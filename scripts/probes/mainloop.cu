// Probe (not part of the library): the sm90 kernel's mainloop alone, on operands that sit in
// L2: one producer thread fills a ring by TMA (64 k a stage, 128-byte swizzle, as the kernel),
// one or two consumer warpgroups run 4 wgmma m64nNk16 a stage (k-major A and B from shared
// memory) and release each stage after the next stage's batch is issued (wgmma.wait_group 1),
// as kernels/sm90/gemm.cuh does. No epilogue, no scheduler, no tile change: what cycles a k-step
// takes when the loads and the tensor cores share the SM. Modes: `tma` (both), `nold` (no loads:
// the producer arrives on the full barrier without a transaction, the consumers read whatever
// the stages hold: the consumers' own rate), `nomma` (loads, consumers only wait and release).
//
// Session 44's question: the solo 64x64 kernel takes ~565 cycles a k-step at 928x368x3968, the
// loads alone (scripts/probes/tma-ingest.cu) 341 and cuBLASLt's 64x64 ~320. Where do the other
// ~220 go?
//
//     nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I kernels scripts/probes/mainloop.cu -lcuda -o probe
#include "probe.cuh"
#include "ptx/tma.cuh"
#include "ptx/wgmma.cuh"
#include "sm90/descriptor.cuh"

using dg_sm90::desc_kmajor_sw128;

constexpr int kMaxStages = 16;
__device__ long long g_cycles[1024];

// kRows consumer warpgroups take 64 rows each of a tile of 64 kRows rows (the kernel's
// cooperative consumers); with kKGroups > 1, kKGroups such sets take the tile's stages in turn
// (stage i to set i % kKGroups), each with accumulators of its own (summed at the end in a
// real kernel): a split of k inside the CTA.
// kWait: how a consumer warp waits for a full stage. 0: every thread spins on try_wait (the
// kernel); 1: lane 0 alone, then __syncwarp.
template <int BN, int kRows, int kKGroups, int kWait = 0>
__global__ void __launch_bounds__(128 * (1 + kRows * kKGroups), 1)
    mainloop(const __grid_constant__ Tmap ta, const __grid_constant__ Tmap tb, int stages,
             int iters, int a_tiles, int b_tiles, int k_iters, int mode, float* out) {
  constexpr int BM = 64 * kRows;
  constexpr int kStageBytes = (BM + BN) * 128;
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  __shared__ unsigned long long full[kMaxStages];
  __shared__ unsigned long long empty[kMaxStages];
  const unsigned raw = smem_addr(smem_raw);
  const unsigned base = raw + ((1024u - (raw & 1023u)) & 1023u);
  const int a_row = (static_cast<int>(blockIdx.x) % a_tiles) * BM;
  const int b_row = (static_cast<int>(blockIdx.x) / a_tiles % b_tiles) * BN;
  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) {
      mbarrier_init(smem_addr(&full[s]), 1);
      mbarrier_init(smem_addr(&empty[s]), 4 * kRows);
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  const int wg = static_cast<int>(threadIdx.x) / 128;
  if (wg == 0) {
    if (threadIdx.x != 0) return;
    for (int i = 0; i < iters; ++i) {
      const int s = i % stages;
      const unsigned ph = static_cast<unsigned>(i / stages) & 1u;
      mbarrier_wait_parity(smem_addr(&empty[s]), ph ^ 1u);
      const unsigned f = smem_addr(&full[s]);
      if (mode == 1) {
        mbarrier_arrive(f);
        continue;
      }
      mbarrier_arrive_expect_tx(f, kStageBytes);
      const int k = (i % k_iters) * 64;
      const unsigned dst_a = base + s * kStageBytes;
      tma_load_3d(dst_a, &ta.m, f, k, a_row, 0);
      tma_load_3d(dst_a + BM * 128, &tb.m, f, k, b_row, 0);
    }
    return;
  }
  const int consumer = (wg - 1) % kRows;
  const int kgroup = (wg - 1) / kRows;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  float acc[BN / 2];
  for (int r = 0; r < BN / 2; ++r) acc[r] = 0.f;
  long long t0 = 0;
  int previous = 0;
  bool first = true;
  for (int i = kgroup; i < iters; i += kKGroups) {
    const int s = i % stages;
    const unsigned ph = static_cast<unsigned>(i / stages) & 1u;
    if (kWait == 0) {
      mbarrier_wait_parity(smem_addr(&full[s]), ph);
    } else {
      if (lane == 0) mbarrier_wait_parity(smem_addr(&full[s]), ph);
      __syncwarp();
    }
    if (i == 0) t0 = clock64_now();
    if (mode != 2) {
      const unsigned a = base + s * kStageBytes + consumer * 64 * 128;
      const unsigned b = base + s * kStageBytes + BM * 128;
#pragma unroll
      for (int r = 0; r < BN / 2; ++r) wgmma_fence_operand(acc[r]);
      wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < 4; ++kk) {
        Wgmma<BN, kWgmmaBf16, 0, 0>::mma(acc, desc_kmajor_sw128(a + kk * 32),
                                         desc_kmajor_sw128(b + kk * 32), 1);
      }
      wgmma_commit_group();
#pragma unroll
      for (int r = 0; r < BN / 2; ++r) wgmma_fence_operand(acc[r]);
      wgmma_wait_group<1>();
      if (!first && lane == 0) mbarrier_arrive(smem_addr(&empty[previous]));
      previous = s;
      first = false;
    } else if (lane == 0) {
      mbarrier_arrive(smem_addr(&empty[s]));
    }
  }
  wgmma_wait_group<0>();
  if (mode != 2 && !first && lane == 0) mbarrier_arrive(smem_addr(&empty[previous]));
  float sum = 0.f;
  for (int r = 0; r < BN / 2; ++r) sum += acc[r];
  if (threadIdx.x == 128) g_cycles[blockIdx.x] = clock64_now() - t0;
  if (sum == 12345.f) out[blockIdx.x] = sum;
}

static float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  const long long kRows = 1024, kK = 4096;  // each operand 8 MiB: both stay in the 60 MiB L2
  char* a = nullptr;
  char* b = nullptr;
  float* out = nullptr;
  CK(cudaMalloc(&a, kRows * kK * 2));
  CK(cudaMalloc(&b, kRows * kK * 2));
  CK(cudaMalloc(&out, 4096 * sizeof(float)));
  CK(cudaMemset(a, 0x3c, kRows * kK * 2));  // constant 0.0115: timings only
  CK(cudaMemset(b, 0x3c, kRows * kK * 2));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  auto encode = [&](Tmap& t, const void* p, int box_rows) {
    cuuint64_t dims[3] = {static_cast<cuuint64_t>(kK), static_cast<cuuint64_t>(kRows), 1};
    cuuint64_t strides[2] = {static_cast<cuuint64_t>(kK * 2), static_cast<cuuint64_t>(kK * 2 * kRows)};
    cuuint32_t box[3] = {64, static_cast<cuuint32_t>(box_rows), 1};
    cuuint32_t es[3] = {1, 1, 1};
    CUresult r = cuTensorMapEncodeTiled(&t.m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, const_cast<void*>(p),
                                        dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                        CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
      std::fprintf(stderr, "encode failed %d\n", static_cast<int>(r));
      std::exit(1);
    }
  };
  const char* modes[] = {"tma", "nold", "nomma"};
  auto run = [&](auto kernel, int bn, int rows, int kgroups, int stages, int grid, int mode,
                 int wait = 0) {
    const int bm = 64 * rows;
    const int consumers = rows * kgroups;
    const int stage_bytes = (bm + bn) * 128;
    const int smem = stages * stage_bytes + 1024;
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    const int iters = 4096;
    Tmap ta{}, tb{};
    encode(ta, a, bm);
    encode(tb, b, bn);
    std::vector<float> ts;
    std::vector<long long> cyc(grid);
    for (int it = 0; it < 8; ++it) {
      CK(cudaEventRecord(e0));
      kernel<<<grid, 128 * (1 + consumers), smem>>>(ta, tb, stages, iters,
                                                    static_cast<int>(kRows / bm),
                                                    static_cast<int>(kRows / bn),
                                                    static_cast<int>(kK / 64), mode, out);
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      if (it >= 2) ts.push_back(ms * 1000.f);
    }
    CK(cudaGetLastError());
    CK(cudaMemcpyFromSymbol(cyc.data(), g_cycles, grid * sizeof(long long)));
    std::sort(cyc.begin(), cyc.end());
    const float us = median(ts);
    const double flops = 2.0 * bm * bn * 64.0 * iters * grid;
    std::printf("%3dx%-3d kgroups %d wait %d stages %2d ctas %3d %-5s  %8.1f us  %6.1f TFLOP/s  cycles/k-step median %5.0f max %5.0f\n",
                bm, bn, kgroups, wait, stages, grid, modes[mode], us, flops / (us * 1e6),
                static_cast<double>(cyc[grid / 2]) / iters, static_cast<double>(cyc[grid - 1]) / iters);
  };
  // 44e (kgroups 1): 64x64 517 cycles a k-step with loads, 500 without any (the consumer
  // warpgroup's 4 wgmmas alone), 459 loads alone; 128x256 1200 / 1180. 44f: k split over 2
  // warpgroups, no loads: 64x64 508 -> 356 (3: 357), with loads 578 -> 556; loads alone 461
  // where tma-ingest's single waiting thread took 341. 44g: one waiting lane a warp.
  for (int mode : {0, 1, 2}) {
    run(mainloop<64, 1, 1, 0>, 64, 1, 1, 13, 90, mode, 0);
    run(mainloop<64, 1, 1, 1>, 64, 1, 1, 13, 90, mode, 1);
    run(mainloop<64, 1, 2, 1>, 64, 1, 2, 13, 90, mode, 1);
    run(mainloop<64, 2, 1, 0>, 64, 2, 1, 8, 96, mode, 0);
    run(mainloop<64, 2, 1, 1>, 64, 2, 1, 8, 96, mode, 1);
    run(mainloop<128, 2, 1, 0>, 128, 2, 1, 6, 132, mode, 0);
    run(mainloop<128, 2, 1, 1>, 128, 2, 1, 6, 132, mode, 1);
    run(mainloop<256, 2, 1, 0>, 256, 2, 1, 4, 132, mode, 0);
    run(mainloop<256, 2, 1, 1>, 256, 2, 1, 4, 132, mode, 1);
  }
  return 0;
}
