//! The library's log, with cuBLASLt's levels.
//!
//! `DEEPGEMM_LOG_LEVEL` (read once): 0 off (default), 1 Error, 2 Trace (calls that launch
//! kernels log what they launch), 3 Hints, 4 Info, 5 Api (every exported call logs its
//! name). Levels are cumulative, as in cuBLASLt. `DEEPGEMM_LOG_FILE` is a path to append to
//! (`%i` is replaced by the process id, as cuBLASLt's CUBLASLT_LOG_FILE); stderr otherwise.
//! `deepgemmLtLoggerSetLevel` / `deepgemmLtLoggerOpenFile` override both at run time.
//!
//! A line reads `[deepgemm][2026-11-29T10:00:00.123Z][Error][deepgemmLtMatmul] D is NULL`.
//! Logging never fails a call: write errors are dropped.

use std::fmt;
use std::fs::File;
use std::io::Write;
use std::sync::atomic::{AtomicI32, Ordering};
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

/// -1 until the environment is read; then the current level.
static LEVEL: AtomicI32 = AtomicI32::new(-1);

/// `None` = stderr.
static SINK: Lazy<Mutex<Option<File>>> = Lazy::new(|| Mutex::new(open_from_env()));

fn level_from_env() -> i32 {
    std::env::var("DEEPGEMM_LOG_LEVEL")
        .ok()
        .and_then(|v| v.trim().parse::<i32>().ok())
        .map(|v| v.clamp(0, MAX_LEVEL))
        .unwrap_or(0)
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

/// The current level (0 = off).
pub fn level() -> i32 {
    let l = LEVEL.load(Ordering::Relaxed);
    if l >= 0 {
        return l;
    }
    // Two threads may both read the environment; they store the same value.
    let env = level_from_env();
    let _ = LEVEL.compare_exchange(-1, env, Ordering::Relaxed, Ordering::Relaxed);
    LEVEL.load(Ordering::Relaxed)
}

/// Sets the level; values outside 0..=5 are rejected (returns false).
pub fn set_level(level: i32) -> bool {
    if !(0..=MAX_LEVEL).contains(&level) {
        return false;
    }
    LEVEL.store(level, Ordering::Relaxed);
    true
}

/// Sends the log to `path` (appending), or back to stderr with `None`. False when the file
/// cannot be opened (the sink is then left as it was).
pub fn set_file(path: Option<&str>) -> bool {
    let file = match path {
        Some(p) => match open_append(p) {
            Some(f) => Some(f),
            None => return false,
        },
        None => None,
    };
    *SINK.lock() = file;
    true
}

/// True when messages of `level` are written.
pub fn enabled(level: Level) -> bool {
    self::level() >= level as i32
}

/// Writes one line if `level` is enabled. `func` is the API function (or module) name.
pub fn write(level: Level, func: &str, msg: fmt::Arguments<'_>) {
    if !enabled(level) {
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
    match sink.as_mut() {
        Some(f) => {
            let _ = f.write_all(line.as_bytes());
            let _ = f.flush();
        }
        None => {
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
    fn timestamps_are_utc_iso() {
        assert_eq!(timestamp(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        // 2000-02-29 (a leap day in a century leap year) 12:34:56.789
        let t = UNIX_EPOCH + Duration::from_millis(951_827_696_789);
        assert_eq!(timestamp(t), "2000-02-29T12:34:56.789Z");
        let t = UNIX_EPOCH + Duration::from_secs(1_795_860_000);
        assert_eq!(timestamp(t), "2026-11-28T10:00:00.000Z");
    }
}
