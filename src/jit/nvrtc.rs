//! NVRTC: CUDA C++ source -> CUBIN, through cudarc's dynamically loaded bindings.
//!
//! cudarc loads libnvrtc on first use and panics when the library or one of its symbols is
//! missing. Nothing here may panic across the C boundary, so every entry point checks
//! `is_available()` first and runs the NVRTC calls inside `catch_unwind`.

use std::ffi::{CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use cudarc::nvrtc::{result, sys};
use once_cell::sync::OnceCell;

use crate::error::{Error, Result};

/// A compiled kernel image.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The CUBIN (ELF) for the requested `sm_*` architecture, ready for cuModuleLoadData.
    pub cubin: Vec<u8>,
    /// NVRTC's program log (warnings; the ptxas report with `--ptxas-options=-v`).
    pub log: String,
}

/// True when libnvrtc can be loaded. Never panics. A positive answer is remembered (a
/// loaded library stays loaded); a negative one is re-checked, so installing NVRTC while a
/// process runs is noticed, but at most once every `RECHECK_MS` (a miss probes every name
/// cudarc knows, ~0.5 ms of dlopen()s: under the LD_PRELOAD library, where every GEMM asks,
/// that was paid by each call of a process without NVRTC on its loader path; a review,
/// session 78).
pub fn is_available() -> bool {
    static FOUND: OnceCell<()> = OnceCell::new();
    if FOUND.get().is_some() {
        return true;
    }
    let now = now_ms();
    if !recheck_due(&LAST_MISS, now) {
        return false;
    }
    // SAFETY: only dlopen()s candidate library names and drops the handle; no NVRTC call.
    let found = catch_unwind(|| unsafe { sys::is_culib_present() }).unwrap_or(false);
    if found {
        let _ = FOUND.set(());
    } else {
        LAST_MISS.store(now, Ordering::Relaxed);
    }
    found
}

/// How long a negative `is_available` stands before the library is looked for again.
const RECHECK_MS: u64 = 2_000;
/// When the last look found no libnvrtc (`now_ms`), or `NEVER`.
static LAST_MISS: AtomicU64 = AtomicU64::new(NEVER);
const NEVER: u64 = u64::MAX;

/// Milliseconds since this process first asked (monotonic).
fn now_ms() -> u64 {
    static START: once_cell::sync::Lazy<Instant> = once_cell::sync::Lazy::new(Instant::now);
    START.elapsed().as_millis() as u64
}

/// Whether a look for the library is due at `now` after the last miss stored in `last`.
fn recheck_due(last: &AtomicU64, now: u64) -> bool {
    let miss = last.load(Ordering::Relaxed);
    miss == NEVER || now.saturating_sub(miss) >= RECHECK_MS
}

fn not_available() -> Error {
    Error::NotInitialized(
        "libnvrtc could not be loaded (install the CUDA NVRTC runtime, e.g. libnvrtc.so.13, \
         on the library search path)"
            .into(),
    )
}

/// Runs `f` (NVRTC calls) so that a panic inside cudarc (missing symbol) becomes an error.
fn guarded<T>(what: &str, f: impl FnOnce() -> Result<T>) -> Result<T> {
    if !is_available() {
        return Err(not_available());
    }
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| {
        Err(Error::Internal(format!(
            "NVRTC {what} failed: libnvrtc is missing a required symbol"
        )))
    })
}

/// NVRTC's (major, minor) version, part of the cubin cache key.
pub fn version() -> Result<(i32, i32)> {
    guarded("version query", || {
        let (mut major, mut minor) = (0, 0);
        // SAFETY: both pointers are valid for writes for the duration of the call.
        unsafe { sys::nvrtcVersion(&mut major, &mut minor) }
            .result()
            .map_err(|e| Error::Internal(format!("nvrtcVersion failed: {e}")))?;
        Ok((major, minor))
    })
}

/// The `sm_*` architectures this NVRTC compiles for (numbers: 75, 80, 90, ...), asked once.
pub fn supported_archs() -> Result<Vec<i32>> {
    static ARCHS: OnceCell<Vec<i32>> = OnceCell::new();
    ARCHS
        .get_or_try_init(|| {
            guarded("architecture query", || {
                let mut n = 0;
                // SAFETY: valid out-pointer.
                unsafe { sys::nvrtcGetNumSupportedArchs(&mut n) }
                    .result()
                    .map_err(|e| Error::Internal(format!("nvrtcGetNumSupportedArchs: {e}")))?;
                let mut archs = vec![0i32; n.max(0) as usize];
                // SAFETY: `archs` holds the `n` entries NVRTC reported.
                unsafe { sys::nvrtcGetSupportedArchs(archs.as_mut_ptr()) }
                    .result()
                    .map_err(|e| Error::Internal(format!("nvrtcGetSupportedArchs: {e}")))?;
                Ok(archs)
            })
        })
        .cloned()
}

/// The `sm_*` target to compile for a device of compute capability `major`.`minor` whose own
/// target is `exact` ("sm_89", "sm_90a"), given the architectures this NVRTC has
/// (`supported_archs`): the device's own where listed; else, but for the arch-specific `a`
/// targets (Hopper's wgmma), the newest listed one of the same major and no higher minor,
/// whose CUBIN the device runs (CUDA's binary compatibility within a major version: an NVRTC
/// older than the GPU, e.g. sm_121 or sm_103 under one that has sm_120 / sm_100, or sm_89
/// under CUDA 11.0's sm_86); else `exact`, which `compile` refuses as ARCH_MISMATCH.
pub fn target_arch(major: u32, minor: u32, exact: &str, supported: &[i32]) -> String {
    let own = (major * 10 + minor) as i32;
    if exact.ends_with('a') || supported.contains(&own) {
        return exact.to_string();
    }
    supported
        .iter()
        .copied()
        .filter(|&a| a / 10 == major as i32 && a % 10 <= minor as i32)
        .max()
        .map_or_else(|| exact.to_string(), |a| format!("sm_{a}"))
}

/// ARCH_MISMATCH when `options` target an `sm_*` architecture this NVRTC cannot compile for
/// (NVRTC 13 has no sm_70; an old NVRTC no sm_90a): its own error there is an invalid
/// option, which said INTERNAL_ERROR (a session-51 review).
fn check_arch(name: &str, options: &[String]) -> Result<()> {
    let Some(arch) = options
        .iter()
        .find_map(|o| o.strip_prefix("--gpu-architecture=sm_"))
    else {
        return Ok(());
    };
    let number: String = arch.chars().take_while(char::is_ascii_digit).collect();
    let (Ok(number), Ok(archs)) = (number.parse::<i32>(), supported_archs()) else {
        return Ok(()); // NVRTC itself says what is wrong
    };
    if archs.contains(&number) {
        return Ok(());
    }
    let (major, minor) = version()?;
    Err(Error::ArchMismatch(format!(
        "NVRTC {major}.{minor} cannot compile {name} for sm_{arch} (it targets sm_{}); install          an NVRTC that supports this GPU",
        archs
            .iter()
            .map(i32::to_string)
            .collect::<Vec<_>>()
            .join(", sm_")
    )))
}

/// Destroys the program when dropped, on every path out of `compile`.
struct Program(sys::nvrtcProgram);

impl Drop for Program {
    fn drop(&mut self) {
        // SAFETY: self.0 came from create_program and is destroyed exactly once, here.
        // A failure to free cannot be reported from Drop and leaks only host memory.
        let _ = unsafe { result::destroy_program(self.0) };
    }
}

fn c_chars_to_string(v: &[c_char]) -> String {
    let bytes: Vec<u8> = v.iter().map(|&c| c as u8).take_while(|&b| b != 0).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Compiles `source` to CUBIN (never PTX: the driver must not JIT at load time).
/// `name` labels the program in NVRTC's diagnostics. `Error::NotInitialized` when NVRTC is
/// missing; `Error::Internal` carrying the program log when compilation fails. Thread-safe:
/// NVRTC programs are independent objects.
pub fn compile(name: &str, source: &str, options: &[String]) -> Result<Compiled> {
    let src = CString::new(source)
        .map_err(|_| Error::Internal(format!("kernel source for {name} contains a NUL byte")))?;
    let prog_name = CString::new(format!("{name}.cu"))
        .map_err(|_| Error::Internal(format!("kernel name {name:?} contains a NUL byte")))?;
    if let Some(bad) = options.iter().find(|o| o.contains('\0')) {
        return Err(Error::Internal(format!(
            "NVRTC option {bad:?} contains a NUL byte"
        )));
    }
    check_arch(name, options)?;
    guarded("compilation", || {
        let prog = Program(
            result::create_program(&src, Some(&prog_name))
                .map_err(|e| Error::Internal(format!("nvrtcCreateProgram({name}): {e}")))?,
        );
        // SAFETY: prog.0 is a live program (destroyed only by Program's Drop, after this).
        let compiled = unsafe { result::compile_program(prog.0, options) };
        // SAFETY: as above.
        let log = unsafe { result::get_program_log(prog.0) }
            .map(|l| c_chars_to_string(&l))
            .unwrap_or_default();
        if let Err(e) = compiled {
            return Err(Error::Internal(format!(
                "NVRTC could not compile {name} ({e}), options {options:?}:\n{log}"
            )));
        }
        let mut size = 0usize;
        // SAFETY: prog.0 is live and compiled; size is valid for writes.
        unsafe { sys::nvrtcGetCUBINSize(prog.0, &mut size) }
            .result()
            .map_err(|e| Error::Internal(format!("nvrtcGetCUBINSize({name}): {e}")))?;
        if size == 0 {
            // A compute_* target gives PTX only; the caller asked for something unloadable.
            return Err(Error::Internal(format!(
                "NVRTC produced no CUBIN for {name}: options {options:?} need an sm_* architecture"
            )));
        }
        let mut cubin = vec![0u8; size];
        // SAFETY: cubin has exactly the `size` bytes NVRTC reported.
        unsafe { sys::nvrtcGetCUBIN(prog.0, cubin.as_mut_ptr().cast::<c_char>()) }
            .result()
            .map_err(|e| Error::Internal(format!("nvrtcGetCUBIN({name}): {e}")))?;
        Ok(Compiled { cubin, log })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skip() -> bool {
        if is_available() {
            return false;
        }
        assert!(
            std::env::var("DEEPGEMM_SKIP_NVRTC_TESTS").as_deref() == Ok("1"),
            "libnvrtc is not loadable: put it on LD_LIBRARY_PATH or set DEEPGEMM_SKIP_NVRTC_TESTS=1"
        );
        true
    }

    /// A miss stands for `RECHECK_MS`, then the library is looked for again.
    #[test]
    fn a_miss_is_rechecked_only_after_a_while() {
        let last = AtomicU64::new(NEVER);
        assert!(recheck_due(&last, 0), "never looked: look");
        last.store(1_000, Ordering::Relaxed);
        assert!(!recheck_due(&last, 1_000));
        assert!(!recheck_due(&last, 1_000 + RECHECK_MS - 1));
        assert!(recheck_due(&last, 1_000 + RECHECK_MS));
        // A clock read before the miss was stored (another thread's) does not wrap around.
        assert!(!recheck_due(&last, 999));
    }

    #[test]
    fn version_is_sane() {
        if skip() {
            return;
        }
        let (major, minor) = version().unwrap();
        assert!(major >= 11 && minor >= 0, "{major}.{minor}");
    }

    #[test]
    fn tiny_kernel_compiles_to_an_elf_cubin() {
        if skip() {
            return;
        }
        let src = "extern \"C\" __global__ void dg_tiny(float* x) { x[threadIdx.x] *= 2.f; }";
        let c = compile("dg_tiny", src, &["--gpu-architecture=sm_80".into()]).unwrap();
        assert_eq!(&c.cubin[..4], b"\x7fELF");
        assert!(c.cubin.windows(7).any(|w| w == b"dg_tiny"));
    }

    #[test]
    fn errors_carry_the_log() {
        if skip() {
            return;
        }
        let err = compile(
            "dg_broken",
            "__global__ void f() { undeclared_thing(); }",
            &["--gpu-architecture=sm_80".into()],
        )
        .unwrap_err();
        assert!(matches!(err, Error::Internal(_)));
        assert!(err.message().contains("undeclared_thing"), "{err}");
    }

    #[test]
    fn ptx_only_targets_are_refused() {
        if skip() {
            return;
        }
        let err = compile(
            "dg_ptx",
            "extern \"C\" __global__ void k() {}",
            &["--gpu-architecture=compute_80".into()],
        )
        .unwrap_err();
        assert!(matches!(err, Error::Internal(_)), "{err}");
    }

    /// An architecture this NVRTC does not target (sm_50: none since CUDA 12) is an
    /// ARCH_MISMATCH naming the ones it does, not an invalid option.
    #[test]
    fn an_architecture_nvrtc_lacks_is_a_mismatch() {
        if skip() {
            return;
        }
        let archs = supported_archs().unwrap();
        assert!(archs.contains(&80) && archs.contains(&90), "{archs:?}");
        let err = compile(
            "dg_old",
            "extern \"C\" __global__ void k() {}",
            &["--gpu-architecture=sm_50".into()],
        )
        .unwrap_err();
        assert!(matches!(err, Error::ArchMismatch(_)), "{err}");
        assert!(err.message().contains("sm_90"), "{err}");
    }

    #[test]
    fn an_older_nvrtc_builds_the_same_major_s_newest_target() {
        let nvrtc_12_8 = [75, 80, 86, 87, 89, 90, 100, 101, 120];
        let t = |maj, min, exact| target_arch(maj, min, exact, &nvrtc_12_8);
        assert_eq!(t(12, 0, "sm_120"), "sm_120");
        assert_eq!(t(12, 1, "sm_121"), "sm_120");
        assert_eq!(t(10, 3, "sm_103"), "sm_101");
        assert_eq!(t(8, 9, "sm_89"), "sm_89");
        // CUDA 11.0's NVRTC: no sm_89, sm_86 runs there; none of major 9 or 12.
        let nvrtc_11_0 = [35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86];
        assert_eq!(target_arch(8, 9, "sm_89", &nvrtc_11_0), "sm_86");
        assert_eq!(target_arch(12, 0, "sm_120", &nvrtc_11_0), "sm_120");
        // An arch-specific target has no stand-in.
        assert_eq!(target_arch(9, 0, "sm_90a", &nvrtc_11_0), "sm_90a");
        // A lower minor only: sm_86 is no target for an sm_80.
        assert_eq!(target_arch(8, 0, "sm_80", &[86, 90]), "sm_80");
    }

    /// A missing libnvrtc is NOT_INITIALIZED, never a panic. Checked in a child process whose
    /// loader path lacks the NVRTC the tests use (CI's comes only from LD_LIBRARY_PATH, so
    /// there the child checks; where a system NVRTC is found anyway it says it cannot). Before
    /// session 61 the check returned early wherever NVRTC was found, i.e. always (a review).
    #[test]
    fn missing_nvrtc_is_not_initialized() {
        const CHILD: &str = "DEEPGEMM_NVRTC_MISSING_CHILD";
        if std::env::var_os(CHILD).is_some() {
            if is_available() {
                println!("child: a system libnvrtc was found: nothing to check");
                return;
            }
            let e = compile("k", "extern \"C\" __global__ void k() {}", &[]).unwrap_err();
            assert!(matches!(e, Error::NotInitialized(_)), "{e}");
            assert!(matches!(version(), Err(Error::NotInitialized(_))));
            assert!(matches!(supported_archs(), Err(Error::NotInitialized(_))));
            println!("child: checked a missing libnvrtc");
            return;
        }
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "jit::nvrtc::tests::missing_nvrtc_is_not_initialized",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD, "1")
            .env_remove("LD_LIBRARY_PATH")
            .output()
            .expect("run the test binary");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            text.contains("child: checked a missing libnvrtc") || text.contains("nothing to check"),
            "{text}"
        );
    }

    #[test]
    fn nul_bytes_are_errors_not_panics() {
        assert!(compile("x", "a\0b", &[]).is_err());
        assert!(compile("x", "a", &["--x\0".into()]).is_err());
    }
}
