//! The end of the game (contract §8): Regret Values, the penalty discard, scores and tie-breaks.
//!
//! Must not: hold generic checks that the shared test kit runs for every game.

use super::*;

#[test]
fn end_scoring_worked_example_and_tie_breaks() {
    let g = game(3, json!({}));
    let mut st = g.initial_state();
    let names = |xs: &[&str]| xs.iter().map(|n| fid(n)).collect::<Vec<u8>>();
    let set = |st: &mut DeepRegretsState,
               p: usize,
               regrets: [u8; 4],
               mounted: &[&str],
               hand: &[&str],
               money: u8| {
        let m = names(mounted);
        for (k, &f) in m.iter().enumerate() {
            st.seats[p].mounted[k] = f;
        }
        for f in names(hand) {
            st.seats[p].hand.insert(f);
        }
        st.seats[p].regrets = regrets;
        st.seats[p].money = money;
    };
    set(
        &mut st,
        0,
        [1, 1, 2, 1],
        &["Monkfish", "Kelpie"],
        &["Halibut"],
        7,
    );
    set(
        &mut st,
        1,
        [0, 1, 0, 2],
        &["Bubo", "Goblin Shark", "Payara"],
        &["Mahi-Mahi"],
        10,
    );
    set(
        &mut st,
        2,
        [0, 0, 0, 0],
        &["Swordfish", "Spider Crab", "Barracuda"],
        &["Coelacanth", "Sea Bishop"],
        3,
    );
    st.seats[2].lifeboat_used = true;
    g.finish(&mut st);
    assert_eq!(
        g.state_json(&st)["end"],
        json!({"regret_value": [8, 7, 10], "discarded": [null, null, 51], "scores": [41, 41, 37],
               "cloche_discarded": [null, null, null]})
    );
    assert_eq!(g.winners(&st), vec![1]);
    assert_eq!(&st.fish_discard[1][..1], &[51]);
    // equal RV: fewer regret cards wins; all equal: shared
    let mut t = g.initial_state();
    t.seats[0].regrets = [0, 2, 0, 0];
    t.seats[1].regrets = [2, 0, 1, 0];
    t.seats[2].regrets = [0, 0, 1, 0];
    g.finish(&mut t);
    assert_eq!(t.final_scores[..3], [0, 0, 0]);
    assert_eq!(g.winners(&t), vec![2]);
    let mut u = g.initial_state();
    g.finish(&mut u);
    assert_eq!(g.winners(&u), vec![0, 1, 2]);
}
