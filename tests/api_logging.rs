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
    let _ = std::fs::remove_dir_all(&dir);
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
