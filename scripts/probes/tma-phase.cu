// Probe (not part of the library): K-major operands TMA cannot describe as they are (an odd
// leading dimension, a base address off the 16-byte grid) read where they are through one tensor
// map a row phase (scripts/probes/tma-phase.cuh says how), instead of packed into an aligned
// copy first. Session 52 wrote it with no GPU lent; the first GPU session runs it:
//
//     nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I kernels -I scripts/probes scripts/probes/tma-phase.cu -lcuda -o probe
//     ./probe   (first the copy checks, one line each, PASS / FAIL with the first wrong byte;
//               then one line an ingest case: tile, ld, element offset, phases, issuers,
//               stages, us, TB/s delivered, cycles a stage)
//
// Predicted: (1) every copy check PASS: TMA takes any start coordinate, zero-fills past the
// map's extent; if not, the phase maps are no way and the packs stay. Not sure: TMA stores
// were seen clipping at a ragged line's end in whole 16-byte units (plan/sm90.rs
// `tma_store_with`), a hint that the engine works in 16-byte units along dimension 0; a load
// from a start off that grid may then misplace the box's elements (a FAIL with every element
// wrong, not a few). (2) 128x256, 4 stages:
// aligned (ld 4096, one box each) ~1,120 cycles a stage (session 49b); ld 4104 (rows 16 bytes
// into a 32-byte sector) ~1,690; 8 phases at aligned starts (ld 4096 cut as if odd) within 10%
// of 1,120 if eight boxes of 16 / 32 rows cost no more than two big ones, else the boxes'
// issue is the price; ld 4095 (8 phases, unaligned starts) ~1,700 (every row 5 sectors and 2
// lines, as the mid-sector pitch's), and more issuers no faster. Against that budget: a
// 128x256 stage's math is ~1,109 cycles at 1,980 MHz, and the packs cost 4095³ ~26% of its
// time, so ingest up to ~1.5x the aligned stage's would still win if the kernel hides half of
// it (k = 8 mod 16 shapes ran 7% slower than aligned ones with 1.51x the ingest, session 48).
#include <cstring>

#include "probe.cuh"
#include "tma-phase.cuh"

// A K-major operand of `rows` rows of `k` elements, `ld` elements apart, starting `offset`
// elements into a 256-byte aligned allocation.
struct Operand {
  char* alloc = nullptr;
  long long rows, k, ld, offset;
  int esize;
};

static int gcd(long long a, long long b) {
  while (b) {
    long long t = a % b;
    a = b;
    b = t;
  }
  return static_cast<int>(a);
}

// Row phases TMA needs for this operand: rows r and r + P are a multiple of 16 bytes apart.
static int phases_of(const Operand& o) { return 16 / gcd(o.ld * o.esize, 16); }

// The phase maps of `o` cut into `phases` phases (phases_of(o), or more: any multiple works),
// boxes of `box_rows` rows and 128 bytes of k, 128-byte swizzle. False (with a line) when the
// driver refuses a map.
static bool encode(PhaseMaps& m, const Operand& o, int phases, int box_rows) {
  std::memset(&m, 0, sizeof(m));
  for (int s = 0; s < phases; ++s) {
    const long long first = (o.offset + s * o.ld) * o.esize;  // bytes to row s
    const long long down = first & ~15LL;
    const int delta = static_cast<int>((first - down) / o.esize);
    const long long q = (o.rows - s + phases - 1) / phases;
    cuuint64_t dims[2] = {static_cast<cuuint64_t>(o.k + delta), static_cast<cuuint64_t>(q)};
    cuuint64_t strides[1] = {static_cast<cuuint64_t>(phases * o.ld * o.esize)};
    cuuint32_t box[2] = {static_cast<cuuint32_t>(128 / o.esize), static_cast<cuuint32_t>(box_rows)};
    cuuint32_t es[2] = {1, 1};
    CUresult r = cuTensorMapEncodeTiled(
        reinterpret_cast<CUtensorMap*>(&m.map[s]),
        o.esize == 2 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2,
        o.alloc + down, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
        CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
      std::printf("encode refused: %d (phase %d, ld %lld, offset %lld, k extent %lld)\n",
                  static_cast<int>(r), s, o.ld, o.offset, o.k + delta);
      return false;
    }
    m.delta[s] = delta;
  }
  return true;
}

// Distinct bits for every element (no float is interpreted: TMA copies bits).
static unsigned elem_bits(long long r, long long c, int esize) {
  unsigned x = static_cast<unsigned>(r * 2654435761LL + c * 40503LL + 12345);
  x ^= x >> 13;
  return esize == 2 ? (x & 0xffffu) | 1u : x | 1u;  // never 0, so a zero fill shows
}

static Operand make(long long rows, long long k, long long ld, long long offset, int esize) {
  Operand o{nullptr, rows, k, ld, offset, esize};
  const size_t bytes = static_cast<size_t>((offset + rows * ld) * esize + 256);
  std::vector<unsigned char> host(bytes, 0xAB);  // the gaps between rows: not zero
  for (long long r = 0; r < rows; ++r) {
    for (long long c = 0; c < k; ++c) {
      const unsigned v = elem_bits(r, c, esize);
      std::memcpy(&host[(offset + r * ld + c) * esize], &v, esize);
    }
  }
  CK(cudaMalloc(&o.alloc, bytes));
  CK(cudaMemcpy(o.alloc, host.data(), bytes, cudaMemcpyHostToDevice));
  return o;
}

// One tile's boxes at (k0, row0) through the phase maps, checked byte by byte: box s holds rows
// row0 + s + phases * j, j < box_rows, each 128 bytes of k from k0, 16-byte chunk c of box row
// j at chunk c ^ (j % 8) (the 128-byte swizzle; every box starts on 1024 bytes), zeros past k or
// the rows.
static bool check_copy(const char* name, const Operand& o, int tile_rows, long long k0,
                       long long row0) {
  const int phases = phases_of(o);
  const int box_rows = tile_rows / phases;
  PhaseMaps maps;
  if (!encode(maps, o, phases, box_rows)) {
    std::printf("copy %-34s: FAIL (no map)\n", name);
    return false;
  }
  const int bytes = tile_rows * 128;
  unsigned* out = nullptr;
  CK(cudaMalloc(&out, bytes));
  CK(cudaMemset(out, 0xCD, bytes));
  phase_copy<<<1, 128, bytes + 1024>>>(maps, phases, box_rows, static_cast<int>(k0),
                                       static_cast<int>(row0 / phases), out);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<unsigned char> got(bytes);
  CK(cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost));
  CK(cudaFree(out));
  const int per_row = 128 / o.esize;
  long long wrong = 0, first = -1;
  for (int s = 0; s < phases; ++s) {
    for (int j = 0; j < box_rows; ++j) {
      const long long r = row0 + s + static_cast<long long>(phases) * j;
      for (int e = 0; e < per_row; ++e) {
        const long long c = k0 + e;
        const unsigned want = (r < o.rows && c < o.k) ? elem_bits(r, c, o.esize) : 0u;
        const int chunk = (e * o.esize) / 16, within = (e * o.esize) % 16;
        const size_t at = static_cast<size_t>(s * box_rows + j) * 128 +
                          static_cast<size_t>(((chunk ^ (j % 8)) * 16) + within);
        unsigned have = 0;
        std::memcpy(&have, &got[at], o.esize);
        if (have != want) {
          if (first < 0) first = static_cast<long long>(at);
          ++wrong;
        }
      }
    }
  }
  std::printf("copy %-34s ld %5lld offset %lld phases %d k0 %4lld row0 %4lld: %s", name, o.ld,
              o.offset, phases, k0, row0, wrong ? "FAIL" : "PASS");
  if (wrong) std::printf(" (%lld wrong elements, first at byte %lld)", wrong, first);
  std::printf("\n");
  return wrong == 0;
}

static float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  CK(cudaFuncSetAttribute(phase_copy, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
  CK(cudaFuncSetAttribute(phase_ingest, cudaFuncAttributeMaxDynamicSharedMemorySize, 225 * 1024));
  // (1) Copies. bf16: odd ld (8 phases), ld = 2 mod 4 (4 phases: 4098), ld = 4 mod 8 (2: 4100),
  // an aligned ld at an odd element offset (1 phase, every row shifted); k's tail inside the
  // last box (k = 200: the box at 192 holds 8 elements and 56 zeros); rows past the end.
  // fp32 (tf32's operands): 32 words a box row, odd ld (4 phases).
  int fails = 0;
  {
    Operand o = make(300, 200, 4095, 0, 2);
    fails += !check_copy("bf16 odd ld", o, 128, 0, 0);
    fails += !check_copy("bf16 odd ld, k tail", o, 128, 192, 128);
    fails += !check_copy("bf16 odd ld, rows past the end", o, 128, 64, 256);
    CK(cudaFree(o.alloc));
  }
  {
    Operand o = make(256, 200, 4095, 3, 2);
    fails += !check_copy("bf16 odd ld, offset 3", o, 256, 128, 0);
    CK(cudaFree(o.alloc));
  }
  {
    Operand o = make(256, 256, 4098, 0, 2);
    fails += !check_copy("bf16 ld 2 mod 4", o, 128, 64, 128);
    CK(cudaFree(o.alloc));
  }
  {
    Operand o = make(256, 256, 4100, 0, 2);
    fails += !check_copy("bf16 ld 4 mod 8", o, 128, 128, 0);
    CK(cudaFree(o.alloc));
  }
  {
    Operand o = make(256, 200, 4096, 1, 2);
    fails += !check_copy("bf16 aligned ld, offset 1", o, 128, 192, 0);
    CK(cudaFree(o.alloc));
  }
  {
    // k = ld at an offset: the map's k extent (k + delta) passes its row stride. Does the
    // driver take a map whose rows overlap? If not, such operands need two phases.
    Operand o = make(256, 4096, 4096, 1, 2);
    fails += !check_copy("bf16 k = ld, offset 1 (rows overlap)", o, 128, 4032, 128);
    CK(cudaFree(o.alloc));
  }
  {
    Operand o = make(256, 100, 1023, 0, 4);
    fails += !check_copy("fp32 odd ld", o, 128, 0, 0);
    fails += !check_copy("fp32 odd ld, k tail", o, 128, 96, 128);
    CK(cudaFree(o.alloc));
  }
  std::printf("copy checks: %d failed\n", fails);

  // (2) Ingest: two 1024-row operands of k 4032 (each ~8 MiB: both stay in L2; k short of 4096
  // so that no case's map has overlapping rows), 132 CTAs.
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  auto run = [&](int bm, int bn, int stages, long long ld, long long offset, int phases,
                 int issuers) {
    const int grid = 132;
    Operand a = make(1024, 4032, ld, offset, 2);
    Operand b = make(1024, 4032, ld, offset, 2);
    PhaseMaps ma, mb;
    if (!encode(ma, a, phases, bm / phases) || !encode(mb, b, phases, bn / phases)) std::exit(1);
    const int stage_bytes = (bm + bn) * 128;
    const int iters = static_cast<int>(3e9 / (static_cast<double>(grid) * stage_bytes));
    std::vector<float> ts;
    for (int it = 0; it < 8; ++it) {
      CK(cudaEventRecord(e0));
      phase_ingest<<<grid, 64, stages * stage_bytes + 1024>>>(ma, mb, bm, bn, phases, issuers,
                                                             stages, iters, 1024 / bm, 1024 / bn,
                                                             4032 / 64);
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      if (it >= 2) ts.push_back(ms * 1000.f);
    }
    CK(cudaGetLastError());
    std::vector<long long> cyc(grid);
    CK(cudaMemcpyFromSymbol(cyc.data(), g_phase_cycles, grid * sizeof(long long)));
    std::sort(cyc.begin(), cyc.end());
    const float us = median(ts);
    const double delivered = static_cast<double>(grid) * iters * stage_bytes;
    std::printf("ingest %3dx%-3d ld %4lld offset %lld phases %d issuers %d stages %d  %8.1f us  "
                "%5.2f TB/s  %5.0f cycles/stage\n",
                bm, bn, ld, offset, phases, issuers, stages, us, delivered / (us * 1e6),
                static_cast<double>(cyc[grid / 2]) / iters);
    CK(cudaFree(a.alloc));
    CK(cudaFree(b.alloc));
  };
  for (int t = 0; t < 2; ++t) {
    const int bn = t == 0 ? 256 : 128, stages = t == 0 ? 4 : 6;
    run(128, bn, stages, 4096, 0, 1, 1);  // the kernel's stage (control)
    run(128, bn, stages, 4104, 0, 1, 1);  // rows 16 bytes into a sector (49b: 1.51x / 1.26x)
    run(128, bn, stages, 4096, 1, 1, 1);  // a base 2 bytes off: every row unaligned, one box
    run(128, bn, stages, 4096, 0, 8, 1);  // eight boxes an operand, aligned starts
    run(128, bn, stages, 4096, 0, 8, 8);  //   ... issued by eight lanes
    run(128, bn, stages, 4100, 0, 2, 1);  // ld 4 mod 8: two phases
    run(128, bn, stages, 4098, 0, 4, 1);  // ld 2 mod 4: four phases
    run(128, bn, stages, 4095, 0, 8, 1);  // odd ld: eight phases, unaligned starts
    run(128, bn, stages, 4095, 0, 8, 8);  //   ... issued by eight lanes
  }
  return fails ? 1 : 0;
}
