//! Casting and catching (contract §7.4, §16.5, §16.6): payment, difficulty, declining, the Can
//! of Worms, overfishing, must-catch, column locks and the other ways to catch.
//!
//! Must not: hold generic checks that the shared test kit runs for every game.

use super::*;

#[test]
fn cast_with_payment_worked_example() {
    let monkfish = fid("Monkfish");
    let octopus = fid("Giant Octopus");
    assert_eq!((monkfish, octopus), (76, 70));
    let (g, mut st) = started(3, json!({}), &[(4, &[monkfish]), (5, &[octopus])], 1);
    st.day = 2;
    let seat = &mut st.seats[1];
    seat.fresh = [0; CLASSES];
    seat.fresh[0] = 1; // P1
    seat.fresh[2] = 1; // P3
    seat.fresh[7] = 1; // G2
    seat.spent = [1, 0, 0, 0, 0];
    st.bag[1] -= 1;
    seat.rods = 1 << 1;
    seat.rod = 1;
    seat.worms = false;
    hold_dinks(&mut st, 1, 1 << 2);
    st.life_preserver = 1;
    at_turn(&mut st, 1);
    assert_eq!(legal_of(&g, &st), vec![0, 3, 32, 33, 34, 50, 52, 57]);
    assert_eq!(g.action_label(&st, 50), "drop a sinker with P1");
    step(&g, &mut st, 50);
    assert_eq!(st.seats[1].depth, 2);
    assert_eq!(st.seats[1].spent[0], 2);
    assert_eq!(
        legal_of(&g, &st),
        vec![0, 3, 32, 33, 34, 35, 36, 37, 52, 57]
    );
    let mut alt = st;
    step(&g, &mut st, 36);
    assert_eq!(st.node, Node::Pay);
    assert_eq!(g.effective_difficulty(&st, 1), 2);
    assert_eq!(legal_of(&g, &st), vec![7, 12, 52, 57, 102]);
    let o = g.observation(&st, 0);
    assert_eq!(
        o["ctx"]["cast"],
        json!({"shoal": 4, "fish": "Monkfish", "difficulty": 2, "exact": null, "payment": [],
               "base": null, "beneath": null, "ignored": false, "revealed": true})
    );
    assert_eq!(o["shoals"][4]["top"], "Monkfish");
    step(&g, &mut st, 57);
    assert_eq!(legal_of(&g, &st), vec![6, 7, 12, 102]);
    assert_eq!(
        g.state_json(&st)["ctx"]["cast"],
        json!({"shoal": 4, "reduction": 0, "zero": false, "payment": ["G2"],
               "base": null, "beneath": null, "ignored": false, "revealed": true})
    );
    step(&g, &mut st, 6);
    assert_eq!(st.bag[1], 8);
    assert!(st.seats[1].hand.contains(76));
    assert!(st.seats[1].caught_today);
    assert_eq!(st.face_up >> 4 & 1, 0);
    assert_eq!(st.shoal_len[4], 12);
    // free actions after the main action: abandon ship, a sinker with P3, eating the Monkfish
    // (free actions)
    assert_eq!((st.node, st.actor), (Node::AfterMain, 1));
    assert_eq!(legal_of(&g, &st), vec![3, 24, 52, 241]);
    assert_eq!(g.action_label(&st, 241), "eat Monkfish");
    assert_eq!(g.action_label(&st, 24), "end turn");
    assert_eq!(g.action_label(&st, 52), "drop a sinker with P3");
    step(&g, &mut st, 24);
    assert_eq!((st.node, st.actor), (Node::Turn, 2));

    // Giant Octopus (exact 2): D = 4 - 1 = 3
    step(&g, &mut alt, 37);
    assert_eq!(g.effective_difficulty(&alt, 1), 3);
    step(&g, &mut alt, 52);
    assert_eq!(legal_of(&g, &alt), vec![7, 12, 57, 102]);
    let mut declined = alt;
    step(&g, &mut alt, 57);
    assert_eq!(legal_of(&g, &alt), vec![6, 7, 12, 102]);
    assert_eq!(g.observation(&alt, 2)["ctx"]["cast"]["exact"], 2);
    // decline: dice return, one die spent for a dink, the octopus stays face up
    step(&g, &mut declined, 7);
    assert_eq!(declined.node, Node::DeclineDie);
    assert_eq!(legal_of(&g, &declined), vec![0, 52, 57]);
    assert_eq!(g.action_label(&declined, 0), "take no dink");
    assert_eq!(g.action_label(&declined, 57), "spend G2 for a dink");
    // The dink is a permission (Decision 17): taking nothing spends and draws nothing.
    let mut kept = declined;
    step(&g, &mut kept, 0);
    assert_eq!(kept.seats[1].fresh, declined.seats[1].fresh);
    assert_eq!(kept.seats[1].dinks, declined.seats[1].dinks);
    assert_ne!(kept.node, Node::DrawDink);
    step(&g, &mut declined, 57);
    assert_eq!(declined.node, Node::DrawDink);
    assert_eq!(legal_of(&g, &declined).len(), 24);
    step(&g, &mut declined, 0);
    assert_eq!(declined.seats[1].dinks, 0b101);
    assert_eq!(declined.face_up >> 5 & 1, 1);
    assert_eq!(declined.top_fish(5), Some(70));
    end_turn(&g, &mut declined, 1);
    assert_eq!((declined.node, declined.actor), (Node::Turn, 2));
    // the face-up octopus is shown to everyone
    assert_eq!(
        g.observation(&declined, 0)["shoals"][5]["top"],
        "Giant Octopus"
    );
}

#[test]
fn life_preserver_and_dink_lower_difficulty() {
    let (g, mut st) = started(2, json!({}), &[(0, &[0])], 1);
    // Hammerhead Shark (0): difficulty 3; seat 0 holds Scad (-1) and the Life Preserver (-2).
    hold_dinks(&mut st, 0, 1 << 2);
    st.life_preserver = 0;
    at_turn(&mut st, 0);
    // at the turn node neither is ready (at sea)
    assert!(!legal_of(&g, &st).contains(&12));
    step(&g, &mut st, 32);
    assert_eq!(g.effective_difficulty(&st, 0), 3);
    step(&g, &mut st, 12);
    assert_eq!(st.life_preserver, NONE);
    assert_eq!(g.effective_difficulty(&st, 0), 1);
    assert_eq!(st.node, Node::Pay);
    step(&g, &mut st, 102);
    assert_eq!(g.effective_difficulty(&st, 0), 0);
    assert_eq!(st.dink_discard, 1 << 2);
    // D = 0: complete with no dice, no more difficulty items
    assert_eq!(legal_of(&g, &st), vec![6, 7]);
    step(&g, &mut st, 6);
    assert!(st.seats[0].hand.contains(0));
    assert_eq!(st.seats[0].fresh_count(), 3);
}

#[test]
fn special_card_resolves_its_reveal() {
    let (g, mut st, [trafficker]) = started_with(2, json!({}), [(1, "Tidal Trafficker")], 1);
    step(&g, &mut st, 33);
    // draw a regret, take a supply, discard itself, end the cast
    assert_eq!((st.node, st.actor), (Node::DrawRegret, 0));
    assert_eq!(
        g.state_json(&st)["ctx"]["ability"],
        json!({"fish": trafficker, "trigger": "reveal"})
    );
    step(&g, &mut st, 2);
    assert_eq!((st.node, st.actor), (Node::DrawSupply, 0));
    step(&g, &mut st, 4);
    assert_eq!(st.seats[0].supplies, 1 << 4);
    assert_eq!(st.seats[0].regrets, [0, 0, 1, 0]);
    assert_eq!(st.shoal_len[1], 12);
    assert_eq!(&st.fish_discard[0][..1], &[trafficker]);
    assert_eq!(st.face_up, 0);
    end_turn(&g, &mut st, 0);
    assert_eq!((st.node, st.actor), (Node::Turn, 1));
    assert_eq!(st.seats[0].fresh_count(), 3);
}

#[test]
fn can_of_worms_peek_and_bottom() {
    let (g, mut st) = started(2, json!({}), &[(2, &[5, 6])], 1);
    step(&g, &mut st, 43);
    assert_eq!(st.node, Node::Worms);
    assert!(!st.seats[0].worms);
    assert_eq!(g.observation(&st, 0)["ctx"]["peek"], "Halley's Folly");
    assert_eq!(g.observation(&st, 1)["ctx"]["peek"], Value::Null);
    assert_eq!(g.state_json(&st)["ctx"]["peek"], 5);
    step(&g, &mut st, 5);
    assert_eq!(st.top_fish(2), Some(6));
    assert_eq!(st.shoals[2][0], 5);
    // a free action (the Can of Worms): back at the turn node, the new top unseen
    assert_eq!(st.node, Node::Turn);
    assert_eq!(st.known[0], 0);
    assert!(!legal_of(&g, &st).contains(&43));
    step(&g, &mut st, 34);
    assert_eq!(st.node, Node::Pay);
    assert_eq!(g.observation(&st, 1)["ctx"]["cast"]["fish"], "Eyefish");
    // the Can of Worms cannot be used again until making port
    step(&g, &mut st, 7);
    step(&g, &mut st, 50);
    step(&g, &mut st, 0);
    // sinkers are still possible after the main action
    assert_eq!((st.node, st.actor), (Node::AfterMain, 0));
    step(&g, &mut st, 24);
    assert!(!st.seats[0].worms);
    at_turn(&mut st, 0);
    assert!(legal_of(&g, &st)
        .iter()
        .all(|&a| !(USE_WORMS..=USE_WORMS_LAST).contains(&a)));
}

/// "Käytä matopurkki ja vilkaise päälimmäinen kala, laita se sitten pohjalle tai
/// päälimmäiseksi." (Use the Can of Worms and peek at the top fish, then put it at the bottom
/// or leave it on top.) A free action at sea, not part of a cast.
#[test]
fn can_of_worms_is_a_free_action_at_sea() {
    let (g, mut st, [_eyefish]) = started_with(2, json!({}), [(1, "Eyefish")], 1);
    let fresh = st.seats[0].fresh;
    // no Fresh die: no cast, but the can may be used
    st.seats[0].fresh = [0; CLASSES];
    st.seats[0].spent[0] = 3;
    let legal = legal_of(&g, &st);
    assert_eq!(legal, vec![0, 3, 41, 42, 43]);
    assert_eq!(g.action_label(&st, 42), "use the Can of Worms on shoal 1");
    step(&g, &mut st, 42);
    assert_eq!((st.node, st.actor), (Node::Worms, 0));
    assert!(!st.seats[0].worms);
    assert!(!st.cast_on);
    assert_eq!(g.observation(&st, 0)["ctx"]["peek"], "Eyefish");
    assert_eq!(g.observation(&st, 0)["ctx"]["cast"], Value::Null);
    step(&g, &mut st, 4); // leave it on top: seat 0 has seen it
    assert_eq!(st.node, Node::Turn);
    assert_eq!(st.known[0], 1 << 1);
    assert_eq!(g.observation(&st, 0)["shoals"][1]["known"], "Eyefish");
    assert_eq!(g.observation(&st, 1)["shoals"][1]["known"], Value::Null);
    assert!(legal_of(&g, &st)
        .iter()
        .all(|&a| !(USE_WORMS..=USE_WORMS_LAST).contains(&a)));
    // the cast itself has no worms step
    st.seats[0].fresh = fresh;
    st.seats[0].spent[0] = 0;
    step(&g, &mut st, 33);
    assert_eq!(st.node, Node::Pay);
}

#[test]
fn overfishing_and_empty_sea_end() {
    let (g, mut st) = opening(2);
    empty_sea_but_one_fish(&mut st); // Hammerhead Shark on top of shoal 0
    assert_eq!(st.top_fish(0), Some(0));
    at_turn(&mut st, 0);
    step(&g, &mut st, 32);
    step(&g, &mut st, 52);
    step(&g, &mut st, 6);
    assert_eq!(st.node, Node::DrawRegret);
    assert_eq!(st.actor, 0);
    step(&g, &mut st, 3);
    assert_eq!(st.node, Node::Over);
    assert_eq!(g.current_player(&st), TERMINAL);
    assert_eq!(st.seats[0].regrets, [0, 0, 0, 1]);
    // seat 0 RV 3 is the highest, but has no mounted fish; hand: Hammerhead 5 + 1 (tier 1)
    assert_eq!(
        g.state_json(&st)["end"],
        json!({"regret_value": [3, 0], "discarded": [null, null], "scores": [6, 0],
               "cloche_discarded": [null, null]})
    );
    assert_eq!(g.winners(&st), vec![0]);
    let mut sc = vec![0; 2];
    g.scores(&st, &mut sc);
    assert_eq!(sc, vec![6, 0]);
    assert_eq!(
        g.observation(&st, 1)["end"],
        json!({"regret_value": [3, 0], "discarded": [null, null],
               "cloche_discarded": [null, null]})
    );
    assert_eq!(g.state_json(&st)["phase"], "over");
    assert_eq!(g.state_json(&st)["turn"], Value::Null);
}

#[test]
fn must_catch_forbids_declining_while_payable() {
    let (g, mut st, [overmind]) = started_with(2, tentacles(), [(3, "Overmind")], 1);
    st.seats[0].depth = 2;
    step(&g, &mut st, 35);
    assert_eq!(st.node, Node::Pay);
    // D 3, Fresh P1 P2 P3: can be completed, so no decline
    assert_eq!(legal_of(&g, &st), vec![50, 51, 52]);
    step(&g, &mut st, 50);
    assert_eq!(legal_of(&g, &st), vec![51, 52]);
    step(&g, &mut st, 52);
    step(&g, &mut st, 6);
    assert!(st.seats[0].hand.contains(usize::from(overmind)));
    // making port mounts it automatically
    st.seats[0].hand.remove(overmind);
    st.seats[0].hand.insert(overmind);
    g.make_port(&mut st, 0);
    assert_eq!(st.seats[0].mounted[0], overmind);
}

#[test]
fn column_lock_and_the_plug() {
    let (g, mut st, [squid, _plug]) =
        started_with(2, json!({}), [(4, "Colossal Squid"), (6, "The Plug")], 1);
    st.seats[0].depth = 2;
    step(&g, &mut st, 36);
    assert_eq!(st.seats[0].locks, 0b010);
    assert!(st.seats[0].front.contains(usize::from(squid)));
    end_turn(&g, &mut st, 0);
    assert_eq!((st.node, st.actor), (Node::Turn, 1));
    step(&g, &mut st, 0); // seat 1 passes
    steps(&g, &mut st, &[8, 0]);
    assert_eq!((st.node, st.actor), (Node::Turn, 0));
    st.seats[0].depth = 3;
    let legal = legal_of(&g, &st);
    let casts: Vec<u32> = legal
        .iter()
        .copied()
        .filter(|a| (CAST..=CAST_LAST).contains(a))
        .collect();
    assert_eq!(casts, vec![33, 36, 39]);
    // The Plug: the top of the first non-empty shoal goes at every turn start
    st.seats[0].locks = 0;
    step(&g, &mut st, 38);
    assert!(st.plug);
    assert_eq!(st.shoal_len[6], 12);
    let len0 = st.shoal_len[0];
    // the Can of Worms reaches every shoal within reach, locked columns too (the Can of Worms)
    assert_eq!(
        legal_of(&g, &st),
        vec![3, 24, 41, 42, 43, 44, 45, 46, 47, 48, 49]
    );
    end_turn(&g, &mut st, 0);
    // seat 1 has passed: its skip does not trigger The Plug; seat 0's turn does
    steps(&g, &mut st, &[8, 1]);
    assert_eq!((st.node, st.actor), (Node::Turn, 0));
    assert_eq!(st.shoal_len[0], len0 - 1);
}

#[test]
fn catch_by_showing_and_coin_abilities() {
    let (g, mut st, [lamprey, _selkie]) =
        started_with(2, json!({}), [(3, "Lamprey"), (4, "Selkie")], 1);
    st.seats[0].depth = 2;
    give_hand(&mut st, 0, fid("Hammerhead Shark"));
    step(&g, &mut st, 35);
    assert_eq!(legal_of(&g, &st)[..3], [7, 18, 50]);
    step(&g, &mut st, 51);
    step(&g, &mut st, 18);
    assert!(st.seats[0].hand.contains(usize::from(lamprey)));
    assert_eq!(st.seats[0].fresh_count(), 3, "showing spends nothing");
    end_turn(&g, &mut st, 0);
    step(&g, &mut st, 0); // seat 1 passes
    steps(&g, &mut st, &[8, 0]);
    step(&g, &mut st, 36);
    steps(&g, &mut st, &[50, 51, 52, 6]);
    assert_eq!((st.node, st.actor), (Node::Coin, 0));
    assert_eq!(g.action_label(&st, 0), "heads");
    step(&g, &mut st, 0);
    assert_eq!(st.seats[0].money, 3);
}
