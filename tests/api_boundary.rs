//! The C boundary itself: panics and errors become statuses, status strings, versions,
//! and Create on a machine without a usable GPU.

mod api_common;
use api_common::*;
use std::ffi::CStr;
use std::ptr::null_mut;

use deepgemm::error::Error;
use deepgemm::ffi::boundary::{ffi_boundary, ffi_boundary_value};

#[test]
fn panics_are_caught_and_errors_mapped() {
    assert_eq!(ffi_boundary("test_ok", || Ok(())), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(
        ffi_boundary("test_panic", || -> deepgemm::Result<()> { panic!("boom") }),
        DEEPGEMM_STATUS_INTERNAL_ERROR
    );
    assert_eq!(
        ffi_boundary("test_panic_string", || -> deepgemm::Result<()> {
            panic!("{}", String::from("formatted boom"))
        }),
        DEEPGEMM_STATUS_INTERNAL_ERROR
    );
    // A panic in the middle of real work (an out-of-bounds index).
    let v: Vec<u8> = Vec::new();
    let i = v.len() + 3;
    assert_eq!(
        ffi_boundary("test_index", || {
            let _ = v[i];
            Ok(())
        }),
        DEEPGEMM_STATUS_INTERNAL_ERROR
    );
    let cases = [
        (
            Error::NotInitialized("x".into()),
            DEEPGEMM_STATUS_NOT_INITIALIZED,
        ),
        (
            Error::InvalidValue("x".into()),
            DEEPGEMM_STATUS_INVALID_VALUE,
        ),
        (
            Error::NotSupported("x".into()),
            DEEPGEMM_STATUS_NOT_SUPPORTED,
        ),
        (
            Error::ArchMismatch("x".into()),
            DEEPGEMM_STATUS_ARCH_MISMATCH,
        ),
        (Error::AllocFailed("x".into()), DEEPGEMM_STATUS_ALLOC_FAILED),
        (
            Error::ExecutionFailed("x".into()),
            DEEPGEMM_STATUS_EXECUTION_FAILED,
        ),
        (Error::Internal("x".into()), DEEPGEMM_STATUS_INTERNAL_ERROR),
    ];
    for (e, st) in cases {
        assert_eq!(e.status(), st as i32);
        assert_eq!(ffi_boundary("test_err", move || Err(e)), st);
    }
    assert_eq!(ffi_boundary_value("test_value", 7, || 3), 3);
    assert_eq!(
        ffi_boundary_value("test_value", 7, || -> i32 { panic!("boom") }),
        7
    );
}

#[test]
fn status_names_and_strings() {
    let expect = [
        (0, "DEEPGEMM_STATUS_SUCCESS"),
        (1, "DEEPGEMM_STATUS_NOT_INITIALIZED"),
        (3, "DEEPGEMM_STATUS_ALLOC_FAILED"),
        (7, "DEEPGEMM_STATUS_INVALID_VALUE"),
        (8, "DEEPGEMM_STATUS_ARCH_MISMATCH"),
        (11, "DEEPGEMM_STATUS_MAPPING_ERROR"),
        (13, "DEEPGEMM_STATUS_EXECUTION_FAILED"),
        (14, "DEEPGEMM_STATUS_INTERNAL_ERROR"),
        (15, "DEEPGEMM_STATUS_NOT_SUPPORTED"),
        (16, "DEEPGEMM_STATUS_LICENSE_ERROR"),
    ];
    let s = |p: *const std::ffi::c_char| unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_owned();
    let mut descriptions = Vec::new();
    for (v, name) in expect {
        assert_eq!(s(deepgemmGetStatusName(v)), name);
        assert_eq!(s(deepgemmLtGetStatusName(v)), name);
        let d = s(deepgemmGetStatusString(v));
        assert!(!d.is_empty() && d != "unknown status", "{name}: {d}");
        assert_eq!(s(deepgemmLtGetStatusString(v)), d);
        descriptions.push(d);
    }
    descriptions.sort();
    descriptions.dedup();
    assert_eq!(
        descriptions.len(),
        expect.len(),
        "every status has its own description"
    );
    for v in [-1, 2, 4, 9, 12, 17, i32::MAX, i32::MIN] {
        assert_eq!(s(deepgemmGetStatusName(v)), "DEEPGEMM_STATUS_UNKNOWN");
        assert_eq!(s(deepgemmGetStatusString(v)), "unknown status");
    }
    // The strings are static: the same pointer every time.
    assert_eq!(deepgemmGetStatusName(7), deepgemmGetStatusName(7));
}

#[test]
fn versions_match_cargo_toml() {
    let part = |s: &str| s.parse::<usize>().unwrap();
    let expect = part(env!("CARGO_PKG_VERSION_MAJOR")) * 10_000
        + part(env!("CARGO_PKG_VERSION_MINOR")) * 100
        + part(env!("CARGO_PKG_VERSION_PATCH"));
    assert_eq!(deepgemmLtGetVersion(), expect);
    let mut v = -1;
    assert_eq!(
        deepgemmGetVersion(null_mut(), &mut v),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(v as usize, expect);
    assert_eq!(
        deepgemmGetVersion(null_mut(), null_mut()),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
}

/// True when the CUDA driver library can be loaded here.
fn driver_present() -> bool {
    // SAFETY: only tries to dlopen libcuda.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

#[test]
fn create_without_a_gpu_is_not_initialized() {
    let sentinel = 0x5a5a_5a50usize;
    let mut h = sentinel as deepgemmLtHandle_t;
    let st = deepgemmLtCreate(&mut h);
    let mut bh = sentinel as deepgemmHandle_t;
    let bst = deepgemmCreate(&mut bh);
    if driver_present() {
        // A GPU machine: either it works, or it says why; handles only on success.
        for (st, ptr) in [(st, h as usize), (bst, bh as usize)] {
            assert!(
                st == DEEPGEMM_STATUS_SUCCESS || st == DEEPGEMM_STATUS_NOT_INITIALIZED,
                "{st:?}"
            );
            assert_eq!(st == DEEPGEMM_STATUS_SUCCESS, ptr != sentinel);
        }
        if st == DEEPGEMM_STATUS_SUCCESS {
            assert_eq!(deepgemmLtDestroy(h), DEEPGEMM_STATUS_SUCCESS);
        }
        if bst == DEEPGEMM_STATUS_SUCCESS {
            assert_eq!(deepgemmDestroy(bh), DEEPGEMM_STATUS_SUCCESS);
        }
    } else {
        assert_eq!(st, DEEPGEMM_STATUS_NOT_INITIALIZED);
        assert_eq!(h as usize, sentinel, "handle written on failure");
        assert_eq!(bst, DEEPGEMM_STATUS_NOT_INITIALIZED);
        assert_eq!(bh as usize, sentinel, "handle written on failure");
    }
    assert_eq!(deepgemmLtCreate(null_mut()), DEEPGEMM_STATUS_INVALID_VALUE);
    assert_eq!(deepgemmCreate(null_mut()), DEEPGEMM_STATUS_INVALID_VALUE);
    assert_eq!(deepgemmLtDestroy(null_mut()), DEEPGEMM_STATUS_SUCCESS);
}

#[test]
fn c_struct_layouts() {
    use std::mem::{offset_of, size_of};
    assert_eq!(size_of::<deepgemmLtMatmulAlgo_t>(), 64);
    assert_eq!(size_of::<deepgemmLtMatmulHeuristicResult_t>(), 96);
    assert_eq!(
        offset_of!(deepgemmLtMatmulHeuristicResult_t, workspaceSize),
        64
    );
    assert_eq!(offset_of!(deepgemmLtMatmulHeuristicResult_t, state), 72);
    assert_eq!(
        offset_of!(deepgemmLtMatmulHeuristicResult_t, wavesCount),
        76
    );
    assert_eq!(offset_of!(deepgemmLtMatmulHeuristicResult_t, reserved), 80);
    assert_eq!(size_of::<deepgemmStatus_t>(), 4);
}

#[test]
fn logger_level_is_validated() {
    for bad in [-1, 6, 100] {
        assert_eq!(deepgemmLtLoggerSetLevel(bad), DEEPGEMM_STATUS_INVALID_VALUE);
        assert_eq!(deepgemmLoggerSetLevel(bad), DEEPGEMM_STATUS_INVALID_VALUE);
    }
    assert_eq!(deepgemmLoggerSetLevel(0), DEEPGEMM_STATUS_SUCCESS);
}

/// deepgemmLtHeuristicsCacheGetCapacity / SetCapacity: the process-wide plan cache's bound,
/// read back as set (0 included), and a NULL out-pointer refused.
#[test]
fn heuristics_cache_capacity_round_trips() {
    let mut before = 0usize;
    assert_eq!(
        deepgemmLtHeuristicsCacheGetCapacity(&mut before),
        DEEPGEMM_STATUS_SUCCESS
    );
    if std::env::var_os("DEEPGEMM_HEURISTICS_CACHE_CAPACITY").is_none() {
        assert_eq!(before, deepgemm::plan::cache::CAPACITY);
    }
    for c in [0usize, 1, 17, 1 << 20, before] {
        assert_eq!(
            deepgemmLtHeuristicsCacheSetCapacity(c),
            DEEPGEMM_STATUS_SUCCESS
        );
        let mut got = usize::MAX;
        assert_eq!(
            deepgemmLtHeuristicsCacheGetCapacity(&mut got),
            DEEPGEMM_STATUS_SUCCESS
        );
        assert_eq!(got, c);
    }
    assert_eq!(
        deepgemmLtHeuristicsCacheGetCapacity(std::ptr::null_mut()),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
}
