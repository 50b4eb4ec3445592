#!/usr/bin/env python3
"""Chains of GEMMs as a model's forward pass runs them, timed end to end in PyTorch: how much a
call costs inside a stream of kernels (programmatic dependent launch, DEEPGEMM_PDL), where the
bench's per-launch timing (L2 flushed before each) cannot see it.

  chain:  y = linear(y, W_i) for 8 distinct 4096 x 4096 bf16 weights (256 MB, over the L2), no
          kernel between the GEMMs;
  mlp:    4 blocks of linear 4096 -> 14336, GELU, linear 14336 -> 4096 (bf16, with biases):
          PyTorch's elementwise kernels between the GEMMs;
at M = 1, 16, 128 and 1024 rows. Prints one line a case: label, case, M, microseconds a forward
(median of 7 timings of 20 forwards each, CUDA events). An ordinary PyTorch program: run it plain
(cuBLAS) and under LD_PRELOAD=libdeepgemm_preload.so with DEEPGEMM_PDL=1 / 0 (scripts/gpu-session33c.sh).
"""
import statistics
import sys

import torch
import torch.nn.functional as F

label = sys.argv[1] if len(sys.argv) > 1 else "run"
torch.manual_seed(0)
dev = "cuda"
bf = torch.bfloat16
H, F_ = 4096, 14336
chain_w = [(torch.randn(H, H, device=dev) / H**0.5).to(bf) for _ in range(8)]
mlp = [
    (
        (torch.randn(F_, H, device=dev) / H**0.5).to(bf),
        (torch.randn(F_, device=dev) * 0.1).to(bf),
        (torch.randn(H, F_, device=dev) / F_**0.5).to(bf),
        (torch.randn(H, device=dev) * 0.1).to(bf),
    )
    for _ in range(4)
]


def chain(x):
    for w in chain_w:
        x = F.linear(x, w)
    return x


def mlp_fwd(x):
    for w1, b1, w2, b2 in mlp:
        x = F.linear(F.gelu(F.linear(x, w1, b1), approximate="tanh"), w2, b2)
    return x


def timed(fn, x, reps=20, rounds=7):
    for _ in range(3):
        fn(x)
    torch.cuda.synchronize()
    out = []
    for _ in range(rounds):
        s = torch.cuda.Event(enable_timing=True)
        e = torch.cuda.Event(enable_timing=True)
        s.record()
        for _ in range(reps):
            fn(x)
        e.record()
        e.synchronize()
        out.append(s.elapsed_time(e) * 1000.0 / reps)
    return statistics.median(out)


with torch.no_grad():
    for m in (1, 16, 128, 1024):
        x = torch.randn(m, H, device=dev).to(bf)
        for name, fn in (("chain", chain), ("mlp", mlp_fwd)):
            y = fn(x)
            assert torch.isfinite(y.float()).all(), f"{name} M={m}: not finite"
            print(f"{label} {name} {m} {timed(fn, x):.1f}", flush=True)
