// wgmma: warpgroup-wide asynchronous MMA (sm_90a), operands from shared memory through
// matrix descriptors, fp32 accumulators in registers.
//
// Discipline (PTX ISA "Asynchronous Warpgroup Level Matrix Multiply-Accumulate"):
// wgmma_fence() before the first wgmma of a batch whenever the accumulators were touched by
// other instructions; wgmma_commit_group() closes a batch; wgmma_wait_group<N>() returns when at
// most N batches are still in flight. Until then the accumulator registers and the shared memory
// being read belong to the tensor cores, so wgmma_fence_operand() pins each accumulator so the
// compiler cannot move its reads or writes across those points.
#pragma once

__device__ __forceinline__ void wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}

__device__ __forceinline__ void wgmma_commit_group() {
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}

template <int N>
__device__ __forceinline__ void wgmma_wait_group() {
  static_assert(N >= 0 && N <= 7, "wgmma.wait_group takes 0..7");
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

// Emits no instruction: tells the compiler the register is read and written here.
__device__ __forceinline__ void wgmma_fence_operand(float& r) {
  asm volatile("" : "+f"(r)::"memory");
}

// The operand lists of wgmma.mma_async are long and regular, so they are generated here by the
// preprocessor rather than written out: DG_WGMMA_OPS10(t) is "%t0,%t1,...,%t9," (t may be empty
// for 0..9) and DG_WGMMA_F8(d, i) binds d[i..i+7] as read-write fp32 operands.
#define DG_WGMMA_OP_(n) "%" #n ","
#define DG_WGMMA_OP(n) DG_WGMMA_OP_(n)
#define DG_WGMMA_OPS10(t)                                                                     \
  DG_WGMMA_OP(t##0) DG_WGMMA_OP(t##1) DG_WGMMA_OP(t##2) DG_WGMMA_OP(t##3) DG_WGMMA_OP(t##4) \
  DG_WGMMA_OP(t##5) DG_WGMMA_OP(t##6) DG_WGMMA_OP(t##7) DG_WGMMA_OP(t##8) DG_WGMMA_OP(t##9)
#define DG_WGMMA_F8(d, i)                                                                  \
  "+f"(d[i + 0]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]),           \
      "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])

// Accumulator lists {%0, ..., %(R-1)} for R = N/2 registers.
#define DG_WGMMA_ACC_8 "{%0,%1,%2,%3,%4,%5,%6,%7}"
#define DG_WGMMA_ACC_16 "{" DG_WGMMA_OPS10() DG_WGMMA_OP(10) DG_WGMMA_OP(11) DG_WGMMA_OP(12) DG_WGMMA_OP(13) DG_WGMMA_OP(14) "%15}"
#define DG_WGMMA_ACC_32 "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OP(30) "%31}"
#define DG_WGMMA_ACC_64                                                                    \
  "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OPS10(3) DG_WGMMA_OPS10(4) \
      DG_WGMMA_OPS10(5) DG_WGMMA_OP(60) DG_WGMMA_OP(61) DG_WGMMA_OP(62) "%63}"
#define DG_WGMMA_ACC_128                                                                     \
  "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OPS10(3) DG_WGMMA_OPS10(4)  \
      DG_WGMMA_OPS10(5) DG_WGMMA_OPS10(6) DG_WGMMA_OPS10(7) DG_WGMMA_OPS10(8) DG_WGMMA_OPS10(9) \
          DG_WGMMA_OPS10(10) DG_WGMMA_OPS10(11) DG_WGMMA_OP(120) DG_WGMMA_OP(121)             \
              DG_WGMMA_OP(122) DG_WGMMA_OP(123) DG_WGMMA_OP(124) DG_WGMMA_OP(125)             \
                  DG_WGMMA_OP(126) "%127}"
#define DG_WGMMA_ACC_96                                                                      \
  "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OPS10(3) DG_WGMMA_OPS10(4)  \
      DG_WGMMA_OPS10(5) DG_WGMMA_OPS10(6) DG_WGMMA_OPS10(7) DG_WGMMA_OPS10(8) DG_WGMMA_OP(90)   \
          DG_WGMMA_OP(91) DG_WGMMA_OP(92) DG_WGMMA_OP(93) DG_WGMMA_OP(94) "%95}"
#define DG_WGMMA_BIND_8(d) DG_WGMMA_F8(d, 0)
#define DG_WGMMA_BIND_16(d) DG_WGMMA_F8(d, 0), DG_WGMMA_F8(d, 8)
#define DG_WGMMA_BIND_32(d) DG_WGMMA_F8(d, 0), DG_WGMMA_F8(d, 8), DG_WGMMA_F8(d, 16), DG_WGMMA_F8(d, 24)
#define DG_WGMMA_BIND_64(d) \
  DG_WGMMA_BIND_32(d), DG_WGMMA_F8(d, 32), DG_WGMMA_F8(d, 40), DG_WGMMA_F8(d, 48), DG_WGMMA_F8(d, 56)
#define DG_WGMMA_BIND_96(d) \
  DG_WGMMA_BIND_64(d), DG_WGMMA_F8(d, 64), DG_WGMMA_F8(d, 72), DG_WGMMA_F8(d, 80), DG_WGMMA_F8(d, 88)
#define DG_WGMMA_BIND_128(d)                                                                \
  DG_WGMMA_BIND_64(d), DG_WGMMA_F8(d, 64), DG_WGMMA_F8(d, 72), DG_WGMMA_F8(d, 80),          \
      DG_WGMMA_F8(d, 88), DG_WGMMA_F8(d, 96), DG_WGMMA_F8(d, 104), DG_WGMMA_F8(d, 112),      \
      DG_WGMMA_F8(d, 120)
// The widths between the powers of two (tiles that fill the SMs' waves along n, K-major B
// only), one line each.
#define DG_WGMMA_ACC_48 "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OPS10(3) DG_WGMMA_OP(40) DG_WGMMA_OP(41) DG_WGMMA_OP(42) DG_WGMMA_OP(43) DG_WGMMA_OP(44) DG_WGMMA_OP(45) DG_WGMMA_OP(46) "%47}"
#define DG_WGMMA_ACC_56 "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OPS10(3) DG_WGMMA_OPS10(4) DG_WGMMA_OP(50) DG_WGMMA_OP(51) DG_WGMMA_OP(52) DG_WGMMA_OP(53) DG_WGMMA_OP(54) "%55}"
#define DG_WGMMA_ACC_72 "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OPS10(3) DG_WGMMA_OPS10(4) DG_WGMMA_OPS10(5) DG_WGMMA_OPS10(6) DG_WGMMA_OP(70) "%71}"
#define DG_WGMMA_ACC_80 "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OPS10(3) DG_WGMMA_OPS10(4) DG_WGMMA_OPS10(5) DG_WGMMA_OPS10(6) DG_WGMMA_OP(70) DG_WGMMA_OP(71) DG_WGMMA_OP(72) DG_WGMMA_OP(73) DG_WGMMA_OP(74) DG_WGMMA_OP(75) DG_WGMMA_OP(76) DG_WGMMA_OP(77) DG_WGMMA_OP(78) "%79}"
#define DG_WGMMA_ACC_88 "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OPS10(3) DG_WGMMA_OPS10(4) DG_WGMMA_OPS10(5) DG_WGMMA_OPS10(6) DG_WGMMA_OPS10(7) DG_WGMMA_OP(80) DG_WGMMA_OP(81) DG_WGMMA_OP(82) DG_WGMMA_OP(83) DG_WGMMA_OP(84) DG_WGMMA_OP(85) DG_WGMMA_OP(86) "%87}"
#define DG_WGMMA_ACC_104 "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OPS10(3) DG_WGMMA_OPS10(4) DG_WGMMA_OPS10(5) DG_WGMMA_OPS10(6) DG_WGMMA_OPS10(7) DG_WGMMA_OPS10(8) DG_WGMMA_OPS10(9) DG_WGMMA_OP(100) DG_WGMMA_OP(101) DG_WGMMA_OP(102) "%103}"
#define DG_WGMMA_ACC_112 "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OPS10(3) DG_WGMMA_OPS10(4) DG_WGMMA_OPS10(5) DG_WGMMA_OPS10(6) DG_WGMMA_OPS10(7) DG_WGMMA_OPS10(8) DG_WGMMA_OPS10(9) DG_WGMMA_OPS10(10) DG_WGMMA_OP(110) "%111}"
#define DG_WGMMA_ACC_120 "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OPS10(3) DG_WGMMA_OPS10(4) DG_WGMMA_OPS10(5) DG_WGMMA_OPS10(6) DG_WGMMA_OPS10(7) DG_WGMMA_OPS10(8) DG_WGMMA_OPS10(9) DG_WGMMA_OPS10(10) DG_WGMMA_OP(110) DG_WGMMA_OP(111) DG_WGMMA_OP(112) DG_WGMMA_OP(113) DG_WGMMA_OP(114) DG_WGMMA_OP(115) DG_WGMMA_OP(116) DG_WGMMA_OP(117) DG_WGMMA_OP(118) "%119}"
#define DG_WGMMA_BIND_48(d) DG_WGMMA_F8(d, 0), DG_WGMMA_F8(d, 8), DG_WGMMA_F8(d, 16), DG_WGMMA_F8(d, 24), DG_WGMMA_F8(d, 32), DG_WGMMA_F8(d, 40)
#define DG_WGMMA_BIND_56(d) DG_WGMMA_F8(d, 0), DG_WGMMA_F8(d, 8), DG_WGMMA_F8(d, 16), DG_WGMMA_F8(d, 24), DG_WGMMA_F8(d, 32), DG_WGMMA_F8(d, 40), DG_WGMMA_F8(d, 48)
#define DG_WGMMA_BIND_72(d) DG_WGMMA_F8(d, 0), DG_WGMMA_F8(d, 8), DG_WGMMA_F8(d, 16), DG_WGMMA_F8(d, 24), DG_WGMMA_F8(d, 32), DG_WGMMA_F8(d, 40), DG_WGMMA_F8(d, 48), DG_WGMMA_F8(d, 56), DG_WGMMA_F8(d, 64)
#define DG_WGMMA_BIND_80(d) DG_WGMMA_F8(d, 0), DG_WGMMA_F8(d, 8), DG_WGMMA_F8(d, 16), DG_WGMMA_F8(d, 24), DG_WGMMA_F8(d, 32), DG_WGMMA_F8(d, 40), DG_WGMMA_F8(d, 48), DG_WGMMA_F8(d, 56), DG_WGMMA_F8(d, 64), DG_WGMMA_F8(d, 72)
#define DG_WGMMA_BIND_88(d) DG_WGMMA_F8(d, 0), DG_WGMMA_F8(d, 8), DG_WGMMA_F8(d, 16), DG_WGMMA_F8(d, 24), DG_WGMMA_F8(d, 32), DG_WGMMA_F8(d, 40), DG_WGMMA_F8(d, 48), DG_WGMMA_F8(d, 56), DG_WGMMA_F8(d, 64), DG_WGMMA_F8(d, 72), DG_WGMMA_F8(d, 80)
#define DG_WGMMA_BIND_104(d) DG_WGMMA_F8(d, 0), DG_WGMMA_F8(d, 8), DG_WGMMA_F8(d, 16), DG_WGMMA_F8(d, 24), DG_WGMMA_F8(d, 32), DG_WGMMA_F8(d, 40), DG_WGMMA_F8(d, 48), DG_WGMMA_F8(d, 56), DG_WGMMA_F8(d, 64), DG_WGMMA_F8(d, 72), DG_WGMMA_F8(d, 80), DG_WGMMA_F8(d, 88), DG_WGMMA_F8(d, 96)
#define DG_WGMMA_BIND_112(d) DG_WGMMA_F8(d, 0), DG_WGMMA_F8(d, 8), DG_WGMMA_F8(d, 16), DG_WGMMA_F8(d, 24), DG_WGMMA_F8(d, 32), DG_WGMMA_F8(d, 40), DG_WGMMA_F8(d, 48), DG_WGMMA_F8(d, 56), DG_WGMMA_F8(d, 64), DG_WGMMA_F8(d, 72), DG_WGMMA_F8(d, 80), DG_WGMMA_F8(d, 88), DG_WGMMA_F8(d, 96), DG_WGMMA_F8(d, 104)
#define DG_WGMMA_BIND_120(d) DG_WGMMA_F8(d, 0), DG_WGMMA_F8(d, 8), DG_WGMMA_F8(d, 16), DG_WGMMA_F8(d, 24), DG_WGMMA_F8(d, 32), DG_WGMMA_F8(d, 40), DG_WGMMA_F8(d, 48), DG_WGMMA_F8(d, 56), DG_WGMMA_F8(d, 64), DG_WGMMA_F8(d, 72), DG_WGMMA_F8(d, 80), DG_WGMMA_F8(d, 88), DG_WGMMA_F8(d, 96), DG_WGMMA_F8(d, 104), DG_WGMMA_F8(d, 112)
// The widths 8 past a multiple of 16 (136 ... 248): R = N/2 is 4 past a multiple of 8.
#define DG_WGMMA_F4(d, i) "+f"(d[i + 0]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3])
#define DG_WGMMA_ACC_68 "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OPS10(3) DG_WGMMA_OPS10(4) DG_WGMMA_OPS10(5) DG_WGMMA_OP(60) DG_WGMMA_OP(61) DG_WGMMA_OP(62) DG_WGMMA_OP(63) DG_WGMMA_OP(64) DG_WGMMA_OP(65) DG_WGMMA_OP(66) "%67}"
#define DG_WGMMA_ACC_76 "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OPS10(3) DG_WGMMA_OPS10(4) DG_WGMMA_OPS10(5) DG_WGMMA_OPS10(6) DG_WGMMA_OP(70) DG_WGMMA_OP(71) DG_WGMMA_OP(72) DG_WGMMA_OP(73) DG_WGMMA_OP(74) "%75}"
#define DG_WGMMA_ACC_84 "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OPS10(3) DG_WGMMA_OPS10(4) DG_WGMMA_OPS10(5) DG_WGMMA_OPS10(6) DG_WGMMA_OPS10(7) DG_WGMMA_OP(80) DG_WGMMA_OP(81) DG_WGMMA_OP(82) "%83}"
#define DG_WGMMA_ACC_92 "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OPS10(3) DG_WGMMA_OPS10(4) DG_WGMMA_OPS10(5) DG_WGMMA_OPS10(6) DG_WGMMA_OPS10(7) DG_WGMMA_OPS10(8) DG_WGMMA_OP(90) "%91}"
#define DG_WGMMA_ACC_100 "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OPS10(3) DG_WGMMA_OPS10(4) DG_WGMMA_OPS10(5) DG_WGMMA_OPS10(6) DG_WGMMA_OPS10(7) DG_WGMMA_OPS10(8) DG_WGMMA_OP(90) DG_WGMMA_OP(91) DG_WGMMA_OP(92) DG_WGMMA_OP(93) DG_WGMMA_OP(94) DG_WGMMA_OP(95) DG_WGMMA_OP(96) DG_WGMMA_OP(97) DG_WGMMA_OP(98) "%99}"
#define DG_WGMMA_ACC_108 "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OPS10(3) DG_WGMMA_OPS10(4) DG_WGMMA_OPS10(5) DG_WGMMA_OPS10(6) DG_WGMMA_OPS10(7) DG_WGMMA_OPS10(8) DG_WGMMA_OPS10(9) DG_WGMMA_OP(100) DG_WGMMA_OP(101) DG_WGMMA_OP(102) DG_WGMMA_OP(103) DG_WGMMA_OP(104) DG_WGMMA_OP(105) DG_WGMMA_OP(106) "%107}"
#define DG_WGMMA_ACC_116 "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OPS10(3) DG_WGMMA_OPS10(4) DG_WGMMA_OPS10(5) DG_WGMMA_OPS10(6) DG_WGMMA_OPS10(7) DG_WGMMA_OPS10(8) DG_WGMMA_OPS10(9) DG_WGMMA_OPS10(10) DG_WGMMA_OP(110) DG_WGMMA_OP(111) DG_WGMMA_OP(112) DG_WGMMA_OP(113) DG_WGMMA_OP(114) "%115}"
#define DG_WGMMA_ACC_124 "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OPS10(3) DG_WGMMA_OPS10(4) DG_WGMMA_OPS10(5) DG_WGMMA_OPS10(6) DG_WGMMA_OPS10(7) DG_WGMMA_OPS10(8) DG_WGMMA_OPS10(9) DG_WGMMA_OPS10(10) DG_WGMMA_OPS10(11) DG_WGMMA_OP(120) DG_WGMMA_OP(121) DG_WGMMA_OP(122) "%123}"
#define DG_WGMMA_BIND_68(d) DG_WGMMA_F8(d, 0), DG_WGMMA_F8(d, 8), DG_WGMMA_F8(d, 16), DG_WGMMA_F8(d, 24), DG_WGMMA_F8(d, 32), DG_WGMMA_F8(d, 40), DG_WGMMA_F8(d, 48), DG_WGMMA_F8(d, 56), DG_WGMMA_F4(d, 64)
#define DG_WGMMA_BIND_76(d) DG_WGMMA_F8(d, 0), DG_WGMMA_F8(d, 8), DG_WGMMA_F8(d, 16), DG_WGMMA_F8(d, 24), DG_WGMMA_F8(d, 32), DG_WGMMA_F8(d, 40), DG_WGMMA_F8(d, 48), DG_WGMMA_F8(d, 56), DG_WGMMA_F8(d, 64), DG_WGMMA_F4(d, 72)
#define DG_WGMMA_BIND_84(d) DG_WGMMA_F8(d, 0), DG_WGMMA_F8(d, 8), DG_WGMMA_F8(d, 16), DG_WGMMA_F8(d, 24), DG_WGMMA_F8(d, 32), DG_WGMMA_F8(d, 40), DG_WGMMA_F8(d, 48), DG_WGMMA_F8(d, 56), DG_WGMMA_F8(d, 64), DG_WGMMA_F8(d, 72), DG_WGMMA_F4(d, 80)
#define DG_WGMMA_BIND_92(d) DG_WGMMA_F8(d, 0), DG_WGMMA_F8(d, 8), DG_WGMMA_F8(d, 16), DG_WGMMA_F8(d, 24), DG_WGMMA_F8(d, 32), DG_WGMMA_F8(d, 40), DG_WGMMA_F8(d, 48), DG_WGMMA_F8(d, 56), DG_WGMMA_F8(d, 64), DG_WGMMA_F8(d, 72), DG_WGMMA_F8(d, 80), DG_WGMMA_F4(d, 88)
#define DG_WGMMA_BIND_100(d) DG_WGMMA_F8(d, 0), DG_WGMMA_F8(d, 8), DG_WGMMA_F8(d, 16), DG_WGMMA_F8(d, 24), DG_WGMMA_F8(d, 32), DG_WGMMA_F8(d, 40), DG_WGMMA_F8(d, 48), DG_WGMMA_F8(d, 56), DG_WGMMA_F8(d, 64), DG_WGMMA_F8(d, 72), DG_WGMMA_F8(d, 80), DG_WGMMA_F8(d, 88), DG_WGMMA_F4(d, 96)
#define DG_WGMMA_BIND_108(d) DG_WGMMA_F8(d, 0), DG_WGMMA_F8(d, 8), DG_WGMMA_F8(d, 16), DG_WGMMA_F8(d, 24), DG_WGMMA_F8(d, 32), DG_WGMMA_F8(d, 40), DG_WGMMA_F8(d, 48), DG_WGMMA_F8(d, 56), DG_WGMMA_F8(d, 64), DG_WGMMA_F8(d, 72), DG_WGMMA_F8(d, 80), DG_WGMMA_F8(d, 88), DG_WGMMA_F8(d, 96), DG_WGMMA_F4(d, 104)
#define DG_WGMMA_BIND_116(d) DG_WGMMA_F8(d, 0), DG_WGMMA_F8(d, 8), DG_WGMMA_F8(d, 16), DG_WGMMA_F8(d, 24), DG_WGMMA_F8(d, 32), DG_WGMMA_F8(d, 40), DG_WGMMA_F8(d, 48), DG_WGMMA_F8(d, 56), DG_WGMMA_F8(d, 64), DG_WGMMA_F8(d, 72), DG_WGMMA_F8(d, 80), DG_WGMMA_F8(d, 88), DG_WGMMA_F8(d, 96), DG_WGMMA_F8(d, 104), DG_WGMMA_F4(d, 112)
#define DG_WGMMA_BIND_124(d) DG_WGMMA_F8(d, 0), DG_WGMMA_F8(d, 8), DG_WGMMA_F8(d, 16), DG_WGMMA_F8(d, 24), DG_WGMMA_F8(d, 32), DG_WGMMA_F8(d, 40), DG_WGMMA_F8(d, 48), DG_WGMMA_F8(d, 56), DG_WGMMA_F8(d, 64), DG_WGMMA_F8(d, 72), DG_WGMMA_F8(d, 80), DG_WGMMA_F8(d, 88), DG_WGMMA_F8(d, 96), DG_WGMMA_F8(d, 104), DG_WGMMA_F8(d, 112), DG_WGMMA_F4(d, 120)
// The tall tiles' narrow widths (72, 80: R = 36, 40).
#define DG_WGMMA_ACC_36 "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OP(30) DG_WGMMA_OP(31) DG_WGMMA_OP(32) DG_WGMMA_OP(33) DG_WGMMA_OP(34) "%35}"
#define DG_WGMMA_ACC_40 "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OP(30) DG_WGMMA_OP(31) DG_WGMMA_OP(32) DG_WGMMA_OP(33) DG_WGMMA_OP(34) DG_WGMMA_OP(35) DG_WGMMA_OP(36) DG_WGMMA_OP(37) DG_WGMMA_OP(38) "%39}"
#define DG_WGMMA_BIND_36(d) DG_WGMMA_F8(d, 0), DG_WGMMA_F8(d, 8), DG_WGMMA_F8(d, 16), DG_WGMMA_F8(d, 24), DG_WGMMA_F4(d, 32)
#define DG_WGMMA_BIND_40(d) DG_WGMMA_F8(d, 0), DG_WGMMA_F8(d, 8), DG_WGMMA_F8(d, 16), DG_WGMMA_F8(d, 24), DG_WGMMA_F8(d, 32)
// The column-split 192 x 176 tile's halves (88: R = 44).
#define DG_WGMMA_ACC_44 "{" DG_WGMMA_OPS10() DG_WGMMA_OPS10(1) DG_WGMMA_OPS10(2) DG_WGMMA_OPS10(3) DG_WGMMA_OP(40) DG_WGMMA_OP(41) DG_WGMMA_OP(42) "%43}"
#define DG_WGMMA_BIND_44(d) DG_WGMMA_F8(d, 0), DG_WGMMA_F8(d, 8), DG_WGMMA_F8(d, 16), DG_WGMMA_F8(d, 24), DG_WGMMA_F8(d, 32), DG_WGMMA_F4(d, 40)
#define DG_WGMMA_STR_(x) #x
#define DG_WGMMA_STR(x) DG_WGMMA_STR_(x)

// The input types of the wgmma forms below (the instruction's .atype = .btype).
enum WgmmaInput { kWgmmaF16, kWgmmaBf16, kWgmmaTf32 };

// D[64 x N] (+)= A[64 x K] * B[K x N]^T with A and B described by shared-memory descriptors;
// K = 16 for the 16-bit inputs, 8 for tf32 (32 bytes of k either way). `scale_d` = 0
// overwrites D (first k-step of a tile), 1 accumulates. kTransA/kTransB select the MN-major
// layouts (0: K-major). The three inputs after the R accumulators are numbered R (desc_a), R+1
// (desc_b), R+2 (scale_d), then R+3 and R+4 (transposes, 16-bit forms only).
template <int N, WgmmaInput kInput, int kTransA, int kTransB>
struct Wgmma;

#define DG_WGMMA_DEFINE(N, R, R0, R1, R2, R3, R4, TYPE, INPUT)                                   \
  template <int kTransA, int kTransB>                                                            \
  struct Wgmma<N, INPUT, kTransA, kTransB> {                                                     \
    static constexpr int kAccRegs = R;                                                           \
    static constexpr int kK = 16;                                                                \
    __device__ __forceinline__ static void mma(float (&d)[R], unsigned long long desc_a,         \
                                               unsigned long long desc_b, int scale_d) {         \
      asm volatile("{\n"                                                                         \
                   ".reg .pred p;\n"                                                             \
                   "setp.ne.b32 p, %" DG_WGMMA_STR(R2) ", 0;\n"                                  \
                   "wgmma.mma_async.sync.aligned.m64n" DG_WGMMA_STR(N) "k16.f32." TYPE "." TYPE  \
                   " " DG_WGMMA_ACC_##R ", %" DG_WGMMA_STR(R0) ", %" DG_WGMMA_STR(R1)            \
                   ", p, 1, 1, %" DG_WGMMA_STR(R3) ", %" DG_WGMMA_STR(R4) ";\n"                  \
                   "}\n"                                                                         \
                   : DG_WGMMA_BIND_##R(d)                                                        \
                   : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(kTransA), "n"(kTransB));        \
    }                                                                                            \
  };

// n16 and n32: the narrow tiles of small-n (and swapped small-m) problems.
DG_WGMMA_DEFINE(16, 8, 8, 9, 10, 11, 12, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(32, 16, 16, 17, 18, 19, 20, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(64, 32, 32, 33, 34, 35, 36, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(128, 64, 64, 65, 66, 67, 68, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(192, 96, 96, 97, 98, 99, 100, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(256, 128, 128, 129, 130, 131, 132, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(96, 48, 48, 49, 50, 51, 52, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(112, 56, 56, 57, 58, 59, 60, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(144, 72, 72, 73, 74, 75, 76, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(160, 80, 80, 81, 82, 83, 84, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(176, 88, 88, 89, 90, 91, 92, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(208, 104, 104, 105, 106, 107, 108, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(224, 112, 112, 113, 114, 115, 116, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(240, 120, 120, 121, 122, 123, 124, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(136, 68, 68, 69, 70, 71, 72, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(152, 76, 76, 77, 78, 79, 80, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(168, 84, 84, 85, 86, 87, 88, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(184, 92, 92, 93, 94, 95, 96, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(200, 100, 100, 101, 102, 103, 104, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(216, 108, 108, 109, 110, 111, 112, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(232, 116, 116, 117, 118, 119, 120, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(248, 124, 124, 125, 126, 127, 128, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(72, 36, 36, 37, 38, 39, 40, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(80, 40, 40, 41, 42, 43, 44, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(88, 44, 44, 45, 46, 47, 48, "bf16", kWgmmaBf16)
DG_WGMMA_DEFINE(16, 8, 8, 9, 10, 11, 12, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(32, 16, 16, 17, 18, 19, 20, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(64, 32, 32, 33, 34, 35, 36, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(128, 64, 64, 65, 66, 67, 68, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(192, 96, 96, 97, 98, 99, 100, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(256, 128, 128, 129, 130, 131, 132, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(96, 48, 48, 49, 50, 51, 52, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(112, 56, 56, 57, 58, 59, 60, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(144, 72, 72, 73, 74, 75, 76, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(160, 80, 80, 81, 82, 83, 84, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(176, 88, 88, 89, 90, 91, 92, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(208, 104, 104, 105, 106, 107, 108, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(224, 112, 112, 113, 114, 115, 116, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(240, 120, 120, 121, 122, 123, 124, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(136, 68, 68, 69, 70, 71, 72, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(152, 76, 76, 77, 78, 79, 80, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(168, 84, 84, 85, 86, 87, 88, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(184, 92, 92, 93, 94, 95, 96, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(200, 100, 100, 101, 102, 103, 104, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(216, 108, 108, 109, 110, 111, 112, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(232, 116, 116, 117, 118, 119, 120, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(248, 124, 124, 125, 126, 127, 128, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(72, 36, 36, 37, 38, 39, 40, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(80, 40, 40, 41, 42, 43, 44, "f16", kWgmmaF16)
DG_WGMMA_DEFINE(88, 44, 44, 45, 46, 47, 48, "f16", kWgmmaF16)

// tf32: m64nNk8 over 32-bit words in shared memory, read as tf32 (sign, exponent, 10 mantissa
// bits; the tensor core may simply drop the low 13 bits of an fp32, so callers that want
// round-to-nearest round before, e.g. in the TMA load). PTX ISA "wgmma.mma_async": the .tf32
// form is `d, a-desc, b-desc, scale-d, imm-scale-a, imm-scale-b` -- no imm-trans operands (the
// transpose exists only for .f16/.bf16) -- so both operands are K-major and only
// Wgmma<N, kWgmmaTf32, 0, 0> is defined.
#define DG_WGMMA_DEFINE_TF32(N, R, R0, R1, R2)                                                    \
  template <>                                                                                    \
  struct Wgmma<N, kWgmmaTf32, 0, 0> {                                                            \
    static constexpr int kAccRegs = R;                                                           \
    static constexpr int kK = 8;                                                                 \
    __device__ __forceinline__ static void mma(float (&d)[R], unsigned long long desc_a,         \
                                               unsigned long long desc_b, int scale_d) {         \
      asm volatile("{\n"                                                                         \
                   ".reg .pred p;\n"                                                             \
                   "setp.ne.b32 p, %" DG_WGMMA_STR(R2) ", 0;\n"                                  \
                   "wgmma.mma_async.sync.aligned.m64n" DG_WGMMA_STR(N) "k8.f32.tf32.tf32"        \
                   " " DG_WGMMA_ACC_##R ", %" DG_WGMMA_STR(R0) ", %" DG_WGMMA_STR(R1)            \
                   ", p, 1, 1;\n"                                                                \
                   "}\n"                                                                         \
                   : DG_WGMMA_BIND_##R(d)                                                        \
                   : "l"(desc_a), "l"(desc_b), "r"(scale_d));                                    \
    }                                                                                            \
  };

DG_WGMMA_DEFINE_TF32(16, 8, 8, 9, 10)
DG_WGMMA_DEFINE_TF32(32, 16, 16, 17, 18)
DG_WGMMA_DEFINE_TF32(64, 32, 32, 33, 34)
DG_WGMMA_DEFINE_TF32(128, 64, 64, 65, 66)
DG_WGMMA_DEFINE_TF32(192, 96, 96, 97, 98)
DG_WGMMA_DEFINE_TF32(256, 128, 128, 129, 130)
DG_WGMMA_DEFINE_TF32(96, 48, 48, 49, 50)
DG_WGMMA_DEFINE_TF32(112, 56, 56, 57, 58)
DG_WGMMA_DEFINE_TF32(144, 72, 72, 73, 74)
DG_WGMMA_DEFINE_TF32(160, 80, 80, 81, 82)
DG_WGMMA_DEFINE_TF32(176, 88, 88, 89, 90)
DG_WGMMA_DEFINE_TF32(208, 104, 104, 105, 106)
DG_WGMMA_DEFINE_TF32(224, 112, 112, 113, 114)
DG_WGMMA_DEFINE_TF32(240, 120, 120, 121, 122)
DG_WGMMA_DEFINE_TF32(136, 68, 68, 69, 70)
DG_WGMMA_DEFINE_TF32(152, 76, 76, 77, 78)
DG_WGMMA_DEFINE_TF32(168, 84, 84, 85, 86)
DG_WGMMA_DEFINE_TF32(184, 92, 92, 93, 94)
DG_WGMMA_DEFINE_TF32(200, 100, 100, 101, 102)
DG_WGMMA_DEFINE_TF32(216, 108, 108, 109, 110)
DG_WGMMA_DEFINE_TF32(232, 116, 116, 117, 118)
DG_WGMMA_DEFINE_TF32(248, 124, 124, 125, 126)

// tf32 with A from registers: `d, {a0, a1, a2, a3}, b-desc, scale-d, imm-scale-a, imm-scale-b`.
// B is still read K-major from shared memory; A comes as each thread's fragment of the 64 x 8
// tile (PTX ISA "wgmma .m64nNk8 register fragment layout for matrix A", .tf32: warp w of the
// warpgroup holds rows 16w..16w+15; lane l holds a0 = (16w + l/4, l%4), a1 = (16w + l/4 + 8,
// l%4), a2 = (16w + l/4, l%4 + 4), a3 = (16w + l/4 + 8, l%4 + 4)). This is how an MN-major A
// reaches the tf32 tensor cores, whose shared-memory form has no transpose. The A registers
// belong to the tensor cores until the batch completes (wgmma_wait_group).
template <int N>
struct WgmmaRsTf32;

#define DG_WGMMA_DEFINE_TF32_RS(N, R, A0, A1, A2, A3, RB, RS)                                    \
  template <>                                                                                    \
  struct WgmmaRsTf32<N> {                                                                        \
    static constexpr int kAccRegs = R;                                                           \
    static constexpr int kK = 8;                                                                 \
    __device__ __forceinline__ static void mma(float (&d)[R], const unsigned (&a)[4],            \
                                               unsigned long long desc_b, int scale_d) {         \
      asm volatile("{\n"                                                                         \
                   ".reg .pred p;\n"                                                             \
                   "setp.ne.b32 p, %" DG_WGMMA_STR(RS) ", 0;\n"                                  \
                   "wgmma.mma_async.sync.aligned.m64n" DG_WGMMA_STR(N) "k8.f32.tf32.tf32"        \
                   " " DG_WGMMA_ACC_##R ", {%" DG_WGMMA_STR(A0) ", %" DG_WGMMA_STR(A1)           \
                   ", %" DG_WGMMA_STR(A2) ", %" DG_WGMMA_STR(A3) "}, %" DG_WGMMA_STR(RB)         \
                   ", p, 1, 1;\n"                                                                \
                   "}\n"                                                                         \
                   : DG_WGMMA_BIND_##R(d)                                                        \
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));     \
    }                                                                                            \
  };

DG_WGMMA_DEFINE_TF32_RS(64, 32, 32, 33, 34, 35, 36, 37)
DG_WGMMA_DEFINE_TF32_RS(128, 64, 64, 65, 66, 67, 68, 69)
DG_WGMMA_DEFINE_TF32_RS(192, 96, 96, 97, 98, 99, 100, 101)
DG_WGMMA_DEFINE_TF32_RS(256, 128, 128, 129, 130, 131, 132, 133)
DG_WGMMA_DEFINE_TF32_RS(96, 48, 48, 49, 50, 51, 52, 53)
DG_WGMMA_DEFINE_TF32_RS(112, 56, 56, 57, 58, 59, 60, 61)
DG_WGMMA_DEFINE_TF32_RS(144, 72, 72, 73, 74, 75, 76, 77)
DG_WGMMA_DEFINE_TF32_RS(160, 80, 80, 81, 82, 83, 84, 85)
DG_WGMMA_DEFINE_TF32_RS(176, 88, 88, 89, 90, 91, 92, 93)
DG_WGMMA_DEFINE_TF32_RS(208, 104, 104, 105, 106, 107, 108, 109)
DG_WGMMA_DEFINE_TF32_RS(224, 112, 112, 113, 114, 115, 116, 117)
DG_WGMMA_DEFINE_TF32_RS(240, 120, 120, 121, 122, 123, 124, 125)
DG_WGMMA_DEFINE_TF32_RS(136, 68, 68, 69, 70, 71, 72, 73)
DG_WGMMA_DEFINE_TF32_RS(152, 76, 76, 77, 78, 79, 80, 81)
DG_WGMMA_DEFINE_TF32_RS(168, 84, 84, 85, 86, 87, 88, 89)
DG_WGMMA_DEFINE_TF32_RS(184, 92, 92, 93, 94, 95, 96, 97)
DG_WGMMA_DEFINE_TF32_RS(200, 100, 100, 101, 102, 103, 104, 105)
DG_WGMMA_DEFINE_TF32_RS(216, 108, 108, 109, 110, 111, 112, 113)
DG_WGMMA_DEFINE_TF32_RS(232, 116, 116, 117, 118, 119, 120, 121)
DG_WGMMA_DEFINE_TF32_RS(248, 124, 124, 125, 126, 127, 128, 129)
