//! One GEMM's device data, set up the way a C caller would: random inputs uploaded, the
//! output poisoned with NaN (or holding C for an in-place call), alpha/beta on the host
//! or on the device.

#![allow(dead_code)]

use std::ffi::c_void;

use super::device::{CuResult, DevBuf};
use super::host::{self, A, B, C, Comparison, D, DType, GemmSpec, HostData, Rng, Widened};
use super::lt::Args;

/// Workspace given to both libraries (and announced in the preference): 32 MiB.
pub const WORKSPACE_BYTES: usize = 32 << 20;

/// The inputs of one GEMM on the device, plus what is needed to check its output.
pub struct Prepared {
    pub spec: GemmSpec,
    pub data: HostData,
    pub a: DevBuf,
    pub b: DevBuf,
    /// A's and B's addresses: their buffers' starts moved by `spec.shift`.
    pub a_ptr: u64,
    pub b_ptr: u64,
    /// None when C is D (in place) or when the caller passes D as C.
    pub c: Option<DevBuf>,
    pub bias: Option<DevBuf>,
    /// alpha then beta as two f32 on the device (pointer mode DEVICE), else None.
    pub scalars: Option<DevBuf>,
    /// Host copies of alpha and beta whose addresses are passed in pointer mode HOST.
    pub alpha: f32,
    pub beta: f32,
    /// D's buffer before the call: NaN everywhere, or C's data when in place.
    pub d_before: Vec<u8>,
}

/// A device copy of `data` whose first element sits `shift_bytes` past the allocation's
/// (256-byte aligned) start, and that address.
pub fn shifted(data: &[u8], shift_bytes: usize) -> CuResult<(DevBuf, u64)> {
    if shift_bytes == 0 {
        let buf = DevBuf::from_bytes(data)?;
        let ptr = buf.ptr;
        return Ok((buf, ptr));
    }
    let mut v = vec![0u8; shift_bytes];
    v.extend_from_slice(data);
    let buf = DevBuf::from_bytes(&v)?;
    let ptr = buf.ptr + shift_bytes as u64;
    Ok((buf, ptr))
}

impl Prepared {
    /// Fresh random inputs for `spec` drawn from `rng`, uploaded. `separate_c` allocates
    /// C apart from D (tests); otherwise C's pointer is D's (the bench, beta = 0).
    pub fn new(spec: &GemmSpec, rng: &mut Rng, separate_c: bool) -> CuResult<Prepared> {
        let data = HostData::random(spec, rng);
        let e = spec.ab.size();
        let (a, a_ptr) = shifted(&data.a, spec.shift[host::A] as usize * e)?;
        let (b, b_ptr) = shifted(&data.b, spec.shift[host::B] as usize * e)?;
        let c = if separate_c && !spec.in_place {
            Some(DevBuf::from_bytes(&data.c)?)
        } else {
            None
        };
        let bias = if spec.epi.has_bias() {
            Some(DevBuf::from_bytes(&data.bias)?)
        } else {
            None
        };
        let scalars = if spec.device_scalars {
            let mut s = Vec::new();
            s.extend_from_slice(&spec.alpha.to_le_bytes());
            s.extend_from_slice(&spec.beta.to_le_bytes());
            Some(DevBuf::from_bytes(&s)?)
        } else {
            None
        };
        let d_elems = spec.geom(D).buffer_elems() as usize;
        let d_before = if spec.in_place {
            data.c.clone()
        } else {
            spec.cd.nan_buffer(d_elems)
        };
        Ok(Prepared {
            spec: spec.clone(),
            data,
            a,
            b,
            a_ptr,
            b_ptr,
            c,
            bias,
            scalars,
            alpha: spec.alpha,
            beta: spec.beta,
            d_before,
        })
    }

    /// A new output buffer holding `d_before` (NaN poison, or C when in place).
    pub fn new_output(&self) -> CuResult<DevBuf> {
        DevBuf::from_bytes(&self.d_before)
    }

    /// Restores `d` to `d_before` (before each checked run).
    pub fn reset_output(&self, d: &DevBuf) -> CuResult<()> {
        d.upload(&self.d_before)
    }

    pub fn bias_ptr(&self) -> u64 {
        self.bias.as_ref().map_or(0, |b| b.ptr)
    }

    /// The matmul pointers for output `d`. Host alpha/beta point into `self`, so the
    /// arguments must not outlive it.
    pub fn args(&self, d: &DevBuf, workspace: Option<&DevBuf>, stream: *mut c_void) -> Args {
        let (alpha, beta) = match &self.scalars {
            Some(s) => (s.ptr as *const c_void, (s.ptr + 4) as *const c_void),
            None => (
                &self.alpha as *const f32 as *const c_void,
                &self.beta as *const f32 as *const c_void,
            ),
        };
        Args {
            alpha,
            beta,
            a: self.a_ptr,
            b: self.b_ptr,
            c: self.c.as_ref().map_or(d.ptr, |c| c.ptr),
            d: d.ptr,
            workspace: workspace.map_or(0, |w| w.ptr),
            workspace_size: workspace.map_or(0, |w| w.bytes),
            stream,
        }
    }

    /// The inputs widened to f64 for the reference.
    pub fn widened(&self) -> Widened {
        Widened::new(&self.spec, &self.data)
    }

    /// Full float64 check of a downloaded D buffer (values, NaN, writes outside D).
    pub fn check_full(&self, d_buf: &[u8]) -> Comparison {
        let w = self.widened();
        let r = host::reference(&self.spec, &w);
        host::compare_full(&self.spec, d_buf, &self.d_before, &r)
    }
}

/// Byte sizes of the operand buffers of `spec`, for memory estimates.
pub fn footprint(spec: &GemmSpec) -> u64 {
    let ab = spec.ab.size() as u64;
    let cd = spec.cd.size() as u64;
    spec.geom(A).buffer_elems() * ab
        + spec.geom(B).buffer_elems() * ab
        + spec.geom(C).buffer_elems() * cd
        + spec.geom(D).buffer_elems() * cd
}

/// Type combinations the suite covers: (A/B, C/D, tf32).
pub const TYPE_COMBOS: [(DType, DType, bool); 6] = [
    (DType::F32, DType::F32, false),
    (DType::F32, DType::F32, true),
    (DType::F16, DType::F16, false),
    (DType::F16, DType::F32, false),
    (DType::BF16, DType::BF16, false),
    (DType::BF16, DType::F32, false),
];
