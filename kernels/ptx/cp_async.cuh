// Asynchronous 16-byte copies global -> shared (sm_80+), tracked per thread in commit groups.
// PTX ISA "cp.async", "cp.async.commit_group", "cp.async.wait_group". A copy's bytes are
// visible to the issuing thread once a wait_group covers its group; other threads need a
// barrier on top.
#pragma once

// Copies 16 bytes from `src` (16-byte aligned global address) to shared address `dst`, or
// writes 16 zero bytes when `!full` (src-size 0: nothing is read, `src` may be any valid
// pointer). .cg: cached in L2 only, for data each SM reads once.
__device__ __forceinline__ void cp_async_16_cg(unsigned dst, const void* src, bool full) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src),
               "r"(full ? 16 : 0)
               : "memory");
}

// As cp_async_16_cg, and a miss fetches the whole aligned 128 / 256 bytes around it into L2
// (.L2::128B / .L2::256B): DRAM then serves the neighbours' pieces in one request, as a TMA
// map's L2 promotion does.
__device__ __forceinline__ void cp_async_16_cg_l2_128(unsigned dst, const void* src, bool full) {
  asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;" ::"r"(dst), "l"(src),
               "r"(full ? 16 : 0)
               : "memory");
}
__device__ __forceinline__ void cp_async_16_cg_l2_256(unsigned dst, const void* src, bool full) {
  asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16, %2;" ::"r"(dst), "l"(src),
               "r"(full ? 16 : 0)
               : "memory");
}

// As cp_async_16_cg, also cached in L1 (.ca): data several warps of an SM read.
__device__ __forceinline__ void cp_async_16_ca(unsigned dst, const void* src, bool full) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src),
               "r"(full ? 16 : 0)
               : "memory");
}

// Closes the thread's current group of cp.async copies.
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }

// Waits until at most N of the thread's committed groups are still pending.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}

// 16 bytes from shared address `addr` (16-byte aligned) as four 32-bit words.
__device__ __forceinline__ void ld_shared_v4(unsigned addr, unsigned (&v)[4]) {
  asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3])
               : "r"(addr)
               : "memory");
}
