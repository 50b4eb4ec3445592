//! CPU unit tests of the pure pieces: argument and shape parsing, the JSON writer, the
//! median, and (from tests/common/host.rs) data types, geometry, the reference GEMM,
//! the epilogues, the error metric and the tolerances.

use crate::args::{self, CheckMode, Command, InType, Options};
use crate::host::{self, *};
use crate::json::{Json, obj};
use crate::run::{self, Timing};

fn opts(a: &[&str]) -> Result<Options, String> {
    let v: Vec<String> = a.iter().map(|s| s.to_string()).collect();
    match args::parse(&v)? {
        Command::Run(o) => Ok(*o),
        Command::Help => Err("help".into()),
    }
}

#[test]
fn parse_defaults() {
    let o = opts(&[]).unwrap();
    assert_eq!(o.shapes, args::DEFAULT_SHAPES.to_vec());
    assert_eq!(o.dtype, InType::Bf16);
    assert_eq!(o.out_dtype(), DType::BF16);
    // PyTorch Linear in cuBLAS terms: transa = T, transb = N.
    assert!(o.trans_a && !o.trans_b);
    assert!(o.layout_label().starts_with("TN"));
    assert!(o.layout_label().contains("PyTorch"));
    assert_eq!(o.iters, 50);
    assert_eq!(o.chain, 1);
    assert_eq!(opts(&["--chain", "20"]).unwrap().chain, 20);
    assert_eq!(o.check, CheckMode::Auto);
    assert!(o.cublas && o.flush_l2);
    assert_eq!(o.json, None);
    assert!(!o.sweep && o.algo_index == 0);
    let s = opts(&["--sweep", "--algo-index", "2"]).unwrap();
    assert!(s.sweep && s.algo_index == 2 && !s.interleave);
    assert!(opts(&["--sweep", "--interleave"]).unwrap().interleave);
    assert!(opts(&["--interleave"]).is_err());
    assert!(!o.plans && !o.plans_all && !o.plan_time);
    let t = opts(&["--plan-time", "--workspace-mib", "8"]).unwrap();
    assert!(t.plan_time && !t.plans && t.workspace_mib == Some(8));
    let p = opts(&["--precompile", "_f32_,m128n256", "--manifest", "/tmp/m.txt"]).unwrap();
    assert_eq!(p.precompile.as_deref(), Some("_f32_,m128n256"));
    assert_eq!(
        p.manifest.as_deref(),
        Some(std::path::Path::new("/tmp/m.txt"))
    );
}

#[test]
fn parse_everything() {
    let o = opts(&[
        "--shape",
        "8x16x32",
        "--shape",
        "1X2X3",
        "--dtype",
        "fp16",
        "--out",
        "fp32",
        "--layout",
        "NT",
        "--epilogue",
        "gelu_bias",
        "--iters",
        "7",
        "--warmup",
        "0",
        "--batch",
        "3",
        "--json",
        "/tmp/x.json",
        "--no-cublas",
        "--check",
        "sample",
        "--device",
        "1",
        "--seed",
        "42",
        "--no-flush",
        "--beta",
        "-0.5",
    ])
    .unwrap();
    assert_eq!(o.shapes, vec![(8, 16, 32), (1, 2, 3)]);
    assert_eq!(o.dtype, InType::Fp16);
    assert_eq!(o.out_dtype(), DType::F32);
    assert!(!o.trans_a && o.trans_b);
    assert_eq!(o.epi, Epi::GeluBias);
    assert_eq!((o.iters, o.warmup, o.batch), (7, 0, 3));
    assert_eq!(o.json.as_deref(), Some(std::path::Path::new("/tmp/x.json")));
    assert!(!o.cublas && !o.flush_l2);
    assert_eq!(o.check, CheckMode::Sample);
    assert_eq!((o.device, o.seed), (1, Some(42)));
    assert_eq!(o.beta, -0.5);
    // beta reaches the spec; its default is 0 (C not read).
    assert_eq!(run::spec_for(&o, (8, 16, 32)).beta, -0.5);
    assert_eq!(opts(&[]).unwrap().beta, 0.0);
    // --pad reaches the spec's leading dimensions; with beta = 0 C is D (its layout too).
    assert_eq!(o.pad, [0; 4]);
    let p = opts(&["--pad", "1,0,5,3"]).unwrap();
    assert_eq!(p.pad, [1, 0, 5, 3]);
    let s = run::spec_for(&p, (64, 32, 16));
    assert_eq!(s.pad, [1, 0, 3, 3]);
    assert_eq!((s.geom(host::A).ld, s.geom(host::D).ld), (17, 67)); // TN: A is k x m
    let pb = opts(&["--pad", "0,0,5,3", "--beta", "1"]).unwrap();
    assert_eq!(run::spec_for(&pb, (64, 32, 16)).pad, [0, 0, 5, 3]);
    // tf32 data is fp32, so its output is fp32 even with --out same.
    let t = opts(&["--dtype", "tf32"]).unwrap();
    assert_eq!((t.dtype.dtype(), t.out_dtype()), (DType::F32, DType::F32));
    for l in ["NN", "NT", "TN", "TT"] {
        let o = opts(&["--layout", l]).unwrap();
        assert_eq!(args::layout_letters(o.trans_a, o.trans_b), l);
    }
}

#[test]
fn parse_errors() {
    for bad in [
        &["--shape"][..],
        &["--shape", "8x16"],
        &["--shape", "8x0x3"],
        &["--shape", "8x-1x3"],
        &["--shape", "axbxc"],
        &["--dtype", "int8"],
        &["--out", "bf16"],
        &["--layout", "NX"],
        &["--layout", "NNN"],
        &["--epilogue", "swish"],
        &["--iters", "0"],
        &["--chain", "0"],
        &["--batch", "0"],
        &["--check", "most"],
        &["--beta", "inf"],
        &["--manifest", "/tmp/m.txt"],
        &["--beta", "x"],
        &["--pad", "1,1,1"],
        &["--pad", "1,1,1,-1"],
        &["--pad", "a,1,1,1"],
        &["--frobnicate"],
        &["--shapes", "/nonexistent/shapes.txt"],
    ] {
        assert!(opts(bad).is_err(), "{bad:?} was accepted");
    }
    let h: Vec<String> = vec!["--help".into()];
    assert_eq!(args::parse(&h), Ok(Command::Help));
}

#[test]
fn shape_lists() {
    let text = "# peer shapes\n4096x4096x4096\n\n  127 x 4095 x 4096  # skinny\n1000x3000x4000\n";
    assert_eq!(
        args::parse_shape_list(text).unwrap(),
        vec![(4096, 4096, 4096), (127, 4095, 4096), (1000, 3000, 4000)]
    );
    let e = args::parse_shape_list("1x2x3\n1x2\n").unwrap_err();
    assert!(e.starts_with("line 2"), "{e}");
    let dir = std::env::temp_dir().join(format!("dg-bench-shapes-{}", std::process::id()));
    std::fs::write(&dir, "2x3x4\n").unwrap();
    let o = opts(&["--shapes", dir.to_str().unwrap(), "--shape", "5x6x7"]).unwrap();
    std::fs::remove_file(&dir).unwrap();
    assert_eq!(o.shapes, vec![(2, 3, 4), (5, 6, 7)]);
}

#[test]
fn json_writer() {
    let doc = obj(vec![
        ("s", "a\"b\\c\nd\u{1}".into()),
        ("i", 42i64.into()),
        ("f", 0.5f64.into()),
        ("small", 1e-20f64.into()),
        ("nan", f64::NAN.into()),
        ("inf", f64::INFINITY.into()),
        ("none", Option::<f64>::None.into()),
        ("t", true.into()),
        ("arr", Json::Arr(vec![1i64.into(), Json::Arr(vec![])])),
        ("empty", obj(vec![])),
    ]);
    let s = doc.render();
    let expect = "{\n  \"s\": \"a\\\"b\\\\c\\nd\\u0001\",\n  \"i\": 42,\n  \"f\": 0.5,\n  \
                  \"small\": 1e-20,\n  \"nan\": null,\n  \"inf\": null,\n  \"none\": null,\n  \
                  \"t\": true,\n  \"arr\": [\n    1,\n    []\n  ],\n  \"empty\": {}\n}\n";
    assert_eq!(s, expect);
    // Whole numbers stay valid JSON numbers.
    assert_eq!(Json::Num(3.0).render(), "3.0\n");
    assert_eq!(Json::from(u64::MAX).render(), "1.8446744073709552e19\n");
}

#[test]
fn median_and_rate() {
    let t = Timing::from_samples(&[3.0, 1.0, 2.0]).unwrap();
    assert_eq!(
        (t.median_ms, t.min_ms, t.max_ms, t.samples),
        (2.0, 1.0, 3.0, 3)
    );
    let t = Timing::from_samples(&[4.0, 1.0, 2.0, 3.0]).unwrap();
    assert_eq!(t.median_ms, 2.5);
    assert!(Timing::from_samples(&[]).is_none());
    // 2 * 1024^3 flops in 1 ms is 2.147 TFLOP/s.
    let t = Timing::from_samples(&[1.0]).unwrap();
    assert!((t.tflops(2.0 * 1024f64.powi(3)) - 2.147483648).abs() < 1e-9);
}

#[test]
fn ratio_summary_is_a_geometric_mean() {
    let o = opts(&[]).unwrap();
    let result = |dg_ms: f64, lt_ms: Option<f64>| run::ShapeResult {
        spec: run::spec_for(&o, (8, 8, 8)),
        check_mode: "none",
        dg: run::LibResult {
            timing: Timing::from_samples(&[dg_ms]),
            ..Default::default()
        },
        lt: lt_ms.map(|ms| run::LibResult {
            timing: Timing::from_samples(&[ms]),
            ..Default::default()
        }),
        dg_vs_lt: None,
        passed: true,
        why_failed: Vec::new(),
        sweep: Vec::new(),
        sweep_lt: None,
    };
    assert!(run::ratio_summary(&[result(1.0, None)]).is_none());
    let (g, lo, hi, n) = run::ratio_summary(&[
        result(1.0, Some(2.0)),
        result(2.0, Some(1.0)),
        result(1.0, None),
    ])
    .unwrap();
    assert!((g - 1.0).abs() < 1e-12 && lo == 0.5 && hi == 2.0 && n == 2);
    let (g, ..) = run::ratio_summary(&[result(1.0, Some(4.0)), result(1.0, Some(1.0))]).unwrap();
    assert!((g - 2.0).abs() < 1e-12);
}

#[test]
fn check_mode_auto() {
    let o = opts(&[]).unwrap();
    let small = run::spec_for(&o, (1024, 1024, 1024));
    let big = run::spec_for(&o, (1024, 1024, 1025));
    assert_eq!(run::resolve_check(CheckMode::Auto, &small), CheckMode::Full);
    assert_eq!(run::resolve_check(CheckMode::Auto, &big), CheckMode::Sample);
    assert_eq!(run::resolve_check(CheckMode::None, &small), CheckMode::None);
    assert!(small.trans_a && !small.trans_b);
}

#[test]
fn dtype_encoding() {
    for t in [DType::F32, DType::F16, DType::BF16] {
        let mut buf = Vec::new();
        for x in [0.0f32, 1.0, -0.5, 0.333, 65504.0] {
            t.push(&mut buf, x);
        }
        assert_eq!(buf.len(), 5 * t.size());
        let v = t.decode(&buf);
        assert_eq!(v[1], 1.0);
        assert_eq!(v[2], -0.5);
        assert_eq!(v[3], t.round(0.333) as f64);
        let mut b2 = vec![0u8; 5 * t.size()];
        t.put(&mut b2, 3, 0.333);
        assert_eq!(t.get(&b2, 3), v[3]);
        assert!(t.decode(&t.nan_buffer(3)).iter().all(|x| x.is_nan()));
    }
    // Rounding to the stored type is what the reference must see.
    assert_eq!(DType::BF16.round(1.0 + 1.0 / 512.0), 1.0); // tie -> even
    assert_eq!(DType::BF16.round(1.0 + 3.0 / 512.0), 1.0 + 4.0 / 512.0);
    assert_eq!(DType::F16.round(1.0 + 1.0 / 4096.0), 1.0);
    assert_eq!(DType::F32.round(0.1), 0.1);
    assert_eq!(
        (DType::F32.cuda(), DType::F16.cuda(), DType::BF16.cuda()),
        (0, 2, 14)
    );
}

#[test]
fn rng_is_deterministic_and_in_range() {
    let (mut a, mut b) = (Rng::new(7), Rng::new(7));
    let mut min = 1.0f32;
    let mut max = -1.0f32;
    let mut sum = 0.0f64;
    for _ in 0..100_000 {
        let x = a.symmetric();
        assert_eq!(x, b.symmetric());
        assert!((-1.0..1.0).contains(&x));
        min = min.min(x);
        max = max.max(x);
        sum += x as f64;
    }
    assert!(min < -0.99 && max > 0.99 && (sum / 1e5).abs() < 0.02);
    assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    let mut r = Rng::new(3);
    let mut seen = [false; 5];
    for _ in 0..1000 {
        let v = r.below(5);
        assert!(v < 5);
        seen[v as usize] = true;
    }
    assert!(seen.iter().all(|&s| s));
    // No zeros in random data (they would hide unwritten outputs).
    let buf = random_buffer(&mut Rng::new(9), DType::BF16, 10_000);
    assert!(
        DType::BF16
            .decode(&buf)
            .iter()
            .filter(|&&x| x == 0.0)
            .count()
            < 10
    );
}

#[test]
fn geometry() {
    // Column-major 3x2, ld 5: (r, c) at r + 5c.
    let g = Geom::new(3, 2, Order::Col, 2, 1, 0);
    assert_eq!((g.ld, g.matrix_elems(), g.buffer_elems()), (5, 10, 10));
    assert_eq!(g.at(0, 2, 1), 7);
    // Row-major 3x2, ld 2+3: (r, c) at 5r + c.
    let g = Geom::new(3, 2, Order::Row, 3, 1, 0);
    assert_eq!((g.ld, g.matrix_elems()), (5, 15));
    assert_eq!(g.at(0, 2, 1), 11);
    // Batches 17 elements apart (matrix of 6 + 11 gap).
    let g = Geom::new(3, 2, Order::Col, 0, 4, 11);
    assert_eq!((g.batch_stride, g.buffer_elems()), (17, 3 * 17 + 6));
    assert_eq!(g.at(2, 1, 1), 34 + 4);
    // k = 0: a 5x0 operand still has a valid leading dimension and an address.
    let g = Geom::new(5, 0, Order::Row, 0, 1, 0);
    assert_eq!((g.ld, g.matrix_elems(), g.buffer_elems()), (1, 5, 5));
    let g = Geom::new(5, 0, Order::Col, 0, 1, 0);
    assert_eq!((g.ld, g.matrix_elems(), g.buffer_elems()), (5, 0, 1));
}

fn approx(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * (1.0 + b.abs())
}

/// Writes f32 values into a buffer of `t` with the given element offsets.
fn fill(t: DType, elems: u64, vals: &[(usize, f32)]) -> Vec<u8> {
    let mut buf = t.nan_buffer(elems as usize);
    for &(off, v) in vals {
        t.put(&mut buf, off, v);
    }
    buf
}

#[test]
fn reference_hand_computed() {
    // op(A) = [[1, 2, 3], [4, 5, 6]] (2x3), op(B) = [[1, 0], [0, 1], [1, 1]] (3x2):
    // op(A) op(B) = [[4, 5], [10, 11]].
    let la = [[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
    let lb = [[1.0f32, 0.0], [0.0, 1.0], [1.0, 1.0]];
    let expect = [[4.0, 5.0], [10.0, 11.0]];
    for (ta, tb, oa, ob) in [
        (false, false, Order::Col, Order::Col),
        (true, false, Order::Col, Order::Col),
        (false, true, Order::Row, Order::Col),
        (true, true, Order::Row, Order::Row),
    ] {
        let mut s = GemmSpec::new(DType::F32, DType::F32, 2, 2, 3);
        s.trans_a = ta;
        s.trans_b = tb;
        s.order = [oa, ob, Order::Col, Order::Row];
        s.pad = [1, 2, 0, 3];
        // Place the logical values by hand with cuBLAS's rules (not through a_at).
        let ga = s.geom(A);
        let gb = s.geom(B);
        let off = |g: &Geom, r: u64, c: u64| match g.order {
            Order::Col => (r + c * g.ld) as usize,
            Order::Row => (r * g.ld + c) as usize,
        };
        let mut av = Vec::new();
        for i in 0..2u64 {
            for kk in 0..3u64 {
                let (r, c) = if ta { (kk, i) } else { (i, kk) };
                av.push((off(&ga, r, c), la[i as usize][kk as usize]));
            }
        }
        let mut bv = Vec::new();
        for kk in 0..3u64 {
            for j in 0..2u64 {
                let (r, c) = if tb { (j, kk) } else { (kk, j) };
                bv.push((off(&gb, r, c), lb[kk as usize][j as usize]));
            }
        }
        let data = HostData {
            a: fill(DType::F32, ga.buffer_elems(), &av),
            b: fill(DType::F32, gb.buffer_elems(), &bv),
            c: DType::F32.nan_buffer(s.geom(C).buffer_elems() as usize),
            bias: vec![],
        };
        let w = Widened::new(&s, &data);
        let r = host::reference(&s, &w);
        for i in 0..2 {
            for j in 0..2 {
                assert_eq!(r[i * 2 + j], expect[i][j], "{s}");
                assert_eq!(
                    host::reference_at(&s, &w, 0, i as u64, j as u64),
                    expect[i][j]
                );
            }
        }
    }
}

#[test]
fn reference_epilogues_and_scalars() {
    // 1x1x1 GEMMs: D = act(alpha*a*b + beta*c + bias).
    let run = |epi: Epi, a: f32, b: f32, c: f32, bias: f32, alpha: f32, beta: f32| {
        let mut s = GemmSpec::new(DType::F32, DType::F32, 1, 1, 1);
        s.epi = epi;
        s.alpha = alpha;
        s.beta = beta;
        s.bias_type = Some(DType::F32);
        let data = HostData {
            a: fill(DType::F32, 1, &[(0, a)]),
            b: fill(DType::F32, 1, &[(0, b)]),
            c: fill(DType::F32, 1, &[(0, c)]),
            bias: fill(DType::F32, 1, &[(0, bias)]),
        };
        host::reference(&s, &Widened::new(&s, &data))[0]
    };
    assert_eq!(run(Epi::Default, 2.0, 3.0, 10.0, 100.0, 0.5, 0.25), 5.5);
    assert_eq!(run(Epi::Bias, 2.0, 3.0, 10.0, 100.0, 0.5, 0.25), 105.5);
    assert_eq!(run(Epi::Relu, 2.0, -3.0, 1.0, 100.0, 1.0, 1.0), 0.0);
    assert_eq!(run(Epi::ReluBias, 2.0, -3.0, 1.0, 100.0, 1.0, 1.0), 95.0);
    assert!(approx(
        run(Epi::Gelu, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0),
        0.8411919906082768
    ));
    assert!(approx(
        run(Epi::GeluBias, 1.0, 1.0, 0.0, -2.0, 1.0, 0.0),
        -0.15880800939172324
    ));
    // beta = 0: C is not read, even when it is NaN.
    let mut s = GemmSpec::new(DType::F32, DType::F32, 1, 1, 1);
    s.c_nan = true;
    let data = HostData::random(&s, &mut Rng::new(1));
    assert!(DType::F32.get(&data.c, 0).is_nan());
    assert!(host::reference(&s, &Widened::new(&s, &data))[0].is_finite());
    // k = 0: D = beta*C (+ bias).
    let mut s = GemmSpec::new(DType::BF16, DType::BF16, 3, 2, 0);
    s.beta = 0.5;
    let data = HostData::random(&s, &mut Rng::new(2));
    let w = Widened::new(&s, &data);
    let r = host::reference(&s, &w);
    let gc = s.geom(C);
    for i in 0..3 {
        for j in 0..2 {
            assert_eq!(
                r[i * 2 + j],
                0.5 * DType::BF16.get(&data.c, gc.at(0, i as u64, j as u64))
            );
        }
    }
    assert_eq!(gelu(0.0), 0.0);
    assert!(approx(gelu(-1.0), -0.15880800939172324));
}

#[test]
fn reference_threaded_matches_direct() {
    // The packed, multi-threaded reference against the direct per-element formula on
    // batched, padded, mixed-order problems with a per-batch bias.
    let mut rng = Rng::new(11);
    for (i, &(m, n, k)) in [(37, 5, 19), (1, 33, 7), (64, 1, 1), (9, 9, 0)]
        .iter()
        .enumerate()
    {
        let mut s = GemmSpec::new(DType::BF16, DType::F32, m, n, k);
        s.trans_a = i % 2 == 0;
        s.trans_b = i % 3 == 0;
        s.order = [Order::Row, Order::Col, Order::Row, Order::Col];
        s.pad = [3, 1, 2, 5];
        s.batch = 3;
        s.batch_pad = [7, 0, 1, 9];
        s.alpha = -1.5;
        s.beta = 0.75;
        s.epi = Epi::GeluBias;
        s.bias_batch_stride = m + 2;
        let data = HostData::random(&s, &mut rng);
        let w = Widened::new(&s, &data);
        let r = host::reference(&s, &w);
        for b in 0..3 {
            for i in 0..m {
                for j in 0..n {
                    let direct = host::reference_at(&s, &w, b, i, j);
                    assert!(approx(r[((b * m + i) * n + j) as usize], direct), "{s}");
                }
            }
        }
    }
}

#[test]
fn spec_layouts() {
    let mut s = GemmSpec::new(DType::F16, DType::F16, 5, 7, 3);
    s.trans_a = true;
    s.trans_b = true;
    let (ga, gb, gd) = (s.geom(A), s.geom(B), s.geom(D));
    assert_eq!((ga.rows, ga.cols, ga.ld), (3, 5, 3));
    assert_eq!((gb.rows, gb.cols, gb.ld), (7, 3, 7));
    assert_eq!((gd.rows, gd.cols, gd.ld), (5, 7, 5));
    // In place, C takes D's layout.
    s.in_place = true;
    s.order[D] = Order::Row;
    s.pad[D] = 3;
    assert_eq!(s.geom(C), s.geom(D));
    assert_eq!(s.ops(), "TT");
    assert_eq!(s.types(), "f16->f16");
    s.tf32 = true;
    assert_eq!(s.compute_type(), 77);
    let line = s.to_string();
    assert!(
        line.contains("m=5 n=7 k=3") && line.contains("in-place"),
        "{line}"
    );
    s.epi = Epi::Bias;
    s.batch = 4;
    s.bias_batch_stride = 9;
    assert_eq!(s.bias_elems(), 3 * 9 + 5);
    assert_eq!(s.bias_dtype(), DType::F16);
}

#[test]
fn tolerances() {
    assert_eq!(tolerance(DType::F32, DType::F32, false), 1e-5);
    assert_eq!(tolerance(DType::F32, DType::F32, true), 5e-4);
    assert_eq!(tolerance(DType::F16, DType::F16, false), 1e-2);
    assert_eq!(tolerance(DType::BF16, DType::BF16, false), 1e-2);
    assert_eq!(tolerance(DType::F16, DType::F32, false), 1e-3);
    assert_eq!(tolerance(DType::BF16, DType::F32, false), 1e-3);
}

/// A 4x3 f32 problem with its reference and an output buffer holding that reference.
fn small_case() -> (GemmSpec, Vec<f64>, Vec<u8>, Vec<u8>) {
    let mut s = GemmSpec::new(DType::F32, DType::F32, 4, 3, 5);
    s.pad = [0, 0, 0, 2];
    let data = HostData::random(&s, &mut Rng::new(5));
    let r = host::reference(&s, &Widened::new(&s, &data));
    let before = DType::F32.nan_buffer(s.geom(D).buffer_elems() as usize);
    let mut out = before.clone();
    let g = s.geom(D);
    for i in 0..4 {
        for j in 0..3 {
            DType::F32.put(&mut out, g.at(0, i, j), r[(i * 3 + j) as usize] as f32);
        }
    }
    (s, r, before, out)
}

#[test]
fn comparison_catches_errors() {
    let (s, r, before, out) = small_case();
    let tol = s.tolerance();
    let ok = host::compare_full(&s, &out, &before, &r);
    assert!(ok.passes(tol), "{ok}");
    assert!(ok.rel_err < 1e-7);
    assert_eq!(ok.count, 12);
    // One unwritten element (still NaN) fails.
    let mut bad = out.clone();
    DType::F32.put(&mut bad, s.geom(D).at(0, 3, 2), f32::NAN);
    let c = host::compare_full(&s, &bad, &before, &r);
    assert!(
        !c.passes(tol) && c.nonfinite == 1 && c.rel_err.is_nan(),
        "{c}"
    );
    // A write into D's padding (row 4, 5 of the ld-6 column) fails.
    let mut bad = out.clone();
    DType::F32.put(&mut bad, 4, 1.0);
    let c = host::compare_full(&s, &bad, &before, &r);
    assert!(!c.passes(tol) && c.outside_writes == 1, "{c}");
    // A 1% error in one of 12 elements is far above fp32 tolerance.
    let mut bad = out.clone();
    let off = s.geom(D).at(0, 1, 1);
    let v = DType::F32.get(&out, off);
    DType::F32.put(&mut bad, off, (v * 1.01) as f32);
    let c = host::compare_full(&s, &bad, &before, &r);
    assert!(!c.passes(tol) && c.rel_err > 1e-4, "{c}");
    assert_eq!(c.worst.map(|w| (w.1, w.2)), Some((1, 1)));
    // Relative Frobenius error, by hand: ref (3, 4), out (3, 4.5) -> 0.5 / 5.
    let mut s2 = GemmSpec::new(DType::F32, DType::F32, 2, 1, 1);
    s2.pad = [0; 4];
    let out2 = {
        let mut b = Vec::new();
        DType::F32.push(&mut b, 3.0);
        DType::F32.push(&mut b, 4.5);
        b
    };
    let c = host::compare_full(&s2, &out2, &out2, &[3.0, 4.0]);
    assert!(approx(c.rel_err, 0.1), "{c}");
    // A zero reference falls back to the absolute error.
    let c = host::compare_full(&s2, &out2, &out2, &[0.0, 0.0]);
    assert!(approx(c.rel_err, (9.0f64 + 20.25).sqrt()));
}

#[test]
fn sampled_and_cross_comparison() {
    let (s, _r, _before, out) = small_case();
    let data = HostData::random(&s, &mut Rng::new(5));
    let w = Widened::new(&s, &data);
    let c = host::compare_sampled(&s, &w, &out, 20, &mut Rng::new(1));
    assert!(c.passes(s.tolerance()) && c.count == 28, "{c}");
    // A NaN the samples may miss is still found by the full scan.
    let mut bad = out.clone();
    DType::F32.put(&mut bad, s.geom(D).at(0, 2, 1), f32::NAN);
    let c = host::compare_sampled(&s, &w, &bad, 0, &mut Rng::new(1));
    assert!(!c.passes(s.tolerance()) && c.nonfinite == 1, "{c}");
    // Output against output.
    let c = host::compare_outputs(&s, &out, &out);
    assert!(c.passes(1e-12) && c.rel_err == 0.0);
    let c = host::compare_outputs(&s, &out, &bad);
    assert!(!c.passes(1.0));
    let c = host::compare_outputs(&s, &bad, &out);
    assert!(!c.passes(1.0));
}

/// The descriptors and calls the GPU checks make, driven through deepgemm's real C API
/// with a recording handle (validation and planning run, nothing launches): what reaches
/// the library must be exactly the GEMM the spec describes. deepgemm's own parser
/// (`GemmProblem`) is the independent reading of our layouts.
#[test]
fn descriptors_reach_deepgemm_as_specified() {
    use crate::lt::{self, Args, Descs, LtApi, LtHandle};
    use deepgemm::ffi::testing::{lt_recorded, recording_lt_handle};
    use deepgemm::plan::DeviceSpec;
    use deepgemm::problem::Scalar;
    use deepgemm::types::{Activation, Math, Op, PointerMode, ScalarType};

    let api = LtApi::deepgemm();
    let st = |t: DType| match t {
        DType::F32 => ScalarType::F32,
        DType::F16 => ScalarType::F16,
        DType::BF16 => ScalarType::BF16,
    };
    let mut specs = Vec::new();
    for (i, &(ab, cd, tf32)) in crate::case::TYPE_COMBOS.iter().enumerate() {
        let mut s = GemmSpec::new(ab, cd, 17 + i as u64, 5, 129);
        s.tf32 = tf32;
        s.trans_a = i % 2 == 1;
        s.trans_b = i % 3 == 1;
        s.order = [
            if i % 2 == 0 { Order::Row } else { Order::Col },
            if i % 3 == 0 { Order::Row } else { Order::Col },
            Order::Col,
            if i % 2 == 1 { Order::Row } else { Order::Col },
        ];
        s.pad = [3, 0, 1, 2];
        s.alpha = 0.75;
        s.beta = 0.5;
        s.epi = Epi::ALL[i];
        if s.epi.has_bias() && i % 2 == 0 {
            s.bias_type = Some(DType::F32);
        }
        if i == 4 {
            s.batch = 3;
            s.batch_pad = [5, 7, 0, 11];
            s.bias_batch_stride = 40;
            s.device_scalars = true;
        }
        if i == 5 {
            s.in_place = true;
            s.batch = 2;
        }
        specs.push(s);
    }
    for s in &specs {
        let h = LtHandle {
            api: &api,
            h: recording_lt_handle(DeviceSpec::H200) as lt::Handle,
        };
        let bias_ptr = 0x7000_0000u64;
        let descs = Descs::new(&api, s, bias_ptr, 1 << 20).unwrap();
        let heur = descs.heuristic(&h, 1 << 20).unwrap();
        let (alpha, beta) = (s.alpha, s.beta);
        let args = Args {
            alpha: if s.device_scalars {
                0x6000_0000usize as *const std::ffi::c_void
            } else {
                &alpha as *const f32 as *const std::ffi::c_void
            },
            beta: if s.device_scalars {
                0x6000_0004usize as *const std::ffi::c_void
            } else {
                &beta as *const f32 as *const std::ffi::c_void
            },
            a: 0x1000_0000,
            b: 0x2000_0000,
            c: if s.in_place { 0x4000_0000 } else { 0x3000_0000 },
            d: 0x4000_0000,
            workspace: 0x5000_0000,
            workspace_size: 1 << 20,
            stream: 0x1234usize as *mut std::ffi::c_void,
        };
        lt::matmul(&h, &descs, Some(&heur.algo), &args).unwrap();
        lt::matmul(&h, &descs, None, &args).unwrap();
        let calls = lt_recorded(h.h as _);
        assert_eq!(calls.len(), 2, "{s}");
        let call = &calls[0];
        let p = &call.problem;
        assert_eq!((p.m, p.n, p.k, p.batch), (s.m, s.n, s.k, s.batch), "{s}");
        assert_eq!((p.ab_type, p.cd_type), (st(s.ab), st(s.cd)), "{s}");
        let math = match (s.ab, s.tf32) {
            (DType::F32, false) => Math::Ffma,
            (DType::F32, true) => Math::MmaTf32,
            _ => Math::Mma,
        };
        assert_eq!(p.math, math, "{s}");
        assert_eq!(p.op_a, if s.trans_a { Op::T } else { Op::N }, "{s}");
        assert_eq!(p.op_b, if s.trans_b { Op::T } else { Op::N }, "{s}");
        // Logical strides from our geometry must be deepgemm's.
        let strides = |which: usize| {
            let g = s.geom(which);
            let at = |b: u64, r: u64, c: u64| -> i64 {
                (match which {
                    A => s.a_at(&g, b, r, c),
                    B => s.b_at(&g, b, r, c),
                    _ => g.at(b, r, c),
                }) as i64
            };
            let o = at(0, 0, 0);
            (at(0, 1, 0) - o, at(0, 0, 1) - o, g.batch_stride as i64)
        };
        for (which, ps) in [(A, p.a), (B, p.b), (C, p.c), (D, p.d)] {
            let (row, col, batch) = strides(which);
            assert_eq!((ps.row, ps.col), (row, col), "operand {which}: {s}");
            if s.batch > 1 {
                assert_eq!(ps.batch, batch, "operand {which}: {s}");
            }
        }
        let act = match s.epi {
            Epi::Default | Epi::Bias => Activation::None,
            Epi::Relu | Epi::ReluBias => Activation::Relu,
            Epi::Gelu | Epi::GeluBias => Activation::Gelu,
        };
        assert_eq!(
            (p.epilogue.activation, p.epilogue.bias),
            (act, s.epi.has_bias()),
            "{s}"
        );
        if s.epi.has_bias() {
            assert_eq!(p.bias_type, st(s.bias_dtype()), "{s}");
            assert_eq!(p.bias_batch_stride, s.bias_batch_stride as i64, "{s}");
            assert_eq!(call.ptrs.bias, bias_ptr);
        }
        if s.device_scalars {
            assert_eq!(p.pointer_mode, PointerMode::Device);
            assert_eq!(call.ptrs.alpha, Scalar::Device(0x6000_0000));
            assert_eq!(call.ptrs.beta, Scalar::Device(0x6000_0004));
        } else {
            assert_eq!(p.pointer_mode, PointerMode::Host);
            assert_eq!(call.ptrs.alpha, Scalar::Host(s.alpha));
            assert_eq!(call.ptrs.beta, Scalar::Host(s.beta));
        }
        assert_eq!(
            (call.ptrs.a, call.ptrs.b, call.ptrs.c, call.ptrs.d),
            (args.a, args.b, args.c, args.d)
        );
        assert_eq!(call.stream, 0x1234);
        assert_eq!(
            (call.workspace, call.workspace_size),
            (0x5000_0000, 1 << 20)
        );
        assert!(call.plan.is_some());
        assert_eq!(heur.state, 0);
        // Extents: our buffer sizes cover everything deepgemm may touch.
        for (which, ext) in [
            (A, p.extent[0]),
            (B, p.extent[1]),
            (C, p.extent[2]),
            (D, p.extent[3]),
        ] {
            assert!(ext <= s.geom(which).buffer_elems(), "operand {which}: {s}");
        }
    }
}

/// Our attribute numbers and enum values are deepgemm's (and so cuBLASLt's).
#[test]
fn constants_match_deepgemm() {
    use crate::lt::attr;
    use deepgemm::ffi::*;
    assert_eq!(attr::DESC_POINTER_MODE, DEEPGEMMLT_MATMUL_DESC_POINTER_MODE);
    assert_eq!(attr::DESC_TRANSA, DEEPGEMMLT_MATMUL_DESC_TRANSA);
    assert_eq!(attr::DESC_TRANSB, DEEPGEMMLT_MATMUL_DESC_TRANSB);
    assert_eq!(attr::DESC_EPILOGUE, DEEPGEMMLT_MATMUL_DESC_EPILOGUE);
    assert_eq!(attr::DESC_BIAS_POINTER, DEEPGEMMLT_MATMUL_DESC_BIAS_POINTER);
    assert_eq!(
        attr::DESC_BIAS_BATCH_STRIDE,
        DEEPGEMMLT_MATMUL_DESC_BIAS_BATCH_STRIDE
    );
    assert_eq!(
        attr::DESC_BIAS_DATA_TYPE,
        DEEPGEMMLT_MATMUL_DESC_BIAS_DATA_TYPE
    );
    assert_eq!(attr::LAYOUT_ORDER, DEEPGEMMLT_MATRIX_LAYOUT_ORDER);
    assert_eq!(
        attr::LAYOUT_BATCH_COUNT,
        DEEPGEMMLT_MATRIX_LAYOUT_BATCH_COUNT
    );
    assert_eq!(
        attr::LAYOUT_STRIDED_BATCH_OFFSET,
        DEEPGEMMLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET
    );
    assert_eq!(
        attr::PREF_MAX_WORKSPACE_BYTES,
        DEEPGEMMLT_MATMUL_PREF_MAX_WORKSPACE_BYTES
    );
    assert_eq!(attr::POINTER_MODE_DEVICE, DEEPGEMMLT_POINTER_MODE_DEVICE);
    assert_eq!(DType::F32.cuda(), DEEPGEMM_R_32F);
    assert_eq!(DType::F16.cuda(), DEEPGEMM_R_16F);
    assert_eq!(DType::BF16.cuda(), DEEPGEMM_R_16BF);
    assert_eq!(Order::Row.cuda(), DEEPGEMMLT_ORDER_ROW);
    let epis = [
        (Epi::Default, DEEPGEMMLT_EPILOGUE_DEFAULT),
        (Epi::Relu, DEEPGEMMLT_EPILOGUE_RELU),
        (Epi::Bias, DEEPGEMMLT_EPILOGUE_BIAS),
        (Epi::ReluBias, DEEPGEMMLT_EPILOGUE_RELU_BIAS),
        (Epi::Gelu, DEEPGEMMLT_EPILOGUE_GELU),
        (Epi::GeluBias, DEEPGEMMLT_EPILOGUE_GELU_BIAS),
    ];
    for (e, v) in epis {
        assert_eq!(e.cuda() as i32, v);
    }
    let s = GemmSpec::new(DType::F32, DType::F32, 1, 1, 1);
    assert_eq!(s.compute_type(), DEEPGEMM_COMPUTE_32F);
    let mut t = s.clone();
    t.tf32 = true;
    assert_eq!(t.compute_type(), DEEPGEMM_COMPUTE_32F_FAST_TF32);
}

/// The GemmEx / GemmStridedBatchedEx calls of the GPU suite, through deepgemm's real C
/// API with a recording handle: the problem that arrives is the spec's.
#[test]
fn gemm_ex_reaches_deepgemm_as_specified() {
    use crate::blas::{self, BlasHandle};
    use deepgemm::ffi::testing::{recorded, recording_handle};
    use deepgemm::plan::DeviceSpec;
    use deepgemm::problem::Scalar;
    for (i, &(ab, cd, tf32)) in crate::case::TYPE_COMBOS.iter().enumerate() {
        for strided in [false, true] {
            let mut s = GemmSpec::new(ab, cd, 33 + i as u64, 17, 65);
            s.tf32 = tf32;
            s.trans_a = i % 2 == 0;
            s.trans_b = strided;
            s.in_place = true;
            s.pad = [3, 1, 0, 2];
            s.alpha = 1.5;
            s.beta = -0.5;
            if strided {
                s.batch = 3;
                s.batch_pad = [37, 0, 0, 5];
            }
            let h = BlasHandle(recording_handle(DeviceSpec::H200));
            h.set_stream(0x99usize as *mut std::ffi::c_void).unwrap();
            let (alpha, beta) = (s.alpha, s.beta);
            blas::gemm_ex(
                &h,
                &s,
                strided,
                &alpha as *const f32 as *const std::ffi::c_void,
                &beta as *const f32 as *const std::ffi::c_void,
                0x1000,
                0x2000,
                0x3000,
            )
            .unwrap();
            let calls = recorded(h.0);
            assert_eq!(calls.len(), 1);
            let (p, x) = (&calls[0].problem, &calls[0].ptrs);
            assert_eq!((p.m, p.n, p.k, p.batch), (s.m, s.n, s.k, s.batch), "{s}");
            assert_eq!((x.a, x.b, x.c, x.d), (0x1000, 0x2000, 0x3000, 0x3000));
            assert_eq!((x.alpha, x.beta), (Scalar::Host(1.5), Scalar::Host(-0.5)));
            assert_eq!(calls[0].stream, 0x99);
            let ga = s.geom(A);
            let row = (s.a_at(&ga, 0, 1, 0) - s.a_at(&ga, 0, 0, 0)) as i64;
            let col = (s.a_at(&ga, 0, 0, 1) - s.a_at(&ga, 0, 0, 0)) as i64;
            assert_eq!((p.a.row, p.a.col), (row, col), "{s}");
            assert_eq!((p.d.row, p.d.col), (1, s.geom(D).ld as i64), "{s}");
            if strided {
                assert_eq!(
                    (p.a.batch, p.b.batch, p.d.batch),
                    (
                        s.geom(A).batch_stride as i64,
                        s.geom(B).batch_stride as i64,
                        s.geom(D).batch_stride as i64
                    )
                );
            }
            // A spec GemmEx cannot express is refused before any call.
            let mut t = s.clone();
            t.order[A] = Order::Row;
            assert!(
                blas::gemm_ex(&h, &t, strided, std::ptr::null(), std::ptr::null(), 1, 1, 1)
                    .is_err()
            );
        }
    }
}

#[test]
fn tf32_rounding_keeps_ten_mantissa_bits_to_nearest_ties_away() {
    use crate::host::round_tf32;
    assert_eq!(round_tf32(1.0), 1.0);
    let ulp = 2f64.powi(-10); // TF32 spacing just above 1.0
    assert_eq!(round_tf32(1.0 + 0.49 * ulp), 1.0);
    assert_eq!(
        round_tf32(1.0 + 0.5 * ulp),
        1.0 + ulp,
        "ties away from zero"
    );
    assert_eq!(round_tf32(-(1.0 + 0.5 * ulp)), -(1.0 + ulp));
    assert_eq!(round_tf32(1.0 + 0.51 * ulp), 1.0 + ulp);
    assert!(round_tf32(f64::NAN).is_nan());
    assert_eq!(round_tf32(f64::INFINITY), f64::INFINITY);
    // Every result has its 13 low fp32 mantissa bits clear.
    for x in [0.123456789, -3.75e-3, 1234.5678, 7.0e-30] {
        assert_eq!((round_tf32(x) as f32).to_bits() & 0x1fff, 0, "{x}");
        assert!((round_tf32(x) - x).abs() <= x.abs() * 2f64.powi(-11));
    }
}

#[test]
fn host_overhead_options() {
    let o = opts(&["--host-overhead"]).unwrap();
    assert!(o.host_overhead);
    assert_eq!(o.shapes, vec![args::HOST_OVERHEAD_SHAPE]);
    assert_eq!(o.calls, 20_000);
    let o = opts(&["--host-overhead", "--calls", "700", "--shape", "128x64x32"]).unwrap();
    assert_eq!((o.calls, o.shapes.clone()), (700, vec![(128, 64, 32)]));
    assert!(!opts(&[]).unwrap().host_overhead);
    assert!(opts(&["--calls", "0"]).is_err());
    assert!(opts(&["--calls"]).is_err());
}

#[test]
fn host_overhead_costs_and_report_line() {
    use crate::overhead::{CallCost, line};
    // Batches of 500 calls: 1 ms, 1.2 ms, 3 ms (preempted): mean 3.47 us, median 2.4 us.
    let c = CallCost::from_batches(&[1e-3, 1.2e-3, 3e-3], 500).unwrap();
    assert_eq!(c.calls, 1500);
    assert!((c.mean_us - 5.2e-3 * 1e6 / 1500.0).abs() < 1e-9, "{c:?}");
    assert!((c.median_us - 2.4).abs() < 1e-9, "{c:?}");
    assert_eq!(CallCost::from_batches(&[], 500), None);
    let l = line("algo = NULL", &["deepgemm", "cuBLASLt"], &[Some(c), None]);
    assert!(
        l.contains("algo = NULL") && l.contains("deepgemm 3.47 us/call (median 2.40)"),
        "{l}"
    );
    assert!(l.ends_with(", cuBLASLt -"), "{l}");
}

/// The host-overhead loop through deepgemm's C API on a recording handle: each case makes the
/// calls it names (the heuristic's algo reaches the runtime as its plan, NULL as no plan).
#[test]
fn host_overhead_batches_make_the_calls_they_name() {
    use crate::lt::{self, Args, Descs, LtApi, LtHandle};
    use crate::overhead::{BATCH, Case, Side, timed_batch};
    use deepgemm::ffi::testing::{lt_recorded, recording_lt_handle};
    use deepgemm::plan::DeviceSpec;

    let api = LtApi::deepgemm();
    let h = LtHandle {
        api: &api,
        h: recording_lt_handle(DeviceSpec::H200) as lt::Handle,
    };
    let o = opts(&["--host-overhead"]).unwrap();
    let spec = run::spec_for(&o, o.shapes[0]);
    let descs = Descs::new(&api, &spec, 0, 1 << 20).unwrap();
    let algo = descs.heuristic(&h, 1 << 20).unwrap().algo;
    let (alpha, beta) = (1.0f32, 0.0f32);
    let side = Side {
        handle: &h,
        descs,
        algo,
        args: Args {
            alpha: &alpha as *const f32 as *const std::ffi::c_void,
            beta: &beta as *const f32 as *const std::ffi::c_void,
            a: 0x1000_0000,
            b: 0x2000_0000,
            c: 0x4000_0000,
            d: 0x4000_0000,
            workspace: 0x5000_0000,
            workspace_size: 1 << 20,
            stream: 0x1234usize as *mut std::ffi::c_void,
        },
        max_workspace: 1 << 20,
    };
    for case in [Case::WithAlgo, Case::NullAlgo, Case::Heuristic] {
        let t = timed_batch(&side, case).unwrap();
        assert!(t > 0.0, "{case:?}");
    }
    let calls = lt_recorded(h.h as _);
    assert_eq!(calls.len(), 2 * BATCH, "the heuristic records nothing");
    let plan = calls[0].plan.expect("the heuristic's algo, decoded");
    assert_eq!(plan.to_algo(), algo.data);
    assert!(calls[..BATCH].iter().all(|c| c.plan == Some(plan)));
    assert!(calls[BATCH..].iter().all(|c| c.plan.is_none()));
    assert!(
        calls
            .iter()
            .all(|c| (c.problem.m, c.problem.n, c.problem.k) == (64, 64, 64))
    );
}

/// Buffers of 2^24 elements and more are filled on every core from per-chunk generators: the
/// same values for a seed on every run, in [-1, 1), no zeros, chunks not copies of each other.
#[test]
fn large_buffers_fill_in_parallel_deterministically() {
    let n = (1 << 24) + 12_345;
    let a = random_buffer(&mut Rng::new(21), DType::BF16, n);
    let b = random_buffer(&mut Rng::new(21), DType::BF16, n);
    assert_eq!(a.len(), 2 * n);
    assert!(a == b, "same seed, same buffer");
    assert!(a != random_buffer(&mut Rng::new(22), DType::BF16, n));
    let v = DType::BF16.decode(&a);
    assert!(v.iter().all(|&x| (-1.0..=1.0).contains(&x) && x != 0.0));
    let chunk = 1 << 22;
    assert!(
        v[..64] != v[chunk..chunk + 64],
        "chunks drew the same values"
    );
    // The last, partial chunk is filled too.
    assert!(v[n - 100..].iter().any(|&x| x != v[n - 1]));
}

/// `compare_outputs` over an output of 2^24+ elements (scanned on every core) finds what a
/// plain loop finds: the count, the error metric and the worst element; and a non-finite
/// element anywhere.
#[test]
fn large_output_scans_match_a_plain_loop() {
    let s = GemmSpec::new(DType::BF16, DType::F32, 4096, 4097, 8);
    let g = s.geom(D);
    let elems = g.buffer_elems() as usize;
    let x = random_buffer(&mut Rng::new(5), DType::F32, elems);
    let mut y = x.clone();
    let mut r = Rng::new(6);
    for _ in 0..1000 {
        let e = r.below(elems as u64) as usize;
        DType::F32.put(&mut y, e, DType::F32.get(&x, e) as f32 * 1.001);
    }
    let at = g.at(0, 4000, 4001);
    DType::F32.put(&mut y, at, DType::F32.get(&x, at) as f32 + 0.5);
    let cmp = host::compare_outputs(&s, &x, &y);
    let (mut dd, mut rr) = (0.0f64, 0.0f64);
    for i in 0..s.m {
        for j in 0..s.n {
            let off = g.at(0, i, j);
            let (xv, yv) = (DType::F32.get(&x, off), DType::F32.get(&y, off));
            dd += (xv - yv) * (xv - yv);
            rr += yv * yv;
        }
    }
    assert_eq!(cmp.count, s.m * s.n);
    assert_eq!(cmp.nonfinite, 0);
    assert!(
        (cmp.rel_err / (dd / rr).sqrt() - 1.0).abs() < 1e-9,
        "{}",
        cmp.rel_err
    );
    assert_eq!(cmp.worst.map(|w| (w.0, w.1, w.2)), Some((0, 4000, 4001)));
    let mut z = x.clone();
    DType::F32.put(&mut z, g.at(0, 4095, 7), f32::NAN);
    let bad = host::compare_outputs(&s, &z, &y);
    assert!(bad.rel_err.is_nan() && bad.worst.is_some_and(|w| w.3.is_nan()));
}
