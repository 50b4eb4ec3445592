//! deepgemm's C API (`deepgemm::ffi`) as an `LtApi` table, so the checks and the bench
//! drive deepgemm through exactly the calls a C program makes. Each entry is a thin
//! `extern "C"` shim that only converts the table's untyped handles to the API's typed
//! ones (the same pointers) and the status enum to its integer value.

#![allow(dead_code)]

use std::ffi::c_void;

use deepgemm::ffi::*;

use super::lt::{Algo, Handle, HeuristicResult, LtApi, Status};

unsafe extern "C" fn create(h: *mut Handle) -> Status {
    deepgemmLtCreate(h as *mut deepgemmLtHandle_t) as Status
}
unsafe extern "C" fn destroy(h: Handle) -> Status {
    deepgemmLtDestroy(h as deepgemmLtHandle_t) as Status
}
unsafe extern "C" fn desc_create(h: *mut Handle, compute: i32, scale: i32) -> Status {
    deepgemmLtMatmulDescCreate(h as *mut deepgemmLtMatmulDesc_t, compute, scale) as Status
}
unsafe extern "C" fn desc_destroy(h: Handle) -> Status {
    deepgemmLtMatmulDescDestroy(h as deepgemmLtMatmulDesc_t) as Status
}
unsafe extern "C" fn desc_set(h: Handle, attr: i32, buf: *const c_void, size: usize) -> Status {
    deepgemmLtMatmulDescSetAttribute(h as deepgemmLtMatmulDesc_t, attr, buf, size) as Status
}
unsafe extern "C" fn layout_create(
    h: *mut Handle,
    t: i32,
    rows: u64,
    cols: u64,
    ld: i64,
) -> Status {
    deepgemmLtMatrixLayoutCreate(h as *mut deepgemmLtMatrixLayout_t, t, rows, cols, ld) as Status
}
unsafe extern "C" fn layout_destroy(h: Handle) -> Status {
    deepgemmLtMatrixLayoutDestroy(h as deepgemmLtMatrixLayout_t) as Status
}
unsafe extern "C" fn layout_set(h: Handle, attr: i32, buf: *const c_void, size: usize) -> Status {
    deepgemmLtMatrixLayoutSetAttribute(h as deepgemmLtMatrixLayout_t, attr, buf, size) as Status
}
unsafe extern "C" fn pref_create(h: *mut Handle) -> Status {
    deepgemmLtMatmulPreferenceCreate(h as *mut deepgemmLtMatmulPreference_t) as Status
}
unsafe extern "C" fn pref_destroy(h: Handle) -> Status {
    deepgemmLtMatmulPreferenceDestroy(h as deepgemmLtMatmulPreference_t) as Status
}
unsafe extern "C" fn pref_set(h: Handle, attr: i32, buf: *const c_void, size: usize) -> Status {
    deepgemmLtMatmulPreferenceSetAttribute(h as deepgemmLtMatmulPreference_t, attr, buf, size)
        as Status
}
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn heuristic(
    h: Handle,
    desc: Handle,
    a: Handle,
    b: Handle,
    c: Handle,
    d: Handle,
    pref: Handle,
    requested: i32,
    results: *mut HeuristicResult,
    count: *mut i32,
) -> Status {
    // HeuristicResult has the C layout of deepgemmLtMatmulHeuristicResult_t (96 bytes,
    // same field order); `state` is read back as the status enum's int value.
    deepgemmLtMatmulAlgoGetHeuristic(
        h as deepgemmLtHandle_t,
        desc as deepgemmLtMatmulDesc_t,
        a as deepgemmLtMatrixLayout_t,
        b as deepgemmLtMatrixLayout_t,
        c as deepgemmLtMatrixLayout_t,
        d as deepgemmLtMatrixLayout_t,
        pref as deepgemmLtMatmulPreference_t,
        requested,
        results as *mut deepgemmLtMatmulHeuristicResult_t,
        count,
    ) as Status
}
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn matmul(
    h: Handle,
    desc: Handle,
    alpha: *const c_void,
    a: *const c_void,
    adesc: Handle,
    b: *const c_void,
    bdesc: Handle,
    beta: *const c_void,
    c: *const c_void,
    cdesc: Handle,
    d: *mut c_void,
    ddesc: Handle,
    algo: *const Algo,
    workspace: *mut c_void,
    workspace_size: usize,
    stream: *mut c_void,
) -> Status {
    deepgemmLtMatmul(
        h as deepgemmLtHandle_t,
        desc as deepgemmLtMatmulDesc_t,
        alpha,
        a,
        adesc as deepgemmLtMatrixLayout_t,
        b,
        bdesc as deepgemmLtMatrixLayout_t,
        beta,
        c,
        cdesc as deepgemmLtMatrixLayout_t,
        d,
        ddesc as deepgemmLtMatrixLayout_t,
        algo as *const deepgemmLtMatmulAlgo_t,
        workspace,
        workspace_size,
        stream as deepgemmStream_t,
    ) as Status
}

const _: () = assert!(
    std::mem::size_of::<deepgemmLtMatmulHeuristicResult_t>()
        == std::mem::size_of::<HeuristicResult>()
);
const _: () = assert!(std::mem::size_of::<deepgemmLtMatmulAlgo_t>() == std::mem::size_of::<Algo>());

/// The table over deepgemm's exports.
pub fn table() -> LtApi {
    LtApi {
        name: "deepgemm",
        create,
        destroy,
        desc_create,
        desc_destroy,
        desc_set,
        layout_create,
        layout_destroy,
        layout_set,
        pref_create,
        pref_destroy,
        pref_set,
        heuristic,
        matmul,
        dl_handle: std::ptr::null_mut(),
        file: "linked".into(),
    }
}
