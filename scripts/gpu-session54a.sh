#!/usr/bin/env bash
# Session 54, first call (~8 min; carry 53a's devcache as .gpu/cubins.txz: sm90 sources are
# unchanged since ff9abc4).
#   1. scripts/gpu-session53c.sh (owed since session 53): gpu_pack with DEEPGEMM_SWAP_PACKED=1
#      and without, and decode with misaligned A / B against cuBLASLt. Predicted: all pass;
#      A off 1x4096x4096 ~15 us with the switch against ~27 without (aligned ~12.5).
#   2. Session 53's bimodal 4096x28672x8192 (NT... as set A's TN: 2.415 ms once, ~2.69 usual):
#      six fresh processes, deepgemm alone, 40 launches each, the SM clock / power / temperature
#      read before each; one with 200 launches (min / median / max: does a process switch mode?);
#      two with cuBLASLt beside. Predicted: unknown; if the fast mode recurs per process and not
#      within one, it is placement (physical pages), not the kernel.
#     here:  bash scripts/gpu-pack.sh; cp <53a's devcache.txz> .gpu/cubins.txz
#     there: timeout 585 bash scripts/gpu-session54a.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
bash "$(dirname "$0")/gpu-session53c.sh" | grep -v '^devcache'
clocks() { nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader | tr -d '\n'; }
mode() {
    local name=$1; shift
    local c; c=$(clocks)
    timeout 60 "$B" --check none --shape 4096x28672x8192 --json "$OUT/$name.json" "$@" >"$OUT/$name.txt" 2>&1
    echo "mode $name rc=$? ${SECONDS}s [$c] $(python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
for s in d["results"]:
    for k in ("deepgemm", "cublaslt"):
        l = s.get(k)
        if l and l.get("median_ms"):
            print(k, "med %.4f min %.4f max %.4f" % (l["median_ms"], l["min_ms"], l["max_ms"]), end="; ")' "$OUT/$name.json" 2>&1 | head -c 400)"
}
for r in 1 2 3 4 5 6; do mode solo-$r --no-cublas --iters 40 --warmup 5; done
mode long --no-cublas --iters 200 --warmup 5
mode pair-1 --iters 30 --warmup 5
mode pair-2 --iters 30 --warmup 5
finish
