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

// One 16-bit value from shared memory at byte address `addr` (2-byte aligned).
__device__ __forceinline__ unsigned short ld_shared_u16(unsigned addr) {
  unsigned short v;
  asm volatile("ld.shared.u16 %0, [%1];" : "=h"(v) : "r"(addr) : "memory");
  return v;
}

// Four 32-bit words to shared memory at byte address `addr` (16-byte aligned).
__device__ __forceinline__ void st_shared_v4(unsigned addr, unsigned a, unsigned b, unsigned c,
                                             unsigned d) {
  asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(a), "r"(b), "r"(c),
               "r"(d)
               : "memory");
}
