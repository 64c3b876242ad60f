//! The day and the turn (contract §6, §7.1–§7.3): turn order, passing and its rewards, the
//! last turns, declaration, the Start phase, free actions, abandon ship and the regret deck.
//!
//! Must not: hold generic checks that the shared test kit runs for every game.

use super::*;

#[test]
fn passing_rewards_and_last_player_turns() {
    let (g, mut st, [_plain]) = started_with(3, json!({}), [(1, "Coelacanth")], 2);
    hold_regrets(&mut st, 1, [0, 1, 0, 0]);
    step(&g, &mut st, 0); // seat 0 passes
    assert_eq!(st.node, Node::Reward);
    assert_eq!(legal_of(&g, &st), vec![8]);
    step(&g, &mut st, 8);
    step(&g, &mut st, 0); // draws Moon Jellyfish
    assert_eq!(st.seats[0].dinks, 1);
    assert_eq!((st.node, st.actor), (Node::Turn, 1));
    assert_eq!(st.last_turns, NONE);
    step(&g, &mut st, 0); // seat 1 passes: one seat left
    assert_eq!(st.last_turns, 2);
    assert_eq!(legal_of(&g, &st), vec![8, 9]);
    step(&g, &mut st, 9);
    assert_eq!(st.node, Node::DiscardRandomRegret);
    step(&g, &mut st, 1);
    assert_eq!(st.regret_discard, [0, 1, 0, 0]);
    // seat 2: a sinker (free) then a cast (main action 1 of 2)
    assert_eq!((st.node, st.actor), (Node::Turn, 2));
    step(&g, &mut st, 50);
    assert_eq!(st.last_turns, 2);
    step(&g, &mut st, 32);
    step(&g, &mut st, 7);
    step(&g, &mut st, 51);
    step(&g, &mut st, 1); // dink drawn
    assert_eq!(st.last_turns, 2);
    end_turn(&g, &mut st, 2);
    assert_eq!(st.last_turns, 1);
    // seats 0 and 1 are skipped and rewarded again
    assert_eq!((st.node, st.actor), (Node::Reward, 0));
    steps(&g, &mut st, &[8, 2]);
    assert_eq!((st.node, st.actor), (Node::Reward, 1));
    steps(&g, &mut st, &[8, 3]);
    assert_eq!((st.node, st.actor), (Node::Turn, 2));
    // the second extra turn ends the day at once: Start of Tuesday, refresh of seat 1 (first)
    step(&g, &mut st, 33);
    assert_eq!(st.node, Node::Pay);
    step(&g, &mut st, 7);
    // the first die for a dink (0 would take none)
    let a = legal_of(&g, &st)[1];
    step(&g, &mut st, a);
    let a = legal_of(&g, &st)[0];
    step(&g, &mut st, a);
    end_turn(&g, &mut st, 2);
    assert_eq!(st.day, 2);
    assert_eq!(st.first_player, 1);
    assert_eq!(st.phase, Phase::Refresh);
    assert_eq!(st.last_turns, NONE);
    assert_eq!(st.life_preserver, NONE);
    // revealed fish (shoals 0 and 1) were discarded at the Start phase
    assert_eq!(st.discard_len[0], 2);
    assert_eq!(st.face_up, 0);
    assert_eq!((st.node, st.actor), (Node::MusterSelect, 1));
    assert!(st.seats.iter().take(3).all(|s| !s.passed));
}

#[test]
fn abandon_ship_under_last_turns_gives_four_port_actions() {
    let (g, mut st) = opening(2);
    step(&g, &mut st, 0); // seat 0 passes → last_turns 2 for seat 1
    step(&g, &mut st, 8);
    step(&g, &mut st, 0);
    assert_eq!(st.last_turns, 2);
    assert_eq!((st.node, st.actor), (Node::Turn, 1));
    hold_regrets(&mut st, 1, [0, 0, 1, 0]);
    step(&g, &mut st, 3);
    assert!(st.seats[1].lifeboat_used);
    assert_eq!(st.last_turns, 4);
    assert_eq!(st.seats[1].depth, 0);
    // MakePort musters: Fresh dice may be rerolled; no Spent dice
    assert_eq!(st.node, Node::MusterSelect);
    assert_eq!(g.state_json(&st)["ctx"]["left"], Value::Null);
    step(&g, &mut st, 50);
    assert_eq!(st.seats[1].fresh_count(), 2);
    step(&g, &mut st, 0);
    assert_eq!(st.node, Node::Roll);
    step(&g, &mut st, 3);
    assert_eq!(st.seats[1].fresh, {
        let mut f = [0; CLASSES];
        f[1] = 1;
        f[2] = 2;
        f
    });
    assert_eq!(st.node, Node::PortDiscard);
    assert_eq!(legal_of(&g, &st), vec![0, 72]);
    step(&g, &mut st, 72);
    assert_eq!(st.regret_discard, [0, 0, 1, 0]);
    assert!(st.seats[1].worms);
    // abandon ship is a free action (abandon ship): the same turn goes on in port, and its main
    // action is a port action; 4 port actions in all, this turn's included
    assert_eq!(st.last_turns, 4);
    for left in [3, 2, 1] {
        assert_eq!((st.node, st.actor), (Node::Turn, 1));
        let shop = legal_of(&g, &st).contains(&82);
        assert!(!shop, "no money");
        // a port action: the tackle shop (money given for the test)
        st.seats[1].money = 1;
        step(&g, &mut st, 91); // tackle $1
        assert_eq!(st.node, Node::DrawBag);
        step(&g, &mut st, 2);
        // Fresh 3 < max 4 (no regrets): the die is rolled into Fresh
        if st.node == Node::Roll {
            step(&g, &mut st, 2);
        }
        // seat 1 holds the Life Preserver (its shop discount is a free action in port)
        assert_eq!((st.node, st.actor), (Node::AfterMain, 1));
        assert_eq!(legal_of(&g, &st), vec![12, 24]);
        step(&g, &mut st, 24);
        assert_eq!(st.last_turns, left);
        st.seats[1].shops_used[3] = false;
        steps(&g, &mut st, &[8, 2 + u32::from(3 - left)]);
    }
    // the fourth port action ends the day
    st.seats[1].money = 1;
    step(&g, &mut st, 91);
    step(&g, &mut st, 0);
    if st.node == Node::Roll {
        step(&g, &mut st, 0);
    }
    step(&g, &mut st, 24);
    assert_eq!(st.day, 2);
    // at the end the lifeboat counts 10 Regret Value
    g.finish(&mut st);
    assert_eq!(st.regret_values[1], 10);
}

/// "Kerran pelissä voit hylätä paatin ja siirtyä loppuvuoroksi satamaan. Siitä seuraa
/// kuitenkin vakavaa katumusta." (Once per game you may abandon your boat and move to port for
/// the rest of the turn. It brings grave regret.) A free action; a main action not yet taken is
/// then a port action.
#[test]
fn abandon_ship_is_a_free_action() {
    let (g, mut st, [_osteo]) = started_with(2, json!({}), [(0, "Osteofish")], 1);
    st.life_preserver = NONE;
    st.seats[0].money = 1;
    // before the main action: the turn goes on in port
    step(&g, &mut st, 3);
    first_until(&g, &mut st, Node::Turn);
    assert_eq!(st.actor, 0);
    assert!(st.seats[0].lifeboat_used);
    assert_eq!(st.seats[0].depth, 0);
    assert_eq!(legal_of(&g, &st), vec![0, 82, 85, 88, 91]);
    step(&g, &mut st, 91); // the tackle shop is this turn's main action
    first_until(&g, &mut st, Node::Turn);
    assert_eq!(
        st.actor, 1,
        "nothing left to do in port: the turn ended at once"
    );
    // after the main action: seat 1 casts, then abandons ship
    step(&g, &mut st, 32);
    step(&g, &mut st, 6);
    first_until(&g, &mut st, Node::AfterMain);
    assert_eq!(st.actor, 1);
    step(&g, &mut st, 3);
    assert_eq!(st.node, Node::MusterSelect);
    step(&g, &mut st, 0);
    assert_eq!(st.node, Node::PortDiscard); // the Osteofish regret
    step(&g, &mut st, 0);
    assert!(st.seats[1].lifeboat_used);
    assert_eq!(st.seats[1].depth, 0);
    // in port with nothing left (the Osteofish cannot be eaten): the turn ends
    assert_eq!((st.node, st.actor), (Node::Turn, 0));
    g.finish(&mut st);
    assert_eq!(st.regret_values[..2], [10, 10]);
}

/// "Ilmaiset & rajoittamattomat toiminnot" (free and unlimited actions): on your own
/// turn before and after the main action; after it "end turn" is asked only while some free
/// action is possible.
#[test]
fn free_actions_after_the_main_action() {
    let (g, mut st, [_osteo, sunfish]) =
        started_with(2, json!({}), [(0, "Osteofish"), (1, "Sunfish")], 1);
    step(&g, &mut st, 32);
    step(&g, &mut st, 6);
    first_until(&g, &mut st, Node::AfterMain);
    assert_eq!(st.actor, 0);
    assert_eq!(
        legal_of(&g, &st),
        vec![3, 24, 41, 42, 43, 50, 51, 52],
        "abandon ship, end turn, the Can of Worms, sinkers"
    );
    assert_eq!(g.observation(&st, 1)["node"], "after_main");
    // each free action comes back to after_main while one is left
    step(&g, &mut st, 50);
    assert_eq!((st.node, st.seats[0].depth), (Node::AfterMain, 2));
    step(&g, &mut st, 51);
    assert_eq!((st.node, st.seats[0].depth), (Node::AfterMain, 3));
    assert!(!legal_of(&g, &st).contains(&52), "no sinker at depth III");
    step(&g, &mut st, 24);
    assert_eq!((st.node, st.actor), (Node::Turn, 1));
    // seat 1 with nothing left to do after its catch: the turn ends at once, no node
    let s1 = &mut st.seats[1];
    s1.lifeboat_used = true;
    s1.worms = false;
    s1.fresh = [0; CLASSES];
    s1.fresh[2] = 1; // P3
    s1.spent[0] = 2;
    step(&g, &mut st, 33);
    first_until(&g, &mut st, Node::Pay);
    steps(&g, &mut st, &[52, 6]);
    assert!(st.seats[1].hand.contains(usize::from(sunfish)));
    assert_eq!((st.node, st.actor), (Node::Turn, 0));
    // pass still ends the turn at once
    step(&g, &mut st, 0);
    assert_ne!(st.node, Node::AfterMain);
}

#[test]
fn declaration_make_port_and_back_to_sea() {
    let (g, mut st) = opening(2);
    autoplay_until(&g, &mut st, |s| s.node == Node::Declare);
    assert_eq!(st.day, 2);
    assert_eq!(st.phase, Phase::Declaration);
    assert_eq!(st.actor, 1); // first player on Tuesday
    step(&g, &mut st, 2);
    assert_eq!(st.seats[1].depth, 0);
    // MakePort musters again (the Fresh dice may be rerolled)
    assert_eq!(st.node, Node::MusterSelect);
    step(&g, &mut st, 0);
    assert_eq!((st.node, st.actor), (Node::Declare, 0));
    step(&g, &mut st, 1);
    assert_eq!(
        (st.node, st.actor, st.phase),
        (Node::Turn, 1, Phase::Actions)
    );
    // in port: pass, and nothing else without fish or money
    assert_eq!(legal_of(&g, &st), vec![0]);
    autoplay_until(&g, &mut st, |s| s.day == 3 && s.phase == Phase::Declaration);
    // seat 0 (first on Wednesday) was at sea: asked; seat 1 was in port: back to sea at depth 1
    assert_eq!((st.node, st.actor), (Node::Declare, 0));
    step(&g, &mut st, 1);
    assert_eq!(st.seats[1].depth, 1);
    assert_eq!(st.node, Node::Turn);
}

#[test]
fn day_effects_and_boats_move_up() {
    let (g, mut st) = opening(4);
    st.seats[2].depth = 3;
    st.seats[3].depth = 2;
    st.seats[0].worms = false;
    st.seats[0].money = 9;
    autoplay_until(&g, &mut st, |s| s.day == 2 && s.phase == Phase::Refresh);
    assert_eq!(
        (st.seats[2].depth, st.seats[3].depth, st.seats[1].depth),
        (2, 1, 1)
    );
    assert!(!st.seats[0].worms);
    autoplay_until(&g, &mut st, |s| s.day == 3 && s.phase == Phase::Refresh);
    assert!(st.seats[0].worms);
    assert_eq!(st.first_player, 2);
    autoplay_until(&g, &mut st, |s| s.day == 4 && s.phase == Phase::Refresh);
    assert_eq!(st.seats[0].money, 10, "payday capped at $10");
    assert_eq!(st.seats[1].money, 3);
    st.bag = [9, 8, 3];
    autoplay_until(&g, &mut st, |s| s.day == 6 && s.phase == Phase::Refresh);
    // orange: only 3 < 4 players in the bag → green
    assert_eq!(st.bag[1], 4);
    for p in 0..4 {
        let green = st.seats[p].spent[2]
            + st.seats[p].fresh[6..9].iter().sum::<u8>()
            + if usize::from(st.actor) == p {
                st.to_roll[2] + st.rolled[6..9].iter().sum::<u8>()
            } else {
                0
            };
        assert_eq!(green, 1, "seat {p}");
    }
    autoplay_until(&g, &mut st, |s| s.node == Node::Over);
    assert_eq!(st.day, 6);
}

#[test]
fn empty_sea_in_start_phase_ends_the_game() {
    let (g, mut st) = opening(2);
    empty_sea_but_one_fish(&mut st);
    // seat 0 reveals the last fish and declines: it stays face up and is discarded on Tuesday
    step(&g, &mut st, 32);
    step(&g, &mut st, 7);
    step(&g, &mut st, 50);
    step(&g, &mut st, 0);
    autoplay_until(&g, &mut st, |s| s.node == Node::Over);
    assert_eq!(st.day, 2);
    assert!(st.sea_empty());
    assert!(st.ended);
}

#[test]
fn regret_deck_reshuffle_and_steal() {
    let g = game(3, json!({}));
    let mut st = g.initial_state();
    st.regret_deck = [0; 4];
    st.regret_discard = [0, 0, 2, 0];
    st.push(Task::DrawRegrets(0, 1));
    st.push(Task::SeaCheck);
    st.shoal_len[0] = 1;
    g.run(&mut st);
    assert_eq!(st.node, Node::DrawRegret);
    assert_eq!(st.regret_deck, [0, 0, 2, 0]);
    // empty deck and discard: steal from the seat with most cards (ties: next after the drawer)
    let mut st = g.initial_state();
    st.regret_deck = [0; 4];
    st.seats[1].regrets = [1, 1, 0, 0];
    st.seats[2].regrets = [0, 0, 0, 2];
    st.shoal_len[0] = 1;
    st.push(Task::SeaCheck);
    st.push(Task::DrawRegrets(0, 1));
    g.run(&mut st);
    assert_eq!((st.node, st.victim), (Node::StealRegret, 1));
    let mut c = Vec::new();
    g.chance_outcomes(&st, &mut c);
    assert_eq!(c, vec![(0, 1), (1, 1)]);
    assert_eq!(
        g.action_label(&st, 1),
        "take a regret of value 1 from seat 1"
    );
}
