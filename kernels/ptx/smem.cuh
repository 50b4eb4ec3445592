// Shared-memory addresses as the 32-bit values PTX's .shared instructions take.
#pragma once

// The .shared window offset of a generic pointer into this CTA's shared memory. TMA,
// mbarrier and wgmma descriptors all address shared memory this way.
__device__ __forceinline__ unsigned smem_addr(const void* ptr) {
  unsigned long long addr;
  asm("cvta.to.shared.u64 %0, %1;" : "=l"(addr) : "l"(ptr));
  return static_cast<unsigned>(addr);
}

// One 32-bit word from shared memory at byte address `addr` (a register fragment gathered
// element by element, e.g. wgmma's A operand from a tile TMA wrote in another layout).
__device__ __forceinline__ unsigned ld_shared_u32(unsigned addr) {
  unsigned v;
  asm volatile("ld.shared.b32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
  return v;
}
