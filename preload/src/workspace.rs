//! The workspace each cuBLAS handle was given (`cublasSetWorkspace_v2`, which PyTorch calls
//! before each GEMM with the handle's stream's buffer), so that a classic GEMM substituted on
//! that handle may use it as cuBLAS would: deepgemm's Stream-K and split-K plans need one
//! (a decode GEMM's best plan, 16x4096x4096 over 64 CTAs, takes 0.5 MB), and without it the
//! classic entry points ran only the plans that need none. `cublasDestroy_v2` forgets the
//! handle, so a later handle at the same address starts without one, as in cuBLAS, and so does
//! `cublasSetStream_v2` (cuBLAS resets the workspace there; PyTorch sets it again after).
//!
//! The map is read on each substituted classic call and written only when a handle's
//! workspace changes (a read first: PyTorch sets the same buffer again before every GEMM).

use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};

use crate::real::Handle;

type Map = HashMap<usize, (usize, usize)>;

fn map() -> &'static RwLock<Map> {
    static MAP: OnceLock<RwLock<Map>> = OnceLock::new();
    MAP.get_or_init(|| RwLock::new(HashMap::new()))
}

/// Records what the real cublasSetWorkspace_v2 accepted for `handle`: NULL or 0 bytes gives
/// the handle its default back (deepgemm then gets none).
pub fn set(handle: Handle, workspace: *mut std::ffi::c_void, size: usize) {
    let key = handle as usize;
    let value = (workspace as usize, size);
    let none = workspace.is_null() || size == 0;
    // A poisoned lock only means a panic elsewhere while holding it; the map is still whole.
    let current = map()
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .get(&key)
        .copied();
    if (none && current.is_none()) || current == Some(value) {
        return;
    }
    let mut m = map().write().unwrap_or_else(|e| e.into_inner());
    if none {
        m.remove(&key);
    } else {
        m.insert(key, value);
    }
}

/// Forgets `handle` (cublasDestroy_v2).
pub fn forget(handle: Handle) {
    map()
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&(handle as usize));
}

/// The workspace `handle` was given and its size; (NULL, 0) when none.
pub fn get(handle: Handle) -> (*mut std::ffi::c_void, usize) {
    map()
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .get(&(handle as usize))
        .map_or((std::ptr::null_mut(), 0), |&(p, n)| (p as *mut _, n))
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
        // Destroying a handle forgets it and no other.
        forget(other);
        assert_eq!(get(other), (std::ptr::null_mut(), 0));
        set(h, 0x30_0000 as *mut _, 8 << 20);
        forget(other);
        assert_eq!(get(h), (0x30_0000 as *mut _, 8 << 20));
        forget(h);
    }
}
