#!/usr/bin/env python3
"""An ordinary PyTorch program (it knows nothing of deepgemm) whose GEMMs go through every
cuBLAS/cuBLASLt entry point PyTorch uses: bf16/fp16 matmul (cublasGemmEx), linear with bias
and _addmm_activation(use_gelu=True) (cublasLtMatmul with BIAS / GELU_BIAS epilogues), bmm
(cublasGemmStridedBatchedEx), fp32 matmul and bmm with TF32 allowed and not
(cublasSgemm_v2, cublasSgemmStridedBatched), fp32 linear with bias, and the forward pass of
a randomly initialised transformer block (attention + MLP) in bf16.

scripts/preload/run.sh runs it first with `--mode reference` and without LD_PRELOAD
(cuBLAS): every output and its timing go to --data. Then it runs `--mode compare` with
LD_PRELOAD=libdeepgemm_preload.so, which recomputes the same outputs from the same inputs
and compares them with the saved ones within each dtype's tolerance (relative Frobenius
error, float64), printing a table with both timings. int8 and fp8 GEMMs are forwarded to
cuBLAS by the preload and must match exactly. Exit status 1 when any output is out of
tolerance or not finite.

Inputs are made on the CPU from a fixed seed and copied to the GPU, so both runs see
bit-identical inputs without any GEMM involved in making them.
"""
import argparse
import json
import math
import statistics
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

# Relative Frobenius error allowed between the cuBLAS and the deepgemm output: a few units
# of the output type's rounding (bf16 2^-8, fp16 2^-11), TF32 inputs (2^-11 per product,
# either side), exact fp32 (summation order only). The transformer block chains ten GEMMs,
# softmax and layer norms in bf16.
# int8 and fp8 are not deepgemm's types: forwarded to cuBLAS, so exactly cuBLAS's result.
TOL = {
    "bf16": 2e-2,
    "fp16": 5e-3,
    "tf32": 1e-2,
    "fp32": 1e-4,
    "block-bf16": 4e-2,
    "forwarded": 0.0,
}


def rand(*shape, dtype, scale=1.0):
    return (torch.randn(*shape, dtype=torch.float32) * scale).to(dtype).cuda()


class Block(nn.Module):
    """Pre-norm transformer block: causal multi-head attention written with matmuls (so
    its GEMMs are bmm's, not a fused attention kernel) and a GELU MLP."""

    def __init__(self, d, heads, ff):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, ff)
        self.fc2 = nn.Linear(ff, d)

    def forward(self, x):
        b, t, d = x.shape
        hd = d // self.heads
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=-1)
        q, k, v = (z.view(b, t, self.heads, hd).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
        mask = torch.ones(t, t, dtype=torch.bool, device=x.device).triu(1)
        att = att.masked_fill(mask, float("-inf")).softmax(dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, d)
        x = x + self.proj(y)
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x)), approximate="tanh"))


def cases():
    """(name, tolerance key, tf32 allowed, fn) for every check; each fn returns a tensor."""
    torch.manual_seed(1234)
    bf, h, f32 = torch.bfloat16, torch.float16, torch.float32
    a = rand(4096, 4096, dtype=bf)
    b = rand(4096, 4096, dtype=bf)
    a_odd = rand(1000, 3000, dtype=bf)
    b_odd = rand(3000, 4000, dtype=bf)
    ah = rand(4096, 4096, dtype=h)
    bh = rand(4096, 4096, dtype=h)
    x = rand(4096, 4096, dtype=bf)
    w = rand(14336, 4096, dtype=bf, scale=0.02)
    bias = rand(14336, dtype=bf)
    q = rand(32, 1024, 128, dtype=bf)
    kt = rand(32, 128, 1024, dtype=bf)
    p = rand(32, 1024, 1024, dtype=bf, scale=0.05)
    v = rand(32, 1024, 128, dtype=bf)
    qh = rand(32, 1024, 128, dtype=h)
    kth = rand(32, 128, 1024, dtype=h)
    af = rand(4096, 4096, dtype=f32)
    bf_ = rand(4096, 4096, dtype=f32)
    af2 = rand(2048, 2048, dtype=f32)
    bf2 = rand(2048, 2048, dtype=f32)
    abf = rand(8, 512, 512, dtype=f32)
    bbf = rand(8, 512, 512, dtype=f32)
    xf = rand(2048, 1024, dtype=f32)
    wf = rand(1024, 1024, dtype=f32, scale=0.03)
    biasf = rand(1024, dtype=f32)
    block = Block(2048, 16, 8192).to(bf).cuda().eval()  # initialised on the CPU
    xb = rand(8, 1024, 2048, dtype=bf)
    a8 = torch.randint(-8, 8, (1024, 1024), dtype=torch.int8).cuda()
    b8 = torch.randint(-8, 8, (1024, 1024), dtype=torch.int8).cuda()
    a_f8 = rand(1024, 2048, dtype=torch.float8_e4m3fn)
    b_f8 = rand(1024, 2048, dtype=torch.float8_e4m3fn).t()  # column-major, as cuBLASLt wants
    one = torch.ones((), dtype=f32).cuda()
    # Session 29: a decode GEMM (cublasGemmEx with the handle's workspace: its best plan is
    # Stream-K, 0.5 MB) and a TF32 weight gradient (a.t() @ b: tf32 NT in cuBLAS terms, which
    # deepgemm runs only on its portable kernel, so the preload forwards it).
    x16 = rand(16, 4096, dtype=bf)
    w4k = rand(4096, 4096, dtype=bf, scale=0.02)
    gf = rand(4096, 2048, dtype=f32)
    xg = rand(4096, 2048, dtype=f32)

    return [
        ("matmul bf16 4096^3", "bf16", False, lambda: a @ b),
        ("matmul bf16 1000x4000x3000", "bf16", False, lambda: a_odd @ b_odd),
        ("matmul bf16 NT 4096^3", "bf16", False, lambda: a @ b.t()),
        ("matmul fp16 4096^3", "fp16", False, lambda: ah @ bh),
        ("linear+bias bf16 4096x14336x4096", "bf16", False, lambda: F.linear(x, w, bias)),
        (
            "addmm_activation gelu bf16 4096x14336x4096",
            "bf16",
            False,
            lambda: torch._addmm_activation(bias, x, w.t(), use_gelu=True),
        ),
        ("bmm bf16 32x1024x1024x128", "bf16", False, lambda: torch.bmm(q, kt)),
        ("bmm bf16 32x1024x128x1024", "bf16", False, lambda: torch.bmm(p, v)),
        ("bmm fp16 32x1024x1024x128", "fp16", False, lambda: torch.bmm(qh, kth)),
        ("matmul fp32 tf32 4096^3", "tf32", True, lambda: af @ bf_),
        ("matmul fp32 exact 2048^3", "fp32", False, lambda: af2 @ bf2),
        ("bmm fp32 exact 8x512^3", "fp32", False, lambda: torch.bmm(abf, bbf)),
        ("linear+bias fp32 exact 2048x1024x1024", "fp32", False, lambda: F.linear(xf, wf, biasf)),
        ("linear+bias fp32 tf32 2048x1024x1024", "tf32", True, lambda: F.linear(xf, wf, biasf)),
        ("linear bf16 decode 16x4096x4096", "bf16", False, lambda: F.linear(x16, w4k)),
        ("weight grad fp32 tf32 2048x2048x4096", "tf32", True, lambda: gf.t() @ xg),
        ("transformer block bf16 8x1024x2048", "block-bf16", False, lambda: block(xb)),
        ("_int_mm int8 1024^3", "forwarded", False, lambda: torch._int_mm(a8, b8)),
        (
            "_scaled_mm fp8 1024x1024x2048",
            "forwarded",
            False,
            lambda: torch._scaled_mm(a_f8, b_f8, scale_a=one, scale_b=one, out_dtype=bf),
        ),
    ]


def host_cases():
    """Host time per call of tiny GEMMs (launch-bound): what the preload adds to a call it
    forwards after deciding (int8, read through cuBLASLt's descriptors) or substitutes."""
    a8 = torch.randint(-8, 8, (32, 32), dtype=torch.int8).cuda()
    b8 = torch.randint(-8, 8, (32, 32), dtype=torch.int8).cuda()
    a = rand(64, 64, dtype=torch.bfloat16)
    b = rand(64, 64, dtype=torch.bfloat16)
    bias = rand(64, dtype=torch.bfloat16)
    return [
        ("_int_mm int8 32^3 (cublasLtMatmul)", lambda: torch._int_mm(a8, b8)),
        ("matmul bf16 64^3 (cublasGemmEx)", lambda: a @ b),
        ("linear+bias bf16 64^3 (cublasLtMatmul)", lambda: F.linear(a, b, bias)),
    ]


def host_us(fn, calls=3000):
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(calls):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t) / calls * 1e6


def time_ms(fn, iters):
    """Median milliseconds of one call (CUDA events), after two warm-up calls."""
    for _ in range(2):
        fn()
    times = []
    for _ in range(iters):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def rel_err(x, ref):
    x, ref = x.cuda().double(), ref.cuda().double()
    return ((x - ref).norm() / ref.norm().clamp_min(1e-300)).item()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mode", choices=["reference", "compare"], required=True)
    ap.add_argument("--data", required=True, help="reference outputs (.pt), written or read")
    ap.add_argument("--json", help="write per-case results here")
    ap.add_argument("--iters", type=int, default=10, help="timed calls per case")
    args = ap.parse_args()

    t0 = time.perf_counter()
    assert torch.cuda.is_available(), "needs a CUDA device"
    dev = torch.cuda.get_device_name()
    ref = torch.load(args.data) if args.mode == "compare" else None
    results, saved = [], {}
    with torch.no_grad():
        for name, tol_key, tf32, fn in cases():
            torch.backends.cuda.matmul.allow_tf32 = tf32
            if ref is not None and name not in ref:
                results.append({"case": name, "skipped": "not run by the reference run"})
                continue
            try:
                out = fn()
            except (RuntimeError, TypeError) as e:
                # An op this torch build or GPU does not offer (say _scaled_mm's signature):
                # skipped in the reference run, hence in the comparison too.
                if ref is not None:
                    raise
                results.append({"case": name, "skipped": str(e).splitlines()[0][:80]})
                continue
            torch.cuda.synchronize()
            ms = time_ms(fn, args.iters)
            row = {"case": name, "tol": TOL[tol_key], "ms": ms}
            if args.mode == "reference":
                saved[name] = {"out": out.cpu(), "ms": ms}
            else:
                r = ref[name]
                err = rel_err(out, r["out"])
                finite = bool(torch.isfinite(out.float()).all())
                row.update(
                    rel_err=err,
                    cublas_ms=r["ms"],
                    ok=finite and err <= TOL[tol_key],
                    finite=finite,
                )
            results.append(row)
            del out
        torch.backends.cuda.matmul.allow_tf32 = False
        host = []
        for name, fn in host_cases():
            try:
                host.append({"case": name, "us": host_us(fn)})
            except (RuntimeError, TypeError) as e:
                print(f"skipped: {name}: {str(e).splitlines()[0][:80]}")
        if args.mode == "reference":
            saved["__host__"] = {h["case"]: h["us"] for h in host}
        else:
            for h in host:
                h["cublas_us"] = ref["__host__"].get(h["case"], float("nan"))
    torch.backends.cuda.matmul.allow_tf32 = False
    wall = time.perf_counter() - t0
    if args.mode == "reference":
        torch.save(saved, args.data)

    print(f"device: {dev}; torch {torch.__version__}; mode {args.mode}; {wall:.1f} s in main()")
    done = [r for r in results if "skipped" not in r]
    for r in results:
        if "skipped" in r:
            print(f"skipped: {r['case']}: {r['skipped']}")
    if args.mode == "reference":
        print(f"{'case':<46} {'ms':>9}")
        for r in done:
            print(f"{r['case']:<46} {r['ms']:>9.3f}")
        print(f"{'host time per call':<46} {'us':>9}")
        for h in host:
            print(f"{h['case']:<46} {h['us']:>9.2f}")
    else:
        # speed: cuBLAS time / preload time (above 1: the preload run was faster).
        print(f"{'case':<46} {'cuBLAS ms':>10} {'preload ms':>10} {'speed':>6} {'rel err':>9} {'tol':>7}  ok")
        for r in done:
            print(
                f"{r['case']:<46} {r['cublas_ms']:>10.3f} {r['ms']:>10.3f} "
                f"{r['cublas_ms'] / r['ms']:>6.2f} {r['rel_err']:>9.2e} {r['tol']:>7.0e}  "
                f"{'yes' if r['ok'] else 'NO'}"
            )
        tot_c = sum(r["cublas_ms"] for r in done)
        tot_p = sum(r["ms"] for r in done)
        print(f"{'sum of the cases':<46} {tot_c:>10.3f} {tot_p:>10.3f} {tot_c / tot_p:>6.2f}")
        print(f"{'host time per call':<46} {'cuBLAS us':>10} {'preload us':>10}")
        for h in host:
            print(f"{h['case']:<46} {h['cublas_us']:>10.2f} {h['us']:>10.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": dev, "torch": torch.__version__, "mode": args.mode,
                       "main_seconds": wall, "cases": results, "host": host}, f, indent=1)
    bad = [r["case"] for r in done if args.mode == "compare" and not r["ok"]]
    if bad:
        print(f"OUT OF TOLERANCE: {', '.join(bad)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
