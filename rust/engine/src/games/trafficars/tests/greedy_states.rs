//! The `greedy:8` bot's card choices over many random states, pinned (see
//! [`greedy_keeps_its_choices_over_random_states`]): a check of the lookahead that reaches more
//! positions than the bot's own games, where one player's choices shape every state.

use super::super::{GreedyBot, Phase, Trafficars};
use crate::game::{Bot, Game, CHANCE, TERMINAL};
use crate::rng::{derive_seed, SplitMix64};
use crate::session::Session;
use serde_json::json;
use std::sync::Arc;

/// Card choices per option set of the test, in order.
const CHOICES: [usize; 12] = [
    8064, 8064, 8064, 8064, 8064, 8064, 8064, 5184, 2688, 2432, 1280, 896,
];

/// The fingerprint of the choices per option set of the test, in order.
#[rustfmt::skip]
const FINGERPRINTS: [u64; 12] = [
    0x4a3ed3a5f8c52d2c, 0xdc017e8fb7f7ddad, 0x33eab8b62cc8cfb0, 0x5a5b95d549add5bf,
    0xbfe59f1ff8ddd1ff, 0x5017f6c31172907c, 0xd9cea680e3fada07, 0x347fb253bdcada21,
    0xefa5c151aff98020, 0x0d1e68688925a6fe, 0x7ec0b0c7cee2d5f4, 0x493cb89034efba79,
];

/// Every seat's `greedy:8` bot chooses a card at every commit decision of random games (about
/// half of the time its own choice is played, otherwise a random legal one; the resolution
/// choices are random), seeing every state, over option sets of every lane count, hand size,
/// car limit, too-low rule and deck; the choices keep their pinned fingerprint per option set.
/// (`greedy:8` was the default of earlier versions, whose choices these are; the default's own
/// code is held to every other count's by `default_count_decides_as_any_other_count_would`.)
#[test]
fn greedy_keeps_its_choices_over_random_states() {
    let settings = [
        json!({}),
        json!({"lanes": 1}),
        json!({"lanes": 2, "max_cars": 2}),
        json!({"lanes": 4, "max_cars": null}),
        json!({"lanes": 5, "max_cars": 1}),
        json!({"too_low": "insert"}),
        json!({"lanes": 2, "too_low": "insert", "max_cars": 3}),
        json!({"special_cards": false}),
        json!({"special_cards": false, "lanes": 5, "hand_size": 4}),
        json!({"hand_size": 20, "max_cars": 6}),
        json!({"max_number": 12, "hand_size": 5, "lanes": 4, "max_cars": 2}),
        json!({"hand_size": 2, "max_cars": 1}),
    ];
    let (mut counts, mut hashes) = (Vec::new(), Vec::new());
    for (i, opts) in settings.iter().enumerate() {
        let map = opts.as_object().cloned().unwrap_or_default();
        let (mut choices, mut hash) = (0usize, i as u64);
        for players in 2..=5 {
            let Ok(g) = Trafficars::from_options(players, &map).map(Arc::new) else {
                continue;
            };
            let mut rng = SplitMix64::new(derive_seed(23, (10 * i + players) as u64));
            let mut legal = Vec::new();
            let mut out = Vec::new();
            for gi in 0..64u64 {
                let mut bots = vec![GreedyBot::with_samples(8); players];
                for (p, b) in bots.iter_mut().enumerate() {
                    b.reset(&g, p, SplitMix64::new(derive_seed(gi, p as u64)));
                }
                let mut s = Session::new(Arc::clone(&g), Some(derive_seed(31, gi)));
                loop {
                    let st = *s.state();
                    for b in &mut bots {
                        b.observe(&g, &st);
                    }
                    let cp = g.current_player(&st);
                    if cp == TERMINAL {
                        break;
                    }
                    let a = if cp == CHANCE {
                        g.chance_outcomes(&st, &mut out);
                        out[rng.below(out.len() as u64) as usize].0
                    } else {
                        g.legal_actions(&st, &mut legal);
                        let random = legal[rng.below(legal.len() as u64) as usize];
                        if st.phase == Phase::Commit && legal.len() > 1 {
                            let seat = cp as usize;
                            let a = bots[seat].act(&g, &st, &legal);
                            hash = derive_seed(hash, (seat as u64) << 32 | u64::from(a));
                            choices += 1;
                            if rng.below(2) == 0 {
                                a
                            } else {
                                random
                            }
                        } else {
                            random
                        }
                    };
                    s.apply(i64::from(a), None).unwrap();
                }
            }
        }
        counts.push(choices);
        hashes.push(hash);
    }
    if std::env::var_os(crate::testing::BLESS_VAR).is_some() {
        println!("\ntrafficars greedy card choices, to paste over the pinned ones:");
        println!("{counts:?}");
        println!("{hashes:#018x?}");
    }
    let total: usize = counts.iter().sum();
    assert!(total > 50_000, "only {total} card choices checked");
    assert_eq!(counts, CHOICES, "the greedy bot's card choices changed");
    assert_eq!(
        hashes, FINGERPRINTS,
        "the greedy bot's card choices changed"
    );
}
