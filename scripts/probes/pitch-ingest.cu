// Probe (not part of the library): does a row pitch that puts K-major lines mid-sector (a
// 16-bit k = 8 mod 16: rows 16 bytes into the L2's 32-byte sectors) slow TMA's ingest into
// shared memory, and does a cp.async producer (16-byte copies, which such rows still align)
// avoid it? Session 48 measured deepgemm's large TN shapes at 0.885x cuBLASLt where k = 8 mod
// 16 against 0.954x where k = 0 mod 16 (47e's random-21d), and session 17 (Nsight Compute) a
// mid-sector line at ~5x an aligned line's L2 requests under TMA. Device code in
// pitch-ingest.cuh (NVRTC-checked here by scripts/probes/nvrtc-check.py).
//
//     nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I kernels -I scripts/probes scripts/probes/pitch-ingest.cu -lcuda -o probe
//     ./probe   (one line a case: producer, tile, pitch, stages, CTAs, us, TB/s delivered, bytes
//               a cycle an SM, cycles a stage)
// Predicted: TMA at pitch 8192 ~900 cycles a 128x256 stage (session 44's tma-ingest), ~1.3-1.6x
// that at 8208; cp.async within 10% of itself at both pitches (its sector requests grow by
// 1.25x at most), slower than TMA at 8192 by an unknown factor (the question for a cp.async
// producer in the kernel: scripts/gpu-session49b.sh).
#include <cstring>

#include "probe.cuh"
#include "pitch-ingest.cuh"

int main() {
  const long long kRows = 1024, kK = 4096;  // each operand ~8 MiB: both stay in the 60 MiB L2
  const long long kMaxPitch = kK * 2 + 64;
  char* a = nullptr;
  char* b = nullptr;
  CK(cudaMalloc(&a, kRows * kMaxPitch));
  CK(cudaMalloc(&b, kRows * kMaxPitch));
  CK(cudaMemset(a, 1, kRows * kMaxPitch));
  CK(cudaMemset(b, 2, kRows * kMaxPitch));
  CK(cudaFuncSetAttribute(ingest_tma, cudaFuncAttributeMaxDynamicSharedMemorySize, 225 * 1024));
  CK(cudaFuncSetAttribute(ingest_cp, cudaFuncAttributeMaxDynamicSharedMemorySize, 225 * 1024));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  // promo_sel: -1 the kernel's rule (256 bytes where lines start on 128-byte lines, else 128),
  // else 0 / 1 / 2 / 3 for none / 64 / 128 / 256. flat: a (k, row, 1) map instead of
  // (64, row, k / 64).
  auto encode = [&](const void* p, int box_rows, long long pitch, int promo_sel, bool flat) {
    CUtensorMap t;
    cuuint64_t dims[3] = {64, static_cast<cuuint64_t>(kRows), static_cast<cuuint64_t>(kK / 64)};
    cuuint64_t strides[2] = {static_cast<cuuint64_t>(pitch), 128};
    if (flat) {
      dims[0] = static_cast<cuuint64_t>(kK);
      dims[2] = 1;
      strides[1] = static_cast<cuuint64_t>(pitch) * kRows;
    }
    cuuint32_t box[3] = {64, static_cast<cuuint32_t>(box_rows), 1};
    cuuint32_t es[3] = {1, 1, 1};
    const CUtensorMapL2promotion promos[4] = {CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
                                              CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B};
    const auto promo = promo_sel >= 0 ? promos[promo_sel]
                       : pitch % 128 == 0 ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B
                                          : CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
    CUresult r = cuTensorMapEncodeTiled(&t, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, const_cast<void*>(p), dims,
                                        strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                        CU_TENSOR_MAP_SWIZZLE_128B, promo, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
      std::fprintf(stderr, "encode failed %d (pitch %lld)\n", static_cast<int>(r), pitch);
      std::exit(1);
    }
    CUtensorMapProbe m;
    static_assert(sizeof(m) == sizeof(t), "CUtensorMap's size");
    std::memcpy(&m, &t, sizeof(t));
    return m;
  };
  auto run = [&](bool cp, int bm, int bn, int stages, int grid, long long pitch, int promo_sel = -1,
                 bool flat = false) {
    const int stage_bytes = (bm + bn) * 128;
    const int iters = static_cast<int>(3e9 / (static_cast<double>(grid) * stage_bytes));  // ~3 GB
    const int a_tiles = static_cast<int>(kRows / bm), b_tiles = static_cast<int>(kRows / bn);
    const int k_iters = static_cast<int>(kK / 64);
    const size_t smem = static_cast<size_t>(stages) * stage_bytes + 1024;
    const CUtensorMapProbe ta = encode(a, bm, pitch, promo_sel, flat), tb = encode(b, bn, pitch, promo_sel, flat);
    std::vector<float> ts;
    std::vector<long long> cyc(grid);
    for (int it = 0; it < 8; ++it) {
      CK(cudaEventRecord(e0));
      if (cp) {
        ingest_cp<<<grid, kCpThreads + 32, smem>>>(a, b, pitch, bm, bn, stages, iters, a_tiles, b_tiles, k_iters);
      } else {
        ingest_tma<<<grid, 64, smem>>>(ta, tb, bm, bn, stages, iters, a_tiles, b_tiles, k_iters, flat ? 1 : 0);
      }
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
    std::sort(ts.begin(), ts.end());
    const float us = ts[ts.size() / 2];
    const double delivered = static_cast<double>(grid) * iters * stage_bytes;
    std::printf("%-3s promo %2d %-4s %3dx%-3d pitch %5lld (mod 32: %2lld) stages %2d ctas %3d  %8.1f us  %5.2f TB/s  %5.1f B/cycle/SM  "
                "%5.0f cycles/stage\n",
                cp ? "cp" : "tma", promo_sel, flat ? "flat" : "3d", bm, bn, pitch, pitch % 32, stages, grid, us, delivered / (us * 1e6),
                iters * static_cast<double>(stage_bytes) / cycles, cycles / iters);
  };
  if (std::getenv("PROBE_FORMS") != nullptr) {
    // Session 67: the map's form and its L2 promotion at an aligned and a mid-sector pitch.
    for (const long long pitch : {kK * 2, kK * 2 + 16}) {
      for (const bool flat : {false, true}) {
        for (int promo = 0; promo < 4; ++promo) {
          run(false, 128, 256, 4, 132, pitch, promo, flat);
          run(false, 128, 128, 6, 132, pitch, promo, flat);
        }
      }
    }
    return 0;
  }
  for (const long long pitch : {kK * 2, kK * 2 + 16, kK * 2 + 32, kK * 2 + 48}) {
    for (const bool cp : {false, true}) {
      run(cp, 128, 256, 4, 132, pitch);
      run(cp, 128, 128, 6, 132, pitch);
    }
  }
  return 0;
}
