//! The environment, read once (first call or load time, whichever comes first).
//!
//! - `DEEPGEMM_PRELOAD=0` (or `off`, `false`, `no`): forward every call unchanged.
//! - `DEEPGEMM_PRELOAD_LOG=summary`: counts per entry point and forwarding reason at exit;
//!   `=calls`: also one line per call.
//! - `DEEPGEMM_PRELOAD_LOG_FILE=path`: append the log there instead of stderr.
//! - `NVIDIA_TF32_OVERRIDE=0`: NVIDIA's libraries then never use TF32 for fp32 work, so
//!   neither do we (exact fp32 runs instead).
//! - `DEEPGEMM_PRELOAD_PORTABLE=1`: substitute calls that deepgemm would run on its portable
//!   (reference) kernel too; by default they go to cuBLAS (`decide::portable`).

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::OnceLock;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LogMode {
    Off,
    Summary,
    Calls,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub enabled: bool,
    pub log: LogMode,
    pub log_file: Option<PathBuf>,
    /// NVIDIA_TF32_OVERRIDE=0: TF32 is never allowed.
    pub tf32_disabled: bool,
    /// DEEPGEMM_PRELOAD_PORTABLE=1: calls planned on the portable kernel are substituted too.
    pub portable: bool,
    /// A DEEPGEMM_PRELOAD_LOG value that was not understood (warned about once).
    pub bad_log_value: Option<String>,
}

impl Config {
    /// The configuration the given variable values mean (unit-tested; `get` reads the
    /// process environment).
    pub fn parse(
        preload: Option<&str>,
        log: Option<&str>,
        log_file: Option<OsString>,
        tf32_override: Option<&str>,
        portable: Option<&str>,
    ) -> Config {
        let off = |v: &str| {
            matches!(
                v.trim().to_ascii_lowercase().as_str(),
                "0" | "off" | "false" | "no"
            )
        };
        let (log, bad_log_value) = match log.map(|v| v.trim().to_ascii_lowercase()) {
            None => (LogMode::Off, None),
            Some(v) => match v.as_str() {
                "" | "0" | "off" | "none" => (LogMode::Off, None),
                "summary" => (LogMode::Summary, None),
                "calls" => (LogMode::Calls, None),
                _ => (LogMode::Off, Some(v)),
            },
        };
        Config {
            enabled: !preload.is_some_and(off),
            log,
            log_file: log_file.filter(|f| !f.is_empty()).map(PathBuf::from),
            tf32_disabled: tf32_override.is_some_and(|v| v.trim() == "0"),
            portable: portable.is_some_and(|v| v.trim() == "1"),
            bad_log_value,
        }
    }
}

/// NVIDIA_TF32_OVERRIDE=0, read at the first GEMM that asks, not with the rest at load time
/// (`get` runs from the load-time constructor): a program may set it after this library is
/// loaded and before cuBLAS reads it (Python's os.environ before `import torch`), and cuBLAS
/// then runs exact fp32 (a session-51 review found the preload substituting TF32 there).
pub fn tf32_disabled() -> bool {
    deepgemm::api::blas::tf32_override_off()
}

/// The process's configuration (its `tf32_disabled` aside: see `tf32_disabled()`).
pub fn get() -> &'static Config {
    static CONFIG: OnceLock<Config> = OnceLock::new();
    CONFIG.get_or_init(|| {
        let var = |name: &str| std::env::var(name).ok();
        let c = Config::parse(
            var("DEEPGEMM_PRELOAD").as_deref(),
            var("DEEPGEMM_PRELOAD_LOG").as_deref(),
            std::env::var_os("DEEPGEMM_PRELOAD_LOG_FILE"),
            var("NVIDIA_TF32_OVERRIDE").as_deref(),
            var("DEEPGEMM_PRELOAD_PORTABLE").as_deref(),
        );
        if let Some(v) = &c.bad_log_value {
            crate::stats::emit_to(
                c.log_file.as_deref(),
                &format!("deepgemm-preload: DEEPGEMM_PRELOAD_LOG={v} not understood (summary or calls); logging off\n"),
            );
        }
        c
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_switches() {
        let c = Config::parse(None, None, None, None, None);
        assert!(c.enabled);
        assert_eq!(c.log, LogMode::Off);
        assert!(!c.tf32_disabled);
        for v in ["0", "off", "FALSE", " no "] {
            assert!(
                !Config::parse(Some(v), None, None, None, None).enabled,
                "{v}"
            );
        }
        for v in ["1", "on", ""] {
            assert!(
                Config::parse(Some(v), None, None, None, None).enabled,
                "{v}"
            );
        }
        assert_eq!(
            Config::parse(None, Some("summary"), None, None, None).log,
            LogMode::Summary
        );
        assert_eq!(
            Config::parse(None, Some("Calls"), None, None, None).log,
            LogMode::Calls
        );
        let bad = Config::parse(None, Some("everything"), None, None, None);
        assert_eq!(bad.log, LogMode::Off);
        assert_eq!(bad.bad_log_value.as_deref(), Some("everything"));
        assert!(Config::parse(None, None, None, Some("0"), None).tf32_disabled);
        assert!(!Config::parse(None, None, None, Some("1"), None).tf32_disabled);
        assert!(!Config::parse(None, None, None, None, None).portable);
        assert!(Config::parse(None, None, None, None, Some("1")).portable);
        assert!(!Config::parse(None, None, None, None, Some("0")).portable);
        assert_eq!(
            Config::parse(None, None, Some("".into()), None, None).log_file,
            None
        );
        assert_eq!(
            Config::parse(None, None, Some("/tmp/x".into()), None, None).log_file,
            Some(PathBuf::from("/tmp/x"))
        );
    }
}
