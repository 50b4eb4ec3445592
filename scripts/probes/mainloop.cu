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
#include "ptx/cluster.cuh"
#include "ptx/tma.cuh"
#include "ptx/wgmma.cuh"
#include "sm90/descriptor.cuh"

using dg_sm90::desc_kmajor_sw128;

constexpr int kMaxStages = 16;
__device__ long long g_cycles[1024];

// kRows consumer warpgroups take 64 rows each of a tile of 64 kRows rows (the kernel's
// cooperative consumers); with kKGroups > 1, kKGroups such sets take the tile's stages in turn
// (stage i to set i % kKGroups), each with accumulators of its own (summed at the end in a
// real kernel): a split of k inside the CTA. (44g: one waiting lane a warp, then __syncwarp,
// instead of every thread's try_wait: 5-20% slower everywhere; dropped.)
// Clusters of kCm x kCn CTAs (rank r at (r % kCm, r / kCm)) take a kCm x kCn block of tiles:
// A shared by the kCn CTAs of a tile row, B by the kCm of a tile column, each CTA loading its
// share multicast, and a stage released to every CTA that writes into it (the kernel's
// protocol, kernels/sm90/gemm.cuh).
// kKd: 64-wide k-slabs a stage, each operand's slabs one TMA box (a 3D map: 64 k, rows, slab).
// kBoxes: 1, the stage's slabs of an operand in one box; kKd, a box a slab (the maps' box
// depth 1).
template <int BN, int kRows, int kKGroups, int kCm = 1, int kCn = 1, int kKd = 1, int kBoxes = 1>
__global__ void __launch_bounds__(128 * (1 + kRows * kKGroups), 1)
    mainloop(const __grid_constant__ Tmap ta, const __grid_constant__ Tmap tb, int stages,
             int iters, int a_tiles, int b_tiles, int k_iters, int mode, float* out) {
  constexpr int BM = 64 * kRows;
  constexpr int kStageBytes = (BM + BN) * 128 * kKd;
  constexpr int kCsize = kCm * kCn;
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  __shared__ unsigned long long full[kMaxStages];
  __shared__ unsigned long long empty[kMaxStages];
  const unsigned raw = smem_addr(smem_raw);
  const unsigned base = raw + ((1024u - (raw & 1023u)) & 1023u);
  const int rank = kCsize > 1 ? static_cast<int>(cluster_ctarank()) : 0;
  const int rm = rank % kCm, rn = rank / kCm;
  // Cluster blocks walk the (a_tiles / kCm) x (b_tiles / kCn) grid of blocks, m fastest.
  const int cl = static_cast<int>(blockIdx.x) / kCsize;
  const int blocks_m = a_tiles / kCm;
  const int a_row = ((cl % blocks_m) * kCm + rm) * BM;
  const int b_row = ((cl / blocks_m % (b_tiles / kCn)) * kCn + rn) * BN;
  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) {
      mbarrier_init(smem_addr(&full[s]), 1);
      mbarrier_init(smem_addr(&empty[s]), 4 * kRows * (kCm + kCn - 1));
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  if (kCsize > 1) {
    cluster_sync();
  } else {
    __syncthreads();
  }
  unsigned short amask = 0, bmask = 0;
  for (int j = 0; j < kCn; ++j) amask |= 1u << (rm + kCm * j);
  for (int i = 0; i < kCm; ++i) bmask |= 1u << (i + kCm * rn);
  const int wg = static_cast<int>(threadIdx.x) / 128;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  if (wg == 0) {
    if (threadIdx.x == 0) {
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
        const int k = (i % k_iters) * kKd;  // in slabs
        const unsigned dst_a = base + s * kStageBytes;
        const unsigned dst_b = dst_a + BM * 128 * kKd;
        if (kBoxes > 1) {
#pragma unroll
          for (int d = 0; d < kKd; ++d) {
            tma_load_3d(dst_a + d * BM * 128, &ta.m, f, 0, a_row, k + d);
            tma_load_3d(dst_b + d * BN * 128, &tb.m, f, 0, b_row, k + d);
          }
          continue;
        }
        if (kCn == 1) {
          tma_load_3d(dst_a, &ta.m, f, 0, a_row, k);
        } else {
          constexpr int kShare = BM / kCn;
          tma_load_3d_multicast(dst_a + rn * kShare * 128, &ta.m, f, 0, a_row + rn * kShare, k, amask);
        }
        if (kCm == 1) {
          tma_load_3d(dst_b, &tb.m, f, 0, b_row, k);
        } else {
          constexpr int kShare = BN / kCm;
          tma_load_3d_multicast(dst_b + rm * kShare * 128, &tb.m, f, 0, b_row + rm * kShare, k, bmask);
        }
      }
    }
  } else {
    const int consumer = (wg - 1) % kRows;
    const int kgroup = (wg - 1) / kRows;
    // Releases stage `s` to every CTA that writes into it (this one's included).
    const auto release = [&](int s) {
      const unsigned e = smem_addr(&empty[s]);
      if (kCsize == 1) {
        mbarrier_arrive(e);
      } else {
        for (int r = 0; r < kCsize; ++r) {
          if (r % kCm == rm || r / kCm == rn) mbarrier_arrive_cluster(map_shared_rank(e, r));
        }
      }
    };
    float acc[BN / 2];
    for (int r = 0; r < BN / 2; ++r) acc[r] = 0.f;
    long long t0 = 0;
    int previous = 0;
    bool first = true;
    for (int i = kgroup; i < iters; i += kKGroups) {
      const int s = i % stages;
      const unsigned ph = static_cast<unsigned>(i / stages) & 1u;
      mbarrier_wait_parity(smem_addr(&full[s]), ph);
      if (i == 0) t0 = clock64_now();
      if (mode != 2) {
        const unsigned a = base + s * kStageBytes + consumer * 64 * 128;
        const unsigned b = base + s * kStageBytes + BM * 128 * kKd;
#pragma unroll
        for (int r = 0; r < BN / 2; ++r) wgmma_fence_operand(acc[r]);
        wgmma_fence();
#pragma unroll
        for (int d = 0; d < kKd; ++d) {
#pragma unroll
          for (int kk = 0; kk < 4; ++kk) {
            Wgmma<BN, kWgmmaBf16, 0, 0>::mma(acc, desc_kmajor_sw128(a + d * BM * 128 + kk * 32),
                                             desc_kmajor_sw128(b + d * BN * 128 + kk * 32), 1);
          }
        }
        wgmma_commit_group();
#pragma unroll
        for (int r = 0; r < BN / 2; ++r) wgmma_fence_operand(acc[r]);
        wgmma_wait_group<1>();
        if (!first && lane == 0) release(previous);
        previous = s;
        first = false;
      } else if (lane == 0) {
        release(s);
      }
    }
    wgmma_wait_group<0>();
    if (mode != 2 && !first && lane == 0) release(previous);
    float sum = 0.f;
    for (int r = 0; r < BN / 2; ++r) sum += acc[r];
    if (threadIdx.x == 128) g_cycles[blockIdx.x] = clock64_now() - t0;
    if (sum == 12345.f) out[blockIdx.x] = sum;
  }
  // No CTA exits while a peer may still multicast into it or arrive on its barriers.
  if (kCsize > 1) cluster_sync();
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
  // K-major rows as (64 k, row, 64-wide k-slab); a box takes kd slabs (44h and before: a
  // (K, row, 1) map with one slab a box, the same bytes and layout).
  auto encode = [&](Tmap& t, const void* p, int box_rows, int kd) {
    cuuint64_t dims[3] = {64, static_cast<cuuint64_t>(kRows), static_cast<cuuint64_t>(kK / 64)};
    cuuint64_t strides[2] = {static_cast<cuuint64_t>(kK * 2), 128};
    cuuint32_t box[3] = {64, static_cast<cuuint32_t>(box_rows), static_cast<cuuint32_t>(kd)};
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
                 int cm = 1, int cn = 1, int kd = 1, int boxes = 1) {
    const int bm = 64 * rows;
    const int consumers = rows * kgroups;
    const int csize = cm * cn;
    grid = grid / csize * csize;
    const int stage_bytes = (bm + bn) * 128 * kd;
    const int smem = stages * stage_bytes + 1024;
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    const int iters = 4096;
    Tmap ta{}, tb{};
    encode(ta, a, bm / cn, boxes > 1 ? 1 : kd);
    encode(tb, b, bn / cm, boxes > 1 ? 1 : kd);
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(128 * (1 + consumers));
    cfg.dynamicSmemBytes = smem;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = csize;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    std::vector<float> ts;
    std::vector<long long> cyc(grid);
    for (int it = 0; it < 8; ++it) {
      CK(cudaEventRecord(e0));
      CK(cudaLaunchKernelEx(&cfg, kernel, ta, tb, stages, iters, static_cast<int>(kRows / bm),
                            static_cast<int>(kRows / bn), static_cast<int>(kK / 64 / kd), mode, out));
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
    const double flops = 2.0 * bm * bn * 64.0 * kd * iters * grid;
    std::printf("%3dx%-3d k%3d boxes %d kgroups %d c%dx%d stages %2d ctas %3d %-5s  %8.1f us  %6.1f TFLOP/s  cycles/64-k median %5.0f max %5.0f\n",
                bm, bn, 64 * kd, boxes, kgroups, cm, cn, stages, grid, modes[mode], us, flops / (us * 1e6),
                static_cast<double>(cyc[grid / 2]) / iters / kd, static_cast<double>(cyc[grid - 1]) / iters / kd);
  };
  // 44e (kgroups 1): 64x64 517 cycles a k-step with loads, 500 without any (the consumer
  // warpgroup's 4 wgmmas alone), 459 loads alone; 128x256 1200 / 1180. 44f: k split over 2
  // warpgroups, no loads: 64x64 508 -> 356 (3: 357), with loads 578 -> 556; loads alone 461
  // where tma-ingest's single waiting thread took 341. 44g: one waiting lane a warp: slower.
  // 44h: clusters change nothing (64x64 loads alone 461 unclustered, 483 in 4 x 2; with
  // wgmma 578 / 669, k split over 2 warpgroups 555 / 575). 44i: 128-deep stages (two slabs a box).
  // 44i: 128-deep stages, one box an operand: 64x64 568 -> 366 cycles a 64-k with loads (322
  // with k split over 2 warpgroups), 128x64 742 -> 506; loads alone 462 -> 238, wgmma alone
  // 515 -> 352. 44j: the same stages in a box a slab (twice the TMA instructions).
  for (int mode : {0, 2}) {
    run(mainloop<64, 1, 1, 1, 1, 2>, 64, 1, 1, 6, 96, mode, 1, 1, 2);
    run(mainloop<64, 1, 1, 1, 1, 2, 2>, 64, 1, 1, 6, 96, mode, 1, 1, 2, 2);
    run(mainloop<64, 1, 2, 1, 1, 2, 2>, 64, 1, 2, 6, 96, mode, 1, 1, 2, 2);
    run(mainloop<64, 2, 1, 1, 1, 2, 2>, 64, 2, 1, 4, 96, mode, 1, 1, 2, 2);
    run(mainloop<128, 2, 1, 1, 1, 2, 2>, 128, 2, 1, 3, 132, mode, 1, 1, 2, 2);
    run(mainloop<128, 2, 1>, 128, 2, 1, 6, 132, mode);
  }
  return 0;
}
