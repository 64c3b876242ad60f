//! The RNG against the test vectors shared with the Python test suite.

use cardtable_engine::{derive_seed, SplitMix64};
use serde_json::Value;

fn vectors() -> Value {
    serde_json::from_str(include_str!("data/rng_vectors.json")).expect("valid JSON")
}

fn u64s(v: &Value) -> Vec<u64> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_u64().expect("u64"))
        .collect()
}

/// Checks every case of `kind` in the vectors: `run(case, seed)` must give the case's `outputs`.
fn check_cases(kind: &str, run: impl Fn(&Value, u64) -> Vec<u64>) {
    let v = vectors();
    let cases = v[kind].as_array().expect("cases");
    assert!(!cases.is_empty(), "no {kind} cases");
    for case in cases {
        let seed = case["seed"].as_u64().expect("seed");
        assert_eq!(run(case, seed), u64s(&case["outputs"]), "{kind}: {case}");
    }
}

#[test]
fn next_matches_vectors() {
    check_cases("next", |_, seed| {
        let mut rng = SplitMix64::new(seed);
        (0..8).map(|_| rng.next()).collect()
    });
}

#[test]
fn below_matches_vectors() {
    check_cases("below", |case, seed| {
        let mut rng = SplitMix64::new(seed);
        let n = case["n"].as_u64().expect("n");
        (0..10).map(|_| rng.below(n)).collect()
    });
}

#[test]
fn pick_weighted_matches_vectors() {
    check_cases("pick_weighted", |case, seed| {
        let mut rng = SplitMix64::new(seed);
        let weights: Vec<(u32, u64)> = case["weights"]
            .as_array()
            .expect("weights")
            .iter()
            .map(|p| (p[0].as_u64().expect("o") as u32, p[1].as_u64().expect("w")))
            .collect();
        (0..20)
            .map(|_| u64::from(rng.pick_weighted(&weights).expect("non-empty")))
            .collect()
    });
}

#[test]
fn derive_seed_matches_vectors() {
    check_cases("derive_seed", |case, seed| {
        u64s(&case["index"])
            .into_iter()
            .map(|i| derive_seed(seed, i))
            .collect()
    });
}
