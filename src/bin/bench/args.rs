//! Command-line options of deepgemm-bench, hand-parsed (no argument crate).

use std::path::PathBuf;

use crate::host::{DType, Epi};

pub const USAGE: &str = "\
usage: deepgemm-bench [options]
  --shape MxNxK        a GEMM size (repeatable); M, N, K as cuBLAS names them
  --shapes FILE        one MxNxK per line; '#' starts a comment
  --dtype T            A/B type: bf16 (default), fp16, fp32, tf32 (fp32 with COMPUTE_32F_FAST_TF32)
  --out O              C/D type: same (default) or fp32
  --layout XY          cuBLAS (column-major) op letters: X = transa, Y = transb.
                       Default TN: the PyTorch Linear layout (y = x W^T, row-major x and W)
  --epilogue E         default, relu, bias, gelu, gelu_bias, relu_bias
  --beta B             D = alpha AB + B C with C a buffer of its own (fresh random values);
                       default 0 (C not read, passed as D)
  --batch N            strided batch count (default 1)
  --pad A,B,C,D        extra leading-dimension elements of A, B, C and D (default 0,0,0,0;
                       e.g. 1,1,0,1 makes 4096^3's leading dimensions 4097, 4096 for C)
  --offset A,B         A's and B's addresses this many elements past an aligned allocation
                       (a view at an offset; default 0,0), announced to both heuristics as
                       MIN_ALIGNMENT_A/B_BYTES
  --iters N            timed launches per library (default 50), median reported
  --warmup N           untimed launches per library first (default 10)
  --check C            full (float64 CPU reference), sample (reference at a few hundred
                       entries + full comparison with cuBLASLt), none.
                       Default: full up to 1024^3 multiply-adds, sample above
  --no-cublas          time deepgemm alone
  --no-flush           do not flush L2 between timed launches (default: flush)
  --chain N            each timed sample is N back-to-back launches of one library between two
                       events, no flush between them (the first of them after the flush), and
                       reports the time a launch: how a library runs inside a stream of kernels
                       (deepgemm's programmatic dependent launch, DEEPGEMM_PDL). Default 1
  --json PATH          write the results as JSON
  --device N           CUDA device ordinal (default 0)
  --seed S             input seed (default: fresh each run; printed)
  --algo-index N       time deepgemm's heuristic candidate of rank N (default 0, its best)
  --sm-target N        both libraries' matmul descriptors ask for N SMs (SM_COUNT_TARGET, the
                       carve-out engines leave their communication kernels; default 0: all)
  --sweep              also time each deepgemm heuristic candidate, rank 0 up (each checked
                       against the timed one, --algo-index's): the cost model's estimate next to
                       the measurement
  --interleave         with --sweep: time every candidate and cuBLASLt together, their launches
                       interleaved (a round of each, --iters rounds), so clock and power drift
                       fall on all alike: for telling plans within a few % apart
  --workspace-mib N    workspace given to each library, MiB (default 32)
  --plans              print deepgemm's ranked plans for an H200 (cost model, no GPU) and exit
  --plans-all          the same for every Hopper plan, direct and transposed (\"+swap\"), not just
                       the heuristic's list: to score the model against --sweep timings
                       (scripts/sweep-regret.py)
  --plan-time          the planner's CPU time for each shape on first sight (no GPU): its
                       candidate list, then what a call with --workspace-mib (default 32)
                       and A, B at --offset plans, a slab plan's blocks included
  --precompile NAMES   compile the sm90 kernels whose names contain one of the comma-separated
                       NAMES (\"all\": every one) for sm_90a into the disk cache
                       (DEEPGEMM_CACHE_DIR), on every core, and exit (no GPU needed)
  --manifest FILE      with --precompile: also write the cache file names of those kernels,
                       one a line (what scripts/gpu-pack.sh carries to the GPU machine)
  --host-overhead      per-call CPU time of back-to-back Matmul calls (heuristic's algo, then
                       algo = NULL) and of the heuristic, deepgemm and cuBLASLt; default shape
                       64x64x64
  --calls N            calls per case for --host-overhead (default 20000)
  -h, --help           this text
With no --shape/--shapes: 1024x1024x1024, 4096x4096x4096, 4097x4097x4097, bf16.
Exit status: 0 all checks passed, 1 a check or a call failed, 2 no CUDA driver/GPU,
64 bad arguments.";

/// The A/B type choice (tf32 is fp32 data with TF32 tensor-core math).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InType {
    Bf16,
    Fp16,
    Fp32,
    Tf32,
}

impl InType {
    pub fn dtype(self) -> DType {
        match self {
            InType::Bf16 => DType::BF16,
            InType::Fp16 => DType::F16,
            InType::Fp32 | InType::Tf32 => DType::F32,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckMode {
    /// Full up to 1024^3 multiply-adds, sample above.
    Auto,
    Full,
    Sample,
    None,
}

/// Everything the command line decides.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// (m, n, k), in order of appearance.
    pub shapes: Vec<(u64, u64, u64)>,
    pub dtype: InType,
    /// C/D type is fp32 (else the type of A/B).
    pub out_f32: bool,
    pub trans_a: bool,
    pub trans_b: bool,
    pub epi: Epi,
    /// beta (0: C is not read and its pointer is D's; else C is a buffer of its own).
    pub beta: f32,
    pub batch: u64,
    /// Extra leading-dimension elements of A, B, C and D (`--pad`): odd leading dimensions on
    /// any shape, one operand at a time.
    pub pad: [u64; 4],
    /// Elements by which A's and B's addresses sit past an aligned allocation (`--offset`),
    /// announced to both libraries' heuristics as MIN_ALIGNMENT_A/B_BYTES.
    pub offset: [u64; 2],
    pub iters: usize,
    /// Launches per timed sample (`--chain`), back to back between its two events.
    pub chain: usize,
    pub warmup: usize,
    pub check: CheckMode,
    pub cublas: bool,
    pub flush_l2: bool,
    pub json: Option<PathBuf>,
    pub device: usize,
    pub seed: Option<u64>,
    /// Workspace per library in MiB (default 32, PyTorch's cuBLASLt default on Hopper).
    pub workspace_mib: Option<u64>,
    /// Print the planner's ranked candidates for an H200 and exit (no GPU needed).
    pub plans: bool,
    pub plans_all: bool,
    /// `--plan-time`: time the planner on each shape's first sight and exit (no GPU needed).
    pub plan_time: bool,
    /// `--precompile`: name substrings of the sm90 kernels to compile into the disk cache.
    pub precompile: Option<String>,
    /// `--manifest`: where `--precompile` lists the cache files of its kernels.
    pub manifest: Option<PathBuf>,
    /// Measure the host time per call instead of the GPU time (`overhead.rs`).
    pub host_overhead: bool,
    /// Calls per case for `host_overhead`.
    pub calls: usize,
    /// Time deepgemm's heuristic candidate of this rank instead of its first (`--algo-index`):
    /// how the cost model's ranking compares with the measured one.
    pub algo_index: usize,
    /// Also time every heuristic candidate, rank 0 up (`--sweep`).
    pub sweep: bool,
    /// `--interleave`: the sweep's candidates (and cuBLASLt) timed together, interleaved.
    pub interleave: bool,
    /// SM_COUNT_TARGET for both libraries (`--sm-target`; 0: every SM).
    pub sm_target: u32,
}

/// The shapes run when none is given.
pub const DEFAULT_SHAPES: [(u64, u64, u64); 3] =
    [(1024, 1024, 1024), (4096, 4096, 4096), (4097, 4097, 4097)];

/// The shape `--host-overhead` measures when none is given: small enough that the host path
/// is most of a call (PyTorch's LD_PRELOAD figure in BENCHMARKS.md is at 64^3).
pub const HOST_OVERHEAD_SHAPE: (u64, u64, u64) = (64, 64, 64);

impl Default for Options {
    fn default() -> Options {
        Options {
            shapes: Vec::new(),
            dtype: InType::Bf16,
            out_f32: false,
            trans_a: true,
            trans_b: false,
            epi: Epi::Default,
            batch: 1,
            pad: [0; 4],
            offset: [0; 2],
            iters: 50,
            chain: 1,
            warmup: 10,
            check: CheckMode::Auto,
            cublas: true,
            flush_l2: true,
            json: None,
            device: 0,
            seed: None,
            plans: false,
            plans_all: false,
            plan_time: false,
            precompile: None,
            manifest: None,
            workspace_mib: None,
            beta: 0.0,
            host_overhead: false,
            calls: 20_000,
            algo_index: 0,
            sm_target: 0,
            sweep: false,
            interleave: false,
        }
    }
}

/// What the command line asks for.
#[derive(Debug, PartialEq)]
pub enum Command {
    Run(Box<Options>),
    Help,
}

impl Options {
    /// The C/D element type.
    pub fn out_dtype(&self) -> DType {
        if self.out_f32 {
            DType::F32
        } else {
            self.dtype.dtype()
        }
    }

    /// "TN", with a note when it is the PyTorch Linear layout.
    pub fn layout_label(&self) -> String {
        let s = layout_letters(self.trans_a, self.trans_b);
        if self.trans_a && !self.trans_b {
            format!("{s} (transa=T, transb=N: PyTorch Linear)")
        } else {
            format!("{s} (transa={}, transb={})", &s[..1], &s[1..])
        }
    }
}

pub fn layout_letters(trans_a: bool, trans_b: bool) -> String {
    format!(
        "{}{}",
        if trans_a { 'T' } else { 'N' },
        if trans_b { 'T' } else { 'N' }
    )
}

/// "MxNxK" (also accepts 'X' and surrounding spaces) to (m, n, k); each at least 1.
pub fn parse_shape(s: &str) -> Result<(u64, u64, u64), String> {
    let parts: Vec<&str> = s.trim().split(['x', 'X']).map(str::trim).collect();
    if parts.len() != 3 {
        return Err(format!("shape '{s}': expected MxNxK"));
    }
    let mut v = [0u64; 3];
    for (d, p) in v.iter_mut().zip(&parts) {
        *d = p
            .parse::<u64>()
            .map_err(|_| format!("shape '{s}': '{p}' is not a positive integer"))?;
        if *d == 0 || *d > i32::MAX as u64 {
            return Err(format!("shape '{s}': {d} is outside 1..=2^31-1"));
        }
    }
    Ok((v[0], v[1], v[2]))
}

/// A shape list: one MxNxK per line, '#' comments, blank lines ignored.
pub fn parse_shape_list(text: &str) -> Result<Vec<(u64, u64, u64)>, String> {
    let mut out = Vec::new();
    for (no, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        out.push(parse_shape(line).map_err(|e| format!("line {}: {e}", no + 1))?);
    }
    Ok(out)
}

fn parse_count(flag: &str, v: &str, min: u64) -> Result<u64, String> {
    match v.parse::<u64>() {
        Ok(n) if n >= min => Ok(n),
        _ => Err(format!("{flag} '{v}': expected an integer >= {min}")),
    }
}

/// `--pad` values: `A,B,C,D` extra leading-dimension elements (e.g. `1,1,0,1`); C is D's when
/// beta = 0 (C is then passed as D).
fn parse_pad(v: &str) -> Result<[u64; 4], String> {
    let parts: Vec<&str> = v.split(',').map(str::trim).collect();
    let bad = || format!("--pad '{v}': expected four integers >= 0, A,B,C,D");
    if parts.len() != 4 {
        return Err(bad());
    }
    let mut pad = [0u64; 4];
    for (p, s) in pad.iter_mut().zip(&parts) {
        *p = s.parse::<u64>().map_err(|_| bad())?;
    }
    Ok(pad)
}

/// `--offset` values: `A,B` elements past an aligned allocation (e.g. `1,0`).
fn parse_offset(v: &str) -> Result<[u64; 2], String> {
    let bad = || format!("--offset '{v}': expected two integers >= 0, A,B");
    let parts: Vec<u64> = v
        .split(',')
        .map(|s| s.trim().parse::<u64>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    match parts[..] {
        [a, b] => Ok([a, b]),
        _ => Err(bad()),
    }
}

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Command, String> {
    let mut o = Options::default();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .map(String::as_str)
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--shape" => o.shapes.push(parse_shape(value()?)?),
            "--shapes" => {
                let path = value()?;
                let text =
                    std::fs::read_to_string(path).map_err(|e| format!("--shapes {path}: {e}"))?;
                let list = parse_shape_list(&text).map_err(|e| format!("{path}: {e}"))?;
                if list.is_empty() {
                    return Err(format!("{path}: no shapes"));
                }
                o.shapes.extend(list);
            }
            "--dtype" => {
                o.dtype = match value()? {
                    "bf16" => InType::Bf16,
                    "fp16" | "f16" => InType::Fp16,
                    "fp32" | "f32" => InType::Fp32,
                    "tf32" => InType::Tf32,
                    v => return Err(format!("--dtype '{v}': expected bf16, fp16, fp32 or tf32")),
                }
            }
            "--out" => {
                o.out_f32 = match value()? {
                    "fp32" | "f32" => true,
                    "same" => false,
                    v => return Err(format!("--out '{v}': expected fp32 or same")),
                }
            }
            "--layout" => {
                let v = value()?;
                let b = v.as_bytes();
                let op = |c: u8| match c {
                    b'N' | b'n' => Some(false),
                    b'T' | b't' => Some(true),
                    _ => None,
                };
                match (
                    b.len(),
                    b.first().and_then(|&c| op(c)),
                    b.get(1).and_then(|&c| op(c)),
                ) {
                    (2, Some(ta), Some(tb)) => {
                        o.trans_a = ta;
                        o.trans_b = tb;
                    }
                    _ => return Err(format!("--layout '{v}': expected NN, NT, TN or TT")),
                }
            }
            "--epilogue" => {
                let v = value()?;
                o.epi = Epi::parse(v).ok_or_else(|| {
                    format!("--epilogue '{v}': expected default, relu, bias, gelu, gelu_bias or relu_bias")
                })?;
            }
            "--beta" => {
                let v = value()?;
                o.beta = v
                    .parse::<f32>()
                    .ok()
                    .filter(|b| b.is_finite())
                    .ok_or_else(|| format!("--beta '{v}': expected a finite number"))?;
            }
            "--batch" => o.batch = parse_count(flag, value()?, 1)?,
            "--pad" => o.pad = parse_pad(value()?)?,
            "--offset" => o.offset = parse_offset(value()?)?,
            "--iters" => o.iters = parse_count(flag, value()?, 1)? as usize,
            "--chain" => o.chain = parse_count(flag, value()?, 1)? as usize,
            "--warmup" => o.warmup = parse_count(flag, value()?, 0)? as usize,
            "--check" => {
                o.check = match value()? {
                    "full" => CheckMode::Full,
                    "sample" => CheckMode::Sample,
                    "none" => CheckMode::None,
                    v => return Err(format!("--check '{v}': expected full, sample or none")),
                }
            }
            "--no-cublas" => o.cublas = false,
            "--plans" => o.plans = true,
            "--plans-all" => o.plans_all = true,
            "--plan-time" => o.plan_time = true,
            "--precompile" => o.precompile = Some(value()?.to_string()),
            "--manifest" => o.manifest = Some(PathBuf::from(value()?)),
            "--host-overhead" => o.host_overhead = true,
            "--calls" => o.calls = parse_count(flag, value()?, 1)? as usize,
            "--workspace-mib" => o.workspace_mib = Some(parse_count(flag, value()?, 0)?),
            "--no-flush" => o.flush_l2 = false,
            "--json" => o.json = Some(PathBuf::from(value()?)),
            "--device" => o.device = parse_count(flag, value()?, 0)? as usize,
            "--seed" => o.seed = Some(parse_count(flag, value()?, 0)?),
            "--algo-index" => o.algo_index = parse_count(flag, value()?, 0)? as usize,
            "--sm-target" => o.sm_target = parse_count(flag, value()?, 0)? as u32,
            "--sweep" => o.sweep = true,
            "--interleave" => o.interleave = true,
            other => return Err(format!("unknown argument '{other}' (try --help)")),
        }
    }
    if o.manifest.is_some() && o.precompile.is_none() {
        return Err("--manifest lists what --precompile compiles: give --precompile too".into());
    }
    if o.interleave && !o.sweep {
        return Err("--interleave times the sweep's candidates together: give --sweep too".into());
    }
    if o.dtype == InType::Tf32 && !o.out_f32 {
        // tf32 data is fp32: "same" is fp32 already.
        o.out_f32 = true;
    }
    if o.shapes.is_empty() {
        o.shapes = if o.host_overhead {
            vec![HOST_OVERHEAD_SHAPE]
        } else {
            DEFAULT_SHAPES.to_vec()
        };
    }
    Ok(Command::Run(Box::new(o)))
}
