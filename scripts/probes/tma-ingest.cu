// Probe (not part of the library): how many bytes a second can TMA bring into one SM's shared
// memory when the operands sit in L2, as a GEMM's mainloop reads them, by tile shape, ring
// depth and cluster multicast? No arithmetic: per CTA one producer thread fills a ring of
// `stages` stages (an A box of BM rows and a B box of BN rows, 64 k each, 128-byte swizzle, as
// deepgemm's sm90 kernel) and one consumer thread releases each stage as soon as it is full,
// to every CTA whose loads write into it (the kernel's empty-barrier protocol). With a cluster
// of CM x CN CTAs (rank r at (r % CM, r / CM)), A is shared by the CN CTAs of a tile row and B
// by the CM of a tile column: each CTA loads its 1/CN of A and 1/CM of B, multicast.
//
// Session 44's question: the solo 64x64 kernel fills a stage every ~565 cycles (16 KiB: ~29
// bytes a cycle an SM) at 928x368x3968 whatever its ring depth (5 or 13 stages) or cluster
// (session 43), while cuBLASLt's 64x64 in 4 x 2 clusters fills ~50. Is ~30 bytes a cycle what
// one SM's TMA takes unclustered?
//
//     nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I kernels scripts/probes/tma-ingest.cu -lcuda -o probe
//     ./probe   (one line a case: tile, cluster, stages, CTAs, us, delivered TB/s, L2-read
//               TB/s, bytes a cycle an SM (delivered), cycles a stage)
#include "probe.cuh"
#include "ptx/cluster.cuh"
#include "ptx/fence.cuh"
#include "ptx/tma.cuh"

constexpr int kMaxStages = 16;
__device__ long long g_cycles[1024];  // per CTA: the consumer's cycles from its first full stage
                                      // to its last

__global__ void __launch_bounds__(64, 1)
    ingest(const __grid_constant__ Tmap ta, const __grid_constant__ Tmap tb, int bm, int bn,
           int cm, int cn, int stages, int iters, int a_tiles, int b_tiles, int k_iters, int kd) {
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  __shared__ unsigned long long full[kMaxStages];
  __shared__ unsigned long long empty[kMaxStages];
  const unsigned raw = smem_addr(smem_raw);
  const unsigned base = raw + ((1024u - (raw & 1023u)) & 1023u);
  const int stage_bytes = (bm + bn) * 128 * kd;
  const int csize = cm * cn;
  const int rank = csize > 1 ? static_cast<int>(cluster_ctarank()) : 0;
  const int rm = rank % cm, rn = rank / cm;
  const int cl = static_cast<int>(blockIdx.x) / csize;
  const int a_row = ((cl * cm + rm) % a_tiles) * bm;
  const int b_row = ((cl * cn + rn) % b_tiles) * bn;
  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) {
      mbarrier_init(smem_addr(&full[s]), 1);
      mbarrier_init(smem_addr(&empty[s]), cm + cn - 1);
    }
    fence_barrier_init();
  }
  if (csize > 1) {
    cluster_sync();
  } else {
    __syncthreads();
  }
  unsigned short amask = 0, bmask = 0;
  for (int j = 0; j < cn; ++j) amask |= 1u << (rm + cm * j);
  for (int i = 0; i < cm; ++i) bmask |= 1u << (i + cm * rn);
  if (threadIdx.x == 0) {
    // Producer.
    for (int i = 0; i < iters; ++i) {
      const int s = i % stages;
      const unsigned ph = static_cast<unsigned>(i / stages) & 1u;
      mbarrier_wait_parity(smem_addr(&empty[s]), ph ^ 1u);
      const unsigned f = smem_addr(&full[s]);
      mbarrier_arrive_expect_tx(f, stage_bytes);
      // The maps' third dimension: kd consecutive 64-wide k-slabs a box (kd = 1: the kernel's).
      const int k = (i % k_iters) * kd;
      const unsigned dst_a = base + s * stage_bytes;
      const unsigned dst_b = dst_a + bm * 128 * kd;
      if (cn == 1) {
        tma_load_3d(dst_a, &ta.m, f, 0, a_row, k);
      } else {
        const int share = bm / cn;
        tma_load_3d_multicast(dst_a + rn * share * 128, &ta.m, f, 0, a_row + rn * share, k, amask);
      }
      if (cm == 1) {
        tma_load_3d(dst_b, &tb.m, f, 0, b_row, k);
      } else {
        const int share = bn / cm;
        tma_load_3d_multicast(dst_b + rm * share * 128, &tb.m, f, 0, b_row + rm * share, k, bmask);
      }
    }
  } else if (threadIdx.x == 32) {
    // Consumer: releases each stage to every CTA that writes into it (those sharing A or B).
    long long t0 = 0;
    for (int i = 0; i < iters; ++i) {
      const int s = i % stages;
      const unsigned ph = static_cast<unsigned>(i / stages) & 1u;
      mbarrier_wait_parity(smem_addr(&full[s]), ph);
      if (i == 0) t0 = clock64_now();
      const unsigned e = smem_addr(&empty[s]);
      if (csize == 1) {
        mbarrier_arrive(e);
      } else {
        for (int r = 0; r < csize; ++r) {
          if (r % cm == rm || r / cm == rn) mbarrier_arrive_cluster(map_shared_rank(e, r));
        }
      }
    }
    g_cycles[blockIdx.x] = clock64_now() - t0;
  }
  // No CTA exits while a peer may still multicast into it or arrive on its barriers.
  if (csize > 1) cluster_sync();
}

static float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  const long long kRows = 1024, kK = 4096;  // each operand 8 MiB: both stay in the 60 MiB L2
  char* a = nullptr;
  char* b = nullptr;
  CK(cudaMalloc(&a, kRows * kK * 2));
  CK(cudaMalloc(&b, kRows * kK * 2));
  CK(cudaMemset(a, 1, kRows * kK * 2));
  CK(cudaMemset(b, 2, kRows * kK * 2));
  CK(cudaFuncSetAttribute(ingest, cudaFuncAttributeMaxDynamicSharedMemorySize, 225 * 1024));
  CK(cudaFuncSetAttribute(ingest, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  // K-major rows viewed as (64 k, row, k-slab): a box of kd slabs is kd of the kernel's boxes.
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
  auto run = [&](int bm, int bn, int cm, int cn, int stages, int grid, int kd = 1) {
    const int csize = cm * cn;
    grid = grid / csize * csize;
    const int stage_bytes = (bm + bn) * 128 * kd;
    // ~3 GB delivered a case.
    const int iters = static_cast<int>(3e9 / (static_cast<double>(grid) * stage_bytes));
    Tmap ta{}, tb{};
    encode(ta, a, bm / cn, kd);
    encode(tb, b, bn / cm, kd);
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(64);
    cfg.dynamicSmemBytes = stages * stage_bytes + 1024;
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
      CK(cudaLaunchKernelEx(&cfg, ingest, ta, tb, bm, bn, cm, cn, stages, iters,
                            static_cast<int>(kRows / bm), static_cast<int>(kRows / bn),
                            static_cast<int>(kK / 64 / kd), kd));
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      if (it >= 2) ts.push_back(ms * 1000.f);
    }
    CK(cudaGetLastError());
    CK(cudaMemcpyFromSymbol(cyc.data(), g_cycles, grid * sizeof(long long)));
    std::sort(cyc.begin(), cyc.end());
    const double cycles = static_cast<double>(cyc[grid / 2]);
    const float us = median(ts);
    const double delivered = static_cast<double>(grid) * iters * stage_bytes;
    // L2 reads: each CTA reads 1/cn of its A box and 1/cm of its B box.
    const double l2 = static_cast<double>(grid) * iters * (bm / cn + bn / cm) * 128.0;
    std::printf("%3dx%-3d k%3d c%dx%d stages %2d ctas %3d  %8.1f us  delivered %5.2f TB/s  L2 read %5.2f TB/s  "
                "%5.1f B/cycle/SM  %5.0f cycles/stage\n",
                bm, bn, 64 * kd, cm, cn, stages, grid, us, delivered / (us * 1e6), l2 / (us * 1e6),
                iters * static_cast<double>(stage_bytes) / cycles, cycles / iters);
  };
  // Session 44c: unclustered, 64-row boxes ran 341 cycles a 16 KiB stage (48 B a cycle an SM)
  // at 132 and at 90 CTAs, 128x256 899 at 132 and 497 at 66; multicast clusters ran 2-4.6x
  // slower a stage. 44d: boxes of 2 and 4 k-slabs (fewer boxes a byte), two CTAs an SM.
  run(64, 64, 1, 1, 5, 132);
  run(64, 64, 1, 1, 5, 264);
  run(64, 64, 1, 1, 6, 132, 2);
  run(64, 64, 1, 1, 6, 90, 2);
  run(64, 64, 1, 1, 3, 132, 4);
  run(64, 64, 1, 1, 3, 264, 2);
  run(128, 64, 1, 1, 8, 132);
  run(128, 64, 1, 1, 4, 132, 2);
  run(128, 64, 1, 1, 4, 90, 2);
  run(128, 128, 1, 1, 6, 132);
  run(128, 128, 1, 1, 3, 132, 2);
  run(128, 256, 1, 1, 4, 132);
  run(128, 256, 1, 1, 4, 66);
  run(64, 64, 2, 1, 6, 132, 2);
  run(64, 64, 2, 1, 13, 132);
  return 0;
}
