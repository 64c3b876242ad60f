//! Madness (contract §3, §7.1): the tiers by regret count change fish values, the Fresh maximum
//! and shop prices.
//!
//! Must not: hold generic checks that the shared test kit runs for every game.

use super::*;

#[test]
fn madness_tiers_values_and_shop_discount() {
    let g = game(2, json!({}));
    let mut st = g.initial_state();
    let fair = fid("Hammerhead Shark"); // 5
    let foul = fid("Halley's Folly"); // 4
    let nautilus = fid("Nautilus"); // fixed3
    let skull = fid("Whispering Skull"); // no value
    let expect = [
        (0u8, 7, 2, 4),
        (1, 6, 3, 5),
        (4, 6, 4, 5),
        (7, 5, 5, 6),
        (10, 4, 5, 7),
        (13, 3, 6, 8),
    ];
    for (count, vf, vl, max) in expect {
        st.seats[0].regrets = [count, 0, 0, 0];
        assert_eq!(g.value(&st, usize::from(fair), 0), vf, "{count}");
        assert_eq!(g.value(&st, usize::from(foul), 0), vl);
        assert_eq!(g.value(&st, usize::from(nautilus), 0), 3);
        assert_eq!(g.value(&st, usize::from(skull), 0), 0);
        assert_eq!(g.max_fresh(&st, 0), max);
        assert_eq!(g.price(&st, 0, 3, 0), if count >= 13 { 0 } else { 1 });
    }
    st.seats[0].regrets = [0, 0, 0, 0];
    assert_eq!(
        g.value(&st, usize::from(fid("Eyefish")), 0),
        0,
        "never below 0"
    );
}

#[test]
fn muster_keeps_up_to_the_madness_max() {
    let (g, mut st) = opening(2);
    // seat 0 ends the day with 2 orange dice Spent as well: 5 dice for 4 places (0 regrets)
    st.seats[0].spent[3] = 2;
    st.bag[2] -= 2;
    autoplay_until(&g, &mut st, |s| {
        s.day == 2 && s.node == Node::MusterSelect && s.actor == 1
    });
    // seat 1 (first on Tuesday) keeps its unused Fresh dice and has nothing Spent
    step(&g, &mut st, 0);
    assert_eq!((st.node, st.actor), (Node::MusterSelect, 0));
    // seat 0 rerolls its three Fresh dice; with Fresh empty the selection ends by itself
    steps(&g, &mut st, &[50, 51, 52]);
    assert_eq!(
        g.state_json(&st)["ctx"]["to_roll"],
        json!(["P", "P", "P", "O", "O"])
    );
    steps(&g, &mut st, &[1, 1, 3, 2, 3]);
    assert_eq!(st.node, Node::MusterKeep);
    assert_eq!(g.state_json(&st)["ctx"]["left"], 4);
    assert_eq!(
        g.state_json(&st)["ctx"]["rolled"],
        json!(["P1", "P1", "P3", "O2", "O3"])
    );
    assert_eq!(legal_of(&g, &st), vec![50, 52, 59, 60]);
    steps(&g, &mut st, &[52, 59, 60]);
    assert_eq!(g.state_json(&st)["ctx"]["left"], 1);
    step(&g, &mut st, 50);
    assert_eq!(st.seats[0].spent, [1, 0, 0, 0, 0]);
    assert_eq!(st.seats[0].fresh_count(), 4);
    assert_eq!(st.node, Node::LifePreserver);
    // highest Fresh total: seat 0 (1+3+2+3 = 9 > 3)
    assert_eq!(st.actor, 0);
}
