//! One shape through deepgemm and cuBLASLt: same inputs, same stream, checked output,
//! interleaved event timing.

use std::time::Instant;

use crate::args::{CheckMode, Options};
use crate::case::{Prepared, WORKSPACE_BYTES};
use crate::device::{DevBuf, Event, Gpu, Stream};
use crate::host::{self, Comparison, GemmSpec, Order, Rng};
use crate::json::{Json, obj};
use crate::lt::{self, Algo, Descs, LtApi, LtHandle};

/// Workspace given to each library (and as MAX_WORKSPACE_BYTES to its heuristic): 32 MiB
/// unless `--workspace-mib` says otherwise. Set once, before the first `Lib::new`.
pub static WORKSPACE: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(WORKSPACE_BYTES);

/// cublasLtMatmulDescAttributes_t's SM_COUNT_TARGET (int32_t), both libraries.
const SM_COUNT_TARGET: i32 = 15;

pub fn workspace_bytes() -> usize {
    WORKSPACE.load(std::sync::atomic::Ordering::Relaxed)
}

/// A library ready to run: its entry points, a handle and its workspace (`workspace_bytes`).
pub struct Lib<'a> {
    pub api: &'a LtApi,
    pub handle: LtHandle<'a>,
    pub workspace: DevBuf,
}

impl<'a> Lib<'a> {
    pub fn new(api: &'a LtApi) -> Result<Lib<'a>, String> {
        Ok(Lib {
            api,
            handle: LtHandle::new(api)?,
            workspace: DevBuf::alloc(workspace_bytes())?,
        })
    }
}

/// Median, min and max of event-timed launches, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    pub median_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
    pub samples: usize,
}

impl Timing {
    /// None for an empty list.
    pub fn from_samples(ms: &[f64]) -> Option<Timing> {
        if ms.is_empty() {
            return None;
        }
        let mut v = ms.to_vec();
        v.sort_by(|a, b| a.total_cmp(b));
        let n = v.len();
        let median = if n % 2 == 1 {
            v[n / 2]
        } else {
            0.5 * (v[n / 2 - 1] + v[n / 2])
        };
        Some(Timing {
            median_ms: median,
            min_ms: v[0],
            max_ms: v[n - 1],
            samples: n,
        })
    }

    pub fn tflops(&self, flops: f64) -> f64 {
        flops / (self.median_ms * 1e-3) / 1e12
    }
}

/// What happened to one library on one shape.
#[derive(Debug, Default)]
pub struct LibResult {
    pub name: String,
    /// The kernel the heuristic chose, when known.
    pub algo_label: String,
    pub heuristic_ms: f64,
    pub workspace_bytes: usize,
    /// Host wall time of the first launch + synchronize (JIT compile or cache load
    /// included), excluded from `timing`.
    pub first_ms: f64,
    pub timing: Option<Timing>,
    /// Against the float64 reference (full or sampled).
    pub check: Option<Comparison>,
    /// The output after the timed launches equals the checked output, bit for bit.
    pub stable: Option<bool>,
    pub error: Option<String>,
}

/// Everything measured for one shape.
pub struct ShapeResult {
    pub spec: GemmSpec,
    pub check_mode: &'static str,
    pub dg: LibResult,
    pub lt: Option<LibResult>,
    /// deepgemm's output against cuBLASLt's, every element.
    pub dg_vs_lt: Option<Comparison>,
    pub passed: bool,
    pub why_failed: Vec<String>,
    /// `--sweep`: every heuristic candidate of deepgemm's, in rank order.
    pub sweep: Vec<SweepEntry>,
    /// `--sweep --interleave`: cuBLASLt's timing among the interleaved candidates.
    pub sweep_lt: Option<Timing>,
}

/// One deepgemm candidate timed by `--sweep`.
#[derive(Debug, Default)]
pub struct SweepEntry {
    pub rank: usize,
    pub name: String,
    /// The cost model's estimate (0 when the plan is not modelled).
    pub estimate_us: f64,
    pub timing: Option<Timing>,
    /// Its output against the chosen candidate's.
    pub check: Option<Comparison>,
    pub error: Option<String>,
}

impl ShapeResult {
    /// cuBLASLt time over deepgemm time: above 1 when deepgemm is faster.
    pub fn ratio(&self) -> Option<f64> {
        let dg = self.dg.timing?;
        let lt = self.lt.as_ref()?.timing?;
        Some(lt.median_ms / dg.median_ms)
    }
}

/// Shared state of a bench run.
pub struct Bench<'a> {
    pub gpu: &'a Gpu,
    pub opts: &'a Options,
    pub dg: Lib<'a>,
    pub lt: Option<Lib<'a>>,
    pub stream: Stream,
    /// Overwritten between timed launches so that each starts with a cold L2, like
    /// the peer figures (do_bench with L2 flush).
    pub flush: Option<DevBuf>,
}

/// The spec the options describe for one shape (alpha 1, `--beta`: 0 by default, C then passed
/// as D).
pub fn spec_for(opts: &Options, (m, n, k): (u64, u64, u64)) -> GemmSpec {
    let mut s = GemmSpec::new(opts.dtype.dtype(), opts.out_dtype(), m, n, k);
    s.tf32 = opts.dtype == crate::args::InType::Tf32;
    s.trans_a = opts.trans_a;
    s.trans_b = opts.trans_b;
    s.batch = opts.batch;
    s.pad = opts.pad;
    s.shift = opts.offset;
    if opts.beta == 0.0 {
        // C's pointer is D's (C is not read): its layout too.
        s.pad[host::C] = s.pad[host::D];
    }
    s.epi = opts.epi;
    s.beta = opts.beta;
    s
}

/// Which check a shape gets: `Auto` is full up to 1024^3 multiply-adds.
pub fn resolve_check(mode: CheckMode, spec: &GemmSpec) -> CheckMode {
    match mode {
        CheckMode::Auto => {
            let macs = spec.m as f64 * spec.n as f64 * spec.k as f64 * spec.batch as f64;
            if macs <= (1u64 << 30) as f64 {
                CheckMode::Full
            } else {
                CheckMode::Sample
            }
        }
        m => m,
    }
}

/// Sampled reference entries per check (plus the corners).
const SAMPLES: usize = 384;

/// A library set up for one shape: descriptors, the heuristic's algorithm, its output.
struct Side<'a, 'b> {
    lib: &'b Lib<'a>,
    descs: Descs<'a>,
    algo: Algo,
    d: DevBuf,
}

impl Side<'_, '_> {
    fn launch(&self, prep: &Prepared, stream: &Stream) -> Result<(), String> {
        let args = prep.args(&self.d, Some(&self.lib.workspace), stream.raw());
        lt::matmul(&self.lib.handle, &self.descs, Some(&self.algo), &args)
    }
}

/// The library's own description of `spec`, as its C API builds it from the descriptors.
pub fn problem_of(spec: &GemmSpec) -> deepgemm::error::Result<deepgemm::problem::GemmProblem> {
    use deepgemm::problem::{GemmProblem, MatrixSpec, OpSpec};
    let mut op = OpSpec::new(spec.compute_type(), host::R_32F);
    op.trans_a = spec.trans_a as i32;
    op.trans_b = spec.trans_b as i32;
    op.epilogue = spec.epi.cuda() as i32;
    let m = |which: usize| {
        let g = spec.geom(which);
        let t = if which < 2 { spec.ab } else { spec.cd };
        MatrixSpec {
            dtype: t.cuda(),
            order: if g.order == Order::Col { 0 } else { 1 },
            rows: g.rows,
            cols: g.cols,
            ld: g.ld as i64,
            batch_count: spec.batch as i32,
            batch_stride: g.batch_stride as i64,
        }
    };
    GemmProblem::new(&op, &m(host::A), &m(host::B), &m(host::C), &m(host::D))
}

/// deepgemm's kernel name for the algo its heuristic returned, decoded with the
/// library's own `plan::cache::from_algo` over the same problem (the list its word 6 names).
fn deepgemm_variant(gpu: &Gpu, sm_target: u32, spec: &GemmSpec, algo: &Algo) -> String {
    let dev = device_spec(gpu).with_sm_target(sm_target);
    match problem_of(spec).and_then(|p| deepgemm::plan::cache::from_algo(&algo.data, &p, &dev)) {
        Ok(plan) => plan.name(),
        // Not a plan `plan::choose` makes for this problem: show the raw words.
        Err(e) => format!("algo {:x?} ({e})", &algo.data[1..4]),
    }
}

impl Bench<'_> {
    /// Runs one shape end to end. Never returns an error: failures are recorded in the
    /// result (so one bad shape does not hide the others).
    pub fn run_shape(&self, shape: (u64, u64, u64), rng: &mut Rng) -> ShapeResult {
        let spec = spec_for(self.opts, shape);
        let mode = resolve_check(self.opts.check, &spec);
        let mut r = ShapeResult {
            spec: spec.clone(),
            check_mode: match mode {
                CheckMode::Full => "full",
                CheckMode::Sample => "sample",
                _ => "none",
            },
            dg: LibResult {
                name: self.dg.api.name.to_string(),
                ..Default::default()
            },
            lt: self.lt.as_ref().map(|l| LibResult {
                name: l.api.name.to_string(),
                ..Default::default()
            }),
            dg_vs_lt: None,
            passed: false,
            why_failed: Vec::new(),
            sweep: Vec::new(),
            sweep_lt: None,
        };
        if let Err(e) = self.measure(&spec, mode, rng, &mut r) {
            r.why_failed.push(e);
        }
        self.judge(&mut r);
        r
    }

    fn judge(&self, r: &mut ShapeResult) {
        let tol = r.spec.tolerance();
        if let Some(e) = &r.dg.error {
            r.why_failed.push(format!("deepgemm: {e}"));
        }
        match &r.dg.check {
            Some(c) if !c.passes(tol) => r
                .why_failed
                .push(format!("deepgemm vs reference: {c} (tolerance {tol:.0e})")),
            _ => {}
        }
        if let Some(c) = &r.dg_vs_lt {
            if r.check_mode == "sample" && !c.passes(tol) {
                r.why_failed
                    .push(format!("deepgemm vs cuBLASLt: {c} (tolerance {tol:.0e})"));
            }
        }
        if r.dg.stable == Some(false) {
            r.why_failed
                .push("deepgemm: output changed between identical launches".into());
        }
        if r.dg.timing.is_none() && r.why_failed.is_empty() {
            r.why_failed.push("deepgemm was not timed".into());
        }
        r.passed = r.why_failed.is_empty();
    }

    fn side<'b>(
        &'b self,
        lib: &'b Lib<'b>,
        spec: &GemmSpec,
        prep: &Prepared,
        res: &mut LibResult,
    ) -> Result<Side<'b, 'b>, String> {
        let descs = Descs::new(lib.api, spec, prep.bias_ptr(), workspace_bytes() as u64)?;
        if self.opts.sm_target > 0 {
            descs
                .desc
                .set(SM_COUNT_TARGET, self.opts.sm_target as i32)?;
        }
        let t = Instant::now();
        let is_dg = std::ptr::eq(lib.api, self.dg.api);
        let rank = if is_dg { self.opts.algo_index } else { 0 };
        let h = descs.heuristic_nth(&lib.handle, workspace_bytes() as u64, rank)?;
        res.heuristic_ms = t.elapsed().as_secs_f64() * 1e3;
        res.workspace_bytes = h.workspace_size;
        res.algo_label = if is_dg {
            deepgemm_variant(self.gpu, self.opts.sm_target, spec, &h.algo)
        } else {
            format!("heuristic #0, {:.2} waves", h.waves_count)
        };
        Ok(Side {
            lib,
            descs,
            algo: h.algo,
            d: prep.new_output()?,
        })
    }

    fn measure(
        &self,
        spec: &GemmSpec,
        mode: CheckMode,
        rng: &mut Rng,
        r: &mut ShapeResult,
    ) -> Result<(), String> {
        let need = crate::case::footprint(spec) as f64 * 1.1;
        let (free, _) = cudarc::driver::result::mem_get_info().map_err(|e| e.to_string())?;
        if need > free as f64 {
            return Err(format!(
                "needs about {:.1} GiB of device memory, {:.1} GiB free",
                need / (1u64 << 30) as f64,
                free as f64 / (1u64 << 30) as f64
            ));
        }
        // beta != 0: C apart from D, so every launch computes the same D from the same C.
        let prep = Prepared::new(spec, rng, spec.beta != 0.0)?;
        let dg = match self.side(&self.dg, spec, &prep, &mut r.dg) {
            Ok(s) => s,
            Err(e) => {
                r.dg.error = Some(e);
                return Ok(());
            }
        };
        let mut lt = None;
        if let (Some(lib), Some(res)) = (&self.lt, r.lt.as_mut()) {
            match self.side(lib, spec, &prep, res) {
                Ok(s) => lt = Some(s),
                Err(e) => res.error = Some(e),
            }
        }

        // First calls: deepgemm's includes its JIT compile or disk-cache load.
        self.stream.synchronize()?;
        let t = Instant::now();
        let first = dg
            .launch(&prep, &self.stream)
            .and_then(|_| self.stream.synchronize());
        r.dg.first_ms = t.elapsed().as_secs_f64() * 1e3;
        if let Err(e) = first {
            r.dg.error = Some(e);
            return Ok(());
        }
        if let Some(s) = &lt {
            let res = r.lt.as_mut().expect("lt result exists with lt side");
            let t = Instant::now();
            match s
                .launch(&prep, &self.stream)
                .and_then(|_| self.stream.synchronize())
            {
                Ok(()) => res.first_ms = t.elapsed().as_secs_f64() * 1e3,
                Err(e) => {
                    res.error = Some(e);
                    lt = None;
                }
            }
        }

        // Check the first outputs.
        let d_dg = dg.d.download()?;
        let d_lt = match &lt {
            Some(s) => Some(s.d.download()?),
            None => None,
        };
        match mode {
            CheckMode::Full => {
                let w = prep.widened();
                let reference = host::reference(spec, &w);
                r.dg.check = Some(host::compare_full(spec, &d_dg, &prep.d_before, &reference));
                if let (Some(d), Some(res)) = (&d_lt, r.lt.as_mut()) {
                    res.check = Some(host::compare_full(spec, d, &prep.d_before, &reference));
                }
            }
            CheckMode::Sample => {
                let w = prep.widened();
                let sample_seed = rng.next_u64();
                let mut srng = Rng::new(sample_seed);
                r.dg.check = Some(host::compare_sampled(spec, &w, &d_dg, SAMPLES, &mut srng));
                if let (Some(d), Some(res)) = (&d_lt, r.lt.as_mut()) {
                    let mut srng = Rng::new(sample_seed);
                    res.check = Some(host::compare_sampled(spec, &w, d, SAMPLES, &mut srng));
                }
            }
            _ => {}
        }
        if let Some(d) = &d_lt {
            if mode != CheckMode::None {
                r.dg_vs_lt = Some(host::compare_outputs(spec, &d_dg, d));
            }
        }

        let sides: Vec<&Side> = std::iter::once(&dg).chain(lt.as_ref()).collect();
        let timings = self.time_sides(&sides, &prep)?;
        r.dg.timing = timings[0];
        if sides.len() > 1 {
            if let Some(res) = r.lt.as_mut() {
                res.timing = timings[1];
            }
        }
        // The same inputs must give the same bits every time: a changed output after
        // the timed launches means a race or uninitialised reads.
        r.dg.stable = Some(dg.d.download()? == d_dg);
        if let (Some(s), Some(d), Some(res)) = (&lt, &d_lt, r.lt.as_mut()) {
            res.stable = Some(s.d.download()? == *d);
        }
        if self.opts.sweep {
            if self.opts.interleave {
                self.sweep_interleaved(spec, &prep, &d_dg, lt.as_ref(), r)?;
            } else {
                self.sweep(spec, &prep, &d_dg, r)?;
            }
        }
        Ok(())
    }

    /// The warm-up launches, then `--iters` event-timed launches of each side, interleaved
    /// (alternating which side goes first, so neither always runs right after the other), L2
    /// flushed before each when asked; each side's timing, in `sides`' order. With `--chain N`
    /// a sample is N launches back to back, its time divided by N.
    #[allow(clippy::needless_range_loop)]
    fn time_sides(&self, sides: &[&Side], prep: &Prepared) -> Result<Vec<Option<Timing>>, String> {
        for _ in 0..self.opts.warmup {
            for s in sides {
                s.launch(prep, &self.stream)?;
            }
        }
        self.stream.synchronize()?;
        let iters = self.opts.iters;
        let mut events: Vec<Vec<(Event, Event)>> = Vec::new();
        for _ in sides {
            let mut v = Vec::with_capacity(iters);
            for _ in 0..iters {
                v.push((Event::new()?, Event::new()?));
            }
            events.push(v);
        }
        for it in 0..iters {
            for q in 0..sides.len() {
                let s = if it % 2 == 0 { q } else { sides.len() - 1 - q };
                if let Some(f) = &self.flush {
                    f.fill_async(4, 0, f.bytes / 4, self.stream.0)?;
                }
                let (start, end) = &events[s][it];
                start.record(&self.stream)?;
                for _ in 0..self.opts.chain {
                    sides[s].launch(prep, &self.stream)?;
                }
                end.record(&self.stream)?;
            }
        }
        self.stream.synchronize()?;
        let mut timings = Vec::new();
        for ev in &events {
            let mut ms = Vec::with_capacity(iters);
            for (a, b) in ev {
                ms.push(a.elapsed_ms(b)? as f64 / self.opts.chain as f64);
            }
            timings.push(Timing::from_samples(&ms));
        }
        Ok(timings)
    }

    /// The sweeps' candidate of rank `rank`: its descriptors (SM_COUNT_TARGET as asked), the
    /// heuristic's algo and an entry named by the plan it decodes to; `None` past the list's end.
    fn sweep_candidate<'s>(
        &'s self,
        spec: &GemmSpec,
        prep: &Prepared,
        problem: &deepgemm::problem::GemmProblem,
        dev: &deepgemm::plan::DeviceSpec,
        rank: usize,
    ) -> Result<Option<(Descs<'s>, Algo, SweepEntry)>, String> {
        let descs = Descs::new(self.dg.api, spec, prep.bias_ptr(), workspace_bytes() as u64)?;
        if self.opts.sm_target > 0 {
            descs
                .desc
                .set(SM_COUNT_TARGET, self.opts.sm_target as i32)?;
        }
        let Ok(h) = descs.heuristic_nth(&self.dg.handle, workspace_bytes() as u64, rank) else {
            return Ok(None);
        };
        let mut e = SweepEntry {
            rank,
            ..Default::default()
        };
        match deepgemm::plan::cache::from_algo(&h.algo.data, problem, dev) {
            Ok(plan) => {
                e.name = plan.name();
                e.estimate_us = plan.estimate_ns as f64 * 1e-3;
            }
            Err(err) => e.name = format!("undecodable algo ({err})"),
        }
        Ok(Some((descs, h.algo, e)))
    }

    /// `--sweep`: times each of deepgemm's heuristic candidates alone (same warm-up, launches
    /// and L2 flush as the main measurement) and checks its output against the timed candidate's
    /// (rank `--algo-index`),
    /// so the cost model's ranking can be compared with the measured one.
    fn sweep(
        &self,
        spec: &GemmSpec,
        prep: &Prepared,
        reference: &[u8],
        r: &mut ShapeResult,
    ) -> Result<(), String> {
        let dev = device_spec(self.gpu).with_sm_target(self.opts.sm_target);
        let problem = problem_of(spec).map_err(|e| e.to_string())?;
        let tol = spec.tolerance();
        for rank in 0..32 {
            let Some((descs, algo, mut e)) =
                self.sweep_candidate(spec, prep, &problem, &dev, rank)?
            else {
                break;
            };
            let side = Side {
                lib: &self.dg,
                descs,
                algo,
                d: prep.new_output()?,
            };
            let run = || -> Result<(Comparison, Timing), String> {
                side.launch(prep, &self.stream)?;
                self.stream.synchronize()?;
                let check = host::compare_outputs(spec, &side.d.download()?, reference);
                let t = self.time_sides(&[&side], prep)?[0];
                t.map(|t| (check, t))
                    .ok_or_else(|| "no timed launches".to_string())
            };
            match run() {
                Ok((check, t)) => {
                    if !check.passes(tol) {
                        r.why_failed.push(format!(
                            "sweep candidate #{rank} {} vs the timed #{}: {check}",
                            e.name, self.opts.algo_index
                        ));
                    }
                    e.check = Some(check);
                    e.timing = Some(t);
                }
                Err(err) => {
                    r.why_failed
                        .push(format!("sweep candidate #{rank} {}: {err}", e.name));
                    e.error = Some(err);
                }
            }
            r.sweep.push(e);
        }
        Ok(())
    }
}

impl Bench<'_> {
    /// `--sweep --interleave`: every candidate that launches and cuBLASLt timed in one
    /// `time_sides` call, so each round runs all of them back to back (order alternating):
    /// drift in clock or power between candidates, which sequential sweeps showed at 5-8% on
    /// long launches (session 56), falls on all of them alike.
    fn sweep_interleaved(
        &self,
        spec: &GemmSpec,
        prep: &Prepared,
        reference: &[u8],
        lt: Option<&Side>,
        r: &mut ShapeResult,
    ) -> Result<(), String> {
        let dev = device_spec(self.gpu).with_sm_target(self.opts.sm_target);
        let problem = problem_of(spec).map_err(|e| e.to_string())?;
        let tol = spec.tolerance();
        let out_bytes = prep.d_before.len() as f64;
        let mut sides = Vec::new();
        let mut entries = Vec::new();
        for rank in 0..32 {
            let Some((descs, algo, mut e)) =
                self.sweep_candidate(spec, prep, &problem, &dev, rank)?
            else {
                break;
            };
            // Each candidate keeps its own D: stop adding them before memory runs short.
            let (free, _) = cudarc::driver::result::mem_get_info().map_err(|x| x.to_string())?;
            if (free as f64) < out_bytes * 2.0 + (1u64 << 30) as f64 {
                e.error = Some("not timed: too little device memory for its own D".into());
                r.sweep.push(e);
                continue;
            }
            let d = match prep.new_output() {
                Ok(d) => d,
                Err(err) => {
                    e.error = Some(format!("not timed: no output buffer ({err})"));
                    r.sweep.push(e);
                    continue;
                }
            };
            let side = Side {
                lib: &self.dg,
                descs,
                algo,
                d,
            };
            let first = side
                .launch(prep, &self.stream)
                .and_then(|_| self.stream.synchronize())
                .and_then(|_| side.d.download());
            match first {
                Ok(d) => {
                    let check = host::compare_outputs(spec, &d, reference);
                    if !check.passes(tol) {
                        r.why_failed.push(format!(
                            "sweep candidate #{rank} {} vs the timed #{}: {check}",
                            e.name, self.opts.algo_index
                        ));
                    }
                    e.check = Some(check);
                    sides.push(side);
                    entries.push(e);
                }
                Err(err) => {
                    r.why_failed
                        .push(format!("sweep candidate #{rank} {}: {err}", e.name));
                    e.error = Some(err);
                    r.sweep.push(e);
                }
            }
        }
        let mut all: Vec<&Side> = sides.iter().collect();
        all.extend(lt);
        // A launch failing in the timed rounds fails the whole loop: the candidates keep their
        // checks, each gets the error, and the shape is marked failed, not left without them.
        match self.time_sides(&all, prep) {
            Ok(timings) => {
                for (e, t) in entries.iter_mut().zip(&timings) {
                    e.timing = *t;
                }
                if lt.is_some() {
                    r.sweep_lt = timings[sides.len()];
                }
            }
            Err(err) => {
                r.why_failed
                    .push(format!("interleaved sweep: a timed launch failed: {err}"));
                for e in &mut entries {
                    e.error = Some(format!("not timed: the interleaved loop failed ({err})"));
                }
            }
        }
        r.sweep.extend(entries);
        r.sweep.sort_by_key(|e| e.rank);
        Ok(())
    }
}

/// The planner's view of the bench's GPU.
fn device_spec(gpu: &Gpu) -> deepgemm::plan::DeviceSpec {
    deepgemm::plan::DeviceSpec {
        cc_major: gpu.cc.0 as u32,
        cc_minor: gpu.cc.1 as u32,
        sm_count: gpu.sm_count as u32,
        smem_per_block: gpu.smem_optin as u32,
        partial: false,
    }
}

fn cmp_json(c: &Option<Comparison>) -> Json {
    match c {
        None => Json::Null,
        Some(c) => obj(vec![
            ("rel_err", c.rel_err.into()),
            ("elements", c.count.into()),
            ("nonfinite", c.nonfinite.into()),
            ("outside_writes", c.outside_writes.into()),
            ("summary", c.to_string().into()),
        ]),
    }
}

fn lib_json(l: &LibResult, flops: f64) -> Json {
    obj(vec![
        ("library", l.name.as_str().into()),
        ("algo", l.algo_label.as_str().into()),
        ("heuristic_ms", l.heuristic_ms.into()),
        ("workspace_bytes", l.workspace_bytes.into()),
        ("first_call_ms", l.first_ms.into()),
        ("median_ms", l.timing.map(|t| t.median_ms).into()),
        ("min_ms", l.timing.map(|t| t.min_ms).into()),
        ("max_ms", l.timing.map(|t| t.max_ms).into()),
        ("samples", l.timing.map(|t| t.samples).into()),
        ("tflops", l.timing.map(|t| t.tflops(flops)).into()),
        ("check", cmp_json(&l.check)),
        ("stable", l.stable.into()),
        ("error", l.error.clone().into()),
    ])
}

impl ShapeResult {
    pub fn to_json(&self) -> Json {
        let s = &self.spec;
        let flops = s.flops();
        obj(vec![
            ("m", s.m.into()),
            ("n", s.n.into()),
            ("k", s.k.into()),
            ("batch", s.batch.into()),
            ("layout", s.ops().into()),
            ("a_type", s.ab.name().into()),
            ("d_type", s.cd.name().into()),
            ("tf32", s.tf32.into()),
            ("epilogue", s.epi.name().into()),
            ("flops", flops.into()),
            ("tolerance", s.tolerance().into()),
            ("check_mode", self.check_mode.into()),
            ("deepgemm", lib_json(&self.dg, flops)),
            (
                "cublaslt",
                self.lt.as_ref().map_or(Json::Null, |l| lib_json(l, flops)),
            ),
            ("deepgemm_vs_cublaslt", cmp_json(&self.dg_vs_lt)),
            ("ratio", self.ratio().into()),
            ("passed", self.passed.into()),
            (
                "failures",
                Json::Arr(self.why_failed.iter().map(|s| s.as_str().into()).collect()),
            ),
        ])
    }

    /// The shape as the table shows it: "MxNxK", with "xB" batches appended.
    pub fn shape_label(&self) -> String {
        let s = &self.spec;
        if s.batch > 1 {
            format!("{}x{}x{} b{}", s.m, s.n, s.k, s.batch)
        } else {
            format!("{}x{}x{}", s.m, s.n, s.k)
        }
    }

    /// One line with the details the table leaves out.
    pub fn detail_line(&self) -> String {
        let mut s = format!(
            "{} {} {} {}: deepgemm first call {:.1} ms (heuristic {:.2} ms, {})",
            self.shape_label(),
            self.spec.ops(),
            self.spec.types(),
            self.spec.epi.name(),
            self.dg.first_ms,
            self.dg.heuristic_ms,
            if self.dg.algo_label.is_empty() {
                "-"
            } else {
                &self.dg.algo_label
            }
        );
        if let Some(c) = &self.dg.check {
            s += &format!("; check {}: {c}", self.check_mode);
        }
        if let Some(c) = &self.dg_vs_lt {
            s += &format!("; vs cuBLASLt: rel {:.3e}", c.rel_err);
        }
        if let Some(l) = &self.lt {
            if let Some(c) = &l.check {
                s += &format!("; cuBLASLt's own rel_err {:.3e}", c.rel_err);
            }
            if let Some(e) = &l.error {
                s += &format!("; cuBLASLt: {e}");
            }
        }
        s += if self.passed { " -> PASS" } else { " -> FAIL" };
        let f = self.spec.flops();
        for e in &self.sweep {
            s += &format!(
                "\n    sweep #{:<2} model {:>9.1} us  measured {:>9}  {:>8} TF/s  {}{}",
                e.rank,
                e.estimate_us,
                e.timing
                    .map_or("-".to_string(), |t| format!("{:.1} us", t.median_ms * 1e3)),
                e.timing
                    .map_or("-".to_string(), |t| format!("{:.1}", t.tflops(f))),
                e.name,
                e.check.as_ref().map_or(String::new(), |c| format!(
                    " (vs the timed one: rel {:.1e})",
                    c.rel_err
                )),
            );
            if let Some(err) = &e.error {
                s += &format!(" [{err}]");
            }
        }
        if let Some(t) = self.sweep_lt {
            s += &format!(
                "\n    sweep cuBLASLt, interleaved with the candidates: {:.1} us  {:.1} TF/s",
                t.median_ms * 1e3,
                t.tflops(f)
            );
        }
        for w in &self.why_failed {
            s += &format!("\n    {w}");
        }
        s
    }
}

/// Geometric mean, minimum and maximum of the cuBLASLt/deepgemm ratios, and how many shapes
/// have one (both libraries timed); `None` when none has.
pub fn ratio_summary(results: &[ShapeResult]) -> Option<(f64, f64, f64, usize)> {
    let ratios: Vec<f64> = results.iter().filter_map(|r| r.ratio()).collect();
    if ratios.is_empty() {
        return None;
    }
    let n = ratios.len();
    let g = (ratios.iter().map(|x| x.ln()).sum::<f64>() / n as f64).exp();
    let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = ratios.iter().copied().fold(0.0, f64::max);
    Some((g, lo, hi, n))
}

/// The results table (fixed-width columns).
pub fn table(results: &[ShapeResult]) -> String {
    let mut out = format!(
        "{:<20} {:<6} {:<11} {:<9} {:>9} {:>8} {:>11} {:>8} {:>6} {:>9} {:>9} {}\n",
        "shape",
        "layout",
        "types",
        "epilogue",
        "dg ms",
        "dg TF/s",
        "cuBLASLt ms",
        "TF/s",
        "ratio",
        "rel err",
        "first ms",
        "check"
    );
    let ms = |t: Option<Timing>| t.map_or("-".to_string(), |t| format!("{:.4}", t.median_ms));
    let tf =
        |t: Option<Timing>, f: f64| t.map_or("-".to_string(), |t| format!("{:.1}", t.tflops(f)));
    for r in results {
        let f = r.spec.flops();
        let lt_t = r.lt.as_ref().and_then(|l| l.timing);
        out += &format!(
            "{:<20} {:<6} {:<11} {:<9} {:>9} {:>8} {:>11} {:>8} {:>6} {:>9} {:>9.1} {}\n",
            r.shape_label(),
            r.spec.ops(),
            r.spec.types(),
            r.spec.epi.name(),
            ms(r.dg.timing),
            tf(r.dg.timing, f),
            ms(lt_t),
            tf(lt_t, f),
            r.ratio().map_or("-".into(), |x| format!("{x:.2}")),
            r.dg.check
                .as_ref()
                .map_or("-".into(), |c| format!("{:.2e}", c.rel_err)),
            r.dg.first_ms,
            if r.passed { "PASS" } else { "FAIL" },
        );
    }
    out
}
