//! Packing within a bounded workspace. An operand TMA cannot read where it is (an odd leading
//! dimension, `plan::pack`) is copied whole into the workspace first; when the caller's
//! workspace is smaller than that copy (PyTorch hands cuBLASLt 32 MiB; a 4097 x 4097 bf16
//! operand is 33.6 MB), the Hopper kernel used to be out of reach and the portable kernel ran
//! at 0.33-0.61x cuBLASLt (session 7). A slab plan cuts D into blocks instead: slabs of rows
//! when A misfits (each block reads only its rows of op(A)), of columns when B does, both when
//! both do. Each block is a GEMM of its own (`GemmProblem::block`) whose packed copies fit,
//! planned as any problem is and run one after another on the caller's stream, reusing the
//! workspace (stream order keeps a block's copies alive until its GEMM is done).
//!
//! The cost: each block packs its own columns of B, so with both cut B is copied once per
//! row slab (a row slab's rows of A only once: blocks run row slab by row slab and a copy the
//! block before made is not made again, gemm::run); and every block pays its launches.
//! The model charges both (`slab_plans`), and a slab plan is listed only where it beats the
//! portable kernel.

use std::collections::HashMap;

use super::{DeviceSpec, Plan, cache, choose_among, pack};
use crate::error::Result;
use crate::problem::{GemmPointers, GemmProblem};

/// Block edges fall on multiples of this many rows (columns), a tile's height (and a multiple
/// of most tile widths), so that only the last block of a slab direction has ragged tiles.
pub const SLAB_ALIGN: u64 = 128;

/// Slab counts tried per cut dimension, fewest first (fewest blocks: least repacking). With
/// both A and B cut, each count is also paired with the next (2 x 3 blocks may fit where
/// 2 x 2 do not, with a third fewer blocks than 3 x 3).
const LADDER: [u32; 11] = [2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64];

/// Fixed cost of a block beyond its plan's estimate: its launches' gaps on the stream.
pub const BLOCK_NS: u64 = 3_000;

/// The most slab plans listed, spread over the workspace range (`spread`): a bound on the
/// candidate list, loose enough that a caller's workspace between two listed levels rarely
/// loses much (NN 768x8192x50257 lists 10).
pub const MAX_SLAB_PLANS: usize = 16;

/// Workspace below which no further slab level is listed: the block copies are then small
/// enough that any caller's workspace holds one of the levels above.
const SMALL_WORKSPACE: u64 = 4 << 20;

/// `len` cut into at most `parts` ranges `(start, len)` whose starts are multiples of
/// `SLAB_ALIGN`; every index of `0..len` in exactly one range. A single range when `len` is
/// too small to cut.
pub fn ranges(len: u64, parts: u64) -> Vec<(u64, u64)> {
    let size = len
        .div_ceil(parts.max(1))
        .next_multiple_of(SLAB_ALIGN)
        .max(SLAB_ALIGN);
    (0..len.div_ceil(size))
        .map(|i| (i * size, size.min(len - i * size)))
        .collect()
}

/// The blocks `(m0, mc, n0, nc)` of a plan cut `slabs = [row slabs, column slabs]`, row slab
/// by row slab (the order they run in).
pub fn blocks(p: &GemmProblem, slabs: [u32; 2]) -> Vec<(u64, u64, u64, u64)> {
    let rows = ranges(p.m, slabs[0] as u64);
    let cols = ranges(p.n, slabs[1] as u64);
    rows.iter()
        .flat_map(|&(m0, mc)| cols.iter().map(move |&(n0, nc)| (m0, mc, n0, nc)))
        .collect()
}

/// The slab plans of `p` on `dev`, fastest first by the model, each needing less workspace
/// than the one before and than `whole_workspace` (the whole-operand packed plan's): empty when
/// neither A nor B has strides TMA cannot take or is in `misaligned` (operands whose base
/// addresses TMA cannot take: a block's A and B start at the caller's addresses moved by a
/// multiple of 16 bytes, whole lines or `SLAB_ALIGN` elements, so they misfit alike), or when
/// no cut beats the portable kernel.
/// A slab plan takes the first block's plan's kernel, grid and decomposition (what the
/// heuristic reports; each block is planned again when it runs, `block_plan`), the largest
/// workspace any block's plan needs, and the sum of the blocks' estimates plus `BLOCK_NS`
/// each.
pub fn slab_plans(
    p: &GemmProblem,
    dev: &DeviceSpec,
    whole_workspace: u64,
    misaligned: pack::Which,
) -> Vec<Plan> {
    let misfit = pack::stride_misfits(p).or(misaligned);
    if !misfit.a && !misfit.b {
        return Vec::new();
    }
    let portable_ns = (pack::portable_s(p) * 1e9) as u64;
    let cuts: Vec<[u32; 2]> = match (misfit.a, misfit.b) {
        (true, false) => LADDER.iter().map(|&s| [s, 1]).collect(),
        (false, true) => LADDER.iter().map(|&s| [1, s]).collect(),
        // Both: cuts of both, and of one only (the other copied whole, once: see below).
        _ => LADDER
            .iter()
            .zip(LADDER.iter().skip(1).chain([&LADDER[LADDER.len() - 1]]))
            .flat_map(|(&s, &t)| [[s, s], [s, t], [t, s], [s, 1], [1, s]])
            .collect(),
    };
    let mut memo: HashMap<(u64, u64), Option<Plan>> = HashMap::new();
    let mut seen: Vec<(usize, usize)> = vec![(1, 1)];
    // (blocks, plan) of every cut that beats the portable kernel.
    let mut levels: Vec<(usize, Plan)> = Vec::new();
    for slabs in cuts {
        let cut = (
            ranges(p.m, slabs[0] as u64).len(),
            ranges(p.n, slabs[1] as u64).len(),
        );
        if seen.contains(&cut) {
            continue; // the same blocks as another cut (or too small to cut)
        }
        seen.push(cut);
        let mut workspace = 0u64;
        let mut estimate = 0u64;
        let mut first: Option<Plan> = None;
        let mut prev_mc = 0;
        for (m0, mc, n0, nc) in blocks(p, slabs) {
            // Blocks of one shape have the same plan (strides are the caller's throughout).
            let plan = *memo.entry((mc, nc)).or_insert_with(|| {
                let b = p.block(m0, mc, n0, nc);
                let plans = pack::hopper_packed_plans(&b, dev, misaligned).ok()?;
                // The block's fastest plan that needs no workspace past its copies: a split's
                // partials (~4 MB over 120 CTAs of 128x64, whatever the block's size) would
                // keep every cut above a small workspace, and at run time the block takes the
                // first of its plans that fits (`block_plan`), this one at the least.
                let best = plans
                    .iter()
                    .find(|c| c.pack.is_some_and(|s| c.workspace == s.workspace_bytes()))
                    .copied()
                    .unwrap_or(plans[0]);
                best.pack
                    .is_some_and(|s| pack::pays(&b, &s))
                    .then_some(best)
            });
            match plan {
                Some(b) => {
                    workspace = workspace.max(b.workspace);
                    estimate += b.estimate_ns + BLOCK_NS;
                    // gemm::run skips a copy the block before made: a row slab's rows of A
                    // after its first block; B uncut after the first row slab, while the row
                    // slabs (so B's place after A's copy) keep their size.
                    let copy_ns = |o: pack::PackedOperand| (pack::copy_s(&o) * 1e9) as u64;
                    if let Some(a) = b.pack.and_then(|s| s.a).filter(|_| n0 > 0) {
                        estimate = estimate.saturating_sub(copy_ns(a));
                    }
                    let b_again = slabs[1] == 1 && m0 > 0 && mc == prev_mc;
                    if let Some(bb) = b.pack.and_then(|s| s.b).filter(|_| b_again) {
                        estimate = estimate.saturating_sub(copy_ns(bb));
                    }
                    first.get_or_insert(b);
                }
                None => {
                    let b = p.block(m0, mc, n0, nc);
                    estimate += (pack::portable_s(&b) * 1e9) as u64 + BLOCK_NS;
                }
            }
            prev_mc = mc;
        }
        if let Some(first) = first {
            if estimate < portable_ns {
                let plan = Plan {
                    workspace,
                    estimate_ns: estimate,
                    // The blocks pack (and transpose) for themselves.
                    pack: None,
                    swap: false,
                    slabs,
                    ..first
                };
                levels.push((cut.0 * cut.1, plan));
            }
        }
    }
    // Fastest first by the model; a cut is listed only if it needs less workspace than every
    // faster one (the first slab plan that fits a caller's workspace is then the fastest that
    // fits), and than the whole copies.
    levels.sort_by_key(|(blocks, plan)| (plan.estimate_ns, *blocks, plan.workspace));
    let mut out: Vec<Plan> = Vec::new();
    let mut last_workspace = whole_workspace;
    for (_, plan) in levels {
        if plan.workspace < last_workspace {
            last_workspace = plan.workspace;
            out.push(plan);
            if last_workspace <= SMALL_WORKSPACE {
                break;
            }
        }
    }
    spread(out, MAX_SLAB_PLANS)
}

/// At most `max` of `plans` (ordered by falling workspace), spread over the range: the first
/// (fastest) and the last (least workspace) always among them, so that a small workspace
/// still finds a plan.
fn spread(plans: Vec<Plan>, max: usize) -> Vec<Plan> {
    let n = plans.len();
    if n <= max || max < 2 {
        return plans;
    }
    let keep: Vec<usize> = (0..max)
        .map(|i| (i * (n - 1) + (max - 1) / 2) / (max - 1))
        .collect();
    plans
        .into_iter()
        .enumerate()
        .filter(|(i, _)| keep.contains(i))
        .map(|(_, p)| p)
        .collect()
}

/// The plan one block of a slab plan runs: the first of the block's own candidates that fits
/// in the slab plan's workspace and takes the block's pointers, never a slab plan itself (the
/// portable plan, last, always qualifies).
pub fn block_plan(
    b: &GemmProblem,
    dev: &DeviceSpec,
    ptrs: &GemmPointers,
    workspace_size: u64,
) -> Result<Plan> {
    let ranked = cache::block_candidates(b, dev, pack::pointer_misfits(ptrs))?;
    let plans: Vec<Plan> = ranked
        .plans()
        .iter()
        .filter(|c| !c.is_slabbed())
        .copied()
        .collect();
    choose_among(&plans, b, dev, ptrs, workspace_size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{Kernel, candidates};
    use crate::problem::{MatrixSpec, OpSpec};
    use crate::types::{compute_type::*, cuda_data_type::*};

    fn h200() -> DeviceSpec {
        DeviceSpec::H200
    }

    /// TN bf16 (PyTorch Linear) with the given leading dimensions.
    fn tn(m: u64, n: u64, k: u64, lda: i64, ldb: i64, ldd: i64) -> GemmProblem {
        let a = MatrixSpec::col(R_16BF, k, m, lda);
        let b = MatrixSpec::col(R_16BF, k, n, ldb);
        let d = MatrixSpec::col(R_16BF, m, n, ldd);
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_a = 1;
        GemmProblem::new(&op, &a, &b, &d, &d).unwrap()
    }

    /// A block's list (`plan::block_candidates`, what `block_plan` chooses from) is the
    /// problem's full list without its slab plans, in the same order: leaving them out of a
    /// block's planning changes no block's choice. Over strides TMA cannot take (A, B, both,
    /// D) and base addresses it cannot take.
    #[test]
    fn block_lists_are_the_full_lists_without_slab_plans() {
        let dev = h200();
        let none = pack::Which::NONE;
        let a_off = pack::Which { a: true, ..none };
        let mut slabbed = 0;
        for (p, misaligned) in [
            (tn(4097, 4097, 4097, 4097, 4097, 4097), none),
            (tn(2049, 2048, 4097, 4097, 4097, 2049), none),
            (tn(1000, 3001, 4001, 4001, 4001, 1000), none),
            (tn(4096, 4096, 4096, 4100, 4096, 4096), none),
            (tn(4096, 4096, 4096, 4096, 4096, 4096), a_off),
            (tn(300, 5000, 3000, 3000, 3000, 301), none),
        ] {
            let full = crate::plan::candidates_for(&p, &dev, misaligned).unwrap();
            let block = crate::plan::block_candidates(&p, &dev, misaligned).unwrap();
            let without: Vec<Plan> = full.iter().filter(|c| !c.is_slabbed()).copied().collect();
            assert_eq!(block, without, "{p:?}");
            slabbed += full.len() - without.len();
        }
        assert!(slabbed > 0, "some list had slab plans");
    }

    #[test]
    fn ranges_cover_every_index_once_on_aligned_starts() {
        for len in [1u64, 3, 17, 255, 256, 257, 1000, 4095, 4097, 50257] {
            for parts in [1u64, 2, 3, 4, 7, 32] {
                let r = ranges(len, parts);
                assert!(
                    !r.is_empty() && r.len() as u64 <= parts.max(1),
                    "{len} {parts}"
                );
                let mut next = 0;
                for &(start, n) in &r {
                    assert_eq!(start, next, "{len} {parts}: contiguous");
                    assert_eq!(start % SLAB_ALIGN, 0);
                    assert!(n > 0);
                    next = start + n;
                }
                assert_eq!(next, len, "{len} {parts}: covered");
            }
        }
        assert_eq!(ranges(4097, 3), vec![(0, 1408), (1408, 1408), (2816, 1281)]);
        assert_eq!(ranges(100, 4), vec![(0, 100)]);
    }

    #[test]
    fn blocks_partition_d() {
        let p = tn(1000, 4097, 64, 1000, 64, 1000);
        let mut seen = vec![0u8; (p.m * p.n) as usize];
        for (m0, mc, n0, nc) in blocks(&p, [3, 5]) {
            for i in m0..m0 + mc {
                for j in n0..n0 + nc {
                    seen[(i * p.n + j) as usize] += 1;
                }
            }
        }
        assert!(seen.iter().all(|&c| c == 1));
    }

    #[test]
    fn a_block_is_its_rows_of_a_and_columns_of_b() {
        // TN, A k x m stored with lda 4097 (op(A) rows step lda), B k x n with ldb 4099.
        let p = tn(4097, 3000, 4097, 4097, 4099, 4101);
        let b = p.block(1536, 1536, 256, 512);
        assert_eq!((b.m, b.n, b.k, b.batch), (1536, 512, p.k, p.batch));
        assert_eq!((b.a, b.b, b.d), (p.a, p.b, p.d));
        assert_eq!(b.extent[0], 1535 * 4097 + 4096 + 1);
        assert_eq!(b.extent[3], 1535 + 511 * 4101 + 1);
        let ptrs = GemmPointers {
            alpha: crate::problem::Scalar::Host(1.0),
            beta: crate::problem::Scalar::Host(0.0),
            a: 1 << 20,
            b: 2 << 20,
            c: 3 << 20,
            d: 3 << 20,
            bias: 0,
        };
        let q = ptrs.block(&p, 1536, 256);
        assert_eq!(q.a, (1 << 20) + 2 * 1536 * 4097);
        assert_eq!(q.b, (2 << 20) + 2 * 256 * 4099);
        assert_eq!(q.d, (3 << 20) + 2 * (1536 + 256 * 4101));
        assert_eq!((q.c, q.bias), (q.d, 0));
    }

    /// Every slab plan counts as possibly reducing (`Plan::may_reduce`, what the heuristic's
    /// REDUCTION_SCHEME_MASK filters): its blocks' own plans may split k where the listed
    /// one does not, and on these shapes some do.
    #[test]
    fn slab_plans_whose_blocks_split_k_count_as_reducing() {
        let dev = h200();
        let ptrs = crate::problem::aligned_ptrs();
        let mut splitting = 0;
        for p in [
            tn(4097, 4097, 4097, 4097, 4097, 4097),
            tn(1000, 3001, 4001, 4001, 4001, 1000),
        ] {
            for s in candidates(&p, &dev)
                .unwrap()
                .iter()
                .filter(|c| c.is_slabbed())
            {
                assert!(s.may_reduce(), "{}", s.name());
                splitting += blocks(&p, s.slabs).iter().any(|&(m0, mc, n0, nc)| {
                    let b = p.block(m0, mc, n0, nc);
                    block_plan(&b, &dev, &ptrs.block(&p, m0, n0), s.workspace)
                        .unwrap()
                        .reduces()
                }) as u32;
            }
        }
        assert!(
            splitting > 0,
            "no slab plan's block splits k here: the test lost its case"
        );
    }

    #[test]
    fn odd_operands_get_slab_plans_that_fit_smaller_workspaces() {
        let dev = h200();
        // 4097^3: A and B both odd (33.6 MB each packed). A 50257-vocabulary logits gradient
        // through a row-major G (tokens x 50257): odd B (G^T, k x n) with A aligned, and the
        // mirror, an odd A.
        for (p, cut_m, cut_n) in [
            (tn(4097, 4097, 4097, 4097, 4097, 4097), true, true),
            (tn(768, 8192, 50257, 50264, 50257, 768), false, true),
            (tn(8192, 768, 50257, 50257, 50264, 8192), true, false),
        ] {
            let all = candidates(&p, &dev).unwrap();
            let whole = all
                .iter()
                .find(|c| c.pack.is_some() && !c.is_slabbed())
                .expect("a whole-operand packed plan");
            let slabs: Vec<&Plan> = all.iter().filter(|c| c.is_slabbed()).collect();
            assert!(!slabs.is_empty(), "{}x{}x{}: no slab plan", p.m, p.n, p.k);
            let mut last = whole.workspace;
            for s in &slabs {
                assert!(s.workspace < last, "{}: workspace must shrink", s.name());
                last = s.workspace;
                assert!(
                    s.name()
                        .contains(&format!("+slab{}x{}", s.slabs[0], s.slabs[1]))
                );
                // Only a misfit operand's dimension is cut (with both misfit, either or
                // both: the uncut one is copied whole, once).
                let (m, n) = (s.slabs[0] > 1, s.slabs[1] > 1);
                assert!((m || n) && (!m || cut_m) && (!n || cut_n), "{}", s.name());
                assert!(cut_m && cut_n || (m, n) == (cut_m, cut_n), "{}", s.name());
                let mut estimates: Vec<u64> = slabs.iter().map(|s| s.estimate_ns).collect();
                assert!(estimates.is_sorted(), "fastest first");
                estimates.clear();
                assert!(matches!(s.kernel, Kernel::Sm90(_)));
            }
            // PyTorch's 32 MiB: a slab plan is chosen, not the portable kernel.
            let ptrs = crate::problem::aligned_ptrs();
            let chosen = crate::plan::choose_among(&all, &p, &dev, &ptrs, 32 << 20).unwrap();
            assert!(chosen.is_slabbed(), "32 MiB chose {}", chosen.name());
            assert!(chosen.workspace <= 32 << 20);
            // Each of its blocks runs a non-slab plan within that workspace.
            for (m0, mc, n0, nc) in blocks(&p, chosen.slabs) {
                let b = p.block(m0, mc, n0, nc);
                let plan = block_plan(&b, &dev, &ptrs.block(&p, m0, n0), chosen.workspace).unwrap();
                assert!(!plan.is_slabbed());
                assert!(plan.workspace <= chosen.workspace);
                assert!(matches!(plan.kernel, Kernel::Sm90(_)), "{}", plan.name());
            }
            // Algos of slab plans round-trip like any other.
            let back = Plan::from_algo(&chosen.to_algo(), &p, &dev).unwrap();
            assert_eq!(back, chosen);
        }
    }

    #[test]
    fn no_slab_plan_when_every_cut_is_slower_than_the_portable_kernel() {
        // Both operands odd with k = 50257: a block's two copies stay above 32 MiB until the
        // blocks cost more than the portable kernel; the portable plan runs then.
        let p = tn(8192, 768, 50257, 50257, 50257, 8192);
        let all = candidates(&p, &h200()).unwrap();
        let ptrs = crate::problem::aligned_ptrs();
        let chosen = crate::plan::choose_among(&all, &p, &h200(), &ptrs, 32 << 20).unwrap();
        assert!(
            matches!(chosen.kernel, Kernel::Portable(_)),
            "{}",
            chosen.name()
        );
        // The slab plans listed (for larger workspaces) are each under the portable kernel's
        // estimate; there are some, so the check is not vacuous.
        let portable_ns = (pack::portable_s(&p) * 1e9) as u64;
        let slabbed: Vec<&Plan> = all.iter().filter(|c| c.is_slabbed()).collect();
        assert!(!slabbed.is_empty());
        assert!(slabbed.iter().all(|c| c.estimate_ns < portable_ns));
    }

    #[test]
    fn every_block_of_every_listed_slab_plan_has_a_plan_within_its_workspace() {
        let dev = h200();
        let ptrs = crate::problem::aligned_ptrs();
        let mut batched = tn(3000, 2000, 1031, 1031, 1031, 3000);
        batched.batch = 3;
        batched.a.batch = 1031 * 3000 + 5;
        batched.b.batch = 1031 * 2000 + 3;
        batched.c.batch = 3000 * 2000;
        batched.d.batch = 3000 * 2000;
        let shapes = [
            // Ragged remainders: a last row slab of 1 row, a last column slab of 1 column.
            tn(4097, 4097, 4097, 4097, 4097, 4097),
            tn(8193, 1025, 3001, 3001, 3001, 8193),
            tn(257, 8192, 4099, 4104, 4099, 257),
            batched,
        ];
        for p in shapes {
            let all = candidates(&p, &dev).unwrap();
            let slabbed: Vec<&Plan> = all.iter().filter(|c| c.is_slabbed()).collect();
            assert!(!slabbed.is_empty(), "{}x{}x{}", p.m, p.n, p.k);
            for s in slabbed {
                let mut covered = 0;
                for (m0, mc, n0, nc) in blocks(&p, s.slabs) {
                    covered += mc * nc;
                    let b = p.block(m0, mc, n0, nc);
                    assert_eq!(
                        (b.k, b.batch, b.a.batch, b.b.batch),
                        (p.k, p.batch, p.a.batch, p.b.batch)
                    );
                    let plan = block_plan(&b, &dev, &ptrs.block(&p, m0, n0), s.workspace)
                        .unwrap_or_else(|e| panic!("{} block {m0},{n0}: {e:?}", s.name()));
                    assert!(
                        !plan.is_slabbed() && plan.workspace <= s.workspace,
                        "{}",
                        s.name()
                    );
                }
                assert_eq!(covered, p.m * p.n, "{}", s.name());
            }
        }
        // A block of one row or one column (a ragged remainder) is a problem like any other.
        let p = tn(4097, 4097, 4097, 4097, 4097, 4097);
        for (m0, mc, n0, nc) in [(4096, 1, 0, 4097), (0, 4097, 4096, 1), (4096, 1, 4096, 1)] {
            let b = p.block(m0, mc, n0, nc);
            let plan = block_plan(&b, &dev, &ptrs.block(&p, m0, n0), 32 << 20).unwrap();
            assert!(!plan.is_slabbed(), "{}", plan.name());
        }
    }

    #[test]
    fn a_long_ladder_keeps_its_ends() {
        let p = crate::plan::portable(&tn(4097, 4097, 4097, 4097, 4097, 4097), &h200()).unwrap();
        let ladder: Vec<Plan> = (0..11u64)
            .map(|i| Plan {
                workspace: 100 - i,
                ..p
            })
            .collect();
        let kept: Vec<u64> = spread(ladder.clone(), 6)
            .iter()
            .map(|p| p.workspace)
            .collect();
        assert_eq!(kept, vec![100, 98, 96, 94, 92, 90]);
        assert_eq!(spread(ladder[..4].to_vec(), 6).len(), 4);
    }

    #[test]
    fn aligned_or_small_problems_get_no_slab_plans() {
        let dev = h200();
        let aligned = tn(4096, 4096, 4096, 4096, 4096, 4096);
        assert!(slab_plans(&aligned, &dev, u64::MAX, pack::Which::NONE).is_empty());
        // Too small to cut in the misfit dimension.
        let small = tn(100, 4096, 4097, 4097, 4104, 100);
        assert!(slab_plans(&small, &dev, u64::MAX, pack::Which::NONE).is_empty());
    }
}
