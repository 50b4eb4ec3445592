//! The one place where C meets Rust: the panic boundary, the Error -> status mapping, and
//! every cast between an opaque C pointer and the Rust object behind it.
//!
//! Rules every export follows (rustls-ffi's): the body runs inside `ffi_boundary`, so a
//! panic becomes DEEPGEMM_STATUS_INTERNAL_ERROR and an `Error` its status, each logged with
//! the function name; out-pointers are checked first and written only on success;
//! Destroy(NULL) is a no-op.

use std::ffi::c_void;
use std::ops::Deref;
use std::panic::{AssertUnwindSafe, catch_unwind};

use super::types::*;
use crate::api;
use crate::api::attr::Tagged;
use crate::error::{Error, Result};
use crate::invalid;

/// Runs `f` for the export `func`: a panic is caught (INTERNAL_ERROR), an error is mapped
/// to its status, and both are logged at the Error level with the reason.
pub fn ffi_boundary<F>(func: &'static str, f: F) -> deepgemmStatus_t
where
    F: FnOnce() -> Result<()>,
{
    // The log lines too run where a panic is caught (the log writes to the caller's FILE or
    // callback): a panic there must not unwind into C either (a review).
    quietly(|| crate::log_api!(func, "called"));
    // AssertUnwindSafe: after a panic nothing of `f`'s state is used again; the objects it
    // may have touched are behind mutexes that parking_lot does not poison, and each holds
    // only plain values that are valid at every point.
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => deepgemmStatus_t::DEEPGEMM_STATUS_SUCCESS,
        Ok(Err(e)) => {
            let st = deepgemmStatus_t::from(&e);
            quietly(|| crate::log_error!(func, "{}: {}", st.name().to_string_lossy(), e));
            st
        }
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            quietly(|| crate::log_error!(func, "DEEPGEMM_STATUS_INTERNAL_ERROR: panic: {msg}"));
            // Dropping a panic payload can itself panic; leak it instead of risking an
            // unwind across the C boundary.
            std::mem::forget(payload);
            deepgemmStatus_t::DEEPGEMM_STATUS_INTERNAL_ERROR
        }
    }
}

/// Runs `log` (a log line), dropping a panic in it (its payload leaked, as below).
fn quietly(log: impl FnOnce()) {
    if let Err(payload) = catch_unwind(AssertUnwindSafe(log)) {
        std::mem::forget(payload);
    }
}

/// `ffi_boundary` for exports that return a value instead of a status: `fallback` on a
/// panic.
pub fn ffi_boundary_value<T, F>(func: &'static str, fallback: T, f: F) -> T
where
    F: FnOnce() -> T,
{
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(payload) => {
            quietly(|| crate::log_error!(func, "panic caught"));
            std::mem::forget(payload);
            fallback
        }
    }
}

/// Ties an opaque C type to the Rust object a pointer to it really points at.
pub trait Castable {
    type RustType;
    /// What the C API calls the object, for error messages.
    const WHAT: &'static str;
}

impl Castable for deepgemmLtContext {
    type RustType = api::LtHandle;
    const WHAT: &'static str = "handle";
}
impl Castable for deepgemmContext {
    type RustType = api::BlasHandle;
    const WHAT: &'static str = "handle";
}
impl Castable for deepgemmLtMatmulDescOpaque_t {
    type RustType = api::MatmulDesc;
    const WHAT: &'static str = "matmul descriptor";
}
impl Castable for deepgemmLtMatrixLayoutOpaque_t {
    type RustType = api::MatrixLayout;
    const WHAT: &'static str = "matrix layout";
}
impl Castable for deepgemmLtMatmulPreferenceOpaque_t {
    type RustType = api::MatmulPreference;
    const WHAT: &'static str = "preference";
}

// The Rust objects are exactly the C storage (api::attr::AttrCell), so an Init function can
// build one in the caller's storage.
const _: () = {
    use std::mem::{align_of, size_of};
    assert!(size_of::<deepgemmLtMatmulDescOpaque_t>() == size_of::<api::MatmulDesc>());
    assert!(size_of::<deepgemmLtMatrixLayoutOpaque_t>() == size_of::<api::MatrixLayout>());
    assert!(size_of::<deepgemmLtMatmulPreferenceOpaque_t>() == size_of::<api::MatmulPreference>());
    assert!(align_of::<deepgemmLtMatmulDescOpaque_t>() == align_of::<api::MatmulDesc>());
    assert!(align_of::<deepgemmLtMatrixLayoutOpaque_t>() == align_of::<api::MatrixLayout>());
    assert!(
        align_of::<deepgemmLtMatmulPreferenceOpaque_t>() == align_of::<api::MatmulPreference>()
    );
};

/// The three objects that live in storage a Create function allocates or an Init function
/// is given: each derefs to its storage block, whose first word is a tag
/// (`api::attr::TAG_CREATED` / `TAG_INITIALISED`).
pub trait Stored: Castable<RustType: Deref<Target: Tagged>> {}
impl<C: Castable<RustType: Deref<Target: Tagged>>> Stored for C {}

/// A stored object behind `p`: INVALID_VALUE for NULL or for storage that no Create or Init
/// made (or that Destroy freed: its tag is cleared first, which catches the common misuse).
pub fn try_stored<'a, C: Stored>(p: *const C, what: &str) -> Result<&'a C::RustType> {
    let o = try_ref(p, what)?;
    match o.tag() {
        api::attr::TAG_CREATED | api::attr::TAG_INITIALISED => Ok(o),
        _ => Err(invalid!(
            "{what} ({}) was not made by its Create or Init function, or was destroyed",
            C::WHAT
        )),
    }
}

/// Builds `v` in the caller's storage `p` of `size` bytes (an Init function): INVALID_VALUE
/// for NULL or storage off its 8-byte alignment, ALLOC_FAILED for a size under the C
/// struct's (what cuBLASLt's `*_internal` checks, and the status cublasLt.h documents). The
/// old contents are overwritten, not freed (cuBLASLt's Init'd objects own nothing).
pub fn init_stored<C: Stored>(p: *mut C, size: usize, v: C::RustType) -> Result<()> {
    check_out(p, C::WHAT)?;
    let need = std::mem::size_of::<C>();
    if size < need {
        return Err(Error::AllocFailed(format!(
            "{} storage of {size} bytes: it needs {need} (sizeof the header's struct)",
            C::WHAT
        )));
    }
    if (p as usize) % std::mem::align_of::<C>() != 0 {
        return Err(invalid!(
            "{} storage at {p:p} is not {}-byte aligned",
            C::WHAT,
            std::mem::align_of::<C>()
        ));
    }
    v.set_tag(api::attr::TAG_INITIALISED);
    // SAFETY: non-NULL, aligned and at least size_of::<C>() == size_of::<C::RustType>() bytes
    // (asserted above) the caller promises are writable; C::RustType is plain atomics (no
    // drop glue), so overwriting whatever was there leaks nothing.
    unsafe { p.cast::<C::RustType>().write(v) };
    Ok(())
}

/// Addresses of the stored objects Create made and Destroy has not yet freed, in shards
/// (Create and Destroy run per GEMM call in some engines, from many threads). Destroy frees
/// exactly these: a Created object that Init rebuilt in place is still freed (cuBLASLt's Init
/// works "in pre-allocated space", whoever allocated it; a review found it refused and
/// leaked), and a copy of a Created object's bytes elsewhere never is.
static CREATED: once_cell::sync::Lazy<[parking_lot::Mutex<std::collections::HashSet<usize>>; 16]> =
    once_cell::sync::Lazy::new(Default::default);

fn created_shard(p: usize) -> &'static parking_lot::Mutex<std::collections::HashSet<usize>> {
    // Blocks are at least 64 bytes apart: the bits above those tell neighbours apart.
    &CREATED[(p >> 6) % CREATED.len()]
}

/// Create for a stored object: `v` (built tagged as Created) on the heap, registered.
pub fn create_stored<C: Stored>(v: C::RustType) -> *mut C {
    let p = to_boxed_ptr::<C>(v);
    created_shard(p as usize).lock().insert(p as usize);
    p
}

/// Destroy for a stored object: frees one made by Create (clearing its tag first), also after
/// an Init rebuilt it in place; NULL is a no-op; one made by Init in the caller's storage owns
/// nothing and is INVALID_VALUE (cuBLASLt leaves it undefined), as is anything else.
pub fn destroy_stored<C: Stored>(p: *mut C) -> Result<()> {
    if p.is_null() {
        return Ok(());
    }
    if created_shard(p as usize).lock().remove(&(p as usize)) {
        // SAFETY: registered by `create_stored`, so a live box of C::RustType until now.
        unsafe { &*p.cast::<C::RustType>() }.set_tag(0);
        free_box(p);
        return Ok(());
    }
    let o = try_stored(p, C::WHAT)?;
    Err(if o.tag() == api::attr::TAG_INITIALISED {
        invalid!(
            "this {} was made by its Init function in the caller's storage: there is nothing \
             to destroy",
            C::WHAT
        )
    } else {
        invalid!(
            "this {} was not made by its Create function, or was destroyed",
            C::WHAT
        )
    })
}

/// Moves `v` to the heap; the C side owns the pointer until it calls the Destroy function.
pub fn to_boxed_ptr<C: Castable>(v: C::RustType) -> *mut C {
    Box::into_raw(Box::new(v)).cast()
}

/// The object behind a pointer made by `to_boxed_ptr`; INVALID_VALUE for NULL
/// (`what` names the argument).
pub fn try_ref<'a, C: Castable>(p: *const C, what: &str) -> Result<&'a C::RustType> {
    if p.is_null() {
        return Err(invalid!("{what} ({}) is NULL", C::WHAT));
    }
    if (p as usize) % std::mem::align_of::<C::RustType>() != 0 {
        // No Create or Init makes one (a reference to it would be undefined behaviour).
        return Err(invalid!("{what} ({}) at {p:p} is misaligned", C::WHAT));
    }
    // SAFETY: non-NULL pointers of type *C are only ever made by `to_boxed_ptr` (the C
    // contract: pass back what Create returned and not yet Destroyed), so this points at a
    // live C::RustType. Objects use interior mutability, so shared access suffices.
    Ok(unsafe { &*p.cast::<C::RustType>() })
}

/// A handle: cuBLAS/cuBLASLt report a NULL handle as NOT_INITIALIZED.
pub fn try_handle<'a, C: Castable>(p: *const C) -> Result<&'a C::RustType> {
    if p.is_null() {
        return Err(Error::NotInitialized("handle is NULL".into()));
    }
    try_ref(p, "handle")
}

/// Frees an object made by `to_boxed_ptr`; NULL is a no-op.
pub fn free_box<C: Castable>(p: *mut C) {
    if p.is_null() {
        return;
    }
    // SAFETY: as in `try_ref`; the C contract says this is the last use of `p`.
    drop(unsafe { Box::from_raw(p.cast::<C::RustType>()) });
}

/// INVALID_VALUE when an out-pointer is NULL (checked before any work is done).
pub fn check_out<T>(p: *mut T, what: &str) -> Result<()> {
    if p.is_null() {
        Err(invalid!("{what} is NULL"))
    } else {
        Ok(())
    }
}

/// Writes an output (after `check_out`, on success only).
pub fn write_out<T>(p: *mut T, v: T) -> Result<()> {
    check_out(p, "output")?;
    // SAFETY: non-NULL, and the caller promises it points at writable storage for a T;
    // `write_unaligned` because C callers are not bound to Rust's alignment for T.
    unsafe { p.write_unaligned(v) };
    Ok(())
}

/// The largest attribute value any Set*Attribute takes (pointers, 64-bit integers).
const MAX_ATTRIBUTE_BYTES: usize = 8;

/// The caller's attribute buffer as bytes. NULL, or a size no attribute has, is INVALID_VALUE:
/// the size is checked before the slice is made, so a wrong size cannot describe memory the
/// caller does not have (a review: a huge `sizeInBytes` made an invalid slice first).
pub fn input_bytes<'a>(buf: *const c_void, size: usize) -> Result<&'a [u8]> {
    if buf.is_null() {
        return Err(invalid!("buf is NULL"));
    }
    if size > MAX_ATTRIBUTE_BYTES {
        return Err(invalid!(
            "sizeInBytes {size}: no attribute is over {MAX_ATTRIBUTE_BYTES} bytes"
        ));
    }
    // SAFETY: the caller promises `buf` points at `size` readable bytes (cuBLASLt's
    // contract for Set*Attribute).
    Ok(unsafe { std::slice::from_raw_parts(buf.cast::<u8>(), size) })
}

/// Copies `bytes` into the caller's buffer of at least `bytes.len()` bytes.
pub fn output_bytes(buf: *mut c_void, bytes: &[u8]) -> Result<()> {
    check_out(buf, "buf")?;
    // SAFETY: non-NULL, and the caller promises `buf` has room for the attribute's size
    // (checked equal to `bytes.len()` by the caller of this fn).
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf.cast::<u8>(), bytes.len()) };
    Ok(())
}

/// Reads a host float (alpha/beta in pointer mode HOST). NULL is INVALID_VALUE.
pub fn read_host_f32(p: *const c_void, what: &str) -> Result<f32> {
    if p.is_null() {
        return Err(invalid!("{what} is NULL"));
    }
    // SAFETY: the caller promises a host float there (pointer mode HOST, scale type
    // R_32F, both checked before this is called).
    Ok(unsafe { p.cast::<f32>().read_unaligned() })
}

/// Reads the caller's algo, if any.
pub fn read_algo(p: *const deepgemmLtMatmulAlgo_t) -> Option<[u64; 8]> {
    if p.is_null() {
        return None;
    }
    // SAFETY: non-NULL, the caller promises a deepgemmLtMatmulAlgo_t there.
    Some(unsafe { p.read_unaligned() }.data)
}

/// Writes `results` into the caller's array (room for at least `results.len()`).
pub fn write_results(
    out: *mut deepgemmLtMatmulHeuristicResult_t,
    results: &[deepgemmLtMatmulHeuristicResult_t],
) -> Result<()> {
    check_out(out, "heuristicResultsArray")?;
    // SAFETY: the caller promises room for requestedAlgoCount results, and
    // results.len() <= requestedAlgoCount. Copied as bytes: C callers are not bound to Rust's
    // alignment (a typed copy to a misaligned array aborted a debug build: a review).
    unsafe {
        std::ptr::copy_nonoverlapping(
            results.as_ptr().cast::<u8>(),
            out.cast::<u8>(),
            std::mem::size_of_val(results),
        );
    }
    Ok(())
}

/// Generic Get*Attribute: `buf == NULL`-or-`size == 0` queries the size; otherwise `size`
/// must equal the attribute's size (cuBLASLt: "sizeInBytes doesn't match size of internal
/// storage" is INVALID_VALUE). `size_written`, when non-NULL, gets the bytes written (or
/// needed, when querying).
pub fn get_attribute(
    value: Result<api::AttrValue>,
    buf: *mut c_void,
    size: usize,
    size_written: *mut usize,
) -> Result<()> {
    let value = value?;
    let need = value.ty().size();
    if size == 0 {
        if size_written.is_null() {
            return Err(invalid!("sizeInBytes is 0 and sizeWritten is NULL"));
        }
        return write_out(size_written, need);
    }
    check_out(buf, "buf")?;
    if size != need {
        return Err(invalid!(
            "sizeInBytes {size} != sizeof({}) = {need}",
            value.ty().c_name()
        ));
    }
    output_bytes(buf, &value.encode()[..need])?;
    if !size_written.is_null() {
        write_out(size_written, need)?;
    }
    Ok(())
}

/// A NUL-terminated UTF-8 string from the caller; `None` for NULL.
pub fn read_cstr<'a>(p: *const std::ffi::c_char) -> Result<Option<&'a str>> {
    if p.is_null() {
        return Ok(None);
    }
    // SAFETY: non-NULL; the caller promises a NUL-terminated string that outlives the call.
    let s = unsafe { std::ffi::CStr::from_ptr(p) };
    s.to_str()
        .map(Some)
        .map_err(|_| invalid!("string argument is not UTF-8"))
}
