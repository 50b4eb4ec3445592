//! deepgemmLtMatmulAlgoGetIds / AlgoInit / AlgoCapGetAttribute / AlgoConfigGetAttribute /
//! AlgoConfigSetAttribute through the C exports, on a recording handle (no GPU needed): the
//! loop engines that profile cuBLASLt tactics run (ids, then each id's tiles and options,
//! AlgoCheck, Matmul), and every argument check.

mod api_common;
use api_common::*;
use std::ffi::c_void;
use std::mem::size_of;
use std::ptr::{null, null_mut};

use deepgemm::ffi::testing;
use deepgemm::plan::{DeviceSpec, Kernel, algo::Config};

const A: usize = 0x10000;
const B: usize = 0x20000;
const D: usize = 0x40000;

/// TN bf16 m x n x k (A k x m, B k x n, D m x n), as a Linear layer calls it.
struct Op {
    h: deepgemmLtHandle_t,
    desc: deepgemmLtMatmulDesc_t,
    a: deepgemmLtMatrixLayout_t,
    b: deepgemmLtMatrixLayout_t,
    d: deepgemmLtMatrixLayout_t,
}

impl Op {
    fn new(dev: DeviceSpec, m: u64, n: u64, k: u64) -> Op {
        let d = desc(DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F);
        assert_eq!(
            Obj::Desc(d).set(DEEPGEMMLT_MATMUL_DESC_TRANSA, DEEPGEMM_OP_T),
            DEEPGEMM_STATUS_SUCCESS
        );
        Op {
            h: testing::recording_lt_handle(dev),
            desc: d,
            a: layout(DEEPGEMM_R_16BF, k, m, k as i64),
            b: layout(DEEPGEMM_R_16BF, k, n, k as i64),
            d: layout(DEEPGEMM_R_16BF, m, n, m as i64),
        }
    }

    fn ids(&self, types: [i32; 6]) -> (deepgemmStatus_t, Vec<i32>) {
        let mut ids = [-7; 16];
        let mut n = -1;
        let [ct, st, at, bt, c, dt] = types;
        let s =
            deepgemmLtMatmulAlgoGetIds(self.h, ct, st, at, bt, c, dt, 16, ids.as_mut_ptr(), &mut n);
        (s, ids[..n.max(0) as usize].to_vec())
    }

    fn init(&self, id: i32) -> (deepgemmStatus_t, deepgemmLtMatmulAlgo_t) {
        let mut algo = deepgemmLtMatmulAlgo_t::default();
        let s = deepgemmLtMatmulAlgoInit(
            self.h,
            DEEPGEMM_COMPUTE_32F,
            DEEPGEMM_R_32F,
            DEEPGEMM_R_16BF,
            DEEPGEMM_R_16BF,
            DEEPGEMM_R_16BF,
            DEEPGEMM_R_16BF,
            id,
            &mut algo,
        );
        (s, algo)
    }

    fn check(&self, algo: &deepgemmLtMatmulAlgo_t) -> (deepgemmStatus_t, usize) {
        let mut r = deepgemmLtMatmulHeuristicResult_t {
            algo: deepgemmLtMatmulAlgo_t::default(),
            workspaceSize: 77,
            state: DEEPGEMM_STATUS_LICENSE_ERROR,
            wavesCount: -1.0,
            reserved: [0; 4],
        };
        let s = deepgemmLtMatmulAlgoCheck(
            self.h, self.desc, self.a, self.b, self.d, self.d, algo, &mut r,
        );
        if s == DEEPGEMM_STATUS_SUCCESS {
            assert_eq!(r.state, DEEPGEMM_STATUS_SUCCESS);
            assert!(r.wavesCount > 0.0);
        }
        (s, r.workspaceSize)
    }

    fn matmul(&self, algo: &deepgemmLtMatmulAlgo_t, a: usize, ws: usize) -> deepgemmStatus_t {
        let (alpha, beta) = (1.0f32, 0.0f32);
        deepgemmLtMatmul(
            self.h,
            self.desc,
            (&alpha as *const f32).cast(),
            a as *const c_void,
            self.a,
            B as *const c_void,
            self.b,
            (&beta as *const f32).cast(),
            D as *const c_void,
            self.d,
            D as *mut c_void,
            self.d,
            algo,
            if ws > 0 {
                0x100_0000 as *mut c_void
            } else {
                null_mut()
            },
            ws,
            null_mut(),
        )
    }

    fn last_plan(&self) -> deepgemm::plan::Plan {
        testing::lt_recorded(self.h)
            .last()
            .and_then(|c| c.plan)
            .expect("a recorded call with a plan")
    }
}

impl Drop for Op {
    fn drop(&mut self) {
        for l in [self.a, self.b, self.d] {
            assert_eq!(deepgemmLtMatrixLayoutDestroy(l), DEEPGEMM_STATUS_SUCCESS);
        }
        assert_eq!(
            deepgemmLtMatmulDescDestroy(self.desc),
            DEEPGEMM_STATUS_SUCCESS
        );
        assert_eq!(deepgemmLtDestroy(self.h), DEEPGEMM_STATUS_SUCCESS);
    }
}

const BF16: [i32; 6] = [
    DEEPGEMM_COMPUTE_32F,
    DEEPGEMM_R_32F,
    DEEPGEMM_R_16BF,
    DEEPGEMM_R_16BF,
    DEEPGEMM_R_16BF,
    DEEPGEMM_R_16BF,
];

fn cap_u32s(algo: &deepgemmLtMatmulAlgo_t, attr: i32) -> Vec<u32> {
    let mut need = usize::MAX;
    assert_eq!(
        deepgemmLtMatmulAlgoCapGetAttribute(algo, attr, null_mut(), 0, &mut need),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(need % 4, 0);
    let mut v = vec![0u32; need / 4];
    let mut written = usize::MAX;
    assert_eq!(
        deepgemmLtMatmulAlgoCapGetAttribute(algo, attr, v.as_mut_ptr().cast(), need, &mut written),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(written, need);
    v
}

fn cap<T: Copy + Default>(algo: &deepgemmLtMatmulAlgo_t, attr: i32) -> T {
    let mut v = T::default();
    let mut written = 0;
    assert_eq!(
        deepgemmLtMatmulAlgoCapGetAttribute(
            algo,
            attr,
            (&mut v as *mut T).cast(),
            size_of::<T>(),
            &mut written
        ),
        DEEPGEMM_STATUS_SUCCESS,
        "cap {attr}"
    );
    assert_eq!(written, size_of::<T>());
    v
}

fn config<T: Copy + Default>(algo: &deepgemmLtMatmulAlgo_t, attr: i32) -> T {
    let mut v = T::default();
    let mut written = 0;
    assert_eq!(
        deepgemmLtMatmulAlgoConfigGetAttribute(
            algo,
            attr,
            (&mut v as *mut T).cast(),
            size_of::<T>(),
            &mut written
        ),
        DEEPGEMM_STATUS_SUCCESS,
        "config {attr}"
    );
    assert_eq!(written, size_of::<T>());
    v
}

fn set<T: Copy>(algo: &mut deepgemmLtMatmulAlgo_t, attr: i32, v: T) -> deepgemmStatus_t {
    deepgemmLtMatmulAlgoConfigSetAttribute(algo, attr, (&v as *const T).cast(), size_of::<T>())
}

/// The loop of NVIDIA's LtSgemmCustomFind sample and of engines' GEMM profilers: every id,
/// every tile it lists, no split and each split it supports, each custom option; every
/// combination AlgoCheck accepts runs (recorded) on a plan with that configuration.
#[test]
fn a_profilers_loop_runs_every_configuration_it_checks() {
    let op = Op::new(DeviceSpec::H200, 2048, 1536, 4096);
    let (s, ids) = op.ids(BF16);
    assert_eq!(s, DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(ids, [1, 2, 3, 0], "Hopper families, then portable");
    let mut ran = 0;
    let mut refused = 0;
    for &id in &ids {
        let (s, base) = op.init(id);
        assert_eq!(s, DEEPGEMM_STATUS_SUCCESS);
        assert_eq!(config::<i32>(&base, DEEPGEMMLT_ALGO_CONFIG_ID), id);
        assert_eq!(config::<u32>(&base, DEEPGEMMLT_ALGO_CONFIG_SPLITK_NUM), 1);
        let tiles = cap_u32s(&base, DEEPGEMMLT_ALGO_CAP_TILE_IDS);
        assert!(!tiles.is_empty());
        let splitk: i32 = cap(&base, DEEPGEMMLT_ALGO_CAP_SPLITK_SUPPORT);
        let options: i32 = cap(&base, DEEPGEMMLT_ALGO_CAP_CUSTOM_OPTION_MAX);
        let mask: u32 = cap(&base, DEEPGEMMLT_ALGO_CAP_REDUCTION_SCHEME_MASK);
        let splits: &[u32] = if splitk == 1 { &[0, 2, 3, 4] } else { &[0] };
        for &tile in &tiles {
            for &k in splits {
                for custom in 0..=options as u32 {
                    let mut algo = base;
                    assert_eq!(
                        set(&mut algo, DEEPGEMMLT_ALGO_CONFIG_TILE_ID, tile),
                        DEEPGEMM_STATUS_SUCCESS
                    );
                    assert_eq!(
                        set(&mut algo, DEEPGEMMLT_ALGO_CONFIG_SPLITK_NUM, k),
                        DEEPGEMM_STATUS_SUCCESS
                    );
                    assert_eq!(
                        set(&mut algo, DEEPGEMMLT_ALGO_CONFIG_CUSTOM_OPTION, custom),
                        DEEPGEMM_STATUS_SUCCESS
                    );
                    if k > 1 {
                        assert_eq!(mask, DEEPGEMMLT_REDUCTION_SCHEME_COMPUTE_TYPE as u32);
                        assert_eq!(
                            set(&mut algo, DEEPGEMMLT_ALGO_CONFIG_REDUCTION_SCHEME, mask),
                            DEEPGEMM_STATUS_SUCCESS
                        );
                    }
                    let (s, ws) = op.check(&algo);
                    if s != DEEPGEMM_STATUS_SUCCESS {
                        assert_eq!(
                            s, DEEPGEMM_STATUS_NOT_SUPPORTED,
                            "tile {tile} k {k} option {custom}"
                        );
                        assert_eq!(op.matmul(&algo, A, 1 << 30), DEEPGEMM_STATUS_NOT_SUPPORTED);
                        refused += 1;
                        continue;
                    }
                    assert_eq!(
                        op.matmul(&algo, A, ws),
                        DEEPGEMM_STATUS_SUCCESS,
                        "tile {tile} k {k}"
                    );
                    let plan = op.last_plan();
                    let got = Config::of(&plan);
                    assert_eq!(got.id, id, "{}", plan.name());
                    assert_eq!(got.tile, tile, "{}", plan.name());
                    assert_eq!(got.splitk, k.max(1), "{}", plan.name());
                    assert_eq!(got.custom, custom, "{}", plan.name());
                    assert_eq!(plan.workspace as usize, ws, "{}", plan.name());
                    ran += 1;
                }
            }
        }
    }
    eprintln!("{ran} configurations ran, {refused} refused");
    // Every family runs something, and not every combination exists.
    assert!(ran >= 40 && refused > 0, "ran {ran}, refused {refused}");
}

/// Heuristic results report their plan's configuration; a reconfigured one runs a plan with
/// the new configuration.
#[test]
fn heuristic_algos_report_and_take_a_configuration() {
    let op = Op::new(DeviceSpec::H200, 4096, 4096, 4096);
    let pr = pref();
    let ws: u64 = 1 << 30;
    assert_eq!(
        Obj::Pref(pr).set(DEEPGEMMLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, ws),
        DEEPGEMM_STATUS_SUCCESS
    );
    let mut res = vec![
        deepgemmLtMatmulHeuristicResult_t {
            algo: deepgemmLtMatmulAlgo_t::default(),
            workspaceSize: 0,
            state: DEEPGEMM_STATUS_SUCCESS,
            wavesCount: 0.0,
            reserved: [0; 4],
        };
        8
    ];
    let mut n = 0;
    assert_eq!(
        deepgemmLtMatmulAlgoGetHeuristic(
            op.h,
            op.desc,
            op.a,
            op.b,
            op.d,
            op.d,
            pr,
            8,
            res.as_mut_ptr(),
            &mut n
        ),
        DEEPGEMM_STATUS_SUCCESS
    );
    for r in &res[..n as usize] {
        assert_eq!(
            op.matmul(&r.algo, A, r.workspaceSize),
            DEEPGEMM_STATUS_SUCCESS
        );
        let plan = op.last_plan();
        let want = Config::of(&plan);
        assert_eq!(config::<i32>(&r.algo, DEEPGEMMLT_ALGO_CONFIG_ID), want.id);
        assert_eq!(
            config::<u32>(&r.algo, DEEPGEMMLT_ALGO_CONFIG_TILE_ID),
            want.tile
        );
        assert_eq!(
            config::<u32>(&r.algo, DEEPGEMMLT_ALGO_CONFIG_SPLITK_NUM),
            want.splitk
        );
        assert_eq!(
            config::<u16>(&r.algo, DEEPGEMMLT_ALGO_CONFIG_CLUSTER_SHAPE_ID),
            want.cluster
        );
        let flags: u64 = cap(&r.algo, DEEPGEMMLT_ALGO_CAP_NUMERICAL_IMPL_FLAGS);
        assert_eq!(
            flags,
            DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_HMMA
                | DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_ACCUMULATOR_32F
                | DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_INPUT_16BF
        );
    }
    // Setting back what was read leaves a heuristic result as it was (the same plan).
    for r in &res[..n as usize] {
        let mut same = r.algo;
        for attr in [
            DEEPGEMMLT_ALGO_CONFIG_TILE_ID,
            DEEPGEMMLT_ALGO_CONFIG_SPLITK_NUM,
            DEEPGEMMLT_ALGO_CONFIG_CUSTOM_OPTION,
            DEEPGEMMLT_ALGO_CONFIG_STAGES_ID,
        ] {
            let v: u32 = config(&same, attr);
            assert_eq!(set(&mut same, attr, v), DEEPGEMM_STATUS_SUCCESS);
        }
        assert_eq!(same, r.algo);
    }
    // The first result, told to use 128 x 128 tiles.
    let mut algo = res[0].algo;
    assert_eq!(
        set(
            &mut algo,
            DEEPGEMMLT_ALGO_CONFIG_TILE_ID,
            DEEPGEMMLT_MATMUL_TILE_128x128 as u32
        ),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(op.check(&algo).0, DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(op.matmul(&algo, A, 1 << 30), DEEPGEMM_STATUS_SUCCESS);
    match op.last_plan().kernel {
        Kernel::Sm90(v) => assert_eq!((v.block_m, v.block_n), (128, 128)),
        k => panic!("{k:?}"),
    }
    assert_eq!(
        deepgemmLtMatmulPreferenceDestroy(pr),
        DEEPGEMM_STATUS_SUCCESS
    );
}

/// Misaligned A: a configured Hopper algo runs on packed copies (workspace) or is refused;
/// the portable id runs anywhere.
#[test]
fn configured_algos_follow_the_call_s_pointers_and_workspace() {
    let op = Op::new(DeviceSpec::H200, 4096, 4096, 4096);
    let (_, sm90) = op.init(1);
    assert_eq!(op.matmul(&sm90, A + 2, 1 << 30), DEEPGEMM_STATUS_SUCCESS);
    assert!(op.last_plan().pack.is_some());
    assert_ne!(op.matmul(&sm90, A + 2, 0), DEEPGEMM_STATUS_SUCCESS);
    let (_, portable) = op.init(0);
    assert_eq!(op.matmul(&portable, A + 2, 0), DEEPGEMM_STATUS_SUCCESS);
    assert!(matches!(op.last_plan().kernel, Kernel::Portable(_)));
    // Stream-K without workspace: INVALID_VALUE, as cuBLASLt for a workspace under the algo's.
    let mut sk = sm90;
    assert_eq!(
        set(&mut sk, DEEPGEMMLT_ALGO_CONFIG_CUSTOM_OPTION, 1u32),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(op.matmul(&sk, A, 0), DEEPGEMM_STATUS_INVALID_VALUE);
}

#[test]
fn ids_depend_on_types_and_device() {
    let h200 = Op::new(DeviceSpec::H200, 64, 64, 64);
    let a100 = Op::new(DeviceSpec::A100, 64, 64, 64);
    let tf32 = [
        DEEPGEMM_COMPUTE_32F_FAST_TF32,
        DEEPGEMM_R_32F,
        DEEPGEMM_R_32F,
        DEEPGEMM_R_32F,
        DEEPGEMM_R_32F,
        DEEPGEMM_R_32F,
    ];
    let exact = [DEEPGEMM_COMPUTE_32F, DEEPGEMM_R_32F, 0, 0, 0, 0];
    // tf32: the main tiles, the solo tiles (TN, session 60) and the portable kernel.
    assert_eq!(h200.ids(tf32), (DEEPGEMM_STATUS_SUCCESS, vec![1, 3, 0]));
    assert_eq!(h200.ids(exact), (DEEPGEMM_STATUS_SUCCESS, vec![0]));
    assert_eq!(a100.ids(BF16), (DEEPGEMM_STATUS_SUCCESS, vec![0]));
    // Valid types deepgemm does not run: none (fp8, int8); values no enum has: INVALID_VALUE.
    let fp8 = [
        DEEPGEMM_COMPUTE_32F,
        DEEPGEMM_R_32F,
        DEEPGEMM_R_8F_E4M3,
        DEEPGEMM_R_8F_E4M3,
        DEEPGEMM_R_16BF,
        DEEPGEMM_R_16BF,
    ];
    assert_eq!(h200.ids(fp8), (DEEPGEMM_STATUS_SUCCESS, vec![]));
    let mut bad = BF16;
    bad[0] = 12345;
    assert_eq!(h200.ids(bad).0, DEEPGEMM_STATUS_INVALID_VALUE);
    // Fewer asked for than there are: the first ones.
    let mut ids = [0; 2];
    let mut n = 0;
    let [ct, st, at, bt, c, dt] = BF16;
    assert_eq!(
        deepgemmLtMatmulAlgoGetIds(h200.h, ct, st, at, bt, c, dt, 2, ids.as_mut_ptr(), &mut n),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!((n, ids), (2, [1, 2]));
    // Init: an id deepgemm lacks is INVALID_VALUE, one the device lacks NOT_SUPPORTED.
    assert_eq!(h200.init(9).0, DEEPGEMM_STATUS_INVALID_VALUE);
    assert_eq!(h200.init(-1).0, DEEPGEMM_STATUS_INVALID_VALUE);
    assert_eq!(a100.init(1).0, DEEPGEMM_STATUS_NOT_SUPPORTED);
    assert_eq!(a100.init(0).0, DEEPGEMM_STATUS_SUCCESS);
}

#[test]
fn argument_checks() {
    let op = Op::new(DeviceSpec::H200, 64, 64, 64);
    let [ct, st, at, bt, c, dt] = BF16;
    let mut ids = [0; 4];
    let mut n = -3;
    assert_eq!(
        deepgemmLtMatmulAlgoGetIds(
            null_mut(),
            ct,
            st,
            at,
            bt,
            c,
            dt,
            4,
            ids.as_mut_ptr(),
            &mut n
        ),
        DEEPGEMM_STATUS_NOT_INITIALIZED
    );
    assert_eq!(
        deepgemmLtMatmulAlgoGetIds(op.h, ct, st, at, bt, c, dt, 0, ids.as_mut_ptr(), &mut n),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(
        deepgemmLtMatmulAlgoGetIds(op.h, ct, st, at, bt, c, dt, 4, null_mut(), &mut n),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(
        deepgemmLtMatmulAlgoGetIds(op.h, ct, st, at, bt, c, dt, 4, ids.as_mut_ptr(), null_mut()),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(n, -3, "nothing written on failure");
    assert_eq!(
        deepgemmLtMatmulAlgoInit(op.h, ct, st, at, bt, c, dt, 1, null_mut()),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    let (_, mut algo) = op.init(1);
    let mut v = 0u32;
    let mut w = 0usize;
    // Caps and config: NULL algo, foreign words, unknown attributes, wrong sizes.
    assert_eq!(
        deepgemmLtMatmulAlgoCapGetAttribute(
            null(),
            DEEPGEMMLT_ALGO_CAP_TILE_IDS,
            null_mut(),
            0,
            &mut w
        ),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    let foreign = deepgemmLtMatmulAlgo_t { data: [1; 8] };
    assert_eq!(
        deepgemmLtMatmulAlgoConfigGetAttribute(
            &foreign,
            DEEPGEMMLT_ALGO_CONFIG_ID,
            (&mut v as *mut u32).cast(),
            4,
            &mut w
        ),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(
        deepgemmLtMatmulAlgoCapGetAttribute(&algo, 8, (&mut v as *mut u32).cast(), 4, &mut w),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(
        deepgemmLtMatmulAlgoCapGetAttribute(
            &algo,
            DEEPGEMMLT_ALGO_CAP_SPLITK_SUPPORT,
            (&mut v as *mut u32).cast(),
            8,
            &mut w
        ),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    // A list's buffer too small for it.
    assert_eq!(
        deepgemmLtMatmulAlgoCapGetAttribute(
            &algo,
            DEEPGEMMLT_ALGO_CAP_TILE_IDS,
            (&mut v as *mut u32).cast(),
            4,
            &mut w
        ),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    // Size queries.
    w = 0;
    assert_eq!(
        deepgemmLtMatmulAlgoConfigGetAttribute(
            &algo,
            DEEPGEMMLT_ALGO_CONFIG_CLUSTER_SHAPE_ID,
            null_mut(),
            0,
            &mut w
        ),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(w, 2);
    let before = algo;
    assert_eq!(
        set(&mut algo, DEEPGEMMLT_ALGO_CONFIG_ID, 0i32),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(
        set(&mut algo, DEEPGEMMLT_ALGO_CONFIG_TILE_ID, 20u16),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(
        set(&mut algo, DEEPGEMMLT_ALGO_CONFIG_TILE_ID, 99_999u32),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(set(&mut algo, 42, 0u32), DEEPGEMM_STATUS_INVALID_VALUE);
    assert_eq!(
        deepgemmLtMatmulAlgoConfigSetAttribute(
            &mut algo,
            DEEPGEMMLT_ALGO_CONFIG_TILE_ID,
            null(),
            4
        ),
        DEEPGEMM_STATUS_INVALID_VALUE
    );
    assert_eq!(algo, before, "refused sets leave the algo as it was");
    // A configuration no plan has: AlgoCheck and Matmul say NOT_SUPPORTED.
    assert_eq!(
        set(&mut algo, DEEPGEMMLT_ALGO_CONFIG_CTA_SWIZZLING, 1u32),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(op.check(&algo).0, DEEPGEMM_STATUS_NOT_SUPPORTED);
    assert_eq!(op.matmul(&algo, A, 0), DEEPGEMM_STATUS_NOT_SUPPORTED);
    // An algo made for fp16 on a bf16 operation: INVALID_VALUE.
    let mut fp16 = deepgemmLtMatmulAlgo_t::default();
    assert_eq!(
        deepgemmLtMatmulAlgoInit(
            op.h,
            ct,
            st,
            DEEPGEMM_R_16F,
            DEEPGEMM_R_16F,
            DEEPGEMM_R_16F,
            DEEPGEMM_R_16F,
            1,
            &mut fp16
        ),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(op.check(&fp16).0, DEEPGEMM_STATUS_INVALID_VALUE);
}

/// SM_COUNT_TARGET: the heuristic plans for that many SMs, AlgoCheck reports their waves,
/// Matmul runs (records) its algo with the target and a grid within it.
#[test]
fn sm_count_target_plans_for_fewer_sms() {
    let op = Op::new(DeviceSpec::H200, 8192, 8192, 1024);
    let pr = pref();
    let ws: u64 = 64 << 20;
    assert_eq!(
        Obj::Pref(pr).set(DEEPGEMMLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, ws),
        DEEPGEMM_STATUS_SUCCESS
    );
    let first = |op: &Op| {
        let mut r = [deepgemmLtMatmulHeuristicResult_t {
            algo: deepgemmLtMatmulAlgo_t::default(),
            workspaceSize: 0,
            state: DEEPGEMM_STATUS_SUCCESS,
            wavesCount: 0.0,
            reserved: [0; 4],
        }; 4];
        let mut n = 0;
        assert_eq!(
            deepgemmLtMatmulAlgoGetHeuristic(
                op.h,
                op.desc,
                op.a,
                op.b,
                op.d,
                op.d,
                pr,
                4,
                r.as_mut_ptr(),
                &mut n
            ),
            DEEPGEMM_STATUS_SUCCESS
        );
        r[..n as usize].to_vec()
    };
    let all = first(&op);
    assert_eq!(
        op.matmul(&all[0].algo, A, all[0].workspaceSize),
        DEEPGEMM_STATUS_SUCCESS
    );
    let wide = op.last_plan();
    assert!(wide.grid[0] > 60, "{}", wide.name());
    assert_eq!(testing::lt_recorded(op.h).last().unwrap().sm_target, 0);
    assert_eq!(
        Obj::Desc(op.desc).set(DEEPGEMMLT_MATMUL_DESC_SM_COUNT_TARGET, 60i32),
        DEEPGEMM_STATUS_SUCCESS
    );
    let few = first(&op);
    for r in &few {
        assert_eq!(
            op.check(&r.algo),
            (DEEPGEMM_STATUS_SUCCESS, r.workspaceSize)
        );
        assert_eq!(
            op.matmul(&r.algo, A, r.workspaceSize),
            DEEPGEMM_STATUS_SUCCESS
        );
        let plan = op.last_plan();
        assert!(plan.grid[0] <= 60, "{}", plan.name());
        // Waves are counted on the SMs the call may use.
        let ctas: u32 = plan.grid.iter().product();
        assert!(
            (r.wavesCount - ctas as f32 / 60.0).abs() < 1e-3,
            "{}",
            plan.name()
        );
        assert_eq!(testing::lt_recorded(op.h).last().unwrap().sm_target, 60);
    }
    // A configured algo follows the target too.
    let (_, sm90) = op.init(1);
    assert_eq!(op.matmul(&sm90, A, 0), DEEPGEMM_STATUS_SUCCESS);
    assert!(op.last_plan().grid[0] <= 60);
    assert_eq!(
        deepgemmLtMatmulPreferenceDestroy(pr),
        DEEPGEMM_STATUS_SUCCESS
    );
}

fn heuristic_with(
    op: &Op,
    pr: deepgemmLtMatmulPreference_t,
    first: deepgemmLtMatmulAlgo_t,
    n: usize,
) -> (deepgemmStatus_t, Vec<deepgemmLtMatmulHeuristicResult_t>) {
    let mut r = vec![
        deepgemmLtMatmulHeuristicResult_t {
            algo: deepgemmLtMatmulAlgo_t::default(),
            workspaceSize: 0,
            state: DEEPGEMM_STATUS_SUCCESS,
            wavesCount: 0.0,
            reserved: [0; 4],
        };
        n
    ];
    r[0].algo = first;
    let mut count = -1;
    let s = deepgemmLtMatmulAlgoGetHeuristic(
        op.h,
        op.desc,
        op.a,
        op.b,
        op.d,
        op.d,
        pr,
        n as i32,
        r.as_mut_ptr(),
        &mut count,
    );
    r.truncate(count.max(0) as usize);
    (s, r)
}

/// SEARCH_LIMITED_BY_ALGO_ID: the best configurations of the algo id in the first result's
/// algo, each distinct, each running a plan with its configuration.
#[test]
fn limited_by_algo_id_lists_the_family_s_configurations() {
    let op = Op::new(DeviceSpec::H200, 2048, 1536, 4096);
    let pr = pref();
    let ws: u64 = 1 << 30;
    assert_eq!(
        Obj::Pref(pr).set(DEEPGEMMLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, ws),
        DEEPGEMM_STATUS_SUCCESS
    );
    assert_eq!(
        Obj::Pref(pr).set(
            DEEPGEMMLT_MATMUL_PREF_SEARCH_MODE,
            DEEPGEMMLT_SEARCH_LIMITED_BY_ALGO_ID as u32
        ),
        DEEPGEMM_STATUS_SUCCESS
    );
    for (id, at_least) in [(1, 32), (2, 2), (3, 2), (0, 1)] {
        let (_, init) = op.init(id);
        let (s, res) = heuristic_with(&op, pr, init, 64);
        assert_eq!(s, DEEPGEMM_STATUS_SUCCESS, "id {id}");
        assert!(res.len() >= at_least, "id {id}: {} results", res.len());
        let mut configs = std::collections::HashSet::new();
        for r in &res {
            let want = (
                config::<i32>(&r.algo, DEEPGEMMLT_ALGO_CONFIG_ID),
                config::<u32>(&r.algo, DEEPGEMMLT_ALGO_CONFIG_TILE_ID),
                config::<u32>(&r.algo, DEEPGEMMLT_ALGO_CONFIG_SPLITK_NUM),
                config::<u32>(&r.algo, DEEPGEMMLT_ALGO_CONFIG_CUSTOM_OPTION),
                config::<u32>(&r.algo, DEEPGEMMLT_ALGO_CONFIG_STAGES_ID),
                config::<u16>(&r.algo, DEEPGEMMLT_ALGO_CONFIG_CLUSTER_SHAPE_ID),
            );
            assert_eq!(want.0, id);
            assert!(configs.insert(want), "id {id}: {want:?} twice");
            assert_eq!(
                op.check(&r.algo),
                (DEEPGEMM_STATUS_SUCCESS, r.workspaceSize)
            );
            assert_eq!(
                op.matmul(&r.algo, A, r.workspaceSize),
                DEEPGEMM_STATUS_SUCCESS
            );
            let plan = op.last_plan();
            let got = Config::of(&plan);
            assert_eq!(
                (
                    got.id,
                    got.tile,
                    got.splitk,
                    got.custom,
                    got.stages,
                    got.cluster
                ),
                want,
                "{}",
                plan.name()
            );
            assert_eq!(plan.workspace as usize, r.workspaceSize, "{}", plan.name());
        }
    }
    // The family comes from an algo deepgemm made: zeroed words are INVALID_VALUE.
    let (s, _) = heuristic_with(&op, pr, deepgemmLtMatmulAlgo_t::default(), 4);
    assert_eq!(s, DEEPGEMM_STATUS_INVALID_VALUE);
    assert_eq!(
        deepgemmLtMatmulPreferenceDestroy(pr),
        DEEPGEMM_STATUS_SUCCESS
    );
}

/// IMPL_MASK: only algos whose numerical implementation the mask allows are listed.
#[test]
fn impl_mask_filters_by_numerical_implementation() {
    let op = Op::new(DeviceSpec::H200, 1024, 1024, 1024);
    let pr = pref();
    let none = deepgemmLtMatmulAlgo_t::default();
    let (s, all) = heuristic_with(&op, pr, none, 16);
    assert_eq!(s, DEEPGEMM_STATUS_SUCCESS);
    let tensor = DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_HMMA
        | DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_ACCUMULATOR_32F
        | DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_INPUT_16BF;
    assert_eq!(
        Obj::Pref(pr).set(DEEPGEMMLT_MATMUL_PREF_IMPL_MASK, tensor),
        DEEPGEMM_STATUS_SUCCESS
    );
    let (s, masked) = heuristic_with(&op, pr, none, 16);
    assert_eq!(s, DEEPGEMM_STATUS_SUCCESS);
    assert_eq!(
        masked.len(),
        all.len(),
        "every bf16 algo is HMMA, fp32 accumulate"
    );
    // No tensor cores allowed: nothing runs bf16 at COMPUTE_32F.
    let fma = DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_FMA
        | DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_ACCUMULATOR_32F
        | DEEPGEMMLT_NUMERICAL_IMPL_FLAGS_INPUT_16BF;
    assert_eq!(
        Obj::Pref(pr).set(DEEPGEMMLT_MATMUL_PREF_IMPL_MASK, fma),
        DEEPGEMM_STATUS_SUCCESS
    );
    let (s, none_left) = heuristic_with(&op, pr, none, 16);
    assert_eq!((s, none_left.len()), (DEEPGEMM_STATUS_NOT_SUPPORTED, 0));
    assert_eq!(
        deepgemmLtMatmulPreferenceDestroy(pr),
        DEEPGEMM_STATUS_SUCCESS
    );
}

/// LIMITED_BY_ALGO_ID applies the preference's filters before it picks each configuration's
/// plan: 4095³ (odd leading dimensions, packed copies) at PyTorch's 32 MiB lists the
/// configuration BEST_FIT ranks first (its whole copies need 67 MB; its blocks fit).
#[test]
fn limited_by_algo_id_keeps_configurations_whose_first_plan_is_filtered_out() {
    let op = Op::new(DeviceSpec::H200, 4095, 4095, 4095);
    let pr = pref();
    let ws: u64 = 32 << 20;
    assert_eq!(
        Obj::Pref(pr).set(DEEPGEMMLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, ws),
        DEEPGEMM_STATUS_SUCCESS
    );
    let (s, best) = heuristic_with(&op, pr, deepgemmLtMatmulAlgo_t::default(), 1);
    assert_eq!(s, DEEPGEMM_STATUS_SUCCESS);
    let fields = |a: &deepgemmLtMatmulAlgo_t| {
        (
            config::<i32>(a, DEEPGEMMLT_ALGO_CONFIG_ID),
            config::<u32>(a, DEEPGEMMLT_ALGO_CONFIG_TILE_ID),
            config::<u32>(a, DEEPGEMMLT_ALGO_CONFIG_SPLITK_NUM),
            config::<u32>(a, DEEPGEMMLT_ALGO_CONFIG_CUSTOM_OPTION),
        )
    };
    let want = fields(&best[0].algo);
    assert!(best[0].workspaceSize as u64 <= ws);
    assert_eq!(
        Obj::Pref(pr).set(
            DEEPGEMMLT_MATMUL_PREF_SEARCH_MODE,
            DEEPGEMMLT_SEARCH_LIMITED_BY_ALGO_ID as u32
        ),
        DEEPGEMM_STATUS_SUCCESS
    );
    let (_, init) = op.init(want.0);
    let (s, limited) = heuristic_with(&op, pr, init, 32);
    assert_eq!(s, DEEPGEMM_STATUS_SUCCESS);
    assert!(limited.iter().all(|r| r.workspaceSize as u64 <= ws));
    assert!(
        limited.iter().any(|r| fields(&r.algo) == want),
        "{want:?} missing from {:?}",
        limited.iter().map(|r| fields(&r.algo)).collect::<Vec<_>>()
    );
    assert_eq!(
        deepgemmLtMatmulPreferenceDestroy(pr),
        DEEPGEMM_STATUS_SUCCESS
    );
}

/// Many threads configure, check and run algos at once, each on handles of its own (the plan
/// cache and the configured-plan cache are the process's, filled and read concurrently over
/// several problems): every thread gets the plan a single thread does.
#[test]
fn configured_algos_from_many_threads() {
    let shapes = [
        (2048u64, 1536u64, 4096u64),
        (512, 512, 8192),
        (4096, 128, 1024),
    ];
    // What one thread gets first: (shape, tile) -> plan name.
    let expect: Vec<Vec<(u32, String)>> = shapes
        .iter()
        .map(|&(m, n, k)| {
            let op = Op::new(DeviceSpec::H200, m, n, k);
            let (_, base) = op.init(1);
            cap_u32s(&base, DEEPGEMMLT_ALGO_CAP_TILE_IDS)
                .into_iter()
                .filter_map(|tile| {
                    let mut a = base;
                    set(&mut a, DEEPGEMMLT_ALGO_CONFIG_TILE_ID, tile);
                    (op.matmul(&a, A, 1 << 30) == DEEPGEMM_STATUS_SUCCESS)
                        .then(|| (tile, op.last_plan().name()))
                })
                .collect()
        })
        .collect();
    let expect = std::sync::Arc::new(expect);
    let threads: Vec<_> = (0..6)
        .map(|t| {
            let expect = expect.clone();
            std::thread::spawn(move || {
                let ops: Vec<Op> = shapes
                    .iter()
                    .map(|&(m, n, k)| Op::new(DeviceSpec::H200, m, n, k))
                    .collect();
                for round in 0..3 {
                    for (i, op) in ops.iter().enumerate() {
                        let (_, base) = op.init(1);
                        let list = &expect[i];
                        for j in 0..list.len() {
                            let (tile, name) = &list[(j + t + round) % list.len()];
                            let mut a = base;
                            assert_eq!(
                                set(&mut a, DEEPGEMMLT_ALGO_CONFIG_TILE_ID, *tile),
                                DEEPGEMM_STATUS_SUCCESS
                            );
                            assert_eq!(op.check(&a).0, DEEPGEMM_STATUS_SUCCESS);
                            assert_eq!(op.matmul(&a, A, 1 << 30), DEEPGEMM_STATUS_SUCCESS);
                            assert_eq!(&op.last_plan().name(), name, "thread {t}");
                        }
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
}
