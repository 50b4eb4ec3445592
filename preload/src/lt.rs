//! cublasLtMatmul: the caller's descriptors are read through the real library's
//! `...GetAttribute` (cuBLASLt's attribute ids and values are deepgemm's), the operation is
//! decided exactly, and deepgemm runs it on the caller's stream. The caller's `algo` came
//! from the real heuristic and means nothing to deepgemm: it is ignored when substituting.

use std::ffi::c_void;

use deepgemm::api::matmul::WORKSPACE_ALIGNMENT;
use deepgemm::api::matmul_desc as md;
use deepgemm::api::matrix_layout as ml;
use deepgemm::problem::{GemmPointers, GemmProblem, MatrixSpec, OpSpec};
use deepgemm::types::Epilogue;

use crate::decide::{self, Forward};
use crate::real::{GetAttributeFn, Lt};
use crate::stats::Reason;

/// The arguments of one cublasLtMatmul call that the decision needs.
#[derive(Clone, Copy, Debug)]
pub struct LtCall {
    pub desc: *mut c_void,
    pub alpha: *const c_void,
    pub a: *const c_void,
    pub a_desc: *mut c_void,
    pub b: *const c_void,
    pub b_desc: *mut c_void,
    pub beta: *const c_void,
    pub c: *const c_void,
    pub c_desc: *mut c_void,
    pub d: *mut c_void,
    pub d_desc: *mut c_void,
    pub workspace: *mut c_void,
    pub workspace_size: usize,
    pub stream: *mut c_void,
}

/// An attribute's bytes (at most 8, little-endian).
#[derive(Clone, Copy, Debug)]
struct Attr {
    bits: u64,
    size: usize,
}

impl Attr {
    /// Sign-extended from its size: the int32 attributes (types, orders, BIAS_DATA_TYPE's
    /// -1) read as C reads them; 8-byte ones are their bits.
    fn int(self) -> i64 {
        match self.size {
            1 => self.bits as u8 as i8 as i64,
            2 => self.bits as u16 as i16 as i64,
            4 => self.bits as u32 as i32 as i64,
            _ => self.bits as i64,
        }
    }
}

struct Reader {
    get: GetAttributeFn,
}

impl Reader {
    /// Reads attribute `id` of `obj`, trying `size` (what cuBLASLt 12/13 document) first.
    /// If the library refuses, it is asked for the size (cuBLASLt: sizeInBytes 0 writes
    /// the size to sizeWritten) and read again with that. `Ok(None)`: the library does not
    /// know the attribute, so the caller cannot have set it.
    ///
    /// # Safety
    /// `obj` is a live descriptor of the kind `get` reads.
    unsafe fn read(&self, obj: *mut c_void, id: i32, size: usize) -> Result<Option<Attr>, Forward> {
        let mut buf = [0u8; 8];
        let mut written = 0usize;
        // SAFETY: buf has 8 >= size bytes; obj is live (caller).
        if unsafe { (self.get)(obj, id, buf.as_mut_ptr().cast(), size, &mut written) } == 0 {
            return Ok(Some(Attr {
                bits: u64::from_le_bytes(buf),
                size,
            }));
        }
        let mut need = 0usize;
        // SAFETY: a size query: no buffer, sizeWritten valid.
        if unsafe { (self.get)(obj, id, std::ptr::null_mut(), 0, &mut need) } != 0 {
            return Ok(None);
        }
        if need == 0 || need > buf.len() {
            return Err(Forward::value(
                Reason::Unreadable,
                "attribute of unexpected size, id",
                id as i64,
            ));
        }
        buf = [0u8; 8];
        // SAFETY: as above, with the size the library asked for.
        if unsafe { (self.get)(obj, id, buf.as_mut_ptr().cast(), need, &mut written) } != 0 {
            return Err(Forward::value(
                Reason::Unreadable,
                "attribute id",
                id as i64,
            ));
        }
        Ok(Some(Attr {
            bits: u64::from_le_bytes(buf),
            size: need,
        }))
    }

    /// An attribute every cuBLASLt has.
    ///
    /// # Safety
    /// As `read`.
    unsafe fn required(&self, obj: *mut c_void, id: i32, size: usize) -> Result<i64, Forward> {
        // SAFETY: forwarded contract.
        match unsafe { self.read(obj, id, size) }? {
            Some(a) => Ok(a.int()),
            None => Err(Forward::value(
                Reason::Unreadable,
                "attribute id",
                id as i64,
            )),
        }
    }

    /// An attribute that may not exist in this cuBLASLt: `default` then.
    ///
    /// # Safety
    /// As `read`.
    unsafe fn optional(
        &self,
        obj: *mut c_void,
        id: i32,
        size: usize,
        default: i64,
    ) -> Result<i64, Forward> {
        // SAFETY: forwarded contract.
        Ok(unsafe { self.read(obj, id, size) }?.map_or(default, Attr::int))
    }
}

/// Matmul descriptor attributes deepgemm cannot honour with a non-zero value, and their
/// sizes: fp8 scaling, aux outputs, atomic sync, emulation (deepgemm's MUST_BE_ZERO list,
/// plus the aux scale mode and D_OUT scale mode).
const MUST_BE_ZERO: [(i32, usize); 20] = [
    (md::EPILOGUE_AUX_POINTER, 8),
    (md::A_SCALE_POINTER, 8),
    (md::B_SCALE_POINTER, 8),
    (md::C_SCALE_POINTER, 8),
    (md::D_SCALE_POINTER, 8),
    (md::AMAX_D_POINTER, 8),
    (md::EPILOGUE_AUX_SCALE_POINTER, 8),
    (md::EPILOGUE_AUX_AMAX_POINTER, 8),
    (md::ATOMIC_SYNC_NUM_CHUNKS_D_ROWS, 4),
    (md::ATOMIC_SYNC_NUM_CHUNKS_D_COLS, 4),
    (md::ATOMIC_SYNC_IN_COUNTERS_POINTER, 8),
    (md::ATOMIC_SYNC_OUT_COUNTERS_POINTER, 8),
    (md::A_SCALE_MODE, 4),
    (md::B_SCALE_MODE, 4),
    (md::C_SCALE_MODE, 4),
    (md::D_SCALE_MODE, 4),
    (md::EPILOGUE_AUX_SCALE_MODE, 4),
    (md::D_OUT_SCALE_POINTER, 8),
    (md::D_OUT_SCALE_MODE, 4),
    (md::EMULATION_DESCRIPTOR, 8),
];

/// Descriptor and layout attribute ids past the last ones this library reads
/// (`md::EMULATION_DESCRIPTOR`, `ml::BATCH_MODE`): a cuBLASLt newer than 13.x may add
/// attributes that change the result, which a substitution would ignore (a review). Which of
/// them the loaded cuBLASLt has is asked once (none in the versions this was built against,
/// so no call reads more); a call that set any of those to non-zero is forwarded.
const NEWER_DESC_IDS: std::ops::RangeInclusive<i32> =
    md::EMULATION_DESCRIPTOR + 1..=md::EMULATION_DESCRIPTOR + 16;
const NEWER_LAYOUT_IDS: std::ops::RangeInclusive<i32> = ml::BATCH_MODE + 1..=ml::BATCH_MODE + 8;

/// Forwards `obj`'s call when an attribute of `ids` that the loaded cuBLASLt has (`known`,
/// filled on the first call from `obj`) is non-zero, or of a size this cannot read.
///
/// # Safety
/// As `Reader::read`.
unsafe fn newer_unset(
    r: &Reader,
    obj: *mut c_void,
    ids: std::ops::RangeInclusive<i32>,
    known: &std::sync::OnceLock<Vec<i32>>,
) -> Result<(), Forward> {
    let known = known.get_or_init(|| {
        // SAFETY: forwarded contract; an id the library lacks reads as None.
        ids.filter(|&id| !matches!(unsafe { r.read(obj, id, 4) }, Ok(None)))
            .collect()
    });
    for &id in known {
        // SAFETY: forwarded contract.
        if unsafe { r.read(obj, id, 4) }?.is_some_and(|a| a.bits != 0) {
            return Err(Forward::value(
                Reason::Attribute,
                "attribute newer than deepgemm-preload, id",
                id as i64,
            ));
        }
    }
    Ok(())
}

/// Reads one matrix layout. PLANE_OFFSET and BATCH_MODE (pointer-array batches) must be 0.
///
/// # Safety
/// `l` is a live cublasLtMatrixLayout_t.
unsafe fn layout(r: &Reader, l: *mut c_void, dtype: i32) -> Result<MatrixSpec, Forward> {
    // SAFETY (every read below): `l` is live (caller).
    unsafe {
        for (id, size, what) in [
            (ml::PLANE_OFFSET, 8, "planar complex layout"),
            (ml::BATCH_MODE, 4, "pointer-array batch mode"),
        ] {
            if r.optional(l, id, size, 0)? != 0 {
                return Err(Forward::new(Reason::Layout, what));
            }
        }
        static KNOWN: std::sync::OnceLock<Vec<i32>> = std::sync::OnceLock::new();
        newer_unset(r, l, NEWER_LAYOUT_IDS, &KNOWN)?;
        Ok(MatrixSpec {
            dtype,
            order: r.required(l, ml::ORDER, 4)? as i32,
            rows: r.required(l, ml::ROWS, 8)? as u64,
            cols: r.required(l, ml::COLS, 8)? as u64,
            ld: r.required(l, ml::LD, 8)?,
            batch_count: r.required(l, ml::BATCH_COUNT, 4)? as i32,
            batch_stride: r.required(l, ml::STRIDED_BATCH_OFFSET, 8)?,
        })
    }
}

/// alpha and beta as the pointer mode says: host floats are read now (scale type R_32F was
/// checked), device addresses passed on.
///
/// # Safety
/// In HOST mode non-NULL `alpha`/`beta` point to floats (the cuBLAS contract).
pub unsafe fn scalars(
    p: &GemmProblem,
    alpha: *const c_void,
    beta: *const c_void,
) -> Result<(deepgemm::problem::Scalar, deepgemm::problem::Scalar), Forward> {
    use deepgemm::problem::Scalar;
    use deepgemm::types::PointerMode;
    if alpha.is_null() || beta.is_null() {
        return Err(Forward::new(Reason::Invalid, "alpha or beta is NULL"));
    }
    Ok(match p.pointer_mode {
        // SAFETY: non-NULL host pointers to floats (caller); read_unaligned needs no
        // alignment from the caller.
        PointerMode::Host => unsafe {
            (
                Scalar::Host(alpha.cast::<f32>().read_unaligned()),
                Scalar::Host(beta.cast::<f32>().read_unaligned()),
            )
        },
        PointerMode::Device => (Scalar::Device(alpha as u64), Scalar::Device(beta as u64)),
    })
}

/// Decides and, when deepgemm can, runs the call. `Ok` means it is enqueued on the
/// caller's stream; `Err` says why the caller's call must go to the real cuBLASLt.
///
/// # Safety
/// The arguments are those of a cublasLtMatmul call: descriptors live (or NULL), host
/// scalars readable in HOST pointer mode.
pub unsafe fn substitute(real: &Lt, x: &LtCall) -> Result<GemmProblem, Forward> {
    let (Some(desc_get), Some(layout_get)) = (real.desc_get, real.layout_get) else {
        return Err(Forward::new(
            Reason::Unreadable,
            "cublasLtMatmulDescGetAttribute or cublasLtMatrixLayoutGetAttribute not found",
        ));
    };
    if [x.desc, x.a_desc, x.b_desc, x.c_desc, x.d_desc]
        .iter()
        .any(|p| p.is_null())
    {
        return Err(Forward::new(Reason::Invalid, "a descriptor is NULL"));
    }
    let rd = Reader { get: desc_get };
    let rl = Reader { get: layout_get };
    // SAFETY (every read below): the descriptors are live and non-NULL (caller, checked).
    unsafe {
        // Cheapest refusals first: types, compute type, epilogue (fp8 and AUX calls stop here).
        let ty = |l| rl.required(l, ml::TYPE, 4).map(|v| v as i32);
        let (ta, tb, tc, td) = (ty(x.a_desc)?, ty(x.b_desc)?, ty(x.c_desc)?, ty(x.d_desc)?);
        decide::check_types(ta, tb, tc, td)?;
        let compute = rd.required(x.desc, md::COMPUTE_TYPE, 4)? as i32;
        let scale = rd.required(x.desc, md::SCALE_TYPE, 4)? as i32;
        decide::check_compute(compute, scale)?;
        let epilogue = rd.required(x.desc, md::EPILOGUE, 4)? as i32;
        let Some(epi) = Epilogue::from_cuda(epilogue) else {
            return Err(Forward::value(
                Reason::Epilogue,
                "epilogue",
                epilogue as i64,
            ));
        };
        for (id, size) in MUST_BE_ZERO {
            if rd.optional(x.desc, id, size, 0)? != 0 {
                return Err(Forward::value(
                    Reason::Attribute,
                    "non-zero attribute id",
                    id as i64,
                ));
            }
        }
        static KNOWN: std::sync::OnceLock<Vec<i32>> = std::sync::OnceLock::new();
        newer_unset(&rd, x.desc, NEWER_DESC_IDS, &KNOWN)?;
        let fill = rd.optional(x.desc, md::FILL_MODE, 4, md::FILL_MODE_FULL as i64)?;
        if fill != md::FILL_MODE_FULL as i64 {
            return Err(Forward::value(Reason::Layout, "fill mode", fill));
        }
        // The SMs the caller leaves deepgemm (PyTorch's SM carve-out for its communication
        // kernels): planned for, as deepgemm's own cublasLtMatmul does.
        let sm_target = rd.optional(x.desc, md::SM_COUNT_TARGET, 4, 0)?;
        if !(0..=i32::MAX as i64).contains(&sm_target) {
            return Err(Forward::value(
                Reason::Attribute,
                "SM count target",
                sm_target,
            ));
        }
        let op = OpSpec {
            compute_type: decide::effective_compute(
                compute,
                ta,
                decide::math_mode::DEFAULT,
                crate::config::tf32_disabled(),
            )?,
            scale_type: scale,
            pointer_mode: rd.required(x.desc, md::POINTER_MODE, 4)? as i32,
            trans_a: rd.required(x.desc, md::TRANSA, 4)? as i32,
            trans_b: rd.required(x.desc, md::TRANSB, 4)? as i32,
            trans_c: rd.optional(x.desc, md::TRANSC, 4, 0)? as i32,
            epilogue,
            bias_data_type: rd.optional(x.desc, md::BIAS_DATA_TYPE, 4, -1)? as i32,
            bias_batch_stride: rd.optional(x.desc, md::BIAS_BATCH_STRIDE, 8, 0)?,
        };
        let bias = if epi.bias {
            rd.required(x.desc, md::BIAS_POINTER, 8)? as u64
        } else {
            0
        };
        let a = layout(&rl, x.a_desc, ta)?;
        let b = layout(&rl, x.b_desc, tb)?;
        let c = layout(&rl, x.c_desc, tc)?;
        let d = layout(&rl, x.d_desc, td)?;
        let p = decide::problem(&op, &a, &b, &c, &d)?;
        let (alpha, beta) = scalars(&p, x.alpha, x.beta)?;
        let ptrs = GemmPointers {
            alpha,
            beta,
            a: x.a as u64,
            b: x.b as u64,
            c: x.c as u64,
            d: x.d as u64,
            bias,
        };
        run(
            &p,
            &ptrs,
            x.workspace,
            x.workspace_size,
            x.stream,
            sm_target as u32,
        )?;
        Ok(p)
    }
}

/// The checks deepgemm's own cublasLtMatmul makes before running (pointers, workspace),
/// each a reason to let the real library judge the call, then the run itself.
pub fn run(
    p: &GemmProblem,
    ptrs: &GemmPointers,
    workspace: *mut c_void,
    workspace_size: usize,
    stream: *mut c_void,
    sm_target: u32,
) -> Result<(), Forward> {
    ptrs.check(p)
        .map_err(|e| Forward::error(Reason::Pointers, e).with_problem(p))?;
    let ws = workspace as u64;
    if (ws == 0 && workspace_size > 0) || ws % WORKSPACE_ALIGNMENT != 0 {
        return Err(Forward::new(
            Reason::Workspace,
            "workspace NULL with a size, or not 256-byte aligned",
        )
        .with_problem(p));
    }
    if p.is_empty() || p.batch == 0 {
        return Err(Forward::new(Reason::Empty, "D has no element").with_problem(p));
    }
    let deepgemm_error = |e| Forward::error(Reason::Deepgemm, e).with_problem(p);
    // Where the plan is the portable kernel, cuBLAS is much faster: decided on the plan that
    // would run, before anything is enqueued.
    let mut declined = None;
    let portable = crate::config::get().portable;
    let accept = |plan: &deepgemm::plan::Plan| match decide::portable(plan, portable) {
        Ok(()) => true,
        Err(f) => {
            declined = Some(f);
            false
        }
    };
    let size = workspace_size as u64;
    deepgemm::gemm::run_accepted(p, ptrs, None, stream, ws, size, None, sm_target, accept)
        .map_err(|e| match e {
            // D partly written: the call cannot be handed to cuBLAS (dispatch reports it).
            deepgemm::Error::PartlyDone(_) => Forward::error(Reason::Failed, e).with_problem(p),
            e => deepgemm_error(e),
        })?;
    match declined {
        Some(f) => Err(f.with_problem(p)),
        None => Ok(()),
    }
}
