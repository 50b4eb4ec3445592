// Probe (not part of the library): the mainloop of tile forms deepgemm has not built, against
// its own 128 x 256 (two consumer warpgroups of 64 rows): 256 x 128 as cuBLASLt's large tile
// (each consumer 128 rows, two m64n128 wgmmas a k-slice) and 192 x {128, 160, 192} with the
// consumers splitting the columns (three m64n{64,80,96} wgmmas a k-slice each; cuBLASLt runs
// 192 x 192 where it covers a problem in one wave). Device code and the question in
// tile-forms.cuh (NVRTC-checked: every form compiles without spills under setmaxnreg 40 / 232;
// without it the 192 x 192 spilled at 168 registers).
//
//     nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I kernels -I scripts/probes scripts/probes/tile-forms.cu -lcuda -o probe
//     ./probe   (one line a case: form, pitch, stages, CTAs, us, TFLOP/s, cycles a 64-deep k-step)
// Predicted: 256 x 128 and 128 x 256 split by columns within 3% of 128 x 256 by rows; 192 x 192
// by columns 0.93-1.0 of its TFLOP/s (its shared-memory reads ~104 bytes a tensor-core cycle
// against ~78), 192 x 128 lower (~0.9: 64-wide wgmmas); at the mid-sector pitch every form
// slower by what its lines a k-step cost (192 x 192 loads 11% fewer lines a flop).
#include <cstring>

#include "probe.cuh"
#include "tile-forms.cuh"

int main() {
  const long long kRows = 3072, kK = 2048;  // each operand ~12 MiB: both stay in the L2
  const long long kMaxPitch = kK * 2 + 64;
  char* a = nullptr;
  char* b = nullptr;
  float* out = nullptr;
  CK(cudaMalloc(&a, kRows * kMaxPitch));
  CK(cudaMalloc(&b, kRows * kMaxPitch));
  CK(cudaMalloc(&out, 4096 * sizeof(float)));
  CK(cudaMemset(a, 0x3c, kRows * kMaxPitch));  // constant ~0.0115: timings only
  CK(cudaMemset(b, 0x3c, kRows * kMaxPitch));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  // K-major rows `pitch` bytes apart as (64 k, row, k / 64), the kernel's map, 128-byte swizzle.
  auto encode = [&](const void* p, int box_rows, long long pitch) {
    CUtensorMap t;
    cuuint64_t dims[3] = {64, static_cast<cuuint64_t>(kRows), static_cast<cuuint64_t>(kK / 64)};
    cuuint64_t strides[2] = {static_cast<cuuint64_t>(pitch), 128};
    cuuint32_t box[3] = {64, static_cast<cuuint32_t>(box_rows), 1};
    cuuint32_t es[3] = {1, 1, 1};
    const auto promo = pitch % 128 == 0 ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B : CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
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
  const char* modes[] = {"both", "mma", "loads"};
  auto run = [&](auto kernel, const char* form, int bm, int bn, long long pitch, int mode) {
    const int stage_bytes = (bm + bn) * 128;
    const int stages = std::min(8, 204800 / stage_bytes);  // ~200 KiB: the kernel keeps the rest for its epilogue
    const int grid = 132;
    const int iters = 2048;
    const int a_tiles = static_cast<int>(kRows / bm), b_tiles = static_cast<int>(kRows / bn);
    const int k_iters = static_cast<int>(kK / 64);
    const int smem = stages * stage_bytes + 1024;
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    const CUtensorMapProbe ta = encode(a, bm, pitch), tb = encode(b, bn, pitch);
    std::vector<float> ts;
    std::vector<long long> cyc(grid);
    for (int it = 0; it < 8; ++it) {
      CK(cudaEventRecord(e0));
      kernel<<<grid, 384, smem>>>(ta, tb, stages, iters, a_tiles, b_tiles, k_iters, mode, out);
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      if (it >= 2) ts.push_back(ms * 1000.f);
    }
    CK(cudaGetLastError());
    CK(cudaMemcpyFromSymbol(cyc.data(), g_tile_cycles, grid * sizeof(long long)));
    std::sort(cyc.begin(), cyc.end());
    std::sort(ts.begin(), ts.end());
    const float us = ts[ts.size() / 2];
    const double flops = 2.0 * bm * bn * 64.0 * iters * grid;
    std::printf("%-18s %3dx%-3d pitch %5lld (mod 32: %2lld) %-5s stages %d ctas %d  %8.1f us  %6.1f TFLOP/s  cycles/k-step median %5.0f max %5.0f\n",
                form, bm, bn, pitch, pitch % 32, modes[mode], stages, grid, us, flops / (us * 1e6),
                static_cast<double>(cyc[grid / 2]) / iters, static_cast<double>(cyc[grid - 1]) / iters);
  };
  for (const long long pitch : {kK * 2, kK * 2 + 16}) {
    for (int mode : {0, 1}) {
      run(tile_mainloop<128, 256, false>, "rows (deepgemm)", 128, 256, pitch, mode);
      run(tile_mainloop<128, 192, false>, "rows (deepgemm)", 128, 192, pitch, mode);
      run(tile_mainloop<256, 128, false>, "rows, 2 blocks", 256, 128, pitch, mode);
      run(tile_mainloop<128, 256, true>, "columns", 128, 256, pitch, mode);
      run(tile_mainloop<256, 128, true>, "columns", 256, 128, pitch, mode);
      run(tile_mainloop<192, 192, true>, "columns", 192, 192, pitch, mode);
      run(tile_mainloop<192, 160, true>, "columns", 192, 160, pitch, mode);
      run(tile_mainloop<192, 128, true>, "columns", 192, 128, pitch, mode);
    }
  }
  return 0;
}
