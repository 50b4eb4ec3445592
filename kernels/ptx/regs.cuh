// Register reallocation between warpgroups (sm_90a). Takes effect only when the kernel has a
// register cap at entry (__launch_bounds__(threads, 1)); ptxas warns C7508 otherwise. Every
// thread of the warpgroup must execute it; the count is a multiple of 8 in [24, 256].
#pragma once

template <int kRegs>
__device__ __forceinline__ void setmaxnreg_dec() {
  static_assert(kRegs % 8 == 0 && kRegs >= 24 && kRegs <= 256, "setmaxnreg count");
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(kRegs));
}

template <int kRegs>
__device__ __forceinline__ void setmaxnreg_inc() {
  static_assert(kRegs % 8 == 0 && kRegs >= 24 && kRegs <= 256, "setmaxnreg count");
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(kRegs));
}
