//! The greedy bot reads only what its seat may know.
//!
//! Must not: hold generic checks that the shared test kit runs for every game.

use super::*;

/// Changes everything seat `me` may not know: other seats' hands, items and regret values,
/// face-down tops `me` has not peeked, and the order of the item decks.
fn scramble_hidden(st: &DeepRegretsState, me: usize, n: usize) -> DeepRegretsState {
    let mut x = *st;
    for q in 0..n {
        if q == me {
            continue;
        }
        let s = &mut x.seats[q];
        let hand_n = s.hand.count();
        s.hand = FishSet::default();
        for f in 0..hand_n {
            s.hand.insert(f as u8);
        }
        let cnt: u8 = s.regrets.iter().sum();
        s.regrets = [0, 0, 0, cnt];
        s.dinks = (1u32 << s.dinks.count_ones()) - 1;
        s.supplies = (1u32 << s.supplies.count_ones()) - 1;
    }
    for s in 0..9 {
        let len = usize::from(x.shoal_len[s]);
        if len >= 2 && x.face_up >> s & 1 == 0 && x.known[me] >> s & 1 == 0 {
            x.shoals[s].swap(0, len - 1);
        }
    }
    x.dink_deck = x.dink_deck.reverse_bits() >> 7;
    x.regret_deck.reverse();
    x
}

#[test]
fn greedy_ignores_hidden_information() {
    let g = game(4, json!({}));
    let mut legal = Vec::new();
    let mut checked = 0;
    for gi in 0..300u64 {
        let mut rng = SplitMix64::new(derive_seed(99, gi));
        let mut st = g.initial_state();
        let mut bot = bots::GreedyBot::default();
        bot.reset(&g, 0, SplitMix64::new(1));
        while g.current_player(&st) != TERMINAL {
            let cp = g.current_player(&st);
            let a = if cp == CHANCE {
                g.sample_chance(&st, &mut rng, &mut Vec::new())
            } else {
                g.legal_actions(&st, &mut legal);
                if cp == 0 {
                    let a = bot.act(&g, &st, &legal);
                    let other = scramble_hidden(&st, 0, 4);
                    let mut legal2 = Vec::new();
                    g.legal_actions(&other, &mut legal2);
                    assert_eq!(legal, legal2);
                    assert_eq!(bot.act(&g, &other, &legal), a, "at {}", st.node.name());
                    checked += 1;
                    a
                } else {
                    legal[rng.below(legal.len() as u64) as usize]
                }
            };
            g.apply(&mut st, a);
        }
    }
    assert!(checked > 1000);
}
