// The shared-memory ring between the TMA producer and the wgmma consumers.
//
// Stage s has two mbarriers: full[s] completes when TMA has landed both tiles of the stage
// (one producer arrival plus the transaction bytes), empty[s] when every consumer warp has
// finished the wgmmas that read it. Producer and consumers walk the same sequence of
// (stage, phase) positions, so neither needs to tell the other where it is.
#pragma once

#include "ptx/mbarrier.cuh"

namespace dg_sm90 {

// Position in the ring: the stage, and the parity of the pass over the ring (it flips each
// time the stage index wraps, which is how an mbarrier tells consecutive phases apart).
template <int kNumStages>
struct PipelineState {
  int stage = 0;
  unsigned phase = 0;

  __device__ __forceinline__ void advance() {
    if (++stage == kNumStages) {
      stage = 0;
      phase ^= 1u;
    }
  }

  // Skips `n` positions: the stages of a unit another consumer warpgroup computes (ping-pong).
  __device__ __forceinline__ void advance_by(int n) {
    stage += n;
    const int wraps = stage / kNumStages;
    stage -= wraps * kNumStages;
    phase ^= static_cast<unsigned>(wraps) & 1u;
  }
};

template <int kNumStages>
struct Pipeline {
  unsigned full_base;   // .shared address of full[0]; barriers are 8 bytes apart
  unsigned empty_base;  // .shared address of empty[0]

  __device__ __forceinline__ unsigned full(int stage) const { return full_base + 8u * stage; }
  __device__ __forceinline__ unsigned empty(int stage) const { return empty_base + 8u * stage; }

  // TMA must not overwrite a stage until every consumer warp has released it. On the first
  // pass the wait is for the phase "before" phase 0, which counts as complete, so the ring
  // starts out empty without any pre-arrivals.
  __device__ __forceinline__ void producer_acquire(const PipelineState<kNumStages>& s) const {
    mbarrier_wait_parity(empty(s.stage), s.phase ^ 1u);
  }

  // The producer's single arrival on full[stage], announcing the bytes TMA will deliver.
  __device__ __forceinline__ void producer_expect(const PipelineState<kNumStages>& s,
                                                  unsigned bytes) const {
    mbarrier_arrive_expect_tx(full(s.stage), bytes);
  }

  __device__ __forceinline__ void consumer_wait(const PipelineState<kNumStages>& s) const {
    mbarrier_wait_parity(full(s.stage), s.phase);
  }

  // One arrival per consumer warp (empty[] is initialised with that count).
  __device__ __forceinline__ void consumer_release(int stage) const { mbarrier_arrive(empty(stage)); }
};

}  // namespace dg_sm90
