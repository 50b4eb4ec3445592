//! `--host-overhead`: the CPU time the host path of one call costs, deepgemm next to cuBLASLt in
//! the same process (issue 4: no more than cuBLASLt's). For each shape (default 64x64x64, where
//! the host path is most of a call), `--calls` back-to-back `Matmul` calls per case with the
//! same descriptors and pointers, first with the algo from each library's heuristic, then with
//! algo = NULL; then the heuristic itself.
//!
//! What is measured is the wall time of the enqueue loop divided by the calls: what a caller's
//! thread spends before the kernel is on the stream, which is all of the host cost for an
//! asynchronous library. The stream is synchronized every `BATCH` calls, outside the timing, so
//! the launch queue never fills (a full queue would make the enqueue wait for the GPU and time
//! the kernels instead). Batches of the cases alternate, so drift in clock speed or in what else
//! runs on the machine falls on every case alike.

use std::time::Instant;

use crate::args::Options;
use crate::case::Prepared;
use crate::device::Stream;
use crate::host::Rng;
use crate::lt::{self, Algo, Descs, LtApi, LtHandle};
use crate::run::{self, Lib};

/// Calls between two synchronizations (the driver queues about a thousand launches).
pub const BATCH: usize = 500;

/// Per-call host time of one case, in microseconds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CallCost {
    /// Total timed wall time over all calls.
    pub mean_us: f64,
    /// Median over the batches of a batch's time per call (robust to a preempted batch).
    pub median_us: f64,
    pub calls: usize,
}

impl CallCost {
    /// From the wall time (seconds) of each batch of `batch` calls.
    pub fn from_batches(batch_s: &[f64], batch: usize) -> Option<CallCost> {
        let t = run::Timing::from_samples(batch_s)?;
        let calls = batch_s.len() * batch;
        Some(CallCost {
            mean_us: batch_s.iter().sum::<f64>() * 1e6 / calls as f64,
            median_us: t.median_ms * 1e6 / batch as f64,
            calls,
        })
    }
}

/// One row of the report: a case measured for each library, in the order of `names`.
pub fn line(case: &str, names: &[&str], costs: &[Option<CallCost>]) -> String {
    let cells: Vec<String> = names
        .iter()
        .zip(costs)
        .map(|(n, c)| match c {
            Some(c) => format!("{n} {:.2} us/call (median {:.2})", c.mean_us, c.median_us),
            None => format!("{n} -"),
        })
        .collect();
    format!("  {case:<24} {}", cells.join(", "))
}

/// A library set up for the loop: its handle, the descriptors, its heuristic's algo, the
/// call's pointers (the output's included) and the MAX_WORKSPACE_BYTES of its heuristic.
pub struct Side<'a, 'b> {
    pub handle: &'b LtHandle<'a>,
    pub descs: Descs<'a>,
    pub algo: Algo,
    pub args: lt::Args,
    pub max_workspace: u64,
}

impl Side<'_, '_> {
    fn call(&self, algo: Option<&Algo>) -> Result<(), String> {
        lt::matmul(self.handle, &self.descs, algo, &self.args)
    }
}

/// The case a timed batch runs.
#[derive(Clone, Copy, Debug)]
pub enum Case {
    WithAlgo,
    NullAlgo,
    Heuristic,
}

/// Times `opts.calls` calls of every case for each library on every shape and prints the
/// report. Ok(false) when a call failed (the report says which).
pub fn run(opts: &Options, dg_api: &LtApi, cublas: Option<&LtApi>) -> Result<bool, String> {
    let dg = Lib::new(dg_api)?;
    let lt = match cublas {
        Some(api) => Some(Lib::new(api)?),
        None => None,
    };
    let stream = Stream::new()?;
    let libs: Vec<&Lib> = std::iter::once(&dg).chain(lt.as_ref()).collect();
    let names: Vec<&str> = libs.iter().map(|l| l.api.name).collect();
    let batches = opts.calls.div_ceil(BATCH);
    let mut rng = Rng::new(opts.seed.unwrap_or(1));
    let mut ok = true;
    for &shape in &opts.shapes {
        let spec = run::spec_for(opts, shape);
        println!(
            "host overhead {}x{}x{} {} {} {}: {} calls per case, enqueue-loop wall time / calls \
             (stream synchronized every {BATCH} calls, outside the timing)",
            shape.0,
            shape.1,
            shape.2,
            spec.ops(),
            spec.types(),
            spec.epi.name(),
            batches * BATCH
        );
        let prep = Prepared::new(&spec, &mut rng, false)?;
        let mut outputs = Vec::new();
        let mut sides = Vec::new();
        for lib in &libs {
            let ws = run::workspace_bytes() as u64;
            let descs = Descs::new(lib.api, &spec, prep.bias_ptr(), ws)?;
            let h = descs.heuristic(&lib.handle, ws)?;
            outputs.push(prep.new_output()?);
            let args = prep.args(outputs.last().unwrap(), Some(&lib.workspace), stream.raw());
            let side = Side {
                handle: &lib.handle,
                descs,
                algo: h.algo,
                args,
                max_workspace: ws,
            };
            // First calls (deepgemm's JIT compile or cache load) before any timing.
            side.call(Some(&side.algo))?;
            side.call(None)?;
            sides.push(side);
        }
        stream.synchronize()?;
        let cases = [
            ("algo from the heuristic", Case::WithAlgo, batches),
            ("algo = NULL", Case::NullAlgo, batches),
            // The heuristic does no GPU work; a tenth of the calls is plenty.
            ("heuristic, 1 result", Case::Heuristic, batches.div_ceil(10)),
        ];
        for (label, case, n) in cases {
            let mut times: Vec<Vec<f64>> = vec![Vec::new(); sides.len()];
            let mut failed: Vec<Option<String>> = vec![None; sides.len()];
            // One untimed batch first (caches, branch predictors, lazily loaded code).
            for b in 0..=n {
                for (i, s) in sides.iter().enumerate() {
                    if failed[i].is_some() {
                        continue;
                    }
                    match timed_batch(s, case) {
                        Ok(t) if b > 0 => times[i].push(t),
                        Ok(_) => {}
                        Err(e) => failed[i] = Some(e),
                    }
                    stream.synchronize()?;
                }
            }
            let costs: Vec<Option<CallCost>> = times
                .iter()
                .map(|t| CallCost::from_batches(t, BATCH))
                .collect();
            println!("{}", line(label, &names, &costs));
            for (name, e) in names.iter().zip(&failed) {
                if let Some(e) = e {
                    println!("    {name} failed: {e}");
                    ok = false;
                }
            }
        }
    }
    Ok(ok)
}

/// Wall seconds of `BATCH` back-to-back calls of `case`.
pub fn timed_batch(s: &Side, case: Case) -> Result<f64, String> {
    let t = Instant::now();
    for _ in 0..BATCH {
        match case {
            Case::WithAlgo => s.call(Some(&s.algo))?,
            Case::NullAlgo => s.call(None)?,
            Case::Heuristic => {
                s.descs.heuristic(s.handle, s.max_workspace)?;
            }
        }
    }
    Ok(t.elapsed().as_secs_f64())
}
