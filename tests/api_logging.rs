//! The log: levels, file output and the line format. One test in its own binary, because
//! the log's level and sink are process-wide.

mod api_common;
use api_common::*;
use std::ffi::CString;

#[test]
fn rejected_calls_are_logged_with_function_and_reason() {
    let dir = std::env::temp_dir().join(format!("deepgemm-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("log.txt");
    let _ = std::fs::remove_file(&path);
    let cpath = CString::new(path.to_str().unwrap()).unwrap();
    assert_eq!(
        deepgemmLtLoggerOpenFile(cpath.as_ptr()),
        DEEPGEMM_STATUS_SUCCESS
    );

    // Level 0: nothing is written.
    assert_eq!(deepgemmLtLoggerSetLevel(0), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(
        deepgemmLtMatmulDescCreate(std::ptr::null_mut(), 68, 0),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap_or_default(), "");

    // Level 1: errors, one line per rejected call.
    assert_eq!(deepgemmLtLoggerSetLevel(1), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(
        deepgemmLtMatmulDescCreate(std::ptr::null_mut(), 68, 0),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    let mut l = std::ptr::null_mut();
    assert_eq!(
        deepgemmLtMatrixLayoutCreate(&mut l, 0, 2, 2, -3),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    let ok = layout(0, 2, 2, 2);
    assert_eq!(deepgemmLtMatrixLayoutDestroy(ok), DEEPGEMM_STATUS_SUCCESS);
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("[deepgemm]["), "{}", lines[0]);
    assert!(
        lines[0].contains(
            "][Error][deepgemmLtMatmulDescCreate] DEEPGEMM_STATUS_INVALID_VALUE: matmulDesc is NULL"
        ),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].contains("[Error][deepgemmLtMatrixLayoutCreate]")
            && lines[1].contains("leading dimension -3"),
        "{}",
        lines[1]
    );
    // The timestamp: [deepgemm][YYYY-MM-DDTHH:MM:SS.mmmZ]
    let ts = &lines[0]["[deepgemm][".len()..lines[0].find("][Error]").unwrap()];
    assert_eq!(ts.len(), 24, "{ts}");
    assert_eq!((&ts[4..5], &ts[10..11], &ts[23..]), ("-", "T", "Z"));

    // Level 5: every call is logged by name.
    assert_eq!(deepgemmLtLoggerSetLevel(5), DEEPGEMM_STATUS_SUCCESS);
    let ok = layout(0, 2, 2, 2);
    assert_eq!(deepgemmLtMatrixLayoutDestroy(ok), DEEPGEMM_STATUS_SUCCESS);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("[Api][deepgemmLtMatrixLayoutCreate] called"),
        "{text}"
    );
    assert!(
        text.contains("[Api][deepgemmLtMatrixLayoutDestroy] called"),
        "{text}"
    );

    // Level 2: a matmul's trace names the plan its algo decodes to (a recording handle: no
    // GPU), or says that deepgemm chooses.
    assert_eq!(deepgemmLtLoggerSetLevel(2), DEEPGEMM_STATUS_SUCCESS);
    traced_matmuls();
    let text = std::fs::read_to_string(&path).unwrap();
    let traces: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("[Trace][deepgemmLtMatmul] m=64 n=64 k=64"))
        .collect();
    assert_eq!(traces.len(), 2, "{text}");
    assert!(traces[0].contains(" plan=dg_"), "{}", traces[0]);
    assert!(traces[1].ends_with(" plan=heuristic"), "{}", traces[1]);

    // An unopenable file is rejected and logging continues to the old sink.
    let bad = CString::new(dir.join("no/such/dir/log.txt").to_str().unwrap()).unwrap();
    assert_eq!(
        deepgemmLtLoggerOpenFile(bad.as_ptr()),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(deepgemmLtLoggerSetLevel(0), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(
        deepgemmLtLoggerOpenFile(std::ptr::null()),
        DEEPGEMM_STATUS_SUCCESS
    );

    masks_callbacks_c_streams_and_force_disable(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The lines the callback received: (level, function, message).
static RECEIVED: std::sync::Mutex<Vec<(i32, String, String)>> = std::sync::Mutex::new(Vec::new());

unsafe extern "C" fn record(
    level: i32,
    func: *const std::ffi::c_char,
    msg: *const std::ffi::c_char,
) {
    // SAFETY: the library passes two NUL-terminated strings valid during the call.
    let s = |p| {
        unsafe { std::ffi::CStr::from_ptr(p) }
            .to_string_lossy()
            .into_owned()
    };
    RECEIVED.lock().unwrap().push((level, s(func), s(msg)));
}

/// `record`, then a call into the library from inside the callback.
unsafe extern "C" fn record_and_reenter(
    level: i32,
    func: *const std::ffi::c_char,
    msg: *const std::ffi::c_char,
) {
    // SAFETY: as `record`.
    unsafe { record(level, func, msg) };
    let mut v = 0;
    assert_eq!(
        deepgemmGetVersion(std::ptr::null_mut(), &mut v),
        DEEPGEMM_STATUS_SUCCESS
    );
}

fn received() -> Vec<(i32, String, String)> {
    std::mem::take(&mut *RECEIVED.lock().unwrap())
}

/// One rejected call (an Error line) and one accepted call (an Api line).
fn error_and_api_calls() {
    assert_eq!(
        deepgemmLtMatmulDescCreate(std::ptr::null_mut(), 68, 0),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    Obj::Layout(layout(0, 2, 2, 2)).destroy();
}

/// deepgemmLtLoggerSetMask, SetCallback, SetFile and ForceDisable (the last: it is for good).
fn masks_callbacks_c_streams_and_force_disable(dir: &std::path::Path) {
    // The callback takes every line while set; the mask picks levels one by one.
    assert_eq!(
        deepgemmLtLoggerSetCallback(Some(record)),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(deepgemmLtLoggerSetMask(16), DEEPGEMM_STATUS_SUCCESS); // Api only
    error_and_api_calls();
    let got = received();
    assert!(got.iter().all(|(l, _, _)| *l == 5), "{got:?}");
    assert!(
        got.iter()
            .any(|(_, f, m)| f == "deepgemmLtMatrixLayoutCreate" && m == "called"),
        "{got:?}"
    );
    assert_eq!(deepgemmLtLoggerSetMask(1), DEEPGEMM_STATUS_SUCCESS); // Error only
    received(); // SetMask's own Api line, logged while the mask was still 16
    error_and_api_calls();
    let got = received();
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(
        (got[0].0, got[0].1.as_str()),
        (1, "deepgemmLtMatmulDescCreate")
    );
    assert!(got[0].2.contains("matmulDesc is NULL"), "{got:?}");
    // Masks outside 0..=31 are refused (and logged, to the callback) and change nothing.
    for bad in [-1, 32, 64] {
        assert_eq!(deepgemmLtLoggerSetMask(bad), DEEPGEMM_STATUS_INVALID_VALUE);
    }
    let got = received();
    assert_eq!(got.len(), 3, "{got:?}");
    assert!(
        got.iter()
            .all(|(l, f, _)| *l == 1 && f == "deepgemmLtLoggerSetMask")
    );

    // A callback that calls the library: what that inner call logs goes to the sink (here
    // a file), not back into the callback (which would recurse without end).
    let inner = dir.join("inner.txt");
    let cinner = CString::new(inner.to_str().unwrap()).unwrap();
    assert_eq!(
        deepgemmLtLoggerOpenFile(cinner.as_ptr()),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        deepgemmLtLoggerSetCallback(Some(record_and_reenter)),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(deepgemmLtLoggerSetMask(16), DEEPGEMM_STATUS_SUCCESS);
    received();
    let mut v = 0;
    assert_eq!(
        deepgemmGetVersion(std::ptr::null_mut(), &mut v),
        DEEPGEMM_STATUS_SUCCESS
    );
    let got = received();
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].1, "deepgemmGetVersion");
    let text = std::fs::read_to_string(&inner).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.contains("[Api][deepgemmGetVersion] called"), "{text}");
    assert_eq!(deepgemmLtLoggerSetMask(1), DEEPGEMM_STATUS_SUCCESS);
    received();

    // NULL callback: back to the sink, here a C stream of the caller's.
    assert_eq!(deepgemmLtLoggerSetCallback(None), DEEPGEMM_STATUS_SUCCESS);
    let path = dir.join("cfile.txt");
    let cpath = CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a plain fopen / fclose pair of the C library around the library's writes.
    let file = unsafe { libc::fopen(cpath.as_ptr(), c"w".as_ptr()) };
    assert!(!file.is_null());
    assert_eq!(deepgemmLtLoggerSetFile(file), DEEPGEMM_STATUS_SUCCESS);
    error_and_api_calls();
    assert_eq!(
        deepgemmLtLoggerSetFile(std::ptr::null_mut()),
        DEEPGEMM_STATUS_SUCCESS
    );
    // SAFETY: the stream opened above; the library no longer holds it.
    assert_eq!(unsafe { libc::fclose(file) }, 0);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.contains("[Error][deepgemmLtMatmulDescCreate]"),
        "{text}"
    );
    assert!(received().is_empty());

    // ForceDisable: nothing more, whatever is asked later (which still succeeds).
    assert_eq!(
        deepgemmLtLoggerSetCallback(Some(record)),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(deepgemmLtLoggerForceDisable(), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(deepgemmLtLoggerSetMask(31), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(deepgemmLtLoggerSetLevel(5), DEEPGEMM_STATUS_SUCCESS);
    error_and_api_calls();
    assert!(received().is_empty());
}

/// A 64^3 bf16 TN matmul on a recording handle, with the heuristic's algo, then with NULL.
fn traced_matmuls() {
    let h = deepgemm::ffi::testing::recording_lt_handle(deepgemm::plan::DeviceSpec::H200);
    let d = desc(DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F);
    assert_eq!(
        Obj::Desc(d).set(DEEPGEMMLT_MATMUL_DESC_TRANSA, DEEPGEMM_OP_T),
        DEEPGEMM_STATUS_SUCCESS
    );
    let l = layout(DEEPGEMM_R_16BF, 64, 64, 64);
    let pr = pref();
    let mut res = [deepgemmLtMatmulHeuristicResult_t {
        algo: deepgemmLtMatmulAlgo_t::default(),
        workspaceSize: 0,
        state: DEEPGEMM_STATUS_NOT_SUPPORTED,
        wavesCount: 0.0,
        reserved: [0; 4],
    }];
    let mut count = 0;
    assert_eq!(
        deepgemmLtMatmulAlgoGetHeuristic(h, d, l, l, l, l, pr, 1, res.as_mut_ptr(), &mut count),
        DEEPGEMM_STATUS_SUCCESS
    );
    let one = 1.0f32;
    let o = (&one as *const f32).cast::<std::ffi::c_void>();
    let x = 0x10000 as *const std::ffi::c_void;
    for algo in [
        &res[0].algo as *const deepgemmLtMatmulAlgo_t,
        std::ptr::null(),
    ] {
        assert_eq!(
            deepgemmLtMatmul(
                h,
                d,
                o,
                x,
                l,
                x,
                l,
                o,
                x,
                l,
                x as *mut _,
                l,
                algo,
                std::ptr::null_mut(),
                0,
                std::ptr::null_mut(),
            ),
            DEEPGEMM_STATUS_SUCCESS
        );
    }
    Obj::Pref(pr).destroy();
    Obj::Layout(l).destroy();
    Obj::Desc(d).destroy();
    assert_eq!(deepgemmLtDestroy(h), DEEPGEMM_STATUS_SUCCESS);
}
