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
/// types, transposes, strides, batch, epilogue), the workspace limit, which of A and B sit
/// at base addresses TMA cannot take (`misaligned`: the list the plans come from, an algo's
/// word 6) and the planner's environment (`environment`: `environment_word`, the knobs that
/// change the candidates, their kernels or their timing). 0 in either hashes as before it was
/// part of the key, so earlier tables still hit.
pub fn signature(p: &GemmProblem, max_workspace: u64, misaligned: u64, environment: u64) -> u128 {
    let problem = format!("{p:?}");
    let ws = max_workspace.to_le_bytes();
    let mis = misaligned.to_le_bytes();
    let env = environment.to_le_bytes();
    match (misaligned, environment) {
        (0, 0) => crate::jit::cache::fnv1a128(&[problem.as_bytes(), &ws]),
        (_, 0) => crate::jit::cache::fnv1a128(&[problem.as_bytes(), &ws, &mis]),
        _ => crate::jit::cache::fnv1a128(&[problem.as_bytes(), &ws, &mis, &env]),
    }
}

/// DEEPGEMM_* variables that change no plan, kernel or timing (logging, where the caches
/// live, the LD_PRELOAD library's own switches, test harnesses), by prefix.
const NOT_PLANNING: &[&str] = &[
    "DEEPGEMM_LOG",
    "DEEPGEMM_AUTOTUNE",
    "DEEPGEMM_CACHE",
    "DEEPGEMM_HEURISTICS_CACHE_CAPACITY",
    "DEEPGEMM_PRELOAD",
    "DEEPGEMM_SKIP",
    "DEEPGEMM_EXPECT",
    "DEEPGEMM_BLESS",
    "DEEPGEMM_DUMP",
    "DEEPGEMM_CASE",
    "DEEPGEMM_TEST",
    "DEEPGEMM_MULTI_SECONDS",
    "DEEPGEMM_REGISTRY_TEST",
    "DEEPGEMM_SM90_",
];

/// The tuning key's word for a process environment: a hash of every DEEPGEMM_* variable
/// not in `NOT_PLANNING` (name and value, in name order), 0 when there is none. Every other
/// one counts, so a knob added later cannot make a process reuse (or, its winner missing
/// from the list, tune again and append on every run) what another configuration tuned (a
/// session-73 review: `DEEPGEMM_COLSPLIT=0` read the default's winners).
pub fn environment_word<I: IntoIterator<Item = (String, String)>>(vars: I) -> u64 {
    let mut knobs: Vec<String> = vars
        .into_iter()
        .filter(|(k, _)| {
            k.starts_with("DEEPGEMM_") && !NOT_PLANNING.iter().any(|p| k.starts_with(p))
        })
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    if knobs.is_empty() {
        return 0;
    }
    knobs.sort();
    // Odd, so never 0 (no knobs).
    crate::jit::cache::fnv1a128(&[knobs.join("\n").as_bytes()]) as u64 | 1
}

/// `environment_word` of this process (read once: the planner reads its knobs once too).
pub fn planner_environment() -> u64 {
    static WORD: once_cell::sync::Lazy<u64> =
        once_cell::sync::Lazy::new(|| {
            environment_word(std::env::vars_os().filter_map(|(k, v)| {
                Some((k.into_string().ok()?, v.to_string_lossy().into_owned()))
            }))
        });
    *WORD
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

    /// Every result as its on-disk line, in key order: what a compacted table file holds.
    pub fn text(&self) -> String {
        let mut keys: Vec<&Key> = self.map.keys().collect();
        keys.sort_by(|a, b| (&a.device, a.signature).cmp(&(&b.device, b.signature)));
        keys.iter().map(|k| Table::line(k, &self.map[*k])).collect()
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

/// Whether a table file of `text` whose results are `table` is worth rewriting with only
/// them (`Table::text`): when most of its lines are dead (replaced results, torn or foreign
/// lines), at least `COMPACT_MIN_DEAD` of them.
pub fn worth_compacting(text: &str, table: &Table) -> bool {
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    let dead = lines.saturating_sub(table.len());
    dead >= COMPACT_MIN_DEAD && dead > table.len()
}

/// Dead lines a table file carries before a load rewrites it.
pub const COMPACT_MIN_DEAD: usize = 256;

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
            signature(&p, 1 << 25, 0, 0),
            signature(&tn(4096, 4096, 4096), 1 << 25, 0, 0)
        );
        assert_ne!(signature(&p, 1 << 25, 0, 0), signature(&p, 0, 0, 0));
        assert_ne!(
            signature(&p, 1 << 25, 0, 0),
            signature(&tn(4096, 4096, 4095), 1 << 25, 0, 0)
        );
        assert_ne!(
            signature(&p, 1 << 25, 0, 0),
            signature(&tn(4096, 4095, 4096), 1 << 25, 0, 0)
        );
        // Each list of misaligned operands its own; the aligned one hashes as before it was
        // part of the key (a table written then still hits).
        let lists: Vec<u128> = (0..4).map(|w| signature(&p, 1 << 25, w, 0)).collect();
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
    fn planner_knobs_key_their_own_results() {
        let vars = |list: &[(&str, &str)]| -> Vec<(String, String)> {
            list.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        // No knob, or only ones that change no plan: 0, the key as before knobs counted.
        assert_eq!(environment_word(vars(&[])), 0);
        let quiet = vars(&[
            ("PATH", "/usr/bin"),
            ("DEEPGEMM_LOG_LEVEL", "3"),
            ("DEEPGEMM_AUTOTUNE", "1"),
            ("DEEPGEMM_CACHE_DIR", "/tmp/x"),
            ("DEEPGEMM_PRELOAD_LOG", "summary"),
        ]);
        assert_eq!(environment_word(quiet.clone()), 0);
        // A planner knob counts, by value, in any order, beside the quiet ones.
        let off = environment_word(vars(&[("DEEPGEMM_COLSPLIT", "0")]));
        let only = environment_word(vars(&[("DEEPGEMM_COLSPLIT", "only")]));
        assert!(off != 0 && only != 0 && off != only);
        let mut both = vars(&[("DEEPGEMM_COLSPLIT", "0"), ("DEEPGEMM_PDL", "0")]);
        let w = environment_word(both.clone());
        both.reverse();
        both.extend(quiet);
        assert_eq!(environment_word(both), w);
        assert_ne!(w, off);
        // A knob no code reads yet counts too (a deny-list: new knobs are keyed by default).
        assert_ne!(
            environment_word(vars(&[("DEEPGEMM_SOMETHING_NEW", "1")])),
            0
        );
        // And the signature: 0 hashes as before; a knob gives another key.
        let p = tn(1000, 3000, 4000);
        assert_eq!(
            signature(&p, 1 << 25, 0, 0),
            crate::jit::cache::fnv1a128(&[
                format!("{p:?}").as_bytes(),
                &(1u64 << 25).to_le_bytes()
            ])
        );
        assert_ne!(signature(&p, 1 << 25, 0, off), signature(&p, 1 << 25, 0, 0));
        assert_ne!(
            signature(&p, 1 << 25, 0, off),
            signature(&p, 1 << 25, 0, only)
        );
        assert_ne!(
            signature(&p, 1 << 25, 1, off),
            signature(&p, 1 << 25, 0, off)
        );
    }

    #[test]
    fn a_table_mostly_dead_lines_is_compacted_to_its_results() {
        let dev = device_id("NVIDIA H200", 132, 13000);
        let key = |s: u128| Key {
            device: dev.clone(),
            signature: s,
        };
        let entry = |us: f64| Entry {
            plan: format!("dg_sm90_bf16_bf16_tn_m128n256k64_s4_c1x1+dp{us}"),
            micros: us,
        };
        // 10 results, each written 40 times (the last wins), torn and empty lines between.
        let mut text = String::new();
        for round in 0..40 {
            for s in 0..10u128 {
                text += "\n";
                text += &Table::line(&key(s), &entry((round * 10) as f64 + s as f64));
            }
            text += "torn\t12";
        }
        let t = Table::parse(&text);
        assert_eq!(t.len(), 10);
        assert!(worth_compacting(&text, &t));
        let compact = t.text();
        assert_eq!(compact.lines().count(), 10);
        let again = Table::parse(&compact);
        for s in 0..10u128 {
            assert_eq!(again.get(&key(s)), t.get(&key(s)));
            assert_eq!(again.get(&key(s)).unwrap().micros, 390.0 + s as f64);
        }
        assert!(!worth_compacting(&compact, &again));
        assert_eq!(again.text(), compact, "stable: sorted by key");
        // A few dead lines are left alone (a rewrite costs more than they do).
        let few = Table::line(&key(1), &entry(1.0)) + &Table::line(&key(1), &entry(2.0));
        assert!(!worth_compacting(&few, &Table::parse(&few)));
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
