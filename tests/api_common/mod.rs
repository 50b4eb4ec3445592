//! Helpers shared by the tests/api_*.rs binaries: typed Set/Get through the real exports.
#![allow(dead_code)]

use std::ffi::c_void;
use std::mem::size_of;

pub use deepgemm::ffi::deepgemmStatus_t::*;
pub use deepgemm::ffi::*;

pub fn desc(compute: i32, scale: i32) -> deepgemmLtMatmulDesc_t {
    let mut d = std::ptr::null_mut();
    assert_eq!(
        deepgemmLtMatmulDescCreate(&mut d, compute, scale),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert!(!d.is_null());
    d
}

pub fn layout(ty: i32, rows: u64, cols: u64, ld: i64) -> deepgemmLtMatrixLayout_t {
    let mut l = std::ptr::null_mut();
    assert_eq!(
        deepgemmLtMatrixLayoutCreate(&mut l, ty, rows, cols, ld),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert!(!l.is_null());
    l
}

pub fn pref() -> deepgemmLtMatmulPreference_t {
    let mut p = std::ptr::null_mut();
    assert_eq!(
        deepgemmLtMatmulPreferenceCreate(&mut p),
        DEEPGEMM_STATUS_SUCCESS
    );
    p
}

/// Which object an attribute belongs to.
#[derive(Clone, Copy, Debug)]
pub enum Obj {
    Desc(deepgemmLtMatmulDesc_t),
    Layout(deepgemmLtMatrixLayout_t),
    Pref(deepgemmLtMatmulPreference_t),
}

impl Obj {
    pub fn set_raw(self, attr: i32, buf: *const c_void, size: usize) -> deepgemmStatus_t {
        match self {
            Obj::Desc(d) => deepgemmLtMatmulDescSetAttribute(d, attr, buf, size),
            Obj::Layout(l) => deepgemmLtMatrixLayoutSetAttribute(l, attr, buf, size),
            Obj::Pref(p) => deepgemmLtMatmulPreferenceSetAttribute(p, attr, buf, size),
        }
    }

    pub fn get_raw(
        self,
        attr: i32,
        buf: *mut c_void,
        size: usize,
        written: *mut usize,
    ) -> deepgemmStatus_t {
        match self {
            Obj::Desc(d) => deepgemmLtMatmulDescGetAttribute(d, attr, buf, size, written),
            Obj::Layout(l) => deepgemmLtMatrixLayoutGetAttribute(l, attr, buf, size, written),
            Obj::Pref(p) => deepgemmLtMatmulPreferenceGetAttribute(p, attr, buf, size, written),
        }
    }

    pub fn set<T: Copy>(self, attr: i32, v: T) -> deepgemmStatus_t {
        self.set_raw(attr, (&v as *const T).cast(), size_of::<T>())
    }

    /// Reads a T; panics unless SUCCESS with size_of::<T>() bytes written.
    pub fn get<T: Copy + Default>(self, attr: i32) -> T {
        let mut v = T::default();
        let mut written = usize::MAX;
        let st = self.get_raw(
            attr,
            (&mut v as *mut T).cast(),
            size_of::<T>(),
            &mut written,
        );
        assert_eq!(st, DEEPGEMM_STATUS_SUCCESS, "get attribute {attr}");
        assert_eq!(
            written,
            size_of::<T>(),
            "bytes written for attribute {attr}"
        );
        v
    }

    pub fn destroy(self) {
        let st = match self {
            Obj::Desc(d) => deepgemmLtMatmulDescDestroy(d),
            Obj::Layout(l) => deepgemmLtMatrixLayoutDestroy(l),
            Obj::Pref(p) => deepgemmLtMatmulPreferenceDestroy(p),
        };
        assert_eq!(st, DEEPGEMM_STATUS_SUCCESS);
    }
}
