//! Compiles every sm90 kernel variant for sm_90a with NVRTC (no GPU needed) and reads the ptxas
//! report: compilation must succeed, nothing may spill, the entry must start at <= 168
//! registers (the cap setmaxnreg needs with 384 threads), ptxas must not ignore setmaxnreg
//! (warning C7508) nor serialise the wgmma pipeline.
//!
//! Needs libnvrtc.so.13 on the loader path (e.g. `LD_LIBRARY_PATH=/opt/nvrtc/nvidia/cu13/lib`);
//! without it the test fails unless DEEPGEMM_SKIP_NVRTC_TESTS=1. `DEEPGEMM_SM90_CUBIN_DIR=<dir>`
//! writes each variant's CUBIN there, to read its SASS with `cuobjdump -sass` (no GPU needed).

use std::ffi::{CStr, CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};

use cudarc::nvrtc::{result, sys};
use deepgemm::jit::sm90::{options, render};
use deepgemm::plan::sm90::Sm90Variant;

/// The most registers a thread may hold at entry: 65536 / 384 rounded down to a multiple of 8.
const ENTRY_REG_CAP: u32 = 168;

#[derive(Debug)]
struct Report {
    registers: u32,
    spill_stores: u32,
    spill_loads: u32,
    stack_frame: u32,
    log: String,
    cubin: Vec<u8>,
}

fn nvrtc_available() -> bool {
    // cudarc panics when the library (or a symbol) is missing.
    catch_unwind(|| {
        let (mut major, mut minor) = (0, 0);
        // SAFETY: valid out-pointers.
        unsafe { sys::nvrtcVersion(&mut major, &mut minor) }
            .result()
            .is_ok()
    })
    .unwrap_or(false)
}

fn compile(name: &str, src: &str, opts: &[String]) -> Result<Report, String> {
    let csrc = CString::new(src).map_err(|e| e.to_string())?;
    let cname = CString::new(format!("{name}.cu")).map_err(|e| e.to_string())?;
    let prog = result::create_program(&csrc, Some(&cname)).map_err(|e| format!("{e:?}"))?;
    // SAFETY: prog was just created and is destroyed exactly once below.
    let compiled = unsafe { result::compile_program(prog, opts) };
    // SAFETY: as above.
    let log = unsafe { result::get_program_log(prog) }
        .map(|l| {
            // SAFETY: NVRTC returns a NUL-terminated log.
            unsafe { CStr::from_ptr(l.as_ptr() as *const c_char) }
                .to_string_lossy()
                .into_owned()
        })
        .unwrap_or_default();
    let cubin = if compiled.is_ok() {
        let mut size = 0usize;
        // SAFETY: prog compiled successfully; size is a valid out-pointer.
        unsafe { sys::nvrtcGetCUBINSize(prog, &mut size) }
            .result()
            .map_err(|e| format!("{e:?}"))?;
        let mut cubin = vec![0 as c_char; size];
        // SAFETY: the buffer holds `size` bytes.
        unsafe { sys::nvrtcGetCUBIN(prog, cubin.as_mut_ptr()) }
            .result()
            .map_err(|e| format!("{e:?}"))?;
        cubin.into_iter().map(|b| b as u8).collect()
    } else {
        Vec::new()
    };
    // SAFETY: prog came from create_program and is not used afterwards.
    let _ = unsafe { result::destroy_program(prog) };
    compiled.map_err(|e| format!("{e:?}\n{log}"))?;
    let number_before = |needle: &str| -> Option<u32> {
        // "... Used 168 registers, ..." / "0 bytes spill stores"
        log.lines().find_map(|line| {
            let at = line.find(needle)?;
            line[..at].split_whitespace().last()?.parse().ok()
        })
    };
    Ok(Report {
        registers: number_before(" registers")
            .ok_or_else(|| format!("no register count in the ptxas report; its log:\n{log}"))?,
        spill_stores: number_before(" bytes spill stores").ok_or("no spill report")?,
        spill_loads: number_before(" bytes spill loads").ok_or("no spill report")?,
        stack_frame: number_before(" bytes stack frame").ok_or("no stack frame report")?,
        log,
        cubin,
    })
}

/// Whether DEEPGEMM_SM90_VARIANTS (comma-separated name substrings; unset or empty: all)
/// selects the variant named `name`.
fn variant_selected(name: &str) -> bool {
    let filter = std::env::var("DEEPGEMM_SM90_VARIANTS").unwrap_or_default();
    filter.is_empty() || filter.split(',').any(|part| name.contains(part.trim()))
}

/// Each of `variants` compiled by NVRTC with ptxas' report, in order, with its seconds: one
/// compile per variant, spread over the cores (programs are independent).
fn compile_parallel(variants: &[Sm90Variant]) -> Vec<(usize, Result<Report, String>, f64)> {
    let mut opts = options();
    // The report parser needs ptxas' resource lines, which only -v prints.
    opts.push("--ptxas-options=-v".to_string());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(v) = variants.get(i) else { break };
                    let started = std::time::Instant::now();
                    let name = v.name();
                    let src = render(v);
                    let r = catch_unwind(AssertUnwindSafe(|| compile(&name, &src, &opts)))
                        .unwrap_or_else(|_| Err("NVRTC panicked".to_string()));
                    results
                        .lock()
                        .unwrap()
                        .push((i, r, started.elapsed().as_secs_f64()));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(i, _, _)| *i);
    results
}

#[test]
fn every_sm90_variant_compiles_without_spills() {
    if !nvrtc_available() {
        if std::env::var("DEEPGEMM_SKIP_NVRTC_TESTS").as_deref() == Ok("1") {
            eprintln!("NVRTC not found; skipped (DEEPGEMM_SKIP_NVRTC_TESTS=1)");
            return;
        }
        panic!(
            "libnvrtc.so.13 could not be loaded: set LD_LIBRARY_PATH (e.g. \
             /opt/nvrtc/nvidia/cu13/lib) or DEEPGEMM_SKIP_NVRTC_TESTS=1"
        );
    }
    // DEEPGEMM_SM90_VARIANTS=<substring>[,<substring>...]: only the variants whose name
    // contains one of them (quick iterations on one kernel; CI compiles them all).
    let variants: Vec<Sm90Variant> = Sm90Variant::all()
        .into_iter()
        .filter(|v| variant_selected(&v.name()))
        .collect();
    assert!(
        !variants.is_empty(),
        "DEEPGEMM_SM90_VARIANTS selects no variant"
    );
    let results = compile_parallel(&variants);
    assert_eq!(results.len(), variants.len());

    let mut failures = Vec::new();
    eprintln!(
        "{:<48} {:>5} {:>7} {:>6} {:>8}",
        "variant", "regs", "smem", "spill", "cubin"
    );
    for (i, result, seconds) in results {
        let v = &variants[i];
        let name = v.name();
        let report = match result {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{name}: compilation failed: {e}"));
                continue;
            }
        };
        // For reading the SASS (cuobjdump -sass DIR/NAME.cubin) without a GPU.
        if let Ok(dir) = std::env::var("DEEPGEMM_SM90_CUBIN_DIR") {
            let path = std::path::Path::new(&dir).join(format!("{name}.cubin"));
            if let Err(e) = std::fs::write(&path, &report.cubin) {
                failures.push(format!("{name}: writing {}: {e}", path.display()));
            }
        }
        eprintln!(
            "{:<48} {:>5} {:>7} {:>6} {:>8}  ({seconds:.1} s)",
            name,
            report.registers,
            v.smem_bytes(),
            report.spill_stores + report.spill_loads,
            report.cubin.len(),
        );
        let mut problems = Vec::new();
        if report.registers > ENTRY_REG_CAP {
            problems.push(format!(
                "{} registers at entry > {ENTRY_REG_CAP}",
                report.registers
            ));
        }
        if report.spill_stores + report.spill_loads > 0 || report.stack_frame > 0 {
            problems.push(format!(
                "spills: {} B stored, {} B loaded, {} B stack frame",
                report.spill_stores, report.spill_loads, report.stack_frame
            ));
        }
        if report.log.contains("C7508") {
            problems.push("setmaxnreg ignored (C7508)".into());
        }
        if report.log.contains("serialized") {
            problems.push("wgmma serialized by ptxas".into());
        }
        if report.cubin.is_empty() {
            problems.push("empty CUBIN".into());
        }
        if !problems.is_empty() {
            failures.push(format!("{name}: {}\n{}", problems.join("; "), report.log));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn an_ill_formed_kernel_is_reported_not_hidden() {
    // Guards the harness itself: a broken source must fail here, so the test above cannot
    // pass vacuously.
    if !nvrtc_available() {
        return;
    }
    let v = Sm90Variant::all()[0];
    let broken = render(&v).replace(
        "params, tmap_a, tmap_b, tmap_d, tmap_c);",
        "params, tmap_a);",
    );
    assert!(compile("broken", &broken, &options()).is_err());
    // And compiling for plain sm_90 is refused by the kernel's own check.
    let sm90 = vec![
        "--gpu-architecture=sm_90".to_string(),
        "--std=c++17".to_string(),
    ];
    let err = compile("plain_sm90", &render(&v), &sm90).unwrap_err();
    assert!(err.contains("sm_90a"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// On a Hopper GPU: run the kernel and compare with a float64 reference.
//
//   cargo test --release --test nvrtc_sm90 -- --ignored --nocapture
//
// Covers all four transposes and both storage orders, edges in m, n and k, padded leading
// dimensions (the padding of D must stay untouched), every output type, alpha/beta, C aliasing
// D, bias of D's type and fp32, ReLU and GELU, device scalars, batches, the persistent loop
// (more tiles than SMs), and bitwise repeatability; and both epilogues: the TMA-store one
// (16-bit D, beta = 0, aligned D: every epilogue, both D orders, ragged m/n, batches, many tiles
// per CTA) and the general one (fp32 D, beta != 0, or a leading dimension TMA cannot use).
// tf32 (fp32 in and out, COMPUTE_32F_FAST_TF32, K-major A and B) is checked against a reference
// whose inputs are rounded to tf32, within the library's tf32 tolerance (5e-4 relative
// Frobenius) besides the per-element bound.

mod gpu {
    use std::collections::HashMap;
    use std::ffi::CString;
    use std::fmt::Write as _;

    use cudarc::driver::sys::{self as drv, CUfunction, CUmodule, CUresult};
    use deepgemm::plan::DeviceSpec;
    use deepgemm::plan::sm90::{self, DEFAULT_GROUP_M, Sm90Variant, c_tma, tma_store};
    use deepgemm::problem::{GemmPointers, GemmProblem, MatrixSpec, OpSpec, Scalar};
    use deepgemm::runtime::driver;
    use deepgemm::runtime::tensor_map::{
        FLAG_C_TMA, FLAG_D_BOXES, FLAG_D_ROW_MAJOR, FLAG_TMA_STORE, Sm90Args, configure_function,
        launch,
    };
    use deepgemm::types::{Activation, ScalarType, compute_type, cuda_data_type, epilogue, order};

    fn ok(r: CUresult, what: &str) {
        assert_eq!(r, CUresult::CUDA_SUCCESS, "{what}");
    }

    /// Device memory, freed on drop.
    struct DevBuf {
        ptr: u64,
        bytes: usize,
    }

    impl DevBuf {
        fn from(data: &[u8]) -> DevBuf {
            let mut ptr = 0;
            // SAFETY: out-pointer valid; a context is current (driver::enter).
            ok(
                unsafe { drv::cuMemAlloc_v2(&mut ptr, data.len().max(16)) },
                "cuMemAlloc",
            );
            // SAFETY: `ptr` holds at least data.len() bytes.
            ok(
                unsafe { drv::cuMemcpyHtoD_v2(ptr, data.as_ptr().cast(), data.len()) },
                "cuMemcpyHtoD",
            );
            DevBuf {
                ptr,
                bytes: data.len(),
            }
        }
        fn read(&self) -> Vec<u8> {
            let mut out = vec![0u8; self.bytes];
            // SAFETY: both sides hold `bytes` bytes.
            ok(
                unsafe { drv::cuMemcpyDtoH_v2(out.as_mut_ptr().cast(), self.ptr, self.bytes) },
                "cuMemcpyDtoH",
            );
            out
        }
    }

    impl Drop for DevBuf {
        fn drop(&mut self) {
            // SAFETY: allocated by cuMemAlloc, freed once.
            unsafe { drv::cuMemFree_v2(self.ptr) };
        }
    }

    struct Rng(u64);
    impl Rng {
        /// Uniform in [-1, 1).
        fn next(&mut self) -> f32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            ((self.0 >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        }
    }

    /// Appends the bytes of `x` stored as `t`; returns the value they hold.
    fn encode(t: ScalarType, x: f32, out: &mut Vec<u8>) -> f64 {
        match t {
            ScalarType::F32 => {
                out.extend_from_slice(&x.to_le_bytes());
                x as f64
            }
            ScalarType::F16 => {
                let h = half::f16::from_f32(x);
                out.extend_from_slice(&h.to_bits().to_le_bytes());
                h.to_f64()
            }
            ScalarType::BF16 => {
                let h = half::bf16::from_f32(x);
                out.extend_from_slice(&h.to_bits().to_le_bytes());
                h.to_f64()
            }
        }
    }

    fn decode(t: ScalarType, bytes: &[u8], i: usize) -> f64 {
        let s = t.size_bytes();
        let b = &bytes[i * s..(i + 1) * s];
        match t {
            ScalarType::F32 => f32::from_le_bytes(b.try_into().unwrap()) as f64,
            ScalarType::F16 => {
                half::f16::from_bits(u16::from_le_bytes(b.try_into().unwrap())).to_f64()
            }
            ScalarType::BF16 => {
                half::bf16::from_bits(u16::from_le_bytes(b.try_into().unwrap())).to_f64()
            }
        }
    }

    /// Random stored elements: bytes for the device, values for the reference.
    fn matrix(t: ScalarType, elems: usize, rng: &mut Rng) -> (Vec<u8>, Vec<f64>) {
        let mut bytes = Vec::with_capacity(elems * t.size_bytes());
        let vals = (0..elems)
            .map(|_| encode(t, rng.next(), &mut bytes))
            .collect();
        (bytes, vals)
    }

    #[derive(Clone, Copy, Debug)]
    struct Case {
        ab: ScalarType,
        cd: ScalarType,
        /// 128 (cooperative consumers) or 64 (ping-pong, `sm90::PINGPONG_TILES`).
        block_m: u32,
        block_n: u32,
        /// cuBLAS transa / transb (0 = N, 1 = T).
        ta: i32,
        tb: i32,
        /// All four matrices stored row-major instead of column-major.
        row_major: bool,
        m: u64,
        n: u64,
        k: u64,
        batch: i32,
        /// Extra leading-dimension elements for A and B (multiples of 8 keep 16-byte
        /// alignment) and for C and D.
        ab_pad: u64,
        cd_pad: u64,
        alpha: f32,
        beta: f32,
        epilogue: i32,
        bias_f32: bool,
        device_scalars: bool,
        alias: bool,
        /// CTAs per cluster along m (2: B multicast).
        cluster: u32,
        /// CTAs per cluster along n (A multicast: 2 with `cluster: 2`, or 2 or 4 alone).
        cluster_n: u32,
        /// CTAs of a cluster sharing each tile's k-loop (2: split-K cluster).
        split_k: u32,
        /// The epilogue staged in the ring (`Sm90Variant::with_ring_epilogue`; at most one
        /// tile a CTA).
        ring: bool,
        /// The bias runs along n (a swapped problem's: `GemmProblem::bias_along_n`), one
        /// value per column of D.
        bias_col: bool,
        /// One consumer warpgroup, two CTAs an SM (`sm90::SOLO_TILES_N`; `block_m` 64).
        solo: bool,
        /// 128-deep stages (`Sm90Variant::with_deep_stages`: two 128-byte slabs of k a stage).
        deep: bool,
        /// A solo tile with the whole SM's shared memory for its ring, one CTA an SM
        /// (`Sm90Variant::with_full_ring`; 128-deep).
        full_ring: bool,
        /// Ping-pong over 128-row tiles (`sm90::WIDE_PINGPONG_TILES_N`; `block_m` 128).
        wide_pingpong: bool,
    }

    const BASE: Case = Case {
        ab: ScalarType::BF16,
        cd: ScalarType::BF16,
        block_m: 128,
        block_n: 128,
        ta: 1,
        tb: 0,
        row_major: false,
        m: 256,
        n: 256,
        k: 128,
        batch: 1,
        ab_pad: 0,
        cd_pad: 0,
        alpha: 1.0,
        beta: 0.0,
        epilogue: epilogue::DEFAULT,
        bias_f32: false,
        device_scalars: false,
        alias: false,
        cluster: 1,
        cluster_n: 1,
        split_k: 1,
        ring: false,
        bias_col: false,
        solo: false,
        deep: false,
        full_ring: false,
        wide_pingpong: false,
    };

    fn cases() -> Vec<Case> {
        use ScalarType::*;
        let mut v = vec![
            BASE,
            Case {
                block_n: 256,
                ..BASE
            },
            Case {
                block_n: 64,
                ..BASE
            },
            // 128x192 tiles: ragged n (2 tiles + 20 columns), bias + GELU through the TMA
            // store, and fp32 out (general epilogue) with beta, MN-major B.
            Case {
                block_n: 192,
                m: 300,
                n: 404,
                k: 200,
                epilogue: epilogue::GELU_BIAS,
                ..BASE
            },
            Case {
                block_n: 192,
                cd: F32,
                tb: 1,
                m: 257,
                n: 392,
                k: 72,
                beta: 0.5,
                ..BASE
            },
            // Edges in all three dimensions, padded leading dimensions.
            Case {
                m: 300,
                n: 200,
                k: 136,
                ab_pad: 8,
                cd_pad: 5,
                ..BASE
            },
            Case {
                m: 129,
                n: 65,
                k: 8,
                cd_pad: 3,
                block_n: 256,
                ..BASE
            },
            Case {
                m: 1,
                n: 1,
                k: 64,
                block_n: 64,
                ..BASE
            },
            // Persistent loop: 12 x 40 = 480 tiles of 128x64 on 132 SMs; long k.
            Case {
                m: 1536,
                n: 2560,
                k: 128,
                block_n: 64,
                ..BASE
            },
            Case {
                m: 640,
                n: 768,
                k: 1000,
                ab_pad: 8,
                block_n: 256,
                ..BASE
            },
            // Epilogues.
            Case {
                alpha: 0.5,
                beta: -1.25,
                cd_pad: 7,
                ..BASE
            },
            Case {
                alpha: 2.0,
                beta: 0.5,
                alias: true,
                cd_pad: 2,
                ..BASE
            },
            Case {
                epilogue: epilogue::RELU_BIAS,
                m: 200,
                ..BASE
            },
            Case {
                epilogue: epilogue::GELU_BIAS,
                bias_f32: true,
                n: 300,
                ..BASE
            },
            Case {
                epilogue: epilogue::GELU,
                alpha: 3.0,
                ..BASE
            },
            Case {
                alpha: 1.5,
                beta: 0.25,
                device_scalars: true,
                ..BASE
            },
            // Batches.
            Case {
                batch: 3,
                m: 200,
                n: 130,
                k: 72,
                ab_pad: 8,
                cd_pad: 1,
                beta: 1.0,
                epilogue: epilogue::BIAS,
                ..BASE
            },
        ];
        // Every transpose pair in both storage orders, on edge shapes (m, n multiples of 8 so
        // that M/N-major leading dimensions stay 16-byte aligned without padding).
        for row_major in [false, true] {
            for (ta, tb) in [(1, 0), (0, 0), (1, 1), (0, 1)] {
                for block_n in [64, 256] {
                    v.push(Case {
                        ta,
                        tb,
                        row_major,
                        block_n,
                        m: 328,
                        n: 200,
                        k: 104,
                        ab_pad: 16,
                        cd_pad: 3,
                        beta: 0.5,
                        ..BASE
                    });
                }
            }
        }
        v.push(Case {
            ta: 0,
            tb: 1,
            batch: 2,
            m: 136,
            n: 264,
            k: 40,
            ab_pad: 8,
            ..BASE
        });
        // TMA-store epilogue: beta = 0 and 16-bit D whose leading dimension is a multiple of 8
        // elements. Every epilogue, both D orders, both 16-bit types, ragged m and n (tiles of
        // 64, 128 and 256 over n = 200), bias of D's type and fp32.
        let epilogues = [
            epilogue::DEFAULT,
            epilogue::RELU,
            epilogue::BIAS,
            epilogue::RELU_BIAS,
            epilogue::GELU,
            epilogue::GELU_BIAS,
        ];
        for (i, ab) in [BF16, F16].into_iter().enumerate() {
            for row_major in [false, true] {
                for (e, &epi) in epilogues.iter().enumerate() {
                    v.push(Case {
                        ab,
                        cd: ab,
                        row_major,
                        block_n: [64, 128, 256][(e + i) % 3],
                        m: 328,
                        n: 200,
                        k: 136,
                        cd_pad: 8,
                        alpha: 1.5,
                        epilogue: epi,
                        bias_f32: e % 2 == 1,
                        ..BASE
                    });
                }
            }
        }
        v.extend([
            // The second consumer's rows all past m; a single partial box in n.
            Case {
                m: 40,
                n: 8,
                k: 64,
                epilogue: epilogue::RELU_BIAS,
                ..BASE
            },
            // Many tiles per CTA (160 tiles of 128x256): staging buffers reused across tiles.
            Case {
                m: 1280,
                n: 4096,
                k: 64,
                block_n: 256,
                epilogue: epilogue::GELU_BIAS,
                ..BASE
            },
            Case {
                m: 1288,
                n: 4104,
                k: 72,
                block_n: 128,
                row_major: true,
                cd_pad: 8,
                ab: F16,
                cd: F16,
                ..BASE
            },
            // Batches (16-byte aligned batch strides), both orders.
            Case {
                batch: 3,
                m: 200,
                n: 136,
                k: 72,
                ab_pad: 8,
                epilogue: epilogue::BIAS,
                ..BASE
            },
            Case {
                batch: 2,
                m: 136,
                n: 264,
                k: 40,
                row_major: true,
                epilogue: epilogue::GELU,
                ..BASE
            },
            // beta = 0 read from the device: the kernel picks the TMA store itself.
            Case {
                alpha: 0.75,
                beta: 0.0,
                device_scalars: true,
                m: 264,
                epilogue: epilogue::RELU,
                ..BASE
            },
            // beta = 0 but D's leading dimension breaks TMA's 16-byte rule: the general epilogue,
            // plain and with the full epilogue, both orders.
            Case {
                m: 300,
                n: 200,
                cd_pad: 2,
                ..BASE
            },
            Case {
                m: 296,
                n: 200,
                cd_pad: 3,
                row_major: true,
                epilogue: epilogue::GELU_BIAS,
                ab: F16,
                cd: F16,
                ..BASE
            },
            // fp32 D with beta = 0: the general epilogue's plain instantiation.
            Case {
                cd: F32,
                m: 300,
                n: 200,
                block_n: 256,
                alpha: 2.0,
                ..BASE
            },
        ]);
        // Every type combination on one edge shape, with the full epilogue.
        for (ab, cd) in [(BF16, F32), (F16, F16), (F16, F32)] {
            for block_n in [64, 128, 256] {
                for (ta, tb) in [(1, 0), (0, 1)] {
                    v.push(Case {
                        ab,
                        cd,
                        block_n,
                        ta,
                        tb,
                        m: 336,
                        n: 280,
                        k: 200,
                        ab_pad: 8,
                        cd_pad: 3,
                        alpha: 0.75,
                        beta: 0.5,
                        epilogue: epilogue::GELU_BIAS,
                        ..BASE
                    });
                }
            }
        }
        v.extend(tf32_cases());
        v.extend(tf32_nn_cases());
        v.extend(tf32_solo_cases());
        v.extend(narrow_cases());
        v.extend(row_slab_cases());
        v.extend(bias_col_cases());
        v.extend(cluster_cases());
        v.extend(cluster_2x2_cases());
        v.extend(cluster_n_cases());
        v.extend(fill_cases());
        v.extend(pingpong_cases());
        v.extend(wide_pingpong_cases());
        v.extend(column_split_cases());
        v.extend(solo_cases());
        v.extend(split_k_cases());
        v.extend(ring_cases());
        v.extend(c_tma_cases());
        v.extend(deep_cases());
        v
    }

    /// C loaded by TMA into the TMA-store staging (beta != 0, C in D's layout, aligned): both
    /// 16-bit types and D orders, C aliasing D, ragged m and n with tiles moved back from the
    /// edge (a warpgroup's rows and the first boxes left to the tile before), whole boxes and
    /// 16- and 8-column pieces, ping-pong, MN-major A, batches, padded D, device scalars, bias
    /// and activations, and more tiles than SMs (each buffer's barrier through many phases).
    /// 128-deep stages (two 128-byte slabs of k a stage, one TMA box a slab for K-major
    /// operands, a 128-line box for MN-major ones): every layout on the cooperative tiles and
    /// the solo 64x64; k a whole number of 128-deep stages, one slab only (k <= 64: the second
    /// box wholly out of bounds), a last stage with a partial second slab (k % 128 in 65..127)
    /// or a partial first one (1..63); many stages around the short ring (2-5 stages), several
    /// tiles a CTA, ragged m and n, fp32 out, beta with C aliasing D, bias and activations,
    /// batches, fp16, row-major storage.
    fn deep_cases() -> Vec<Case> {
        use ScalarType::*;
        let mut v = Vec::new();
        let layouts = [(1, 0), (0, 0), (1, 1), (0, 1)];
        for (i, &(ta, tb)) in layouts.iter().enumerate() {
            for (j, &(block_m, block_n, solo)) in [
                (128, 64, false),
                (128, 128, false),
                (128, 256, false),
                (64, 64, true),
            ]
            .iter()
            .enumerate()
            {
                let x = i + j;
                v.push(Case {
                    block_m,
                    block_n,
                    solo,
                    deep: true,
                    ta,
                    tb,
                    // An M-major A needs m + 8 (its leading dimension) 16-byte aligned.
                    m: if ta == 1 {
                        [300, 129, 65, 1000][x % 4]
                    } else {
                        [296, 136, 72, 1000][x % 4]
                    },
                    n: [392, 200, 264, 520][(i + 2 * j) % 4],
                    k: [1000, 64, 200, 136, 4096, 8][x % 6],
                    ab_pad: 8,
                    beta: if x % 3 == 0 { 0.5 } else { 0.0 },
                    epilogue: [epilogue::DEFAULT, epilogue::GELU_BIAS, epilogue::RELU][x % 3],
                    ab: [BF16, F16][j % 2],
                    cd: [[BF16, F16][j % 2], F32][(i + j / 2) % 2],
                    ..BASE
                });
            }
        }
        v.extend([
            // The narrow tiles (K-major B): 128x32 over many stages, 128x16 with 8 k in its last stage.
            Case {
                block_n: 32,
                deep: true,
                m: 300,
                n: 40,
                k: 2056,
                ..BASE
            },
            Case {
                block_n: 16,
                deep: true,
                ta: 0,
                m: 136,
                n: 17,
                k: 136,
                cd: F32,
                ..BASE
            },
            // Many tiles a CTA (the ring's phases across tiles), ragged both ways, a bias.
            Case {
                block_n: 64,
                deep: true,
                m: 3000,
                n: 4000,
                k: 392,
                epilogue: epilogue::BIAS,
                ..BASE
            },
            Case {
                block_m: 64,
                block_n: 64,
                solo: true,
                deep: true,
                m: 2049,
                n: 1025,
                k: 1032,
                ..BASE
            },
            // Row-major storage, fp16, batches, device scalars.
            Case {
                block_n: 128,
                deep: true,
                ab: F16,
                cd: F16,
                row_major: true,
                m: 304,
                n: 520,
                k: 264,
                batch: 3,
                device_scalars: true,
                alpha: 0.75,
                epilogue: epilogue::GELU,
                ..BASE
            },
            // The general epilogue on a 16-bit D: C aliasing D, beta 1, an odd D leading
            // dimension (no TMA store).
            Case {
                block_n: 64,
                deep: true,
                m: 333,
                n: 777,
                k: 520,
                cd_pad: 3,
                alpha: 0.5,
                beta: 1.0,
                alias: true,
                epilogue: epilogue::RELU_BIAS,
                ..BASE
            },
        ]);
        // The solo tiles with the whole SM's ring (`with_full_ring`: 6 stages of 64x64, 4 of
        // 64x128, one CTA an SM): every layout on each, the kinds of last stage, one tile a
        // CTA and many (the ring's phases across tiles), fp32 out, beta, activations.
        for (i, &(ta, tb)) in layouts.iter().enumerate() {
            for (j, block_n) in [64u32, 128].into_iter().enumerate() {
                let x = i + 2 * j;
                v.push(Case {
                    block_m: 64,
                    block_n,
                    solo: true,
                    deep: true,
                    full_ring: true,
                    ta,
                    tb,
                    m: if ta == 1 {
                        [300, 65, 2049, 1000][x % 4]
                    } else {
                        [296, 72, 2048, 1000][x % 4]
                    },
                    // An N-major B needs n + 8 16-byte aligned.
                    n: if tb == 1 {
                        [392, 1024, 200, 264][(x + j) % 4]
                    } else {
                        [392, 1025, 200, 263][(x + j) % 4]
                    },
                    k: [2056, 64, 200, 8, 1000, 136][x % 6],
                    ab_pad: 8,
                    beta: if x % 3 == 1 { 0.5 } else { 0.0 },
                    epilogue: [epilogue::DEFAULT, epilogue::GELU_BIAS, epilogue::RELU][x % 3],
                    ab: [BF16, F16][i % 2],
                    cd: [[BF16, F16][i % 2], F32][(i / 2 + j) % 2],
                    ..BASE
                });
            }
        }
        // The full-ring 64x64 as `plan::solo_for_short` plans it by default (session 46): one
        // tile a CTA over a k of 17 64-k slabs (the last stage half empty), beta != 0 with C
        // loaded by TMA (16-bit D, aligned) or C aliasing D, both D orders, a bias.
        for (x, (ta, tb)) in layouts.into_iter().enumerate() {
            v.push(Case {
                block_m: 64,
                block_n: 64,
                solo: true,
                deep: true,
                full_ring: true,
                ta,
                tb,
                row_major: x % 2 == 1,
                alias: x < 2,
                m: 328,
                n: 392,
                k: 1064,
                beta: [0.5, -1.0, 1.0, 0.25][x],
                alpha: [1.0, 0.5, 2.0, 1.0][x],
                epilogue: [
                    epilogue::BIAS,
                    epilogue::DEFAULT,
                    epilogue::RELU_BIAS,
                    epilogue::GELU,
                ][x],
                ab: [BF16, F16][x % 2],
                cd: [BF16, F16][x % 2],
                ..BASE
            });
        }
        v
    }

    fn c_tma_cases() -> Vec<Case> {
        use ScalarType::*;
        vec![
            Case {
                block_n: 256,
                m: 264,
                n: 520,
                k: 200,
                beta: 0.5,
                ..BASE
            },
            Case {
                block_n: 256,
                ab: F16,
                cd: F16,
                row_major: true,
                m: 200,
                n: 776,
                k: 136,
                beta: 1.0,
                alias: true,
                epilogue: epilogue::GELU_BIAS,
                ..BASE
            },
            Case {
                m: 2048,
                n: 1536,
                k: 64,
                beta: -1.0,
                alias: true,
                ..BASE
            },
            Case {
                block_n: 176,
                m: 520,
                n: 700,
                k: 72,
                beta: 0.25,
                epilogue: epilogue::RELU_BIAS,
                ..BASE
            },
            Case {
                block_n: 168,
                ab: F16,
                cd: F16,
                m: 304,
                n: 353,
                k: 136,
                beta: 0.5,
                alias: true,
                ..BASE
            },
            Case {
                block_m: 64,
                block_n: 192,
                m: 336,
                n: 600,
                k: 264,
                beta: 0.5,
                epilogue: epilogue::GELU,
                ..BASE
            },
            Case {
                block_m: 64,
                block_n: 256,
                row_major: true,
                m: 200,
                n: 304,
                k: 72,
                batch: 3,
                alpha: 0.75,
                beta: 1.0,
                device_scalars: true,
                ..BASE
            },
            Case {
                block_n: 192,
                ta: 0,
                m: 264,
                n: 404,
                k: 520,
                batch: 2,
                cd_pad: 8,
                beta: 0.5,
                ..BASE
            },
        ]
    }

    /// Ring epilogues (session 17: the staging in the ring's A tiles, a stage
    /// more, one tile a CTA): the TMA-store epilogue (ragged n and m, bias + GELU), the general
    /// one (beta with C aliasing D; an odd leading dimension of D), a fill width 8 past a
    /// multiple of 16, fp16, device scalars, batches, and a full wave of 132 tiles (TN only:
    /// the only layout they are built for).
    fn ring_cases() -> Vec<Case> {
        use ScalarType::*;
        let ring = Case { ring: true, ..BASE };
        vec![
            Case {
                block_n: 192,
                m: 300,
                n: 404,
                k: 1000,
                epilogue: epilogue::GELU_BIAS,
                ..ring
            },
            Case {
                block_n: 192,
                m: 257,
                n: 392,
                k: 200,
                beta: 0.5,
                alias: true,
                ..ring
            },
            Case {
                block_n: 128,
                m: 200,
                n: 300,
                k: 264,
                cd_pad: 3,
                ..ring
            },
            Case {
                block_n: 64,
                m: 129,
                n: 65,
                k: 520,
                ab: F16,
                cd: F16,
                ..ring
            },
            Case {
                block_n: 168,
                m: 300,
                n: 353,
                k: 136,
                ab_pad: 8,
                ..ring
            },
            Case {
                block_n: 232,
                m: 136,
                n: 500,
                k: 72,
                epilogue: epilogue::RELU_BIAS,
                ..ring
            },
            Case {
                block_n: 192,
                m: 304,
                n: 200,
                k: 200,
                alpha: 0.5,
                device_scalars: true,
                ..ring
            },
            Case {
                block_n: 128,
                m: 136,
                n: 264,
                k: 1000,
                beta: 1.0,
                ..ring
            },
            Case {
                block_n: 192,
                batch: 3,
                m: 200,
                n: 130,
                k: 72,
                cd_pad: 1,
                ..ring
            },
            // 12 x 11 = 132 tiles: every CTA one tile.
            Case {
                block_n: 192,
                m: 1536,
                n: 2112,
                k: 128,
                ..ring
            },
        ]
    }

    /// Split-K clusters (`Sm90Variant::with_split_k`: the two CTAs of a cluster compute the two
    /// halves of each tile's k-loop, the partial added through distributed shared memory): every
    /// width and layout they are built for, both 16-bit types and both orders, unequal halves
    /// (odd k-iteration counts) and the fewest k-iterations (one each), m = 1 and ragged m and n,
    /// the TMA-store epilogue with bias + GELU, the general one with beta, C aliasing D and fp32
    /// out, tf32, batches, device scalars, and more tiles than clusters (the hand-over
    /// barriers' phases across tiles).
    fn split_k_cases() -> Vec<Case> {
        use ScalarType::*;
        let ks = Case {
            split_k: 2,
            block_n: 64,
            ..BASE
        };
        vec![
            Case {
                m: 300,
                n: 200,
                k: 136,
                cd_pad: 8,
                alpha: 1.5,
                epilogue: epilogue::GELU_BIAS,
                ..ks
            },
            Case {
                row_major: true,
                m: 136,
                n: 264,
                k: 1000,
                beta: 0.5,
                cd_pad: 3,
                epilogue: epilogue::BIAS,
                ..ks
            },
            Case {
                ta: 0,
                m: 136,
                n: 127,
                k: 72,
                ab_pad: 8,
                ..ks
            },
            Case {
                tb: 1,
                m: 17,
                n: 200,
                k: 200,
                ab_pad: 8,
                epilogue: epilogue::RELU,
                ..ks
            },
            Case {
                ta: 0,
                tb: 1,
                ab: F16,
                cd: F16,
                m: 264,
                n: 136,
                k: 264,
                beta: 1.0,
                ..ks
            },
            Case {
                block_n: 32,
                m: 1,
                n: 300,
                k: 1000,
                cd: F32,
                beta: 1.0,
                alias: true,
                ..ks
            },
            Case {
                block_n: 32,
                ta: 0,
                ab: F16,
                cd: F16,
                m: 200,
                n: 33,
                k: 136,
                epilogue: epilogue::GELU,
                ..ks
            },
            Case {
                block_n: 16,
                m: 1,
                n: 8,
                k: 4096,
                ..ks
            },
            // 2 x 70 tiles of 128x16 and 10 x 14 of 128x64 over 66 clusters.
            Case {
                block_n: 16,
                m: 129,
                n: 16 * 70,
                k: 200,
                beta: 0.5,
                ..ks
            },
            Case {
                m: 1280,
                n: 64 * 14,
                k: 136,
                epilogue: epilogue::GELU,
                ..ks
            },
            Case {
                ab: F32,
                cd: F32,
                m: 300,
                n: 200,
                k: 100,
                epilogue: epilogue::BIAS,
                ..ks
            },
            Case {
                block_n: 16,
                ab: F32,
                cd: F32,
                m: 136,
                n: 40,
                k: 40,
                ..ks
            },
            Case {
                block_n: 32,
                batch: 3,
                m: 200,
                n: 130,
                k: 72,
                ab_pad: 8,
                epilogue: epilogue::BIAS,
                ..ks
            },
            Case {
                alpha: 0.75,
                device_scalars: true,
                m: 264,
                epilogue: epilogue::RELU,
                ..ks
            },
        ]
    }

    /// The widths between the powers of two (`sm90::FILL_TILES`, K-major B: TN and NN): every
    /// width; a tile ending in a partial 64-column box (16-column TMA stores, some past n),
    /// ragged n inside the last box, the TMA-store epilogue with bias + activations, the general
    /// one (fp32 out, beta, C aliasing D) in 16-column rounds (widths that are not whole
    /// 32-column rounds), fp16, tf32 (NN: A through registers), batches, device scalars, and
    /// the persistent loop over many tiles.
    fn fill_cases() -> Vec<Case> {
        use ScalarType::*;
        let mut v = Vec::new();
        for (i, &(_, block_n)) in sm90::FILL_TILES.iter().enumerate() {
            let ta = if i % 2 == 0 { 1 } else { 0 };
            v.push(Case {
                block_n,
                ta,
                m: [300, 136, 257, 64][i % 4],
                n: 2 * block_n as u64 + [52, 17, 100, 1][i % 4],
                k: [200, 72, 136, 1000][i % 4],
                ab_pad: 8,
                epilogue: [
                    epilogue::GELU_BIAS,
                    epilogue::DEFAULT,
                    epilogue::RELU_BIAS,
                    epilogue::BIAS,
                ][i % 4],
                ab: [BF16, F16][i % 2],
                cd: [BF16, F16][i % 2],
                ..BASE
            });
            v.push(Case {
                block_n,
                ta,
                m: 200,
                n: block_n as u64 + 40,
                k: 264,
                cd: F32,
                beta: 0.5,
                cd_pad: 3,
                epilogue: epilogue::GELU,
                ..BASE
            });
            v.push(Case {
                block_n,
                ta: 1 - ta,
                ab: F32,
                cd: F32,
                m: 136,
                n: 3 * block_n as u64 - 8,
                k: 100,
                alpha: 0.5,
                beta: 1.0,
                alias: true,
                ..BASE
            });
        }
        v.extend([
            // 12 x 23 = 276 tiles of 128x112 over the SMs.
            Case {
                block_n: 112,
                m: 1536,
                n: 2560,
                k: 128,
                ..BASE
            },
            Case {
                block_n: 176,
                ab: F16,
                cd: F16,
                m: 520,
                n: 700,
                k: 72,
                batch: 3,
                device_scalars: true,
                alpha: 0.75,
                epilogue: epilogue::RELU,
                ..BASE
            },
        ]);
        v
    }

    /// Row-major D at the fill widths (`sm90::FILL_TILES`): the TMA-store epilogue in slabs of
    /// 16 columns (32-byte lines, 32-byte swizzle) or 8 (16-byte lines), every activation and
    /// bias, both 16-bit types, n ending inside a slab, a box and a tile (multiples of 8: TMA
    /// stores whole 16-byte units), one past them (the general epilogue), batches, and beta
    /// != 0 (C loaded by TMA into 16-column slabs, with a device beta; the general epilogue
    /// with 8-column ones).
    fn row_slab_cases() -> Vec<Case> {
        use ScalarType::*;
        let mut v = Vec::new();
        for (i, &(_, block_n)) in sm90::FILL_TILES.iter().enumerate() {
            v.push(Case {
                block_n,
                row_major: true,
                ta: (i % 2) as i32,
                tb: 1,
                m: [300, 136, 257, 64][i % 4],
                n: 2 * block_n as u64 + [24, 8, 40, 56][i % 4],
                k: [200, 72, 136, 1000][i % 4],
                epilogue: [
                    epilogue::GELU_BIAS,
                    epilogue::DEFAULT,
                    epilogue::RELU_BIAS,
                    epilogue::BIAS,
                ][i % 4],
                ab: [BF16, F16][i % 2],
                cd: [BF16, F16][i % 2],
                batch: [1, 1, 2, 1][i % 4],
                ..BASE
            });
        }
        v.extend([
            // Ragged n (not a multiple of 8): the general epilogue.
            Case {
                block_n: 224,
                row_major: true,
                tb: 1,
                m: 200,
                n: 461,
                k: 64,
                epilogue: epilogue::BIAS,
                ..BASE
            },
            // beta != 0: the general epilogue with 8-column slabs (in place), C by TMA into
            // 16-column ones (a device beta, GELU and a bias).
            Case {
                block_n: 168,
                row_major: true,
                tb: 1,
                m: 136,
                n: 336,
                k: 128,
                beta: 0.5,
                alias: true,
                ..BASE
            },
            Case {
                block_n: 208,
                row_major: true,
                tb: 1,
                m: 264,
                n: 440,
                k: 200,
                beta: -1.0,
                alpha: 0.5,
                device_scalars: true,
                epilogue: epilogue::GELU_BIAS,
                cd: F16,
                ab: F16,
                ..BASE
            },
            // Many tiles a CTA, a device beta of 0 (the kernel's own choice of epilogue).
            Case {
                block_n: 176,
                row_major: true,
                tb: 1,
                m: 2048,
                n: 2816,
                k: 64,
                device_scalars: true,
                ..BASE
            },
        ]);
        v
    }

    /// A bias along n (the bias of a swapped problem) on the 128 x 64 tiles: through the
    /// TMA-store epilogue (row- and column-major D, fp32 and 16-bit bias, every activation,
    /// batches, ragged n inside a box, beta != 0 with C by TMA) and through the general
    /// epilogue (an fp32 D, a ragged D line); on the wider tiles that add it (128-row, widths
    /// a multiple of 16 up to 240: `Sm90Variant::tma_bias_col`) through the TMA-store
    /// epilogue's instantiations with it, in whole boxes and 16-column slabs of both D orders,
    /// with and without C.
    fn bias_col_cases() -> Vec<Case> {
        use ScalarType::*;
        let mut v = Vec::new();
        for (i, &(m, n)) in [(264u64, 168u64), (136, 136), (200, 88)].iter().enumerate() {
            for row_major in [false, true] {
                v.push(Case {
                    block_n: 64,
                    row_major,
                    tb: if row_major { 1 } else { 0 },
                    bias_col: true,
                    m,
                    n,
                    k: [136, 64, 520][i % 3],
                    epilogue: [epilogue::BIAS, epilogue::GELU_BIAS, epilogue::RELU_BIAS][i % 3],
                    bias_f32: i % 2 == 1,
                    ab: [BF16, F16][i % 2],
                    cd: [BF16, F16][i % 2],
                    batch: if i == 2 { 3 } else { 1 },
                    alpha: if i == 4 { 0.5 } else { 1.0 },
                    ..BASE
                });
            }
        }
        // The wider tiles: whole boxes (192, 128), 16-column slabs (240, 224, 176, 96), n
        // ending inside a box or a slab, past a tile, several tiles a CTA along n.
        for (i, &block_n) in [240u32, 224, 192, 176, 128, 96].iter().enumerate() {
            for row_major in [false, true] {
                v.push(Case {
                    block_n,
                    row_major,
                    tb: if row_major { 1 } else { 0 },
                    bias_col: true,
                    m: [264, 136, 200][i % 3],
                    n: [3, 2, 5][i % 3] * block_n as u64 + [40, 8, 24][i % 3],
                    k: [136, 64, 520][i % 3],
                    epilogue: [epilogue::BIAS, epilogue::GELU_BIAS, epilogue::RELU_BIAS][i % 3],
                    bias_f32: i % 2 == 1,
                    ab: [BF16, F16][i % 2],
                    cd: [BF16, F16][i % 2],
                    batch: if i == 2 { 2 } else { 1 },
                    alpha: if i == 3 { 0.5 } else { 1.0 },
                    // beta != 0 with C loaded by TMA (the instantiations with C and the bias),
                    // in place, on the device.
                    beta: [0.0, 0.75, -0.5][(i + row_major as usize) % 3],
                    alias: i % 2 == 0,
                    device_scalars: i == 1,
                    ..BASE
                });
            }
        }
        v.extend([
            // beta != 0 with C loaded by TMA, in place, on the device.
            Case {
                block_n: 64,
                bias_col: true,
                row_major: true,
                tb: 1,
                m: 136,
                n: 200,
                k: 64,
                beta: 0.75,
                alias: true,
                device_scalars: true,
                epilogue: epilogue::RELU_BIAS,
                ..BASE
            },
            // The general epilogue: a row-major D whose lines (n = 147) are not whole 16-byte
            // units, with beta != 0; an fp32 D.
            Case {
                block_n: 64,
                bias_col: true,
                row_major: true,
                tb: 1,
                m: 200,
                n: 147,
                k: 72,
                beta: 0.5,
                epilogue: epilogue::GELU_BIAS,
                ..BASE
            },
            Case {
                block_n: 64,
                bias_col: true,
                cd: F32,
                m: 131,
                n: 200,
                k: 64,
                epilogue: epilogue::BIAS,
                ..BASE
            },
        ]);
        v
    }

    /// Clusters of 2 along m with B multicast: every layout and cluster tile, an odd tile-row
    /// count (the last pair's second CTA is past m: it still multicasts its B share), ragged n,
    /// many tiles per cluster (the persistent loop), the TMA-store and general epilogues, bias +
    /// activations, fp32 out, batches, tf32.
    fn cluster_cases() -> Vec<Case> {
        use ScalarType::*;
        let mut v = Vec::new();
        for (i, (ta, tb)) in [(1, 0), (0, 0), (1, 1), (0, 1)].into_iter().enumerate() {
            for (j, block_n) in [256, 192, 128].into_iter().enumerate() {
                v.push(Case {
                    cluster: 2,
                    ta,
                    tb,
                    block_n,
                    m: [304, 520, 136][j],
                    n: [392, 200, 264][(i + j) % 3],
                    k: [200, 72, 1000][(i + j) % 3],
                    ab_pad: 8,
                    beta: if (i + j) % 2 == 0 { 0.0 } else { 0.5 },
                    epilogue: [epilogue::DEFAULT, epilogue::GELU_BIAS, epilogue::RELU][(i + j) % 3],
                    ..BASE
                });
            }
        }
        v.extend([
            // 24 x 16 = 384 tiles of 128x256: 192 pairs over the resident clusters.
            Case {
                cluster: 2,
                block_n: 256,
                m: 3072,
                n: 4096,
                k: 128,
                ..BASE
            },
            Case {
                cluster: 2,
                block_n: 128,
                ab: F16,
                cd: F32,
                m: 1000,
                n: 1000,
                k: 264,
                batch: 2,
                epilogue: epilogue::BIAS,
                ..BASE
            },
            Case {
                cluster: 2,
                block_n: 192,
                ab: F32,
                cd: F32,
                m: 129,
                n: 300,
                k: 100,
                alpha: 0.5,
                beta: 1.0,
                ..BASE
            },
            // tf32 NN: A (M-major) through registers, B multicast (clusters of 2 x 1, session 59).
            Case {
                cluster: 2,
                ta: 0,
                tb: 0,
                block_n: 256,
                ab: F32,
                cd: F32,
                m: 392,
                n: 520,
                k: 200,
                ab_pad: 4,
                beta: 0.5,
                epilogue: epilogue::BIAS,
                ..BASE
            },
            // The persistent loop at a fill width: 23 x 20 = 460 tiles of 128x208.
            Case {
                cluster: 2,
                ta: 0,
                tb: 0,
                block_n: 208,
                ab: F32,
                cd: F32,
                m: 2944,
                n: 4100,
                k: 96,
                ..BASE
            },
        ]);
        v
    }

    /// Clusters of 2 x 2 (A multicast along each tile row, B along each tile column; built in
    /// session 19, first run in `20b`): every layout and tile, odd tile-row and tile-column counts
    /// (CTAs past m or n still multicast their shares), the persistent loop, both epilogues,
    /// beta, fp32 out, batches, tf32.
    fn cluster_2x2_cases() -> Vec<Case> {
        use ScalarType::*;
        let mut v = Vec::new();
        for (i, (ta, tb)) in [(1, 0), (0, 0), (1, 1), (0, 1)].into_iter().enumerate() {
            for (j, block_n) in [256, 128].into_iter().enumerate() {
                v.push(Case {
                    cluster: 2,
                    cluster_n: 2,
                    block_n,
                    ta,
                    tb,
                    m: [296, 136, 520][(i + j) % 3],
                    n: [392, 264, 648][(i + j) % 3],
                    k: [200, 72, 1000][(i + j) % 3],
                    ab_pad: 8,
                    beta: if (i + j) % 2 == 0 { 0.0 } else { 0.5 },
                    epilogue: [epilogue::DEFAULT, epilogue::GELU_BIAS, epilogue::RELU][(i + j) % 3],
                    ..BASE
                });
            }
        }
        v.extend([
            // 24 x 32 = 768 tiles of 128x128: 192 blocks over the resident clusters.
            Case {
                cluster: 2,
                cluster_n: 2,
                m: 3072,
                n: 4096,
                k: 128,
                ..BASE
            },
            Case {
                cluster: 2,
                cluster_n: 2,
                block_n: 256,
                ab: F16,
                cd: F32,
                m: 1000,
                n: 1000,
                k: 264,
                batch: 2,
                epilogue: epilogue::BIAS,
                ..BASE
            },
            Case {
                cluster: 2,
                cluster_n: 2,
                ab: F32,
                cd: F32,
                m: 129,
                n: 300,
                k: 100,
                alpha: 0.5,
                beta: 1.0,
                ..BASE
            },
        ]);
        v
    }

    /// Clusters along n (1 x 2, 1 x 4: A multicast along each tile row, B unclustered; built in
    /// session 20, first run in `21a`): every width and layout built, tile-column counts that are not
    /// a multiple of the cluster (CTAs past n still multicast their shares of A), ragged m, short
    /// and long k, both epilogues, beta, fp32 out, fp16, batches, and the persistent loop.
    fn cluster_n_cases() -> Vec<Case> {
        use ScalarType::*;
        let mut v = Vec::new();
        let layouts: [(i32, i32, &[u32], &[u32]); 4] = [
            (1, 0, &[16, 32, 64, 96], &[2, 4]),
            (0, 0, &[16, 32, 64, 96], &[2]),
            (1, 1, &[64], &[2, 4]),
            (0, 1, &[64], &[2]),
        ];
        let mut i = 0usize;
        for (ta, tb, widths, clusters) in layouts {
            for &block_n in widths {
                for &cluster_n in clusters {
                    v.push(Case {
                        cluster_n,
                        block_n,
                        ta,
                        tb,
                        // 5 or 6 tile columns (one past n for 1 x 2 at 5, up to three for 1 x 4);
                        // m and n multiples of 8: every leading dimension on 16 bytes (the fill
                        // widths store only by TMA; M- and N-major operands load only by it).
                        m: [296, 136, 520, 8][i % 4],
                        n: block_n as u64 * (5 + i as u64 % 2) - 8,
                        k: [200, 72, 1000, 4096][i % 4],
                        ab: if i % 5 == 4 { F16 } else { BF16 },
                        cd: if i % 3 == 2 {
                            F32
                        } else if i % 5 == 4 {
                            F16
                        } else {
                            BF16
                        },
                        ab_pad: 8 * (i as u64 % 2),
                        beta: if i % 2 == 0 { 0.0 } else { 0.5 },
                        epilogue: [epilogue::DEFAULT, epilogue::GELU_BIAS, epilogue::RELU][i % 3],
                        batch: 1 + (i % 2) as i32,
                        ..BASE
                    });
                    i += 1;
                }
            }
        }
        // 16 x 32 = 512 tiles of 128x64: 128 blocks of 1 x 4 over the 30 clusters that fit.
        v.push(Case {
            cluster_n: 4,
            block_n: 64,
            m: 2048,
            n: 2048,
            k: 64,
            ..BASE
        });
        v
    }

    /// Ping-pong (64-row tiles, one consumer warpgroup each, in turn): every layout and width;
    /// ragged m (a last tile of 1 row) and n; CTAs with one, two, or odd and even numbers of tiles (the consumers' turns and
    /// the stage positions the idle one skips); short and long k (k-steps of one tile wrapping
    /// the ring several times); both epilogues with bias and activations, beta with C aliasing
    /// D, fp32 out, row-major storage, fp16, batches and device scalars.
    fn pingpong_cases() -> Vec<Case> {
        use ScalarType::*;
        let tiles: Vec<u32> = sm90::PINGPONG_TILES.iter().map(|&(_, n)| n).collect();
        let mut v = sixty_four_row_cases(&tiles, false);
        v.extend([
            // 48 x 16 = 768 tiles of 64x256: 5-6 per CTA, 2-3 per consumer.
            Case {
                block_m: 64,
                block_n: 256,
                m: 3072,
                n: 4096,
                k: 256,
                ..BASE
            },
            Case {
                block_m: 64,
                block_n: 256,
                m: 3000,
                n: 4000,
                k: 136,
                epilogue: epilogue::BIAS,
                ..BASE
            },
            // Row-major storage (row-major TMA store), fp16, batches, device scalars.
            Case {
                block_m: 64,
                block_n: 128,
                ab: F16,
                cd: F16,
                row_major: true,
                m: 304,
                n: 520,
                k: 264,
                batch: 3,
                device_scalars: true,
                alpha: 0.75,
                epilogue: epilogue::GELU,
                ..BASE
            },
            // The general epilogue on a 16-bit D: C aliasing D, beta 1, an odd D leading
            // dimension (no TMA store).
            Case {
                block_m: 64,
                block_n: 192,
                m: 333,
                n: 777,
                k: 520,
                cd_pad: 3,
                alpha: 0.5,
                beta: 1.0,
                alias: true,
                epilogue: epilogue::RELU_BIAS,
                ..BASE
            },
        ]);
        v
    }

    /// Wide ping-pong (128-row tiles, each consumer's two m64 blocks, in turn): every layout,
    /// both 16-bit types, ragged m (the second block past m, or a last tile of 1 row) and n;
    /// CTAs with several tiles each (the turns) and with one; short and long k; the TMA-store
    /// epilogue with bias and activations, the general one with beta (C aliasing D, fp32 out,
    /// an odd D leading dimension), row-major storage, batches, device scalars, clusters of
    /// 2 x 1.
    fn wide_pingpong_cases() -> Vec<Case> {
        use ScalarType::*;
        let wide = Case {
            wide_pingpong: true,
            ..BASE
        };
        let layouts = [(1, 0), (0, 0), (1, 1), (0, 1)];
        let mut v = Vec::new();
        for (x, &(ta, tb)) in layouts.iter().enumerate() {
            // 23 x 19 = 437 tiles: 3-4 a CTA, the TMA-store epilogue (a column-major D's m a
            // multiple of 8); the last tile row 72 rows (its second block partly past m) or 8
            // (moved back 64 rows: its first block is the tile before's and skipped).
            v.push(Case {
                ta,
                tb,
                ab: if x % 2 == 0 { BF16 } else { F16 },
                cd: if x % 2 == 0 { BF16 } else { F16 },
                m: [2888, 2824][x % 2],
                n: if tb == 1 { 2376 } else { 2380 },
                k: [136, 520, 72, 1032][x],
                epilogue: [
                    epilogue::DEFAULT,
                    epilogue::GELU_BIAS,
                    epilogue::RELU,
                    epilogue::BIAS,
                ][x],
                ..wide
            });
            // One tile a CTA, beta (general epilogue), fp32 out or C aliasing D.
            v.push(Case {
                ta,
                tb,
                cd: if x % 2 == 0 { F32 } else { BF16 },
                alias: x % 2 == 1,
                m: if ta == 0 { 296 } else { 300 },
                n: 200,
                k: 264,
                ab_pad: 8,
                cd_pad: if x % 2 == 1 { 3 } else { 0 },
                alpha: 0.5,
                beta: [0.5, 1.0, -1.0, 0.25][x],
                epilogue: [
                    epilogue::GELU,
                    epilogue::DEFAULT,
                    epilogue::RELU_BIAS,
                    epilogue::GELU_BIAS,
                ][x],
                ..wide
            });
        }
        v.extend([
            // A last tile row of 1 row, several tiles a CTA, the general epilogue (beta, C
            // aliasing D).
            Case {
                m: 2689,
                n: 1000,
                k: 200,
                beta: -1.0,
                alias: true,
                epilogue: epilogue::RELU,
                ..wide
            },
            // Row-major storage, fp16, batches, device scalars.
            Case {
                ab: F16,
                cd: F16,
                row_major: true,
                m: 520,
                n: 904,
                k: 264,
                batch: 3,
                device_scalars: true,
                alpha: 0.75,
                beta: 0.5,
                epilogue: epilogue::GELU,
                ..wide
            },
            // Clusters of 2 x 1 (B multicast): an odd number of tile rows (23, the last of 8
            // rows: the last cluster's second tile wholly past m), several tiles a cluster,
            // bias + GELU through the TMA store; fp32 out with beta.
            Case {
                cluster: 2,
                m: 2824,
                n: 2304,
                k: 200,
                epilogue: epilogue::GELU_BIAS,
                bias_f32: true,
                ..wide
            },
            Case {
                cluster: 2,
                cd: F32,
                ta: 0,
                m: 600,
                n: 400,
                k: 1032,
                beta: 0.5,
                ..wide
            },
        ]);
        v
    }

    /// Column-split 192-row tiles (`sm90::COLUMN_SPLIT_TILES_N`: two consumers, each every
    /// row in three m64 blocks and half the columns): TN unclustered, 2 x 1 and 1 x 2, NN
    /// (an M-major A, session 77) unclustered and 2 x 1, each width in turn. Per form: several
    /// tiles a CTA with a last tile row of 8 or 40 rows (the origin moved back by whole 64s,
    /// blocks skipped) through the TMA store; and a small problem whose last tile column holds
    /// 58 columns (consumer 1's half wholly past n), beta with fp32 D or C aliasing an
    /// unaligned D (the general epilogue). Row-major storage and an fp32 bias besides. (Until
    /// session 78 only the bench's checks and gpu_matmul under the switches ran them.)
    fn column_split_cases() -> Vec<Case> {
        use ScalarType::*;
        let cs = Case {
            block_m: 192,
            ..BASE
        };
        let forms = [(1, 1, 1), (1, 2, 1), (1, 1, 2), (0, 1, 1), (0, 2, 1)];
        let mut v = Vec::new();
        for (i, &(ta, cluster, cluster_n)) in forms.iter().enumerate() {
            let block_n = sm90::COLUMN_SPLIT_TILES_N[i % sm90::COLUMN_SPLIT_TILES_N.len()];
            v.push(Case {
                ta,
                cluster,
                cluster_n,
                block_n,
                ab: if i % 2 == 0 { BF16 } else { F16 },
                cd: if i % 2 == 0 { BF16 } else { F16 },
                m: [2888, 2920][i % 2],
                n: 2380,
                k: [136, 520, 1032, 72, 264][i],
                epilogue: [
                    epilogue::DEFAULT,
                    epilogue::GELU_BIAS,
                    epilogue::RELU,
                    epilogue::BIAS,
                    epilogue::GELU,
                ][i],
                ..cs
            });
            v.push(Case {
                ta,
                cluster,
                cluster_n,
                block_n,
                ab: if i % 2 == 0 { F16 } else { BF16 },
                cd: if i % 2 == 0 { F32 } else { BF16 },
                alias: i % 2 == 1,
                cd_pad: if i % 2 == 1 { 3 } else { 0 },
                m: [200, 392, 1000][i % 3],
                n: block_n as u64 + 58,
                k: 264,
                alpha: 0.5,
                beta: [0.5, 1.0, -1.0, 0.25, 0.5][i],
                epilogue: [
                    epilogue::GELU,
                    epilogue::RELU_BIAS,
                    epilogue::DEFAULT,
                    epilogue::GELU_BIAS,
                    epilogue::BIAS,
                ][i],
                ..cs
            });
        }
        v.extend([
            // Row-major storage (a TT problem computed as NN transposed stores D so), batches,
            // device scalars; the transposes give K-major operands (TN's majors), then an
            // M-major A (NN's).
            Case {
                row_major: true,
                ta: 0,
                tb: 1,
                block_n: 192,
                m: 520,
                n: 904,
                k: 264,
                batch: 3,
                device_scalars: true,
                alpha: 0.75,
                beta: 0.5,
                epilogue: epilogue::GELU,
                ..cs
            },
            Case {
                ta: 1,
                tb: 1,
                row_major: true,
                block_n: 160,
                m: 776,
                n: 500,
                k: 1000,
                epilogue: epilogue::RELU,
                ..cs
            },
            // An fp32 bias with GELU, NN in 2 x 1 with an odd number of tile rows.
            Case {
                ta: 0,
                cluster: 2,
                block_n: 176,
                m: 968,
                n: 1000,
                k: 200,
                epilogue: epilogue::GELU_BIAS,
                bias_f32: true,
                ..cs
            },
        ]);
        v
    }

    /// Two cases per layout and 64-row tile width (ping-pong or `solo`): ragged m (a last tile
    /// of 1 row) and n, short and long k, beta, each epilogue in turn, both 16-bit types and
    /// fp32 out.
    fn sixty_four_row_cases(widths: &[u32], solo: bool) -> Vec<Case> {
        use ScalarType::*;
        let mut v = Vec::new();
        for (i, (ta, tb)) in [(1, 0), (0, 0), (1, 1), (0, 1)].into_iter().enumerate() {
            for (j, &block_n) in widths.iter().enumerate() {
                for h in [1, 2] {
                    let x = i + j + h;
                    v.push(Case {
                        block_m: 64,
                        block_n,
                        solo,
                        ta,
                        tb,
                        // An M-major A needs m + 8 (its leading dimension) 16-byte aligned.
                        m: if ta == 1 {
                            [65, 200, 129, 1][x % 4]
                        } else {
                            [72, 200, 136, 8][x % 4]
                        },
                        n: [392, 200, 264, 520][(i + j) % 4],
                        k: [200, 72, 1000, 8][x % 4],
                        ab_pad: 8,
                        beta: if x % 3 == 0 { 0.5 } else { 0.0 },
                        epilogue: [epilogue::DEFAULT, epilogue::GELU_BIAS, epilogue::RELU][x % 3],
                        ab: [BF16, F16][j % 2],
                        cd: [[BF16, F16][j % 2], F32][(i + h) % 2],
                        ..BASE
                    });
                }
            }
        }
        v
    }

    /// Solo tiles (one consumer warpgroup, two CTAs an SM): every layout and width; ragged m
    /// (a last tile of 1 row) and n; grids of one CTA, of fewer tiles than 264 CTAs and of
    /// several tiles a CTA (the ring's phases carried across tiles); short and long k; both
    /// epilogues with bias and activations, beta with C aliasing D (C by TMA and the general
    /// path), fp32 out, row-major storage, fp16, batches and device scalars.
    fn solo_cases() -> Vec<Case> {
        use ScalarType::*;
        let mut v = sixty_four_row_cases(&sm90::SOLO_TILES_N, true);
        v.extend([
            // 48 x 32 = 1536 tiles of 64x128 on 264 CTAs: 5-6 a CTA.
            Case {
                block_m: 64,
                block_n: 128,
                solo: true,
                m: 3072,
                n: 4096,
                k: 256,
                ..BASE
            },
            // 47 x 63 tiles of 64x64, ragged both ways, a bias.
            Case {
                block_m: 64,
                block_n: 64,
                solo: true,
                m: 3000,
                n: 4000,
                k: 136,
                epilogue: epilogue::BIAS,
                ..BASE
            },
            // Row-major storage (row-major TMA store), fp16, batches, device scalars.
            Case {
                block_m: 64,
                block_n: 128,
                solo: true,
                ab: F16,
                cd: F16,
                row_major: true,
                m: 304,
                n: 520,
                k: 264,
                batch: 3,
                device_scalars: true,
                alpha: 0.75,
                epilogue: epilogue::GELU,
                ..BASE
            },
            // The general epilogue on a 16-bit D: C aliasing D, beta 1, an odd D leading
            // dimension (no TMA store).
            Case {
                block_m: 64,
                block_n: 64,
                solo: true,
                m: 333,
                n: 777,
                k: 520,
                cd_pad: 3,
                alpha: 0.5,
                beta: 1.0,
                alias: true,
                epilogue: epilogue::RELU_BIAS,
                ..BASE
            },
            // C by TMA into the staging (beta != 0, aligned 16-bit D), k of one stage.
            Case {
                block_m: 64,
                block_n: 128,
                solo: true,
                m: 640,
                n: 768,
                k: 64,
                beta: 1.0,
                alias: true,
                ..BASE
            },
        ]);
        v
    }

    /// The narrow n16 / n32 tiles (K-major B only; the general epilogue): ragged n around the
    /// tile (1, 17, 40), long k (many stages around the 10-11-stage ring), NN and TN, fp32 out,
    /// beta, bias + activations, batches, tf32, and the persistent loop over many tiles.
    fn narrow_cases() -> Vec<Case> {
        use ScalarType::*;
        vec![
            Case {
                block_n: 16,
                m: 300,
                n: 40,
                k: 1000,
                ..BASE
            },
            Case {
                block_n: 32,
                m: 1,
                n: 17,
                k: 4096,
                beta: 0.5,
                cd_pad: 3,
                ..BASE
            },
            Case {
                block_n: 16,
                ta: 0,
                m: 256,
                n: 1,
                k: 200,
                cd: F32,
                epilogue: epilogue::GELU_BIAS,
                ..BASE
            },
            Case {
                block_n: 32,
                ta: 0,
                ab: F16,
                cd: F16,
                m: 520,
                n: 72,
                k: 264,
                epilogue: epilogue::RELU_BIAS,
                bias_f32: true,
                batch: 2,
                ..BASE
            },
            Case {
                block_n: 16,
                m: 4096,
                n: 64,
                k: 512,
                alpha: 0.25,
                ..BASE
            },
            Case {
                block_n: 16,
                ab: F32,
                cd: F32,
                m: 300,
                n: 17,
                k: 100,
                beta: -1.0,
                ..BASE
            },
            Case {
                block_n: 32,
                ab: F32,
                cd: F32,
                m: 129,
                n: 33,
                k: 1000,
                epilogue: epilogue::BIAS,
                ..BASE
            },
        ]
    }

    /// tf32: fp32 A, B, C and D with COMPUTE_32F_FAST_TF32, K-major A and B only (TN
    /// column-major, or NT row-major). Ragged m and n around the 128-row tile and each n tile
    /// (1, 17, 127, 129, 300), k of 8 (a quarter stage), 100 (a partial third stage) and 1000,
    /// each tile, alpha/beta, bias, activations, C aliasing D, device scalars, batches, padded
    /// leading dimensions, and the persistent loop.
    fn tf32_cases() -> Vec<Case> {
        use ScalarType::F32;
        let tf32 = Case {
            ab: F32,
            cd: F32,
            ..BASE
        };
        let shapes = [
            (1, 1, 8),
            (17, 127, 100),
            (127, 17, 1000),
            (129, 300, 8),
            (300, 129, 100),
            (300, 300, 1000),
            (1, 300, 1000),
            (300, 1, 100),
            (129, 129, 1000),
        ];
        let mut v = Vec::new();
        for (i, &(m, n, k)) in shapes.iter().enumerate() {
            let base = Case {
                m,
                n,
                k,
                block_n: [64, 128, 256][i % 3],
                ..tf32
            };
            v.push(match (i / 3) % 3 {
                // The general epilogue's plain instantiation (beta = 0, no bias/activation).
                0 => base,
                1 => Case {
                    alpha: 0.75,
                    beta: 0.5,
                    epilogue: epilogue::GELU_BIAS,
                    ab_pad: 4,
                    cd_pad: 3,
                    ..base
                },
                _ => Case {
                    alpha: -1.5,
                    beta: 1.0,
                    epilogue: epilogue::BIAS,
                    ab_pad: 8,
                    cd_pad: 1,
                    ..base
                },
            });
        }
        v.extend([
            Case {
                m: 300,
                n: 129,
                k: 100,
                alpha: 2.0,
                beta: 0.5,
                alias: true,
                cd_pad: 2,
                epilogue: epilogue::RELU,
                ..tf32
            },
            Case {
                m: 129,
                n: 300,
                k: 100,
                alpha: 1.25,
                beta: -0.5,
                device_scalars: true,
                block_n: 256,
                ..tf32
            },
            Case {
                batch: 3,
                m: 127,
                n: 129,
                k: 100,
                ab_pad: 4,
                cd_pad: 1,
                beta: 1.0,
                epilogue: epilogue::RELU_BIAS,
                block_n: 64,
                ..tf32
            },
            // Row-major storage: A (m x k) and B (n x k) are K-major with ta = N, tb = T.
            Case {
                ta: 0,
                tb: 1,
                row_major: true,
                m: 300,
                n: 17,
                k: 1000,
                ab_pad: 4,
                cd_pad: 3,
                beta: 0.25,
                epilogue: epilogue::GELU,
                ..tf32
            },
            // 10 x 32 = 320 tiles of 128x64 on 132 SMs.
            Case {
                m: 1280,
                n: 2048,
                k: 64,
                block_n: 64,
                ..tf32
            },
        ]);
        v
    }

    /// tf32 solo tiles (session 60; TN only, both operands K-major): 64x64 and 64x128, each
    /// 64-deep (one 128-byte slab of 32 values a stage), 128-deep in half the SM (two slabs) and
    /// 128-deep with the whole SM's ring; ragged m and n (1, 17, 65, 127, 129, 300), k of 8 (a
    /// quarter slab), 100, 1000 and 2056 (partial last stages of either slab), alpha / beta
    /// with C aliasing D, bias and activations, padded leading dimensions, batches, device
    /// scalars, and many tiles a CTA (the ring's phases across tiles).
    fn tf32_solo_cases() -> Vec<Case> {
        use ScalarType::F32;
        let solo = Case {
            ab: F32,
            cd: F32,
            block_m: 64,
            solo: true,
            ..BASE
        };
        let mut v = Vec::new();
        let kinds = [(false, false), (true, false), (true, true)]; // (deep, full_ring)
        let shapes = [
            (1, 17, 8),
            (65, 127, 100),
            (129, 300, 1000),
            (300, 129, 2056),
            (127, 65, 100),
            (17, 1, 1000),
        ];
        for (j, block_n) in [64u32, 128].into_iter().enumerate() {
            for (i, &(deep, full_ring)) in kinds.iter().enumerate() {
                for (s, &(m, n, k)) in shapes
                    .iter()
                    .enumerate()
                    .filter(|(s, _)| (s + i + j) % 2 == 0)
                {
                    let x = s + 2 * i + j;
                    v.push(Case {
                        block_n,
                        deep,
                        full_ring,
                        m,
                        n,
                        k,
                        ab_pad: [0, 4, 8][x % 3],
                        cd_pad: [0, 3, 1][x % 3],
                        alpha: [1.0, 0.75, -1.5][x % 3],
                        beta: [0.0, 0.5, 1.0][(x + 1) % 3],
                        alias: x % 4 == 1,
                        epilogue: [
                            epilogue::DEFAULT,
                            epilogue::GELU_BIAS,
                            epilogue::RELU,
                            epilogue::BIAS,
                        ][x % 4],
                        ..solo
                    });
                }
            }
        }
        v.extend([
            // 47 x 16 = 752 tiles of 64x128 on 264 CTAs (half ring): 2-3 a CTA; batches.
            Case {
                block_n: 128,
                deep: true,
                m: 1000,
                n: 2000,
                k: 264,
                batch: 2,
                device_scalars: true,
                alpha: 0.5,
                ..solo
            },
            // 32 x 32 = 1024 tiles of 64x64 on 132 CTAs (whole ring), ragged both ways.
            Case {
                block_n: 64,
                deep: true,
                full_ring: true,
                m: 2047,
                n: 2049,
                k: 136,
                epilogue: epilogue::BIAS,
                ..solo
            },
            // The 64-deep 64x64 over many tiles, row-major storage (A and B still K-major).
            Case {
                block_n: 64,
                ta: 0,
                tb: 1,
                row_major: true,
                m: 1500,
                n: 700,
                k: 520,
                beta: 0.25,
                epilogue: epilogue::GELU,
                ..solo
            },
        ]);
        v
    }

    /// tf32 NN (PyTorch's fp32 matmul in cuBLAS terms): A M-major, read by the register-A
    /// wgmma form (each thread gathers its fragment from the swizzled tile), B K-major. m is A's
    /// leading dimension (with `ab_pad`), so it stays a multiple of 4 fp32 (TMA's 16 bytes).
    /// Ragged m past a 32-row swizzle chunk and the 128-row tile, ragged n, k of 8, 100 and 1000,
    /// every tile, both consumer warpgroups' rows, alpha/beta, bias and activations, device
    /// scalars, batches, the persistent loop, and row-major storage (NN row-major is TT
    /// column-major: B N-major, so it stays portable and is not here).
    fn tf32_nn_cases() -> Vec<Case> {
        use ScalarType::F32;
        let nn = Case {
            ab: F32,
            cd: F32,
            ta: 0,
            tb: 0,
            ..BASE
        };
        let shapes = [
            (4, 1, 8),
            (36, 127, 100),
            (128, 17, 1000),
            (132, 300, 8),
            (300, 129, 100),
            (256, 256, 1000),
        ];
        let mut v = Vec::new();
        for (i, &(m, n, k)) in shapes.iter().enumerate() {
            let base = Case {
                m,
                n,
                k,
                block_n: [64, 128, 192, 256][i % 4],
                ..nn
            };
            v.push(base);
            v.push(Case {
                alpha: 0.75,
                beta: 0.5,
                epilogue: epilogue::GELU_BIAS,
                ab_pad: 4,
                cd_pad: 3,
                block_n: [256, 192, 128, 64][i % 4],
                ..base
            });
        }
        v.extend([
            Case {
                m: 300,
                n: 129,
                k: 100,
                alpha: 2.0,
                beta: 0.5,
                alias: true,
                cd_pad: 2,
                epilogue: epilogue::RELU,
                ..nn
            },
            Case {
                batch: 3,
                m: 132,
                n: 129,
                k: 100,
                ab_pad: 4,
                beta: 1.0,
                device_scalars: true,
                epilogue: epilogue::RELU_BIAS,
                block_n: 128,
                ..nn
            },
            // 10 x 16 = 160 tiles of 128x128 on 132 SMs.
            Case {
                m: 1280,
                n: 2048,
                k: 256,
                block_n: 128,
                ..nn
            },
        ]);
        v
    }

    struct Loaded {
        _module: CUmodule,
        function: CUfunction,
    }

    /// Every variant's CUBIN as the library builds it (`registry::cubin`: the disk cache at
    /// DEEPGEMM_CACHE_DIR, else NVRTC and then the cache), on every core. So the GPU run tests
    /// the very CUBIN the library loads, and compiles nothing that `deepgemm-bench
    /// --precompile` (or a cache carried by scripts/gpu-pack.sh) already built: the test's own
    /// NVRTC calls took 60-100 s of each GPU call before session 29. ptxas' report is read by
    /// `every_sm90_variant_compiles_without_spills`, on the CPU.
    fn compile_all(variants: &[Sm90Variant]) -> HashMap<String, Vec<u8>> {
        use deepgemm::plan::Kernel;
        use deepgemm::runtime::registry;
        use std::sync::atomic::{AtomicUsize, Ordering};
        let next = AtomicUsize::new(0);
        let cubins = std::sync::Mutex::new(HashMap::new());
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(v) = variants.get(i) else { break };
                        let bin = registry::cubin(&Kernel::Sm90(*v), "sm_90a")
                            .unwrap_or_else(|e| panic!("{}: {e}", v.name()));
                        cubins.lock().unwrap().insert(v.name(), bin.to_vec());
                    }
                });
            }
        });
        cubins.into_inner().unwrap()
    }

    fn load(v: &Sm90Variant, cubin: &[u8]) -> Loaded {
        let mut module: CUmodule = std::ptr::null_mut();
        // SAFETY: a complete CUBIN; a context is current.
        ok(
            unsafe { drv::cuModuleLoadData(&mut module, cubin.as_ptr().cast()) },
            "cuModuleLoadData",
        );
        let name = CString::new(v.name()).unwrap();
        let mut function: CUfunction = std::ptr::null_mut();
        // SAFETY: module loaded; the entry is the variant's extern "C" name.
        ok(
            unsafe { drv::cuModuleGetFunction(&mut function, module, name.as_ptr()) },
            "cuModuleGetFunction",
        );
        // SAFETY: function is variant v in the current context.
        unsafe { configure_function(function, v) }.unwrap();
        Loaded {
            _module: module,
            function,
        }
    }

    /// A stored matrix of `rows x cols` (as stored) with `pad` extra elements per line.
    fn stored(
        dtype: i32,
        rows: u64,
        cols: u64,
        pad: u64,
        row_major: bool,
        batch: i32,
    ) -> MatrixSpec {
        let (ld, lines) = if row_major {
            (cols + pad, rows)
        } else {
            (rows + pad, cols)
        };
        let mut s = MatrixSpec::col(dtype, rows, cols, ld as i64);
        if row_major {
            s.order = order::ROW;
        }
        s.batch_count = batch;
        // 8 elements between batches keep 16-byte alignment for 16-bit types.
        s.batch_stride = if batch > 1 {
            (ld * lines + 8) as i64
        } else {
            0
        };
        s
    }

    /// Whether the case runs the TMA-store epilogue: the host's rule with the device buffers'
    /// alignment (cuMemAlloc gives 256 bytes) and beta as the kernel sees it.
    /// Whether the case runs the TMA-store epilogue: D suits it and the variant has it (the
    /// narrow n16/n32 tiles have only the general one), and beta = 0 or C is loaded by TMA.
    fn takes_tma_store(c: &Case, p: &GemmProblem, v: &Sm90Variant) -> bool {
        v.tma_store_cols(p).is_some()
            && tma_store(p, 0x100, Scalar::Host(0.0)).is_ok()
            && (c.beta == 0.0 || takes_c_tma(c, p, v))
    }

    /// Whether the case's epilogue loads C by TMA (beta != 0, SM90_FLAG_C_TMA): C (D's layout
    /// here) suits it, and the variant neither stages in the ring nor is a split-K cluster
    /// (those read C in the general epilogue), nor runs two m64 blocks a consumer (the wide
    /// ping-pong and column-split tiles: kernels/sm90/gemm.cuh `load_c`).
    fn takes_c_tma(c: &Case, p: &GemmProblem, v: &Sm90Variant) -> bool {
        c.beta != 0.0
            && v.tma_store_cols(p).is_some()
            && v.split_k == 1
            && !v.ring_epilogue
            && !v.wide_pingpong
            && !v.column_split()
            && !(c.row_major && v.store_box_cols() == 8)
            && tma_store(p, 0x100, Scalar::Host(0.0)).is_ok_and(|l| c_tma(p, 0x100, l).is_ok())
    }

    /// The case as a validated problem, and the variant that runs it.
    fn problem(c: &Case) -> (GemmProblem, Sm90Variant) {
        // fp32 inputs run here only as tf32.
        let compute = if c.ab == ScalarType::F32 {
            compute_type::COMPUTE_32F_FAST_TF32
        } else {
            compute_type::COMPUTE_32F
        };
        let mut op = OpSpec::new(compute, cuda_data_type::R_32F);
        op.trans_a = c.ta;
        op.trans_b = c.tb;
        op.epilogue = c.epilogue;
        if c.bias_f32 {
            op.bias_data_type = cuda_data_type::R_32F;
        }
        if c.device_scalars {
            op.pointer_mode = 1;
        }
        op.bias_batch_stride = if c.bias_col { c.n } else { c.m } as i64;
        let (ab, cd) = (c.ab.cuda_value(), c.cd.cuda_value());
        let (ar, ac) = if c.ta == 0 { (c.m, c.k) } else { (c.k, c.m) };
        let (br, bc) = if c.tb == 0 { (c.k, c.n) } else { (c.n, c.k) };
        let a_spec = stored(ab, ar, ac, c.ab_pad, c.row_major, c.batch);
        let b_spec = stored(ab, br, bc, c.ab_pad, c.row_major, c.batch);
        let d_spec = stored(cd, c.m, c.n, c.cd_pad, c.row_major, c.batch);
        let mut p = GemmProblem::new(&op, &a_spec, &b_spec, &d_spec, &d_spec).unwrap();
        p.bias_along_n = c.bias_col;
        let v = Sm90Variant::all()
            .into_iter()
            .find(|v| {
                v.ab == c.ab
                    && v.cd == c.cd
                    && v.block_m == c.block_m
                    && v.block_n == c.block_n
                    && v.cluster_m == c.cluster
                    && v.cluster_n == c.cluster_n
                    && v.split_k == c.split_k
                    && v.ring_epilogue == c.ring
                    && v.solo() == c.solo
                    && v.deep() == c.deep
                    && (v.solo() && v.ctas_per_sm() == 1) == c.full_ring
                    && v.wide_pingpong == c.wide_pingpong
                    && v.fits(&p)
            })
            .unwrap_or_else(|| panic!("no sm90 variant takes {c:?}"));
        (p, v)
    }

    /// The direct GPU test's CUBINs come from the library's registry (no GPU needed to check):
    /// an sm_90a ELF for each variant asked, and a second ask compiles nothing.
    #[test]
    fn direct_cubins_come_from_the_library_registry() {
        if !super::nvrtc_available() {
            eprintln!("NVRTC not found; skipped");
            return;
        }
        use deepgemm::runtime::registry;
        let mut variants: Vec<Sm90Variant> = cases().iter().map(|c| problem(c).1).collect();
        variants.sort();
        variants.dedup();
        // Two narrow variants: quick to compile.
        variants.retain(|v| v.block_n <= 32);
        variants.truncate(2);
        assert_eq!(variants.len(), 2, "the cases have narrow tiles");
        let first = compile_all(&variants);
        for v in &variants {
            let bin = &first[&v.name()];
            assert_eq!(&bin[..4], b"\x7fELF", "{}", v.name());
        }
        let compiles = registry::stats().compiles;
        let again = compile_all(&variants);
        assert_eq!(
            registry::stats().compiles,
            compiles,
            "memory hits the second time"
        );
        assert_eq!(again, first);
    }

    #[test]
    fn cases_are_well_formed() {
        // CPU-only: every case builds a valid problem that an sm90 variant takes, and together
        // they reach every layout, tile and type pair.
        let mut seen = std::collections::HashSet::new();
        let mut tma = std::collections::HashSet::new();
        let mut pingpong = std::collections::HashSet::new();
        let mut wide_pingpong = std::collections::HashSet::new();
        let mut column_split = std::collections::HashSet::new();
        let mut solo = std::collections::HashSet::new();
        let mut general_16bit_beta0 = 0;
        let mut c_tma_paths = std::collections::HashSet::new();
        let mut c_tma_widths = std::collections::HashSet::new();
        let mut ring_paths = std::collections::HashSet::new();
        let mut row_slabs = std::collections::HashSet::new();
        let mut c_tma_layouts = std::collections::HashSet::new();
        let mut bias_col_paths = std::collections::HashSet::new();
        let mut wide_bias_col_c = std::collections::HashSet::new();
        let mut deep = std::collections::HashSet::new();
        let mut deep_k = std::collections::HashSet::new();
        let mut full_ring = std::collections::HashSet::new();
        for c in cases() {
            let (p, v) = problem(&c);
            assert_eq!(v.deep(), c.deep, "{c:?}");
            if c.full_ring {
                assert_eq!((v.ctas_per_sm(), v.deep()), (1, true), "{c:?}");
                full_ring.insert((v.layout_tag(), v.block_n));
            }
            if v.deep() {
                deep.insert((
                    v.layout_tag(),
                    v.block_m,
                    v.block_n,
                    takes_tma_store(&c, &p, &v),
                ));
                // The last stage's slabs: whole, the second partial or absent, the first partial.
                deep_k.insert(match c.k % 128 {
                    0 => 0,
                    65..=127 => 1,
                    64 => 2,
                    _ => 3,
                });
            }
            let tma_path = takes_tma_store(&c, &p, &v);
            if tma_path && c.row_major && v.store_box_cols() != sm90::STORE_BOX {
                row_slabs.insert((v.store_box_cols(), c.cd, c.epilogue));
            }
            if c.bias_col && v.block_n > sm90::MAX_BIAS_ALONG_N_TILE {
                assert!(
                    tma_path,
                    "{c:?}: wider tiles add it in the TMA-store epilogue only"
                );
                wide_bias_col_c.insert((c.row_major, takes_c_tma(&c, &p, &v)));
            }
            if c.bias_col {
                bias_col_paths.insert((
                    tma_path,
                    c.row_major,
                    tma_path.then(|| v.store_box_cols()),
                ));
            }
            seen.insert((v.layout_tag(), v.block_n, v.ab, v.cd));
            if v.ring_epilogue {
                // One tile a CTA: what the kernel's staging in the ring assumes.
                assert!(v.num_tiles(&p) <= 132, "{c:?}: {} tiles", v.num_tiles(&p));
                ring_paths.insert(takes_tma_store(&c, &p, &v));
            }
            if v.pingpong() {
                pingpong.insert((v.layout_tag(), v.block_n, v.cluster_m));
            }
            if v.wide_pingpong {
                wide_pingpong.insert((v.layout_tag(), v.cluster_m, tma_path));
            }
            if v.column_split() {
                column_split.insert((v.layout_tag(), v.cluster_m, v.cluster_n, tma_path));
            }
            if v.solo() {
                solo.insert((v.layout_tag(), v.block_n, tma_path, takes_c_tma(&c, &p, &v)));
            }
            if takes_c_tma(&c, &p, &v) {
                c_tma_paths.insert((c.cd, c.row_major, c.alias, v.pingpong()));
                c_tma_widths.insert(sm90::Sm90Variant::store_box_cols(&v));
                c_tma_layouts.insert((c.row_major, v.store_box_cols(), c.bias_col));
            }
            if takes_tma_store(&c, &p, &v) {
                tma.insert((c.cd, c.row_major, c.epilogue));
            } else if c.beta == 0.0 && c.cd != ScalarType::F32 {
                general_16bit_beta0 += 1;
            }
        }
        assert_eq!(
            ring_paths.len(),
            2,
            "ring epilogues through both epilogue paths"
        );
        // Column split: TN unclustered, 2 x 1 and 1 x 2, NN unclustered and 2 x 1, each
        // through both epilogues.
        for (tag, cm, cn) in [
            ("tn", 1, 1),
            ("tn", 2, 1),
            ("tn", 1, 2),
            ("nn", 1, 1),
            ("nn", 2, 1),
        ] {
            for tma in [true, false] {
                assert!(
                    column_split.contains(&(tag, cm, cn, tma)),
                    "column split {tag} {cm}x{cn}, TMA store {tma}: {column_split:?}"
                );
            }
        }
        // Row-major slabs of 16 and 8 columns, both 16-bit types, with and without a bias.
        for cols in [16, 8] {
            for cd in [ScalarType::BF16, ScalarType::F16] {
                assert!(
                    row_slabs.iter().any(|&(w, t, _)| w == cols && t == cd),
                    "row-major slabs of {cols} columns, {cd:?}"
                );
            }
        }
        assert!(row_slabs.iter().any(|&(_, _, e)| e == epilogue::GELU_BIAS));
        // A bias along n: the TMA-store epilogue in whole boxes and 16-column slabs of both D
        // orders, and the general one.
        for row_major in [false, true] {
            for cols in [sm90::STORE_BOX, 16] {
                assert!(
                    bias_col_paths.contains(&(true, row_major, Some(cols))),
                    "bias along n, TMA store, row-major {row_major}, {cols} columns"
                );
            }
        }
        assert!(
            bias_col_paths.iter().any(|&(t, _, _)| !t),
            "bias along n, general epilogue"
        );
        assert_eq!(
            wide_bias_col_c.len(),
            4,
            "a bias along n on wider tiles, both D orders, with and without C by TMA"
        );
        // C by TMA into row-major 16-column slabs (not 8: the general epilogue there), and
        // with a bias along n (64-wide tiles).
        assert!(c_tma_layouts.iter().any(|&(r, w, _)| r && w == 16));
        assert!(!c_tma_layouts.iter().any(|&(r, w, _)| r && w == 8));
        assert!(
            c_tma_layouts
                .iter()
                .any(|&(_, w, b)| w == sm90::STORE_BOX && b)
        );
        // The TMA-store epilogue: every epilogue, both D orders, both 16-bit types.
        for cd in [ScalarType::BF16, ScalarType::F16] {
            for row_major in [false, true] {
                for epi in [
                    epilogue::DEFAULT,
                    epilogue::RELU,
                    epilogue::BIAS,
                    epilogue::RELU_BIAS,
                    epilogue::GELU,
                    epilogue::GELU_BIAS,
                ] {
                    assert!(
                        tma.contains(&(cd, row_major, epi)),
                        "{cd:?} {row_major} {epi}"
                    );
                }
            }
        }
        // Wide ping-pong: every layout through both epilogues, unclustered; 2 x 1 through both.
        for tag in ["tn", "nn", "tt", "nt"] {
            for tma in [true, false] {
                assert!(
                    wide_pingpong.contains(&(tag, 1, tma)),
                    "wide ping-pong {tag}, TMA store {tma}"
                );
            }
        }
        for tma in [true, false] {
            assert!(
                wide_pingpong.iter().any(|&(_, cm, t)| cm == 2 && t == tma),
                "wide ping-pong in 2 x 1, TMA store {tma}"
            );
        }
        // Ping-pong: every layout and width.
        for tag in ["tn", "nn", "tt", "nt"] {
            for &(_, bn) in sm90::PINGPONG_TILES.iter() {
                assert!(pingpong.contains(&(tag, bn, 1)), "ping-pong {tag} {bn}");
            }
            for &bn in sm90::SOLO_TILES_N.iter() {
                assert!(
                    solo.iter().any(|&(t, n, _, _)| (t, n) == (tag, bn)),
                    "solo {tag} {bn}"
                );
            }
        }
        // Solo: the TMA-store epilogue, the general one, and C by TMA.
        assert!(solo.iter().any(|s| s.2) && solo.iter().any(|s| !s.2) && solo.iter().any(|s| s.3));
        // 128-deep stages: every layout on 128x64, 128x128, 128x256 and the solo 64x64, both
        // epilogue paths, every kind of last stage.
        for tag in ["tn", "nn", "tt", "nt"] {
            for (bm, bn) in [(128, 64), (128, 128), (128, 256), (64, 64)] {
                assert!(
                    deep.iter().any(|&(t, m, n, _)| (t, m, n) == (tag, bm, bn)),
                    "deep {tag} {bm}x{bn}"
                );
            }
        }
        assert!(deep.iter().any(|d| d.3) && deep.iter().any(|d| !d.3));
        assert_eq!(deep_k.len(), 4, "{deep_k:?}");
        // The full-ring solo tiles: every layout on 64x64 and 64x128.
        for tag in ["tn", "nn", "tt", "nt"] {
            for bn in [64, 128] {
                assert!(
                    full_ring.contains(&(tag, bn)),
                    "full ring {tag} 64x{bn}: {full_ring:?}"
                );
            }
        }
        assert!(
            general_16bit_beta0 >= 2,
            "unaligned D must reach the general epilogue"
        );
        // C through TMA (beta != 0): both 16-bit types, both orders, C aliasing D or not,
        // cooperative and ping-pong, whole boxes and 16- and 8-column pieces.
        for cd in [ScalarType::BF16, ScalarType::F16] {
            for row_major in [false, true] {
                assert!(
                    c_tma_paths
                        .iter()
                        .any(|&(t, r, _, _)| t == cd && r == row_major),
                    "C by TMA: {cd:?} row-major {row_major}"
                );
            }
        }
        for alias in [false, true] {
            assert!(
                c_tma_paths.iter().any(|&(_, _, a, _)| a == alias),
                "C by TMA: alias {alias}"
            );
        }
        for pingpong in [false, true] {
            assert!(
                c_tma_paths.iter().any(|&(_, _, _, pp)| pp == pingpong),
                "C by TMA: ping-pong {pingpong}"
            );
        }
        for cols in [64, 16, 8] {
            assert!(
                c_tma_widths.contains(&cols),
                "C by TMA: {cols}-column stores"
            );
        }
        for tag in ["tn", "nn", "tt", "nt"] {
            for bn in [64, 256] {
                assert!(
                    seen.contains(&(tag, bn, ScalarType::BF16, ScalarType::BF16)),
                    "{tag} {bn}"
                );
            }
        }
        for (ab, cd) in [
            (ScalarType::BF16, ScalarType::F32),
            (ScalarType::F16, ScalarType::F16),
            (ScalarType::F16, ScalarType::F32),
        ] {
            for bn in [64, 128, 256] {
                assert!(seen.contains(&("tn", bn, ab, cd)) && seen.contains(&("nt", bn, ab, cd)));
            }
        }
        // tf32: every tile, the ragged sizes and k values, and each epilogue feature.
        let tf32: Vec<Case> = cases()
            .into_iter()
            .filter(|c| c.ab == ScalarType::F32)
            .collect();
        for bn in [64, 128, 256] {
            assert!(seen.contains(&("tn", bn, ScalarType::F32, ScalarType::F32)));
        }
        for size in [1, 17, 127, 129, 300] {
            assert!(tf32.iter().any(|c| c.m == size), "m = {size}");
            assert!(tf32.iter().any(|c| c.n == size), "n = {size}");
        }
        for k in [8, 100, 1000] {
            assert!(tf32.iter().any(|c| c.k == k), "k = {k}");
        }
        assert!(tf32.iter().any(|c| c.alpha != 1.0 && c.beta != 0.0));
        assert!(
            tf32.iter()
                .any(|c| c.beta == 0.0 && c.epilogue == epilogue::DEFAULT)
        );
        for epi in [epilogue::BIAS, epilogue::RELU_BIAS, epilogue::GELU_BIAS] {
            assert!(tf32.iter().any(|c| c.epilogue == epi), "{epi}");
        }
        assert!(tf32.iter().any(|c| c.alias) && tf32.iter().any(|c| c.device_scalars));
        assert!(tf32.iter().any(|c| c.batch > 1) && tf32.iter().any(|c| c.row_major));
        assert!(tf32.iter().all(|c| c.cd == ScalarType::F32));
    }

    /// Allowed relative Frobenius error of tf32 results (tests/common/host.rs `tolerance`).
    const TF32_TOLERANCE: f64 = 5e-4;

    /// An fp32 input as a tf32 GEMM may consume it: rounded to nearest with ties away from zero
    /// (`cvt.rna.tf32.f32`, as tests/common/host.rs `round_tf32`), the distance to the other
    /// tf32 neighbour when the value is an exact tie (0 otherwise: another tie rule may pick
    /// that neighbour), and truncated to tf32 (what the tensor core does to fp32 alone).
    fn tf32_views(x: f64) -> (f64, f64, f64) {
        let bits = (x as f32).to_bits();
        let down = bits & !0x1fff;
        let nearest = f32::from_bits(bits.wrapping_add(0x1000) & !0x1fff) as f64;
        let tie = if bits & 0x1fff == 0x1000 {
            (f32::from_bits(down + 0x2000) as f64 - f32::from_bits(down) as f64).abs()
        } else {
            0.0
        };
        (nearest, tie, f32::from_bits(down) as f64)
    }

    /// Runs one case; returns (max scaled error, calc_diff, relative Frobenius error, variant
    /// name and epilogue path).
    fn run(
        c: &Case,
        cubins: &HashMap<String, Vec<u8>>,
        kernels: &mut HashMap<String, Loaded>,
        dev: &DeviceSpec,
    ) -> (f64, f64, f64, String) {
        let mut rng =
            Rng(0x9e3779b97f4a7c15 ^ (c.m * 31 + c.n * 7 + c.k) ^ (c.ta * 2 + c.tb) as u64);
        let (p, v) = problem(c);
        assert!(v.fits_device(dev));

        let (m, n, k, batch) = (c.m as usize, c.n as usize, c.k as usize, c.batch as usize);
        let [a_elems, b_elems, _, d_elems] = p.extent.map(|e| e as usize);
        let (a_bytes, a_vals) = matrix(c.ab, a_elems, &mut rng);
        let (b_bytes, b_vals) = matrix(c.ab, b_elems, &mut rng);
        let (c_bytes, c_vals) = matrix(c.cd, d_elems, &mut rng);
        let bias_type = if c.bias_f32 { ScalarType::F32 } else { c.cd };
        let bias_len = if c.bias_col { n } else { m };
        let (bias_bytes, bias_vals) = matrix(bias_type, bias_len * batch, &mut rng);
        // D starts as NaN everywhere (or as C when it aliases C).
        let d_init = if c.alias {
            c_bytes.clone()
        } else {
            let mut out = Vec::new();
            for _ in 0..d_elems {
                encode(c.cd, f32::NAN, &mut out);
            }
            out
        };
        let a_dev = DevBuf::from(&a_bytes);
        let b_dev = DevBuf::from(&b_bytes);
        let c_dev = DevBuf::from(&c_bytes);
        let d_dev = DevBuf::from(&d_init);
        let bias_dev = DevBuf::from(&bias_bytes);
        let scalars = DevBuf::from(&[c.alpha.to_le_bytes(), c.beta.to_le_bytes()].concat());
        let (alpha, beta) = if c.device_scalars {
            (Scalar::Device(scalars.ptr), Scalar::Device(scalars.ptr + 4))
        } else {
            (Scalar::Host(c.alpha), Scalar::Host(c.beta))
        };
        let ptrs = GemmPointers {
            alpha,
            beta,
            a: a_dev.ptr,
            b: b_dev.ptr,
            c: if c.alias { d_dev.ptr } else { c_dev.ptr },
            d: d_dev.ptr,
            bias: bias_dev.ptr,
        };
        ptrs.check(&p).unwrap();
        assert!(Sm90Variant::pointers_fit(&ptrs));

        let kernel = kernels
            .entry(v.name())
            .or_insert_with(|| load(&v, &cubins[&v.name()]));
        // The host's half of the epilogue choice (the kernel adds beta == 0, or C's map where
        // it can take it; `Sm90Args` drops the flag for variants without the TMA-store
        // epilogue).
        let flags = Sm90Args::new(&v, &p, &ptrs, DEFAULT_GROUP_M)
            .unwrap()
            .params
            .flags;
        // (As the kernel's `load_c`: not where a consumer runs several m64 blocks, the wide
        // ping-pong and column-split tiles, whatever the host's flag says; session 78's first
        // run of their row-major cases with beta stopped here.)
        let c_by_tma = flags & FLAG_C_TMA != 0
            && v.split_k == 1
            && !v.ring_epilogue
            && !v.wide_pingpong
            && !v.column_split()
            && c.beta != 0.0;
        assert_eq!(
            v.has_tma_store() && flags & FLAG_TMA_STORE != 0 && (c.beta == 0.0 || c_by_tma),
            takes_tma_store(c, &p, &v),
            "{c:?}"
        );
        // A tile that ends in a partial box stores its whole boxes through D's whole-box map
        // unless C's map holds that slot (and not in a row-major D's 8-column slabs): these
        // cases run both store paths of such a tile (a column-major D's last box in one store).
        let row_major = flags & FLAG_D_ROW_MAJOR != 0;
        assert_eq!(
            flags & FLAG_D_BOXES != 0,
            flags & (FLAG_TMA_STORE | FLAG_C_TMA) == FLAG_TMA_STORE
                && if row_major {
                    v.store_box_cols() == 16
                } else {
                    v.store_box_cols() != sm90::STORE_BOX
                },
            "{c:?}"
        );
        let launch_once = |kernel: &Loaded| {
            let mut args = Sm90Args::new(&v, &p, &ptrs, DEFAULT_GROUP_M).unwrap();
            // SAFETY: loaded and configured for v; the buffers live until after the sync.
            unsafe {
                launch(
                    kernel.function,
                    &v,
                    v.grid(&p, dev),
                    std::ptr::null_mut(),
                    &mut args,
                    true,
                )
            }
            .unwrap();
            // SAFETY: a context is current.
            ok(
                unsafe { drv::cuCtxSynchronize() },
                &format!("{} on {c:?}", v.name()),
            );
        };
        launch_once(kernel);
        let out = d_dev.read();

        // tf32: A and B as the tensor cores multiply them. The tensor maps make TMA round them
        // to tf32; the reference rounds to nearest, ties away, and allows an exact tie to have
        // gone the other way (`tie`, one tf32 ulp). The truncated inputs give a second
        // reference, only reported: matching it instead means the inputs were not rounded.
        let tf32 = c.ab == ScalarType::F32;
        let views = |vals: Vec<f64>| -> (Vec<f64>, Vec<f64>, Vec<f64>) {
            if tf32 {
                let v: Vec<(f64, f64, f64)> = vals.into_iter().map(tf32_views).collect();
                (
                    v.iter().map(|t| t.0).collect(),
                    v.iter().map(|t| t.1).collect(),
                    v.iter().map(|t| t.2).collect(),
                )
            } else {
                let zeros = vec![0.0; vals.len()];
                (vals, zeros, Vec::new())
            }
        };
        let (a_vals, a_tie, a_trunc) = views(a_vals);
        let (b_vals, b_tie, b_trunc) = views(b_vals);

        // Reference in f64 from the rounded inputs, through the problem's normalised strides:
        // op(A)(i, kk) = a[b*a.batch + i*a.row + kk*a.col], likewise op(B), C and D.
        let act = match c.epilogue {
            epilogue::RELU | epilogue::RELU_BIAS => Activation::Relu,
            epilogue::GELU | epilogue::GELU_BIAS => Activation::Gelu,
            _ => Activation::None,
        };
        let has_bias = matches!(
            c.epilogue,
            epilogue::BIAS | epilogue::RELU_BIAS | epilogue::GELU_BIAS
        );
        // Half an ulp of the output type.
        let out_eps = match c.cd {
            ScalarType::F32 => 1.0 / 16_777_216.0,
            ScalarType::F16 => 1.0 / 2048.0,
            ScalarType::BF16 => 1.0 / 256.0,
        };
        let at = |s: deepgemm::problem::Strides, b: usize, r: usize, col: usize| {
            (b as i64 * s.batch + r as i64 * s.row + col as i64 * s.col) as usize
        };
        let (mut worst, mut xy, mut xx_yy) = (0f64, 0f64, 0f64);
        let (mut err2, mut ref2, mut trunc_err2) = (0f64, 0f64, 0f64);
        let mut inside = vec![false; d_elems];
        for b in 0..batch {
            for i in 0..m {
                for j in 0..n {
                    let (mut acc, mut mag, mut tie, mut acc_trunc) = (0f64, 0f64, 0f64, 0f64);
                    for kk in 0..k {
                        let (ai, bi) = (at(p.a, b, i, kk), at(p.b, b, kk, j));
                        let prod = a_vals[ai] * b_vals[bi];
                        acc += prod;
                        mag += prod.abs();
                        tie += a_tie[ai] * b_vals[bi].abs() + a_vals[ai].abs() * b_tie[bi];
                        if tf32 {
                            acc_trunc += a_trunc[ai] * b_trunc[bi];
                        }
                    }
                    let di = at(p.d, b, i, j);
                    inside[di] = true;
                    mag *= (c.alpha as f64).abs();
                    tie *= (c.alpha as f64).abs();
                    if c.beta != 0.0 {
                        mag += (c.beta as f64 * c_vals[di]).abs();
                    }
                    let bias_at = if c.bias_col { b * n + j } else { b * m + i };
                    if has_bias {
                        mag += bias_vals[bias_at].abs();
                    }
                    let epilogue = |acc: f64| {
                        let mut r = c.alpha as f64 * acc;
                        if c.beta != 0.0 {
                            r += c.beta as f64 * c_vals[di];
                        }
                        if has_bias {
                            r += bias_vals[bias_at];
                        }
                        match act {
                            Activation::Relu => r.max(0.0),
                            Activation::Gelu => {
                                let u = (2.0 / std::f64::consts::PI).sqrt()
                                    * (r + 0.044715 * r * r * r);
                                0.5 * r * (1.0 + u.tanh())
                            }
                            Activation::None => r,
                        }
                    };
                    let r = epilogue(acc);
                    let got = decode(c.cd, &out, di);
                    assert!(
                        got.is_finite(),
                        "{c:?}: D({i},{j}) of batch {b} not written ({got})"
                    );
                    // One rounding of the output, plus fp32 accumulation error (1e-5 of the
                    // magnitude sum covers k up to a few thousand), plus for tf32 the inputs'
                    // exact ties rounded the other way.
                    let err = (got - r).abs() / (out_eps * r.abs() + 1e-5 * mag + tie + 1e-6);
                    worst = worst.max(err);
                    xy += got * r;
                    xx_yy += got * got + r * r;
                    err2 += (got - r) * (got - r);
                    ref2 += r * r;
                    if tf32 {
                        let rt = epilogue(acc_trunc);
                        trunc_err2 += (got - rt) * (got - rt);
                    }
                }
            }
        }
        // Everything outside the m x n matrices (ld padding, batch gaps) is untouched.
        let s = c.cd.size_bytes();
        for (idx, &is_in) in inside.iter().enumerate() {
            if !is_in {
                assert_eq!(
                    out[idx * s..(idx + 1) * s],
                    d_init[idx * s..(idx + 1) * s],
                    "{c:?}: element {idx} outside D was written"
                );
            }
        }
        // Bitwise repeatable (with C aliasing D a second run would read the new D).
        if !c.alias {
            launch_once(kernel);
            assert!(d_dev.read() == out, "{c:?}: second run differs");
        }
        let diff = if xx_yy > 0.0 {
            1.0 - 2.0 * xy / xx_yy
        } else {
            0.0
        };
        let path = if takes_tma_store(c, &p, &v) {
            "tma-store"
        } else {
            "general"
        };
        let rel = |e2: f64| {
            if ref2 > 0.0 {
                (e2 / ref2).sqrt()
            } else {
                e2.sqrt()
            }
        };
        let mut label = format!("{} [{path}]", v.name());
        if tf32 {
            let _ = write!(label, " (vs truncated inputs: {:.2e})", rel(trunc_err2));
        }
        (worst, diff, rel(err2), label)
    }

    #[test]
    #[ignore = "needs an sm_90 GPU (H100/H200)"]
    fn sm90_kernel_matches_reference_on_gpu() {
        let ctx = driver::enter(std::ptr::null_mut()).expect("a CUDA device");
        let dev = ctx.device.spec;
        assert_eq!((dev.cc_major, dev.cc_minor), (9, 0), "needs sm_90");
        let mut kernels = HashMap::new();
        let mut failures = Vec::new();
        // DEEPGEMM_SM90_VARIANTS: only the cases whose variant it selects.
        let filter = std::env::var("DEEPGEMM_SM90_VARIANTS").unwrap_or_default();
        let selected: Vec<Case> = cases()
            .into_iter()
            .filter(|c| super::variant_selected(&problem(c).1.name()))
            .collect();
        let mut variants: Vec<Sm90Variant> = selected.iter().map(|c| problem(c).1).collect();
        variants.sort();
        variants.dedup();
        let cubins = compile_all(&variants);
        let mut ran = 0;
        for c in selected {
            ran += 1;
            let (worst, diff, rel, name) = run(&c, &cubins, &mut kernels, &dev);
            eprintln!(
                "{name} {}x{}x{} b{} t{}{} row {} epi {} bias_col {} alias {}: max scaled err \
                 {worst:.3}, calc_diff {diff:.2e}, rel err {rel:.2e}",
                c.m, c.n, c.k, c.batch, c.ta, c.tb, c.row_major, c.epilogue, c.bias_col, c.alias
            );
            // Scaled error 1 = the allowance above; calc_diff as DeepGEMM's bf16 threshold;
            // tf32 also within the library's tf32 tolerance.
            let tf32_bad = c.ab == ScalarType::F32 && rel > TF32_TOLERANCE;
            if worst > 1.0 || diff > 1e-5 || tf32_bad {
                failures.push(format!(
                    "{name} {c:?}: max scaled error {worst}, calc_diff {diff}, relative \
                     Frobenius error {rel}"
                ));
            }
        }
        eprintln!("{ran} cases");
        assert!(ran > 0, "no case matches DEEPGEMM_SM90_VARIANTS={filter}");
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}
