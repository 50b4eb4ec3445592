//! cuBLASLt's Init functions (`deepgemmLtMatmulDescInit`, `...MatrixLayoutInit`,
//! `...MatmulPreferenceInit`: the header's static inline wrappers over the `_internal`
//! exports): objects built in the caller's storage, with nothing to destroy. CPU only (a
//! recording handle stands in for the GPU).

mod api_common;

use std::ffi::c_void;
use std::mem::size_of;
use std::ptr::null;

use api_common::*;
use deepgemm::api::{matmul_desc, matrix_layout, preference};
use deepgemm::plan::DeviceSpec;

const POISON: u64 = 0xabab_abab_abab_abab;

fn desc_storage() -> deepgemmLtMatmulDescOpaque_t {
    deepgemmLtMatmulDescOpaque_t { data: [POISON; 32] }
}
fn layout_storage() -> deepgemmLtMatrixLayoutOpaque_t {
    deepgemmLtMatrixLayoutOpaque_t { data: [POISON; 8] }
}
fn pref_storage() -> deepgemmLtMatmulPreferenceOpaque_t {
    deepgemmLtMatmulPreferenceOpaque_t { data: [POISON; 8] }
}

fn init_desc(s: &mut deepgemmLtMatmulDescOpaque_t, compute: i32, scale: i32) -> deepgemmStatus_t {
    deepgemmLtMatmulDescInit_internal(s, size_of::<deepgemmLtMatmulDescOpaque_t>(), compute, scale)
}
fn init_layout(
    s: &mut deepgemmLtMatrixLayoutOpaque_t,
    ty: i32,
    rows: u64,
    cols: u64,
    ld: i64,
) -> deepgemmStatus_t {
    deepgemmLtMatrixLayoutInit_internal(
        s,
        size_of::<deepgemmLtMatrixLayoutOpaque_t>(),
        ty,
        rows,
        cols,
        ld,
    )
}
fn init_pref(s: &mut deepgemmLtMatmulPreferenceOpaque_t) -> deepgemmStatus_t {
    deepgemmLtMatmulPreferenceInit_internal(s, size_of::<deepgemmLtMatmulPreferenceOpaque_t>())
}

/// Every attribute's bytes through GetAttribute (8 bytes, the value's first).
fn all_values(obj: Obj, ids: &[i32]) -> Vec<(i32, [u8; 8], usize)> {
    ids.iter()
        .map(|&id| {
            let mut need = 0usize;
            assert_eq!(
                obj.get_raw(id, std::ptr::null_mut(), 0, &mut need),
                DEEPGEMM_STATUS_SUCCESS
            );
            let mut b = [0u8; 8];
            let mut written = 0usize;
            assert_eq!(
                obj.get_raw(id, b.as_mut_ptr().cast(), need, &mut written),
                DEEPGEMM_STATUS_SUCCESS,
                "attribute {id}"
            );
            (id, b, written)
        })
        .collect()
}

fn ids(table: &[deepgemm::api::attr::AttrDef]) -> Vec<i32> {
    table.iter().map(|d| d.id).collect()
}

/// An Init'd object holds exactly what Create gives (every attribute of every table), takes
/// Set / Get the same way, and its storage is the header's struct.
#[test]
fn init_builds_what_create_builds_in_the_callers_storage() {
    let mut ds = desc_storage();
    assert_eq!(
        init_desc(&mut ds, DEEPGEMM_COMPUTE_32F_FAST_TF32, DEEPGEMM_R_32F),
        DEEPGEMM_STATUS_SUCCESS
    );
    let created = desc(DEEPGEMM_COMPUTE_32F_FAST_TF32, DEEPGEMM_R_32F);
    let desc_ids = ids(&matmul_desc::TABLE);
    assert_eq!(
        all_values(Obj::Desc(&mut ds), &desc_ids),
        all_values(Obj::Desc(created), &desc_ids)
    );

    let mut ls = layout_storage();
    assert_eq!(
        init_layout(&mut ls, DEEPGEMM_R_16BF, 4097, 33, 4104),
        DEEPGEMM_STATUS_SUCCESS
    );
    let lc = layout(DEEPGEMM_R_16BF, 4097, 33, 4104);
    let layout_ids = ids(&matrix_layout::TABLE);
    assert_eq!(
        all_values(Obj::Layout(&mut ls), &layout_ids),
        all_values(Obj::Layout(lc), &layout_ids)
    );

    let mut ps = pref_storage();
    assert_eq!(init_pref(&mut ps), DEEPGEMM_STATUS_SUCCESS);
    let pc = pref();
    let pref_ids = ids(&preference::TABLE);
    assert_eq!(
        all_values(Obj::Pref(&mut ps), &pref_ids),
        all_values(Obj::Pref(pc), &pref_ids)
    );

    // Set and Get on the storage, with values at the types' extremes.
    let d = Obj::Desc(&mut ds);
    assert_eq!(
        d.set(DEEPGEMMLT_MATMUL_DESC_TRANSA, DEEPGEMM_OP_T),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(d.get::<i32>(DEEPGEMMLT_MATMUL_DESC_TRANSA), DEEPGEMM_OP_T);
    assert_eq!(
        d.set(DEEPGEMMLT_MATMUL_DESC_BIAS_POINTER, usize::MAX - 7),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        d.get::<usize>(DEEPGEMMLT_MATMUL_DESC_BIAS_POINTER),
        usize::MAX - 7
    );
    assert_eq!(
        d.set(DEEPGEMMLT_MATMUL_DESC_BIAS_BATCH_STRIDE, i64::MIN + 1),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        d.get::<i64>(DEEPGEMMLT_MATMUL_DESC_BIAS_BATCH_STRIDE),
        i64::MIN + 1
    );
    let l = Obj::Layout(&mut ls);
    assert_eq!(
        l.set(DEEPGEMMLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, i64::MIN),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        l.get::<i64>(DEEPGEMMLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET),
        i64::MIN
    );
    assert_eq!(l.get::<u64>(DEEPGEMMLT_MATRIX_LAYOUT_ROWS), 4097);
    let p = Obj::Pref(&mut ps);
    assert_eq!(
        p.set(DEEPGEMMLT_MATMUL_PREF_MAX_WAVES_COUNT, 2.5f32),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(p.get::<f32>(DEEPGEMMLT_MATMUL_PREF_MAX_WAVES_COUNT), 2.5);
    assert_eq!(
        p.set(DEEPGEMMLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, u64::MAX),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        p.get::<u64>(DEEPGEMMLT_MATMUL_PREF_MAX_WORKSPACE_BYTES),
        u64::MAX
    );
    for o in [Obj::Desc(created), Obj::Layout(lc), Obj::Pref(pc)] {
        o.destroy();
    }
}

/// cuBLASLt's Init'd objects are plain data: a copy of the bytes is an equal object, and
/// setting one leaves the other as it was.
#[test]
fn a_copy_of_the_storage_is_an_independent_object() {
    let mut a = desc_storage();
    assert_eq!(
        init_desc(&mut a, DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        Obj::Desc(&mut a).set(DEEPGEMMLT_MATMUL_DESC_TRANSB, DEEPGEMM_OP_T),
        DEEPGEMM_STATUS_SUCCESS
    );
    let mut b = deepgemmLtMatmulDescOpaque_t { data: a.data };
    assert_eq!(
        Obj::Desc(&mut b).get::<i32>(DEEPGEMMLT_MATMUL_DESC_TRANSB),
        DEEPGEMM_OP_T
    );
    assert_eq!(
        Obj::Desc(&mut b).set(DEEPGEMMLT_MATMUL_DESC_TRANSA, DEEPGEMM_OP_T),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        Obj::Desc(&mut a).get::<i32>(DEEPGEMMLT_MATMUL_DESC_TRANSA),
        DEEPGEMM_OP_N
    );
    assert_eq!(
        Obj::Desc(&mut b).get::<i32>(DEEPGEMMLT_MATMUL_DESC_TRANSA),
        DEEPGEMM_OP_T
    );
    // Init again over a used object starts it afresh.
    assert_eq!(
        init_desc(&mut b, DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        Obj::Desc(&mut b).get::<i32>(DEEPGEMMLT_MATMUL_DESC_TRANSA),
        DEEPGEMM_OP_N
    );
}

/// NULL, storage off 8 bytes and bad arguments are INVALID_VALUE, too little storage
/// ALLOC_FAILED (cublasLt.h's status for it), and the storage keeps its bytes.
#[test]
fn bad_storage_or_arguments_are_invalid_value_and_write_nothing() {
    let inv = DEEPGEMM_STATUS_INVALID_VALUE;
    let small = DEEPGEMM_STATUS_ALLOC_FAILED;
    assert_eq!(
        deepgemmLtMatmulDescInit_internal(std::ptr::null_mut(), 256, 68, 0),
        inv
    );
    let mut s = desc_storage();
    assert_eq!(
        deepgemmLtMatmulDescInit_internal(&mut s, 255, DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F),
        small
    );
    assert_eq!(init_desc(&mut s, 12345, DEEPGEMM_R_32F), inv);
    assert_eq!(init_desc(&mut s, DEEPGEMM_COMPUTE_32F, 12345), inv);
    assert!(s.data.iter().all(|&w| w == POISON));

    let mut l = layout_storage();
    assert_eq!(
        deepgemmLtMatrixLayoutInit_internal(&mut l, 63, DEEPGEMM_R_16BF, 8, 8, 8),
        small
    );
    assert_eq!(init_layout(&mut l, DEEPGEMM_R_16BF, 8, 8, -1), inv);
    assert_eq!(init_layout(&mut l, 12345, 8, 8, 8), inv);
    assert_eq!(init_layout(&mut l, DEEPGEMM_R_16BF, u64::MAX, 8, 8), inv);
    assert!(l.data.iter().all(|&w| w == POISON));

    let mut p = pref_storage();
    assert_eq!(deepgemmLtMatmulPreferenceInit_internal(&mut p, 8), small);
    assert_eq!(
        deepgemmLtMatmulPreferenceInit_internal(std::ptr::null_mut(), 64),
        inv
    );
    assert!(p.data.iter().all(|&w| w == POISON));

    // Storage off its 8-byte alignment (the header's struct never is).
    let mut bytes = [0u64; 40];
    let odd =
        unsafe { bytes.as_mut_ptr().cast::<u8>().add(4) }.cast::<deepgemmLtMatmulDescOpaque_t>();
    assert_eq!(
        deepgemmLtMatmulDescInit_internal(odd, 256, DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F),
        inv
    );
    assert!(bytes.iter().all(|&w| w == 0));
}

/// Storage no Init or Create built (here zeroed or poisoned) is INVALID_VALUE to every
/// function that reads it; Destroy of an Init'd object is INVALID_VALUE and leaves it usable.
#[test]
fn storage_that_was_never_built_or_is_initd_is_refused_where_it_should_be() {
    let inv = DEEPGEMM_STATUS_INVALID_VALUE;
    let mut zero = deepgemmLtMatmulDescOpaque_t { data: [0; 32] };
    let mut poison = desc_storage();
    for s in [&mut zero, &mut poison] {
        let v = DEEPGEMM_OP_T;
        assert_eq!(
            deepgemmLtMatmulDescSetAttribute(
                s,
                DEEPGEMMLT_MATMUL_DESC_TRANSA,
                (&v as *const i32).cast(),
                4
            ),
            inv
        );
        let mut need = 0usize;
        assert_eq!(
            deepgemmLtMatmulDescGetAttribute(
                s,
                DEEPGEMMLT_MATMUL_DESC_TRANSA,
                std::ptr::null_mut(),
                0,
                &mut need
            ),
            inv
        );
    }
    let mut l = deepgemmLtMatrixLayoutOpaque_t { data: [0; 8] };
    assert_eq!(
        Obj::Layout(&mut l).set(DEEPGEMMLT_MATRIX_LAYOUT_ORDER, 1i32),
        inv
    );
    let mut p = deepgemmLtMatmulPreferenceOpaque_t { data: [0; 8] };
    assert_eq!(deepgemmLtMatmulPreferenceDestroy(&mut p), inv);

    let mut d = desc_storage();
    assert_eq!(
        init_desc(&mut d, DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(deepgemmLtMatmulDescDestroy(&mut d), inv);
    assert_eq!(
        Obj::Desc(&mut d).get::<i32>(DEEPGEMMLT_MATMUL_DESC_COMPUTE_TYPE),
        DEEPGEMM_COMPUTE_32F
    );
    let mut ls = layout_storage();
    assert_eq!(
        init_layout(&mut ls, DEEPGEMM_R_32F, 4, 4, 4),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(deepgemmLtMatrixLayoutDestroy(&mut ls), inv);
    let mut ps = pref_storage();
    assert_eq!(init_pref(&mut ps), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(deepgemmLtMatmulPreferenceDestroy(&mut ps), inv);
}

/// An object Create made and Init rebuilt in place is still freed by Destroy (SUCCESS, as in
/// cuBLASLt, whose Init takes any pre-allocated space); a copy of a Created object's bytes
/// elsewhere is not Create's to free (INVALID_VALUE, and the original is still destroyable).
#[test]
fn created_objects_initd_in_place_are_destroyed_and_copies_are_not() {
    let ok = DEEPGEMM_STATUS_SUCCESS;
    let d = desc(DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F);
    assert_eq!(
        init_desc(unsafe { &mut *d }, DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F),
        ok
    );
    assert_eq!(deepgemmLtMatmulDescDestroy(d), ok);
    let l = layout(DEEPGEMM_R_16BF, 4, 4, 4);
    assert_eq!(
        init_layout(unsafe { &mut *l }, DEEPGEMM_R_16BF, 8, 8, 8),
        ok
    );
    assert_eq!(deepgemmLtMatrixLayoutDestroy(l), ok);
    let p = pref();
    assert_eq!(init_pref(unsafe { &mut *p }), ok);
    assert_eq!(deepgemmLtMatmulPreferenceDestroy(p), ok);

    let l = layout(DEEPGEMM_R_16BF, 4, 4, 4);
    let mut copy = unsafe { std::ptr::read(l) };
    assert_eq!(
        deepgemmLtMatrixLayoutDestroy(&mut copy),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(deepgemmLtMatrixLayoutDestroy(l), ok);
    // Destroyed: its address is no longer Create's.
    let d = desc(DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F);
    assert_eq!(deepgemmLtMatmulDescDestroy(d), ok);
}

/// Results and ids written to arrays off their C alignment (a typed copy there aborted a
/// debug build): the same bytes as into aligned ones. A layout at a misaligned address is
/// INVALID_VALUE, not a misaligned reference.
#[test]
fn misaligned_caller_arrays_are_written_bytewise() {
    let h = deepgemm::ffi::testing::recording_lt_handle(DeviceSpec::H200);
    let (m, n, k) = (256u64, 512u64, 1024u64);
    let d = desc(DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F);
    assert_eq!(
        Obj::Desc(d).set(DEEPGEMMLT_MATMUL_DESC_TRANSA, DEEPGEMM_OP_T),
        DEEPGEMM_STATUS_SUCCESS
    );
    let a = layout(DEEPGEMM_R_16BF, k, m, k as i64);
    let b = layout(DEEPGEMM_R_16BF, k, n, k as i64);
    let c = layout(DEEPGEMM_R_16BF, m, n, m as i64);
    let p = pref();
    let aligned = heuristic(h, d, [a, b, c], p);
    assert!(!aligned.is_empty());
    let each = size_of::<deepgemmLtMatmulHeuristicResult_t>();
    let mut raw = vec![0u64; (16 * each) / 8 + 2];
    let odd =
        unsafe { raw.as_mut_ptr().cast::<u8>().add(4) }.cast::<deepgemmLtMatmulHeuristicResult_t>();
    let mut count = 0;
    assert_eq!(
        deepgemmLtMatmulAlgoGetHeuristic(h, d, a, b, c, c, p, 16, odd, &mut count),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(count as usize, aligned.len());
    let bytes = unsafe { std::slice::from_raw_parts(odd.cast::<u8>(), count as usize * each) };
    let want =
        unsafe { std::slice::from_raw_parts(aligned.as_ptr().cast::<u8>(), aligned.len() * each) };
    assert_eq!(bytes, want);

    let mut ids = [0u32; 40];
    let odd_ids = unsafe { ids.as_mut_ptr().cast::<u8>().add(2) }.cast::<i32>();
    let mut n_ids = 0;
    assert_eq!(
        deepgemmLtMatmulAlgoGetIds(
            h,
            DEEPGEMM_COMPUTE_32F,
            DEEPGEMM_R_32F,
            DEEPGEMM_R_16BF,
            DEEPGEMM_R_16BF,
            DEEPGEMM_R_16BF,
            DEEPGEMM_R_16BF,
            8,
            odd_ids,
            &mut n_ids
        ),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert!(n_ids >= 1);

    let mut storage = [0u64; 9];
    let off = unsafe { storage.as_mut_ptr().cast::<u8>().add(4) }
        .cast::<deepgemmLtMatrixLayoutOpaque_t>();
    unsafe { std::ptr::copy_nonoverlapping(a.cast::<u8>(), off.cast::<u8>(), 64) };
    let mut rows = 0u64;
    let mut written = 0usize;
    assert_eq!(
        deepgemmLtMatrixLayoutGetAttribute(
            off,
            DEEPGEMMLT_MATRIX_LAYOUT_ROWS,
            (&mut rows as *mut u64).cast(),
            8,
            &mut written
        ),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    for l in [a, b, c] {
        assert_eq!(deepgemmLtMatrixLayoutDestroy(l), DEEPGEMM_STATUS_SUCCESS);
    }
    assert_eq!(deepgemmLtMatmulDescDestroy(d), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(
        deepgemmLtMatmulPreferenceDestroy(p),
        DEEPGEMM_STATUS_SUCCESS
    );
}

fn heuristic(
    h: deepgemmLtHandle_t,
    d: deepgemmLtMatmulDesc_t,
    [a, b, c]: [deepgemmLtMatrixLayout_t; 3],
    pr: deepgemmLtMatmulPreference_t,
) -> Vec<deepgemmLtMatmulHeuristicResult_t> {
    let blank: deepgemmLtMatmulHeuristicResult_t = unsafe { std::mem::zeroed() };
    let mut res = [blank; 16];
    let mut count = 0;
    let st =
        deepgemmLtMatmulAlgoGetHeuristic(h, d, a, b, c, c, pr, 16, res.as_mut_ptr(), &mut count);
    assert_eq!(st, DEEPGEMM_STATUS_SUCCESS);
    res[..count as usize].to_vec()
}

/// Init'd objects drive the heuristic and deepgemmLtMatmul exactly as Create'd ones: the
/// same ranked algos, and the same call reaching the (recording) runtime.
#[test]
fn initd_objects_plan_and_run_as_created_ones() {
    let h = deepgemm::ffi::testing::recording_lt_handle(DeviceSpec::H200);
    let (m, n, k) = (1000u64, 3000u64, 4000u64);
    // Created: TN bf16, a bias epilogue, 64 MiB of workspace allowed.
    let cd = desc(DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F);
    let ca = layout(DEEPGEMM_R_16BF, k, m, k as i64);
    let cb = layout(DEEPGEMM_R_16BF, k, n, k as i64);
    let cc = layout(DEEPGEMM_R_16BF, m, n, m as i64);
    let cp = pref();
    // Init'd, the same.
    let mut sd = desc_storage();
    let (mut sa, mut sb, mut sc) = (layout_storage(), layout_storage(), layout_storage());
    let mut sp = pref_storage();
    assert_eq!(
        init_desc(&mut sd, DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F),
        DEEPGEMM_STATUS_SUCCESS
    );
    for (s, r, c) in [(&mut sa, k, m), (&mut sb, k, n), (&mut sc, m, n)] {
        assert_eq!(
            init_layout(s, DEEPGEMM_R_16BF, r, c, r as i64),
            DEEPGEMM_STATUS_SUCCESS
        );
    }
    assert_eq!(init_pref(&mut sp), DEEPGEMM_STATUS_SUCCESS);
    let bias = 0x7000_0000usize;
    for d in [Obj::Desc(cd), Obj::Desc(&mut sd)] {
        assert_eq!(
            d.set(DEEPGEMMLT_MATMUL_DESC_TRANSA, DEEPGEMM_OP_T),
            DEEPGEMM_STATUS_SUCCESS
        );
        assert_eq!(
            d.set(DEEPGEMMLT_MATMUL_DESC_EPILOGUE, DEEPGEMMLT_EPILOGUE_BIAS),
            DEEPGEMM_STATUS_SUCCESS
        );
        assert_eq!(
            d.set(DEEPGEMMLT_MATMUL_DESC_BIAS_POINTER, bias),
            DEEPGEMM_STATUS_SUCCESS
        );
    }
    for p in [Obj::Pref(cp), Obj::Pref(&mut sp)] {
        assert_eq!(
            p.set(DEEPGEMMLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, 64u64 << 20),
            DEEPGEMM_STATUS_SUCCESS
        );
    }
    let created = heuristic(h, cd, [ca, cb, cc], cp);
    let initd = heuristic(h, &mut sd, [&mut sa, &mut sb, &mut sc], &mut sp);
    assert!(!created.is_empty());
    assert_eq!(created.len(), initd.len());
    for (x, y) in created.iter().zip(&initd) {
        assert_eq!(x.algo.data, y.algo.data);
        assert_eq!(x.workspaceSize, y.workspaceSize);
    }
    let (alpha, beta) = (1.0f32, 0.0f32);
    let run = |d: deepgemmLtMatmulDesc_t, [a, b, c]: [deepgemmLtMatrixLayout_t; 3]| {
        deepgemmLtMatmul(
            h,
            d,
            (&alpha as *const f32).cast(),
            0x1000_0000usize as *const c_void,
            a,
            0x2000_0000usize as *const c_void,
            b,
            (&beta as *const f32).cast(),
            0x3000_0000usize as *const c_void,
            c,
            0x3000_0000usize as *mut c_void,
            c,
            &created[0].algo,
            0x4000_0000usize as *mut c_void,
            64 << 20,
            null::<c_void>() as deepgemmStream_t,
        )
    };
    assert_eq!(run(cd, [ca, cb, cc]), DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(
        run(&mut sd, [&mut sa, &mut sb, &mut sc]),
        DEEPGEMM_STATUS_SUCCESS
    );
    let calls = deepgemm::ffi::testing::lt_recorded(h);
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0], calls[1]);
    assert_eq!((calls[1].problem.m, calls[1].problem.n), (m, n));
    assert_eq!(calls[1].ptrs.bias, bias as u64);
    for o in [
        Obj::Desc(cd),
        Obj::Layout(ca),
        Obj::Layout(cb),
        Obj::Layout(cc),
        Obj::Pref(cp),
    ] {
        o.destroy();
    }
    assert_eq!(deepgemmLtDestroy(h), DEEPGEMM_STATUS_SUCCESS);
}
