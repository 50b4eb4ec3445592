//! Test-only constructors: handles that need no GPU and record, instead of launching,
//! every call that passes validation. Handles otherwise only come from
//! deepgemmLtCreate/deepgemmCreate, which need a driver; these let CPU tests drive every
//! validation path of deepgemmLtMatmul, the heuristic and GemmEx through the real exports.
//! Not part of the C API (no symbol is exported).
#![doc(hidden)]

use std::ffi::c_void;

use super::boundary::{to_boxed_ptr, try_ref};
use super::types::*;
use crate::api::{self, RecordedBuffers, RecordedCall};
use crate::plan::DeviceSpec;

/// A deepgemmLtHandle_t planning for `dev`; free it with deepgemmLtDestroy.
pub fn recording_lt_handle(dev: DeviceSpec) -> deepgemmLtHandle_t {
    to_boxed_ptr::<deepgemmLtContext>(api::LtHandle::recording(dev))
}

/// A deepgemmHandle_t planning for `dev`; free it with deepgemmDestroy.
pub fn recording_handle(dev: DeviceSpec) -> deepgemmHandle_t {
    to_boxed_ptr::<deepgemmContext>(api::BlasHandle::recording(dev))
}

/// A deepgemmLtHandle_t planning for `dev`, bound to device `device` as if created with
/// that device current; free it with deepgemmLtDestroy.
pub fn recording_lt_handle_on(dev: DeviceSpec, device: i32) -> deepgemmLtHandle_t {
    to_boxed_ptr::<deepgemmLtContext>(api::LtHandle::recording_on(dev, device))
}

/// A deepgemmHandle_t planning for `dev`, bound to device `device`; free it with
/// deepgemmDestroy.
pub fn recording_handle_on(dev: DeviceSpec, device: i32) -> deepgemmHandle_t {
    to_boxed_ptr::<deepgemmContext>(api::BlasHandle::recording_on(dev, device))
}

/// For a recording Lt handle: `stream` runs on device `device` (streams not placed run on
/// the handle's device).
pub fn lt_place_stream(h: deepgemmLtHandle_t, stream: *mut c_void, device: i32) {
    if let Ok(h) = try_ref(h, "handle") {
        h.backend.place_stream(stream, device);
    }
}

/// For a recording handle: `stream` runs on device `device`.
pub fn place_stream(h: deepgemmHandle_t, stream: *mut c_void, device: i32) {
    if let Ok(h) = try_ref(h, "handle") {
        h.backend.place_stream(stream, device);
    }
}

/// The calls a recording Lt handle accepted, oldest first.
pub fn lt_recorded(h: deepgemmLtHandle_t) -> Vec<RecordedCall> {
    try_ref(h, "handle")
        .map(|h| h.backend.recorded())
        .unwrap_or_default()
}

/// The calls a recording handle accepted, oldest first.
pub fn recorded(h: deepgemmHandle_t) -> Vec<RecordedCall> {
    try_ref(h, "handle")
        .map(|h| h.backend.recorded())
        .unwrap_or_default()
}

/// For a recording handle: `stream` captures a graph from now on.
pub fn place_capture(h: deepgemmHandle_t, stream: *mut c_void) {
    if let Ok(h) = try_ref(h, "handle") {
        h.backend.place_capture(stream);
    }
}

/// The default workspaces a recording handle allocated and freed, oldest first.
pub fn recorded_buffers(h: deepgemmHandle_t) -> RecordedBuffers {
    buffer_log(h).lock().clone()
}

/// A recording handle's log of allocated and freed default workspaces, readable after
/// deepgemmDestroy (whose frees it shows).
pub fn buffer_log(h: deepgemmHandle_t) -> std::sync::Arc<parking_lot::Mutex<RecordedBuffers>> {
    try_ref(h, "handle")
        .map(|h| h.backend.buffer_log())
        .unwrap_or_default()
}

/// For a recording handle: whether its later calls with a workspace take a moment each and
/// count those that overlap on one buffer (`RecordedBuffers::overlaps`).
pub fn track_overlaps(h: deepgemmHandle_t, on: bool) {
    if let Ok(h) = try_ref(h, "handle") {
        h.backend.track_overlaps(on);
    }
}

/// For a recording handle: whether its later default-workspace allocations fail.
pub fn fail_allocations(h: deepgemmHandle_t, fail: bool) {
    if let Ok(h) = try_ref(h, "handle") {
        h.backend.fail_allocations(fail);
    }
}
