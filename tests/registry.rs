//! The kernel registry under concurrency, and the disk cache across processes.
//!
//! CPU part (NVRTC only, runs in CI): 16 threads asking for the same new variant compile it
//! once; a second process finds it in the disk cache and compiles nothing. The GPU part
//! (`--ignored`) also loads the kernel from 16 threads and checks one entry per device.

use std::process::Command;
use std::sync::{Arc, Barrier};
use std::time::Instant;

use deepgemm::plan::{Kernel, KernelVariant};
use deepgemm::runtime::{driver, registry};
use deepgemm::types::{Math, ScalarType};

const CHILD_ENV: &str = "DEEPGEMM_REGISTRY_TEST_CHILD";

fn nvrtc_or_skip() -> bool {
    if deepgemm::jit::nvrtc::is_available() {
        return true;
    }
    assert!(
        std::env::var("DEEPGEMM_SKIP_NVRTC_TESTS").as_deref() == Ok("1"),
        "libnvrtc.so could not be loaded: put it on LD_LIBRARY_PATH (or set \
         DEEPGEMM_SKIP_NVRTC_TESTS=1 to skip deliberately)"
    );
    eprintln!("skipped: NVRTC not available and DEEPGEMM_SKIP_NVRTC_TESTS=1");
    false
}

fn variant() -> Kernel {
    Kernel::Portable(KernelVariant::portable(
        ScalarType::F16,
        ScalarType::F32,
        Math::Mma,
    ))
}

/// 16 threads released together ask for one CUBIN; returns the ms until all had it.
fn ask_from_16_threads(arch: &'static str) -> f64 {
    let barrier = Arc::new(Barrier::new(16));
    let t = Instant::now();
    let bins: Vec<Arc<Vec<u8>>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..16)
            .map(|_| {
                let b = barrier.clone();
                s.spawn(move || {
                    b.wait();
                    registry::cubin(&variant(), arch).expect("compile")
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let ms = t.elapsed().as_secs_f64() * 1e3;
    for b in &bins {
        assert!(Arc::ptr_eq(b, &bins[0]), "every thread gets the same CUBIN");
    }
    ms
}

#[test]
fn compiled_once_across_threads_then_reused_by_the_next_process() {
    if std::env::var_os(CHILD_ENV).is_some() || !nvrtc_or_skip() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("deepgemm-registry-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // SAFETY (edition 2024 `set_var`): set before any thread of this process reads it.
    unsafe { std::env::set_var("DEEPGEMM_CACHE_DIR", &dir) };

    let cold = ask_from_16_threads("sm_90a");
    let s = registry::stats();
    assert_eq!(
        s.compiles, 1,
        "16 concurrent askers must cause one compilation"
    );
    assert_eq!(s.disk_hits, 0);
    let again = ask_from_16_threads("sm_90a");
    assert_eq!(registry::stats().compiles, 1, "memory hit the second time");
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(files.len(), 1, "one cache entry on disk");
    // `cache_file` names that entry (what `deepgemm-bench --precompile --manifest` lists).
    assert_eq!(
        registry::cache_file(&variant(), "sm_90a").unwrap(),
        Some(files[0].as_ref().unwrap().path())
    );
    assert_ne!(
        registry::cache_file(&variant(), "sm_80").unwrap(),
        registry::cache_file(&variant(), "sm_90a").unwrap(),
        "another architecture, another entry"
    );

    // A second process with the same cache directory compiles nothing.
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "child_process_uses_the_disk_cache",
            "--exact",
            "--ignored",
            "--nocapture",
        ])
        .env(CHILD_ENV, "1")
        .env("DEEPGEMM_CACHE_DIR", &dir)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "child failed:\n{text}");
    let warm: f64 = text
        .lines()
        .find_map(|l| l.strip_prefix("CHILD warm_ms="))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("child printed no timing:\n{text}"));
    println!(
        "registry: cold first call (16 threads, NVRTC) {cold:.1} ms; memory hit {again:.3} ms; \
         second process (disk cache) {warm:.1} ms"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Run by the test above in a child process (ignored when run directly).
#[test]
#[ignore = "child process of compiled_once_across_threads_then_reused_by_the_next_process"]
fn child_process_uses_the_disk_cache() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    let warm = ask_from_16_threads("sm_90a");
    let s = registry::stats();
    assert_eq!(s.compiles, 0, "the child must not compile");
    assert_eq!(s.disk_hits, 1, "one disk read for 16 askers");
    println!("CHILD warm_ms={warm:.3}");
}

#[test]
#[ignore = "needs a CUDA GPU"]
fn gpu_kernel_loaded_once_per_device_from_16_threads() {
    driver::init().expect("a CUDA GPU");
    let v = Kernel::Portable(KernelVariant::portable(
        ScalarType::BF16,
        ScalarType::BF16,
        Math::Mma,
    ));
    let barrier = Arc::new(Barrier::new(16));
    std::thread::scope(|s| {
        for _ in 0..16 {
            let b = barrier.clone();
            s.spawn(move || {
                let ctx = driver::enter(std::ptr::null_mut()).unwrap();
                b.wait();
                registry::get(&ctx, &v).unwrap();
            });
        }
    });
    let st = registry::stats();
    let entries: Vec<_> = st.entries.iter().filter(|e| e.1 == v.name()).collect();
    assert_eq!(entries.len(), 1, "{:?}", st.entries);
    assert_eq!(entries[0].0, 0);
    let dev = driver::current_device().unwrap();
    assert!(dev.spec.sm_count > 0 && dev.spec.cc_major >= 7, "{dev:?}");
    println!("registry on GPU: {st:?}, device {dev:?}");
}
