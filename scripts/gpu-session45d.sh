#!/usr/bin/env bash
# Session 45, call d (the same pack as 45c; run under `timeout 380`, then `finish` on its own:
# 45c's call ran past the device's 10 minutes before its finish and its TN / TT logs were lost,
# the device bringing back at most ~8 loose files). TN and TT of 45c's A/B (narrow tiles
# 128-deep by default against 9b54df4), TN twice if time allows, then the 128-deep narrow
# direct cases and the bench's own check on every moved TN launch.
#     there: timeout 380 bash scripts/gpu-session45d.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
bench TN_new-1 --layout TN --shapes .gpu/shapes/moved-45-tn.txt --check none
bench_old TN_old-1 --layout TN --shapes .gpu/shapes/moved-45-tn.txt --check none
bench TT_new-1 --layout TT --shapes .gpu/shapes/moved-45-tt.txt --check none
bench_old TT_old-1 --layout TT --shapes .gpu/shapes/moved-45-tt.txt --check none
DEEPGEMM_SM90_VARIANTS=n16k128,n32k128 direct direct-narrow-deep 90
bench check-tn --layout TN --shapes .gpu/shapes/moved-45-tn.txt
if [ $SECONDS -lt 250 ]; then
    bench TN_new-2 --layout TN --shapes .gpu/shapes/moved-45-tn.txt --check none
    bench_old TN_old-2 --layout TN --shapes .gpu/shapes/moved-45-tn.txt --check none
fi
