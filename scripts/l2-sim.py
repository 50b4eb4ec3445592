#!/usr/bin/env python3
"""An LRU model of the L2 under the sm90 kernel's persistent schedule (session 61, CPU only): each
CTA reads one k-slice of its tile's A row-panel and B column-panel an iteration, all CTAs in
step, in the scheduler's order (kernels/sm90/scheduler.cuh: Stream-K ranges from k = 0 with
the first tile's tail deferred, then data-parallel tiles; linear tiles in groups of 16 tile
rows). It counts the slices that miss (DRAM bytes) and, with HBM at 4 TB/s and a 128 x 256
k-step at 0.66 us, how far the misses would stretch the steps. Used to test one idea before
building it: walking the deferred tails (or every unit after a CTA's first) from their end
towards k = 0, so that they read the slices the data-parallel CTAs read last. Predicted
worse: at 3200^2 x 8192 the tails reversed read 373 MB against 289 forward (221 all
data-parallel), every unit after the first 545; forward Stream-K's extra reads stretch no
step at 4 TB/s, so this model does not explain the Stream-K phase's measured 35-46% slower
iterations there (README, "Stream-K's fixup"). Not built.
    python3 scripts/l2-sim.py"""
from collections import OrderedDict
def coord(t, tiles_m, tiles_n, group_m=16):
    group = t // (group_m * tiles_n)
    first_m = group * group_m
    rows = min(group_m, tiles_m - first_m)
    local = t - group * group_m * tiles_n
    n = local // rows
    return first_m + local - n * rows, n
def units(sk_tiles, sk_ctas, grid, num_tiles, k_iters, c, mode):
    out = []
    if c < sk_ctas:
        total = sk_tiles * k_iters
        base, rem = divmod(total, sk_ctas)
        rb = lambda c: c * base + min(c, rem)
        pos, end = rb(c), rb(c + 1)
        tail = None; first = True
        while pos < end:
            t = pos // k_iters; stop = min((t + 1) * k_iters, end)
            u = (t, pos - t * k_iters, stop - t * k_iters)
            if u[1] > 0 and u[2] == k_iters: tail = u
            else: out.append(u)
            pos = stop
        if tail: out.append(tail)
    t = sk_tiles + c
    while t < num_tiles:
        out.append((t, 0, k_iters)); t += grid
    # expand to per-iteration (tile, k) in processing order
    seq = []
    for i, (t, a, b) in enumerate(out):
        ks = list(range(a, b))
        is_sk = t < sk_tiles
        if is_sk and mode == "rev-tail" and a > 0: ks.reverse()
        if is_sk and mode == "rev-later" and i > 0: ks.reverse()
        seq += [(t, k) for k in ks]
    return seq
def sim(M, N, K, bm, bn, bk, sk_tiles, sk_ctas, grid, mode, cap_mb, esize=2, dram_per_step_mb=None):
    tm, tn = -(-M // bm), -(-N // bn); num = tm * tn; ki = -(-K // bk)
    seqs = [units(sk_tiles, sk_ctas, grid, num, ki, c, mode) for c in range(grid)]
    asz, bsz = bm * bk * esize, bn * bk * esize
    cap = cap_mb * 1e6; used = 0; lru = OrderedDict(); miss = 0
    steps = max(len(s) for s in seqs); est = 0.0; sk_miss = 0
    budget = dram_per_step_mb * 1e6 if dram_per_step_mb else None
    for st in range(steps):
        mstep = 0
        for s in seqs:
            if st >= len(s): continue
            t, k = s[st]; m, n = coord(t, tm, tn)
            for key, sz in ((("A", m, k), asz), (("B", n, k), bsz)):
                if key in lru: lru.move_to_end(key)
                else:
                    lru[key] = sz; used += sz; mstep += sz
                    while used > cap:
                        _, z = lru.popitem(last=False); used -= z
        miss += mstep
        est += max(1.0, mstep / budget) if budget else 1
    return miss / 1e6, steps, est
if __name__ == "__main__":
    M, N, K = 3200, 3200, 8192
    for (bm, bn) in [(128, 256), (128, 128)]:
        tm, tn = -(-M // bm), -(-N // bn); num = tm * tn
        r = num % 132
        sk = r + 132 if num >= 264 else num
        print(f"{M}x{N}x{K} {bm}x{bn}: {num} tiles, hybrid sk{sk}x132")
        step_us = 0.66 * bn / 256
        bud = 4.0e12 * step_us * 1e-6 / 1e6
        for cap in (50, 35):
            for mode, skt in (("dp", 0), ("fwd", sk), ("rev-tail", sk), ("rev-later", sk)):
                mb, steps, est = sim(M, N, K, bm, bn, 64, skt, 132 if skt else 0, 132, mode, cap, dram_per_step_mb=bud)
                print(f"  L2 {cap} MB {mode:9s} DRAM {mb:7.0f} MB  steps {steps}  est {est:7.1f} steps (x{est/steps:.2f})")
