#!/usr/bin/env bash
# Prepared in session 61 (no device was lent; ~3 min): why a Stream-K phase over operands past
# the L2 runs its k-iterations 35-46% slower than data-parallel waves (README "Stream-K's
# fixup"; 3200^2 x 8192 on 128 x 256: sk193 ~0.88 us an iteration against 0.65), which also
# keeps set A's hybrids from beating data-parallel (`59d`). scripts/l2-sim.py (an LRU model of
# the schedule) predicts only 289 MB of DRAM reads for the hybrid against 221 data-parallel,
# too few to stretch a step at 4 TB/s: so the prediction here is that DRAM bytes differ by
# <= 1.4x while the hybrid's time a k-iteration is 1.35x+, and the difference shows in L2 (hit
# rate, sectors crossing between the two L2 partitions: ltcfabric) or in the SMs' stalls.
# Nsight Compute on one launch each of data-parallel, hybrid and all-Stream-K, same kernel.
#     here:  bash scripts/gpu-pack.sh; rm -rf .gpu/tests
#     there: timeout 560 bash scripts/gpu-session61c.sh; . scripts/gpu-env.sh; finish
set -uo pipefail
. "$(dirname "$0")/gpu-env.sh"
export METRICS="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_requests_srcunit_tex_op_read.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed"
export GREP="gpu__time|dram__bytes|lts__t_sector|lts__t_requests|sm__throughput|tensor_op"
for v in m128n256k64_s4_c1x1 m128n128k64_s6_c1x1; do
    echo "== $v"
    DEEPGEMM_VARIANT=$v CASES="dp 3200x3200x8192 0;hybrid 3200x3200x8192 0;streamk 3200x3200x8192 0;dp 4096x14336x4096 0;hybrid 4096x14336x4096 0;dp 2176x2176x8192 0;hybrid 2176x2176x8192 0" \
        timeout 200 bash "$(dirname "$0")/gpu-ncu-small.sh" 2>&1 | tee -a "$OUT/ncu-sk.txt"
done
finish
