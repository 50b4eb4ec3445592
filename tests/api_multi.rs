//! Handles bound to a device (issue 7), through the C exports on recording handles (no
//! GPU): a call whose stream runs on another device than the handle's is INVALID_VALUE,
//! logged with both devices, and reaches nothing; the right stream still works afterwards.
//! `gpu_multi` checks the same on real devices.

mod api_common;
use api_common::*;
use std::ffi::{CString, c_void};
use std::ptr::null;

use deepgemm::ffi::testing;
use deepgemm::plan::DeviceSpec;

const A: usize = 0x10000;
const B: usize = 0x20000;
const C: usize = 0x30000;
/// Streams as the tests place them: S0 on device 0, S1 on device 1.
const S0: usize = 0x5000;
const S1: usize = 0x6000;

/// D(5x3) = A(5x7) B(7x3), bf16, column-major, on a recording Lt handle of `device`.
struct Lt {
    h: deepgemmLtHandle_t,
    desc: deepgemmLtMatmulDesc_t,
    a: deepgemmLtMatrixLayout_t,
    b: deepgemmLtMatrixLayout_t,
    c: deepgemmLtMatrixLayout_t,
}

impl Lt {
    fn on(device: i32) -> Lt {
        let h = testing::recording_lt_handle_on(DeviceSpec::H200, device);
        testing::lt_place_stream(h, S0 as *mut c_void, 0);
        testing::lt_place_stream(h, S1 as *mut c_void, 1);
        Lt {
            h,
            desc: desc(DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F),
            a: layout(DEEPGEMM_R_16BF, 5, 7, 5),
            b: layout(DEEPGEMM_R_16BF, 7, 3, 7),
            c: layout(DEEPGEMM_R_16BF, 5, 3, 5),
        }
    }

    fn matmul(&self, algo: Option<&deepgemmLtMatmulAlgo_t>, stream: usize) -> deepgemmStatus_t {
        let (alpha, beta) = (1.0f32, 0.0f32);
        deepgemmLtMatmul(
            self.h,
            self.desc,
            (&alpha as *const f32).cast(),
            A as *const c_void,
            self.a,
            B as *const c_void,
            self.b,
            (&beta as *const f32).cast(),
            C as *const c_void,
            self.c,
            C as *mut c_void,
            self.c,
            algo.map_or(null(), |a| a as *const _),
            std::ptr::null_mut(),
            0,
            stream as deepgemmStream_t,
        )
    }

    /// The heuristic's first algo (it has no stream: it plans for the handle's device).
    fn algo(&self) -> deepgemmLtMatmulAlgo_t {
        let pref = pref();
        let mut res = [deepgemmLtMatmulHeuristicResult_t {
            algo: deepgemmLtMatmulAlgo_t { data: [0; 8] },
            workspaceSize: 0,
            state: DEEPGEMM_STATUS_SUCCESS,
            wavesCount: 0.0,
            reserved: [0; 4],
        }];
        let mut n = 0;
        let st = deepgemmLtMatmulAlgoGetHeuristic(
            self.h,
            self.desc,
            self.a,
            self.b,
            self.c,
            self.c,
            pref,
            1,
            res.as_mut_ptr(),
            &mut n,
        );
        assert_eq!((st, n), (DEEPGEMM_STATUS_SUCCESS, 1));
        assert_eq!(
            deepgemmLtMatmulPreferenceDestroy(pref),
            DEEPGEMM_STATUS_SUCCESS
        );
        res[0].algo
    }

    fn streams(&self) -> Vec<usize> {
        testing::lt_recorded(self.h)
            .iter()
            .map(|c| c.stream)
            .collect()
    }
}

impl Drop for Lt {
    fn drop(&mut self) {
        deepgemmLtMatrixLayoutDestroy(self.a);
        deepgemmLtMatrixLayoutDestroy(self.b);
        deepgemmLtMatrixLayoutDestroy(self.c);
        deepgemmLtMatmulDescDestroy(self.desc);
        assert_eq!(deepgemmLtDestroy(self.h), DEEPGEMM_STATUS_SUCCESS);
    }
}

#[test]
fn lt_matmul_on_a_stream_of_another_device_is_invalid_value() {
    let on0 = Lt::on(0);
    let algo = on0.algo();
    assert_eq!(on0.matmul(None, S1), DEEPGEMM_STATUS_INVALID_VALUE);
    assert_eq!(on0.matmul(Some(&algo), S1), DEEPGEMM_STATUS_INVALID_VALUE);
    assert!(on0.streams().is_empty(), "a refused call reaches nothing");
    // The handle is not poisoned: its own device's streams work, before and after.
    assert_eq!(on0.matmul(None, S0), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(on0.matmul(Some(&algo), S0), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(on0.matmul(None, S1), DEEPGEMM_STATUS_INVALID_VALUE);
    assert_eq!(on0.streams(), [S0, S0]);

    // The same from the other side: a handle of device 1.
    let on1 = Lt::on(1);
    assert_eq!(on1.matmul(None, S0), DEEPGEMM_STATUS_INVALID_VALUE);
    assert_eq!(on1.matmul(None, S1), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(on1.streams(), [S1]);
}

#[test]
fn gemm_ex_on_a_stream_of_another_device_is_invalid_value() {
    let h = testing::recording_handle_on(DeviceSpec::H200, 1);
    testing::place_stream(h, S0 as *mut c_void, 0);
    testing::place_stream(h, S1 as *mut c_void, 1);
    let (alpha, beta) = (1.0f32, 0.0f32);
    let gemm = |batched: bool| {
        let (al, be) = ((&alpha as *const f32).cast(), (&beta as *const f32).cast());
        let (a, b, c) = (A as *const c_void, B as *const c_void, C as *mut c_void);
        let (ab, cd, ct) = (DEEPGEMM_R_16BF, DEEPGEMM_R_32F, DEEPGEMM_COMPUTE_32F);
        let (n, t, dflt) = (DEEPGEMM_OP_N, DEEPGEMM_OP_T, DEEPGEMM_GEMM_DEFAULT);
        if batched {
            deepgemmGemmStridedBatchedEx(
                h, t, n, 4, 3, 5, al, a, ab, 5, 20, b, ab, 5, 15, be, c, cd, 4, 12, 2, ct, dflt,
            )
        } else {
            deepgemmGemmEx(
                h, t, n, 4, 3, 5, al, a, ab, 5, b, ab, 5, be, c, cd, 4, ct, dflt,
            )
        }
    };
    // cuBLAS does not check the stream when it is set, only when it is used.
    assert_eq!(
        deepgemmSetStream(h, S0 as deepgemmStream_t),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(gemm(false), DEEPGEMM_STATUS_INVALID_VALUE);
    assert_eq!(gemm(true), DEEPGEMM_STATUS_INVALID_VALUE);
    assert!(testing::recorded(h).is_empty());
    assert_eq!(
        deepgemmSetStream(h, S1 as deepgemmStream_t),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(gemm(false), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(gemm(true), DEEPGEMM_STATUS_SUCCESS);
    let calls = testing::recorded(h);
    assert_eq!(calls.len(), 2);
    assert!(calls.iter().all(|c| c.stream == S1));
    assert_eq!(calls[1].problem.batch, 2);
    assert_eq!(deepgemmDestroy(h), DEEPGEMM_STATUS_SUCCESS);
}

/// The log line of a refused call names the function, the status and both devices. (Other
/// tests of this binary may log too while the level is 1: the line is searched for.)
#[test]
fn the_refusal_is_logged_with_both_devices() {
    let dir = std::env::temp_dir().join(format!("deepgemm-multi-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("log.txt");
    let cpath = CString::new(path.to_str().unwrap()).unwrap();
    assert_eq!(
        deepgemmLtLoggerOpenFile(cpath.as_ptr()),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(deepgemmLtLoggerSetLevel(1), DEEPGEMM_STATUS_SUCCESS);
    let on0 = Lt::on(0);
    assert_eq!(on0.matmul(None, S1), DEEPGEMM_STATUS_INVALID_VALUE);
    assert_eq!(deepgemmLtLoggerSetLevel(0), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(
        deepgemmLtLoggerOpenFile(std::ptr::null()),
        DEEPGEMM_STATUS_SUCCESS
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let line = text
        .lines()
        .find(|l| l.contains("[Error][deepgemmLtMatmul]"))
        .unwrap_or_else(|| panic!("no deepgemmLtMatmul error logged:\n{text}"));
    assert!(
        line.contains("DEEPGEMM_STATUS_INVALID_VALUE")
            && line.contains("handle belongs to device 0")
            && line.contains("stream runs on device 1"),
        "{line}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
