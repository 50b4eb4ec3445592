// Probe (not part of the library): can a persistent GEMM's idle producer warps copy an operand
// TMA cannot read (odd leading dimension) fast enough to hide the copy under the GEMM? Issue 4
// wants 4095³ within 10% of 4096³'s rate; it stands at 74% because A's and B's copies (~23 us
// each at ~2.9 TB/s, 46 of its 237 us) run before the GEMM (README "Where to start" item 3).
// Session 56 judged the in-GEMM copy not worth building: the first wave of 128 x 256 tiles
// walks all of B and a quarter of A in ~45 us, so ~42 MB must be copied in that time (~1.9 TB/s
// of reads plus writes), about twice what three 40-register warps of register-held loads were
// estimated to carry. Bulk copies (`cp.async.bulk`) hold no registers while in flight, so the
// bytes in flight an SM are the staging ring's, not the registers': this probe measures the
// rate such packers reach with 1-4 warps an SM and 4-64 KiB of staging an SM, at the GEMM's
// one CTA an SM. Device code in bulk-pack.cuh (NVRTC-checked by scripts/probes/nvrtc-check.py:
// 48 registers, no spills; the GEMM's producer warps have 40 under setmaxnreg, so a kernel
// form would need trimming).
//
//     nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I kernels -I scripts/probes scripts/probes/bulk-pack.cu -o probe
//     ./probe   (one line a case: warps a CTA, CTAs, chunk, slots, KiB staged an SM, us, TB/s
//               of reads plus writes; then the baselines; every packer case checked exactly)
// Predicted (Little's law, ~1.5-2 us loaded latency): 1 warp with 8 KiB in flight an SM
// ~1.0-1.4 TB/s; 16 KiB ~2-2.5; 32 KiB+ the copy's ceiling, ~3-3.5 (the library's pack
// kernel 2.9 at full occupancy, session 32). If 16 KiB reaches ~1.9 TB/s, the in-GEMM copy is
// worth building (it would cost the 128 x 256 tile a stage of its ring, or run on 128 x 192).
#include <cstdint>
#include <cstring>

#include "probe.cuh"
#include "bulk-pack.cuh"

static float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  const long long rows = 4095, k = 4095, ld = 4095, ldo = 4096;
  const size_t src_bytes = static_cast<size_t>(rows * ld * 2 + 256);
  const size_t dst_bytes = static_cast<size_t>(rows * ldo * 2);
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  unsigned char* src = nullptr;
  unsigned char* dst = nullptr;
  unsigned char* dst2 = nullptr;
  char* flush = nullptr;
  CK(cudaMalloc(&src, src_bytes));
  CK(cudaMalloc(&dst, dst_bytes));
  CK(cudaMalloc(&dst2, dst_bytes));
  CK(cudaMalloc(&flush, 256ll << 20));
  std::vector<uint16_t> h(src_bytes / 2);
  for (size_t i = 0; i < h.size(); ++i) h[i] = static_cast<uint16_t>((i * 2654435761u) >> 13);
  CK(cudaMemcpy(src, h.data(), src_bytes, cudaMemcpyHostToDevice));
  std::vector<uint16_t> want(dst_bytes / 2, 0);
  for (long long r = 0; r < rows; ++r) {
    for (long long c = 0; c < k; ++c) want[r * ldo + c] = h[r * ld + c];
  }
  CK(cudaFuncSetAttribute(pack_bulk, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  const double moved = 2.0 * rows * k * 2;  // bytes read plus bytes written
  // Times `launch` after an L2 flush each round (as deepgemm-bench), median of 12 after 3.
  auto timed = [&](auto launch) {
    std::vector<float> ts;
    for (int it = 0; it < 15; ++it) {
      CK(cudaMemsetAsync(flush, it, 256ll << 20));
      CK(cudaEventRecord(e0));
      launch();
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      if (it >= 3) ts.push_back(ms * 1000.f);
    }
    CK(cudaGetLastError());
    return median(ts);
  };
  int bad_cases = 0;
  auto run = [&](int warps, int grid, int chunk, int staging_kib) {
    const int slot_bytes = (chunk * 2 + 32 + 127) / 128 * 128;
    int slots = staging_kib * 1024 / warps / slot_bytes;
    slots = std::max(2, std::min(kPackMaxSlots, slots));
    const int smem = warps * slots * slot_bytes;
    CK(cudaMemset(dst, 0xff, dst_bytes));
    const float us = timed([&] {
      pack_bulk<<<grid, 128, smem>>>(src, ld, rows, k, dst, ldo, chunk, slots, slot_bytes, warps);
    });
    std::vector<uint16_t> got(dst_bytes / 2);
    CK(cudaMemcpy(got.data(), dst, dst_bytes, cudaMemcpyDeviceToHost));
    long long bad = 0;
    for (long long r = 0; r < rows; ++r) {
      for (long long c = 0; c < ldo; ++c) {
        // Columns past k: the last unit's tail is 0; the rest of the padding is not written.
        if (c >= k && c >= (k + 7) / 8 * 8) continue;
        bad += got[r * ldo + c] != want[r * ldo + c];
      }
    }
    bad_cases += bad != 0;
    std::printf("pack   warps %d  ctas %4d  chunk %5d  slots %2d  staged %3d KiB/SM  %8.2f us  %5.2f TB/s  %s\n",
                warps, grid, chunk, slots, smem * std::max(1, grid / sms) / 1024, us,
                moved / (us * 1e6), bad ? "WRONG" : "exact");
    if (bad) std::printf("       %lld elements differ\n", bad);
  };
  for (int warps : {1, 2, 3, 4}) {
    for (int chunk : {512, 1024, 2048}) {
      for (int staging : {4, 8, 16, 32, 64}) {
        if (staging * 1024 / warps < 2 * (chunk * 2 + 160)) continue;
        run(warps, sms, chunk, staging);
      }
    }
  }
  // Full occupancy for reference: 4 warps, 4 CTAs an SM.
  run(4, 4 * sms, 1024, 32);
  // Baselines: the driver's pitched copy (odd source pitch), a contiguous copy of the same bytes.
  const float us2d = timed([&] {
    CK(cudaMemcpy2DAsync(dst2, ldo * 2, src, ld * 2, k * 2, rows, cudaMemcpyDeviceToDevice));
  });
  std::printf("memcpy2D pitched (8190 -> 8192 bytes)            %8.2f us  %5.2f TB/s\n", us2d,
              moved / (us2d * 1e6));
  const float us1d = timed([&] {
    CK(cudaMemcpyAsync(dst2, src, static_cast<size_t>(rows * k * 2), cudaMemcpyDeviceToDevice));
  });
  std::printf("memcpy contiguous (same bytes)                   %8.2f us  %5.2f TB/s\n", us1d,
              moved / (us1d * 1e6));
  std::printf("%d packer cases wrong\n", bad_cases);
  return bad_cases != 0;
}
