//! The `greedy` bot's decisions, pinned over seeded games (see [`check_pinned_decisions`]).

use super::super::{GreedyBot, TurnTheTide};
use crate::testing::{check_pinned_decisions, decision_runs};
use serde_json::json;

/// `(label, decisions, fingerprint)` of each run of the test, in order (one row a line).
#[rustfmt::skip]
const PINNED: &[(&str, usize, u64)] = &[
    ("options 0 players 3 mask 0b111 seed 100", 5130, 0xc617d677125f8666),
    ("options 0 players 3 mask 0b1 seed 200", 806, 0x2b93a2b8ea3ef45c),
    ("options 0 players 3 mask 0b101 seed 300", 1630, 0x816812754930540b),
    ("options 0 players 4 mask 0b1111 seed 100", 11145, 0x3fc515549da60bc3),
    ("options 0 players 4 mask 0b1 seed 200", 1406, 0x193bad8ae0207353),
    ("options 0 players 4 mask 0b101 seed 300", 2759, 0xad35541d57d582ba),
    ("options 0 players 5 mask 0b11111 seed 100", 17684, 0x149e7ac77fad5dc4),
    ("options 0 players 5 mask 0b1 seed 200", 1800, 0xd0c5c25cfc6f0caf),
    ("options 0 players 5 mask 0b101 seed 300", 3595, 0x65e52004bd01a019),
    ("options 1 players 3 mask 0b111 seed 101", 5325, 0x6f807559a04c9340),
    ("options 1 players 3 mask 0b1 seed 201", 814, 0x78414ccaf3ef557d),
    ("options 1 players 3 mask 0b101 seed 301", 1762, 0x93d16f043a615ebd),
    ("options 1 players 4 mask 0b1111 seed 101", 11097, 0xd806a281ee378768),
    ("options 1 players 4 mask 0b1 seed 201", 1421, 0x8842e7eea89ac453),
    ("options 1 players 4 mask 0b101 seed 301", 2829, 0xcfd78a1de5789578),
    ("options 1 players 5 mask 0b11111 seed 101", 17691, 0xe7d4fdd44012dcb6),
    ("options 1 players 5 mask 0b1 seed 201", 1800, 0x7bb8d069a0bede98),
    ("options 1 players 5 mask 0b101 seed 301", 3596, 0x290065308e10ddb2),
    ("options 2 players 3 mask 0b111 seed 102", 7000, 0x181a20f2e116344a),
    ("options 2 players 3 mask 0b1 seed 202", 984, 0x23d9f7cb479ae3ae),
    ("options 2 players 3 mask 0b101 seed 302", 1869, 0x7a116e78e6c75dbe),
    ("options 2 players 4 mask 0b1111 seed 102", 13864, 0x67f64d0f34031ae9),
    ("options 2 players 4 mask 0b1 seed 202", 1744, 0x1e4de384f93d0f30),
    ("options 2 players 4 mask 0b101 seed 302", 3431, 0x56509988fa5161d4),
    ("options 2 players 5 mask 0b11111 seed 102", 21341, 0x13acc49b184cff81),
    ("options 2 players 5 mask 0b1 seed 202", 2196, 0xe2b5fa024ed6d0d9),
    ("options 2 players 5 mask 0b101 seed 302", 4254, 0xdd70d7cc80114f8a),
    ("options 3 players 3 mask 0b111 seed 103", 7016, 0x407c7dd0eedb745e),
    ("options 3 players 3 mask 0b1 seed 203", 956, 0x62bf52dad34536c5),
    ("options 3 players 3 mask 0b101 seed 303", 2076, 0x4771ff965a2b8305),
    ("options 3 players 4 mask 0b1111 seed 103", 13953, 0xf78c494c18af89f1),
    ("options 3 players 4 mask 0b1 seed 203", 1810, 0xde7f227d7efbfded),
    ("options 3 players 4 mask 0b101 seed 303", 3493, 0xcdea939b009d723a),
    ("options 3 players 5 mask 0b11111 seed 103", 21313, 0x643fc0ba9d4dce57),
    ("options 3 players 5 mask 0b1 seed 203", 2181, 0x8ad123660af84efe),
    ("options 3 players 5 mask 0b101 seed 303", 4293, 0xa4a501062536854e),
    ("options 4 players 3 mask 0b111 seed 104", 1644, 0x2c215a6c15be1e4a),
    ("options 4 players 3 mask 0b1 seed 204", 232, 0x1d947f50785e79c5),
    ("options 4 players 3 mask 0b101 seed 304", 560, 0x24c3f3d18ef5c868),
    ("options 4 players 4 mask 0b1111 seed 104", 2774, 0xc57aa09ed47d5dd5),
    ("options 4 players 4 mask 0b1 seed 204", 352, 0x1c05ede58028db3d),
    ("options 4 players 4 mask 0b101 seed 304", 701, 0x37f0f911d74be88d),
    ("options 4 players 5 mask 0b11111 seed 104", 3496, 0x90e81c47b49c2fc7),
    ("options 4 players 5 mask 0b1 seed 204", 359, 0x1e0e70137cb0c398),
    ("options 4 players 5 mask 0b101 seed 304", 718, 0xe1d8e08964a34011),
];

/// The bot makes the pinned decisions in the runs of each of these option sets.
#[test]
fn greedy_keeps_its_pinned_decisions() {
    let settings = [
        json!({}),
        json!({"recheck_after_elimination": false}),
        json!({"highest_chooses_tide": true}),
        json!({"highest_chooses_tide": true, "recheck_after_elimination": false}),
        json!({"rounds": 1}),
    ];
    // The seeds of the games the reference comparison played: 100, 200, 300 + option set.
    let seed = |i: usize, _, k: usize| 100 * (k as u64 + 1) + i as u64;
    let runs = decision_runs::<TurnTheTide>(&settings, 3..=5, [60, 30, 30], seed);
    let decisions = check_pinned_decisions(GreedyBot::default, &runs, PINNED);
    assert!(decisions > 10_000, "only {decisions} decisions checked");
}
