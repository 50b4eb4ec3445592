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

struct TileScheduler {
  int num_m_tiles;
  int num_n_tiles;
  int group_m;
  long long tiles_per_batch;
  long long num_tiles;

  __device__ __forceinline__ TileScheduler(long long m, long long n, long long batch, int block_m,
                                           int block_n, int group)
      : num_m_tiles(static_cast<int>((m + block_m - 1) / block_m)),
        num_n_tiles(static_cast<int>((n + block_n - 1) / block_n)),
        group_m(group < 1 ? 1 : group) {
    tiles_per_batch = static_cast<long long>(num_m_tiles) * num_n_tiles;
    num_tiles = tiles_per_batch * batch;
  }

  __device__ __forceinline__ TileCoord coord(long long t) const {
    const long long batch = t / tiles_per_batch;
    const long long r = t - batch * tiles_per_batch;
    const long long group_size = static_cast<long long>(group_m) * num_n_tiles;
    const int group = static_cast<int>(r / group_size);
    const int first_m = group * group_m;
    // The last group may have fewer tile rows.
    const int rows = num_m_tiles - first_m < group_m ? num_m_tiles - first_m : group_m;
    const int local = static_cast<int>(r - group * group_size);
    return TileCoord{first_m + local % rows, local / rows, batch};
  }
};

}  // namespace dg_sm90
