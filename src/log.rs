//! The library's log, with cuBLASLt's levels and mask.
//!
//! `DEEPGEMM_LOG_LEVEL` (read once): 0 off (default), 1 Error, 2 Trace (calls that launch
//! kernels log what they launch), 3 Hints, 4 Info, 5 Api (every exported call logs its
//! name). Levels are cumulative, as in cuBLASLt; `DEEPGEMM_LOG_MASK` (cuBLASLt's
//! CUBLASLT_LOG_MASK: 1 Error, 2 Trace, 4 Hints, 8 Info, 16 Api, any sum) picks levels one by
//! one and wins over the level. `DEEPGEMM_LOG_FILE` is a path to append to (`%i` is replaced
//! by the process id, as cuBLASLt's CUBLASLT_LOG_FILE); stderr otherwise.
//! `deepgemmLtLoggerSetLevel` / `SetMask` / `OpenFile` / `SetFile` / `SetCallback` /
//! `ForceDisable` override them at run time.
//!
//! A line reads `[deepgemm][2026-11-29T10:00:00.123Z][Error][deepgemmLtMatmul] D is NULL`.
//! Logging never fails a call: write errors are dropped.

use std::ffi::{CString, c_char};
use std::fmt;
use std::fs::File;
use std::io::Write;
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use once_cell::sync::Lazy;
use parking_lot::Mutex;

/// cuBLASLt's log levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(i32)]
pub enum Level {
    Error = 1,
    Trace = 2,
    Hints = 3,
    Info = 4,
    Api = 5,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Error => "Error",
            Level::Trace => "Trace",
            Level::Hints => "Hints",
            Level::Info => "Info",
            Level::Api => "Api",
        }
    }
}

/// Highest level accepted by `set_level`.
pub const MAX_LEVEL: i32 = 5;
/// Every mask bit (`set_mask`): Error 1 ... Api 16.
pub const MAX_MASK: i32 = (1 << MAX_LEVEL) - 1;

/// -1 until the environment is read; then the current mask (bit `level - 1` per level), or
/// `FORCED_OFF` for good after `force_disable`: one load on every call's path.
static MASK: AtomicI32 = AtomicI32::new(-1);
/// `force_disable`'s mask: no level bit set, and a bit the setters see and keep.
const FORCED_OFF: i32 = 1 << 30;
/// The caller's callback (`set_callback`) as an address; 0 for none.
static CALLBACK: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// This thread is inside the caller's callback.
    static IN_CALLBACK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// cuBLASLt's cublasLtLoggerCallback_t: (level, function name, message), both strings
/// NUL-terminated and valid only during the call.
pub type Callback = unsafe extern "C" fn(i32, *const c_char, *const c_char);

/// Where lines go without a callback.
enum Sink {
    Stderr,
    File(File),
    /// A C `FILE*` of the caller's (`set_c_file`), as an address; written with fwrite.
    CFile(usize),
}

static SINK: Lazy<Mutex<Sink>> = Lazy::new(|| {
    Mutex::new(match open_from_env() {
        Some(f) => Sink::File(f),
        None => Sink::Stderr,
    })
});

/// The mask of a cumulative level (0 -> 0, 1 -> 1, 3 -> 7, 5 -> 31).
fn mask_of_level(level: i32) -> i32 {
    (1 << level.clamp(0, MAX_LEVEL)) - 1
}

fn mask_from_env() -> i32 {
    let var = |name: &str| std::env::var(name).ok();
    mask_of(
        var("DEEPGEMM_LOG_MASK").as_deref(),
        var("DEEPGEMM_LOG_LEVEL").as_deref(),
    )
}

/// The mask the environment's DEEPGEMM_LOG_MASK and DEEPGEMM_LOG_LEVEL ask for: the mask when
/// it is a number in 0..=31, else the level's (clamped to 0..=5; 0 when unset or not a
/// number).
fn mask_of(mask: Option<&str>, level: Option<&str>) -> i32 {
    let num = |v: Option<&str>| v.and_then(|v| v.trim().parse::<i32>().ok());
    match num(mask) {
        Some(m) if (0..=MAX_MASK).contains(&m) => m,
        _ => mask_of_level(num(level).unwrap_or(0)),
    }
}

/// The highest level a mask enables (0 = none).
fn level_of_mask(mask: i32) -> i32 {
    32 - (mask.clamp(0, MAX_MASK) as u32).leading_zeros() as i32
}

fn open_from_env() -> Option<File> {
    let path = std::env::var("DEEPGEMM_LOG_FILE").ok()?;
    open_append(&path)
}

fn open_append(path: &str) -> Option<File> {
    let path = path.replace("%i", &std::process::id().to_string());
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .ok()
}

/// The current mask (0 = off; 0 after `force_disable`).
pub fn mask() -> i32 {
    let m = MASK.load(Ordering::Relaxed);
    if m >= 0 {
        return m & MAX_MASK;
    }
    // Two threads may both read the environment; they store the same value.
    let env = mask_from_env();
    let _ = MASK.compare_exchange(-1, env, Ordering::Relaxed, Ordering::Relaxed);
    MASK.load(Ordering::Relaxed) & MAX_MASK
}

/// Stores `mask` unless `force_disable` came first.
fn store_mask(mask: i32) {
    let _ = MASK.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |m| {
        (m & FORCED_OFF == 0 || m < 0).then_some(mask)
    });
}

/// The highest level the mask enables (0 = off).
pub fn level() -> i32 {
    level_of_mask(mask())
}

/// Sets the level (levels 1 to `level` on); values outside 0..=5 are rejected (returns
/// false). No effect after `force_disable`.
pub fn set_level(level: i32) -> bool {
    if !(0..=MAX_LEVEL).contains(&level) {
        return false;
    }
    store_mask(mask_of_level(level));
    true
}

/// Sets the mask (cuBLASLt's bits: 1 Error, 2 Trace, 4 Hints, 8 Info, 16 Api); values outside
/// 0..=31 are rejected (returns false). No effect after `force_disable`.
pub fn set_mask(mask: i32) -> bool {
    if !(0..=MAX_MASK).contains(&mask) {
        return false;
    }
    store_mask(mask);
    true
}

/// Turns the log off for the rest of the process (cublasLtLoggerForceDisable): later levels and
/// masks are checked as before but change nothing; files and callbacks are kept, unused.
pub fn force_disable() {
    MASK.store(FORCED_OFF, Ordering::Relaxed);
}

/// Sends every line to `callback` instead of the file or stderr (`None`: back to them). The
/// callback runs on the thread that logs, possibly while the library holds internal locks;
/// lines the library logs while that thread is inside the callback go to the file or stderr.
/// A call already inside the old callback is not waited for.
pub fn set_callback(callback: Option<Callback>) {
    CALLBACK.store(callback.map_or(0, |f| f as usize), Ordering::Release);
}

fn callback() -> Option<Callback> {
    match CALLBACK.load(Ordering::Acquire) {
        0 => None,
        // SAFETY: only `set_callback` stores a non-zero value, and it stores a `Callback`.
        a => Some(unsafe { std::mem::transmute::<usize, Callback>(a) }),
    }
}

/// Sends the log to `path` (appending), or back to stderr with `None`. False when the file
/// cannot be opened (the sink is then left as it was).
pub fn set_file(path: Option<&str>) -> bool {
    let sink = match path {
        Some(p) => match open_append(p) {
            Some(f) => Sink::File(f),
            None => return false,
        },
        None => Sink::Stderr,
    };
    *SINK.lock() = sink;
    true
}

/// Sends the log to the caller's C stream `file` (a `FILE*`, cublasLtLoggerSetFile), or back
/// to stderr with NULL. The caller keeps it open while the library may log.
pub fn set_c_file(file: *mut libc::FILE) {
    *SINK.lock() = if file.is_null() {
        Sink::Stderr
    } else {
        Sink::CFile(file as usize)
    };
}

/// True when messages of `level` are written.
pub fn enabled(level: Level) -> bool {
    mask() & (1 << (level as i32 - 1)) != 0
}

/// Writes one line if `level` is enabled. `func` is the API function (or module) name.
pub fn write(level: Level, func: &str, msg: fmt::Arguments<'_>) {
    if !enabled(level) {
        return;
    }
    // A message logged from inside the callback (the callback called the library) goes to
    // the file or stderr: calling back again would recurse without end.
    let cb = callback().filter(|_| !IN_CALLBACK.with(|c| c.get()));
    if let Some(cb) = cb {
        // C strings cannot hold NUL: any inside is dropped.
        let c = |s: String| CString::new(s.replace('\0', "")).unwrap_or_default();
        let (f, m) = (c(func.to_string()), c(msg.to_string()));
        IN_CALLBACK.with(|c| c.set(true));
        // SAFETY: the caller's callback, with two NUL-terminated strings that outlive the call.
        unsafe { cb(level as i32, f.as_ptr(), m.as_ptr()) };
        IN_CALLBACK.with(|c| c.set(false));
        return;
    }
    let line = format!(
        "[deepgemm][{}][{}][{}] {}\n",
        timestamp(SystemTime::now()),
        level.name(),
        func,
        msg
    );
    let mut sink = SINK.lock();
    match &mut *sink {
        Sink::File(f) => {
            let _ = f.write_all(line.as_bytes());
            let _ = f.flush();
        }
        Sink::CFile(file) => {
            let file = *file as *mut libc::FILE;
            // SAFETY: the caller's open FILE* (set_c_file's contract); the lock orders writers.
            unsafe {
                libc::fwrite(line.as_ptr().cast(), 1, line.len(), file);
                libc::fflush(file);
            }
        }
        Sink::Stderr => {
            let _ = std::io::stderr().lock().write_all(line.as_bytes());
        }
    }
}

pub fn error(func: &str, msg: impl fmt::Display) {
    write(Level::Error, func, format_args!("{msg}"));
}

pub fn trace(func: &str, msg: impl fmt::Display) {
    write(Level::Trace, func, format_args!("{msg}"));
}

pub fn hint(func: &str, msg: impl fmt::Display) {
    write(Level::Hints, func, format_args!("{msg}"));
}

pub fn info(func: &str, msg: impl fmt::Display) {
    write(Level::Info, func, format_args!("{msg}"));
}

pub fn api(func: &str, msg: impl fmt::Display) {
    write(Level::Api, func, format_args!("{msg}"));
}

/// `log_error!("deepgemmLtMatmul", "D is {}", what)`: formats only when the level is on.
#[macro_export]
macro_rules! log_error {
    ($func:expr, $($arg:tt)*) => {
        if $crate::log::enabled($crate::log::Level::Error) {
            $crate::log::write($crate::log::Level::Error, $func, format_args!($($arg)*))
        }
    };
}

/// `log_trace!(func, fmt, args...)`, see `log_error!`.
#[macro_export]
macro_rules! log_trace {
    ($func:expr, $($arg:tt)*) => {
        if $crate::log::enabled($crate::log::Level::Trace) {
            $crate::log::write($crate::log::Level::Trace, $func, format_args!($($arg)*))
        }
    };
}

/// `log_info!(func, fmt, args...)`, see `log_error!`.
#[macro_export]
macro_rules! log_info {
    ($func:expr, $($arg:tt)*) => {
        if $crate::log::enabled($crate::log::Level::Info) {
            $crate::log::write($crate::log::Level::Info, $func, format_args!($($arg)*))
        }
    };
}

/// `log_api!(func, fmt, args...)`, see `log_error!`.
#[macro_export]
macro_rules! log_api {
    ($func:expr, $($arg:tt)*) => {
        if $crate::log::enabled($crate::log::Level::Api) {
            $crate::log::write($crate::log::Level::Api, $func, format_args!($($arg)*))
        }
    };
}

/// UTC ISO 8601 with milliseconds, e.g. `2026-11-29T10:00:00.123Z` (no date crate is
/// allowed, so the civil date comes from Howard Hinnant's days-from-civil inverse).
pub fn timestamp(t: SystemTime) -> String {
    let d = t.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = d.as_secs() as i64;
    let ms = d.subsec_millis();
    let days = secs.div_euclid(86_400);
    let sod = secs.rem_euclid(86_400);
    let (y, m, dd) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{dd:02}T{:02}:{:02}:{:02}.{ms:03}Z",
        sod / 3600,
        (sod / 60) % 60,
        sod % 60
    )
}

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn levels_are_masks_of_their_lower_bits() {
        assert_eq!(
            (0..=5).map(mask_of_level).collect::<Vec<_>>(),
            [0, 1, 3, 7, 15, 31]
        );
        // A mask's level is its highest bit.
        for (m, l) in [(0, 0), (1, 1), (2, 2), (5, 3), (16, 5), (31, 5)] {
            assert_eq!(level_of_mask(m), l, "mask {m}");
        }
        for l in 0..=5 {
            assert_eq!(level_of_mask(mask_of_level(l)), l);
        }
    }

    #[test]
    fn the_environment_mask_wins_when_valid() {
        assert_eq!(mask_of(None, None), 0);
        assert_eq!(mask_of(None, Some("3")), 7);
        assert_eq!(mask_of(None, Some("9")), 31, "levels clamp");
        assert_eq!(mask_of(None, Some("x")), 0);
        assert_eq!(mask_of(Some("16"), Some("1")), 16);
        assert_eq!(mask_of(Some(" 0 "), Some("5")), 0);
        // Masks outside 0..=31 (as SetMask refuses them) leave the level's.
        assert_eq!(mask_of(Some("33"), Some("1")), 1);
        assert_eq!(mask_of(Some("-1"), None), 0);
        assert_eq!(mask_of(Some("x"), Some("2")), 3);
    }

    #[test]
    fn timestamps_are_utc_iso() {
        assert_eq!(timestamp(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        // 2000-02-29 (a leap day in a century leap year) 12:34:56.789
        let t = UNIX_EPOCH + Duration::from_millis(951_827_696_789);
        assert_eq!(timestamp(t), "2000-02-29T12:34:56.789Z");
        let t = UNIX_EPOCH + Duration::from_secs(1_795_860_000);
        assert_eq!(timestamp(t), "2026-11-28T10:00:00.000Z");
    }
}
