//! Autotuning (`DEEPGEMM_AUTOTUNE=1`) on the GPU: results stay correct through tuned plans, a
//! first sight of each problem tunes once and appends one line to the on-disk table, a second
//! sight does not tune again, and a second process reads the table instead of tuning.
//! Run with `cargo test --release --test gpu_autotune -- --ignored --test-threads=1 --nocapture`.
//!
//! The switches are read once per process, so this binary sets them before its first call
//! (each test spawns itself as a child with the environment it needs).

mod common;

use common::host::{DType, GemmSpec};
use common::suite::{CallMode, Env, Group};

const CHILD: &str = "DEEPGEMM_AUTOTUNE_TEST_CHILD";

fn shapes() -> Vec<GemmSpec> {
    let mut out = Vec::new();
    for (m, n, k) in [
        (2432u64, 1792u64, 1024u64),
        (1000, 3000, 512),
        (127, 4095, 1024),
    ] {
        let mut s = GemmSpec::new(DType::BF16, DType::BF16, m, n, k);
        s.trans_a = true;
        out.push(s);
    }
    let mut s = GemmSpec::new(DType::F16, DType::F32, 777, 1536, 640);
    s.trans_a = true;
    s.beta = 0.5;
    out.push(s);
    // Decode with its activations 2 bytes off TMA's grid: every plan worth timing packs A
    // (session 54: such plans could not be timed, and nothing was tuned).
    let mut s = GemmSpec::new(DType::BF16, DType::BF16, 16, 4096, 4096);
    s.trans_a = true;
    s.shift = [1, 0];
    out.push(s);
    out
}

/// The table's results (each is appended after a newline, so empty lines are not results).
fn table_lines(dir: &std::path::Path) -> usize {
    std::fs::read_to_string(dir.join("autotune-v1.tsv"))
        .map(|t| t.lines().filter(|l| !l.is_empty()).count())
        .unwrap_or(0)
}

/// The child: every shape twice through the heuristic (the first tunes), checked against the
/// float64 reference; prints the table's line count.
fn child_body() {
    let env = Env::new();
    let mut g = Group::new("autotune");
    for s in shapes() {
        for _ in 0..2 {
            g.lt_case(&env, &s, CallMode::USUAL);
        }
        let mut null_algo = CallMode::USUAL;
        null_algo.heuristic = false;
        g.lt_case(&env, &s, null_algo);
    }
    heuristic_during_a_capture(&env, &mut g);
    g.finish();
}

/// PyTorch may ask the heuristic while it captures a CUDA graph on a non-blocking stream
/// (GLOBAL mode, the default). The heuristic has no stream, so the capture is not seen and a
/// first sight tunes: its scratch allocations and copies, refused under GLOBAL capture, used
/// to invalidate the caller's capture (a session-61 review; tuning runs in RELAXED mode since).
/// The capture must survive and the heuristic still answer. A shape of its own, tuned here by
/// the first process (one more table line), read from the table by the second.
fn heuristic_during_a_capture(env: &Env, g: &mut Group) {
    use common::case::WORKSPACE_BYTES;
    use common::lt::Descs;
    use cudarc::driver::sys as cu;
    let mut s = GemmSpec::new(DType::BF16, DType::BF16, 1536, 1000, 768);
    s.trans_a = true;
    let r = (|| -> Result<(), String> {
        let descs = Descs::new(env.handle.api, &s, 0, WORKSPACE_BYTES as u64)?;
        let stream = env.stream.0;
        // SAFETY: a live non-blocking stream of the current context, used by this thread only.
        unsafe {
            cu::cuStreamBeginCapture_v2(
                stream,
                cu::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_GLOBAL,
            )
        }
        .result()
        .map_err(|e| format!("cuStreamBeginCapture: {e}"))?;
        let found = descs.heuristic(&env.handle, WORKSPACE_BYTES as u64);
        let mut graph = std::ptr::null_mut();
        // SAFETY: ends the capture begun above; the (empty) graph is destroyed at once.
        let ended = unsafe { cu::cuStreamEndCapture(stream, &mut graph) };
        if !graph.is_null() {
            // SAFETY: the graph the capture returned, not used after.
            unsafe { cu::cuGraphDestroy(graph) };
        }
        found?;
        ended
            .result()
            .map_err(|e| format!("the capture did not survive the heuristic: {e}"))
    })();
    g.record_result(format!("{s}: heuristic during a GLOBAL capture"), r);
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn autotune_child() {
    if std::env::var_os(CHILD).is_some() {
        child_body();
    }
}

fn spawn(dir: &std::path::Path) -> (bool, f64) {
    let t = std::time::Instant::now();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "autotune_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "1")
        .env("DEEPGEMM_AUTOTUNE", "1")
        .env("DEEPGEMM_CACHE_DIR", dir)
        .output()
        .expect("spawn the test binary");
    print!("{}", String::from_utf8_lossy(&out.stdout));
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    (out.status.success(), t.elapsed().as_secs_f64())
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn tunes_once_then_reads_the_table() {
    let dir = std::env::temp_dir().join(format!("deepgemm-autotune-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (ok, first_s) = spawn(&dir);
    assert!(ok, "first process: a case failed");
    let lines = table_lines(&dir);
    // Every shape was tuned exactly once: one heuristic limit (the 32 MiB workspace) and the
    // NULL-algo call's (same limit: one more line only where the pointers change the
    // candidate list, which they do not here); and the shape first seen during a capture
    // (`heuristic_during_a_capture`: its tuning ran, not only the capture survived).
    let tuned = shapes().len() + 1;
    assert!(
        lines >= tuned && lines <= 2 * tuned,
        "{lines} lines in the table for {tuned} shapes"
    );
    // The misaligned decode call's winner is a plan on a packed copy.
    let table = std::fs::read_to_string(dir.join("autotune-v1.tsv")).unwrap_or_default();
    assert!(
        table
            .lines()
            .any(|l| l.split('\t').nth(2).is_some_and(|p| p.contains("+pack_"))),
        "no packed plan tuned:\n{table}"
    );
    let (ok, second_s) = spawn(&dir);
    assert!(ok, "second process: a case failed");
    assert_eq!(table_lines(&dir), lines, "the second process tuned again");
    println!(
        "autotune: {lines} results; first process {first_s:.2} s (tuning, cold kernels), second \
         {second_s:.2} s (table read)"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
