//! `deepgemm-bench --plan-time` end to end, without a GPU: each shape's first-sight planning
//! is timed and its chosen plan printed, a slab plan's blocks counted (session 79 measured the
//! planner's CPU time with it: BENCHMARKS.md).

use std::process::Command;

#[test]
fn plan_time_prints_each_shape_and_its_blocks() {
    let out = Command::new(env!("CARGO_BIN_EXE_deepgemm-bench"))
        .args([
            "--plan-time",
            "--shape",
            "64x64x64",
            "--shape",
            "4097x4097x4097",
        ])
        .env_remove("DEEPGEMM_KERNELS")
        .output()
        .expect("run deepgemm-bench");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("(32 MiB workspace)"), "{text}");
    let row = |shape: &str| -> Vec<String> {
        let line = text
            .lines()
            .find(|l| l.starts_with(shape))
            .unwrap_or_else(|| panic!("no row for {shape}: {text}"));
        line.split_whitespace().map(str::to_string).collect()
    };
    // shape, list ms, call ms, blocks, plan
    let small = row("64x64x64 ");
    let odd = row("4097x4097x4097 ");
    for r in [&small, &odd] {
        let (list, call): (f64, f64) = (r[1].parse().unwrap(), r[2].parse().unwrap());
        assert!(list > 0.0 && call >= list, "{r:?}");
    }
    assert_eq!(small[3], "0", "{small:?}");
    // A 4097 x 4097 bf16 operand (33.6 MB) does not fit 32 MiB: a slab plan, its blocks planned.
    assert!(odd[4].contains("+slab"), "{odd:?}");
    assert!(odd[3].parse::<u32>().unwrap() >= 2, "{odd:?}");
}
