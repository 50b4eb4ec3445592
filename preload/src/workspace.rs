//! The workspace each cuBLAS handle was given (`cublasSetWorkspace_v2`, which PyTorch calls
//! before each GEMM with the handle's stream's buffer), so that a classic GEMM substituted on
//! that handle may use it as cuBLAS would: deepgemm's Stream-K and split-K plans need one
//! (a decode GEMM's best plan, 16x4096x4096 over 64 CTAs, takes 0.5 MB), and without it the
//! classic entry points ran only the plans that need none. `cublasDestroy_v2` forgets the
//! handle, so a later handle at the same address starts without one, as in cuBLAS, and so does
//! `cublasSetStream_v2` (cuBLAS resets the workspace there; PyTorch sets it again after).
//!
//! PyTorch calls cublasSetStream_v2 and cublasSetWorkspace_v2 before every GEMM, so both are
//! on the hot path of every call, substituted or forwarded: each handle has a slot of its own,
//! found under the map's read lock and changed under its own (uncontended) mutex; the map is
//! write-locked only when a handle first gets a workspace and when it is destroyed. (Before,
//! SetStream removed the entry and SetWorkspace inserted it again: two write locks of one
//! process-wide lock a GEMM, a review found.)

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, RwLock};

use crate::real::Handle;

/// A handle's workspace (address, bytes); (0, 0): none.
type Slot = Arc<Mutex<(usize, usize)>>;
type Map = HashMap<usize, Slot>;

fn map() -> &'static RwLock<Map> {
    static MAP: OnceLock<RwLock<Map>> = OnceLock::new();
    MAP.get_or_init(|| RwLock::new(HashMap::new()))
}

/// `handle`'s slot, if it has one. A poisoned lock only means a panic elsewhere while holding
/// it; the map (or slot) is still whole.
fn slot(handle: Handle) -> Option<Slot> {
    map()
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .get(&(handle as usize))
        .cloned()
}

fn store(slot: &Slot, value: (usize, usize)) {
    *slot.lock().unwrap_or_else(|e| e.into_inner()) = value;
}

/// Records what the real cublasSetWorkspace_v2 accepted for `handle`: NULL or 0 bytes gives
/// the handle its default back (deepgemm then gets none).
pub fn set(handle: Handle, workspace: *mut std::ffi::c_void, size: usize) {
    let none = workspace.is_null() || size == 0;
    let value = if none {
        (0, 0)
    } else {
        (workspace as usize, size)
    };
    if let Some(s) = slot(handle) {
        store(&s, value);
    } else if !none {
        let mut m = map().write().unwrap_or_else(|e| e.into_inner());
        store(m.entry(handle as usize).or_default(), value);
    }
}

/// The handle's workspace is back to cuBLAS's default (cublasSetStream_v2): none for deepgemm.
pub fn reset(handle: Handle) {
    if let Some(s) = slot(handle) {
        store(&s, (0, 0));
    }
}

/// Forgets `handle` (cublasDestroy_v2): a later handle at its address starts without one.
pub fn forget(handle: Handle) {
    map()
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&(handle as usize));
}

/// The workspace `handle` was given and its size; (NULL, 0) when none.
pub fn get(handle: Handle) -> (*mut std::ffi::c_void, usize) {
    let (p, n) = slot(handle).map_or((0, 0), |s| *s.lock().unwrap_or_else(|e| e.into_inner()));
    (p as *mut _, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_get_reset_and_forget() {
        let h = 0x1230 as Handle;
        let other = 0x4560 as Handle;
        assert_eq!(get(h), (std::ptr::null_mut(), 0));
        set(h, 0x10_0000 as *mut _, 32 << 20);
        set(other, 0x20_0000 as *mut _, 4 << 20);
        assert_eq!(get(h), (0x10_0000 as *mut _, 32 << 20));
        // The same buffer again (PyTorch, before every GEMM), then another one.
        set(h, 0x10_0000 as *mut _, 32 << 20);
        set(h, 0x30_0000 as *mut _, 8 << 20);
        assert_eq!(get(h), (0x30_0000 as *mut _, 8 << 20));
        // NULL or 0 bytes: back to the handle's default, of which deepgemm knows nothing.
        set(h, std::ptr::null_mut(), 8 << 20);
        assert_eq!(get(h), (std::ptr::null_mut(), 0));
        set(h, 0x30_0000 as *mut _, 0);
        assert_eq!(get(h), (std::ptr::null_mut(), 0));
        // SetStream resets it; the next SetWorkspace (PyTorch's, before each GEMM) gives it back.
        set(h, 0x30_0000 as *mut _, 8 << 20);
        reset(h);
        assert_eq!(get(h), (std::ptr::null_mut(), 0));
        reset(other);
        set(h, 0x30_0000 as *mut _, 8 << 20);
        assert_eq!(get(h), (0x30_0000 as *mut _, 8 << 20));
        // Destroying a handle forgets it and no other.
        forget(other);
        assert_eq!(get(other), (std::ptr::null_mut(), 0));
        set(h, 0x30_0000 as *mut _, 8 << 20);
        forget(other);
        assert_eq!(get(h), (0x30_0000 as *mut _, 8 << 20));
        forget(h);
    }
}
