// What the probes in scripts/probes/ share: the toolkit headers they build with (nvcc on the
// GPU machine; the library itself includes none), deepgemm's PTX wrappers, a CUDA-runtime
// error check and a kernel-parameter tensor map.
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "ptx/mbarrier.cuh"
#include "ptx/smem.cuh"
#include "ptx/special.cuh"

// Exits with the call, file and line when a runtime call fails.
#define CK(x)                                                                               \
  do {                                                                                      \
    cudaError_t e = (x);                                                                    \
    if (e != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e)); \
      std::exit(1);                                                                         \
    }                                                                                       \
  } while (0)

// A tensor map passed by value as a __grid_constant__ parameter (64-byte aligned, as TMA needs).
struct Tmap {
  CUtensorMap m;
};
