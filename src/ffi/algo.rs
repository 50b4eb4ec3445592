//! deepgemmLtMatmulAlgoGetIds, AlgoInit, AlgoCapGetAttribute, AlgoConfigGetAttribute and
//! AlgoConfigSetAttribute: cuBLASLt's enumeration of algorithms, for engines that profile
//! configurations themselves. The model is `plan::algo`'s: an id is a kernel family, a
//! configuration narrows the plans of a call's problem (tile, split, Stream-K, stages,
//! cluster shape), and a call runs the best plan it admits.

use std::ffi::c_void;

use super::boundary::{
    check_out, ffi_boundary, get_attribute, input_bytes, output_bytes, read_algo, try_handle,
    write_out,
};
use super::types::*;
use crate::api::{self, AttrValue};
use crate::error::Error;
use crate::plan::algo::{self, Cap, Config, Types, View};
use crate::problem::{GemmProblem, MatrixSpec, OpSpec};

/// The types an algo is made for, validated as a matmul of those types would be: INVALID_VALUE
/// for values that are no cuBLAS enum, NOT_SUPPORTED for combinations deepgemm does not run.
fn types_of(compute_type: i32, scale_type: i32, [a, b, c, d]: [i32; 4]) -> crate::Result<Types> {
    api::matmul::reject_emulated(compute_type)?;
    let op = OpSpec::new(compute_type, scale_type);
    let one = |t: i32| MatrixSpec::col(t, 1, 1, 1);
    let p = GemmProblem::new(&op, &one(a), &one(b), &one(c), &one(d))?;
    Ok(Types::of(&p))
}

/// The algorithm ids (kernel families, `plan::algo::id`) that run these types on the handle's
/// device, best first: 1 Hopper main-tile (sm_90), 2 Hopper ping-pong, 3 Hopper solo tiles, 4
/// decode's skinny kernel (only under DEEPGEMM_SKINNY), 0 portable (every problem).
/// Writes `min(requestedAlgoCount, available)` ids; a type combination deepgemm does not run
/// has none (SUCCESS, count 0). INVALID_VALUE for `requestedAlgoCount < 1`, a NULL argument
/// or a value that is no cuBLAS enum; NOT_INITIALIZED for a NULL handle.
#[unsafe(no_mangle)]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub extern "C" fn deepgemmLtMatmulAlgoGetIds(
    lightHandle: deepgemmLtHandle_t,
    computeType: deepgemmComputeType_t,
    scaleType: deepgemmDataType_t,
    Atype: deepgemmDataType_t,
    Btype: deepgemmDataType_t,
    Ctype: deepgemmDataType_t,
    Dtype: deepgemmDataType_t,
    requestedAlgoCount: i32,
    algoIdsArray: *mut i32,
    returnAlgoCount: *mut i32,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatmulAlgoGetIds", || {
        let h = try_handle(lightHandle)?;
        check_out(algoIdsArray, "algoIdsArray")?;
        check_out(returnAlgoCount, "returnAlgoCount")?;
        if requestedAlgoCount < 1 {
            return Err(crate::invalid!(
                "requestedAlgoCount = {requestedAlgoCount} < 1"
            ));
        }
        let ids = match types_of(computeType, scaleType, [Atype, Btype, Ctype, Dtype]) {
            Ok(types) => algo::ids_for(&types, &h.backend.device_spec()?),
            Err(Error::NotSupported(why)) => {
                crate::log_info!("deepgemmLtMatmulAlgoGetIds", "no algorithm: {why}");
                Vec::new()
            }
            Err(e) => return Err(e),
        };
        let n = ids.len().min(requestedAlgoCount as usize);
        // SAFETY: non-NULL (check_out); the caller promises room for requestedAlgoCount ints,
        // and n <= requestedAlgoCount. Copied as bytes: the array may be off 4 bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(
                ids.as_ptr().cast::<u8>(),
                algoIdsArray.cast::<u8>(),
                std::mem::size_of_val(&ids[..n]),
            )
        };
        write_out(returnAlgoCount, n as i32)
    })
}

/// Initializes `*algo` as algorithm `algoId` (from deepgemmLtMatmulAlgoGetIds) for these
/// types, with the default configuration: any tile, stages and cluster shape, no split
/// (SPLITK_NUM 1), reduction scheme NONE, no swizzle, custom option 0. A matmul with it runs
/// the best of the family's plans for its problem that the configuration admits (configure
/// it with deepgemmLtMatmulAlgoConfigSetAttribute, check it with deepgemmLtMatmulAlgoCheck).
/// INVALID_VALUE for a NULL `algo`, an id deepgemm does not have or a value that is no cuBLAS
/// enum; NOT_SUPPORTED for an id that does not run these types on the handle's device.
#[unsafe(no_mangle)]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub extern "C" fn deepgemmLtMatmulAlgoInit(
    lightHandle: deepgemmLtHandle_t,
    computeType: deepgemmComputeType_t,
    scaleType: deepgemmDataType_t,
    Atype: deepgemmDataType_t,
    Btype: deepgemmDataType_t,
    Ctype: deepgemmDataType_t,
    Dtype: deepgemmDataType_t,
    algoId: i32,
    algo: *mut deepgemmLtMatmulAlgo_t,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatmulAlgoInit", || {
        let h = try_handle(lightHandle)?;
        check_out(algo, "algo")?;
        let types = types_of(computeType, scaleType, [Atype, Btype, Ctype, Dtype])?;
        algo::check_id(algoId, &types, &h.backend.device_spec()?)?;
        let data = View::configured_words(&Config::init(algoId), &types);
        write_out(algo, deepgemmLtMatmulAlgo_t { data })
    })
}

/// The algo as deepgemm reads it (INVALID_VALUE for NULL or words deepgemm did not write).
fn view(algo: *const deepgemmLtMatmulAlgo_t) -> crate::Result<View> {
    let data = read_algo(algo).ok_or_else(|| crate::invalid!("algo is NULL"))?;
    View::of(&data)
}

/// A capability of an algorithm (from deepgemmLtMatmulAlgoGetHeuristic or
/// deepgemmLtMatmulAlgoInit), cublasLtMatmulAlgoCapAttributes_t. Scalars as cuBLASLt's
/// Get*Attribute: `sizeInBytes` 0 asks for the size in `*sizeWritten`, otherwise it must be the
/// attribute's. TILE_IDS and STAGES_IDS are uint32_t arrays: `sizeInBytes` 0 asks for their
/// bytes (0 for an empty list), otherwise `buf` needs room for all of them. INVALID_VALUE for
/// a NULL `algo`, an algo deepgemm did not make, or an attribute cuBLASLt 13 does not have.
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub extern "C" fn deepgemmLtMatmulAlgoCapGetAttribute(
    algo: *const deepgemmLtMatmulAlgo_t,
    attr: deepgemmLtMatmulAlgoCapAttributes_t,
    buf: *mut c_void,
    sizeInBytes: usize,
    sizeWritten: *mut usize,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatmulAlgoCapGetAttribute", || {
        let v = view(algo)?;
        match algo::cap(v.config().id, v.types().imp(), attr)? {
            Cap::One(value) => get_attribute(Ok(value), buf, sizeInBytes, sizeWritten),
            Cap::List(ids) => {
                let bytes: Vec<u8> = ids.iter().flat_map(|i| i.to_ne_bytes()).collect();
                if sizeInBytes == 0 {
                    if sizeWritten.is_null() {
                        return Err(crate::invalid!("sizeInBytes is 0 and sizeWritten is NULL"));
                    }
                    return write_out(sizeWritten, bytes.len());
                }
                if sizeInBytes < bytes.len() {
                    return Err(crate::invalid!(
                        "sizeInBytes {sizeInBytes} < {} (the list's bytes)",
                        bytes.len()
                    ));
                }
                output_bytes(buf, &bytes)?;
                if !sizeWritten.is_null() {
                    write_out(sizeWritten, bytes.len())?;
                }
                Ok(())
            }
        }
    })
}

/// A configuration attribute of an algorithm (cublasLtMatmulAlgoConfigAttributes_t), with
/// cuBLASLt's Get*Attribute size rules. A heuristic result reports its plan's configuration:
/// its family, its CTA tile as rows x columns of D, its stages as `<depth>xAUTO`, its cluster
/// shape, SPLITK_NUM (the ways each split tile's k is divided, 1 for none), REDUCTION_SCHEME
/// COMPUTE_TYPE where it adds fp32 partials, CUSTOM_OPTION's bits (1 Stream-K's uneven ranges,
/// 2 D computed transposed, 4 ring epilogue, 8 split-K within a cluster pair, 16 a solo tile's
/// whole-SM ring).
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub extern "C" fn deepgemmLtMatmulAlgoConfigGetAttribute(
    algo: *const deepgemmLtMatmulAlgo_t,
    attr: deepgemmLtMatmulAlgoConfigAttributes_t,
    buf: *mut c_void,
    sizeInBytes: usize,
    sizeWritten: *mut usize,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatmulAlgoConfigGetAttribute", || {
        let value: crate::Result<AttrValue> = view(algo).and_then(|v| v.config().get(attr));
        get_attribute(value, buf, sizeInBytes, sizeWritten)
    })
}

/// Sets a configuration attribute of `*algo` from `sizeInBytes` bytes at `buf` (exactly the
/// attribute's size). A changed algo names a configuration, not one plan: a matmul runs the
/// best plan of its problem the configuration admits, and NOT_SUPPORTED when none does
/// (deepgemmLtMatmulAlgoCheck tells in advance); a value set back unchanged leaves the algo as
/// it was. TILE_ID, STAGES_ID and CLUSTER_SHAPE_ID 0 mean any; SPLITK_NUM 0 or 1 none;
/// CUSTOM_OPTION bits: 1 Stream-K, 2 D computed transposed, 4 ring epilogue, 8 split-K within
/// a cluster pair (with SPLITK_NUM 2), 16 a solo tile's whole-SM ring. INVALID_VALUE for a NULL argument,
/// a size mismatch, the read-only ID, or a value that is no cuBLASLt enum.
#[unsafe(no_mangle)]
#[allow(non_snake_case)]
pub extern "C" fn deepgemmLtMatmulAlgoConfigSetAttribute(
    algo: *mut deepgemmLtMatmulAlgo_t,
    attr: deepgemmLtMatmulAlgoConfigAttributes_t,
    buf: *const c_void,
    sizeInBytes: usize,
) -> deepgemmStatus_t {
    ffi_boundary("deepgemmLtMatmulAlgoConfigSetAttribute", || {
        let v = view(algo)?;
        let mut config = v.config();
        config.set(attr, input_bytes(buf, sizeInBytes)?)?;
        if config == v.config() {
            // Unchanged (a profiler setting back what it read): a heuristic result stays
            // the very plan it was.
            return Ok(());
        }
        let data = View::configured_words(&config, &v.types());
        write_out(algo, deepgemmLtMatmulAlgo_t { data })
    })
}

#[cfg(test)]
mod tests {
    use super::super::algo_enums::*;
    use super::*;

    /// The constants the planner uses are cuBLASLt's, as the generated C constants spell them.
    #[test]
    fn planner_constants_are_the_c_ones() {
        use crate::plan::algo::{cap_attr, config_attr, tile_id, tile_shape};
        assert_eq!(tile_id(128, 128), DEEPGEMMLT_MATMUL_TILE_128x128 as u32);
        assert_eq!(tile_id(128, 168), DEEPGEMMLT_MATMUL_TILE_128x168 as u32);
        assert_eq!(tile_id(16, 128), DEEPGEMMLT_MATMUL_TILE_16x128 as u32);
        assert_eq!(tile_id(256, 1), DEEPGEMMLT_MATMUL_TILE_256x1 as u32);
        assert_eq!(tile_id(3, 5), DEEPGEMMLT_MATMUL_TILE_UNDEFINED as u32);
        assert_eq!(
            tile_shape(DEEPGEMMLT_MATMUL_TILE_64x256 as u32),
            Some((64, 256))
        );
        assert_eq!(tile_shape(DEEPGEMMLT_MATMUL_TILE_END as u32), None);
        assert_eq!(
            algo::cluster_id(2, 1),
            DEEPGEMMLT_CLUSTER_SHAPE_2x1x1 as u16
        );
        assert_eq!(
            algo::cluster_id(1, 4),
            DEEPGEMMLT_CLUSTER_SHAPE_1x4x1 as u16
        );
        assert_eq!(algo::CLUSTER_1X1, DEEPGEMMLT_CLUSTER_SHAPE_1x1x1 as u16);
        assert_eq!(
            config_attr::CLUSTER_SHAPE_ID,
            DEEPGEMMLT_ALGO_CONFIG_CLUSTER_SHAPE_ID
        );
        assert_eq!(cap_attr::STAGES_IDS, DEEPGEMMLT_ALGO_CAP_STAGES_IDS);
        assert_eq!(
            cap_attr::POINTER_ARRAY_GROUPED_SUPPORT,
            DEEPGEMMLT_ALGO_CAP_POINTER_ARRAY_GROUPED_SUPPORT
        );
    }
}
