//! The plan cache: `plan::candidates` computed once per problem and device, so that the host
//! path of a call costs a hash lookup instead of a planning pass (issue 4: host time per call
//! no more than cuBLASLt's).
//!
//! `candidates` is a pure function of the `GemmProblem`, the `DeviceSpec` and two switches read
//! from the environment once per process (`plan::portable_only`, `streamk::forced`); the key is
//! exactly those, so a cached list is the list `candidates` would return. Planning a 64^3 bf16
//! problem takes ~6 us on the CPU (every sm90 variant checked, the Stream-K model run for each
//! fitting tile and schedule, the list sorted), ~15 us at 4097^3 where the packed plans are
//! modelled too; a hit costs ~0.13 us (tests/host_overhead.rs, `--ignored --nocapture`).
//!
//! Each entry also holds the plans' encoded algos, so `from_algo` validates a caller's algo
//! with a comparison of words instead of re-planning and re-encoding every candidate.
//!
//! Thread-safe: the map is split into shards, each behind a `RwLock`, so threads calling with
//! different shapes rarely touch the same lock, and hits on one shape only share it for reading.
//! A miss plans outside the lock; when two threads miss on one key at once both plan and the
//! first insert wins, so every caller sees the same `Arc`.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use once_cell::sync::Lazy;
use parking_lot::RwLock;

use crate::error::Result;
use crate::plan::algo::{self, CONFIG_MAGIC};
use crate::plan::{self, ALGO_MAGIC, DeviceSpec, Plan, pack::Which, streamk};
use crate::problem::{GemmPointers, GemmProblem};
use crate::{invalid, unsupported};

/// Entries the process-wide cache holds by default. Each is a ~210-byte key plus its plans of
/// 240 bytes with their 64-byte algos: `MAX_SM90_PLANS + 1` for most problems (~3 KB with the
/// map's overhead), up to twice the Hopper plans plus the slab levels for misaligned ones
/// (~11 KB), so a full cache is ~12-45 MiB. A model's GEMMs have tens to hundreds of shapes.
pub const CAPACITY: usize = 4096;

/// Shards of the map (a power of two).
const SHARDS: usize = 16;

/// Everything `plan::candidates_for` depends on. Built only by `Key::new` / `Key::misaligned`,
/// which read the process's switches, so a key never pairs a problem with switches the planner
/// does not use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    problem: GemmProblem,
    dev: DeviceSpec,
    portable_only: bool,
    forced: streamk::Forced,
    /// A's and B's base addresses assumed off TMA's 16 bytes (`plan::candidates_for`).
    misaligned: Misaligned,
    /// A slab plan's block: its list without slab plans of its own (`plan::block_candidates`).
    block: bool,
}

impl Key {
    pub fn new(problem: &GemmProblem, dev: &DeviceSpec) -> Key {
        Key::misaligned(problem, dev, Which::NONE)
    }

    /// The key of `plan::candidates_for(problem, dev, which)` (its A and B only).
    pub fn misaligned(problem: &GemmProblem, dev: &DeviceSpec, which: Which) -> Key {
        Key {
            problem: *problem,
            dev: *dev,
            portable_only: plan::portable_only(),
            forced: streamk::forced(),
            misaligned: Misaligned::of(which),
            block: false,
        }
    }

    /// The key of `plan::block_candidates(problem, dev, which)`.
    pub fn block(problem: &GemmProblem, dev: &DeviceSpec, which: Which) -> Key {
        Key {
            block: true,
            ..Key::misaligned(problem, dev, which)
        }
    }
}

/// Which of A and B a candidate list assumes at base addresses TMA cannot take, as the two
/// low bits of an algo's word 6 (A = 1, B = 2; 0 for the aligned list), so that an algo the
/// heuristic listed under a MIN_ALIGNMENT_A/B_BYTES preference below 16 decodes against the
/// list it came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Misaligned(u8);

impl Misaligned {
    pub fn of(which: Which) -> Misaligned {
        Misaligned(which.a as u8 | (which.b as u8) << 1)
    }

    /// From an algo's word 6; None for bits no list sets.
    pub fn from_word(word: u64) -> Option<Misaligned> {
        (word < 4).then_some(Misaligned(word as u8))
    }

    pub fn which(self) -> Which {
        Which {
            a: self.0 & 1 != 0,
            b: self.0 & 2 != 0,
            d: false,
        }
    }

    pub fn word(self) -> u64 {
        self.0 as u64
    }
}

/// The word of an algo that holds its list's `Misaligned` (`Plan::to_algo` leaves it 0).
pub const MISALIGNED_WORD: usize = 6;

/// `plan::candidates` for one key, best first, with each plan's `Plan::to_algo`.
#[derive(Debug, PartialEq, Eq)]
pub struct Ranked {
    plans: Vec<Plan>,
    algos: Vec<[u64; 8]>,
}

impl Ranked {
    pub fn new(plans: Vec<Plan>) -> Ranked {
        Ranked::misaligned(plans, Misaligned::default())
    }

    /// The list `plan::candidates_for` makes for operands at misaligned base addresses: each
    /// algo carries `m` in its word 6.
    pub fn misaligned(plans: Vec<Plan>, m: Misaligned) -> Ranked {
        let algos = plans
            .iter()
            .map(|p| {
                let mut a = p.to_algo();
                a[MISALIGNED_WORD] = m.word();
                a
            })
            .collect();
        Ranked { plans, algos }
    }

    pub fn plans(&self) -> &[Plan] {
        &self.plans
    }

    /// Each plan with its encoded algo, best first.
    pub fn iter(&self) -> impl Iterator<Item = (&Plan, &[u64; 8])> {
        self.plans.iter().zip(&self.algos)
    }

    /// `Plan::from_algo` over these candidates: the plan whose encoding is `data`.
    pub fn find_algo(&self, data: &[u64; 8]) -> Result<Plan> {
        if data[0] != ALGO_MAGIC {
            return Err(invalid!("algo was not produced by deepgemm's heuristic"));
        }
        self.iter()
            .find(|(_, a)| *a == data)
            .map(|(p, _)| *p)
            .ok_or_else(|| {
                invalid!(
                    "algo does not fit this problem (candidates: {})",
                    self.plans
                        .iter()
                        .map(|c| c.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
    }
}

/// The word-at-a-time multiplicative hash rustc uses for its own tables (FxHash). A key is ~30
/// machine words; SipHash (std's default, built to resist chosen keys) costs several times as
/// much, and resisting chosen keys buys nothing here: the keys are the caller's own shapes and
/// every shard is bounded.
#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(FX_SEED);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8-byte chunk")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type Shard = RwLock<HashMap<Key, Arc<Ranked>, BuildHasherDefault<FxHasher>>>;

/// A bounded map Key -> Ranked. When a shard is full it is cleared rather than having one entry
/// evicted: a full cache means the shapes are churning (dynamic sequence lengths, a sweep),
/// where no entry is worth more than another and most will not come back; clearing keeps the hit
/// path a read lock with no bookkeeping (an LRU would write on every hit), and what it drops
/// costs one re-plan each (a miss) if it does come back.
pub struct PlanCache {
    shards: Vec<Shard>,
    /// Entries it may hold (`set_capacity`); 0: nothing is kept, every call plans.
    capacity: AtomicUsize,
}

impl PlanCache {
    /// A cache holding at most `capacity` entries (rounded up to a whole number a shard); 0
    /// keeps none.
    pub fn new(capacity: usize) -> PlanCache {
        PlanCache {
            shards: (0..SHARDS).map(|_| RwLock::default()).collect(),
            capacity: AtomicUsize::new(capacity),
        }
    }

    /// The entries it may hold, as set.
    pub fn capacity(&self) -> usize {
        self.capacity.load(Ordering::Relaxed)
    }

    /// Sets the entries it may hold (0: none, every call plans); shards over the new bound are
    /// emptied now.
    pub fn set_capacity(&self, capacity: usize) {
        self.capacity.store(capacity, Ordering::Relaxed);
        let per_shard = Self::per_shard(capacity);
        for s in &self.shards {
            let mut map = s.write();
            if map.len() > per_shard {
                map.clear();
            }
        }
    }

    fn per_shard(capacity: usize) -> usize {
        capacity.div_ceil(SHARDS)
    }

    fn shard(&self, key: &Key) -> &Shard {
        let mut h = FxHasher::default();
        key.hash(&mut h);
        // The multiply leaves its best-mixed bits at the top.
        &self.shards[(h.finish() >> 60) as usize % SHARDS]
    }

    /// The candidates of `key`: the cached list, else `plan::candidates` (cached on success;
    /// errors are not cached: they are the caller's to fix, and cheap to find again).
    pub fn get_or_plan(&self, key: &Key) -> Result<Arc<Ranked>> {
        let shard = self.shard(key);
        if let Some(r) = shard.read().get(key) {
            return Ok(r.clone());
        }
        let which = key.misaligned.which();
        let plans = if key.block {
            plan::block_candidates(&key.problem, &key.dev, which)?
        } else {
            plan::candidates_for(&key.problem, &key.dev, which)?
        };
        let ranked = Arc::new(Ranked::misaligned(plans, key.misaligned));
        let mut map = shard.write();
        // Read under the lock: `set_capacity` stores, then empties each shard under its lock.
        let per_shard = Self::per_shard(self.capacity());
        if per_shard == 0 {
            return Ok(ranked);
        }
        if map.len() >= per_shard && !map.contains_key(key) {
            map.clear();
        }
        Ok(map.entry(*key).or_insert(ranked).clone())
    }

    /// Entries held now.
    pub fn len(&self) -> usize {
        self.shards.iter().map(|s| s.read().len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

static CACHE: Lazy<PlanCache> = Lazy::new(|| PlanCache::new(capacity_from_env()));

/// `DEEPGEMM_HEURISTICS_CACHE_CAPACITY` (cuBLASLt's CUBLASLT_HEURISTICS_CACHE_CAPACITY): the
/// process-wide cache's entries, 0 to keep none; `CAPACITY` when unset or not a number.
fn capacity_from_env() -> usize {
    std::env::var("DEEPGEMM_HEURISTICS_CACHE_CAPACITY")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(CAPACITY)
}

/// The process-wide cache's capacity (cublasLtHeuristicsCacheGetCapacity).
pub fn capacity() -> usize {
    CACHE.capacity()
}

/// Sets the process-wide cache's capacity (cublasLtHeuristicsCacheSetCapacity); 0 turns it
/// off (every call plans again: ~6-15 us of CPU time).
pub fn set_capacity(capacity: usize) {
    CACHE.set_capacity(capacity);
    if capacity == 0 {
        CONFIGURED.write().clear();
    }
}

/// `plan::candidates(p, dev)` through the process-wide cache.
pub fn candidates(p: &GemmProblem, dev: &DeviceSpec) -> Result<Arc<Ranked>> {
    CACHE.get_or_plan(&Key::new(p, dev))
}

/// `plan::candidates_for(p, dev, misaligned)` through the process-wide cache (its A and B).
pub fn candidates_for(p: &GemmProblem, dev: &DeviceSpec, misaligned: Which) -> Result<Arc<Ranked>> {
    CACHE.get_or_plan(&Key::misaligned(p, dev, misaligned))
}

/// `plan::block_candidates(p, dev, misaligned)` through the process-wide cache.
pub fn block_candidates(
    p: &GemmProblem,
    dev: &DeviceSpec,
    misaligned: Which,
) -> Result<Arc<Ranked>> {
    CACHE.get_or_plan(&Key::block(p, dev, misaligned))
}

/// `Plan::from_algo(data, p, dev)` through the cache: a lookup and a comparison of words,
/// in the list the algo's word 6 names (`Misaligned`); for an algo the heuristic listed for
/// another problem, its configuration's plan here (`from_algo_within`).
pub fn from_algo(data: &[u64; 8], p: &GemmProblem, dev: &DeviceSpec) -> Result<Plan> {
    from_algo_within(data, p, dev, u64::MAX, |_| true)
}

/// `from_algo` for a call with `workspace_size` bytes: INVALID_VALUE where the algo's own plan
/// needs more; a reused algo resolved among the plans that fit it and `accepts` (the call's
/// pointers).
///
/// An algo is first looked up among `p`'s own candidates: the heuristic's algo for this very
/// problem runs exactly its plan. Else, if its words are deepgemm's, it was listed for another
/// problem (shape, layouts, epilogue, SM target): cuBLASLt runs such an algo's configuration on
/// any problem of its types, and engines rely on it (TensorRT-LLM profiles one m of a bucket
/// and reuses the tactic for the bucket's other m's, which deepgemm refused as INVALID_VALUE:
/// a review). It runs its configuration (word 7: family, tile, stages, cluster, split,
/// options) within `workspace_size` and `accepts`: a plan of `p`'s own candidates with that
/// configuration, else with the same kernel (family, tile, stages, cluster: the split follows
/// m), else the best plan of the configuration among every plan (`resolve_configured`, as an
/// AlgoInit algo), else the family's best, else `p`'s best plan (an algo for an aligned m must
/// not fail at a ragged one of its bucket); INVALID_VALUE for other types. First sight of a
/// problem costs ~0.4 ms of planning by its own candidates, ~1.5 ms where the wider search is
/// needed (CPU here, session 61), then a cached lookup.
fn from_algo_within(
    data: &[u64; 8],
    p: &GemmProblem,
    dev: &DeviceSpec,
    workspace_size: u64,
    accepts: impl Fn(&Plan) -> bool,
) -> Result<Plan> {
    if data[0] == CONFIG_MAGIC {
        // A configured algo (AlgoInit): its best plan for operands TMA reads in place.
        return resolve_configured(data, p, dev, Which::NONE, workspace_size, |_| true);
    }
    let misaligned = Misaligned::from_word(data[MISALIGNED_WORD]);
    let Some(m) = misaligned.filter(|_| data[0] == ALGO_MAGIC) else {
        // Refused before the lookup, so that foreign words never plan (or fill the cache).
        return Err(invalid!("algo was not produced by deepgemm's heuristic"));
    };
    let listed = candidates_for(p, dev, m.which())?;
    // The heuristic's algo for this very problem (a call's usual path): a comparison of words.
    if let Some((plan, _)) = listed.iter().find(|(_, a)| *a == data) {
        return if plan.workspace > workspace_size {
            Err(invalid!(
                "the algo needs {} workspace bytes, {workspace_size} given",
                plan.workspace
            ))
        } else {
            Ok(*plan)
        };
    }
    let Ok(algo::View::Plan { config, types }) = algo::View::of(data) else {
        return listed.find_algo(data); // its error
    };
    // Its types must be the problem's (INVALID_VALUE otherwise, as for AlgoInit's).
    let twin = algo::View::configured_words(&config, &types);
    configured_config(&twin, p, dev)?;
    // A plan of the configuration among this problem's own (cached) candidates first: the
    // configured universe costs ~1.4 ms of planning a new problem (~0.4 ms for the candidates)
    // and holds 64 problems, while an engine reusing one algo over every m of a bucket brings
    // many. The same configuration, else the same kernel (family, tile, stages, cluster) with
    // the schedule this problem's m gets: splits and Stream-K depend on it.
    let fits = |c: &&Plan| c.workspace <= workspace_size && accepts(c);
    let same_kernel = |x: algo::Config| {
        (x.id, x.tile, x.stages, x.cluster)
            == (config.id, config.tile, config.stages, config.cluster)
    };
    let own = || listed.plans().iter().filter(fits);
    let found = own()
        .find(|c| algo::Config::of(c) == config)
        .or_else(|| own().find(|c| same_kernel(algo::Config::of(c))))
        .copied()
        .map(Ok)
        .unwrap_or_else(|| {
            let family = algo::View::configured_words(&algo::Config::init(config.id), &types);
            let fit = match resolve_fit(&twin, p, dev, m.which(), workspace_size, &accepts)? {
                Fit::Found(c) => return Ok(c),
                miss => miss,
            };
            if let Fit::Found(c) =
                resolve_fit(&family, p, dev, m.which(), workspace_size, &accepts)?
            {
                return Ok(c);
            }
            // Not even the family has a plan here that fits (the solo tiles at an m whose
            // lines are off TMA's grid; every plan of the configuration copying A or B into
            // more workspace than the call has, where the algo's own problem needed none):
            // deepgemm's own choice for it, as for a NULL algo.
            match own().next() {
                Some(c) => Ok(*c),
                None => fit.into_result(&twin, workspace_size),
            }
        });
    if let Ok(c) = &found {
        crate::log::info(
            "algo",
            format!("an algo listed for another problem runs as {}", c.name()),
        );
    }
    found
}

/// `plan::choose_for_call` through the cache: with A or B at a base address TMA cannot
/// take, the first of that case's own candidates (`plan::candidates_for`: packed copies,
/// then blocks, then the portable kernel) that fits the workspace.
pub fn choose_for_call(
    p: &GemmProblem,
    dev: &DeviceSpec,
    ptrs: &GemmPointers,
    workspace_size: u64,
) -> Result<Plan> {
    let misaligned = plan::pack::pointer_misfits(ptrs);
    plan::choose_among(
        candidates_for(p, dev, misaligned)?.plans(),
        p,
        dev,
        ptrs,
        workspace_size,
    )
}

/// Every plan a configured algo may resolve to for one problem (`plan::configured_universe`),
/// with each plan's configuration, best first.
pub struct Universe {
    plans: Vec<(Plan, algo::Config)>,
}

impl Universe {
    /// The plans `want` admits, best first.
    pub fn admitted<'a>(&'a self, want: &'a algo::Config) -> impl Iterator<Item = &'a Plan> + 'a {
        self.plans
            .iter()
            .filter(move |(_, c)| want.admits(c))
            .map(|(p, _)| p)
    }
}

/// Problems whose universes are kept: a profiler works through one problem's configurations
/// at a time, and a universe holds every plan of a problem (~100-1,000: up to ~250 KB).
const UNIVERSES: usize = 64;

type UniverseMap = RwLock<HashMap<Key, Arc<Universe>, BuildHasherDefault<FxHasher>>>;

static CONFIGURED: Lazy<UniverseMap> = Lazy::new(UniverseMap::default);

/// A configured algo's configuration, checked against the problem: INVALID_VALUE for an algo
/// made for other types than the problem's (cuBLASLt: "descriptors do not match the algo"),
/// NOT_SUPPORTED for a configuration deepgemm never offers.
fn configured_config(data: &[u64; 8], p: &GemmProblem, dev: &DeviceSpec) -> Result<algo::Config> {
    let algo::View::Configured { config, types } = algo::View::of(data)? else {
        return Err(invalid!("not a configured algo"));
    };
    // The portable family runs FFMA where a device lacks mma.sync: an algo converted from such
    // a plan (its kernel's math) still matches the problem's tensor-core math there.
    let want = algo::Types::of(p);
    let fallback = config.id == algo::id::PORTABLE
        && !dev.has_mma_sync()
        && matches!(
            (types.math, want.math),
            (crate::types::Math::Ffma, crate::types::Math::Mma)
        );
    let alike = types.ab == want.ab && types.cd == want.cd && (types.math == want.math || fallback);
    if !alike {
        return Err(invalid!(
            "algo was initialized for {:?} x {:?} -> {:?}, the operation is {:?} x {:?} -> {:?}",
            types.ab,
            types.math,
            types.cd,
            p.ab_type,
            p.math,
            p.cd_type
        ));
    }
    if let Some(why) = config.unsupported_fields() {
        return Err(unsupported!("algo configuration: {why}"));
    }
    let mut config = config;
    if config.id == algo::id::PORTABLE
        && !dev.has_mma_sync()
        && types.math != crate::types::Math::Ffma
    {
        // An algo made for tensor-core math (AlgoInit with the problem's types) on a device
        // without mma.sync: its capabilities listed the mma.sync kernels' tiles and stages,
        // which the FFMA kernel that runs here does not have (a review found every such tile
        // or stage NOT_SUPPORTED on a T4). Those two fields cannot be met, so they are AUTO.
        config.tile = 0;
        config.stages = 0;
    }
    Ok(config)
}

/// The universe of `p` on `dev` with A and B at `misaligned` addresses, cached (at most
/// `UNIVERSES` problems; none when the plan cache is off).
fn universe(p: &GemmProblem, dev: &DeviceSpec, misaligned: Which) -> Result<Arc<Universe>> {
    let key = Key::misaligned(p, dev, misaligned);
    if let Some(u) = CONFIGURED.read().get(&key) {
        return Ok(u.clone());
    }
    let plans = plan::configured_universe(p, dev, misaligned)?
        .into_iter()
        .map(|c| (c, algo::Config::of(&c)))
        .collect();
    let u = Arc::new(Universe { plans });
    if capacity() == 0 {
        return Ok(u);
    }
    let mut map = CONFIGURED.write();
    if map.len() >= UNIVERSES && !map.contains_key(&key) {
        map.clear();
    }
    Ok(map.entry(key).or_insert(u).clone())
}

/// The plans a configured algo (`algo::View::Configured`) admits for `p` on `dev` with A and B
/// at `misaligned` addresses, best first. Where the problem has no work to configure (k = 0:
/// D = beta C, or an empty D) and no plan of the family takes it, the heuristic's plans: the
/// configuration is for the GEMMs the algo's types have work in (a MoE expert given no
/// tokens still runs).
pub fn configured_for(
    data: &[u64; 8],
    p: &GemmProblem,
    dev: &DeviceSpec,
    misaligned: Which,
) -> Result<Vec<Plan>> {
    let config = configured_config(data, p, dev)?;
    let u = universe(p, dev, misaligned)?;
    let list: Vec<Plan> = u.admitted(&config).copied().collect();
    if list.is_empty() && no_work(p) {
        return Ok(candidates_for(p, dev, misaligned)?.plans().to_vec());
    }
    Ok(list)
}

/// The best plan of each configuration of `family` for `p` on `dev` with A and B at
/// `misaligned` addresses, best first, each with the algo that runs it
/// (cublasLtMatmulAlgoGetHeuristic under SEARCH_LIMITED_BY_ALGO_ID), among the plans `keep`
/// allows: a plan the heuristic lists with its own algo (exactly that plan), any other as a
/// configured algo of the problem's types, which resolves to the first plan of its
/// configuration that fits the call (`configured_for`): this one, with the workspace and
/// pointers `keep` stood for.
pub fn family_candidates(
    p: &GemmProblem,
    dev: &DeviceSpec,
    misaligned: Which,
    family: i32,
    keep: impl Fn(&Plan) -> bool,
) -> Result<Vec<(Plan, [u64; 8])>> {
    let listed = candidates_for(p, dev, misaligned)?;
    let u = universe(p, dev, misaligned)?;
    let types = algo::Types::of(p);
    let mut seen = std::collections::HashSet::new();
    // The caller's filters first (workspace, alignment, ...), then the first plan of each
    // configuration: a configuration whose first plan needs too much workspace is still
    // listed by a later one that fits (blocks, no copy of D).
    Ok(u.plans
        .iter()
        .filter(|(pl, c)| c.id == family && keep(pl) && seen.insert(*c))
        .map(|(pl, c)| {
            let words = listed
                .iter()
                .find(|(l, _)| *l == pl)
                .map_or_else(|| algo::View::configured_words(c, &types), |(_, a)| *a);
            (*pl, words)
        })
        .collect())
}

/// NOT_SUPPORTED: no plan of this problem has the algo's configuration.
fn no_plan(data: &[u64; 8]) -> crate::Error {
    let c = algo::View::of(data).map(|v| v.config());
    unsupported!(
        "no plan of this problem has the algo's configuration ({c:?}); \
         deepgemmLtMatmulAlgoGetHeuristic lists those that run"
    )
}

/// Whether `p` has no work a configuration could shape (k = 0: D = beta C, or an empty D).
fn no_work(p: &GemmProblem) -> bool {
    p.k == 0 || p.is_empty() || p.batch == 0
}

/// The plan a configured algo runs (`configured_for`'s first that fits `workspace_size` and
/// `accepts`), found without collecting the list: this is a call's host path.
fn resolve_configured(
    data: &[u64; 8],
    p: &GemmProblem,
    dev: &DeviceSpec,
    misaligned: Which,
    workspace_size: u64,
    accepts: impl Fn(&Plan) -> bool,
) -> Result<Plan> {
    resolve_fit(data, p, dev, misaligned, workspace_size, accepts)?
        .into_result(data, workspace_size)
}

/// `resolve_configured` before its verdict becomes a status (a reused algo falls back on
/// every kind of miss).
fn resolve_fit(
    data: &[u64; 8],
    p: &GemmProblem,
    dev: &DeviceSpec,
    misaligned: Which,
    workspace_size: u64,
    accepts: impl Fn(&Plan) -> bool,
) -> Result<Fit> {
    let config = configured_config(data, p, dev)?;
    let u = universe(p, dev, misaligned)?;
    if no_work(p) && u.admitted(&config).next().is_none() {
        let listed = candidates_for(p, dev, misaligned)?;
        return Ok(fitting_configured(
            listed.plans().iter(),
            workspace_size,
            accepts,
        ));
    }
    Ok(fitting_configured(
        u.admitted(&config),
        workspace_size,
        accepts,
    ))
}

/// What a configured algo's plans offer a call (built and consumed once a call's lookup:
/// the plan is held by value as everywhere on this path).
#[allow(clippy::large_enum_variant)]
enum Fit {
    /// The first that fits the workspace and accepts the call.
    Found(Plan),
    /// The configuration has no plan for the problem.
    NoPlan,
    /// Every plan needs more workspace than the call has: the least of them.
    Short(u64),
    /// Those that fit the workspace refuse the call's pointers.
    Refused,
}

impl Fit {
    /// NOT_SUPPORTED for no plan or refused pointers, INVALID_VALUE for too little workspace
    /// (cuBLASLt's status for a workspace below the algo's).
    fn into_result(self, data: &[u64; 8], workspace_size: u64) -> Result<Plan> {
        match self {
            Fit::Found(c) => Ok(c),
            Fit::NoPlan => Err(no_plan(data)),
            Fit::Short(least) => Err(invalid!(
                "the algo needs {least} workspace bytes, {workspace_size} given"
            )),
            Fit::Refused => Err(unsupported!(
                "the algo's plans need 16-byte aligned A and B (TMA) here; choose another algo"
            )),
        }
    }
}

/// The first of a configured algo's plans that fits `workspace_size` and `accepts`.
fn fitting_configured<'a>(
    plans: impl Iterator<Item = &'a Plan>,
    workspace_size: u64,
    accepts: impl Fn(&Plan) -> bool,
) -> Fit {
    let (mut any, mut roomy, mut least) = (false, false, u64::MAX);
    for c in plans {
        any = true;
        if c.workspace > workspace_size {
            least = least.min(c.workspace);
        } else if accepts(c) {
            return Fit::Found(*c);
        } else {
            roomy = true;
        }
    }
    if !any {
        Fit::NoPlan
    } else if !roomy {
        Fit::Short(least)
    } else {
        Fit::Refused
    }
}

/// The caller's algo decoded for `p` on `dev` and checked against the workspace it comes with.
/// INVALID_VALUE for an algo that is not one of the candidates or needs more workspace.
pub fn decode_algo(
    data: &[u64; 8],
    p: &GemmProblem,
    dev: &DeviceSpec,
    workspace_size: u64,
) -> Result<Plan> {
    from_algo_within(data, p, dev, workspace_size, |_| true)
}

/// The plan one call runs (`gemm::run`): the caller's algo (`decode_algo`), which must also
/// accept the pointers, or deepgemm's choice for these pointers and workspace when `algo` is
/// None (`choose_for_call`).
pub fn for_call(
    p: &GemmProblem,
    dev: &DeviceSpec,
    ptrs: &GemmPointers,
    algo: Option<&[u64; 8]>,
    workspace_size: u64,
) -> Result<Plan> {
    match algo {
        Some(data) if data[0] == CONFIG_MAGIC => {
            // The first admitted plan for these pointers that fits the workspace.
            let misaligned = plan::pack::pointer_misfits(ptrs);
            resolve_configured(data, p, dev, misaligned, workspace_size, |c| {
                c.accepts(p, ptrs)
            })
        }
        Some(data) => {
            let plan = from_algo_within(data, p, dev, workspace_size, |c| c.accepts(p, ptrs))?;
            if !plan.accepts(p, ptrs) {
                return Err(unsupported!(
                    "{} needs 16-byte aligned A and B (TMA){}; choose another algo",
                    plan.name(),
                    if plan.swap && p.epilogue.bias {
                        ", and with its bias a 16-byte aligned D (and C, unless beta = 0 on the host)"
                    } else {
                        ""
                    }
                ));
            }
            Ok(plan)
        }
        None => choose_for_call(p, dev, ptrs, workspace_size),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::problem::{MatrixSpec, OpSpec, Scalar};
    use crate::types::{compute_type::*, cuda_data_type::*};

    /// bf16 (or `ty`) TN m x n x k with leading dimension `ld` for A and B (k when None).
    fn tn(m: u64, n: u64, k: u64, ty: i32, ld: Option<i64>) -> GemmProblem {
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_a = 1;
        let ld = ld.unwrap_or(k as i64);
        GemmProblem::new(
            &op,
            &MatrixSpec::col(ty, k, m, ld),
            &MatrixSpec::col(ty, k, n, ld),
            &MatrixSpec::col(ty, m, n, m as i64),
            &MatrixSpec::col(ty, m, n, m as i64),
        )
        .unwrap()
    }

    fn ptrs(a: u64) -> GemmPointers {
        GemmPointers {
            alpha: Scalar::Host(1.0),
            beta: Scalar::Host(0.0),
            a,
            b: 0x20000,
            c: 0x40000,
            d: 0x40000,
            bias: 0,
        }
    }

    /// Problems whose candidate lists differ: Hopper plans, packed plans first, portable only.
    fn problems() -> Vec<GemmProblem> {
        vec![
            tn(64, 64, 64, R_16BF, None),
            tn(64, 64, 64, R_16F, None),
            tn(64, 64, 128, R_16BF, None),
            tn(4096, 4096, 4096, R_16BF, None),
            tn(4097, 4097, 4097, R_16BF, None),
            tn(2048, 2048, 4096, R_16BF, Some(4100)),
            tn(100, 50, 30, R_32F, None),
        ]
    }

    #[test]
    fn capacity_zero_keeps_nothing_and_shrinking_empties() {
        let cache = PlanCache::new(0);
        for p in problems() {
            let got = cache.get_or_plan(&Key::new(&p, &DeviceSpec::H200)).unwrap();
            assert_eq!(
                got.plans(),
                &plan::candidates(&p, &DeviceSpec::H200).unwrap()[..]
            );
        }
        assert!(cache.is_empty());
        cache.set_capacity(1024);
        for p in problems() {
            cache.get_or_plan(&Key::new(&p, &DeviceSpec::H200)).unwrap();
        }
        let held = cache.len();
        assert_eq!(held, problems().len());
        assert_eq!(cache.capacity(), 1024);
        cache.set_capacity(0);
        assert!(cache.is_empty());
        // A bound of one entry a shard keeps each shard at most one.
        cache.set_capacity(SHARDS);
        for p in problems() {
            cache.get_or_plan(&Key::new(&p, &DeviceSpec::H200)).unwrap();
        }
        assert!(cache.len() <= SHARDS && !cache.is_empty());
    }

    #[test]
    fn hits_return_exactly_what_candidates_returns() {
        // A shard's bound (capacity / SHARDS) above the test's 21 keys: no shard empties, so
        // the count below holds whatever shards the keys hash to.
        let cache = PlanCache::new(SHARDS * 32);
        for dev in [DeviceSpec::H200, DeviceSpec::A100, DeviceSpec::T4] {
            for p in problems() {
                let key = Key::new(&p, &dev);
                let miss = cache.get_or_plan(&key).unwrap();
                let hit = cache.get_or_plan(&key).unwrap();
                assert!(Arc::ptr_eq(&miss, &hit), "the second lookup is a hit");
                let fresh = plan::candidates(&p, &dev).unwrap();
                assert_eq!(hit.plans(), &fresh[..], "{dev:?} {p:?}");
                for (plan, algo) in hit.iter() {
                    assert_eq!(*algo, plan.to_algo());
                }
            }
        }
        assert_eq!(cache.len(), 3 * problems().len());
    }

    #[test]
    fn different_problems_and_devices_do_not_collide() {
        let cache = PlanCache::new(1024);
        let h100_pcie = DeviceSpec {
            sm_count: 114,
            ..DeviceSpec::H200
        };
        let devs = [DeviceSpec::H200, h100_pcie, DeviceSpec::A100];
        let mut seen: Vec<(Key, Arc<Ranked>)> = Vec::new();
        for dev in devs {
            for p in problems() {
                let key = Key::new(&p, &dev);
                seen.push((key, cache.get_or_plan(&key).unwrap()));
            }
        }
        for (i, (k, r)) in seen.iter().enumerate() {
            for (k2, r2) in &seen[i + 1..] {
                assert_ne!(k, k2);
                assert!(!Arc::ptr_eq(r, r2), "{k:?} and {k2:?} share an entry");
            }
            // Each entry is its own key's list, whatever was planned after it.
            assert_eq!(
                r.plans(),
                &plan::candidates(&k.problem, &k.dev).unwrap()[..]
            );
        }
        // The grid follows the SM count: the 114-SM device's lists really differ.
        let big = tn(4096, 4096, 4096, R_16BF, None);
        let on = |dev| cache.get_or_plan(&Key::new(&big, &dev)).unwrap();
        assert_ne!(on(DeviceSpec::H200).plans(), on(h100_pcie).plans());
        assert_eq!(cache.len(), seen.len());
    }

    #[test]
    fn a_full_shard_is_cleared_and_the_cache_stays_bounded() {
        let cap = 2 * SHARDS;
        let cache = PlanCache::new(cap);
        let keys: Vec<Key> = (1..=40 * SHARDS as u64)
            .map(|m| Key::new(&tn(m, 64, 64, R_16BF, None), &DeviceSpec::H200))
            .collect();
        for (i, k) in keys.iter().enumerate() {
            let r = cache.get_or_plan(k).unwrap();
            assert!(
                cache.len() <= cap,
                "{} entries after {i} inserts",
                cache.len()
            );
            assert_eq!(r.plans()[0], plan::choose(&k.problem, &k.dev).unwrap());
            // What was just inserted is there.
            assert!(Arc::ptr_eq(&r, &cache.get_or_plan(k).unwrap()));
        }
        // The hash spreads keys over every shard.
        assert!(cache.shards.iter().all(|s| !s.read().is_empty()));
    }

    #[test]
    fn errors_are_returned_and_not_cached() {
        let cache = PlanCache::new(64);
        let old = DeviceSpec {
            cc_major: 7,
            cc_minor: 0,
            ..DeviceSpec::T4
        };
        let key = Key::new(&tn(64, 64, 64, R_16BF, None), &old);
        for _ in 0..2 {
            assert!(matches!(
                cache.get_or_plan(&key),
                Err(Error::NotSupported(_))
            ));
        }
        assert!(cache.is_empty());
    }

    #[test]
    fn sixteen_threads_see_one_consistent_list_per_key() {
        let cache = PlanCache::new(CAPACITY);
        let devs = [DeviceSpec::H200, DeviceSpec::A100];
        let keys: Vec<Key> = devs
            .iter()
            .flat_map(|d| problems().into_iter().map(move |p| Key::new(&p, d)))
            .collect();
        let expect: Vec<Vec<Plan>> = keys
            .iter()
            .map(|k| plan::candidates(&k.problem, &k.dev).unwrap())
            .collect();
        let seen: Vec<Vec<Arc<Ranked>>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..16)
                .map(|t| {
                    let (cache, keys, expect) = (&cache, &keys, &expect);
                    s.spawn(move || {
                        let mut got: Vec<Option<Arc<Ranked>>> = vec![None; keys.len()];
                        for round in 0..200 {
                            // Each thread walks the keys from its own offset, so first
                            // lookups of one key race between threads.
                            let i = (t + round) % keys.len();
                            let r = cache.get_or_plan(&keys[i]).unwrap();
                            assert_eq!(r.plans(), &expect[i][..]);
                            if let Some(prev) = &got[i] {
                                assert!(Arc::ptr_eq(prev, &r), "an entry changed");
                            }
                            got[i] = Some(r);
                        }
                        got.into_iter().map(Option::unwrap).collect()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        // Racing misses keep the first insert: every thread holds the same entries.
        for per_thread in &seen[1..] {
            for (a, b) in per_thread.iter().zip(&seen[0]) {
                assert!(Arc::ptr_eq(a, b));
            }
        }
        assert_eq!(cache.len(), keys.len());
    }

    /// A plan of `want`'s configuration (`algo::Config::of`), or where the problem has none of
    /// it, of its family; or NOT_SUPPORTED (the family has no plan for that problem).
    fn same_configuration(r: Result<Plan>, want: &Plan) -> bool {
        match r {
            Ok(got) => algo::Config::of(&got).id == algo::Config::of(want).id,
            Err(Error::NotSupported(_)) => true,
            Err(_) => false,
        }
    }

    /// TensorRT-LLM's reuse: the algos listed at m = 256 run at ragged m too, where A's lines
    /// (NT: ld = m) are off TMA's grid and the configuration's direct plans do not exist: the
    /// family's plan there (a packed copy), or deepgemm's choice, never an error.
    #[test]
    fn algos_listed_at_one_m_run_at_ragged_m() {
        let dev = DeviceSpec::H200;
        let nt = |m: u64| {
            let mut op = OpSpec::new(COMPUTE_32F, R_32F);
            op.trans_b = 1;
            GemmProblem::new(
                &op,
                &MatrixSpec::col(R_16F, m, 2000, m as i64),
                &MatrixSpec::col(R_16F, 1000, 2000, 1000),
                &MatrixSpec::col(R_32F, m, 1000, m as i64),
                &MatrixSpec::col(R_32F, m, 1000, m as i64),
            )
            .unwrap()
        };
        let listed = plan::candidates(&nt(256), &dev).unwrap();
        for m in [200, 129, 64, 17, 1] {
            let p = nt(m);
            for c in listed.iter().take(4) {
                let r = from_algo(&c.to_algo(), &p, &dev);
                let got = r.unwrap_or_else(|e| panic!("m = {m}, {}: {e}", c.name()));
                // Its configuration, else its family, else deepgemm's choice there.
                let first = plan::candidates(&p, &dev).unwrap()[0];
                assert!(
                    algo::Config::of(&got).id == algo::Config::of(c).id || got == first,
                    "m = {m}, {}: {}",
                    c.name(),
                    got.name()
                );
            }
        }
    }

    #[test]
    fn from_algo_accepts_every_candidate_and_rejects_foreign_algos() {
        let dev = DeviceSpec::H200;
        for p in problems() {
            let all = plan::candidates(&p, &dev).unwrap();
            for c in &all {
                let algo = c.to_algo();
                assert_eq!(from_algo(&algo, &p, &dev).unwrap(), *c);
                assert_eq!(
                    from_algo(&algo, &p, &dev).unwrap(),
                    Plan::from_algo(&algo, &p, &dev).unwrap()
                );
                for word in 0..8 {
                    let mut bad = algo;
                    bad[word] ^= 1 << 7;
                    let r = from_algo(&bad, &p, &dev);
                    match word {
                        // Not deepgemm's words, an unknown list, another implementation (type).
                        0 | 6 | 7 => assert!(
                            matches!(r, Err(Error::InvalidValue(_))),
                            "word {word} of {}",
                            c.name()
                        ),
                        // Another plan's words (as another problem's algo): its configuration.
                        _ => assert!(same_configuration(r, c), "word {word} of {}", c.name()),
                    }
                }
            }
        }
        // An algo made for another problem or device runs its configuration here (cuBLASLt's
        // reuse of a heuristic algo across shapes), one of other types is refused.
        let p = tn(304, 200, 128, R_16F, None);
        let others = [
            (tn(304, 200, 192, R_16F, None), dev),
            (tn(1000, 3000, 4000, R_16F, None), dev),
            (
                p,
                DeviceSpec {
                    sm_count: 114,
                    ..dev
                },
            ),
        ];
        let mut ran = 0;
        for (q, qdev) in others {
            for c in plan::candidates(&q, &qdev).unwrap() {
                let r = from_algo(&c.to_algo(), &p, &dev);
                ran += r.is_ok() as u32;
                assert!(same_configuration(r, &c), "{}", c.name());
            }
        }
        assert!(ran >= 3, "{ran}");
        for c in plan::candidates(&tn(304, 200, 128, R_16BF, None), &dev).unwrap() {
            assert!(
                matches!(
                    from_algo(&c.to_algo(), &p, &dev),
                    Err(Error::InvalidValue(_))
                ),
                "{}",
                c.name()
            );
        }
        let zeroed = [0u64; 8];
        assert!(matches!(
            from_algo(&zeroed, &p, &dev),
            Err(Error::InvalidValue(_))
        ));
    }

    /// A heuristic algo reused on a problem where every plan of its configuration needs more
    /// workspace than the call has (an aligned k's algo at an odd k: A and B must be copied
    /// first) runs the problem's own best plan within it, as a NULL algo would, not
    /// INVALID_VALUE (a review: the configuration's shortfall skipped the fall-backs); the
    /// algo's own problem still gets INVALID_VALUE for too little workspace.
    #[test]
    fn a_reused_algo_short_of_workspace_falls_back_to_the_problems_own_plan() {
        let dev = DeviceSpec::H200;
        let aligned = tn(4096, 4096, 4096, R_16BF, None);
        let ragged = tn(4096, 4096, 4095, R_16BF, None);
        let reused: Vec<Plan> = plan::candidates(&aligned, &dev)
            .unwrap()
            .into_iter()
            .filter(|c| c.workspace == 0 && matches!(c.kernel, plan::Kernel::Sm90(_)))
            .collect();
        assert!(!reused.is_empty());
        let own = for_call(&ragged, &dev, &ptrs(0x10000), None, 0).unwrap();
        assert_eq!(own.workspace, 0);
        for c in &reused {
            let r = for_call(&ragged, &dev, &ptrs(0x10000), Some(&c.to_algo()), 0);
            let got = r.unwrap_or_else(|e| panic!("{}: {e:?}", c.name()));
            assert_eq!(got.workspace, 0, "{} ran as {}", c.name(), got.name());
            // With room for the copies, its configuration's plan (copying A and B).
            let roomy = for_call(&ragged, &dev, &ptrs(0x10000), Some(&c.to_algo()), 1 << 30);
            assert!(roomy.unwrap().workspace > 0, "{}", c.name());
        }
        // A plan that needs workspace, on its own problem with too little: INVALID_VALUE.
        let needy = plan::candidates(&ragged, &dev)
            .unwrap()
            .into_iter()
            .find(|c| c.workspace > 0)
            .unwrap();
        assert!(matches!(
            for_call(&ragged, &dev, &ptrs(0x10000), Some(&needy.to_algo()), 0),
            Err(Error::InvalidValue(_))
        ));
    }

    #[test]
    fn for_call_decodes_checks_and_chooses() {
        let dev = DeviceSpec::H200;
        let p = tn(256, 256, 256, R_16BF, None);
        let all = plan::candidates(&p, &dev).unwrap();
        let aligned = ptrs(0x10000);
        // No algo: deepgemm's choice, as `plan::choose_for_call` makes it.
        for ws in [0, 1 << 20, 32 << 20] {
            assert_eq!(
                for_call(&p, &dev, &aligned, None, ws).unwrap(),
                plan::choose_for_call(&p, &dev, &aligned, ws).unwrap()
            );
        }
        for c in &all {
            let algo = c.to_algo();
            assert_eq!(
                for_call(&p, &dev, &aligned, Some(&algo), c.workspace).unwrap(),
                *c
            );
            if c.workspace > 0 {
                assert!(matches!(
                    for_call(&p, &dev, &aligned, Some(&algo), c.workspace - 1),
                    Err(Error::InvalidValue(_))
                ));
            }
            // A Hopper algo with a misaligned A is refused; the portable one takes it.
            let r = for_call(&p, &dev, &ptrs(0x10002), Some(&algo), c.workspace);
            match c.kernel {
                plan::Kernel::Sm90(_) => assert!(matches!(r, Err(Error::NotSupported(_)))),
                _ => assert_eq!(r.unwrap(), *c),
            }
        }
    }

    #[test]
    fn fx_hasher_reads_every_byte() {
        let hash = |b: &[u8]| {
            let mut h = FxHasher::default();
            h.write(b);
            h.finish()
        };
        let base = [7u8; 13];
        for i in 0..base.len() {
            let mut b = base;
            b[i] ^= 1;
            assert_ne!(hash(&b), hash(&base), "byte {i}");
        }
    }
}
