//! The RNG against the test vectors shared with the Python test suite.

use cardtable_engine::{derive_seed, SplitMix64};
use serde_json::Value;

fn vectors() -> Value {
    serde_json::from_str(include_str!("../../../tests/data/rng_vectors.json")).expect("valid JSON")
}

fn u64s(v: &Value) -> Vec<u64> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_u64().expect("u64"))
        .collect()
}

#[test]
fn next_matches_vectors() {
    let v = vectors();
    for case in v["next"].as_array().expect("cases") {
        let mut rng = SplitMix64::new(case["seed"].as_u64().expect("seed"));
        let got: Vec<u64> = (0..8).map(|_| rng.next()).collect();
        assert_eq!(got, u64s(&case["outputs"]), "seed {}", case["seed"]);
    }
}

#[test]
fn below_matches_vectors() {
    let v = vectors();
    for case in v["below"].as_array().expect("cases") {
        let mut rng = SplitMix64::new(case["seed"].as_u64().expect("seed"));
        let n = case["n"].as_u64().expect("n");
        let got: Vec<u64> = (0..10).map(|_| rng.below(n)).collect();
        assert_eq!(got, u64s(&case["outputs"]), "seed {} n {n}", case["seed"]);
    }
}

#[test]
fn pick_weighted_matches_vectors() {
    let v = vectors();
    for case in v["pick_weighted"].as_array().expect("cases") {
        let mut rng = SplitMix64::new(case["seed"].as_u64().expect("seed"));
        let weights: Vec<(u32, u64)> = case["weights"]
            .as_array()
            .expect("weights")
            .iter()
            .map(|p| (p[0].as_u64().expect("o") as u32, p[1].as_u64().expect("w")))
            .collect();
        let got: Vec<u64> = (0..20)
            .map(|_| u64::from(rng.pick_weighted(&weights).expect("non-empty")))
            .collect();
        assert_eq!(got, u64s(&case["outputs"]));
    }
}

#[test]
fn derive_seed_matches_vectors() {
    let v = vectors();
    for case in v["derive_seed"].as_array().expect("cases") {
        let seed = case["seed"].as_u64().expect("seed");
        let got: Vec<u64> = u64s(&case["index"])
            .into_iter()
            .map(|i| derive_seed(seed, i))
            .collect();
        assert_eq!(got, u64s(&case["outputs"]));
    }
}
