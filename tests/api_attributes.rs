//! Attributes of the three cuBLASLt objects through the C exports: every attribute
//! round-trips, sizes are exact, invalid values and ids are INVALID_VALUE, and failed calls
//! write nothing. Attribute ids, C types and defaults are transcribed here independently
//! from cublasLt.h (CUDA 13.0), not taken from the library's own tables.

mod api_common;
use api_common::*;
use std::ffi::c_void;

/// A typed attribute value as a C caller would hold it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum V {
    I8(i8),
    I32(i32),
    U32(u32),
    I64(i64),
    U64(u64),
    F32(f32),
    Ptr(usize),
}

impl V {
    fn bytes(self) -> Vec<u8> {
        match self {
            V::I8(v) => v.to_ne_bytes().to_vec(),
            V::I32(v) => v.to_ne_bytes().to_vec(),
            V::U32(v) => v.to_ne_bytes().to_vec(),
            V::I64(v) => v.to_ne_bytes().to_vec(),
            V::U64(v) => v.to_ne_bytes().to_vec(),
            V::F32(v) => v.to_ne_bytes().to_vec(),
            V::Ptr(v) => v.to_ne_bytes().to_vec(),
        }
    }
}

struct Attr {
    id: i32,
    default: V,
    /// A valid value other than the default.
    sample: V,
    /// Values of the right type that Set must reject.
    invalid: &'static [V],
}

const fn a(id: i32, default: V, sample: V, invalid: &'static [V]) -> Attr {
    Attr {
        id,
        default,
        sample,
        invalid,
    }
}

const OPS_BAD: &[V] = &[V::I32(-1), V::I32(3), V::I32(4)];
const SCALE_MODE_BAD: &[V] = &[V::I32(-1), V::I32(6)];
const DTYPE_OR_DEFAULT_BAD: &[V] = &[V::I32(-2), V::I32(36), V::I32(1000)];

/// cublasLtMatmulDescAttributes_t for a descriptor made with (COMPUTE_32F, R_32F).
fn desc_attrs() -> Vec<Attr> {
    vec![
        a(
            DEEPGEMMLT_MATMUL_DESC_COMPUTE_TYPE,
            V::I32(68),
            V::I32(77),
            &[V::I32(0), V::I32(66), V::I32(-1)],
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_SCALE_TYPE,
            V::I32(0),
            V::I32(14),
            &[V::I32(-1), V::I32(36)],
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_POINTER_MODE,
            V::I32(0),
            V::I32(1),
            &[V::I32(-1), V::I32(5)],
        ),
        a(DEEPGEMMLT_MATMUL_DESC_TRANSA, V::I32(0), V::I32(1), OPS_BAD),
        a(DEEPGEMMLT_MATMUL_DESC_TRANSB, V::I32(0), V::I32(2), OPS_BAD),
        a(DEEPGEMMLT_MATMUL_DESC_TRANSC, V::I32(0), V::I32(1), OPS_BAD),
        a(
            DEEPGEMMLT_MATMUL_DESC_FILL_MODE,
            V::I32(2),
            V::I32(0),
            &[V::I32(-1), V::I32(3)],
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_EPILOGUE,
            V::U32(1),
            V::U32(36),
            &[V::U32(0), V::U32(3), V::U32(1024), V::U32(u32::MAX)],
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_BIAS_POINTER,
            V::Ptr(0),
            V::Ptr(0x7f00_0000_1000),
            &[],
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_BIAS_BATCH_STRIDE,
            V::I64(0),
            V::I64(1 << 40),
            &[],
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_EPILOGUE_AUX_POINTER,
            V::Ptr(0),
            V::Ptr(0x1000),
            &[],
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_EPILOGUE_AUX_LD,
            V::I64(0),
            V::I64(128),
            &[V::I64(-1)],
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE,
            V::I64(0),
            V::I64(4096),
            &[],
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_ALPHA_VECTOR_BATCH_STRIDE,
            V::I64(0),
            V::I64(64),
            &[],
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_SM_COUNT_TARGET,
            V::I32(0),
            V::I32(66),
            &[V::I32(-1)],
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_A_SCALE_POINTER,
            V::Ptr(0),
            V::Ptr(0x2000),
            &[],
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_B_SCALE_POINTER,
            V::Ptr(0),
            V::Ptr(0x2100),
            &[],
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_C_SCALE_POINTER,
            V::Ptr(0),
            V::Ptr(0x2200),
            &[],
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_D_SCALE_POINTER,
            V::Ptr(0),
            V::Ptr(0x2300),
            &[],
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_AMAX_D_POINTER,
            V::Ptr(0),
            V::Ptr(0x2400),
            &[],
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE,
            V::I32(-1),
            V::I32(2),
            DTYPE_OR_DEFAULT_BAD,
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_POINTER,
            V::Ptr(0),
            V::Ptr(0x2500),
            &[],
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_EPILOGUE_AUX_AMAX_POINTER,
            V::Ptr(0),
            V::Ptr(0x2600),
            &[],
        ),
        a(DEEPGEMMLT_MATMUL_DESC_FAST_ACCUM, V::I8(0), V::I8(1), &[]),
        a(
            DEEPGEMMLT_MATMUL_DESC_BIAS_DATA_TYPE,
            V::I32(-1),
            V::I32(0),
            DTYPE_OR_DEFAULT_BAD,
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_ATOMIC_SYNC_NUM_CHUNKS_D_ROWS,
            V::I32(0),
            V::I32(4),
            &[V::I32(-1)],
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_ATOMIC_SYNC_NUM_CHUNKS_D_COLS,
            V::I32(0),
            V::I32(4),
            &[V::I32(-1)],
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_ATOMIC_SYNC_IN_COUNTERS_POINTER,
            V::Ptr(0),
            V::Ptr(0x2700),
            &[],
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_ATOMIC_SYNC_OUT_COUNTERS_POINTER,
            V::Ptr(0),
            V::Ptr(0x2800),
            &[],
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_A_SCALE_MODE,
            V::I32(0),
            V::I32(5),
            SCALE_MODE_BAD,
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_B_SCALE_MODE,
            V::I32(0),
            V::I32(4),
            SCALE_MODE_BAD,
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_C_SCALE_MODE,
            V::I32(0),
            V::I32(1),
            SCALE_MODE_BAD,
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_D_SCALE_MODE,
            V::I32(0),
            V::I32(2),
            SCALE_MODE_BAD,
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_MODE,
            V::I32(0),
            V::I32(3),
            SCALE_MODE_BAD,
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_D_OUT_SCALE_POINTER,
            V::Ptr(0),
            V::Ptr(0x2900),
            &[],
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_D_OUT_SCALE_MODE,
            V::I32(0),
            V::I32(1),
            SCALE_MODE_BAD,
        ),
        a(
            DEEPGEMMLT_MATMUL_DESC_EMULATION_DESCRIPTOR,
            V::Ptr(0),
            V::Ptr(0x3000),
            &[],
        ),
    ]
}

/// cublasLtMatrixLayoutAttribute_t for a layout made with (R_16BF, 3, 5, 4).
fn layout_attrs() -> Vec<Attr> {
    vec![
        a(
            DEEPGEMMLT_MATRIX_LAYOUT_TYPE,
            V::U32(14),
            V::U32(0),
            &[V::U32(36), V::U32(u32::MAX)],
        ),
        a(
            DEEPGEMMLT_MATRIX_LAYOUT_ORDER,
            V::I32(0),
            V::I32(1),
            &[V::I32(-1), V::I32(5)],
        ),
        a(
            DEEPGEMMLT_MATRIX_LAYOUT_ROWS,
            V::U64(3),
            V::U64(7),
            &[V::U64(1 << 63), V::U64(u64::MAX)],
        ),
        a(
            DEEPGEMMLT_MATRIX_LAYOUT_COLS,
            V::U64(5),
            V::U64(9),
            &[V::U64(1 << 63)],
        ),
        a(
            DEEPGEMMLT_MATRIX_LAYOUT_LD,
            V::I64(4),
            V::I64(16),
            &[V::I64(-1), V::I64(i64::MIN)],
        ),
        a(
            DEEPGEMMLT_MATRIX_LAYOUT_BATCH_COUNT,
            V::I32(1),
            V::I32(8),
            &[V::I32(0), V::I32(-3)],
        ),
        a(
            DEEPGEMMLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
            V::I64(0),
            V::I64(4096),
            &[],
        ),
        a(
            DEEPGEMMLT_MATRIX_LAYOUT_PLANE_OFFSET,
            V::I64(0),
            V::I64(64),
            &[],
        ),
        a(
            DEEPGEMMLT_MATRIX_LAYOUT_BATCH_MODE,
            V::I32(0),
            V::I32(1),
            &[V::I32(-1), V::I32(2)],
        ),
    ]
}

fn pref_attrs() -> Vec<Attr> {
    vec![
        a(
            DEEPGEMMLT_MATMUL_PREF_SEARCH_MODE,
            V::U32(0),
            V::U32(1),
            &[V::U32(2), V::U32(9), V::U32(u32::MAX)],
        ),
        a(
            DEEPGEMMLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
            V::U64(0),
            V::U64(1 << 32),
            &[],
        ),
        a(
            DEEPGEMMLT_MATMUL_PREF_REDUCTION_SCHEME_MASK,
            V::U32(7),
            V::U32(3),
            &[V::U32(8)],
        ),
        a(
            DEEPGEMMLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES,
            V::U32(256),
            V::U32(16),
            &[],
        ),
        a(
            DEEPGEMMLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
            V::U32(256),
            V::U32(8),
            &[],
        ),
        a(
            DEEPGEMMLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES,
            V::U32(256),
            V::U32(4),
            &[],
        ),
        a(
            DEEPGEMMLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES,
            V::U32(256),
            V::U32(2),
            &[],
        ),
        a(
            DEEPGEMMLT_MATMUL_PREF_MAX_WAVES_COUNT,
            V::F32(0.0),
            V::F32(2.5),
            &[V::F32(-1.0), V::F32(f32::NAN), V::F32(f32::INFINITY)],
        ),
        a(
            DEEPGEMMLT_MATMUL_PREF_IMPL_MASK,
            V::U64(u64::MAX),
            V::U64(0x3),
            &[],
        ),
    ]
}

/// Reads attribute `id` as raw bytes of `size` (asserting SUCCESS and the count).
fn get_bytes(obj: Obj, id: i32, size: usize) -> Vec<u8> {
    let mut buf = vec![0xAAu8; size];
    let mut written = 0usize;
    let st = obj.get_raw(id, buf.as_mut_ptr().cast(), size, &mut written);
    assert_eq!(st, DEEPGEMM_STATUS_SUCCESS, "get {id}");
    assert_eq!(written, size, "written {id}");
    buf
}

fn check_object(obj: Obj, attrs: &[Attr], unknown_ids: &[i32]) {
    for at in attrs {
        let id = at.id;
        let size = at.default.bytes().len();

        // Size query: buf NULL, size 0.
        let mut need = 0usize;
        assert_eq!(
            obj.get_raw(id, std::ptr::null_mut(), 0, &mut need),
            DEEPGEMM_STATUS_SUCCESS
        );
        assert_eq!(need, size, "size of attribute {id}");
        // Size 0 with nowhere to put the size.
        assert_eq!(
            obj.get_raw(id, std::ptr::null_mut(), 0, std::ptr::null_mut()),
            DEEPGEMM_STATUS_INVALID_VALUE
        );

        // Default.
        assert_eq!(
            get_bytes(obj, id, size),
            at.default.bytes(),
            "default of attribute {id}"
        );

        // Round trip.
        let sample = at.sample.bytes();
        assert_eq!(
            obj.set_raw(id, sample.as_ptr().cast(), size),
            DEEPGEMM_STATUS_SUCCESS,
            "set {id}"
        );
        assert_eq!(
            get_bytes(obj, id, size),
            sample,
            "round trip of attribute {id}"
        );
        // sizeWritten may be NULL.
        let mut buf = vec![0u8; size];
        assert_eq!(
            obj.get_raw(id, buf.as_mut_ptr().cast(), size, std::ptr::null_mut()),
            DEEPGEMM_STATUS_SUCCESS
        );
        assert_eq!(buf, sample);

        // Wrong sizes and NULL buffers on Set: rejected, value unchanged.
        let wide = [sample.clone(), vec![0u8; 8]].concat();
        for bad in [0, size - 1, size + 1, size * 2] {
            if bad == size {
                continue;
            }
            assert_eq!(
                obj.set_raw(id, wide.as_ptr().cast(), bad),
                DEEPGEMM_STATUS_INVALID_VALUE,
                "set {id} size {bad}"
            );
        }
        assert_eq!(
            obj.set_raw(id, std::ptr::null(), size),
            DEEPGEMM_STATUS_INVALID_VALUE
        );
        // A size far past the buffer (and isize::MAX): refused before the bytes are looked at.
        for huge in [1 << 20, usize::MAX] {
            assert_eq!(
                obj.set_raw(id, wide.as_ptr().cast(), huge),
                DEEPGEMM_STATUS_INVALID_VALUE,
                "set {id} size {huge}"
            );
        }
        assert_eq!(get_bytes(obj, id, size), sample);

        // Wrong sizes and NULL buffers on Get: rejected, nothing written.
        for bad in [size - 1, size + 1] {
            if bad == 0 {
                continue;
            }
            let mut buf = vec![0xAAu8; bad];
            let mut written = 12345usize;
            assert_eq!(
                obj.get_raw(id, buf.as_mut_ptr().cast(), bad, &mut written),
                DEEPGEMM_STATUS_INVALID_VALUE,
                "get {id} size {bad}"
            );
            assert!(buf.iter().all(|&b| b == 0xAA), "get {id} wrote on failure");
            assert_eq!(written, 12345, "get {id} wrote sizeWritten on failure");
        }
        let mut written = 12345usize;
        assert_eq!(
            obj.get_raw(id, std::ptr::null_mut(), size, &mut written),
            DEEPGEMM_STATUS_INVALID_VALUE
        );
        assert_eq!(written, 12345);

        // Invalid values: rejected, value unchanged.
        for bad in at.invalid {
            let b = bad.bytes();
            assert_eq!(b.len(), size);
            assert_eq!(
                obj.set_raw(id, b.as_ptr().cast(), size),
                DEEPGEMM_STATUS_INVALID_VALUE,
                "set {id} to {bad:?}"
            );
            assert_eq!(
                get_bytes(obj, id, size),
                sample,
                "attribute {id} changed by a rejected set"
            );
        }

        // Back to the default (defaults are valid values too).
        let d = at.default.bytes();
        assert_eq!(
            obj.set_raw(id, d.as_ptr().cast(), size),
            DEEPGEMM_STATUS_SUCCESS
        );
    }
    for &id in unknown_ids {
        let v = 0i32;
        assert_eq!(
            obj.set(id, v),
            DEEPGEMM_STATUS_INVALID_VALUE,
            "unknown attribute {id}"
        );
        let mut need = 0usize;
        assert_eq!(
            obj.get_raw(id, std::ptr::null_mut(), 0, &mut need),
            DEEPGEMM_STATUS_INVALID_VALUE
        );
        let mut buf = [0u8; 8];
        for size in [1, 4, 8] {
            assert_eq!(
                obj.get_raw(id, buf.as_mut_ptr().cast(), size, &mut need),
                DEEPGEMM_STATUS_INVALID_VALUE
            );
        }
    }
}

/// Every attribute id the library knows must be in the transcribed list and vice versa.
fn ids_known_to_library(obj: Obj) -> Vec<i32> {
    (-4..64)
        .filter(|&id| {
            let mut n = 0usize;
            obj.get_raw(id, std::ptr::null_mut(), 0, &mut n) == DEEPGEMM_STATUS_SUCCESS
        })
        .collect()
}

#[test]
fn matmul_desc_attributes() {
    let d = Obj::Desc(desc(DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F));
    let attrs = desc_attrs();
    let mut ids: Vec<i32> = attrs.iter().map(|a| a.id).collect();
    ids.sort();
    assert_eq!(ids_known_to_library(d), ids);
    check_object(d, &attrs, &[-1, 9, 16, 39, 64, 1 << 20]);
    d.destroy();
}

#[test]
fn matrix_layout_attributes() {
    let l = Obj::Layout(layout(DEEPGEMM_R_16BF, 3, 5, 4));
    let attrs = layout_attrs();
    let ids: Vec<i32> = attrs.iter().map(|a| a.id).collect();
    assert_eq!(ids_known_to_library(l), ids);
    check_object(l, &attrs, &[-1, 9, 100]);
    l.destroy();
}

#[test]
fn preference_attributes() {
    let p = Obj::Pref(pref());
    let attrs = pref_attrs();
    let ids: Vec<i32> = attrs.iter().map(|a| a.id).collect();
    assert_eq!(ids_known_to_library(p), ids);
    check_object(p, &attrs, &[-1, 2, 4, 10, 11, 13]);
    p.destroy();
}

#[test]
fn typed_helpers_read_what_c_would_write() {
    // The way a C caller does it: a typed local and sizeof.
    let d = Obj::Desc(desc(DEEPGEMM_COMPUTE_32F_FAST_TF32, DEEPGEMM_R_32F));
    assert_eq!(
        d.get::<i32>(DEEPGEMMLT_MATMUL_DESC_COMPUTE_TYPE),
        DEEPGEMM_COMPUTE_32F_FAST_TF32
    );
    let epi = DEEPGEMMLT_EPILOGUE_GELU_BIAS as u32;
    assert_eq!(
        d.set(DEEPGEMMLT_MATMUL_DESC_EPILOGUE, epi),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(d.get::<u32>(DEEPGEMMLT_MATMUL_DESC_EPILOGUE), 36);
    let bias = 0xdead_bee0usize as *const c_void;
    assert_eq!(
        d.set(DEEPGEMMLT_MATMUL_DESC_BIAS_POINTER, bias),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        d.get::<usize>(DEEPGEMMLT_MATMUL_DESC_BIAS_POINTER),
        0xdead_bee0
    );
    // An int32 where an int8 is expected is a size mismatch.
    assert_eq!(
        d.set(DEEPGEMMLT_MATMUL_DESC_FAST_ACCUM, 1i32),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(
        d.set(DEEPGEMMLT_MATMUL_DESC_FAST_ACCUM, 1i8),
        DEEPGEMM_STATUS_SUCCESS
    );
    // An int64 where an int32 is expected, likewise.
    assert_eq!(
        d.set(DEEPGEMMLT_MATMUL_DESC_TRANSA, 1i64),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    d.destroy();
}

#[test]
fn null_objects_are_invalid_value() {
    let v = 1i32;
    let p = (&v as *const i32).cast::<c_void>();
    let mut out = 0i32;
    let o = (&mut out as *mut i32).cast::<c_void>();
    let mut n = 0usize;
    for obj in [
        Obj::Desc(std::ptr::null_mut()),
        Obj::Layout(std::ptr::null_mut()),
        Obj::Pref(std::ptr::null_mut()),
    ] {
        assert_eq!(obj.set_raw(1, p, 4), DEEPGEMM_STATUS_INVALID_VALUE);
        assert_eq!(obj.get_raw(1, o, 4, &mut n), DEEPGEMM_STATUS_INVALID_VALUE);
        assert_eq!(
            obj.get_raw(1, std::ptr::null_mut(), 0, &mut n),
            DEEPGEMM_STATUS_INVALID_VALUE
        );
    }
    // Destroy(NULL) is a no-op.
    assert_eq!(
        deepgemmLtMatmulDescDestroy(std::ptr::null_mut()),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        deepgemmLtMatrixLayoutDestroy(std::ptr::null_mut()),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        deepgemmLtMatmulPreferenceDestroy(std::ptr::null_mut()),
        DEEPGEMM_STATUS_SUCCESS
    );
}

#[test]
fn create_rejects_bad_arguments_and_writes_nothing() {
    let sentinel = 0x5a5a_5a5ausize as deepgemmLtMatmulDesc_t;
    // NULL out-pointers.
    assert_eq!(
        deepgemmLtMatmulDescCreate(std::ptr::null_mut(), DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(
        deepgemmLtMatrixLayoutCreate(std::ptr::null_mut(), DEEPGEMM_R_32F, 2, 2, 2),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(
        deepgemmLtMatmulPreferenceCreate(std::ptr::null_mut()),
        DEEPGEMM_STATUS_INVALID_VALUE
    );

    // Unknown compute / scale types.
    for (ct, st) in [(0, 0), (66, 0), (-1, 0), (68, -1), (68, 36), (68, 1000)] {
        let mut d = sentinel;
        assert_eq!(
            deepgemmLtMatmulDescCreate(&mut d, ct, st),
            DEEPGEMM_STATUS_INVALID_VALUE,
            "{ct} {st}"
        );
        assert_eq!(d, sentinel);
    }
    // Known but unsupported types are accepted at Create (cuBLASLt checks them at use).
    let d = desc(DEEPGEMM_COMPUTE_16F, DEEPGEMM_R_16F);
    assert_eq!(deepgemmLtMatmulDescDestroy(d), DEEPGEMM_STATUS_SUCCESS);
    let d = desc(DEEPGEMM_COMPUTE_32F_EMULATED_16BFX9, DEEPGEMM_R_32F);
    assert_eq!(deepgemmLtMatmulDescDestroy(d), DEEPGEMM_STATUS_SUCCESS);

    // Layouts: unknown type, dimensions over INT64_MAX, negative ld.
    let sentinel = 0x5a5a_5a5ausize as deepgemmLtMatrixLayout_t;
    for (ty, r, c, ld) in [
        (36, 2, 2, 2),
        (-1, 2, 2, 2),
        (0, 1u64 << 63, 2, 2),
        (0, 2, u64::MAX, 2),
        (0, 2, 2, -1),
        (0, 2, 2, i64::MIN),
    ] {
        let mut l = sentinel;
        assert_eq!(
            deepgemmLtMatrixLayoutCreate(&mut l, ty, r, c, ld),
            DEEPGEMM_STATUS_INVALID_VALUE
        );
        assert_eq!(l, sentinel);
    }
    // Empty matrices and ld < rows are valid descriptions (checked when used).
    for (r, c, ld) in [
        (0, 0, 0),
        (0, 5, 1),
        (4, 4, 2),
        (i64::MAX as u64, 1, i64::MAX),
    ] {
        let l = layout(DEEPGEMM_R_32F, r, c, ld);
        assert_eq!(deepgemmLtMatrixLayoutDestroy(l), DEEPGEMM_STATUS_SUCCESS);
    }
}

#[test]
fn objects_are_independent_across_threads() {
    // Each thread owns its objects; a shared descriptor is read concurrently.
    let shared = desc(DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F) as usize;
    let threads: Vec<_> = (0..8)
        .map(|t| {
            std::thread::spawn(move || {
                let shared = Obj::Desc(shared as deepgemmLtMatmulDesc_t);
                for i in 0..200i64 {
                    let l = Obj::Layout(layout(DEEPGEMM_R_32F, 4, 4, 4));
                    assert_eq!(
                        l.set(DEEPGEMMLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, i * t),
                        DEEPGEMM_STATUS_SUCCESS
                    );
                    assert_eq!(
                        l.get::<i64>(DEEPGEMMLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET),
                        i * t
                    );
                    assert_eq!(shared.get::<i32>(DEEPGEMMLT_MATMUL_DESC_COMPUTE_TYPE), 68);
                    l.destroy();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    Obj::Desc(shared as deepgemmLtMatmulDesc_t).destroy();
}
