//! Fish abilities (contract §16.4, §16.7, §16.8): eating, reveal, catch and not-caught lists,
//! fish in front, regret pools and offers, swaps.
//!
//! Must not: hold generic checks that the shared test kit runs for every game.

use super::*;

#[test]
fn eating_runs_the_eat_list_and_returns_to_the_node() {
    let (g, mut st) = opening(3);
    let barracuda = give_named(&mut st, 0, "Barracuda");
    hold_regrets(&mut st, 0, [0, 1, 0, 1]);
    let eat = FISH + u32::from(barracuda);
    assert!(legal_of(&g, &st).contains(&eat));
    assert_eq!(g.action_label(&st, eat), "eat Barracuda");
    step(&g, &mut st, eat);
    // increment 1, then discard 2 random regrets
    assert_eq!((st.node, st.left), (Node::Increment, 1));
    assert_eq!(legal_of(&g, &st), vec![50, 51]);
    assert_eq!(
        g.state_json(&st)["ctx"]["ability"],
        json!({"fish": barracuda, "trigger": "eat"})
    );
    step(&g, &mut st, 50);
    assert_eq!(st.seats[0].fresh[0..3], [0, 2, 1]);
    assert_eq!(st.node, Node::DiscardRandomRegret);
    steps(&g, &mut st, &[3, 1]);
    assert_eq!((st.node, st.actor), (Node::Turn, 0));
    assert_eq!(st.ability_fish, NONE);
    assert_eq!(st.regret_discard, [0, 1, 0, 1]);
    assert_eq!(&st.fish_discard[0][..1], &[barracuda]);
    assert!(st.seats[0].hand.is_empty());
}

/// "Syö kala (jos kalassa on syömisikoni)." (Eat a fish, if the fish has an Eat
/// ability.) Osteofish has none: once caught, no "eat Osteofish" action is offered.
#[test]
fn only_a_fish_with_an_eat_ability_can_be_eaten() {
    let osteo = fid("Osteofish");
    let geist = fid("Geist");
    let (g, mut st) = started(2, json!({}), &[(0, &[osteo])], 1);
    step(&g, &mut st, 32);
    step(&g, &mut st, 6); // difficulty 0: caught with no die
    assert!(st.seats[0].hand.contains(usize::from(osteo)));
    first_until(&g, &mut st, Node::AfterMain);
    let legal = legal_of(&g, &st);
    assert!(!legal.contains(&(FISH + u32::from(osteo))), "{legal:?}");
    assert!(legal.iter().all(|&a| a < 165));
    // Geist has an Eat ability
    give_hand(&mut st, 0, geist);
    assert!(legal_of(&g, &st).contains(&(FISH + u32::from(geist))));
    assert!(!legal_of(&g, &st).contains(&(FISH + u32::from(osteo))));
    // eating a fish without an Eat ability does nothing even if forced
    let before = st.seats[0].hand;
    g.eat(&mut st, 0, osteo, Node::AfterMain);
    assert_eq!(st.seats[0].hand, before);
}

#[test]
fn reveal_each_everyone_then_pay() {
    let (g, mut st, [_pram]) = started_with(3, json!({}), [(1, "Pram")], 1);
    step(&g, &mut st, 33);
    for p in 0..3 {
        assert_eq!((st.node, st.actor), (Node::DrawRegret, p));
        step(&g, &mut st, 1);
    }
    assert_eq!((st.node, st.actor), (Node::Pay, 0));
    assert_eq!(st.ability_fish, NONE);
    for p in 0..3 {
        assert_eq!(st.seats[p].regrets, [0, 1, 0, 0]);
    }
}

#[test]
fn auto_catch_goes_in_front_and_adds_an_extra_regret_per_draw_event() {
    let (g, mut st, [larvae]) = started_with(3, json!({}), [(0, "Parasitic Larvae")], 1);
    step(&g, &mut st, 32);
    assert!(st.seats[0].front.contains(usize::from(larvae)));
    assert!(st.seats[0].hand.is_empty());
    end_turn(&g, &mut st, 0);
    assert_eq!((st.node, st.actor), (Node::Turn, 1));
    assert!(!st.cast_on && st.seats[0].caught_today);
    // a draw event of seat 0 draws one more: Geist's eat draws 1 (+1)
    let geist = give_named(&mut st, 0, "Geist");
    st.actor = 0;
    st.turn = 0;
    step(&g, &mut st, FISH + u32::from(geist));
    steps(&g, &mut st, &[0, 2]);
    assert_eq!(st.seats[0].regrets, [1, 0, 1, 0]);
    assert_eq!(st.node, Node::Turn);
    let o = g.observation(&st, 2);
    assert_eq!(o["front"][0], json!(["Parasitic Larvae"]));
}

#[test]
fn give_this_by_choice_ends_the_cast() {
    let (g, mut st, [man]) = started_with(3, json!({}), [(0, "Man O' War")], 1);
    step(&g, &mut st, 32);
    assert_eq!((st.node, st.actor), (Node::GiveFish, 0));
    assert_eq!(legal_of(&g, &st), vec![75, 76]);
    assert_eq!(g.action_label(&st, 76), "give Man O' War to seat 2");
    step(&g, &mut st, 76);
    assert!(st.seats[2].hand.contains(usize::from(man)));
    end_turn(&g, &mut st, 0);
    assert_eq!((st.node, st.actor), (Node::Turn, 1));
    assert!(!st.cast_on);
}

/// Contract Decision 37: Scrat "R: if not caught, it goes to the player on your right"; "Käännä
/// kortti esiin ja toteuta ilmestymisefekti (silmä), jos kalalla on sellainen." (Turn the card
/// face up and resolve its reveal effect, the eye, if the fish has one.) This cast revealed
/// Scrat (`ctx.cast.revealed`), so declining it runs the clause, after the decline's dink.
#[test]
fn not_caught_gives_the_fish_to_the_right_after_the_dink() {
    let (g, mut st, [scrat]) = started_with(3, json!({}), [(0, "Scrat")], 1);
    step(&g, &mut st, 32);
    assert_eq!(st.node, Node::Pay);
    assert_eq!(g.state_json(&st)["ctx"]["cast"]["revealed"], true);
    assert_eq!(g.observation(&st, 1)["ctx"]["cast"]["revealed"], true);
    step(&g, &mut st, 7);
    assert_eq!(st.node, Node::DeclineDie);
    assert!(st.cast_on, "the cast stays live until the cast end");
    steps(&g, &mut st, &[50, 4]);
    assert!(st.seats[2].hand.contains(usize::from(scrat)));
    assert_eq!(st.seats[0].dinks, 1 << 4);
    end_turn(&g, &mut st, 0);
    assert_eq!((st.node, st.actor), (Node::Turn, 1));
}

#[test]
fn iron_coffin_offer_and_accept() {
    let (g, mut st) = opening(2);
    put_named_in_front(&mut st, 0, "Iron Coffin");
    hold_regrets(&mut st, 0, [0, 0, 1, 1]);
    st.seats[1].fresh = [0; CLASSES];
    st.seats[1].spent[0] = 3;
    step(&g, &mut st, 23);
    assert_eq!(st.node, Node::OfferTarget);
    step(&g, &mut st, 75);
    assert_eq!(legal_of(&g, &st), vec![72, 73]);
    step(&g, &mut st, 73);
    assert_eq!(legal_of(&g, &st), vec![0, 72]);
    step(&g, &mut st, 72);
    assert_eq!((st.node, st.actor), (Node::AcceptOffer, 1));
    assert_eq!(g.observation(&st, 1)["ctx"]["offer"], json!([2, 3]));
    step(&g, &mut st, 16);
    assert_eq!(st.seats[1].regrets, [0, 0, 1, 1]);
    assert_eq!((st.node, st.actor), (Node::RefreshDie, 1));
    steps(&g, &mut st, &[65, 3]);
    assert_eq!((st.node, st.actor), (Node::Turn, 0));
    assert!(st.seats[0].coffin_used);
    assert!(!legal_of(&g, &st).contains(&23));
}

#[test]
fn psychic_interloper_deals_a_pool() {
    let (g, mut st) = opening(3);
    let psychic = give_named(&mut st, 0, "Psychic Interloper");
    step(&g, &mut st, FISH + u32::from(psychic));
    steps(&g, &mut st, &[0, 3, 3]);
    assert_eq!((st.node, st.actor, st.target), (Node::GiveRegret, 0, 1));
    assert_eq!(g.state_json(&st)["ctx"]["pool"], json!([0, 3, 3]));
    assert_eq!(
        g.observation(&st, 1)["ctx"]["pool"],
        json!([null, null, null])
    );
    step(&g, &mut st, 73);
    assert_eq!(st.target, 2);
    step(&g, &mut st, 73);
    assert_eq!(st.node, Node::Turn);
    assert_eq!(st.seats[0].regrets, [1, 0, 0, 0]);
    assert_eq!(st.seats[1].regrets, [0, 0, 0, 1]);
    assert_eq!(st.seats[2].regrets, [0, 0, 0, 1]);
}

#[test]
fn northern_stargazer_goes_back_at_a_random_depth() {
    let (g, mut st, [star]) = started_with(2, json!({}), [(3, "Northern Stargazer")], 1);
    st.seats[0].depth = 2;
    step(&g, &mut st, 35);
    steps(&g, &mut st, &[7, 50, 0]);
    assert_eq!((st.node, st.actor), (Node::ShuffleBack, 0));
    let mut out = Vec::new();
    g.chance_outcomes(&st, &mut out);
    assert_eq!(out.len(), 13);
    assert_eq!(
        g.action_label(&st, 2),
        "put Northern Stargazer back under 2 fish"
    );
    step(&g, &mut st, 2);
    let j = g.state_json(&st);
    assert_eq!(j["shoals"][3][2], json!(star));
    assert_eq!(j["face_up"][3], json!(false));
}

#[test]
fn hadal_shade_swaps_with_a_mounted_fish_and_end_scores_front_and_cloche() {
    let (g, mut st, [shade]) = started_with(2, tentacles(), [(6, "Hadal Shade")], 1);
    st.seats[0].depth = 3;
    let monk = fid("Monkfish");
    mount(&mut st, 1, 1, monk);
    st.seats[0].fresh = [0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    step(&g, &mut st, 38);
    steps(&g, &mut st, &[52, 52, 6]);
    assert_eq!(st.node, Node::HadalShade);
    assert_eq!(legal_of(&g, &st), vec![17, 304]);
    assert_eq!(g.action_label(&st, 304), "swap it for seat 1's Monkfish");
    step(&g, &mut st, 304);
    steps(&g, &mut st, &[0, 0, 0]);
    assert_eq!(st.seats[1].mounted[1], shade);
    assert!(st.seats[0].hand.contains(usize::from(monk)));
    // end: the front fish and the Cloche fish score
    let orca = fid("Orca");
    st.seats[0].front.insert(orca);
    let small = give_named(&mut st, 0, "Sockeye Salmon");
    st.seats[0].hand.remove(small);
    st.seats[0].cloche = small;
    for s in 0..9 {
        st.shoal_len[s] = 0;
    }
    st.seats[0].regrets[3] += 1;
    g.finish(&mut st);
    // seat 0 has the highest Regret Value: its Cloche fish is lost
    assert_eq!(st.cloche_discarded[0], small);
    assert_eq!(
        g.state_json(&st)["end"]["cloche_discarded"],
        json!([small, null])
    );
}

#[test]
fn a_fish_swapped_beneath_into_a_hand_is_dealt_again_for_the_other_seats() {
    // Giant Cuttlefish, "C: may swap it (unseen) for the fish beneath it in the shoal": the fish
    // beneath goes to the catcher's hand face down, so no other seat knows which it is. The
    // sampler kept it there for every observer (a leak that changed `mcts` moves); now another
    // observer gets a fish of the same depth it has not seen, and the catcher its real hand.
    let (g, mut st, [cuttlefish]) = started_with(2, tentacles(), [(0, "Giant Cuttlefish")], 1);
    st.seats[0].fresh = [0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    let beneath = st.shoals[0][usize::from(st.shoal_len[0]) - 2];
    step(&g, &mut st, 32);
    // Pay P3 dice until the catch is offered, then catch.
    while !legal_of(&g, &st).contains(&6) {
        step(&g, &mut st, 52);
    }
    step(&g, &mut st, 6);
    first_until(&g, &mut st, Node::SwapBeneath);
    step(&g, &mut st, 16);
    assert!(st.seats[0].hand.contains(usize::from(beneath)));
    assert!(!st.seats[0].hand.contains(usize::from(cuttlefish)));
    assert!(st.unseen_hand.contains(usize::from(beneath)));
    let mut others = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let mine = crate::testing::determinized(&*g, &st, 0, seed);
        assert_eq!(
            mine.seats[0].hand, st.seats[0].hand,
            "the catcher knows its hand"
        );
        let theirs = crate::testing::determinized(&*g, &st, 1, seed);
        assert_eq!(theirs.seats[0].hand.count(), st.seats[0].hand.count());
        let dealt = theirs.seats[0].hand.and(&theirs.unseen_hand);
        assert_eq!(dealt.count(), 1);
        dealt.each(|f| {
            assert_eq!(
                usize::from(f) / BLOCK,
                usize::from(beneath) / BLOCK,
                "same depth"
            );
            others.insert(f);
        });
    }
    assert!(
        others.len() > 5,
        "the fish beneath is dealt again: {others:?}"
    );
}

/// The `ctx.cast2` tensor entries `ignored` and `revealed` (contract §16.12: "[1 if base not
/// null, base / 10, one-hot(beneath, 135) if p is the caster, ignored, revealed]"), the last two
/// before the 27 entries of `shoal_top_depth`.
fn cast_flags(g: &DeepRegrets, st: &DeepRegretsState, p: usize) -> (f32, f32) {
    let mut t = vec![0.0f32; g.observation_shape()[0]];
    g.observation_tensor(st, p, &mut t);
    let end = t.len() - 27;
    (t[end - 2], t[end - 1])
}

/// Contract Decision 37: "a fish that was already face up (declined earlier, or turned up by an
/// item or another ability) does nothing when declined"; Scrat "R: if not caught, it goes to the
/// player on your right", and "Käännä kortti esiin ja toteuta ilmestymisefekti (silmä), jos
/// kalalla on sellainen." (Turn the card face up and resolve its reveal effect, the eye, if the
/// fish has one.) Only the cast that turns the card up has its reveal ability.
#[test]
fn a_not_caught_fish_already_face_up_does_nothing_when_declined_again() {
    let (g, mut st, [scrat]) = started_with(3, json!({}), [(0, "Scrat")], 1);
    // the Rod of the Dead; seat 0 reveals Scrat, ignores its reveal ability and declines: Scrat
    // stays face up
    equip_rod(&mut st, 0, 9);
    steps(&g, &mut st, &[32, NO, DECLINE, 0]);
    end_turn(&g, &mut st, 0);
    assert_eq!(st.top_fish(0), Some(scrat));
    assert_eq!(st.face_up & 1, 1);
    // seat 1 casts at the face-up Scrat: not revealed by this cast
    assert_eq!((st.node, st.actor), (Node::Turn, 1));
    step(&g, &mut st, 32);
    assert_eq!((st.node, st.actor), (Node::Pay, 1));
    assert!(!st.cast_revealed && !st.cast_ignored);
    let cast = &g.state_json(&st)["ctx"]["cast"];
    assert_eq!(
        (&cast["ignored"], &cast["revealed"]),
        (&json!(false), &json!(false))
    );
    assert_eq!(g.observation(&st, 2)["ctx"]["cast"]["revealed"], false);
    assert_eq!(cast_flags(&g, &st, 1), (0.0, 0.0));
    // declined again: it does nothing, Scrat stays on top of its shoal, face up
    steps(&g, &mut st, &[DECLINE, 0]);
    end_turn(&g, &mut st, 1);
    assert_eq!(st.top_fish(0), Some(scrat));
    assert_eq!(st.face_up & 1, 1);
    assert!((0..3).all(|q| !st.seats[q].hand.contains(usize::from(scrat))));

    // Northern Stargazer "R: if not caught, shuffle it back into this shoal", Brittle Lung "R:
    // draw 1; if not caught, discard it", Skitterfin "R: if not caught, it goes to the player on
    // your left": face up before the cast (as if turned up by an item), declining does nothing.
    let (g, start, fish) = started_with(
        3,
        json!({}),
        [
            (3, "Northern Stargazer"),
            (4, "Brittle Lung"),
            (6, "Skitterfin"),
        ],
        1,
    );
    for (&s, &f) in [3usize, 4, 6].iter().zip(&fish) {
        let mut st = start;
        st.seats[0].depth = 3;
        st.face_up |= 1 << s;
        step(&g, &mut st, CAST + s as u32);
        assert_eq!(st.node, Node::Pay);
        assert_eq!(g.state_json(&st)["ctx"]["cast"]["revealed"], false);
        steps(&g, &mut st, &[DECLINE, 0]);
        assert_eq!((st.node, st.actor), (Node::AfterMain, 0), "fish {f}");
        assert_eq!(st.top_fish(s), Some(f));
        assert_eq!(st.face_up >> s & 1, 1);
        assert_eq!(st.discard_len, start.discard_len);
        assert_eq!(st.seats[0].regret_count(), 0);
        assert!((0..3).all(|q| !st.seats[q].hand.contains(usize::from(f))));
    }
}

/// Contract Decision 38, Rod of the Dead (`items.csv`: "you may choose to ignore the Reveal
/// and/or Catch abilities of the fish you reveal and/or catch (each ability separately)"): "the
/// not-caught clause is part of the Reveal ability (Decision 37): ignoring the reveal ignores it
/// too, so `ignore_reveal` is also asked for a fish whose only reveal text is a not-caught clause
/// (Scrat)". Scrat "R: if not caught, it goes to the player on your right"; "Käännä kortti esiin
/// ja toteuta ilmestymisefekti (silmä), jos kalalla on sellainen." (Turn the card face up and
/// resolve its reveal effect, the eye, if the fish has one.)
#[test]
fn rod_of_the_dead_ignores_a_not_caught_clause() {
    let (g, mut st, [scrat]) = started_with(2, json!({}), [(0, "Scrat")], 1);
    equip_rod(&mut st, 0, 9); // Rod of the Dead
    step(&g, &mut st, 32);
    assert_eq!((st.node, st.actor), (Node::IgnoreReveal, 0));
    assert_eq!(legal_of(&g, &st), vec![YES, NO]);
    let cast = &g.state_json(&st)["ctx"]["cast"];
    assert_eq!(
        (&cast["ignored"], &cast["revealed"]),
        (&json!(false), &json!(true))
    );
    assert_eq!(cast_flags(&g, &st, 0), (0.0, 1.0));
    // a sampled state keeps the flag (it is public: everyone saw the card turn up)
    for seed in 0..4 {
        for me in 0..2 {
            let d = crate::testing::determinized(&*g, &st, me, seed);
            assert!(d.cast_revealed && !d.cast_ignored);
            assert_eq!(g.state_json(&d)["ctx"]["cast"]["revealed"], true);
        }
    }
    let mut resolved = st;
    // ignored: no clause on decline, Scrat stays on the shoal (face up)
    step(&g, &mut st, NO);
    assert_eq!(st.node, Node::Pay);
    let cast = &g.state_json(&st)["ctx"]["cast"];
    assert_eq!(
        (&cast["ignored"], &cast["revealed"]),
        (&json!(true), &json!(true))
    );
    let cast = &g.observation(&st, 1)["ctx"]["cast"];
    assert_eq!(
        (&cast["ignored"], &cast["revealed"]),
        (&json!(true), &json!(true))
    );
    assert_eq!(cast_flags(&g, &st, 1), (1.0, 1.0));
    steps(&g, &mut st, &[DECLINE, 0]);
    end_turn(&g, &mut st, 0);
    assert_eq!(st.top_fish(0), Some(scrat));
    assert_eq!(st.face_up & 1, 1);
    assert!(!st.seats[1].hand.contains(usize::from(scrat)));
    assert!(
        !st.cast_revealed && !st.cast_ignored,
        "cleared at the cast end"
    );
    // resolved: declining passes it to the player on the right
    step(&g, &mut resolved, YES);
    assert_eq!(resolved.node, Node::Pay);
    assert_eq!(g.state_json(&resolved)["ctx"]["cast"]["ignored"], false);
    steps(&g, &mut resolved, &[DECLINE, 0]);
    end_turn(&g, &mut resolved, 0);
    assert!(resolved.seats[1].hand.contains(usize::from(scrat)));
    assert_eq!(resolved.shoal_len[0], st.shoal_len[0] - 1);
}

/// Contract Decision 38: "ignoring Brittle Lung's reveal skips both its draw and its discard";
/// Brittle Lung "R: draw 1; if not caught, discard it" (Decision 37). Rod of the Dead
/// (`items.csv`): "you may choose to ignore the Reveal and/or Catch abilities of the fish you
/// reveal and/or catch (each ability separately)".
#[test]
fn rod_of_the_dead_ignoring_brittle_lung_skips_its_draw_and_its_discard() {
    let (g, mut st, [lung]) = started_with(2, json!({}), [(3, "Brittle Lung")], 1);
    equip_rod(&mut st, 0, 9); // Rod of the Dead
    st.seats[0].depth = 2;
    let discards = st.discard_len[1];
    step(&g, &mut st, CAST + 3);
    assert_eq!((st.node, st.actor), (Node::IgnoreReveal, 0));
    let mut resolved = st;
    // ignored: no regret drawn, and the decline leaves it on top of the shoal, face up
    step(&g, &mut st, NO);
    assert_eq!(st.node, Node::Pay);
    assert_eq!(st.seats[0].regret_count(), 0);
    steps(&g, &mut st, &[DECLINE, 0]);
    assert_eq!((st.node, st.actor), (Node::AfterMain, 0));
    assert_eq!(st.top_fish(3), Some(lung));
    assert_eq!(st.face_up >> 3 & 1, 1);
    assert_eq!(st.discard_len[1], discards);
    assert_eq!(st.seats[0].regret_count(), 0);
    // resolved: one regret drawn at the reveal, the lung discarded on decline
    step(&g, &mut resolved, YES);
    assert_eq!((resolved.node, resolved.actor), (Node::DrawRegret, 0));
    let a = legal_of(&g, &resolved)[0];
    step(&g, &mut resolved, a);
    assert_eq!(resolved.node, Node::Pay);
    assert_eq!(resolved.seats[0].regret_count(), 1);
    steps(&g, &mut resolved, &[DECLINE, 0]);
    assert_eq!((resolved.node, resolved.actor), (Node::AfterMain, 0));
    assert_eq!(resolved.discard_len[1], discards + 1);
    assert_eq!(resolved.fish_discard[1][usize::from(discards)], lung);
    assert_ne!(resolved.top_fish(3), Some(lung));
    assert_eq!(resolved.seats[0].regret_count(), 1);
}
