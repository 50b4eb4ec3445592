//! Autotuning on the GPU (opt-in, `DEEPGEMM_AUTOTUNE=1`; the table and keys are
//! `plan::tuned`): on first sight of a problem signature the top candidates run on scratch
//! buffers with random inputs, on a private stream, timed with CUDA events; the fastest is
//! remembered in memory and appended to the on-disk table.
//!
//! The call that triggers a tuning blocks until it is done (a few ms per candidate, plus the
//! first compilation of each candidate's kernel); later calls with the same signature, in this
//! process or the next, only look the result up.

use std::collections::{HashMap, HashSet};
use std::ffi::{c_char, c_void};
use std::io::Write;

use cudarc::driver::sys::{self, CUdeviceptr, CUevent, CUstream};
use once_cell::sync::Lazy;
use parking_lot::Mutex;

use super::driver::{ContextGuard, RelaxedCapture, check, driver_version};
use crate::error::Result;
use crate::plan::Plan;
use crate::plan::cache::{MISALIGNED_WORD, Misaligned};
use crate::plan::pack::Which;
use crate::plan::tuned::{self, CANDIDATES, Entry, Key, Table};
use crate::problem::{GemmPointers, GemmProblem, Scalar};
use crate::types::ScalarType;

/// Launches per candidate: one warm-up (which also compiles and loads its kernels), then the
/// median of the timed ones.
const WARMUP: usize = 1;
const TIMED: usize = 5;

struct State {
    /// Loaded from disk on first use.
    table: Option<Table>,
    /// `device_key` by device ordinal (a device's name and the driver do not change).
    device_keys: HashMap<i32, String>,
    /// Keys whose tuning timed no candidate (kept for the process only).
    untimed: HashSet<Key>,
}

static STATE: Lazy<Mutex<State>> = Lazy::new(|| {
    Mutex::new(State {
        table: None,
        device_keys: HashMap::new(),
        untimed: HashSet::new(),
    })
});

/// Held while a tuning runs (one at a time: they time the device), apart from `STATE`, so that
/// calls whose problem is already tuned are not kept waiting behind one that compiles and times
/// its candidates (a session-51 review).
static TUNING: Lazy<Mutex<()>> = Lazy::new(|| Mutex::new(()));

fn table_path() -> Option<std::path::PathBuf> {
    crate::jit::cache::default_dir().map(|d| d.join(tuned::FILE))
}

/// The table's text, if `path` is a regular file (not a link, FIFO or device, as the kernel
/// cache reads its entries: the directory may be shared) of at most `TABLE_MAX_BYTES`; bytes
/// that are not UTF-8 spoil only their own line (a review: one such byte dropped the whole
/// table, and every shape was tuned again).
fn read_table(path: &std::path::Path) -> Option<String> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.file_type().is_file() || meta.len() > TABLE_MAX_BYTES {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// The table's size limit: ~200 bytes a line, far more lines than a process tunes. A table
/// this large is neither read nor appended to (a review: past it every process tuned again
/// and appended, without end); the load's compaction keeps it well under.
const TABLE_MAX_BYTES: u64 = 64 << 20;

/// The on-disk table, compacted first when most of its lines are dead (`tuned::worth_compacting`:
/// results tuned again under another configuration or by processes racing, torn lines).
fn load_table() -> Table {
    table_path().map(|p| load_table_at(&p)).unwrap_or_default()
}

fn load_table_at(path: &std::path::Path) -> Table {
    let Some(text) = read_table(path) else {
        return Table::default();
    };
    let table = Table::parse(&text);
    if tuned::worth_compacting(&text, &table) {
        match rewrite_table(path, &table.text()) {
            Ok(()) => crate::log::hint(
                "autotune",
                format!("tuning table compacted to its {} results", table.len()),
            ),
            Err(e) => crate::log::hint("autotune", format!("tuning table not compacted: {e}")),
        }
    }
    table
}

/// Replaces the table at `path` with `text` (`jit::cache::write_atomically`: a reader sees
/// the old table or the new one, never half). A line another process appends between this
/// process's read and the rename is lost, which only costs a later process that tuning again.
fn rewrite_table(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    crate::jit::cache::write_atomically(path, &[text.as_bytes()])
}

/// Appends `line` to the table at `path`, never through a link planted at its name nor
/// blocking on a FIFO there (O_NOFOLLOW, O_NONBLOCK, then a regular file or nothing), and
/// after a newline: a line an earlier writer left torn (a full disk, a kill) then spoils
/// only itself, not this one (`Table::parse` skips empty lines).
fn append_line(path: &std::path::Path, line: &str) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::create_dir_all(path.parent().unwrap_or(path))?;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)?;
    let meta = f.metadata()?;
    if !meta.file_type().is_file() {
        return Err(std::io::Error::other(
            "the tuning table is not a regular file",
        ));
    }
    if meta.len() + line.len() as u64 + 1 > TABLE_MAX_BYTES {
        return Err(std::io::Error::other("the tuning table is full"));
    }
    f.write_all(format!("\n{line}").as_bytes())
}

/// The GPU part of a tuning key for the guard's device.
fn device_key(ctx: &ContextGuard) -> Result<String> {
    let mut name = [0 as c_char; 256];
    let mut dev = 0;
    // SAFETY: out-pointers valid; the ordinal came from the driver.
    check(
        unsafe { sys::cuDeviceGet(&mut dev, ctx.device.ordinal) },
        "cuDeviceGet",
    )?;
    // SAFETY: `name` holds 256 bytes, the length passed.
    check(
        unsafe { sys::cuDeviceGetName(name.as_mut_ptr(), name.len() as i32, dev) },
        "cuDeviceGetName",
    )?;
    // SAFETY: the driver wrote a NUL-terminated string into `name`.
    let name = unsafe { std::ffi::CStr::from_ptr(name.as_ptr()) }
        .to_string_lossy()
        .into_owned();
    let version = driver_version();
    if version == 0 {
        return Err(crate::error::Error::Internal(
            "cuDriverGetVersion failed: no key for the tuning table".into(),
        ));
    }
    Ok(tuned::device_id(&name, ctx.device.spec.sm_count, version))
}

/// The tuned winner's name among `plans` (already filtered for the call, best first by the
/// model) for `p`, tuning now if this signature was never seen. None when autotuning is off,
/// there is nothing to choose between, or a tuning failed (logged; the model's order stands).
pub fn tuned_name(
    ctx: &ContextGuard,
    p: &GemmProblem,
    plans: &[Plan],
    misaligned: Which,
    max_ws: u64,
    stream: CUstream,
) -> Option<String> {
    if !tuned::enabled() || plans.len() < 2 || p.is_empty() {
        return None;
    }
    // The scratch operands are sized by each operand's largest offset (`GemmProblem::extent`):
    // a negative batch stride reaches below the start, so such a problem is not tuned (its
    // first plan runs).
    let strides = [
        p.a.batch,
        p.b.batch,
        p.c.batch,
        p.d.batch,
        p.bias_batch_stride,
    ];
    if p.batch > 1 && strides.iter().any(|&s| s < 0) {
        crate::log::hint(
            "autotune",
            "not tuned: a negative batch stride (the scratch copies start at offset 0)",
        );
        return None;
    }
    let key = {
        let mut st = STATE.lock();
        let device = match st.device_keys.get(&ctx.device.ordinal) {
            Some(d) => d.clone(),
            None => match device_key(ctx) {
                Ok(d) => {
                    st.device_keys.insert(ctx.device.ordinal, d.clone());
                    d
                }
                Err(e) => {
                    crate::log::hint("autotune", format!("no device identity: {e}"));
                    return None;
                }
            },
        };
        Key {
            device,
            signature: tuned::signature(
                p,
                max_ws,
                Misaligned::of(misaligned).word(),
                tuned::planner_environment(),
            ),
        }
    };
    // The tuned winner, if this signature was tuned (here or by an earlier process).
    let known = || -> Option<String> {
        let mut st = STATE.lock();
        let table = st.table.get_or_insert_with(load_table);
        let e = table.get(&key)?;
        plans
            .iter()
            .any(|q| q.name() == e.plan)
            .then(|| e.plan.clone())
    };
    if let Some(name) = known() {
        return Some(name);
    }
    if STATE.lock().untimed.contains(&key) {
        return None;
    }
    // Tuning's allocations, copies and synchronisations are illegal in a capture.
    if super::driver::capturing(stream.cast()) {
        crate::log::hint(
            "autotune",
            "not tuned: the stream is being captured into a graph",
        );
        return None;
    }
    // One tuning at a time; a thread that waited here finds what the one before tuned.
    let _tuning = TUNING.lock();
    if let Some(name) = known() {
        return Some(name);
    }
    let timed: Vec<Plan> = plans.iter().take(CANDIDATES).copied().collect();
    match tune(p, &timed, misaligned) {
        Ok(Some(best)) => {
            crate::log::hint(
                "autotune",
                format!(
                    "{}x{}x{} batch {}: {} at {:.1} us (model's first: {})",
                    p.m,
                    p.n,
                    p.k,
                    p.batch,
                    best.plan,
                    best.micros,
                    plans[0].name()
                ),
            );
            if let Some(path) = table_path() {
                let line = Table::line(&key, &best);
                // One short append per result; a failure only costs the next process a retune.
                if let Err(e) = append_line(&path, &line) {
                    crate::log::hint(
                        "autotune",
                        format!("result not saved in {}: {e}", path.display()),
                    );
                }
            }
            let name = best.plan.clone();
            if let Some(table) = STATE.lock().table.as_mut() {
                table.insert(key, best);
            }
            Some(name)
        }
        Ok(None) => {
            // Nothing could be timed: remembered for the process, so later calls keep the
            // model's order instead of tuning again.
            crate::log::hint("autotune", "no candidate could be timed, model order kept");
            STATE.lock().untimed.insert(key);
            None
        }
        Err(e) => {
            // Remembered as untimed too: a failure (no memory for the scratch copies, a
            // refused call) would otherwise be retried, and logged, on every call.
            crate::log::hint("autotune", format!("tuning failed, model order kept: {e}"));
            STATE.lock().untimed.insert(key);
            None
        }
    }
}

/// Device memory from the stream-ordered allocator, freed on drop in the tuning stream's
/// order. Not cuMemAlloc / cuMemFree: cuMemFree may synchronize the whole device, which under
/// the LD_PRELOAD library (a host program's cuBLAS call) waits on the program's other streams,
/// e.g. collective kernels waiting on a peer that waits on this thread (a review).
struct Scratch(CUdeviceptr, CUstream);

impl Scratch {
    fn alloc(bytes: u64, stream: &Stream) -> Result<Scratch> {
        let mut ptr: CUdeviceptr = 0;
        // SAFETY: valid out-pointer; a context is current (the caller's guard); the stream is
        // the tuning stream of that context.
        check(
            unsafe { sys::cuMemAllocAsync(&mut ptr, bytes.max(256) as usize, stream.0) },
            "cuMemAllocAsync (autotune scratch)",
        )?;
        Ok(Scratch(ptr, stream.0))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // SAFETY: allocated on this stream, which outlives the scratch (`tune` declares it
        // first); every use of the memory is ordered before the free on it.
        let _ = unsafe { sys::cuMemFreeAsync(self.0, self.1) };
    }
}

/// Random elements in [-1, 1) of type `t`, as raw bytes.
fn random_bytes(t: ScalarType, elems: u64, seed: u64) -> Vec<u8> {
    let mut s = seed | 1;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    };
    let mut out = Vec::with_capacity((elems * t.size_bytes() as u64) as usize);
    for _ in 0..elems {
        let x = next();
        match t {
            ScalarType::F32 => out.extend_from_slice(&x.to_le_bytes()),
            ScalarType::F16 => out.extend_from_slice(&half::f16::from_f32(x).to_le_bytes()),
            ScalarType::BF16 => out.extend_from_slice(&half::bf16::from_f32(x).to_le_bytes()),
        }
    }
    out
}

/// Copies `data` into `dst` on `stream` and waits for it (`data` is pageable and freed after).
fn upload(dst: &Scratch, data: &[u8], stream: &Stream) -> Result<()> {
    // SAFETY: `dst` holds at least `data.len()` bytes (allocated for this extent); `data`
    // outlives the copy (the stream is synchronized before returning).
    check(
        unsafe {
            sys::cuMemcpyHtoDAsync_v2(dst.0, data.as_ptr() as *const c_void, data.len(), stream.0)
        },
        "cuMemcpyHtoDAsync (autotune inputs)",
    )?;
    // SAFETY: live stream.
    check(
        unsafe { sys::cuStreamSynchronize(stream.0) },
        "cuStreamSynchronize (autotune inputs)",
    )
}

struct Stream(CUstream);

impl Drop for Stream {
    fn drop(&mut self) {
        // SAFETY: created in `tune`; the frees enqueued on it complete after the destroy
        // returns (the driver keeps a destroyed stream's work running).
        let _ = unsafe { sys::cuStreamDestroy_v2(self.0) };
    }
}

struct Event(CUevent);

impl Event {
    fn new() -> Result<Event> {
        let mut e: CUevent = std::ptr::null_mut();
        // SAFETY: valid out-pointer; default flags (timing enabled).
        check(unsafe { sys::cuEventCreate(&mut e, 0) }, "cuEventCreate")?;
        Ok(Event(e))
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        // SAFETY: created above; its stream was synchronized.
        let _ = unsafe { sys::cuEventDestroy_v2(self.0) };
    }
}

/// `plan`'s algo as the list of `misaligned` calls encodes it (word 6 names the list: a packed
/// plan of a misaligned call is found only in that one), so `gemm::run` decodes it.
fn list_algo(plan: &Plan, misaligned: Which) -> [u64; 8] {
    let mut algo = plan.to_algo();
    algo[MISALIGNED_WORD] = Misaligned::of(misaligned).word();
    algo
}

/// Times each plan on scratch copies of the problem's operands; the fastest by median.
/// The caller's context guard keeps the context current throughout.
fn tune(p: &GemmProblem, plans: &[Plan], misaligned: Which) -> Result<Option<Entry>> {
    // Declared first, dropped last: after the scratch memory is freed.
    let _relaxed = RelaxedCapture::enter()?;
    let mut raw: CUstream = std::ptr::null_mut();
    // SAFETY: valid out-pointer; CU_STREAM_NON_BLOCKING = 1.
    check(
        unsafe { sys::cuStreamCreate(&mut raw, 1) },
        "cuStreamCreate",
    )?;
    // Dropped after the scratch memory (declared before it), whose frees it orders.
    let stream = Stream(raw);
    let ab = p.ab_type.size_bytes() as u64;
    let cd = p.cd_type.size_bytes() as u64;
    let a = Scratch::alloc(p.extent[0] * ab, &stream)?;
    let b = Scratch::alloc(p.extent[1] * ab, &stream)?;
    let d = Scratch::alloc(p.extent[3].max(p.extent[2]) * cd, &stream)?;
    let bias_elems = if p.epilogue.bias {
        (p.batch - 1) * p.bias_batch_stride.max(0) as u64 + p.m
    } else {
        1
    };
    let bias = Scratch::alloc(bias_elems * 4, &stream)?;
    let ws_bytes = plans.iter().map(|q| q.workspace).max().unwrap_or(0);
    let ws = Scratch::alloc(ws_bytes, &stream)?;
    // On the tuning stream, not the legacy one (which would wait on the caller's streams).
    upload(
        &a,
        &random_bytes(p.ab_type, p.extent[0], 0x9e37_79b9),
        &stream,
    )?;
    upload(
        &b,
        &random_bytes(p.ab_type, p.extent[1], 0x7f4a_7c15),
        &stream,
    )?;
    upload(
        &bias,
        &random_bytes(ScalarType::F32, bias_elems, 0x2545_f491),
        &stream,
    )?;
    let ptrs = GemmPointers {
        alpha: Scalar::Host(1.0),
        // C is not read: the scratch D doubles as C.
        beta: Scalar::Host(0.0),
        a: a.0,
        b: b.0,
        c: d.0,
        d: d.0,
        bias: if p.epilogue.bias { bias.0 } else { 0 },
    };
    let events: Vec<Event> = (0..=TIMED).map(|_| Event::new()).collect::<Result<_>>()?;
    let mut best: Option<Entry> = None;
    for plan in plans {
        if !plan.accepts(p, &ptrs) {
            continue;
        }
        let algo = list_algo(plan, misaligned);
        let launch = || {
            crate::gemm::run(
                p,
                &ptrs,
                Some(&algo),
                stream.0 as *mut c_void,
                ws.0,
                ws_bytes,
                None,
                0,
            )
        };
        let mut ok = (0..WARMUP).try_for_each(|_| launch());
        for (i, e) in events.iter().enumerate() {
            if ok.is_err() {
                break;
            }
            // SAFETY: live event and stream of the current context.
            ok = check(
                unsafe { sys::cuEventRecord(e.0, stream.0) },
                "cuEventRecord",
            );
            if ok.is_ok() && i < TIMED {
                ok = launch();
            }
        }
        // SAFETY: live stream.
        let synced = check(
            unsafe { sys::cuStreamSynchronize(stream.0) },
            "cuStreamSynchronize (autotune)",
        );
        if let Err(e) = ok.and(synced) {
            crate::log::hint("autotune", format!("{} skipped: {e}", plan.name()));
            continue;
        }
        let mut times: Vec<f32> = Vec::with_capacity(TIMED);
        for w in events.windows(2) {
            let mut ms = 0f32;
            // SAFETY: both events recorded and complete (stream synchronized).
            check(
                unsafe { sys::cuEventElapsedTime_v2(&mut ms, w[0].0, w[1].0) },
                "cuEventElapsedTime",
            )?;
            times.push(ms);
        }
        times.sort_by(f32::total_cmp);
        let micros = times[times.len() / 2] as f64 * 1e3;
        if best.as_ref().is_none_or(|b| micros < b.micros) {
            best = Some(Entry {
                plan: plan.name(),
                micros,
            });
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::DeviceSpec;
    use crate::problem::{MatrixSpec, OpSpec};
    use crate::types::{compute_type::COMPUTE_32F, cuda_data_type::*};

    fn scratch(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("dg-autotune-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn entry(plan: &str) -> (Key, Entry) {
        (
            Key {
                device: "GPU|132".into(),
                signature: 7,
            },
            Entry {
                plan: plan.into(),
                micros: 1.5,
            },
        )
    }

    #[test]
    fn the_table_is_never_read_or_appended_through_a_planted_link() {
        let d = scratch("link");
        let victim = d.join("victim");
        std::fs::write(&victim, "mine\n").unwrap();
        let table = d.join(tuned::FILE);
        std::os::unix::fs::symlink(&victim, &table).unwrap();
        let (k, e) = entry("dg_x");
        assert!(append_line(&table, &Table::line(&k, &e)).is_err());
        assert!(read_table(&table).is_none());
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "mine\n");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_bad_byte_or_a_torn_line_spoils_only_itself() {
        let d = scratch("torn");
        let table = d.join(tuned::FILE);
        let (k, e) = entry("dg_first");
        append_line(&table, &Table::line(&k, &e)).unwrap();
        // A byte that is not UTF-8 on a line of its own, and a line torn mid-way.
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&table)
            .unwrap();
        f.write_all(b"\xff\xfe junk\nGPU|132\t0000").unwrap();
        drop(f);
        let k2 = Key {
            device: "GPU|132".into(),
            signature: 8,
        };
        append_line(&table, &Table::line(&k2, &entry("dg_second").1)).unwrap();
        let t = Table::parse(&read_table(&table).unwrap());
        assert_eq!(t.get(&k).map(|e| e.plan.as_str()), Some("dg_first"));
        assert_eq!(t.get(&k2).map(|e| e.plan.as_str()), Some("dg_second"));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_full_table_is_left_alone() {
        let d = scratch("full");
        let table = d.join(tuned::FILE);
        // Sparse: the size is what counts.
        let f = std::fs::File::create(&table).unwrap();
        f.set_len(TABLE_MAX_BYTES).unwrap();
        drop(f);
        let (k, e) = entry("dg_x");
        let err = append_line(&table, &Table::line(&k, &e)).unwrap_err();
        assert!(err.to_string().contains("full"), "{err}");
        assert_eq!(std::fs::metadata(&table).unwrap().len(), TABLE_MAX_BYTES);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_load_compacts_a_table_of_dead_lines_in_place() {
        let d = scratch("compact");
        let table = d.join(tuned::FILE);
        let key = |s: u128| Key {
            device: "GPU|132".into(),
            signature: s,
        };
        for round in 0..100 {
            for s in 0..5u128 {
                let e = Entry {
                    plan: format!("dg_r{round}"),
                    micros: 1.0,
                };
                append_line(&table, &Table::line(&key(s), &e)).unwrap();
            }
        }
        let before = Table::parse(&read_table(&table).unwrap());
        let loaded = load_table_at(&table);
        let text = read_table(&table).unwrap();
        assert_eq!(text.lines().count(), 5, "rewritten with its results only");
        for s in 0..5u128 {
            assert_eq!(loaded.get(&key(s)).unwrap().plan, "dg_r99");
            assert_eq!(loaded.get(&key(s)), before.get(&key(s)));
        }
        assert_eq!(
            std::fs::read_dir(&d).unwrap().count(),
            1,
            "no temporary file left"
        );
        // Appends go on after it, and a second load leaves it as it is.
        append_line(&table, &Table::line(&key(9), &entry("dg_new").1)).unwrap();
        let again = load_table_at(&table);
        assert_eq!(again.get(&key(9)).unwrap().plan, "dg_new");
        assert_eq!(read_table(&table).unwrap().lines().count(), 7);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_rewrite_never_writes_through_a_planted_link() {
        // A link planted at the table's name is replaced, its target left alone (the
        // temporary file's name cannot be planted: `write_atomically`).
        let d = scratch("rewrite-link");
        let victim = d.join("victim");
        std::fs::write(&victim, "mine\n").unwrap();
        let table = d.join(tuned::FILE);
        std::os::unix::fs::symlink(&victim, &table).unwrap();
        rewrite_table(&table, "new\n").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "mine\n");
        assert_eq!(std::fs::read_to_string(&table).unwrap(), "new\n");
        assert!(
            std::fs::symlink_metadata(&table)
                .unwrap()
                .file_type()
                .is_file()
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    /// Every plan a tuning may time decodes back to itself through the list it came from,
    /// packed and transposed-packed plans of misaligned calls included (session 54: they were
    /// looked up in the aligned list, so none could be timed).
    #[test]
    fn timed_algos_decode_in_their_own_list() {
        let dev = DeviceSpec::H200;
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_a = 1;
        for (m, n, k) in [
            (16u64, 4096u64, 4096u64),
            (1, 4096, 4096),
            (512, 1024, 2048),
        ] {
            let a = MatrixSpec::col(R_16BF, k, m, k as i64);
            let b = MatrixSpec::col(R_16BF, k, n, k as i64);
            let c = MatrixSpec::col(R_16BF, m, n, m as i64);
            let p = GemmProblem::new(&op, &a, &b, &c, &c).unwrap();
            for which in [
                Which::NONE,
                Which {
                    a: true,
                    b: false,
                    d: false,
                },
                Which {
                    a: false,
                    b: true,
                    d: false,
                },
                Which {
                    a: true,
                    b: true,
                    d: false,
                },
            ] {
                let list = crate::plan::cache::candidates_for(&p, &dev, which).unwrap();
                let mut packed = 0;
                for plan in list.plans() {
                    let got = crate::plan::cache::from_algo(&list_algo(plan, which), &p, &dev);
                    assert_eq!(got.ok(), Some(*plan), "{} in list {which:?}", plan.name());
                    packed += plan.pack.is_some() as usize;
                }
                assert_eq!(packed > 0, which != Which::NONE, "{m}x{n}x{k} {which:?}");
            }
        }
    }
}
