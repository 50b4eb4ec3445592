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

// The tile counts and divisors come from the host (Sm90Params::set_tiles): no division on the
// path from the kernel's entry to its first load.
struct TileScheduler {
  const Sm90Params& p;

  __device__ __forceinline__ TileCoord coord(int t) const {
    // Unbatched launches skip the division.
    const int batch = t < p.tiles_per_batch ? 0 : p.div_tiles_per_batch.div(t);
    const int r = t - batch * p.tiles_per_batch;
    const int group = p.div_group.div(r);
    const int first_m = group * p.group_m;
    // The last group may have fewer tile rows.
    const bool last = p.tiles_m - first_m < p.group_m;
    const int rows = last ? p.tiles_m - first_m : p.group_m;
    const int local = r - group * p.group_m * p.tiles_n;
    const int n_tile = last ? p.div_last_rows.div(local) : p.div_group_m.div(local);
    return TileCoord{first_m + local - n_tile * rows, n_tile, batch};
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
//     partials it needs come first or alone in theirs, after no wait. An owner waits only on
//     lower-numbered CTAs, which publish their partial before any wait of their own, so no
//     waits form a cycle; that a CTA waited on has started rests on the block scheduler
//     dispatching lower blockIdx no later than higher ones (CUDA does not promise it, every
//     GPU does it). Not on all CTAs being resident: two solo CTAs an SM, an SM share or other
//     kernels on the GPU may keep some waiting for an SM.
//   - Data-parallel phase: tiles sk_tiles .. num_tiles - 1, whole, CTA b taking every gridDim-th
//     one from sk_tiles + b.
// sk_tiles = 0 is the plain persistent data-parallel schedule; sk_tiles = num_tiles with a
// grid smaller than the tile count's iterations is split-K.
// 32-bit counters keep the consumers' registers for the accumulators: the planner only
// launches the kernel with fewer than 2^31 tiles and Stream-K iterations.
struct WorkSchedule {
  int num_tiles;
  int k_iters;
  FastDiv div_k;  // by k_iters
  int pos;        // next Stream-K iteration of this CTA
  int sk_end;     // end of this CTA's Stream-K range
  int tail;       // first iteration of the deferred tail unit, or -1
  int dp_next;    // next data-parallel tile
  int stride;     // gridDim.x

  WorkSchedule() = default;
  // The Stream-K phase: sk_tiles tiles shared by CTAs 0 .. sk_ctas - 1, sk_base iterations
  // each and one more for the first sk_rem (all 0 without one).
  __device__ __forceinline__ WorkSchedule(const Sm90Params& p, int sk_tiles, int sk_base,
                                          int sk_rem, int sk_ctas, int cta, int grid)
      : num_tiles(p.num_tiles), k_iters(p.k_iters), div_k(p.div_k_iters), stride(grid) {
    pos = cta < sk_ctas ? range_begin(sk_base, sk_rem, cta) : 0;
    sk_end = cta < sk_ctas ? range_begin(sk_base, sk_rem, cta + 1) : 0;
    tail = -1;
    // k_iters > 0: the host never launches k = 0 (Sm90Variant::check).
    if (pos != 0) {
      const int first_tile = div_k.div(pos);
      const int first_tile_end = (first_tile + 1) * k_iters;
      if (pos != first_tile * k_iters && sk_end >= first_tile_end) {
        tail = pos;
        pos = first_tile_end;
      }
    }
    dp_next = sk_tiles + cta;
  }

  // First Stream-K iteration of CTA c: the remainder goes one each to the first CTAs.
  __device__ __forceinline__ static int range_begin(int sk_base, int sk_rem, int c) {
    return c * sk_base + (c < sk_rem ? c : sk_rem);
  }

  __device__ __forceinline__ bool next(WorkUnit& u) {
    if (pos < sk_end) {
      const int tile = div_k.div(pos);
      const int tile_end = (tile + 1) * k_iters;
      const int end = tile_end < sk_end ? tile_end : sk_end;
      u.tile = tile;
      u.k_begin = pos - tile * k_iters;
      u.k_end = end - tile * k_iters;
      pos = end;
      return true;
    }
    if (tail >= 0) {
      u.tile = div_k.div(tail);
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
