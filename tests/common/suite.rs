//! The GPU test harness: one deepgemm handle, stream and workspace per test, a runner
//! that takes a `GemmSpec` through deepgemm's C API and checks it against the float64
//! reference, and `Group`, which collects every failing case before asserting so that a
//! run reports all failures at once.

#![allow(dead_code)]

use std::ffi::c_void;

use super::case::{Prepared, WORKSPACE_BYTES};
use super::device::{DevBuf, Gpu, Stream};
use super::host::{Comparison, GemmSpec, Rng, fresh_seed};
use super::lt::{self, Descs, LtApi, LtHandle};

/// How a case calls deepgemmLtMatmul.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallMode {
    /// Pass the heuristic's algo (else NULL: the library chooses).
    pub heuristic: bool,
    /// Pass the 32 MiB workspace (else NULL, 0 bytes).
    pub workspace: bool,
    /// Run on the legacy default stream (NULL) instead of a created stream.
    pub default_stream: bool,
}

impl CallMode {
    /// Heuristic algo, workspace, created stream: what PyTorch does.
    pub const USUAL: CallMode = CallMode {
        heuristic: true,
        workspace: true,
        default_stream: false,
    };
    /// algo NULL, no workspace, NULL stream: the minimal C call.
    pub const MINIMAL: CallMode = CallMode {
        heuristic: false,
        workspace: false,
        default_stream: true,
    };
}

impl std::fmt::Display for CallMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "algo={} workspace={} stream={}",
            if self.heuristic { "heuristic" } else { "NULL" },
            if self.workspace { "32MiB" } else { "none" },
            if self.default_stream {
                "NULL"
            } else {
                "created"
            }
        )
    }
}

/// What every GPU test needs: the device, deepgemm's C API, one handle, a stream and
/// the workspace. Field order is drop order: handle and buffers before the context.
pub struct Env {
    pub handle: LtHandle<'static>,
    pub stream: Stream,
    pub workspace: DevBuf,
    pub gpu: Gpu,
}

impl Env {
    /// Opens device 0 (panics with the reason when there is none: these tests are
    /// `#[ignore]`d and run only where a GPU is expected).
    pub fn new() -> Env {
        Env::with_api(LtApi::deepgemm)
    }

    /// The same environment over another library's table (NVIDIA's cuBLASLt for the
    /// harness self-test); `load` runs after the driver is up.
    pub fn with_api(load: impl FnOnce() -> LtApi) -> Env {
        let gpu = Gpu::open(0).unwrap_or_else(|e| panic!("no CUDA GPU: {e}"));
        // One table per environment, alive for the process; handles borrow it.
        let api: &'static LtApi = Box::leak(Box::new(load()));
        let handle = LtHandle::new(api).unwrap_or_else(|e| panic!("{e}"));
        let stream = Stream::new().unwrap_or_else(|e| panic!("{e}"));
        let workspace = DevBuf::alloc(WORKSPACE_BYTES).unwrap_or_else(|e| panic!("{e}"));
        println!(
            "device: {} (sm_{}{}, {} SMs)",
            gpu.name, gpu.cc.0, gpu.cc.1, gpu.sm_count
        );
        Env {
            handle,
            stream,
            workspace,
            gpu,
        }
    }

    /// The raw stream a mode runs on.
    pub fn stream_for(&self, mode: CallMode) -> *mut c_void {
        if mode.default_stream {
            std::ptr::null_mut()
        } else {
            self.stream.raw()
        }
    }

    /// Waits for the work of `mode`'s stream (the whole context for the NULL stream).
    pub fn sync(&self, mode: CallMode) -> Result<(), String> {
        if mode.default_stream {
            self.gpu.synchronize()
        } else {
            self.stream.synchronize()
        }
    }

    /// Runs `spec` once through deepgemmLtMatmul on fresh random data and returns D's
    /// whole buffer as downloaded, with the prepared inputs for checking.
    pub fn run_lt(
        &self,
        spec: &GemmSpec,
        mode: CallMode,
        rng: &mut Rng,
    ) -> Result<(Prepared, Vec<u8>), String> {
        let prep = Prepared::new(spec, rng, true)?;
        let d = prep.new_output()?;
        let descs = Descs::new(
            self.handle.api,
            spec,
            prep.bias_ptr(),
            if mode.workspace {
                WORKSPACE_BYTES as u64
            } else {
                0
            },
        )?;
        let algo = if mode.heuristic {
            let max = if mode.workspace {
                WORKSPACE_BYTES as u64
            } else {
                0
            };
            Some(descs.heuristic(&self.handle, max)?.algo)
        } else {
            None
        };
        let ws = mode.workspace.then_some(&self.workspace);
        let args = prep.args(&d, ws, self.stream_for(mode));
        lt::matmul(&self.handle, &descs, algo.as_ref(), &args)?;
        self.sync(mode)?;
        let out = d.download()?;
        Ok((prep, out))
    }

    /// Runs and checks `spec` against the full float64 reference.
    pub fn check_lt(
        &self,
        spec: &GemmSpec,
        mode: CallMode,
        rng: &mut Rng,
    ) -> Result<Comparison, String> {
        let (prep, out) = self.run_lt(spec, mode, rng)?;
        Ok(prep.check_full(&out))
    }
}

/// The seed of a group: `DEEPGEMM_TEST_SEED` when set (to replay a failure), else fresh.
pub fn group_seed() -> u64 {
    match std::env::var("DEEPGEMM_TEST_SEED") {
        Ok(s) => s
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("DEEPGEMM_TEST_SEED='{s}' is not an integer")),
        Err(_) => fresh_seed(),
    }
}

/// The cases of one group: counts, and every failure with its full description.
pub struct Group {
    pub name: String,
    pub seed: u64,
    pub rng: Rng,
    pub passed: usize,
    pub failures: Vec<String>,
}

impl Group {
    pub fn new(name: &str) -> Group {
        let seed = group_seed();
        println!("group {name}: seed {seed} (replay: DEEPGEMM_TEST_SEED={seed})");
        Group {
            name: name.to_string(),
            seed,
            rng: Rng::new(seed),
            passed: 0,
            failures: Vec::new(),
        }
    }

    /// Records one case: it passes when the call succeeded and the comparison is within
    /// `spec`'s tolerance.
    pub fn record(&mut self, spec: &GemmSpec, how: &str, r: Result<Comparison, String>) {
        let tol = spec.tolerance();
        match r {
            Ok(c) if c.passes(tol) => self.passed += 1,
            Ok(c) => self
                .failures
                .push(format!("{spec} [{how}]: {c} (tolerance {tol:.0e})")),
            Err(e) => self.failures.push(format!("{spec} [{how}]: {e}")),
        }
    }

    /// Records a case whose verdict was computed by the caller.
    pub fn record_result(&mut self, desc: String, ok: Result<(), String>) {
        match ok {
            Ok(()) => self.passed += 1,
            Err(e) => self.failures.push(format!("{desc}: {e}")),
        }
    }

    /// Runs and checks `spec` through deepgemmLtMatmul and records the outcome.
    pub fn lt_case(&mut self, env: &Env, spec: &GemmSpec, mode: CallMode) {
        let r = env.check_lt(spec, mode, &mut self.rng);
        self.record(spec, &mode.to_string(), r);
    }

    /// Prints the summary line and every failure, then fails the test if any case did.
    pub fn finish(self) {
        let failed = self.failures.len();
        println!(
            "group {}: {} passed, {failed} failed (seed {})",
            self.name, self.passed, self.seed
        );
        for f in &self.failures {
            println!("  FAIL {f}");
        }
        assert!(
            failed == 0,
            "group {}: {failed} of {} cases failed (seed {}); first: {}",
            self.name,
            failed + self.passed,
            self.seed,
            self.failures[0]
        );
        // A group that ran nothing proves nothing (every case refused or skipped).
        assert!(self.passed > 0, "group {}: no case ran", self.name);
    }
}
