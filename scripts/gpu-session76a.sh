#!/usr/bin/env bash
# Session 76: scripts/gpu-session75b.sh (never run: sessions 75 and 76 got no machine for
# it) with session 76's default handle workspace checked after the wide tiles' direct cases
# (gpu_blas gemm_ex_default_workspace: every type and transpose, packed operands and split
# partials in the handle's own buffer, two streams and NULL, destroyed behind its last call).
# Pack exactly as 75b's header says. What follows is 75b's header.
#
# Session 75, first call: the wide ping-pong tiles (128 x 128 a consumer, in turn:
# kernels/sm90/gemm.cuh kWidePingPong, src/plan/sm90.rs WIDE_PINGPONG_TILES_N), correctness
# first (the direct cases of every `_pp` variant; gpu_matmul's shapes with them forced where
# they take the problem), then set A against the default plans and cuBLASLt in the same run,
# unclustered and in 2 x 1; then the owed checks of session 74's algo fixes.
# Predicted (README, session 74's sizing): c1x1_pp 0.90-0.95 of the default's speed (its 32 KB
# a 512-cycle k-step asks the L2 for 1.33x 128 x 256's bytes a multiply-add); c2x1_pp
# 0.97-1.03, best where the cooperative epilogue's share is largest (8192x8192x1024,
# 4096x24576x1536, 2048³, 4096x7168x2048: up to ~1.08x the default there). The model's prior
# (`--plans`, the mainloop at the cooperative 128 x 128's rate): c1x1_pp 0.92-0.97 on set A,
# 1.10-1.13 at k = 256 on short-k-75.
#     here:  CUBINS="_pp,bf16_bf16_tn_m128n176k64_s5_c1x1,bf16_bf16_tn_m128n216k64_s4_c1x1,bf16_bf16_tn_m128n224k64_s4_c1x1,bf16_bf16_tn_m128n240k64_s4_c1x1,bf16_bf16_tn_m128n248k64_s4_c1x1,bf16_bf16_tn_m128n256k64_s4_c1x1,bf16_bf16_tn_m128n256k64_s4_c2x1" bash scripts/gpu-pack.sh
#     there: timeout 590 bash scripts/gpu-session76a.sh (DEADLINE=S for a shorter call)
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
DEADLINE=${DEADLINE:-575}
have() { [ $((SECONDS + $1)) -lt "$DEADLINE" ]; }
nvidia-smi -L
DEEPGEMM_SM90_VARIANTS=_pp direct pp-direct ${DIRECT_SECS:-150} || echo "pp-direct failed: timings below for the record only"
have 60 && timeout 120 .gpu/tests/gpu_blas --ignored --test-threads=1 --nocapture gemm_ex_default_workspace \
    >"$OUT/default-ws.txt" 2>&1; echo "default workspace ${SECONDS}s: $(grep -E '^test result' "$OUT/default-ws.txt")"
grep -m6 -E "FAIL|panicked" "$OUT/default-ws.txt"
S=.gpu/shapes
PP="DEEPGEMM_PINGPONG=1"
have 60 && bench base-bf16 --shapes $S/set-a.txt
have 60 && with $PP DEEPGEMM_VARIANT=c2x1_pp bench pp2-bf16 --shapes $S/set-a.txt
have 50 && with $PP DEEPGEMM_VARIANT=c1x1_pp bench pp1-bf16 --shapes $S/set-a.txt
# Short-k multi-wave shapes (the epilogue's largest share; the model's prior puts the wide tile
# at 1.10-1.13x the default at k = 256, 0.85-1.01 elsewhere on this list).
K=$S/short-k-75.txt
have 40 && bench base-shortk --shapes $K
have 40 && with $PP DEEPGEMM_VARIANT=c1x1_pp bench pp1-shortk --shapes $K
have 40 && with $PP DEEPGEMM_VARIANT=c2x1_pp bench pp2-shortk --shapes $K
# Phase clocks (DG_TRACE, consumer 0's first tile: marks 3 -> 4 its mainloop, 64 k-steps at
# 4096³): the wide tile's cycles a k-step against 128 x 256's, halved (the efficiency the model
# holds at 0.79, README item 2).
have 40 && with $PP DEEPGEMM_VARIANT=c1x1_pp trace pp1 --shape 4096x4096x4096
have 30 && trace base --shape 4096x4096x4096
have 60 && bench base2-bf16 --shapes $S/set-a.txt
have 60 && with $PP DEEPGEMM_VARIANT=c2x1_pp bench pp2b-bf16 --shapes $S/set-a.txt
have 50 && with $PP DEEPGEMM_VARIANT=_pp bench pp-layouts --layout NN --shape 4096x4096x4096 --shape 8192x8192x1024
have 40 && bench base-layouts --layout NN --shape 4096x4096x4096 --shape 8192x8192x1024
have 60 && timeout 100 .gpu/tests/gpu_matmul --ignored --test-threads=1 --nocapture configured_algos \
    heuristic_algos_reused_on_other_shapes >"$OUT/configured.txt" 2>&1 &&
    echo "configured + reused algos ${SECONDS}s: $(grep -E '^test result' "$OUT/configured.txt")"
grep -m4 -E "FAIL|panicked" "$OUT/configured.txt" 2>/dev/null
# Then as much of issue 3's and 4's tables (scripts/gpu-session74c.sh) as time leaves, and
# gpu_matmul's groups with the wide ping-pong tiles forced in what is left.
have 30 && bench gelu-bias --epilogue gelu_bias --shape 4096x14336x4096
have 60 && bench seta-fp16 --dtype fp16 --shapes $S/set-a.txt
have 60 && bench cliffs --workspace-mib 160 --check sample --shapes $S/cliffs.txt
have 40 && bench tf32-1 --dtype tf32 --shape 8192x8192x8192 --iters 20
have 40 && with $PP DEEPGEMM_VARIANT=_pp matmul_groups pp "$DEADLINE" shapes_types_transposes \
    alpha_beta_in_place epilogues tiles_past_the_edges
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader
finish
