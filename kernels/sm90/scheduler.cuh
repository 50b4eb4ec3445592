// Static persistent tile scheduler: CTA b takes linear tiles b, b + gridDim.x, b + 2*gridDim.x...
//
// Linear tiles are numbered batch by batch; inside a batch they walk down `group_m` tile rows
// (along m) before moving one tile column (along n), so the ~#SM tiles in flight at any time
// share a few A row-panels and B column-panels in L2 instead of streaming all of A for every
// column of B. src/plan/sm90.rs (`tile_coords`) mirrors this mapping and tests it covers every
// tile exactly once.
#pragma once

namespace dg_sm90 {

struct TileCoord {
  int m_tile;
  int n_tile;
  long long batch;
};

// 32-bit tile arithmetic (the host launches fewer than 2^31 tiles, Sm90Variant::check): the
// 64-bit divisions it replaced were calls of a ~100-instruction routine, on the path from the
// kernel's entry to its first TMA load.
struct TileScheduler {
  int num_m_tiles;
  int num_n_tiles;
  int group_m;
  int tiles_per_batch;
  int num_tiles;

  __device__ __forceinline__ TileScheduler(long long m, long long n, long long batch, int block_m,
                                           int block_n, int group)
      : num_m_tiles(static_cast<int>((m + block_m - 1) / block_m)),
        num_n_tiles(static_cast<int>((n + block_n - 1) / block_n)),
        group_m(group < 1 ? 1 : group) {
    tiles_per_batch = num_m_tiles * num_n_tiles;
    num_tiles = tiles_per_batch * static_cast<int>(batch);
  }

  __device__ __forceinline__ TileCoord coord(int t) const {
    // Unbatched launches skip the division.
    const int batch = t < tiles_per_batch ? 0 : t / tiles_per_batch;
    const int r = t - batch * tiles_per_batch;
    const int group_size = group_m * num_n_tiles;
    const int group = r / group_size;
    const int first_m = group * group_m;
    // The last group may have fewer tile rows.
    const int rows = num_m_tiles - first_m < group_m ? num_m_tiles - first_m : group_m;
    const int local = r - group * group_size;
    return TileCoord{first_m + local % rows, local / rows, batch};
  }
};

}  // namespace dg_sm90

namespace dg_sm90 {

// One piece of work of a CTA: k-iterations [k_begin, k_end) of linear tile `tile`.
struct WorkUnit {
  int tile;
  int k_begin;
  int k_end;
};

// The decomposition of a launch, the same in the producer and the consumers (src/plan/streamk.rs
// mirrors it and unit-tests it):
//   - Stream-K phase: the first `sk_tiles` linear tiles, sk_tiles * k_iters MAC-loop iterations
//     in all, are split evenly among CTAs 0 .. sk_ctas - 1 as contiguous ranges. A range may
//     start or end inside a tile. A range that starts inside a tile begins with that tile's
//     tail; the CTA defers it to the end of its range, so every range is walked from k = 0 and
//     all CTAs move through k in step: at any time they read one or two k-slices of A and B,
//     which stay in L2 (walked in range order, CTA c would start at c * range mod k_iters, and
//     the whole of A and B would be in flight at once: 3.4x the HBM reads at 1664^2 x 8192).
//   - A unit that ends inside its tile is a partial: the CTA stores it in the workspace (at
//     most one per CTA: its range's last tile) and raises its flag. The unit that reaches the
//     tile's end finishes it: it adds the partials of the CTAs before it, in CTA order
//     (deterministic), then runs the epilogue. It comes last in its CTA's range, and the
//     partials it needs come first or alone in theirs, after no wait; all CTAs are resident
//     (one per SM), so the wait cannot deadlock.
//   - Data-parallel phase: tiles sk_tiles .. num_tiles - 1, whole, CTA b taking every gridDim-th
//     one from sk_tiles + b.
// sk_tiles = 0 is the plain persistent data-parallel schedule; sk_tiles = num_tiles with a
// grid smaller than the tile count's iterations is split-K.
// 32-bit counters keep the consumers' registers for the accumulators: the planner only
// launches the kernel with fewer than 2^31 tiles and Stream-K iterations.
struct WorkSchedule {
  int num_tiles;
  int k_iters;
  int pos;      // next Stream-K iteration of this CTA
  int sk_end;   // end of this CTA's Stream-K range
  int tail;     // first iteration of the deferred tail unit, or -1
  int dp_next;  // next data-parallel tile
  int stride;   // gridDim.x

  WorkSchedule() = default;
  __device__ __forceinline__ WorkSchedule(long long tiles, long long sk_tiles, int iters,
                                          int sk_ctas, int cta, int grid)
      : num_tiles(static_cast<int>(tiles)), k_iters(iters), stride(grid) {
    pos = cta < sk_ctas ? range_begin(sk_tiles, iters, sk_ctas, cta) : 0;
    sk_end = cta < sk_ctas ? range_begin(sk_tiles, iters, sk_ctas, cta + 1) : 0;
    tail = -1;
    // iters > 0: the host never launches k = 0 (Sm90Variant::check).
    const int first_tile_end = (pos / iters + 1) * iters;
    if (pos % iters != 0 && sk_end >= first_tile_end) {
      tail = pos;
      pos = first_tile_end;
    }
    dp_next = static_cast<int>(sk_tiles) + cta;
  }

  // First Stream-K iteration of CTA c: the remainder goes one each to the first CTAs.
  __device__ __forceinline__ static int range_begin(long long sk_tiles, int k_iters, int sk_ctas,
                                                    int c) {
    const int total = static_cast<int>(sk_tiles) * k_iters;
    const int base = total / sk_ctas;
    const int rem = total - base * sk_ctas;
    return c * base + (c < rem ? c : rem);
  }

  __device__ __forceinline__ bool next(WorkUnit& u) {
    if (pos < sk_end) {
      const int tile = pos / k_iters;
      const int tile_end = (tile + 1) * k_iters;
      const int end = tile_end < sk_end ? tile_end : sk_end;
      u.tile = tile;
      u.k_begin = pos - tile * k_iters;
      u.k_end = end - tile * k_iters;
      pos = end;
      return true;
    }
    if (tail >= 0) {
      u.tile = tail / k_iters;
      u.k_begin = tail - u.tile * k_iters;
      u.k_end = k_iters;
      tail = -1;
      return true;
    }
    if (dp_next < num_tiles) {
      u.tile = dp_next;
      u.k_begin = 0;
      u.k_end = k_iters;
      dp_next += stride;
      return true;
    }
    return false;
  }
};

}  // namespace dg_sm90
