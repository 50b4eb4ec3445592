//! Autotuning results: which plan won for a problem on a GPU (pure; the timing itself is
//! `runtime::autotune`).
//!
//! Opt-in with `DEEPGEMM_AUTOTUNE=1`: on first sight of a problem signature the top candidates
//! are timed and the fastest is preferred from then on, in this process (memory) and the next
//! ones (a line per result in `autotune-v1.tsv` in the kernel cache directory). A result is
//! keyed by the GPU (name, SM count, driver version), the library version, and the problem
//! signature (a stable hash of the validated problem and the workspace limit the candidates
//! were filtered with). It names the plan (`Plan::name`, which spells out kernel, packing and
//! schedule); a stale or foreign name simply matches no candidate and is ignored.

use std::collections::HashMap;

use crate::plan::Plan;
use crate::problem::GemmProblem;

/// `DEEPGEMM_AUTOTUNE=1` (read once per process).
pub fn enabled() -> bool {
    static ON: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
        std::env::var("DEEPGEMM_AUTOTUNE").is_ok_and(|v| v.trim() == "1")
    });
    *ON
}

/// The file name of the on-disk table (a version bump makes old tables invisible).
pub const FILE: &str = "autotune-v1.tsv";

/// What a tuning result is for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    /// "GPU name|SM count|driver version|library version": tab- and newline-free.
    pub device: String,
    /// `signature` of the problem.
    pub signature: u128,
}

/// The GPU part of a key.
pub fn device_id(name: &str, sm_count: u32, driver_version: i32) -> String {
    let clean: String = name
        .chars()
        .map(|c| if c.is_control() || c == '|' { ' ' } else { c })
        .collect();
    format!(
        "{}|{sm_count}|{driver_version}|{}",
        clean.trim(),
        env!("CARGO_PKG_VERSION")
    )
}

/// A stable 128-bit hash of everything that decides the candidates: the problem (shape,
/// types, transposes, strides, batch, epilogue), the workspace limit and which of A and B sit
/// at base addresses TMA cannot take (`misaligned`: the list the plans come from, an algo's
/// word 6; 0, aligned, hashes as before it was part of the key, so earlier tables still hit).
pub fn signature(p: &GemmProblem, max_workspace: u64, misaligned: u64) -> u128 {
    let problem = format!("{p:?}");
    let ws = max_workspace.to_le_bytes();
    let mis = misaligned.to_le_bytes();
    if misaligned == 0 {
        crate::jit::cache::fnv1a128(&[problem.as_bytes(), &ws])
    } else {
        crate::jit::cache::fnv1a128(&[problem.as_bytes(), &ws, &mis])
    }
}

/// The winner of one tuning: the plan's name and its median time.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub plan: String,
    pub micros: f64,
}

/// Results by key. The last line for a key wins (a later tuning replaces an earlier one).
#[derive(Default, Debug)]
pub struct Table {
    map: HashMap<Key, Entry>,
}

impl Table {
    /// Parses the on-disk lines `device \t signature(hex) \t plan \t micros`; malformed lines
    /// (a torn write, another version's format) are skipped.
    pub fn parse(text: &str) -> Table {
        let mut t = Table::default();
        for line in text.lines() {
            let f: Vec<&str> = line.split('\t').collect();
            if f.len() != 4 || f[0].is_empty() || f[2].is_empty() {
                continue;
            }
            let (Ok(signature), Ok(micros)) = (u128::from_str_radix(f[1], 16), f[3].parse()) else {
                continue;
            };
            t.insert(
                Key {
                    device: f[0].to_string(),
                    signature,
                },
                Entry {
                    plan: f[2].to_string(),
                    micros,
                },
            );
        }
        t
    }

    /// The on-disk line for one result (newline included).
    pub fn line(key: &Key, e: &Entry) -> String {
        format!(
            "{}\t{:032x}\t{}\t{:.3}\n",
            key.device, key.signature, e.plan, e.micros
        )
    }

    pub fn get(&self, key: &Key) -> Option<&Entry> {
        self.map.get(key)
    }

    pub fn insert(&mut self, key: Key, e: Entry) {
        self.map.insert(key, e);
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// Moves the item whose plan (`plan_of`) is named `name` to the front of `items` (the others
/// keep their order); false when no plan has that name.
pub fn prefer<T>(items: &mut Vec<T>, name: &str, plan_of: impl Fn(&T) -> &Plan) -> bool {
    match items.iter().position(|x| plan_of(x).name() == name) {
        Some(i) => {
            let x = items.remove(i);
            items.insert(0, x);
            true
        }
        None => false,
    }
}

/// How many of the ranked candidates a tuning times.
pub const CANDIDATES: usize = 6;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{DeviceSpec, candidates};
    use crate::problem::{MatrixSpec, OpSpec};
    use crate::types::{compute_type::*, cuda_data_type::*};

    fn tn(m: u64, n: u64, k: u64) -> GemmProblem {
        let mut op = OpSpec::new(COMPUTE_32F, R_32F);
        op.trans_a = 1;
        let a = MatrixSpec::col(R_16BF, k, m, k as i64);
        let b = MatrixSpec::col(R_16BF, k, n, k as i64);
        let c = MatrixSpec::col(R_16BF, m, n, m as i64);
        GemmProblem::new(&op, &a, &b, &c, &c).unwrap()
    }

    #[test]
    fn signatures_separate_problems_and_workspace_limits() {
        let p = tn(4096, 4096, 4096);
        assert_eq!(
            signature(&p, 1 << 25, 0),
            signature(&tn(4096, 4096, 4096), 1 << 25, 0)
        );
        assert_ne!(signature(&p, 1 << 25, 0), signature(&p, 0, 0));
        assert_ne!(
            signature(&p, 1 << 25, 0),
            signature(&tn(4096, 4096, 4095), 1 << 25, 0)
        );
        assert_ne!(
            signature(&p, 1 << 25, 0),
            signature(&tn(4096, 4095, 4096), 1 << 25, 0)
        );
        // Each list of misaligned operands its own; the aligned one hashes as before it was
        // part of the key (a table written then still hits).
        let lists: Vec<u128> = (0..4).map(|w| signature(&p, 1 << 25, w)).collect();
        for i in 0..4 {
            for j in 0..i {
                assert_ne!(lists[i], lists[j], "lists {i} and {j}");
            }
        }
        assert_eq!(
            lists[0],
            crate::jit::cache::fnv1a128(&[
                format!("{p:?}").as_bytes(),
                &(1u64 << 25).to_le_bytes()
            ])
        );
    }

    #[test]
    fn table_round_trips_and_skips_garbage() {
        let dev = device_id("NVIDIA H200\t|x", 132, 13000);
        assert!(!dev.contains('\t') && dev.starts_with("NVIDIA H200"));
        let k1 = Key {
            device: dev.clone(),
            signature: 0x1234,
        };
        let k2 = Key {
            device: dev.clone(),
            signature: u128::MAX,
        };
        let e1 = Entry {
            plan: "dg_sm90_bf16_bf16_tn_m128n256k64_s4_c1x1+sk133x132".into(),
            micros: 123.456,
        };
        let e2 = Entry {
            plan: "dg_portable_bf16_bf16_mma_m64n64k32_t128".into(),
            micros: 7.0,
        };
        let replaced = Entry {
            plan: "dg_sm90_bf16_bf16_tn_m128n128k64_s6_c1x1".into(),
            micros: 100.0,
        };
        let text = Table::line(&k1, &e1)
            + "torn line without fields\n"
            + &Table::line(&k2, &e2)
            + "a\tnot-hex\tplan\t1.0\n"
            + &Table::line(&k1, &replaced)
            + "half\t12";
        let t = Table::parse(&text);
        assert_eq!(t.len(), 2);
        assert_eq!(t.get(&k1), Some(&replaced), "the last line for a key wins");
        assert_eq!(t.get(&k2), Some(&e2));
        let other = Key {
            device: device_id("NVIDIA H100", 132, 13000),
            signature: 0x1234,
        };
        assert_eq!(t.get(&other), None);
    }

    #[test]
    fn prefer_moves_the_named_plan_first() {
        let p = tn(4096, 2112, 7168);
        let mut plans = candidates(&p, &DeviceSpec::H200).unwrap();
        assert!(plans.len() >= 3);
        let third = plans[2].name();
        let before: Vec<String> = plans.iter().map(|p| p.name()).collect();
        assert!(prefer(&mut plans, &third, |p| p));
        assert_eq!(plans[0].name(), third);
        let mut rest: Vec<String> = plans[1..].iter().map(|p| p.name()).collect();
        let mut expected = before.clone();
        expected.retain(|n| *n != third);
        assert_eq!(rest, expected, "the others keep their order");
        rest.clear();
        assert!(!prefer(&mut plans, "no such plan", |p| p));
        assert_eq!(plans[0].name(), third);
    }
}
