//! How the sm90 kernel shares a problem's tiles among its persistent CTAs: data-parallel,
//! Stream-K (the hybrid "Stream-K phase, then data-parallel waves") and split-K, which are one
//! schedule with different parameters (kernels/sm90/scheduler.cuh `WorkSchedule`), and the
//! cost model that picks among them.
//!
//! Pure Rust over plain data. `work_units` mirrors the kernel's schedule so that the tests
//! here prove what the kernel relies on: every MAC-loop iteration of every tile is computed
//! exactly once, every CTA walks its Stream-K range from k = 0 (its first tile's tail comes
//! last), each CTA writes at most one partial, and each tile's owner (the unit reaching the
//! tile's end) finds exactly the CTAs that computed the rest of it.

use crate::plan::DeviceSpec;
use crate::plan::sm90::{Major, Sm90Variant};
use crate::problem::GemmProblem;

/// A launch's schedule: the first `sk_tiles` linear tiles are shared out by MAC-loop
/// iteration among CTAs `0..sk_ctas` (Stream-K), the remaining tiles go whole to all `grid`
/// CTAs in turn (data-parallel). `sk_tiles == 0` is the plain data-parallel schedule.
/// For a multicast cluster variant (`cluster_m` x `cluster_n` CTAs) the scheduler's units are
/// clusters and its tiles are the clusters' blocks of tiles: `sk_tiles` and `sk_ctas` count
/// those (a cluster's CTAs walk the same units, each on its own tile), `grid` still CTAs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Decomposition {
    pub sk_tiles: u64,
    pub sk_ctas: u32,
    /// CTAs launched (one per SM at most).
    pub grid: u32,
}

/// Which decompositions the planner may use: `DEEPGEMM_DECOMPOSITION` = `dp` (data-parallel
/// only), `streamk` (Stream-K over every tile, one range per SM), `splitk` (Stream-K with
/// every tile split about four ways) or `splitk-cluster` (only the split-K cluster variants,
/// `Sm90Variant::with_split_k`), or `hybrid` (only the data-parallel waves + Stream-K hybrids,
/// of unclustered tiles and clusters along m, where the units outnumber the device's CTAs or
/// clusters: to time them where the model ranks them below the data-parallel plans; since
/// session 58 the only list with the hybrid that splits only the last partial wave's tiles,
/// which configured algos still reach, `every_decomposition`), or `tailsplit` (data-parallel
/// waves, the last partial wave's tiles split evenly in k: `tail_split`), for
/// tests and sweeps that force each path; unset or `auto`: the cost model decides. Read once
/// per process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Forced {
    Auto,
    DataParallel,
    StreamK,
    SplitK,
    SplitKCluster,
    Hybrid,
    TailSplit,
}

pub fn forced() -> Forced {
    static F: once_cell::sync::Lazy<Forced> = once_cell::sync::Lazy::new(|| {
        match std::env::var("DEEPGEMM_DECOMPOSITION")
            .as_deref()
            .map(str::trim)
        {
            Ok("dp") => Forced::DataParallel,
            Ok("streamk") => Forced::StreamK,
            Ok("splitk") => Forced::SplitK,
            Ok("splitk-cluster") => Forced::SplitKCluster,
            Ok("hybrid") => Forced::Hybrid,
            Ok("tailsplit") => Forced::TailSplit,
            _ => Forced::Auto,
        }
    });
    *F
}

impl Decomposition {
    pub fn data_parallel(tiles: u64, dev: &DeviceSpec) -> Decomposition {
        Decomposition {
            sk_tiles: 0,
            sk_ctas: 0,
            grid: tiles.clamp(1, dev.sm_count.max(1) as u64) as u32,
        }
    }

    pub fn is_data_parallel(&self) -> bool {
        self.sk_tiles == 0
    }

    /// Short label for plan names and logs: `dp`, or `sk<tiles>x<ctas>`.
    pub fn tag(&self) -> String {
        if self.is_data_parallel() {
            "dp".into()
        } else {
            format!("sk{}x{}", self.sk_tiles, self.sk_ctas)
        }
    }

    /// First Stream-K iteration of CTA `c` (the kernel's `range_begin`).
    pub fn range_begin(&self, c: u32, k_iters: u64) -> u64 {
        let total = self.sk_tiles * k_iters;
        let ctas = self.sk_ctas.max(1) as u64;
        let (base, rem) = (total / ctas, total % ctas);
        c as u64 * base + (c as u64).min(rem)
    }

    /// Split-K: tiles are split but no CTA's range crosses a tile boundary, so every CTA works
    /// on one tile only and no owner waits for a contributor busy with another tile.
    pub fn ranges_within_tiles(&self, k_iters: u64) -> bool {
        // No range crosses a tile boundary exactly when every boundary j·k is some CTA's
        // `range_begin`: one test a tile instead of a walk over every CTA (the model asks this
        // of every schedule it prices, split-K ones with many CTAs a tile among them).
        let k = k_iters.max(1);
        let ctas = self.sk_ctas as u64;
        let total = self.sk_tiles * k;
        if ctas == 0 || total / ctas == 0 {
            return true; // no ranges, or none longer than one iteration
        }
        let (base, rem) = (total / ctas, total % ctas);
        // The first `rem` ranges are base + 1 long and end at `long_end`; the rest base long.
        let long_end = rem * (base + 1);
        (1..self.sk_tiles).all(|j| {
            let x = j * k;
            if x <= long_end {
                x % (base + 1) == 0
            } else {
                (x - long_end) % base == 0
            }
        })
    }

    /// Whether some tile is computed by more than one CTA (then the fixup needs workspace).
    pub fn splits_tiles(&self, k_iters: u64) -> bool {
        (1..self.sk_ctas).any(|c| self.range_begin(c, k_iters) % k_iters != 0)
    }

    /// Bytes of workspace the kernel needs (kernels/sm90/types.cuh `StreamKWorkspace`): one
    /// 8-byte flag per (CTA, consumer warpgroup), padded to 256 bytes, then two 64 x block_n
    /// fp32 partial slots per CTA (one a consumer warpgroup; a solo tile's one consumer uses the
    /// first). None for schedules that split no tile.
    pub fn workspace_bytes(&self, v: &Sm90Variant, k_iters: u64) -> u64 {
        if !self.splits_tiles(k_iters) {
            return 0;
        }
        self.flag_bytes(v) + self.slots(v) * PARTIAL_SLOT_ROWS * v.block_n as u64 * 4
    }

    /// Bytes of the flags at the start of the workspace: 8 per (CTA, consumer warpgroup).
    pub fn flag_bytes(&self, v: &Sm90Variant) -> u64 {
        (self.slots(v) * 2 * 8).next_multiple_of(256)
    }

    /// Stream-K CTAs: `sk_ctas`, times the cluster for multicast clusters (kernels/sm90/gemm.cuh
    /// `StreamKSlots`).
    fn slots(&self, v: &Sm90Variant) -> u64 {
        self.sk_ctas as u64 * v.multicast_size() as u64
    }

    /// The same schedule counted in CTAs and single tiles (a multicast cluster's units are
    /// `multicast_size` CTAs on as many tiles): the split of each tile and the iterations of
    /// each CTA are unchanged, which is what the cost model charges.
    pub fn in_ctas(&self, v: &Sm90Variant) -> Decomposition {
        let cm = v.multicast_size();
        Decomposition {
            sk_tiles: self.sk_tiles * cm as u64,
            sk_ctas: self.sk_ctas * cm,
            grid: self.grid,
        }
    }
}

/// Rows of a CTA's partial slots in the Stream-K workspace: 64 for each of the kernel's two
/// consumer slots (`StreamKWorkspace::kConsumers`), whatever the tile's block_m.
const PARTIAL_SLOT_ROWS: u64 = 128;

/// One unit of work: k-iterations `k_begin..k_end` of linear tile `tile`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    pub tile: u64,
    pub k_begin: u64,
    pub k_end: u64,
}

/// The units CTA `cta` processes, in order: the kernel's `WorkSchedule::next`. A Stream-K range
/// that starts inside a tile begins with that tile's tail (its k-iterations up to the end);
/// that unit is processed last of the range, so that every CTA starts its range at k = 0 and
/// all CTAs walk k in step (the Stream-K phase then reads one or two k-slices of A and B at a
/// time, as data-parallel waves do, instead of all of them at once).
pub fn work_units(d: &Decomposition, num_tiles: u64, k_iters: u64, cta: u32) -> Vec<Unit> {
    let mut out = Vec::new();
    if cta < d.sk_ctas {
        let (mut pos, end) = (d.range_begin(cta, k_iters), d.range_begin(cta + 1, k_iters));
        let mut tail = None;
        while pos < end {
            let tile = pos / k_iters;
            let stop = ((tile + 1) * k_iters).min(end);
            let u = Unit {
                tile,
                k_begin: pos - tile * k_iters,
                k_end: stop - tile * k_iters,
            };
            if u.k_begin > 0 && u.k_end == k_iters {
                tail = Some(u);
            } else {
                out.push(u);
            }
            pos = stop;
        }
        out.extend(tail);
    }
    let mut t = d.sk_tiles + cta as u64;
    while t < num_tiles {
        out.push(Unit {
            tile: t,
            k_begin: 0,
            k_end: k_iters,
        });
        t += d.grid.max(1) as u64;
    }
    out
}

/// Whether `unit` finishes its tile: its k-range reaches the tile's end. The owner of a split
/// tile (one that does not also start it) adds the other CTAs' partials and runs the epilogue;
/// a unit that ends earlier writes a partial.
pub fn owns_tile(unit: &Unit, k_iters: u64) -> bool {
    unit.k_end == k_iters
}

/// The CTAs whose partials the owner `cta` of `unit` adds, in ascending order (the kernel's
/// `streamk_wait_partials`): those before it whose ranges reach into the tile.
pub fn contributors(d: &Decomposition, k_iters: u64, cta: u32, unit: &Unit) -> Vec<u32> {
    let tile_start = unit.tile * k_iters;
    let mut first = cta;
    while first > 0 && d.range_begin(first, k_iters) > tile_start {
        first -= 1;
    }
    (first..cta).collect()
}

/// The cost model's constants for an H100/H200-class device (per SM), from the H200
/// measurements in BENCHMARKS.md. Dense bf16 peaks at 7.5 TFLOP/s an SM; the mainloop reaches
/// a fraction of it that depends on the tile width (`mainloop_efficiency`).
const SM_PEAK_FLOPS: f64 = 7.5e12;
/// What the overlapped TMA-store epilogue of one tile costs the CTA beyond its mainloop.
const EPILOGUE_S: f64 = 0.6e-6;
/// A Stream-K tile's fixup, for a 128 x 256 tile (scaled by area): the contributor writes its
/// partial and the owner reads each one back, both through the staged epilogue's rounds, and
/// the owner's staged epilogue. Fitted to the H200 runs of 2026-11-29 (session 4, k-aligned
/// Stream-K order): 1664^2 x 8192 all Stream-K ran ~32 us over its mainloop on 128 x 256 tiles
/// and ~17 us on 128 x 128 (one write, one read and one staged epilogue per CTA).
/// Not refitted after session 13 made the owners' fixup cheaper (the partials join the
/// TMA-store epilogue: ~12k cycles instead of ~35k for a 128 x 240 tile, DG_TRACE): `13e`'s
/// `--sweep` measured the Stream-K plans 10-20 us under these constants on 128 x 256 where a
/// CTA's range holds about one tile (1664^2 x 8192 80.9 against 93.0 us, 2432x1792x8192 100.1
/// against 120.0), but ~11.5 us a 128 x 256 tile less would move 3200^2 x 8192 onto 128 x 256
/// sk193 (measured 249.6 us, its data-parallel 128 x 224 plan 229) and 2176^2 x 8192 onto
/// 128 x 128 sk157 (123.7 against 116 for 128 x 160): the model misses something else there
/// that the larger constants absorb, so they stay until it is found.
/// Where the Stream-K tiles are about one a CTA, tiles wider than 128 are charged the 128 x 128
/// tile's fixup (`STREAMK_FIXUP_MAX_AREA`).
const PARTIAL_WRITE_S: f64 = 12e-6;
const PARTIAL_READ_S: f64 = 12e-6;
const STAGED_EPILOGUE_S: f64 = 6e-6;
/// The tile area (in 128 x 256 tiles) past which a Stream-K fixup costs no more, where the
/// Stream-K tiles are at most `STREAMK_FIXUP_CAP_TILES_PER_CTA` a CTA (so every CTA's range
/// starts with the others' and the owners' contributors finish together). Session 16's sweeps
/// of the wave set (H200, `16a`, `16b`) measured the Stream-K plans on tiles 184-256 wide 14-22
/// us under the area-scaled constants above where they held 1.0-1.2 tiles a CTA
/// (2432x1792x8192 on 128 x 256 sk133 99.4 us against 120.0, 6784x1280x8192 184.1 against
/// 205.7, 2176^2 x 8192 on 128 x 248 sk153 114.6 against 129.7), while with more tiles a CTA
/// the area-scaled constants stayed the better fit on large operands (4096x8192x8192 on
/// 128 x 256 sk232, 1.76 a CTA: 708 us, area-scaled model 690, capped 675; its data-parallel
/// plan 692). The 128 x 128 plans measured -8 to +15 us off theirs: their excess is not in
/// the fixup (their Stream-K phase runs slower than its model where A and B exceed the L2,
/// README "Next"), which is why the constants themselves stay.
const STREAMK_FIXUP_MAX_AREA: f64 = 0.5;
const STREAMK_FIXUP_CAP_TILES_PER_CTA: f64 = 1.25;
/// The Stream-K phase of a launch whose ranges cross tiles runs this much slower than the
/// data-parallel rate a k-iteration (H200, session 16 sweeps, `16b`/`16c`): hybrids over
/// operands larger than the L2 ran 2-5% over the model while data-parallel plans of the same
/// shapes ran within 1.3% of theirs (4096x7168x16384: 128 x 248 sk136 1228.8 us, model 1174.1;
/// data-parallel 128 x 256 1195.8, model 1180.2. 3456x4881x8192: 128 x 248 sk144 364.9 against
/// 357.3, data-parallel 128 x 208 360.1 against 357.6). It turns such near-ties to the
/// data-parallel plan, not the clear Stream-K wins (2432x1792x8192, 6784x1280x8192: 6-10%).
const STREAMK_PHASE_FACTOR: f64 = 1.04;
/// What splitting tiles costs a launch besides the fixup work (the owners' waits, the
/// contributors' partial traffic competing with the mainloop). Fitted on the H200, session 3 of
/// 2026-11-29, decode shapes on the narrow tiles: 1x7168x2048 split 56 ways over 112 CTAs ran
/// 19.0 us against 16.0 data-parallel, where the model had them equal. That run still cleared
/// the flags with a memset; without it (epoch flags) the rank-1 timings agree in both
/// directions within 5 us (16x28672x8192: split 3% faster than the chosen data-parallel plan;
/// 64x8192x8192: data-parallel 10% faster than the chosen split), so it stays.
const SPLIT_LAUNCH_S: f64 = 3e-6;
/// A split-K launch's fixup (every CTA range inside one tile), from the owner's mainloop end to
/// its epilogue's end: the hand-off (contributors store their partials and raise their flags,
/// the owner sees them) and, per 128 x 256 of tile area, the reading of each further
/// contributor's partial. Fitted to DG_TRACE phase clocks on the H200 (session 7): 128 x 16
/// tiles with 3 contributors 3.0 us, 128 x 64 with 1 contributor 4.2-5.0 us, with 3 5.4 us.
/// (The constants above, fitted to Stream-K launches whose owners wait for contributors that
/// are still finishing other tiles, made these 2-3x too expensive: the model chose 64x2112x7168
/// on 128 x 16 tiles, 27.6 us, over 128 x 64 split 17 x 68, 21.6 us.)
const SPLITK_HANDOFF_S: f64 = 2.5e-6;
/// Each further contributor of a split-K tile, whatever its size (its flag and partial reach the
/// owner through L2 under the other CTAs' streaming): past ~4 per tile the sweeps stop
/// improving (1x2112x7168 on 128 x 16: 4 per tile 17.9 us, 5-7 18.7-19.6).
const SPLITK_CONTRIBUTOR_S: f64 = 0.3e-6;
/// Fitted on tiles up to 64 wide (SPLITK_FITTED_MAX_N), and charged to even splits (each CTA
/// range inside one tile) whatever the width: H200, session 17 (`17e`, `17f` sweeps), launches
/// of under a wave
/// split evenly ran 14-24% faster than the data-parallel plans the Stream-K constants had chosen
/// (432x1736x5600: 128x128 sk56x112 26.0 us against 128x64 33.6; 864x736x4704: 128x96 sk56x112
/// 21.0 against 24.5), while uneven splits of the same tiles (sk56x132: ranges across tiles) ran
/// 20% slower. Session 17 kept the Stream-K constants where A + B exceed the L2; session 18's
/// sweeps (`18b`) measured those even splits 4-20 us under them (632x2104x13544, 74 MB: 128x240
/// sk45x90 78.7 us against 98.0; 496x1000x11400, 34 MB: 128x144 sk28x84 44.9 against 55.2),
/// where the ones in the L2 ran 0-5 us over theirs. Charged so (`18c`) they ran 11-21% faster
/// (632x2104x13544 89.4 -> 78.0 us, 1184x808x7832 54.4 -> 43.2, 296x1224x11176 45.0 -> 36.7),
/// but launches with one tile row or column (small m or n: 128x4096x14336 on 128x128 sk32x128,
/// 46.7 against the split-K pairs' 42.8; 4096x128x7168 30.6 against 25.8) and hybrids (an even
/// Stream-K tail after data-parallel waves: 4208x2215x6912 on 128x248 sk33x132, 184.2 against
/// 171.9 data-parallel) ran 4-19% slower: those keep the Stream-K constants where A + B exceed
/// the L2.
const SPLITK_READ_S: f64 = 2e-6;
/// The widest tile the split-K constants were fitted on (the decode shapes' narrow tiles), where
/// they apply at any operand size.
const SPLITK_FITTED_MAX_N: u32 = 64;
/// A split-K cluster (kernels/sm90/gemm.cuh `kSplitK`): the last tile's hand-over (one CTA's
/// consumer stores its 64 x block_n partial into the peer's shared memory, which adds it), and
/// what one of its CTAs streams. Fitted on the H200 (session 11, `11d`, small-M set, against
/// main's global split-K with as many CTAs): 0.2-3.3 us faster (64x4096x4096 20.7 against
/// 22.6 us, 64x7168x16384 71.3 against 74.6, 127x4095x4096 22.0 against 23.1), where the
/// global fixup is charged 3.3-4.8 us; 0.5-1.3% slower than data-parallel plans of half as
/// many CTAs (1x7168x16384 71.2 against 70.5), which 1.5 us keeps; and where the pairs replace a
/// split over more CTAs they lose (128x2112x7168: 66 CTAs 24.6 us against 132 CTAs 21.3;
/// 1x2112x7168: 34 against 68, 20.1 against 18.0): a pair's CTA streamed its 1-1.4 MB at
/// ~65-70 GB/s, not the 100 GB/s of `SM_LOAD_BYTES_PER_S`.
const SPLIT_CLUSTER_HANDOFF_S: f64 = 1.5e-6;
const SPLIT_CLUSTER_LOAD_BYTES_PER_S: f64 = 70e9;
/// HBM bandwidth the whole device streams at in practice (bytes/s).
const HBM_BYTES_PER_S: f64 = 4.0e12;
/// L2 bytes the operands of concurrently running tiles can share (the H200 has 60 MiB).
const L2_REUSE_BYTES: f64 = 30e6;

/// The fraction of the SM's peak the mainloop of a 128 x `block_n` tile reaches, measured on
/// the H200. Session 4, the data-parallel wave set: one k-iteration took 0.652 us at 128 x 256,
/// 0.521 at 128 x 192, 0.353 at 128 x 128, the same over 1-5 waves. Session 5, the fill widths
/// (`sm90::FILL_TILES`), from the model-to-measurement ratios of `deepgemm-bench --sweep` on
/// 1664^2, 2176^2 and 2432x1792 x 8192, 4096x2112x7168 and 3000x1000x4000: 144 and 160 run
/// below 128's rate (0.71-0.80 and 0.72-0.76: 144 at its lower figure, which decided the choice
/// they lost), 176 at 0.80-0.82, 208-240 at 0.85-0.87 on one wave (fewer SMs busy: 91-104
/// tiles; taken a little lower). 96 and 112 are not measured: between 64 and 128. The widths in
/// steps of 8 (session 16) are interpolated: 168 measured 62.0 us at 1664^2 (model 62.3), 152
/// 111.9-123.5 at 2176^2 (model 118.9), 216 219.7-223.3 at 3200^2 (model 221.9); 136 ran like
/// 144 at 448x4480x4608 (35.8 us against 35.9), under the 0.75 interpolated here.
fn mainloop_efficiency(block_n: u32) -> f64 {
    const MEASURED: [(u32, f64); 10] = [
        (64, 0.55),
        (128, 0.79),
        (144, 0.71),
        (160, 0.76),
        (176, 0.80),
        (192, 0.80),
        (208, 0.83),
        (224, 0.84),
        (240, 0.85),
        (256, 0.86),
    ];
    if block_n <= MEASURED[0].0 {
        return MEASURED[0].1;
    }
    for w in MEASURED.windows(2) {
        let ((n0, e0), (n1, e1)) = (w[0], w[1]);
        if block_n <= n1 {
            return e0 + (e1 - e0) * (block_n - n0) as f64 / (n1 - n0) as f64;
        }
    }
    MEASURED[MEASURED.len() - 1].1
}

/// The column-split 192 x `block_n` tiles' mainloop efficiency (`sm90::COLUMN_SPLIT_TILES_N`).
/// First set before any GPU run: 128 x 256's 0.86 scaled by the mainloop probe's cycles a
/// 128 x 128 block of D (scripts/probes/tile-forms.cu, session 69, lines aligned: 610 at
/// 128 x 256, 579 at 192 x 192, 640 at 192 x 160; 176 between), the 192-wide figure held back
/// from the probe's 0.906 to 0.88 (the probe has no epilogue): 0.82 / 0.85 / 0.88. Then each
/// scaled by 0.943 to session 71's sweep (`71b`, H100): on long multi-wave shapes 192 x 192 ran
/// 1.10x its estimate where 128 x 256 ran 1.063x (8016x4536x2416: 248.2 us against 245.7),
/// 192 x 176 1.16x where 128 x 240 in 2 x 1 ran 1.10x (5144x6656x2248: 236.8 against 235.1).
fn column_split_efficiency(block_n: u32) -> f64 {
    match block_n {
        ..=160 => 0.77,
        161..=176 => 0.80,
        _ => 0.83,
    }
}

/// The wide ping-pong tiles' mainloop efficiency (`sm90::WIDE_PINGPONG_TILES_N`: one consumer
/// warpgroup's two m64n128 wgmmas a k-slice while the other stores). Measured (session 76,
/// H100, DG_TRACE at 4096³, consumer 0's first tile): 633 cycles a 64-deep k-step of its 128 x
/// 128 tile against 530 a 128 x 128 half of 128 x 256's 1,060, so 128 x 256's 0.86 x 0.837 =
/// 0.72 (it was set at the cooperative 128 x 128's 0.79 before any run; the mainloop probe's
/// 256 x 128 with two m64 blocks a consumer ran at 128 x 256's rate, but with one warpgroup
/// issuing a tile's wgmmas the pipe idles between them). Set A ran at 0.81 of the default
/// plans (`76a`), so these tiles stay request-only (`DEEPGEMM_PINGPONG=1`).
const WIDE_PINGPONG_EFFICIENCY: f64 = 0.72;

/// What a column-split launch costs beyond the model's other tiles: `COLUMN_SPLIT_LAUNCH_S` once
/// and `COLUMN_SPLIT_EPILOGUE_S` a wave beyond `EPILOGUE_S` (each consumer stores its three
/// 64-row blocks one after another). Fitted (least squares, affine in the waves) to session
/// 71's sweep (`71b`, H100, the 19 shapes of `colsplit-70-moved`: each column-split
/// candidate's measured-minus-modelled time against the median of the other candidates' on
/// the shape): 2.0 us + 0.74 a wave, ~2 us on one wave to ~10 on five to eight short-k waves
/// (residual 3.3 us rms: the sweep's noise on 20-50 us launches).
const COLUMN_SPLIT_LAUNCH_S: f64 = 2.0e-6;
const COLUMN_SPLIT_EPILOGUE_S: f64 = 0.75e-6;

/// How much slower an unclustered tile whose B is N-major (TT, NT) ran than its cluster-of-2
/// twin, whose B tile is multicast (session 5, H200, 1000x3000x4000 and 3000x1000x4000 TT:
/// 1.06-1.34x over the 128, 192 and 256 wide tiles; the same shapes TN and NN showed no such
/// gap). Charged so that the multicast variant ranks first.
const MN_B_UNCLUSTERED_FACTOR: f64 = 1.15;
/// The same where A is MN-major too (NT), on tiles 128+ wide: session 37's sweeps (`37b`, `37d`,
/// H200, random-k8 and random-21d NT) timed unclustered tiles at 0.98-1.04 of their 2 x 1 twin's
/// time (median by width: 128 1.04, 192 0.98-1.00, 256 0.99-1.01) where 1.15 had them at 1.13
/// (NT's clusters are charged no start); 1.04 scored random-k8 NT 1.021 -> 1.017 and random-21d
/// NT 1.021 -> 1.017 of the fastest timed (1.0: 1.010 and 1.020, its ties flipping to 1 x 1 lost
/// up to 1.17). Narrower tiles keep 1.15: there it moved only decode-shaped splits, unswept.
/// Measured (`37g`, the 14 NT shape-layouts of the kept sets it moves, against the build before,
/// alternating twice): 0.931 of the time (3624x2688x9944 357.8 -> 292.4 us, 4208x2215x6912
/// 229.2 -> 195.6, 128x7168x16384 86.8 -> 75.1; worst 320x3848x12376 66.7 -> 70.5). (The
/// 292.4 us plan, 128 x 256 sk55x132, is the hybrid form the automatic list dropped in session
/// 58; 3624x2688x9944 NT now plans 128 x 192 in 2 x 1 with sk78x66: `58c`, 310.9 us.)
const MN_MN_UNCLUSTERED_FACTOR: f64 = 1.04;
/// The 128 x 128 tile whose kernel reads an N-major B (the user's NT and TT run directly, and
/// NN computed transposed), alone or in clusters of 2 x 1 (not 2 x 2; nor the opt-in 128-deep
/// stages, unmeasured and faster in session 44's probe), on top of the unclustered tiles' own
/// factors (so their ratio to the 2 x 1 twin is unchanged),
/// runs its mainloop slower than the width's efficiency says, increasingly so as k grows: over
/// the interleaved sweeps of large shapes (`57c`, `58a`, H100) the 2 x 1 plans measured
/// 1.23-1.29x their estimates by median relative to the other candidates of the same shape
/// (62 plans; 128 x 192 and 256 in 2 x 1 at 0.98-1.03, 128 x 128 in 2 x 2 at 0.97-1.00), and
/// `49a`'s TT sweeps 1.10-1.25x from k = 4000 (0.8-1.0 under k = 1000, where the epilogue
/// dominates). NT 3624x2688x9944: 404 us on it, 284 on 128 x 256 in 2 x 1 (`58b`). Charged
/// to the unclustered tile too: on the 2 x 1 tile alone it moved NT plans onto the unclustered
/// one, which ran 0.95-1.18x the time (`58c`).
const MN_B_128_FACTOR: f64 = 1.2;

/// What a cluster-of-2 launch measured over its model where the model otherwise held (session
/// 17, the L2-request-bound TN/NN 2048x2048x8200 and TN 4096x4096x4104 on 128x256: +3.7 to
/// +4.0 us; the kernel starts ~1,200 cycles later, session 11). Charged once, so that where the
/// L2 requests do not bound the launch the unclustered variant keeps its place (NN
/// 1000x3000x4000 on 128x192: 40.5 us unclustered, 46.6 in clusters).
const CLUSTER_START_S: f64 = 4e-6;
/// The same for clusters of 2 x 2 (A and B multicast), and a tie-break towards them where both
/// operands are MN-major (NT, which is charged no start): session 37's sweeps of every heuristic
/// candidate on main's kernels (H200, `37b`: random-21d TN, random-k8 NN / TT / NT, the 54 TT
/// shapes planned as NN transposed) put 2 x 2 launches 7-20% under their estimates against
/// the unclustered ones of the same shape in TN, NN and TT (~3 us on launches under 40 us)
/// and 1-8% under the 2 x 1 twin of the same tile in NT (1704x760x2680 NT on 128x128: 21.2 us
/// in 2 x 2, 24.4 in 2 x 1). Scored on those sweeps (scripts/plan-regret.py, chosen / fastest
/// timed): TN 1.024 -> 1.021, NN 1.023 -> 1.018, TT 1.016 -> 1.011, the TT set 1.016 ->
/// 1.014, NT 1.036 -> 1.025. (No start at all for 2 x 2 scored worse: 1.022, 1.017, 1.014,
/// 1.019.) Measured (`37c`, the 84 shape-layouts of the kept sets it moves, against the build
/// before, alternating twice): 0.950 of the time (TN 0.907, NN 0.851, TT 0.951, NT 0.964; worst
/// 960x3464x4032 TT 1.058), e.g. TN 1240x1440x1816 22.2 -> 17.9 us, NT 1048x1328x7360 54.9 ->
/// 45.1. A 2 us start for every cluster of 2 x 1 scored worse on TT (1.016 -> 1.024: TT's
/// 2 x 1 then displace NN-transposed plans that ran faster), so 2 x 1 keeps its 4 us.
const CLUSTER_2X2_START_S: f64 = 2e-6;
/// See CLUSTER_2X2_START_S: NT's tie-break from 2 x 1 to 2 x 2 (a factor: NT charges no start).
const CLUSTER_2X2_MN_FACTOR: f64 = 0.99;
/// Clusters of 2 x 1 for an M-major A and a K-major B (NN, and TT computed as NN transposed):
/// session 37's sweeps (`37b`, `37d`, H200) put them 2-4% under their estimates against the
/// unclustered plans of the same NN shapes (1120x2080x4920: 39.4 us on 128x160 in 2 x 1 against
/// 45.0 on 128x176); a 3 us start scored random-k8 NN 1.018 -> 1.011 and random-21d NN 1.027 ->
/// 1.025 of the fastest timed (2 us: 1.012, 1.024, but more TT moves unscored).
const CLUSTER_NN_START_S: f64 = 3e-6;
/// The same for clusters along n (1 x 2, 1 x 4: A multicast, tiles under 128 wide), fitted to
/// `21a`'s sweeps (H200): where the L2 requests do not bound the launch they ran 0.2-0.7 us
/// over their unclustered twin (336x1912x1536 on 128x64: 12.2 us unclustered, 12.4 in 1 x 2,
/// 12.9 in 1 x 4); scored against those sweeps (scripts/sweep-regret.py), 1 us chose best
/// (under-wave 1.028 of the fastest measured, k-alignment 1.037; at 4 us 1.049 and 1.047, at
/// 0 1.030 and 1.038).
const CLUSTER_N_START_S: f64 = 1e-6;

/// What one SM's loads sustained under the ping-pong tiles (H200, session 6, set A swept:
/// 64x256 at 4096^3 195 us for 8 tiles of 64 k-steps per CTA, 40 KiB each: 107 GB/s; 64x128
/// 105 GB/s): their mainloop is bound by it, not by the tensor cores. (They run only when
/// forced; this keeps their ranking among themselves as measured.)
const PINGPONG_LOAD_BYTES_PER_S: f64 = 107e9;

/// Bytes per second one SM's TMA loads sustain (L2 hits or HBM): a bound only for the narrow
/// tiles, whose stages carry little math per byte (a 128x256 stage, 48 KiB in 0.652 us, loads
/// at 74 GB/s).
const SM_LOAD_BYTES_PER_S: f64 = 100e9;

/// Bytes per second all SMs together pull through TMA (L2 hits or not) when the loads, not the
/// math, bound the mainloop: every tile loads its A and B panels whole, so a problem's load
/// traffic is tiles x k-iterations x stage bytes. Fitted on the H200 to the narrow tiles
/// (4096x128x14336 on 128x32 tiles: 587 MB in 68 us, 8.6 TB/s). The wide tiles are not bound by
/// it: B multicast in clusters of 2 cut 4096^3's loads from 1.6 GB to 1.1 GB and changed
/// nothing (BENCHMARKS.md).
const L2_LOAD_BYTES_PER_S: f64 = 9.5e12;
/// The same when several narrow tile columns each stream the whole of an A larger than the L2
/// can share (the weights of a decode GEMM, swapped): 64x7168x16384 on 128 x 32 tiles, two
/// columns, loaded 573 MB in 92 us (6.2 TB/s; session 7), against the 75 us of one 64-wide
/// column split over k.
const L2_RELOAD_BYTES_PER_S: f64 = 6.2e12;
/// The A from which that reload rate is charged, about half of `L2_REUSE_BYTES`: 64x7168x2048
/// (A 29 MB) on two 128 x 32 columns measured 18.7 us against 15.8 on one 128 x 64 column
/// (session 12, `12b`'s sweep), which the plain load rate had ranked the other way.
const L2_RELOAD_MIN_BYTES: f64 = 16e6;

/// L2 requests one TMA load of a 128-byte line costs, by where the line starts in its 128-byte
/// L2 line: at the start, at another 32-byte sector boundary, or in the middle of a sector
/// (a row pitch of an odd multiple of 16 bytes: a 16-bit leading dimension of 8 mod 16). Nsight
/// Compute on the H200 (session 17, 2048x2048 TN on 128x256 tiles): 4.28M requests at k = 8192,
/// 15.9M at k = 8200; 128x144 tiles at k = 8352 (pitch 64 mod 128) ran as if at 1.53 a line on
/// average (the figure here is taken lower: at 2.38, 1000x3000x4000 on 128x192 would be bound
/// by requests and ranked onto clusters, which measured slower there in session 11).
/// Mid-sector lines cost 3.7 under 256-byte L2 promotion; with the 128-byte promotion such
/// operands get since session 18 (`runtime::tensor_map`), 3.1: 2048x2048x8200 on 128x256 ran
/// 125.6 us (model 126.2), 1904x1848x14376 on 128x232 188-194 (217 at 3.7); scored against
/// `18b`'s sweeps (scripts/sweep-regret.py), 3.1 chose better than 3.4 or 3.7.
const LINE_REQUESTS_ALIGNED: f64 = 0.68;
const LINE_REQUESTS_SECTOR: f64 = 1.6;
const LINE_REQUESTS_MID_SECTOR: f64 = 3.1;
/// L2 requests per second the H200 served where they bound a launch: 2048x2048x8200 TN on
/// 128x256 tiles took 140 us for 15.9M (and ran 1.6x its k = 8192 time, which it takes for 4.3M);
/// 1040x4141x8344 on 128x144 tiles 201 us, where these constants give 207.
const L2_REQUESTS_PER_S: f64 = 114e9;

/// Average L2 requests per 128-byte line of an operand whose lines are `pitch` bytes apart (a
/// multiple of 16, TMA's rule): the lines cycle through at most 8 offsets within 128 bytes.
pub fn line_requests(pitch: u64) -> f64 {
    (0..8u64)
        .map(|r| match (r * pitch) % 128 {
            0 => LINE_REQUESTS_ALIGNED,
            o if o % 32 == 0 => LINE_REQUESTS_SECTOR,
            _ => LINE_REQUESTS_MID_SECTOR,
        })
        .sum::<f64>()
        / 8.0
}

/// Seconds the L2 needs to serve every TMA load request of `v` on `p`: a bound only where the
/// operands' lines start off the 32-byte sectors (the requests per line treble), which an
/// aligned problem never reaches (4096^3 on 128x256 asks ~47G requests a second). Each CTA of a
/// cluster of 2 loads half of the multicast B tile. An M-major A with a K-major B (NN) is
/// charged by its pitch like the others since session 18: session 17 had charged it as aligned
/// (its lines off the sectors had measured 3-5% under the 256-byte promotion), which `18e`'s NN
/// sweeps of random-k8 scored at 1.051 of the fastest measured plan's time against 1.021
/// charged (scripts/sweep-regret.py; unclustered NN plans had run 1.5x their estimates, the
/// clustered ones 1.09x), and `18f` measured NN random-k8 0.954 of the time before (1208x784x15024
/// 86.8 -> 63.5 us, 3688x1336x4584 104.4 -> 83.6). With an N-major B too (NT) the same charge
/// measured 1.015 (632x2104x13544 86.6 -> 113.2 on 128x128 clusters), so A stayed charged as
/// aligned there until session 37: on main's kernels (`37b`/`37d` sweeps, H200) NT's chosen
/// 128x128 clusters ran up to 1.33x the fastest candidate on large shapes whose A lines start
/// mid-sector (3320x2952x13488: 487.6 us against 403.9 on 128x256 in 2 x 2), and charging A by
/// its pitch scored random-21d NT 1.025 -> 1.021 and random-k8 NT 1.025 -> 1.021 of the
/// fastest timed (scripts/plan-regret.py), moving nothing in the other layouts. Measured (`37e`,
/// the 28 NT shape-layouts of the kept sets it moved, alternating twice against the build
/// before): 0.955 of the time; the 12 onto tiles 128+ wide 0.898 (2088x2720x7952 173.9 -> 131.2
/// us, 3320x2952x13488 486.7 -> 402.7), the 16 that only re-split 128x64 tiles or took 1 x 2
/// clusters 0.999 (280x696x5096 19.2 -> 22.4, 2072x344x1840 18.3 -> 15.3): under 128 wide
/// A stays charged as aligned.
fn l2_request_s(v: &Sm90Variant, p: &GemmProblem, dev: &DeviceSpec) -> f64 {
    let k_iters = p.k.div_ceil(v.block_k as u64).max(1);
    let requests = (v.num_tiles(p) * k_iters) as f64 * requests_per_iteration(v, p);
    requests / (L2_REQUESTS_PER_S * dev.sm_count.max(1) as f64 / 132.0)
}

/// The L2 requests of one CTA's k-iteration of `v` on `p` (its share of a multicast tile's).
/// NT's A on tiles under 128 wide: still as aligned (`37e`, `l2_request_s`).
fn requests_per_iteration(v: &Sm90Variant, p: &GemmProblem) -> f64 {
    let Ok((lda, ldb)) = v.leading_dims(p) else {
        return 0.0;
    };
    let elem = v.ab.size_bytes() as u64;
    let lines = |rows: u32| (rows * v.block_k) as f64 * elem as f64 / 128.0;
    let a_requests = if v.major_a == Major::MN && v.major_b == Major::MN && v.block_n < 128 {
        LINE_REQUESTS_ALIGNED
    } else {
        line_requests(lda.unsigned_abs() * elem)
    };
    lines(v.block_m) / v.cluster_n.max(1) as f64 * a_requests
        + lines(v.block_n) / v.cluster_m.max(1) as f64 * line_requests(ldb.unsigned_abs() * elem)
}

/// L2 requests per second one SM's loads get served: `L2_REQUESTS_PER_S` shared by the H200's
/// 132 SMs it was fitted on (on full waves, where the two bounds agree). Under a wave or on
/// uneven splits the busiest CTA's own requests bound it (session 64, H100: 5888x280x5640 TN,
/// 92 tiles of 128 x 144 over 132 SMs, lines mid-sector: data-parallel 71.9 us where the
/// whole-L2 bound put it at 47.0, Stream-K over all 132 SMs 56.5; at k = 5632, aligned lines,
/// 45.7).
const SM_L2_REQUESTS_PER_S: f64 = L2_REQUESTS_PER_S / 132.0;

/// Seconds for one k-iteration of variant `v` on one SM computing `p`: its math, or loading
/// its stage, whichever is slower.
pub fn iteration_s(v: &Sm90Variant, p: &GemmProblem) -> f64 {
    let flops = 2.0 * v.block_m as f64 * v.block_n as f64 * v.block_k as f64;
    let rate = if v.ab.size_bytes() == 4 {
        SM_PEAK_FLOPS / 2.0 // tf32 runs at half the 16-bit rate
    } else {
        SM_PEAK_FLOPS
    };
    let efficiency = if v.column_split() {
        column_split_efficiency(v.block_n)
    } else if v.wide_pingpong {
        WIDE_PINGPONG_EFFICIENCY
    } else {
        mainloop_efficiency(v.block_n)
    };
    let mut math = flops / (rate * efficiency);
    if v.major_b == Major::MN && v.cluster_m == 1 {
        math *= if v.major_a == Major::MN && v.block_n >= 128 {
            MN_MN_UNCLUSTERED_FACTOR
        } else {
            MN_B_UNCLUSTERED_FACTOR
        };
    }
    if v.major_b == Major::MN
        && v.cluster_n == 1
        && v.block_m == 128
        && v.block_n == 128
        && !v.deep()
    {
        math *= MN_B_128_FACTOR;
    }
    let load_rate = if v.pingpong() || v.solo() {
        PINGPONG_LOAD_BYTES_PER_S
    } else {
        SM_LOAD_BYTES_PER_S
    };
    // Tiles under NARROW_STAGE_MIN_N wide load a stage in the time a 64-wide one does, where
    // they are a slice of a wider n (not decode's one tile column, which the HBM bounds).
    let stage_bytes = if p.n > v.block_n as u64 {
        Sm90Variant {
            block_n: v.block_n.max(NARROW_STAGE_MIN_N),
            ..*v
        }
        .stage_bytes()
    } else {
        v.stage_bytes()
    };
    let requests = if sm_requests() {
        requests_per_iteration(v, p) / SM_L2_REQUESTS_PER_S
    } else {
        0.0
    };
    math.max(stage_bytes as f64 / load_rate).max(requests)
}

/// `DEEPGEMM_SM_REQUESTS=1`: each k-iteration is bound by its CTA's own L2 requests too
/// (`SM_L2_REQUESTS_PER_S`), not only the launch by all of them (`l2_request_s`): under a wave
/// of tiles whose lines start mid-sector the busiest CTA's requests, not the whole L2's, set
/// the pace. Off: session 64 (`64b`, H100) timed the 375 shape-layouts of the kept sets it
/// moves at 0.987-1.020 of the time by layout (large under-a-wave ones to 0.76, decode-like
/// ones to 1.5x). Read once.
pub fn sm_requests() -> bool {
    static F: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
        std::env::var("DEEPGEMM_SM_REQUESTS").is_ok_and(|v| v.trim() == "1")
    });
    *F
}

/// A data-parallel launch of one tile a CTA, with a long k (`ONEWAVE_REQUESTS_MIN_K_ITERS`) and
/// m and n of at least `ONEWAVE_REQUESTS_MIN_MN`, is bound by its CTA's own L2 requests at
/// `SM_L2_REQUESTS_PER_S` x SCALE (`sm_requests`' bound, narrowed to where session 64's timings
/// gained): SCALE `ONEWAVE_REQUESTS_SCALE`, or `DEEPGEMM_ONEWAVE_REQUESTS=SCALE` (`0`: off).
/// Session 67 (`67a`, H100, Nsight Compute): 5888x280x5640 TN on 92 tiles of 128 x 144 made
/// 69.8k requests a CTA in 70.6 us, cuBLASLt's 124 CTAs of 192 x 72 in 1 x 2 37.7k in 44.5 us:
/// 0.85-1.0G a second a CTA, whatever the whole L2 could serve. In sample on `64b`'s timings
/// (SCALE 1.0: TN 0.972 of the time over 13 moves, NN 0.993 over 11, TT 0.934 over 3); out of
/// sample (`67c`, H100, 400 fresh shapes, on against off alternating twice): SCALE 1.0 moved 118
/// shape-layouts, 0.966 of the time in TN (39), 0.963 NN (54), 0.968 TT (20), 0.983 NT (5);
/// SCALE 1.2 moved 26, 0.879 / 0.928 / 0.880 (TN / NN / TT). Read once.
pub fn onewave_requests() -> Option<f64> {
    static F: once_cell::sync::Lazy<Option<f64>> =
        once_cell::sync::Lazy::new(|| match std::env::var("DEEPGEMM_ONEWAVE_REQUESTS") {
            Ok(v) => v
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s > 0.0),
            Err(_) => Some(ONEWAVE_REQUESTS_SCALE),
        });
    *F
}

/// See `onewave_requests`: the default SCALE (more moves than 1.2's, each smaller: over `67c`'s
/// moves 1.0 saved more time in all).
const ONEWAVE_REQUESTS_SCALE: f64 = 1.0;

/// See `onewave_requests`: the shortest k-loop (iterations) and the smallest m and n it binds.
/// Below them session 64's per-CTA bound moved small launches, whose pace is latency, onto
/// slower plans (336x2216x1328 TN 1.23x, decode shapes to 1.5x).
const ONEWAVE_REQUESTS_MIN_K_ITERS: u64 = 64;
const ONEWAVE_REQUESTS_MIN_MN: u64 = 256;

/// The busiest CTA's own L2-request time on a one-wave data-parallel launch (`onewave_requests`),
/// or 0 where the bound does not apply.
fn onewave_request_s(
    v: &Sm90Variant,
    p: &GemmProblem,
    d: &Decomposition,
    tiles: u64,
    grid: u64,
    k_iters: u64,
    scale: f64,
) -> f64 {
    let applies = d.sk_tiles == 0
        && v.split_k <= 1
        && tiles <= grid
        && k_iters >= ONEWAVE_REQUESTS_MIN_K_ITERS
        && p.m >= ONEWAVE_REQUESTS_MIN_MN
        && p.n >= ONEWAVE_REQUESTS_MIN_MN;
    if !applies {
        return 0.0;
    }
    k_iters as f64 * requests_per_iteration(v, p) / (SM_L2_REQUESTS_PER_S * scale) + EPILOGUE_S
}

/// See `iteration_s`: over the kept TN sweeps (scripts/sweeps, session 24) the 128x16 and 128x32
/// plans measured 1.35-1.56x their estimates, the 128x64 ones 1.09-1.20x: a narrow tile's stage
/// costs about a 64-wide one's (its A tile, 16 KiB, is most of the stage either way). Charged
/// on every shape, decode's scored 1.042 of the fastest timed (1.008 without): not there.
/// H200 (`24i`, the 33 shape-layouts it moved over every kept set, against 5e972a0 alternating
/// twice): 0.969 of the time before; moves onto 64-wide tiles and split-K pairs 0.77-0.94
/// (752x336x1408 TT 13.6 -> 10.6 us, 552x224x9216 TN 20.9 -> 18.5), short-k moves from 128x16
/// to 128x32 and splits over a few more CTAs of the same tile 1.01-1.10 (656x288x560 TT 9.3 ->
/// 10.2). Sparing 128x16 (a floor from 32 wide) moved those back but also undid wins
/// (320x600x1704 NN 0.85) and moved an unmeasured one: not taken.
const NARROW_STAGE_MIN_N: u32 = 64;

/// Seconds per k-iteration in the Stream-K phase of `d`. Every CTA walks its range from k = 0
/// (kernels/sm90/scheduler.cuh), so while each CTA holds at most about two tiles' worth of
/// iterations the CTAs read the same one or two k-slices of A and B at a time, as data-parallel
/// waves do, and the operands stay in L2 (H200, 1664^2 x 8192 on 128 x 256 tiles: 62 MB of
/// DRAM reads against 55 data-parallel). With more tiles per CTA, the tiles one CTA computes
/// in turn are far apart in the matrix and their panels are reused only a tile's duration
/// later: when those panels do not fit in L2, the loads come from HBM (3200^2 x 8192 all
/// Stream-K on 128 x 128 tiles: 843 MB of DRAM reads against 260, 0.31 ms against 0.23).
fn streamk_iteration_s(v: &Sm90Variant, p: &GemmProblem, d: &Decomposition, k_iters: u64) -> f64 {
    let it = iteration_s(v, p);
    let ctas = d.sk_ctas.max(1) as u64;
    let per_cta = d.sk_tiles * k_iters / ctas;
    if per_cta <= 2 * k_iters {
        return it;
    }
    let m_tiles = p.m.div_ceil(v.block_m as u64).max(1);
    let n_tiles = p.n.div_ceil(v.block_n as u64).max(1);
    let group = m_tiles.min(crate::plan::sm90::group_m_for(v, p) as u64);
    let rows = m_tiles.min(d.sk_tiles);
    let cols = n_tiles.min(d.sk_tiles.div_ceil(group));
    let elem = v.ab.size_bytes() as f64;
    let panel = |tiles: u64, width: u32| tiles as f64 * width as f64 * p.k as f64 * elem;
    // Only panels read by more than one tile need L2 to hold them.
    let reused = if cols > 1 {
        panel(rows, v.block_m)
    } else {
        0.0
    } + if rows > 1 {
        panel(cols, v.block_n)
    } else {
        0.0
    };
    if reused <= L2_REUSE_BYTES {
        return it;
    }
    it.max(ctas as f64 * v.stage_bytes() as f64 / HBM_BYTES_PER_S)
}

/// Whether a hybrid's Stream-K phase (`d` in CTAs, after `dp_tiles` data-parallel tiles) runs
/// at the data-parallel rate though its ranges cross tiles (elsewhere `STREAMK_PHASE_FACTOR`
/// over it): over clusters of 2 x 1 with a K-major B (TN, NN), in the form with at least a
/// tile's work a CTA (the last partial wave plus a full one). Session 57 timed every candidate
/// interleaved: at 24 random large TN shapes (`57b`, H200, the 128x256 tile's plans) the
/// data-parallel twins about tied where lines start on 32-byte sectors (c2x1 / c1x1 1.007 in
/// bf16, 0.999 in tf32), while the hybrid over clusters ran 0.997 (bf16, 7 shapes) and 0.991
/// (tf32, 19) of the unclustered hybrid's time, which the model had 0.1-3% slower; B's
/// multicast halves the L2 requests that the crossings' scattered k-slices make. Out of sample
/// (`57c`, H100, fresh large shapes, old and new first plans timed interleaved), the moves of
/// this form: tf32 TN 0.959 of the time (17; 1.053 -> 1.099x cuBLASLt), bf16 NN 0.967 (7), TN
/// 0.974 (3). Not with an N-major B, whose clusters the model already favours
/// (`MN_B_UNCLUSTERED_FACTOR`): there it moved data-parallel cluster plans onto hybrids for
/// nothing (NT 0.996, 8) or worse (TT 1.013, 8: 11392x2064x8792 1.17). Not the form with fewer
/// Stream-K tiles than CTAs, the slower of the two (`scripts/hybrid-pairs.py`), nor a launch
/// of one to two waves, whose other hybrid has no data-parallel tiles (a review found the
/// first form discounting the small one alone there).
fn crossings_free(v: &Sm90Variant, d: &Decomposition, dp_tiles: u64) -> bool {
    v.cluster_m == 2
        && v.cluster_n == 1
        && v.major_b == Major::K
        && dp_tiles > 0
        && d.sk_tiles >= d.sk_ctas as u64
}

/// Modelled seconds for `v` running `p` with decomposition `d` on `dev`: the busiest CTA's
/// mainloop, epilogues and fixup, and never below the time to stream A, B and D from HBM once.
pub fn estimate_s(v: &Sm90Variant, p: &GemmProblem, d: &Decomposition, dev: &DeviceSpec) -> f64 {
    let d = &d.in_ctas(v);
    let tiles = v.num_tiles(p);
    let k_iters = p.k.div_ceil(v.block_k as u64).max(1);
    let it = iteration_s(v, p);
    let area = v.block_m as f64 * v.block_n as f64 / (128.0 * 256.0);
    // A and B, each read once.
    let operand_bytes = (p.m + p.n) as f64 * p.k as f64 * p.batch as f64 * v.ab.size_bytes() as f64;
    // A split-K cluster computes a tile with `split_k` CTAs, each a share of its k-loop at
    // its own load rate; the last tile's hand-over is exposed like a fixup (earlier ones
    // overlap the next tile's loads).
    let split = v.split_k.max(1) as u64;
    let (tile_iters, tile_it, handoff) = if split > 1 {
        let it = it.max(v.stage_bytes() as f64 / SPLIT_CLUSTER_LOAD_BYTES_PER_S);
        (k_iters.div_ceil(split), it, SPLIT_CLUSTER_HANDOFF_S)
    } else {
        (k_iters, it, 0.0)
    };
    let grid = (d.grid.max(1) as u64 / split).max(1);
    // Data-parallel phase: whole tiles, dealt round-robin.
    let dp_tiles = tiles - d.sk_tiles.min(tiles);
    let dp_waves = dp_tiles.div_ceil(grid) as f64;
    let (epilogue, launch) = if v.column_split() {
        (EPILOGUE_S + COLUMN_SPLIT_EPILOGUE_S, COLUMN_SPLIT_LAUNCH_S)
    } else {
        (EPILOGUE_S, 0.0)
    };
    let mainloop = tile_iters as f64 * tile_it;
    let mut busiest = if v.wide_pingpong {
        // The consumers' mainloops take the tensor pipe in turn and each tile's epilogue runs
        // under the other consumer's next mainloop: a tile costs its mainloop, or half its
        // mainloop and epilogue where the epilogue is the longer; the last one is exposed.
        dp_waves * mainloop.max((mainloop + epilogue) / 2.0) + epilogue + launch
    } else {
        dp_waves * (mainloop + epilogue) + launch
    };
    // A fixup of split tiles starts when the mainloops end, after the operands have streamed
    // in: it adds to the HBM floor below instead of hiding under it.
    let mut fixup = handoff;
    if d.sk_tiles > 0 {
        let ctas = d.sk_ctas.max(1) as u64;
        let sk_iters = (d.sk_tiles * k_iters).div_ceil(ctas) as f64;
        let mut sk = sk_iters * streamk_iteration_s(v, p, d, k_iters);
        if !d.ranges_within_tiles(k_iters) && !crossings_free(v, d, dp_tiles) {
            sk *= STREAMK_PHASE_FACTOR;
        }
        sk += d.sk_tiles.div_ceil(ctas) as f64 * EPILOGUE_S;
        if d.splits_tiles(k_iters) {
            // The busiest CTA writes one partial and finishes one split tile, reading the
            // partials of every other CTA that covers it.
            let per_tile = (ctas as f64 / d.sk_tiles as f64).ceil().max(2.0);
            // Split-K: every range lies inside one tile, so the CTAs of a tile end their
            // mainloops together and no owner waits for a contributor busy with another
            // tile; charged so where measured (SPLITK_READ_S): tiles up to 64 wide, operands
            // in the L2, or every tile split over several tile rows and columns.
            let grid_of_split_tiles = d.sk_tiles == tiles
                && p.m.div_ceil(v.block_m as u64) > 1
                && p.n.div_ceil(v.block_n as u64) > 1;
            let in_l2 = operand_bytes <= L2_REUSE_BYTES;
            let fitted = v.block_n <= SPLITK_FITTED_MAX_N;
            // Clusters of 2 are charged so too wherever their units split every tile evenly
            // (a multiple of the tiles), even where a tile's iterations do not divide among
            // its units: 496x1000x11400 on 128x128 clusters of 2, sk16x48 (179 iterations in
            // 3), measured 39.0 us where the Stream-K charge had kept a 50.2 us plan (`20g`;
            // over the 34 shape-layouts this and clusters of 2 x 2 moved, 0.910 of the time
            // before). Not unclustered splits (864x736x4704 on 128x128, sk42x126: 24.8 us
            // against 21.1 for the plan it displaced, `19e`), nor clusters of 2 x 2
            // (296x1224x11176, sk10x30: 42.1 us against 37.2, modelled 35.3, `20g`).
            // Tiles up to 64 wide split over 3 or more CTAs each, operands in the L2, are
            // charged so too, even where ranges cross tiles: `22c`'s sweeps of small m and n
            // with a long k (scripts/sweeps/22c-*) measured 128x64 flat from 4 to 10 CTAs a
            // tile (96x528x3960 sk9x36 14.8 us, sk9x72 14.2) where the Stream-K charge rose
            // 10 us; with 2-3 a tile (280x488x5696 on 128x32 sk48x132: 23.5 against 19.3 for
            // the split-K pairs) or operands beyond the L2 (64x4096x14336 sk32x96: 43.6
            // against 40.1 for sk32x64) they ran as charged. Over the 260 shape-layouts this
            // and `DATA_PARALLEL_FIXED_S` moved, 0.942 of the time before (`22d`).
            let even = d.ranges_within_tiles(k_iters)
                || (v.cluster_m > 1 && v.cluster_n == 1 && d.sk_ctas as u64 % d.sk_tiles == 0)
                || (fitted && in_l2 && 3 * d.sk_tiles <= ctas);
            fixup = if even && (fitted || in_l2 || grid_of_split_tiles) {
                SPLITK_HANDOFF_S
                    + (per_tile - 1.0) * (SPLITK_CONTRIBUTOR_S + area * SPLITK_READ_S)
                    + area * STAGED_EPILOGUE_S
            } else {
                let about_one_each =
                    d.sk_tiles as f64 <= STREAMK_FIXUP_CAP_TILES_PER_CTA * ctas as f64;
                let area = if about_one_each {
                    area.min(STREAMK_FIXUP_MAX_AREA)
                } else {
                    area
                };
                area * (PARTIAL_WRITE_S + (per_tile - 1.0) * PARTIAL_READ_S)
                    + STAGED_EPILOGUE_S * area
                    + SPLIT_LAUNCH_S
            };
        }
        busiest += sk;
    }
    if v.block_n < 128 {
        // Charged to the tiles whose loads outweigh their math only (for 128-256 wide tiles it
        // would misrank 128x192 against 128x256 at 4097^3, where 128x192 measured 4% faster).
        let loads = (tiles * k_iters) as f64 * v.l2_stage_bytes() as f64;
        let a_bytes = (p.m * p.k * p.batch) as f64 * v.ab.size_bytes() as f64;
        let rate = if p.n.div_ceil(v.block_n as u64) > 1 && a_bytes > L2_RELOAD_MIN_BYTES {
            L2_RELOAD_BYTES_PER_S
        } else {
            L2_LOAD_BYTES_PER_S
        };
        busiest = busiest.max(loads / (rate * dev.sm_count.max(1) as f64 / 132.0));
    }
    busiest = busiest.max(l2_request_s(v, p, dev));
    if let Some(scale) = onewave_requests() {
        busiest = busiest.max(onewave_request_s(v, p, d, tiles, grid, k_iters, scale));
    }
    // Every tile of the busiest CTA but its last (there the TMA store's drain is exposed
    // too): its data-parallel waves, and its Stream-K tiles (an owner stores through the
    // general epilogue as well; none without a Stream-K phase).
    let sk_owned = d.sk_tiles.div_ceil(d.sk_ctas.max(1) as u64) as f64;
    busiest += (dp_waves + sk_owned - 1.0).max(0.0) * in_place_d_tile_s(v, p);
    let bytes = operand_bytes + (p.m * p.n * p.batch) as f64 * p.cd_type.size_bytes() as f64;
    let floor = bytes / (HBM_BYTES_PER_S * dev.sm_count.max(1) as f64 / 132.0);
    // A soft maximum: when streaming the operands bounds the time, less compute still helps
    // a little (and breaks ties between tiles towards less wasted work).
    let mut t = busiest.max(floor) + 0.1 * busiest.min(floor) + fixup;
    if v.multicast_size() > 1 && (v.major_b == Major::K || v.major_a == Major::K) {
        // Not where both operands are MN-major (NT): session 5 measured an N-major B's cluster
        // advantage (MN_B_UNCLUSTERED_FACTOR) as whole launches' ratios, this cost included,
        // and charging it there too made NT 1% slower (19c: random-k8 1.008, the moved
        // shapes 0.998), while TT ran 3-4% faster with it (0.969, 0.961).
        t += if v.cluster_m == 1 {
            CLUSTER_N_START_S
        } else if v.cluster_n > 1 {
            CLUSTER_2X2_START_S
        } else if v.major_a == Major::MN && v.major_b == Major::K {
            CLUSTER_NN_START_S
        } else {
            CLUSTER_START_S
        };
    }
    if v.cluster_m > 1 && v.cluster_n > 1 && v.major_a == Major::MN && v.major_b == Major::MN {
        t *= CLUSTER_2X2_MN_FACTOR;
    }
    if d.sk_tiles == 0
        && tiles <= d.grid as u64
        && v.slab_steps(p.k) >= DATA_PARALLEL_FIXED_MIN_K_ITERS
    {
        // One wave only: 4096x7168x16384's data-parallel 128x256 (1173.7 us) beat the hybrid
        // with sk236 (1193.9, `16d`), which a charge on every wave count would rank first.
        t += DATA_PARALLEL_FIXED_S;
    }
    let b_bytes = p.n as f64 * p.k as f64 * p.batch as f64 * v.ab.size_bytes() as f64;
    if v.block_n < 128 && 2 * p.m <= v.block_m as u64 && b_bytes >= NARROW_HALF_EMPTY_MIN_B_BYTES {
        // A tile under 128 wide at most half filled along m (decode shapes in cuBLAS's TN form, not
        // swapped): measured 1.3-1.6x its estimate on the H200 (session 4 sweeps: 64x4096x7168
        // on 128x32 tiles 49.4 us against 32.4; 64x8192x8192 on 128x64 73.8 against 45.8),
        // while the swapped plans of the same shapes, whose tiles are full, ran near theirs.
        t * NARROW_HALF_EMPTY_FACTOR
    } else {
        t
    }
}

/// What the general epilogue costs a tile of `v` over the TMA-store epilogue, where `v` has the
/// latter but D rules it out (an odd leading dimension, left in place: `plan::pack::d_pays`
/// chose against D's copy, or the plan is not packed), per tile of the busiest CTA
/// (`plan::pack::in_place_d_tile_s`). `estimate_s` charges it to every tile of that CTA but
/// its last, whose TMA stores no next mainloop hides either (charged there too, it moved
/// 127x4095x4096 from its split-K pairs, 5% faster than the Stream-K plan it took in session
/// 12's run), Stream-K tiles included (an owner stores through the general epilogue too;
/// charging data-parallel waves only moved plans onto hybrids that ran 1.05-1.08x slower,
/// `49e`). Both layouts: a transposed plan turns a column-major D into a row-major one, whose
/// element-wise stores cost far more, and charging only one layout sent odd-D problems to the
/// other. Session 49 (`49c`/`49d`, main's build): 4096³ with D's ld 4097 on 128x256 193.9 us
/// against 175.4 aligned, PyTorch's logits 50257x8192x768 1,309 against ~897 for the aligned
/// 50304 (session 15), where the model had put them at the aligned time.
fn in_place_d_tile_s(v: &Sm90Variant, p: &GemmProblem) -> f64 {
    // As padded: D's aligned copy in the workspace (a packed plan's problem) takes the TMA
    // store although its lines end inside a 16-byte unit; an odd leading dimension fails
    // either way.
    let host_zero = crate::problem::Scalar::Host(0.0);
    if v.tma_store_cols(p).is_none() || crate::plan::sm90::tma_store_ok(p, 0x1000, host_zero, true)
    {
        return 0.0;
    }
    let area = v.block_m as u64 * v.block_n as u64;
    crate::plan::pack::in_place_d_tile_s(p, v.block_n, v.num_tiles(p), area)
}

/// What a data-parallel launch measures over its model beyond what a Stream-K or split-K one
/// does: over `21a`'s sweeps (under-wave and k-alignment, TN, every candidate) unclustered
/// data-parallel plans ran a median 5.9 us over their estimates, Stream-K ones 2.9 (whose fixed
/// costs, `SPLIT_LAUNCH_S` and the fixup, were fitted). Scored against every kept sweep
/// (scripts/score-model.sh), 2 us chose best (random-k8 TN 1.034 -> 1.023 of the fastest timed,
/// decode 1.014 -> 1.008), charged to launches of one wave, which those sweeps timed. The
/// split-K pairs are charged it too: without it decode scored 1.027. H200 (`22c`, every
/// TN and NN shape-layout it moved against main): 0.975 and 0.990 of the time before, but
/// 1.05-1.32 under 20 k-iterations (304x2176x512 TN 9.3 -> 12.2 us, 3840x984x1080 NN 21.2 ->
/// 23.8), where the splits it chose instead have little mainloop to share: not charged there.
const DATA_PARALLEL_FIXED_S: f64 = 2e-6;
const DATA_PARALLEL_FIXED_MIN_K_ITERS: u64 = 20;

/// See `estimate_s`: the measured-over-modelled ratio of tiles under 128 wide (the narrow 16/32
/// and the 64-wide ones) at most half filled along m.
const NARROW_HALF_EMPTY_FACTOR: f64 = 1.5;
/// The B (n x k) of at least this many bytes that the half-empty charge needs: it was measured
/// on decode's weights (58-128 MB), and on tiny problems, where a narrow tile's few loads are
/// latency, not bandwidth, it sent them onto 128 x 128 tiles that ran slower: session 66
/// (`66b`, H100, every candidate of 30 tiny shapes, TN and NN, `tiny-66.txt`): 48x48x1024 on
/// 128x128 10.5 us against 8.5 on 128x16 (128-deep), 64x512x512 8.1 against 7.2; gated at
/// 1 MiB the model's first choice there ran 1.016-1.020 of the fastest candidate's time L2
/// flushed and 1.024-1.029 in chains of 8 launches, against 1.021-1.026 and 1.038 charged
/// everywhere (`scripts/sweep-regret.py`; the same from 1 to 16 MB). Out of sample (`66c`,
/// H100, 160 of the 396 shape-layouts it moves among 160 fresh small-m shapes,
/// `small-m-66.txt`, against the build before, two rounds): 0.874-0.920 of the time by layout,
/// none past 1.03 (57x178x2185 NT 34.2 -> 25.5 us, 12x18x104 TN 8.7 -> 5.9).
const NARROW_HALF_EMPTY_MIN_B_BYTES: f64 = (1 << 20) as f64;

/// A ring-epilogue variant's time against its plain twin's (`Sm90Variant::with_ring_epilogue`:
/// one stage more, one tile a CTA), where it is planned: at least RING_EPILOGUE_MIN_K_ITERS
/// k-iterations. H200, session 17 (`17e`: main's build and this one alternating, every TN
/// shape of the sets whose plan it moved): over the 20 with k >= 4032, 0.928-1.012, geomean
/// ~0.98 (128x8192x8192 on 128x96 0.93, 448x4480x4608 0.95, 272x5392x12360 0.94,
/// 1000x3000x4000 1.00); over the 18 with a shorter k, 0.99-1.06 (304x2176x512 1.06). The
/// smallest gain, so that it decides only between the twins.
const RING_EPILOGUE_FACTOR: f64 = 0.99;
/// See RING_EPILOGUE_FACTOR: the extra stage pays only over a long mainloop (and staging in
/// the ring costs a little at its end).
const RING_EPILOGUE_MIN_K_ITERS: u64 = 60;

/// Whether the model may plan a cluster along n (1 x 2, 1 x 4: A multicast along a tile row)
/// for `p`: tiles at least 64 wide, at least 2 tile rows of at least 4 tile columns, and only
/// data-parallel (see `decompositions_with`). Where the model had planned them freely (`21b`,
/// H200, 77 shape-layouts against 8f19ac3 alternating twice: geomean 1.008), the data-parallel
/// ones on
/// several rows of several columns ran 0.72-0.93 of the old time (1112x840x3496 all four
/// layouts, 1704x760x2680, 880x1608x1688, 3672x336x1080, 336x1912x1544), while one tile row
/// (decode shapes, 128x8192x8192 and the swapped 64 x 4096 ones: up to 1.23x), one cluster a
/// row (7168x128x2048 on 64-wide 1 x 2: 1.15-1.21x) and the Stream-K or split-K ones
/// (480x1488x6224 sk32x64 1.05-1.07x, 128x4096x7168 1.05x) lost, and so did every plan on
/// 32-wide tiles in 1 x 2 (7 of 7, 1.08-1.23x: 264x1168x2424 16.4 -> 20.2 us TN, where the
/// model ranks the narrow tiles too well to begin with). Timed again under that rule (`21c`, 24
/// moved shape-layouts, three rounds: 0.965), the clusters of 2 over more than 100 k-iterations
/// lost 8 of 8 (1048x1328x7360 TN 40.8 -> 46.8 us, 768x2048x8192 45.8 -> 50.5, 1.03-1.15x)
/// while those of 4 won there (632x2104x13544 80.7 -> 74.8, 2536x360x6744 0.954): 1 x 2 is
/// planned over at most CLUSTER_N2_MAX_K_ITERS.
fn cluster_n_pays(v: &Sm90Variant, p: &GemmProblem) -> bool {
    v.block_n >= 64
        && p.m.div_ceil(v.block_m as u64) >= 2
        && p.n.div_ceil(v.block_n as u64) >= 4
        && (v.cluster_n >= 4 || p.k.div_ceil(v.block_k as u64) <= CLUSTER_N2_MAX_K_ITERS)
}

/// See `cluster_n_pays`: the longest k-loop (in iterations) a cluster of 1 x 2 is planned for.
/// `21c`'s 1 x 2 moves up to 58 iterations ran 0.75-1.06 of the old time (11 of 14 faster:
/// 1112x840x3496 NT 31.3 -> 23.4 us, 336x1912x1544 TN 15.5 -> 13.5); from 106 on all slower.
const CLUSTER_N2_MAX_K_ITERS: u64 = 64;

/// `DEEPGEMM_SOLO_SK=1`: the 128-deep solo tiles get the Stream-K and split-K schedules the
/// cooperative tiles get (kernels/sm90/gemm.cuh runs them), for measuring them. Read once.
pub fn solo_streamk() -> bool {
    static F: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
        std::env::var("DEEPGEMM_SOLO_SK").is_ok_and(|v| v.trim() == "1")
    });
    *F
}

/// Hybrids (data-parallel waves + a Stream-K phase) over clusters of 2 x 1 and 2 x 2 where a
/// problem has more cluster blocks than the device holds clusters, among the model's
/// candidates; `DEEPGEMM_CLUSTER_SK=0` leaves them out (before session 48 only unclustered
/// tiles had them: `19e`'s 4888x832x4528 TT on 128x128 clusters ran 1.22x the unclustered
/// hybrid's time). Session 48's sweep (`48a`) of large shapes found the unclustered hybrids
/// 0.99-1.43x the best data-parallel plan (1.12-1.43x on lines mid-sector, where the clusters'
/// B multicast halves the L2 requests); with these, 59 moved shape-layouts out of sample ran
/// 0.964 of their time (`48d`). Read once.
pub fn cluster_hybrids() -> bool {
    static F: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
        !std::env::var("DEEPGEMM_CLUSTER_SK").is_ok_and(|v| v.trim() == "0")
    });
    *F
}

/// Whether `d` is one of `cluster_hybrids`' schedules: a Stream-K phase over multicast clusters
/// of a problem with more cluster blocks than the device holds clusters (the split-K-like
/// Stream-K over clusters, fewer blocks than clusters, is not).
pub fn is_cluster_hybrid(
    v: &Sm90Variant,
    p: &GemmProblem,
    d: &Decomposition,
    dev: &DeviceSpec,
) -> bool {
    let cm = v.multicast_size();
    cm > 1
        && !d.is_data_parallel()
        && v.num_tiles(p) / cm as u64 > dev.resident_clusters(cm).max(1) as u64
}

/// The decompositions worth considering for `v` on `p`, best first by the model (ties keep
/// the data-parallel one first: it needs no workspace), each with its modelled seconds.
/// `DEEPGEMM_DECOMPOSITION` narrows or forces the list (see `Forced`).
pub fn decompositions(
    v: &Sm90Variant,
    p: &GemmProblem,
    dev: &DeviceSpec,
) -> Vec<(Decomposition, f64)> {
    decompositions_with(v, p, dev, forced())
}

/// `decompositions` and, unless `DEEPGEMM_DECOMPOSITION` forces one kind, the forms only a
/// forced `hybrid` lists (the hybrid that splits only the last partial wave's tiles over every
/// unit): every schedule a configured algo may name (`plan::configured_universe`; an even
/// split of those tiles is a SPLITK_NUM configuration, `algo::schedule`). Unsorted past the
/// first list.
pub fn every_decomposition(
    v: &Sm90Variant,
    p: &GemmProblem,
    dev: &DeviceSpec,
) -> Vec<(Decomposition, f64)> {
    let mut list = decompositions(v, p, dev);
    if forced() == Forced::Auto {
        for (d, s) in decompositions_with(v, p, dev, Forced::Hybrid) {
            if !list.iter().any(|(e, _)| *e == d) {
                list.push((d, s));
            }
        }
    }
    list
}

pub fn decompositions_with(
    v: &Sm90Variant,
    p: &GemmProblem,
    dev: &DeviceSpec,
    force: Forced,
) -> Vec<(Decomposition, f64)> {
    decompositions_solo_sk(v, p, dev, force, solo_streamk())
}

/// `decompositions_with`, the 128-deep solo tiles given Stream-K and split-K schedules where
/// `solo_sk` (`DEEPGEMM_SOLO_SK`).
pub(crate) fn decompositions_solo_sk(
    v: &Sm90Variant,
    p: &GemmProblem,
    dev: &DeviceSpec,
    force: Forced,
    solo_sk: bool,
) -> Vec<(Decomposition, f64)> {
    // Split-K clusters split every tile between the CTAs of a cluster: only they run under
    // a forced `splitk-cluster`, and none of them under the other forced schedules.
    let allowed = if v.split_k > 1 {
        matches!(force, Forced::Auto | Forced::SplitKCluster)
    } else {
        force != Forced::SplitKCluster
    };
    if !allowed {
        return Vec::new();
    }
    if v.ring_epilogue {
        // The epilogue stages in the ring (kernels/sm90/gemm.cuh `kRingEpilogue`): one tile a
        // CTA, data-parallel, or nothing.
        let tiles = v.num_tiles(p).max(1);
        let k_iters = p.k.div_ceil(v.block_k as u64);
        let grid = v.grid(p, dev);
        if matches!(
            force,
            Forced::StreamK | Forced::SplitK | Forced::Hybrid | Forced::TailSplit
        ) || tiles > grid as u64
            || k_iters < RING_EPILOGUE_MIN_K_ITERS
        {
            return Vec::new();
        }
        let d = Decomposition {
            sk_tiles: 0,
            sk_ctas: 0,
            grid,
        };
        return vec![(d, estimate_s(v, p, &d, dev) * RING_EPILOGUE_FACTOR)];
    }
    let solo_dp = v.solo() && !(v.deep() && solo_sk);
    if v.split_k > 1
        || v.pingpong()
        || solo_dp
        || v.tall()
        || v.column_split()
        || crate::plan::sm90::wide_bias_col(v, p)
    {
        // Split-K clusters, ping-pong and solo run data-parallel only (kernels/sm90/gemm.cuh; a
        // solo launch's grid is two CTAs an SM, `Sm90Variant::grid`), but for 128-deep solo
        // tiles under `DEEPGEMM_SOLO_SK=1` (the kernel runs Stream-K on them), and so
        // does a bias along n on a tile over 64 wide (the Stream-K owners' epilogues are not
        // built with it: kernels/sm90/store.cuh `epilogue_tma_store_for`); none under a forced
        // Stream-K or split-K, whose tests must exercise those schedules.
        if matches!(
            force,
            Forced::StreamK | Forced::SplitK | Forced::Hybrid | Forced::TailSplit
        ) {
            return Vec::new();
        }
        let d = Decomposition {
            sk_tiles: 0,
            sk_ctas: 0,
            grid: v.grid(p, dev),
        };
        return vec![(d, estimate_s(v, p, &d, dev))];
    }
    let along_n = v.cluster_m == 1 && v.cluster_n > 1;
    if along_n && force == Forced::Auto && !cluster_n_pays(v, p) {
        return Vec::new();
    }
    // The scheduler's units: CTAs, or multicast clusters walking blocks of tiles (see
    // `Decomposition`), as many as the device holds at once; `sms` and `tiles` count those,
    // the grid CTAs.
    let cm = v.multicast_size() as u64;
    let sms = dev.resident_clusters(cm as u32).max(1) as u64;
    let tiles = (v.num_tiles(p) / cm).max(1);
    let k_iters = p.k.div_ceil(v.block_k as u64).max(1);
    let dp = Decomposition {
        sk_tiles: 0,
        sk_ctas: 0,
        grid: (tiles.min(sms) * cm) as u32,
    };
    // Under a forced `hybrid` only the hybrids below (none for clusters along n).
    let mut list = if force == Forced::Hybrid {
        Vec::new()
    } else {
        vec![dp]
    };
    let sk = |sk_tiles: u64, ctas: u64| Decomposition {
        sk_tiles,
        sk_ctas: ctas as u32,
        grid: (sms.min(ctas.max(tiles - sk_tiles)).max(1) * cm) as u32,
    };
    match force {
        // (Unreachable under SplitKCluster: only split-K clusters pass it, and they returned.)
        Forced::DataParallel | Forced::SplitKCluster => {}
        Forced::StreamK => list = vec![sk(tiles, sms.min(tiles * k_iters))],
        Forced::TailSplit => {
            list = tail_split(tiles, sms, k_iters)
                .map(|(t, c)| sk(t, c))
                .into_iter()
                .collect()
        }
        Forced::SplitK => list = vec![sk(tiles, sms.min(tiles * k_iters.min(4)))],
        // Clusters along n: data-parallel only unless forced (see `cluster_n_pays`).
        Forced::Auto if along_n => {}
        Forced::Auto | Forced::Hybrid => {
            // Clusters along m too since session 48 (`cluster_hybrids`); not along n.
            let hybrid_units =
                cm == 1 || (v.cluster_m == 2 && (force == Forced::Hybrid || cluster_hybrids()));
            if tiles > sms && tiles % sms != 0 && hybrid_units {
                // Hybrid: the last partial wave plus one full wave shared out by iteration
                // (each CTA gets 1-2 tiles' worth, so few tiles split), then whole waves. Only
                // under a forced `hybrid` also the last partial wave's tiles alone, split among
                // all CTAs: over 414 pairs of kept sweeps (scripts/hybrid-pairs.py) it ran
                // 1.04-1.10x its twin's time by geomean in every operand-size bin.
                let sk_tiles = if tiles >= 2 * sms {
                    tiles % sms + sms
                } else {
                    tiles
                };
                list.push(sk(sk_tiles, sms));
                if force == Forced::Hybrid && tiles % sms < sms / 2 && k_iters >= 8 {
                    list.push(sk(tiles % sms, sms));
                }
            } else if tiles < sms && k_iters >= 4 && force == Forced::Auto {
                // Split-K: too few tiles for the SMs; split each over s CTAs, s up to what
                // leaves every split at least 2 iterations.
                for s in 2..=16u64.min(k_iters / 2) {
                    let ctas = sms.min(tiles * s);
                    list.push(sk(tiles, ctas));
                    if ctas == sms {
                        break;
                    }
                }
            }
        }
    }
    let mut scored: Vec<(Decomposition, f64)> = list
        .into_iter()
        .map(|d| (d, estimate_s(v, p, &d, dev)))
        .collect();
    // Stable: among equal estimates the earlier (data-parallel, fewer CTAs) stays first.
    scored.sort_by(|a, b| a.1.total_cmp(&b.1));
    scored
}

/// The "data-parallel waves + split tail" form, only under `DEEPGEMM_DECOMPOSITION=tailsplit`:
/// where `tiles` units leave a last wave of `r = tiles % sms` at most half full, those `r`
/// tiles split evenly in k, each over the most CTAs (at most 16, each at least 2 k-iterations)
/// that fit the device and keep every range inside one tile, ahead of the whole waves:
/// `(sk_tiles, sk_ctas)`. Its split ranges start together at a few common k offsets and each
/// tile's CTAs end together. Not planned: session 66 (`66a`, H100) measured it 1.008x its
/// data-parallel twin's speed by geomean over 41 pairs of 40 fresh multi-wave shapes (0.89-1.09;
/// the best of its plans 1.28x the time of the default first plan), and on the wave set equal
/// to all-Stream-K at 3200^2 (1.10x data-parallel on 128 x 248 and 128 x 256) but 1.2-1.3x
/// its time where a tile is split 16 ways (6784x1280x8192, 50816x256x8192: the owner reads 15
/// partials alone, then still has its whole waves to run) or 4 ways (2176^2 x 8192).
pub fn tail_split(tiles: u64, sms: u64, k_iters: u64) -> Option<(u64, u64)> {
    let r = tiles % sms.max(1);
    if tiles <= sms || r == 0 || 2 * r > sms {
        return None;
    }
    let most = (sms / r).min(16).min(k_iters / 2);
    (2..=most).rev().find_map(|s| {
        let d = Decomposition {
            sk_tiles: r,
            sk_ctas: (r * s) as u32,
            grid: sms as u32,
        };
        d.ranges_within_tiles(k_iters).then_some((r, r * s))
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::plan::sm90::HOPPER_SMEM_BUDGET;
    use crate::types::ScalarType;

    fn tn(m: u64, n: u64, k: u64) -> GemmProblem {
        crate::problem::dense_bf16(m, n, k, 1, 0)
    }

    /// The sm90 variant of the planner's first choice for the bf16 problem m x n x k with
    /// cuBLAS's transposes `ta`, `tb` on an H200.
    fn first_sm90(ta: i32, tb: i32, m: u64, n: u64, k: u64) -> Sm90Variant {
        let p = crate::problem::dense_bf16(m, n, k, ta, tb);
        match crate::plan::candidates(&p, &DeviceSpec::H200).unwrap()[0].kernel {
            crate::plan::Kernel::Sm90(v) => v,
            k => panic!("not sm90: {k:?}"),
        }
    }

    /// The wide ping-pong tiles hide every epilogue but the last under the other consumer's
    /// mainloop: over several tiles a CTA they are charged less than the cooperative 128 x 128
    /// (the same mainloop rate) by about an epilogue a tile, and where the epilogue outlasts
    /// the mainloop (a short k) by half of it at most.
    #[test]
    fn ranges_within_tiles_matches_its_definition() {
        // The walk against the definition: no CTA's range [begin, end) crosses a multiple of k.
        let naive = |d: &Decomposition, k: u64| {
            (0..d.sk_ctas).all(|c| {
                let (b, e) = (d.range_begin(c, k), d.range_begin(c + 1, k));
                e <= b || b / k == (e - 1) / k
            })
        };
        let mut seen = [0u32; 2];
        for sk_tiles in 0..40u64 {
            for sk_ctas in 0..70u32 {
                for k in [1u64, 2, 3, 4, 5, 7, 8, 16, 33, 64] {
                    let d = Decomposition {
                        sk_tiles,
                        sk_ctas,
                        grid: sk_ctas.max(1),
                    };
                    let want = naive(&d, k);
                    assert_eq!(
                        d.ranges_within_tiles(k),
                        want,
                        "{sk_tiles} tiles {sk_ctas} ctas k {k}"
                    );
                    seen[want as usize] += 1;
                }
            }
        }
        assert!(seen[0] > 1000 && seen[1] > 1000, "{seen:?}");
    }

    #[test]
    fn wide_pingpong_hides_all_but_the_last_epilogue() {
        use crate::plan::sm90::Major;
        let dev = DeviceSpec::H200;
        let bf16 = ScalarType::BF16;
        let coop = Sm90Variant::new(bf16, bf16, 128, 128, HOPPER_SMEM_BUDGET).unwrap();
        let wide = Sm90Variant::wide_pingpong_tile(bf16, bf16, (Major::K, Major::K), 128).unwrap();
        let dp = |v: &Sm90Variant, p: &GemmProblem| {
            let d = Decomposition {
                sk_tiles: 0,
                sk_ctas: 0,
                grid: 132,
            };
            estimate_s(v, p, &d, &dev)
        };
        // 4096 x 4096: 1024 tiles, 8 a CTA (7.76 waves), k = 4096 (64 k-steps): the cooperative
        // tile's 8 mainloops and epilogues, against the wide tile's 8 mainloops at its own rate
        // (`WIDE_PINGPONG_EFFICIENCY`) and one epilogue.
        let p = tn(4096, 4096, 4096);
        let rate = iteration_s(&wide, &p) / iteration_s(&coop, &p);
        assert!(
            (rate - 0.79 / WIDE_PINGPONG_EFFICIENCY).abs() < 1e-9,
            "math-bound: {rate}"
        );
        let expected = (dp(&coop, &p) - 8.0 * EPILOGUE_S) * rate + EPILOGUE_S;
        let w = dp(&wide, &p);
        // Within 0.5% (fixed charges the two share); seven more epilogues would be ~2%.
        assert!((w / expected - 1.0).abs() < 5e-3, "{w} against {expected}");
        // k = 64: one k-step a tile, shorter than the epilogue.
        let p = tn(4096, 4096, 64);
        let (c, w) = (dp(&coop, &p), dp(&wide, &p));
        assert!(w < c && w > 0.5 * c, "{w} against {c}");
    }

    /// The column-split tiles' charges, fitted to `71b`: ranked over the tall 192 x 96 in 1 x 2
    /// on a one-wave long-k shape whose 192-row tiles fill the SMs (6240x752x4600: 132 tiles of
    /// 192 x 192; measured 0.78-0.85 of its time), not over 128 x 192 on a short-k multi-wave
    /// one (6144x2104x208: 192 x 176 ran 1.32x its time).
    #[test]
    fn column_split_ranks_by_waves_and_k() {
        use crate::plan::sm90::Major;
        let dev = DeviceSpec::H200;
        let best = |v: Sm90Variant, p: &GemmProblem| {
            every_decomposition(&v, p, &dev)
                .iter()
                .map(|(_, s)| *s)
                .fold(f64::INFINITY, f64::min)
        };
        let bf16 = ScalarType::BF16;
        let cs = |bn| Sm90Variant::column_split_tile(bf16, bf16, (Major::K, Major::K), bn).unwrap();
        let p = tn(6240, 752, 4600);
        let tall = Sm90Variant::tall_tile(bf16, bf16, (Major::K, Major::K), 96)
            .and_then(|v| v.with_cluster_n(2))
            .unwrap();
        let split = cs(192).with_cluster_n(2).unwrap();
        assert!(best(split, &p) < 0.9 * best(tall, &p));
        let q = tn(6144, 2104, 208);
        assert!(best(cs(176), &q) > best(variant(192), &q));
    }

    fn variant(bn: u32) -> Sm90Variant {
        Sm90Variant::new(
            ScalarType::BF16,
            ScalarType::BF16,
            128,
            bn,
            HOPPER_SMEM_BUDGET,
        )
        .unwrap()
    }

    /// An odd D left in place (stored down its columns by the general epilogue) costs every
    /// tile of the busiest CTA but its last the general epilogue's excess, data-parallel and
    /// Stream-K tiles alike; an aligned D nothing.
    #[test]
    fn an_odd_d_in_place_is_charged_its_general_epilogue() {
        let dev = DeviceSpec::H200;
        let v = variant(256);
        let aligned = tn(4096, 4096, 4096);
        let mut odd = aligned;
        odd.d.col = 4097;
        odd.c.col = 4097;
        let per_tile = in_place_d_tile_s(&v, &odd);
        assert!(
            per_tile > 3e-6 && per_tile < 4e-6,
            "8 rounds of 32 columns: {per_tile}"
        );
        assert_eq!(in_place_d_tile_s(&v, &aligned), 0.0);
        let dp = Decomposition::data_parallel(v.num_tiles(&odd), &dev);
        let extra = estimate_s(&v, &odd, &dp, &dev) - estimate_s(&v, &aligned, &dp, &dev);
        // 512 tiles: 4 waves, 3 of them charged.
        assert!((extra - 3.0 * per_tile).abs() < 1e-9, "{extra}");
        // One wave: nothing to hide its stores under either way.
        let one = tn(1024, 4096, 4096);
        let mut one_odd = one;
        one_odd.d.col = 1025;
        one_odd.c.col = 1025;
        let dp1 = Decomposition::data_parallel(v.num_tiles(&one), &dev);
        assert_eq!(
            estimate_s(&v, &one_odd, &dp1, &dev),
            estimate_s(&v, &one, &dp1, &dev)
        );
        // A narrow tile has the general epilogue only: its estimate fitted it already.
        assert_eq!(in_place_d_tile_s(&variant(32), &odd), 0.0);
    }

    #[test]
    fn narrow_stages_cost_a_64_wide_one_unless_n_is_one_tile_column() {
        let wide = tn(600, 224, 4096);
        let decode = tn(4096, 16, 4096);
        // Loading a 128x64 stage (its math takes a little longer: 64 is not load-bound).
        let it64 = variant(64).stage_bytes() as f64 / SM_LOAD_BYTES_PER_S;
        assert!(iteration_s(&variant(64), &wide) > it64);
        for bn in [16, 32] {
            assert_eq!(iteration_s(&variant(bn), &wide), it64, "128x{bn}");
        }
        // One tile column (n <= 16): the stage as it is.
        assert!(iteration_s(&variant(16), &decode) < 0.8 * it64);
    }

    #[test]
    fn deep_solo_tiles_split_only_when_asked_and_size_both_slots() {
        let dev = DeviceSpec::H200;
        let solo =
            Sm90Variant::solo_tile(ScalarType::BF16, ScalarType::BF16, (Major::K, Major::K), 64)
                .unwrap();
        let full = solo.with_full_ring().unwrap();
        // 4 x 4 tiles of 64x64, 100 k-iterations of 128: too few tiles for the SMs.
        let p = tn(256, 256, 12800);
        for v in [solo, full] {
            let dp = decompositions_solo_sk(&v, &p, &dev, Forced::Auto, false);
            assert!(dp.len() == 1 && dp[0].0.is_data_parallel(), "{dp:?}");
        }
        // 64-deep solo tiles stay data-parallel (the kernel schedules them so).
        let half = decompositions_solo_sk(&solo, &p, &dev, Forced::Auto, true);
        assert!(half.len() == 1 && half[0].0.is_data_parallel(), "{half:?}");
        let list = decompositions_solo_sk(&full, &p, &dev, Forced::Auto, true);
        let k_iters = 100;
        let split: Vec<_> = list
            .iter()
            .filter(|(d, _)| d.splits_tiles(k_iters))
            .collect();
        assert!(!split.is_empty(), "{list:?}");
        for (d, _) in split {
            assert!(d.grid <= dev.sm_count && d.sk_ctas <= d.grid, "{d:?}");
            // Two 64-row slots a CTA, as for a 128-row tile of the same width.
            assert_eq!(
                d.workspace_bytes(&full, k_iters),
                d.flag_bytes(&full) + d.sk_ctas as u64 * 128 * 64 * 4
            );
        }
        let forced = decompositions_solo_sk(&full, &p, &dev, Forced::StreamK, true);
        assert!(
            forced.len() == 1 && !forced[0].0.is_data_parallel(),
            "{forced:?}"
        );
        assert!(decompositions_solo_sk(&full, &p, &dev, Forced::StreamK, false).is_empty());
    }

    #[test]
    fn ring_epilogues_run_one_tile_a_cta_only() {
        let dev = DeviceSpec::H200;
        let plain = variant(192);
        let ring = plain.with_ring_epilogue(HOPPER_SMEM_BUDGET).unwrap();
        assert_eq!((plain.stages, ring.stages), (4, 5));
        assert_eq!(ring.name(), "dg_sm90_bf16_bf16_tn_m128n192k64_s5_c1x1_re");
        assert!(ring.smem_bytes() <= HOPPER_SMEM_BUDGET as u64);
        assert!(ring.with_cluster(2).is_none());
        // 128x256 keeps 4 stages either way: no ring variant.
        assert!(
            variant(256)
                .with_ring_epilogue(HOPPER_SMEM_BUDGET)
                .is_none()
        );
        // 1000x3000x4000: 8 x 16 = 128 tiles, one a CTA: data-parallel only.
        let list = decompositions_with(&ring, &tn(1000, 3000, 4000), &dev, Forced::Auto);
        assert_eq!(list.len(), 1, "{list:?}");
        assert!(
            list[0].0.is_data_parallel() && list[0].0.grid == 128,
            "{list:?}"
        );
        // The same tiles, the ring variant a little ahead (RING_EPILOGUE_FACTOR).
        let plain_s =
            decompositions_with(&plain, &tn(1000, 3000, 4000), &dev, Forced::DataParallel)[0].1;
        assert!(
            list[0].1 < plain_s && list[0].1 > 0.98 * plain_s,
            "{list:?} {plain_s}"
        );
        // Too short a k-loop (k = 2048: 32 iterations): nothing.
        assert!(decompositions_with(&ring, &tn(1000, 3000, 2048), &dev, Forced::Auto).is_empty());
        // An M-major A (NN) has none: it ran 12% slower there.
        let nn = Sm90Variant::with_layout(
            ScalarType::BF16,
            ScalarType::BF16,
            (Major::MN, Major::K),
            128,
            192,
            HOPPER_SMEM_BUDGET,
        )
        .unwrap();
        assert!(nn.with_ring_epilogue(HOPPER_SMEM_BUDGET).is_none());
        // More tiles than SMs, or a forced Stream-K / split-K: nothing.
        assert!(decompositions_with(&ring, &tn(4096, 4096, 4096), &dev, Forced::Auto).is_empty());
        for force in [Forced::StreamK, Forced::SplitK] {
            assert!(decompositions_with(&ring, &tn(1000, 3000, 4000), &dev, force).is_empty());
        }
    }

    /// Every iteration of every tile exactly once; at most one unit per CTA starts mid-tile
    /// (its range's first tile's tail, processed last of the Stream-K range) and at most one
    /// ends mid-tile (a partial: one workspace slot per CTA); each split tile's owner (the unit
    /// reaching the tile's end) lists exactly the CTAs holding the rest, each of which holds
    /// that tile in a unit ending mid-tile; every Stream-K range is walked from k = 0.
    pub(crate) fn check_schedule(d: &Decomposition, tiles: u64, k_iters: u64) {
        let mut seen = vec![0u32; (tiles * k_iters) as usize];
        let all: Vec<Vec<Unit>> = (0..d.grid)
            .map(|c| work_units(d, tiles, k_iters, c))
            .collect();
        for (c, units) in all.iter().enumerate() {
            let starts_mid = units.iter().filter(|u| u.k_begin > 0).count();
            let partials = units.iter().filter(|u| !owns_tile(u, k_iters)).count();
            assert!(starts_mid <= 1 && partials <= 1, "{d:?} cta {c}: {units:?}");
            // What the no-deadlock argument rests on: a CTA writes its partial before the unit
            // that waits for others (the deferred tail), and waits only for CTAs before it.
            let partial_at = units.iter().position(|u| !owns_tile(u, k_iters));
            let wait_at = units
                .iter()
                .position(|u| owns_tile(u, k_iters) && u.k_begin > 0);
            if let (Some(p), Some(w)) = (partial_at, wait_at) {
                assert!(p < w, "{d:?} cta {c}: waits before writing its partial");
            }
            if let Some(w) = wait_at {
                let others = contributors(d, k_iters, c as u32, &units[w]);
                assert!(others.iter().all(|&o| (o as usize) < c), "{d:?} cta {c}");
            }
            let sk_units = units.iter().filter(|u| u.tile < d.sk_tiles).count();
            if sk_units > 1 {
                assert_eq!(units[0].k_begin, 0, "{d:?} cta {c}: ranges start at k = 0");
            }
            for u in units {
                assert!(
                    u.k_begin < u.k_end && u.k_end <= k_iters,
                    "{d:?} cta {c}: {u:?}"
                );
                for k in u.k_begin..u.k_end {
                    seen[(u.tile * k_iters + k) as usize] += 1;
                }
                if owns_tile(u, k_iters) && u.k_begin > 0 {
                    let mut covered = u.k_begin;
                    for o in contributors(d, k_iters, c as u32, u).into_iter().rev() {
                        let part = all[o as usize]
                            .iter()
                            .find(|x| x.tile == u.tile)
                            .unwrap_or_else(|| panic!("{d:?}: contributor {o} of cta {c}"));
                        assert!(!owns_tile(part, k_iters), "{d:?}: {o} writes a partial");
                        assert_eq!(part.k_end, covered, "{d:?}: contiguous");
                        covered = part.k_begin;
                    }
                    assert_eq!(covered, 0, "{d:?}: owner {c} misses iterations");
                } else if owns_tile(u, k_iters) && u.tile < d.sk_tiles {
                    // A whole tile in the Stream-K phase: nobody else computed any of it.
                    assert!(
                        contributors(d, k_iters, c as u32, u).is_empty(),
                        "{d:?} cta {c}"
                    );
                }
            }
        }
        assert!(seen.iter().all(|&s| s == 1), "{d:?} {tiles}x{k_iters}");
    }

    #[test]
    fn schedules_cover_every_iteration_once() {
        let dev = DeviceSpec::H200;
        for (tiles, k_iters) in [
            (1, 1),
            (1, 100),
            (7, 3),
            (64, 64),
            (131, 17),
            (132, 10),
            (133, 10),
            (288, 112),
            (561, 65),
            (1000, 1),
        ] {
            let dp = Decomposition::data_parallel(tiles, &dev);
            check_schedule(&dp, tiles, k_iters);
            for ctas in [1, 2, 5, 64, 132] {
                for sk_tiles in [tiles, tiles.min(tiles % 132 + 132), tiles.min(3)] {
                    let d = Decomposition {
                        sk_tiles,
                        sk_ctas: ctas,
                        grid: 132.min(tiles.max(ctas as u64)) as u32,
                    };
                    check_schedule(&d, tiles, k_iters);
                }
            }
        }
    }

    /// The split tail: the last partial wave's tiles, each over as many CTAs as fit (at most
    /// 16, ranges inside one tile), none where that wave is over half full or there is none.
    #[test]
    fn tail_splits_split_only_the_last_partial_wave_evenly() {
        // 3200^2 on 128 x 256: 325 tiles, 61 over two waves: two CTAs each.
        assert_eq!(tail_split(325, 132, 128), Some((61, 122)));
        // 2176^2 on 128 x 256: 153 tiles, 21 over one wave: six would cross tiles (128
        // iterations), four each.
        assert_eq!(tail_split(153, 132, 128), Some((21, 84)));
        // 1 tile past a wave: 16 at most.
        assert_eq!(tail_split(133, 132, 128), Some((1, 16)));
        // k of 5 iterations: at most 2 a CTA (2 ways); 3 ways would cross tiles.
        assert_eq!(tail_split(133, 132, 5), Some((1, 2)));
        for (tiles, k) in [(140u64, 7u64), (170, 9), (300, 33), (133, 4), (150, 100)] {
            if let Some((t, c)) = tail_split(tiles, 132, k) {
                assert_eq!(t, tiles % 132);
                assert!(c % t == 0 && c <= 132 && c / t >= 2 && c / t <= 16);
                let d = Decomposition {
                    sk_tiles: t,
                    sk_ctas: c as u32,
                    grid: 132,
                };
                assert!(d.ranges_within_tiles(k));
                check_schedule(&d, tiles, k);
            }
        }
        assert_eq!(tail_split(132, 132, 128), None);
        assert_eq!(tail_split(100, 132, 128), None);
        assert_eq!(tail_split(132 + 67, 132, 128), None);
        assert_eq!(tail_split(133, 132, 3), None);
    }

    #[test]
    fn forced_decompositions_are_valid_schedules() {
        let dev = DeviceSpec::H200;
        for p in [
            tn(1, 1, 8),
            tn(17, 129, 1000),
            tn(4097, 4097, 4097),
            tn(127, 4095, 4096),
        ] {
            for bn in [64, 128, 256] {
                let v = variant(bn);
                let k_iters = p.k.div_ceil(64);
                for f in [
                    Forced::Auto,
                    Forced::DataParallel,
                    Forced::StreamK,
                    Forced::SplitK,
                    Forced::Hybrid,
                    Forced::TailSplit,
                ] {
                    let list = decompositions_with(&v, &p, &dev, f);
                    // A forced hybrid or split tail has none where the tiles fill whole
                    // waves or fewer.
                    assert!(!list.is_empty() || matches!(f, Forced::Hybrid | Forced::TailSplit));
                    if f == Forced::TailSplit {
                        for (d, _) in &list {
                            assert!(d.ranges_within_tiles(k_iters) && d.splits_tiles(k_iters));
                        }
                    }
                    for (d, s) in list {
                        assert!(s > 0.0);
                        assert!(d.grid >= 1 && d.grid <= 132 && d.sk_ctas <= d.grid);
                        check_schedule(&d, v.num_tiles(&p), k_iters);
                        if f == Forced::DataParallel {
                            assert!(d.is_data_parallel());
                        }
                        if matches!(f, Forced::StreamK | Forced::SplitK) {
                            assert_eq!(d.sk_tiles, v.num_tiles(&p));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn cluster_hybrids_are_valid_schedules_in_cluster_units() {
        // More row-pair (2 x 2) blocks than resident clusters: the hybrids (data-parallel waves
        // + a Stream-K phase) are among the candidates, scheduled over clusters, as the kernel
        // walks them (units = blocks, CTAs = clusters; the grid counts CTAs).
        let dev = DeviceSpec::H200;
        // A strided batch too: 5 x (8 x 4) tiles of 128x256, linear across the batches.
        let mut batched = tn(1024, 1024, 2048);
        batched.batch = 5;
        for p in [
            tn(2904, 1496, 13976),
            tn(4080, 2056, 5064),
            tn(8192, 8192, 1024),
            batched,
        ] {
            for bn in [128, 256] {
                let base = variant(bn);
                for v in [
                    base.with_cluster(2).unwrap(),
                    base.with_cluster_2x2().unwrap(),
                ] {
                    let cm = v.multicast_size() as u64;
                    let units = v.num_tiles(&p) / cm;
                    let clusters = dev.resident_clusters(cm as u32) as u64;
                    assert!(units > clusters, "{p:?} {bn}");
                    let k_iters = p.k.div_ceil(64);
                    for f in [Forced::Auto, Forced::Hybrid] {
                        let list = decompositions_with(&v, &p, &dev, f);
                        let hybrids = list.iter().filter(|(d, _)| !d.is_data_parallel()).count();
                        if units % clusters != 0 {
                            assert!(hybrids >= 1, "{f:?} {p:?} {bn} x{cm}: {list:?}");
                        }
                        if f == Forced::Hybrid {
                            assert_eq!(hybrids, list.len(), "{list:?}");
                        }
                        for (d, s) in list {
                            assert!(s.is_finite() && s > 0.0);
                            assert!(d.sk_tiles <= units && d.sk_ctas as u64 <= clusters);
                            assert_eq!(d.grid as u64 % cm, 0);
                            let in_units = Decomposition {
                                grid: d.grid / cm as u32,
                                ..d
                            };
                            check_schedule(&in_units, units, k_iters);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn half_empty_narrow_tiles_are_charged() {
        // A 128-row narrow tile with m <= 64 costs about 1.5x (NARROW_HALF_EMPTY_FACTOR, the
        // measured overrun) what the same tile costs one row later, when it is more than half
        // full.
        let dev = DeviceSpec::H200;
        for bn in [16, 32, 64] {
            let v = Sm90Variant::new(
                ScalarType::BF16,
                ScalarType::BF16,
                128,
                bn,
                HOPPER_SMEM_BUDGET,
            )
            .unwrap();
            let est = |m: u64| {
                let p = tn(m, 4096, 7168);
                let d = Decomposition::data_parallel(v.num_tiles(&p), &dev);
                estimate_s(&v, &p, &d, &dev)
            };
            let ratio = est(64) / est(65);
            assert!(ratio > 1.4 && ratio < 1.6, "{bn}: {ratio}");
            // Not where B is under NARROW_HALF_EMPTY_MIN_B_BYTES (1 MiB): 512 x 512 bf16 is
            // half of it, 1024 x 512 all of it.
            let small = |m: u64, n: u64| {
                let p = tn(m, n, 512);
                let d = Decomposition::data_parallel(v.num_tiles(&p), &dev);
                estimate_s(&v, &p, &d, &dev)
            };
            let r = small(64, 512) / small(65, 512);
            assert!(r < 1.1, "{bn}: {r}");
            let r = small(64, 1024) / small(65, 1024);
            assert!(r > 1.3, "{bn}: {r}");
        }
        // Tiles 128 wide and up are not charged.
        let v = variant(128);
        let p64 = tn(64, 4096, 7168);
        let p65 = tn(65, 4096, 7168);
        let d = Decomposition::data_parallel(v.num_tiles(&p64), &dev);
        let r = estimate_s(&v, &p64, &d, &dev) / estimate_s(&v, &p65, &d, &dev);
        assert!((r - 1.0).abs() < 0.05, "{r}");
    }

    #[test]
    fn split_k_fixups_come_after_the_operands_stream_in() {
        let dev = DeviceSpec::H200;
        let sk = |tiles: u64, ctas: u32| Decomposition {
            sk_tiles: tiles,
            sk_ctas: ctas,
            grid: ctas,
        };
        // 32 tiles of 64 iterations: 128 CTAs take 16 each, inside one tile; 132 or 96 cross
        // tile boundaries; whole tiles per CTA do not split at all.
        assert!(sk(32, 128).ranges_within_tiles(64) && sk(32, 64).ranges_within_tiles(64));
        assert!(!sk(32, 132).ranges_within_tiles(64) && !sk(32, 96).ranges_within_tiles(64));
        assert!(sk(32, 32).ranges_within_tiles(64) && !sk(32, 32).splits_tiles(64));
        // A decode GEMM (16 x 4096 x 4096 swapped: 32 tiles of 128 x 16) streams 32 MB of weights
        // whatever the split: the fixup adds to that floor, so a 4-way split costs more than a
        // 2-way one by the extra contributors, not less by its shorter mainloops.
        let v = variant(16);
        let p = tn(4096, 16, 4096);
        let floor = (4096.0 * 4096.0 + 2.0 * 4096.0 * 16.0) * 2.0 / HBM_BYTES_PER_S;
        for ctas in [64, 128] {
            let t = estimate_s(&v, &p, &sk(32, ctas), &dev);
            assert!(
                t >= floor + SPLITK_HANDOFF_S,
                "{ctas}: {t} vs floor {floor}"
            );
        }
        assert!(estimate_s(&v, &p, &sk(32, 64), &dev) < estimate_s(&v, &p, &sk(32, 128), &dev));
    }

    #[test]
    fn workspace_only_when_tiles_split() {
        let v = variant(256);
        // 156 tiles of 112 iterations over 132 CTAs: 132.4 iterations each, tiles split.
        let d = Decomposition {
            sk_tiles: 156,
            sk_ctas: 132,
            grid: 132,
        };
        assert!(d.splits_tiles(112));
        assert_eq!(
            d.flag_bytes(&v),
            2304,
            "8 bytes per (CTA, consumer), to 256"
        );
        assert_eq!(d.workspace_bytes(&v, 112), 2304 + 132 * 128 * 256 * 4);
        // 264 tiles over 132 CTAs: two whole tiles each, nothing split, no workspace.
        let even = Decomposition {
            sk_tiles: 264,
            sk_ctas: 132,
            grid: 132,
        };
        assert_eq!(even.range_begin(1, 10), 20);
        assert!(!even.splits_tiles(10));
        assert_eq!(even.workspace_bytes(&v, 10), 0);
        assert_eq!(
            Decomposition::data_parallel(5, &DeviceSpec::H200).workspace_bytes(&v, 9),
            0
        );
    }

    #[test]
    fn model_prefers_data_parallel_for_whole_waves_and_streamk_for_ragged_ones() {
        let dev = DeviceSpec::H200;
        // 4096x4096: 512 tiles of 128x256 = 3.88 waves, nearly whole: data-parallel.
        let v = variant(256);
        let best = decompositions_with(&v, &tn(4096, 4096, 4096), &dev, Forced::Auto)[0].0;
        assert!(best.is_data_parallel(), "{best:?}");
        // 2432x1792x8192: 133 tiles = 1.008 waves; the hybrid keeps the CTAs within an
        // iteration of each other (L2 reuse intact) and wins clearly (H200: 0.123 vs 0.180 ms).
        let list = decompositions_with(&v, &tn(2432, 1792, 8192), &dev, Forced::Auto);
        assert_eq!(list[0].0.sk_tiles, 133, "{list:?}");
        assert!(list[0].1 < 0.8 * list[1].1, "{list:?}");
        // 3200x3200x8192: 325 tiles = 2.46 waves. With every Stream-K range walked from k = 0
        // the operands stay in L2 and Stream-K edges out data-parallel (H200, session 4: all
        // 325 tiles Stream-K 0.237 ms against 0.252 data-parallel; before the k-aligned order
        // 0.370).
        let list = decompositions_with(&v, &tn(3200, 3200, 8192), &dev, Forced::Auto);
        assert!(!list[0].0.is_data_parallel(), "{list:?}");
        let dp = list.iter().find(|(d, _)| d.is_data_parallel()).unwrap();
        assert!(dp.1 < 1.1 * list[0].1, "{list:?}");
        // Small M, long K: 16 tiles on 132 SMs, split-K.
        let v128 = variant(128);
        let list = decompositions_with(&v128, &tn(64, 2048, 8192), &dev, Forced::Auto);
        assert!(
            !list[0].0.is_data_parallel() && list[0].0.sk_tiles == 16,
            "{list:?}"
        );
        // A single short tile: nothing to gain.
        let list = decompositions_with(&v128, &tn(128, 128, 64), &dev, Forced::Auto);
        assert!(list[0].0.is_data_parallel());
    }

    /// Session 17's L2-request measurements (H200): lines off the 32-byte sectors bound the
    /// launch, and clusters of 2 (B multicast) take the 2048x2048 TN problems whose k is 8 mod 16.
    #[test]
    fn lines_off_the_sectors_go_to_clusters() {
        let dev = DeviceSpec::H200;
        // bf16 pitches: 8192 elements aligned; 8200 (16 mod 128: four of eight lines
        // mid-sector, three at other sectors); 8224 (64 mod 128: every other line).
        assert!((line_requests(8192 * 2) - LINE_REQUESTS_ALIGNED).abs() < 1e-9);
        let mid = line_requests(8200 * 2);
        assert!((mid - 2.235).abs() < 0.01, "{mid}");
        let half = line_requests(8224 * 2);
        assert!((half - (LINE_REQUESTS_ALIGNED + LINE_REQUESTS_SECTOR) / 2.0).abs() < 1e-9);
        let first = |k| match crate::plan::candidates(&tn(2048, 2048, k), &dev).unwrap()[0].kernel {
            crate::plan::Kernel::Sm90(v) => (v.block_n, v.cluster_m),
            k => panic!("not sm90: {k:?}"),
        };
        // 88.4 us unclustered at k = 8192; at 8200 144.4 unclustered, 100.6 in clusters
        // (session 17), 125.6 and 92.0 with the 128-byte L2 promotion (session 18).
        assert_eq!(first(8192), (256, 1));
        assert_eq!(first(8200), (256, 2));
        // 8224 (sectors aligned) ran like 8192: no clusters.
        assert_eq!(first(8224).1, 1);
        // The model's request time for the measured launch: 125.6 us unclustered (`18b`).
        let v = variant(256);
        let t = l2_request_s(&v, &tn(2048, 2048, 8200), &dev);
        assert!((115e-6..135e-6).contains(&t), "{t}");
    }

    /// The per-CTA request bound (`DEEPGEMM_SM_REQUESTS=1`, `iteration_s`): 5888x280x5640 TN on
    /// 128 x 144 asks ~608 requests a k-iteration (272 lines at 2.235, k = 8 mod 16), ~0.70 us
    /// at one SM's share of the L2's rate: over the math, and over the whole-L2 bound spread
    /// across 132 SMs when only 92 tiles run (`64b`: 71.6 us data-parallel, 54.3 in clusters
    /// of 2 x 1; at k = 5632, aligned, 45.7). Aligned lines stay under their math.
    #[test]
    fn each_cta_is_bound_by_its_own_requests() {
        let dev = DeviceSpec::H200;
        let v = Sm90Variant::new(ScalarType::BF16, ScalarType::BF16, 128, 144, 232_448).unwrap();
        let p = tn(5888, 280, 5640);
        let per_it = requests_per_iteration(&v, &p);
        assert!((per_it - 272.0 * 2.235).abs() < 2.0, "{per_it}");
        let request_s = per_it / SM_L2_REQUESTS_PER_S;
        let k_iters = p.k.div_ceil(v.block_k as u64);
        assert!(request_s * k_iters as f64 > 1.3 * l2_request_s(&v, &p, &dev));
        let flops = 2.0 * 128.0 * 144.0 * 64.0;
        assert!(request_s > flops / SM_PEAK_FLOPS);
        let aligned = tn(5888, 280, 5632);
        assert!(
            requests_per_iteration(&v, &aligned) / SM_L2_REQUESTS_PER_S < flops / SM_PEAK_FLOPS
        );
    }

    /// The one-wave request bound (`onewave_request_s`) binds a long one-wave data-parallel
    /// launch only, and there by each CTA's own requests: 5888x280x5640 on 92 tiles of 128 x 144
    /// (lines mid-sector) well over the whole L2's bound; nothing on a Stream-K schedule, a
    /// second wave, a short k or a small m or n; and a cluster of 2 x 1 asks less per CTA.
    #[test]
    fn one_wave_launches_are_bound_by_their_ctas_requests() {
        let dev = DeviceSpec::H200;
        let v = Sm90Variant::new(ScalarType::BF16, ScalarType::BF16, 128, 144, 232_448).unwrap();
        let p = tn(5888, 280, 5640);
        let tiles = v.num_tiles(&p);
        let k_iters = p.k.div_ceil(v.block_k as u64);
        assert_eq!(tiles, 92);
        let dp = Decomposition::data_parallel(tiles, &dev);
        let t = onewave_request_s(&v, &p, &dp, tiles, 132, k_iters, 1.0);
        assert!(t > 1.3 * l2_request_s(&v, &p, &dev), "{t}");
        // Twice the rate, half the time (but the epilogue).
        let t2 = onewave_request_s(&v, &p, &dp, tiles, 132, k_iters, 2.0);
        assert!((t2 - EPILOGUE_S - (t - EPILOGUE_S) / 2.0).abs() < 1e-9);
        // Not past one wave, not on a split schedule, not on a short k or a small side.
        assert_eq!(onewave_request_s(&v, &p, &dp, tiles, 64, k_iters, 1.0), 0.0);
        let sk = Decomposition {
            sk_tiles: tiles,
            sk_ctas: 132,
            ..dp
        };
        assert_eq!(
            onewave_request_s(&v, &p, &sk, tiles, 132, k_iters, 1.0),
            0.0
        );
        let short = tn(5888, 280, 4000);
        let short_iters = short.k.div_ceil(v.block_k as u64);
        assert!(short_iters < ONEWAVE_REQUESTS_MIN_K_ITERS);
        assert_eq!(
            onewave_request_s(&v, &short, &dp, tiles, 132, short_iters, 1.0),
            0.0
        );
        let small = tn(5888, 200, 5640);
        assert_eq!(
            onewave_request_s(&v, &small, &dp, tiles, 132, k_iters, 1.0),
            0.0
        );
        // B multicast in 2 x 1 halves B's share of each CTA's requests: by default (`67c`)
        // the planner took that twin there (`64b`: 54.3 us against 71.6 on the H100); since
        // session 68 the tall 192x72 in 1 x 2 with its ring epilogue (`67d`: its plain twin
        // 54.4 us against 70.9, on 124 CTAs as cuBLASLt's 192x72).
        let c2 = v.with_cluster(2).unwrap();
        let t_c2 = onewave_request_s(&c2, &p, &dp, tiles, 132, k_iters, 1.0);
        assert!(t_c2 < 0.8 * t, "{t_c2} {t}");
        if std::env::var_os("DEEPGEMM_ONEWAVE_REQUESTS").is_none() {
            assert_eq!(onewave_requests(), Some(ONEWAVE_REQUESTS_SCALE));
            let first = first_sm90(1, 0, 5888, 280, 5640);
            assert_eq!(
                (first.block_m, first.block_n, first.cluster_n),
                (192, 72, 2),
                "{}",
                first.name()
            );
        }
    }

    /// Clusters of 2 x 2 start cheaper than 2 x 1 and lead their 2 x 1 twin where both operands
    /// are MN-major (session 37, `37c`: the 84 shape-layouts of the kept sets it moved 0.950 of
    /// the time before). With 2 x 2 charged as 2 x 1 these went to 2 x 1 or unclustered plans.
    #[test]
    fn clusters_of_2x2_start_cheaper() {
        let first = |ta, tb, m, n, k| {
            let v = first_sm90(ta, tb, m, n, k);
            (v.block_n, v.cluster_m, v.cluster_n)
        };
        // TN 1240x1440x1816: 22.2 us on 128x160 unclustered, 17.9 on 128x128 in 2 x 2.
        assert_eq!(first(1, 0, 1240, 1440, 1816), (128, 2, 2));
        // NN 472x968x5336: 27.2 us on 128x112 split 36 x 72, 23.2 on 2 x 2 split 8 x 24.
        assert_eq!(first(0, 0, 472, 968, 5336), (128, 2, 2));
        // NT 1048x1328x7360: 54.9 us in 2 x 1, 45.1 in 2 x 2 (same tile).
        assert_eq!(first(0, 1, 1048, 1328, 7360), (128, 2, 2));
        // Set A stays where it was (4096^3 on 128x256, unclustered in TN).
        assert_eq!(first(1, 0, 4096, 4096, 4096), (256, 1, 1));
    }

    /// NT's M-major A is charged its L2 requests by its pitch on tiles 128+ wide, like the other
    /// layouts' operands (session 37: 3320x2952x13488 NT, A's lines 112 bytes into the L2's,
    /// ran 487.6 us on the 128x128 clusters the aligned charge chose, 403.9 on 128x256 in 2 x 2).
    #[test]
    fn nt_lines_off_the_sectors_are_charged() {
        let dev = DeviceSpec::H200;
        let nt = crate::problem::dense_bf16(3320, 2952, 13488, 0, 1);
        // Since session 48 a hybrid over clusters of 2 x 1 (`48b`: 375.1 us against 401.2 in
        // 2 x 2).
        let v = first_sm90(0, 1, 3320, 2952, 13488);
        assert_eq!((v.block_n, v.cluster_m, v.cluster_n), (256, 2, 1));
        // A's pitch, 6640 bytes (112 mod 128), costs more requests than an aligned one.
        let aligned = crate::problem::dense_bf16(3328, 2952, 13488, 0, 1);
        let c2 = Sm90Variant::with_layout(
            ScalarType::BF16,
            ScalarType::BF16,
            (Major::MN, Major::MN),
            128,
            128,
            HOPPER_SMEM_BUDGET,
        )
        .and_then(|v| v.with_cluster(2))
        .unwrap();
        assert!(l2_request_s(&c2, &nt, &dev) > 1.5 * l2_request_s(&c2, &aligned, &dev));
    }

    /// NT's unclustered tiles 128+ wide ran about as fast as their 2 x 1 twins (session 37,
    /// `37g`: 3624x2688x9944 NT 357.8 us on 128x128 in 2 x 1, 292.4 on 128x256 unclustered
    /// split 55 x 132); charged 1.15 over them, as an N-major B with a K-major A (TT) is, they
    /// lost every near-tie.
    /// (Session 58: the plan `37g` measured there, the small-phase hybrid sk55x132, is no
    /// longer offered; `58b` timed the unclustered 128 x 256 hybrid sk187x132 at 295.4 us, its
    /// 2 x 1 twin sk99x66 at 284.4.)
    #[test]
    fn nt_unclustered_wide_tiles_are_charged_near_their_clusters() {
        let p = crate::problem::dense_bf16(3624, 2688, 9944, 0, 1);
        let list = crate::plan::candidates(&p, &DeviceSpec::H200).unwrap();
        let unclustered_wide = list
            .iter()
            .find(|c| matches!(c.kernel, crate::plan::Kernel::Sm90(v) if v.block_n == 256 && v.cluster_m == 1 && !c.swap))
            .expect("an unclustered 128 x 256 plan among the candidates");
        assert!(
            (unclustered_wide.estimate_ns as f64) < 1.05 * list[0].estimate_ns as f64,
            "{unclustered_wide:?} against {:?}",
            list[0]
        );
        let unclustered = |major_a| {
            Sm90Variant::with_layout(
                ScalarType::BF16,
                ScalarType::BF16,
                (major_a, Major::MN),
                128,
                192,
                HOPPER_SMEM_BUDGET,
            )
            .unwrap()
        };
        let p = tn(4096, 4096, 4096);
        let ratio =
            iteration_s(&unclustered(Major::MN), &p) / iteration_s(&unclustered(Major::K), &p);
        assert!((ratio - MN_MN_UNCLUSTERED_FACTOR / MN_B_UNCLUSTERED_FACTOR).abs() < 1e-9);
    }

    /// Session 58 (`MN_B_128_FACTOR`): 3624x2688x9944 with an N-major B ran 403-404 us on the
    /// 128 x 128 tile in 2 x 1 it was planned on, NT 311 on 128 x 192 in 2 x 1 with sk78x66, TT
    /// 285 on the transposed NN 128 x 208 (`58c`, against the build before); 128 x 128 in
    /// 2 x 2 keeps its charge.
    #[test]
    fn n_major_b_128_tiles_are_charged_their_measured_mainloop() {
        for ta in [0, 1] {
            let v = first_sm90(ta, 1, 3624, 2688, 9944);
            assert!(v.block_n > 128, "{ta}: {v:?}");
        }
        let nt = crate::problem::dense_bf16(4096, 4096, 4096, 0, 1);
        let tile = |layout| {
            Sm90Variant::with_layout(
                ScalarType::BF16,
                ScalarType::BF16,
                layout,
                128,
                128,
                HOPPER_SMEM_BUDGET,
            )
            .unwrap()
        };
        let with = |cm, cn| {
            tile((Major::MN, Major::MN))
                .with_cluster_shape(cm, cn)
                .unwrap()
        };
        let k_major = tile((Major::MN, Major::K)).with_cluster(2).unwrap();
        let ratio = iteration_s(&with(2, 1), &nt) / iteration_s(&k_major, &nt);
        assert!((ratio - MN_B_128_FACTOR).abs() < 1e-9, "{ratio}");
        assert!(iteration_s(&with(2, 2), &nt) < iteration_s(&with(2, 1), &nt));
        // Unclustered too, over its own factor (NT's MN_MN_UNCLUSTERED_FACTOR at this width).
        let k_major_1 = Sm90Variant {
            cluster_m: 1,
            ..k_major
        };
        let ratio = iteration_s(&with(1, 1), &nt) / iteration_s(&k_major_1, &nt);
        assert!(
            (ratio - MN_B_128_FACTOR * MN_MN_UNCLUSTERED_FACTOR).abs() < 1e-9,
            "{ratio}"
        );
    }

    /// Session 57: a hybrid over clusters of 2 x 1 with a K-major B runs its Stream-K phase at
    /// the data-parallel rate (`crossings_free`), so 8192³ TN plans it first in bf16 and tf32
    /// (`57a`: 1367 against 1381 us, 2699-2752 against 2867-2881); unclustered hybrids, clusters
    /// of 2 x 2, data-parallel plans and an N-major B keep STREAMK_PHASE_FACTOR.
    #[test]
    fn cluster_hybrids_with_a_k_major_b_pay_no_tile_crossings() {
        let v = variant(256);
        let c2 = v.with_cluster(2).unwrap();
        // In CTAs (as `estimate_s` passes it): the last partial wave plus a full one (200 tiles
        // over 132 CTAs), or the partial wave alone (68 over 132), after data-parallel waves.
        let wave_more = Decomposition {
            sk_tiles: 200,
            sk_ctas: 132,
            grid: 132,
        };
        let partial_only = Decomposition {
            sk_tiles: 68,
            ..wave_more
        };
        assert!(crossings_free(&c2, &wave_more, 1));
        assert!(
            !crossings_free(&c2, &wave_more, 0),
            "no data-parallel waves"
        );
        assert!(!crossings_free(&c2, &partial_only, 1), "under a tile a CTA");
        assert!(!crossings_free(&v, &wave_more, 1));
        assert!(!crossings_free(
            &v.with_cluster_2x2().unwrap(),
            &wave_more,
            1
        ));
        let nt = Sm90Variant::with_layout(
            ScalarType::BF16,
            ScalarType::BF16,
            (Major::K, Major::MN),
            128,
            256,
            HOPPER_SMEM_BUDGET,
        )
        .unwrap()
        .with_cluster(2)
        .unwrap();
        assert!(!crossings_free(&nt, &wave_more, 1));
        // 8192³ TN, bf16 and tf32: the cluster hybrid first (the last 68 tiles plus a wave in
        // the Stream-K phase, as the unclustered hybrid it displaced: 34 + 66 row pairs).
        let tf32 = {
            use crate::problem::{MatrixSpec, OpSpec};
            use crate::types::{compute_type::COMPUTE_32F_FAST_TF32, cuda_data_type::R_32F};
            let mut op = OpSpec::new(COMPUTE_32F_FAST_TF32, R_32F);
            op.trans_a = 1;
            let a = MatrixSpec::col(R_32F, 8192, 8192, 8192);
            GemmProblem::new(&op, &a, &a, &a, &a).unwrap()
        };
        for p in [tn(8192, 8192, 8192), tf32] {
            let plan = &crate::plan::candidates(&p, &DeviceSpec::H200).unwrap()[0];
            let (k, d) = (plan.kernel, plan.decomposition);
            match k {
                crate::plan::Kernel::Sm90(v) => {
                    assert_eq!((v.block_n, v.cluster_m, v.cluster_n), (256, 2, 1), "{k:?}")
                }
                k => panic!("not sm90: {k:?}"),
            }
            assert_eq!((d.sk_tiles, d.sk_ctas), (100, 66), "{d:?}");
        }
    }

    /// Stream-K over multicast clusters (session 19): offered where the row-pair tiles are
    /// fewer than the clusters (split-K-like; `19f`: the 31 moved shape-layouts 0.920 of the time
    /// before), and since session 48 as the hybrid where they are more (`cluster_hybrids`;
    /// `19e` had measured 4888x832x4528 TT 1.22x slower on 128x128 clusters, and the model
    /// still leaves that shape unclustered in TT; `48b`: the 52 moved shape-layouts 0.92-0.98 of
    /// the time by layout).
    #[test]
    fn clusters_take_split_k_like_stream_k_and_hybrids() {
        let dev = DeviceSpec::H200;
        let c2 = variant(128).with_cluster(2).unwrap();
        // 1528 x 896: 6 row pairs x 7 columns = 42 tiles under 66 clusters.
        let under = tn(1528, 896, 14568);
        let list = decompositions_with(&c2, &under, &dev, Forced::Auto);
        assert!(list.len() > 1, "{list:?}");
        for (d, _) in &list[..] {
            assert_eq!(d.grid % 2, 0, "whole clusters: {d:?}");
            assert!(d.sk_ctas <= 66 && d.grid <= 132, "{d:?}");
            assert!(d.is_data_parallel() || d.sk_tiles == 42, "{d:?}");
        }
        // 4888 x 832: 20 row pairs x 7 columns = 140 tiles over 66 clusters: data-parallel
        // and the hybrid (the last 8 units plus a wave of 66 split); the 8 alone only when a
        // hybrid is forced (session 58: that form ran 1.04-1.10x its twin's time).
        let over_p = tn(4888, 832, 4528);
        let over = decompositions_with(&c2, &over_p, &dev, Forced::Auto);
        let mut tags: Vec<(u64, u32)> = over.iter().map(|(d, _)| (d.sk_tiles, d.sk_ctas)).collect();
        tags.sort();
        assert_eq!(tags, vec![(0, 0), (74, 66)], "{over:?}");
        let forced = decompositions_with(&c2, &over_p, &dev, Forced::Hybrid);
        let mut tags: Vec<(u64, u32)> = forced
            .iter()
            .map(|(d, _)| (d.sk_tiles, d.sk_ctas))
            .collect();
        tags.sort();
        assert_eq!(tags, vec![(8, 66), (74, 66)], "{forced:?}");
        // The planner takes it where it measured fastest: 1528x896x14568 TN 75.3 us on 128x192
        // clusters sk30x60 against 92.7 for 128x128 clusters data-parallel (`19f`).
        let plan = &crate::plan::candidates(&under, &dev).unwrap()[0];
        match plan.kernel {
            crate::plan::Kernel::Sm90(v) => assert_eq!((v.block_n, v.cluster_m), (192, 2)),
            k => panic!("not sm90: {k:?}"),
        }
        assert_eq!(plan.decomposition.sk_tiles, 30, "{plan:?}");
        assert_eq!(plan.grid[0], 120);
    }

    #[test]
    fn narrow_tiles_split_over_several_ctas_each_where_the_operands_fit_the_l2() {
        // `22d` (H200, TN): 112x952x6968 ran 23.3 us on the 128x32 split-K pairs, 18.7 on
        // 128x64 sk15x75; 912x320x3520 20.8 data-parallel on 128x32, 16.7 on 128x64 sk40x120.
        let dev = DeviceSpec::H200;
        for (m, n, k) in [(112, 952, 6968), (912, 320, 3520)] {
            // The model's first plan: `solo_for_short` puts the solo 64x64 ahead of it at
            // 912x320x3520 (55 k-iterations, 75 tiles), the plan second.
            let top = *crate::plan::candidates(&tn(m, n, k), &dev)
                .unwrap()
                .iter()
                .find(|c| !matches!(c.kernel, crate::plan::Kernel::Sm90(v) if v.solo()))
                .unwrap();
            let d = top.decomposition;
            match top.kernel {
                crate::plan::Kernel::Sm90(v) => assert_eq!(v.block_n, 64, "{top:?}"),
                k => panic!("not sm90: {k:?}"),
            }
            assert!(
                d.sk_tiles > 0 && d.sk_ctas as u64 >= 3 * d.sk_tiles,
                "{top:?}"
            );
        }
        // Under DATA_PARALLEL_FIXED_MIN_K_ITERS the data-parallel charge stays off: 304x2176x512
        // (8 k-iterations) ran 9.3 us data-parallel, 12.2 split (`22c`).
        let short = crate::plan::candidates(&tn(304, 2176, 512), &dev).unwrap()[0];
        assert!(short.decomposition.is_data_parallel(), "{short:?}");
    }

    /// Sessions 5 and 16's sweeps (H200) as ranking checks of the whole planner: the fill widths
    /// where they measured fastest, not where they measured slower than the model had them, and
    /// the Stream-K plans where they won or lost.
    #[test]
    fn fill_widths_are_ranked_as_measured() {
        let dev = DeviceSpec::H200;
        let first = |m, n, k| match crate::plan::candidates(&tn(m, n, k), &dev).unwrap()[0].kernel {
            crate::plan::Kernel::Sm90(v) => (v.block_n, v.cluster_m),
            k => panic!("not sm90: {k:?}"),
        };
        // 1664^2 x 8192: 13 x 10 = 130 tiles of 128x168 on 132 SMs, 62.0 us against 63.7 for
        // 128x176 and 67.3 for 117 of 128x192 (session 16, `16a`). 4096x2112x7168: 32 x 12
        // tiles of 176, 161.5 us against 173.6 (192).
        assert_eq!(first(1664, 1664, 8192).0, 168);
        assert_eq!(first(4096, 2112, 7168).0, 176);
        // 2432x1792x8192: 247 tiles of 144 (1.9 waves) ran 116 us, the 128x128 hybrid 104;
        // 133 tiles of 128x256 all Stream-K 99.4 (`16a`). Since session 71 the column-split
        // 192 x 192 ranks first (130 tiles, one wave; model 104.3 us against 108.4): not timed
        // at this shape; its like 1904x2248x12992 ran 142.6 us on 192 x 176 against 155.1 for
        // 128 x 256 Stream-K over all SMs (`71c`, H100).
        let listed = crate::plan::candidates(&tn(2432, 1792, 8192), &dev).unwrap();
        match listed[0].kernel {
            crate::plan::Kernel::Sm90(v) => assert!(v.column_split() && v.block_n == 192),
            k => panic!("not sm90: {k:?}"),
        }
        let sk = listed.iter().find_map(|c| match c.kernel {
            crate::plan::Kernel::Sm90(v) if !v.column_split() => Some(v.block_n),
            _ => None,
        });
        assert_eq!(sk, Some(256), "without them, 128 x 256 as measured");
        // 3000x1000x4000: 120 tiles of 208, 40.6 us against 46.7 for 96 of 256; 200 (five
        // tiles make 1000 exactly) is the model's choice, not measured. The tall 192x128 in the
        // ring it preferred for a while in session 68 ran 44.2 us against 128x200's 40.6
        // (`68g`, H100); `sm90::tall_pays` keeps aligned lines off the tall tiles.
        assert!(matches!(first(3000, 1000, 4000), (200 | 208, _) | (128, 1)));
        // Near-ties between a Stream-K hybrid and a data-parallel plan, each timed three times
        // in one process (session 16, `16d`): data-parallel won both.
        // 4096x7168x16384: 128x256 1173.7 us against 1193.9 with sk236;
        // 3456x4881x8192: 128x208 354.0 against 358.6 for 128x248 sk144.
        let top = |m, n, k| crate::plan::candidates(&tn(m, n, k), &dev).unwrap()[0];
        let big = top(4096, 7168, 16384);
        assert!(big.decomposition.is_data_parallel(), "{big:?}");
        assert_eq!(first(4096, 7168, 16384).0, 256);
        let ragged = top(3456, 4881, 8192);
        assert!(ragged.decomposition.is_data_parallel(), "{ragged:?}");
        assert_eq!(first(3456, 4881, 8192).0, 208);
        // Under a wave with operands in the L2 (session 17, `17f`): an even split of 128x128
        // tiles, 56 over 112 CTAs, 26.0 us against 33.6 data-parallel on 128x64 and 31.5 for
        // the uneven sk56x132.
        let under = top(432, 1736, 5600);
        let d = under.decomposition;
        assert!(
            d.sk_tiles > 0 && d.sk_ctas as u64 % d.sk_tiles == 0,
            "{under:?}"
        );
        // Even splits over several tile rows and columns with A + B beyond the L2 (session 18,
        // `18c`): 632x2104x13544 (74 MB) on 128x240 sk45x90 78.0 us against 89.4 for 128x128
        // clusters; 1184x808x7832 on 128x208 sk40x120 43.2 against 54.4. With one tile row or
        // column, or after data-parallel waves, they ran slower and stay off: 4096x128x7168 on
        // the split-K pairs 25.8 against 30.6 (128x128 sk32x128); 4208x2215x6912 on 128x192
        // data-parallel 171.9 against 184.2 (128x248 sk33x132).
        // Since session 21 the first takes 128x96 tiles in clusters of 1 x 4 instead, data-
        // parallel (`21b`: 76.6 us against 80.4 on 128x192 sk33x66).
        let d = top(1184, 808, 7832).decomposition;
        assert!(
            d.sk_tiles > 0 && d.sk_ctas as u64 % d.sk_tiles == 0,
            "{d:?}"
        );
        let along_n = top(632, 2104, 13544);
        match along_n.kernel {
            crate::plan::Kernel::Sm90(v) => {
                assert_eq!(
                    (v.block_n, v.cluster_m, v.cluster_n),
                    (96, 1, 4),
                    "{along_n:?}"
                )
            }
            k => panic!("not sm90: {k:?}"),
        }
        assert!(along_n.decomposition.is_data_parallel());
        // Since session 22 (the data-parallel fixed cost) 4096x128x7168 takes 128x64 split
        // evenly over 128 CTAs (swapped) instead of the split-K pairs: a tie in `22d` (TN 26.3
        // us against 25.7, NN 25.4 / 25.7, TT 26.8 / 26.9, NT 25.9 / 25.9); either may rank first.
        let narrow = top(4096, 128, 7168);
        let d = narrow.decomposition;
        match narrow.kernel {
            crate::plan::Kernel::Sm90(v) => assert!(
                v.split_k == 2
                    || (v.block_n == 64 && d.sk_tiles > 0 && d.sk_ctas as u64 % d.sk_tiles == 0),
                "{narrow:?}"
            ),
            k => panic!("not sm90: {k:?}"),
        }
        assert!(top(4208, 2215, 6912).decomposition.is_data_parallel());
        // An M-major A's lines off the sectors (NN, session 18 `18f`): 3688x1336x4584 on
        // 128x176 clusters 83.6 us against 104.4 unclustered on 128x168; with an N-major B
        // too (NT) the charge chose 128x128 clusters at 632x2104x13544, 113.2 against 86.6 for
        // 128x192 sk55x110, and stays off.
        let kernel_of = |p: &GemmProblem| match crate::plan::candidates(p, &dev).unwrap()[0].kernel
        {
            crate::plan::Kernel::Sm90(v) => v,
            k => panic!("not sm90: {k:?}"),
        };
        let nn = kernel_of(&crate::problem::dense_bf16(3688, 1336, 4584, 0, 0));
        assert_eq!((nn.block_n, nn.cluster_m), (176, 2), "{nn:?}");
        let nt = crate::plan::candidates(&crate::problem::dense_bf16(632, 2104, 13544, 0, 1), &dev)
            .unwrap()[0];
        assert!(!nt.decomposition.is_data_parallel(), "{nt:?}");
        // An N-major B (TT) unclustered ran 1.06-1.34x slower than multicast in clusters of 2.
        let tt = crate::problem::dense_bf16(1000, 3000, 4000, 1, 1);
        match crate::plan::candidates(&tt, &dev).unwrap()[0].kernel {
            crate::plan::Kernel::Sm90(v) => assert_eq!((v.block_n, v.cluster_m), (192, 2)),
            k => panic!("not sm90: {k:?}"),
        }
    }
}
