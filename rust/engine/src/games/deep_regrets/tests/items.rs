//! Item effects (contract §2.1, §7.6, §16.10): supplies, reels and rods.
//!
//! Must not: hold generic checks that the shared test kit runs for every game.

use super::*;

#[test]
fn item_effects() {
    let d = data::data().unwrap();
    let (g, mut st) = started(2, json!({}), &[(0, &[0])], 1);
    let chum = item_id(&d.supplies, "Bucket of Chum");
    let eyes = item_id(&d.supplies, "Mermaid Eyes");
    let stone = item_id(&d.supplies, "Restless Stone");
    hold_supplies(&mut st, 0, (1 << chum) | (1 << eyes) | (1 << stone));
    equip_reel(&mut st, 0, 3); // Stop-Latch
    at_turn(&mut st, 0);
    // at the turn node: Mermaid Eyes (peek) and Stop-Latch are ready; Restless Stone is not (no
    // Spent die to refresh)
    let legal = legal_of(&g, &st);
    assert!(legal.contains(&13) && legal.contains(&(SUPPLY + eyes)));
    assert!(!legal.contains(&(SUPPLY + chum)) && !legal.contains(&(SUPPLY + stone)));
    step(&g, &mut st, SUPPLY + eyes);
    assert_eq!(st.node, Node::PeekShoal);
    assert_eq!(
        g.state_json(&st)["ctx"]["item"],
        json!({"kind": "supply", "id": eyes})
    );
    assert_eq!(g.observation(&st, 1)["ctx"]["item"], "Mermaid Eyes");
    assert_eq!(g.state_json(&st)["ctx"]["left"], 2);
    step(&g, &mut st, 36);
    assert_eq!(g.state_json(&st)["ctx"]["left"], 1);
    assert!(!legal_of(&g, &st).contains(&36));
    step(&g, &mut st, 33);
    assert_eq!(st.known[0], (1 << 4) | (1 << 1));
    assert_eq!(st.node, Node::Turn);
    assert_eq!(g.state_json(&st)["ctx"]["item"], Value::Null);
    let o = g.observation(&st, 0);
    assert!(o["shoals"][1]["known"].is_string());
    assert_eq!(g.observation(&st, 1)["shoals"][1]["known"], Value::Null);
    // Stop-Latch: one die to its top face
    step(&g, &mut st, 13);
    assert_eq!(st.node, Node::SetMax);
    assert_eq!(legal_of(&g, &st), vec![50, 51]);
    assert_eq!(g.action_label(&st, 50), "set P1 to 3");
    step(&g, &mut st, 50);
    assert!(st.seats[0].reel_used);
    assert_eq!(st.seats[0].fresh[2], 2);
    assert!(!legal_of(&g, &st).contains(&13));
    // cast at shoal 0 (Hammerhead, D 3): Bucket of Chum draws 3 regrets then D = 0
    step(&g, &mut st, 32);
    assert!(legal_of(&g, &st).contains(&(SUPPLY + chum)));
    step(&g, &mut st, SUPPLY + chum);
    steps(&g, &mut st, &[1, 1, 0]);
    assert_eq!(st.node, Node::Pay);
    assert_eq!(g.effective_difficulty(&st, 0), 0);
    assert_eq!(st.seats[0].regrets, [1, 2, 0, 0]);
    assert!(g.state_json(&st)["ctx"]["cast"]["zero"].as_bool().unwrap());
    // Restless Stone: needs a Spent die
    st.seats[0].fresh[2] -= 1;
    st.seats[0].spent[0] += 1;
    assert!(legal_of(&g, &st).contains(&(SUPPLY + stone)));
    step(&g, &mut st, SUPPLY + stone);
    steps(&g, &mut st, &[2, 2]); // two regrets
    assert_eq!(st.node, Node::RefreshDie);
    assert_eq!(legal_of(&g, &st), vec![65]);
    step(&g, &mut st, 65);
    step(&g, &mut st, 3);
    // the only Spent die is back: the refresh loop stops
    assert_eq!(st.node, Node::Pay);
    assert_eq!(st.seats[0].regrets, [1, 2, 2, 0]);
    step(&g, &mut st, 6);
    assert!(st.seats[0].hand.contains(0));
}

#[test]
fn reel_reroll_and_reroll_low() {
    let (g, mut st) = opening(2);
    st.seats[0].reels = 0b101; // Wood and Brass Reel (reroll 2), Reel of Fortune
    st.reel_deck &= !0b101;
    st.seats[0].reel = 0;
    at_turn(&mut st, 0);
    step(&g, &mut st, 13);
    assert_eq!(st.node, Node::RerollSelect);
    assert_eq!(g.state_json(&st)["ctx"]["left"], 2);
    steps(&g, &mut st, &[50]);
    assert_eq!(g.state_json(&st)["ctx"]["left"], 1);
    step(&g, &mut st, 52);
    assert_eq!(st.node, Node::Roll);
    assert_eq!(g.state_json(&st)["ctx"]["to_roll"], json!(["P", "P"]));
    steps(&g, &mut st, &[1, 1]);
    assert_eq!(st.seats[0].fresh[0], 2);
    assert_eq!(st.node, Node::Turn);
    // Reel of Fortune: every die showing 1 rerolled over its faces 2 and 3
    st.seats[0].reel = 2;
    st.seats[0].reel_used = false;
    step(&g, &mut st, 13);
    assert_eq!(st.node, Node::RollHigh);
    let mut c = Vec::new();
    g.chance_outcomes(&st, &mut c);
    assert_eq!(c, vec![(2, 1), (3, 1)]);
    steps(&g, &mut st, &[2, 3]);
    assert_eq!(st.seats[0].fresh[1..3], [2, 1]);
    assert_eq!(st.node, Node::Turn);
}

#[test]
fn bone_wheel_turns_the_largest_payment_die_down() {
    let (g, mut st, [_sheepshead]) = started_with(2, json!({}), [(0, "Sheepshead")], 1);
    let wheel = item_id(&g.data.reels, "Bone Wheel") as u8;
    equip_reel(&mut st, 0, wheel);
    step(&g, &mut st, 32);
    steps(&g, &mut st, &[52, 6]);
    // P3 paid for difficulty 1: it comes back as P2
    assert_eq!(st.seats[0].fresh[0..3], [1, 2, 0]);
    assert_eq!(st.seats[0].spent[0], 0);
}

/// Bone Wheel (`items.csv`, contract Decision 46 and §16.10): "passive: retain unspent points on
/// dice". Paid exactly: the die is spent; paid with more: the largest payment die stays Fresh
/// showing the leftover (or its highest face below), else it is spent.
#[test]
fn bone_wheel_retains_the_leftover() {
    let (g, mut st, [shark, _eyefish]) =
        started_with(2, json!({}), [(0, "Hammerhead Shark"), (1, "Eyefish")], 1);
    equip_reel(&mut st, 0, 9); // Bone Wheel
    let start = st;
    // difficulty 3 paid exactly with one P3 → that die is spent
    steps(&g, &mut st, &[32, 52, 6]);
    assert!(st.seats[0].hand.contains(usize::from(shark)));
    assert_eq!(st.seats[0].fresh[..3], [1, 1, 0]);
    assert_eq!(st.seats[0].spent[0], 1);
    // difficulty 1 paid with P3: leftover 2 → the die stays Fresh as P2
    let mut st = start;
    steps(&g, &mut st, &[33, 52, 6]);
    assert_eq!(st.seats[0].fresh[..3], [1, 2, 0]);
    assert_eq!(st.seats[0].spent[0], 0);
    // paid with O3: leftover 2 → O2; paid with O2: leftover 1, no orange face ≤ 1 → spent
    for (class, fresh_after, bag_after) in [(10usize, Some(9usize), 0u8), (9, None, 1)] {
        let mut st = start;
        st.seats[0].fresh = [0; CLASSES];
        st.seats[0].spent[0] = 3;
        st.seats[0].fresh[class] = 1;
        st.bag[2] -= 1;
        let bag = st.bag[2];
        steps(&g, &mut st, &[33, DIE + class as u32, 6]);
        let fresh: Vec<usize> = (0..CLASSES).filter(|&c| st.seats[0].fresh[c] > 0).collect();
        assert_eq!(fresh, fresh_after.into_iter().collect::<Vec<_>>());
        assert_eq!(st.bag[2], bag + bag_after);
    }
    // without the Bone Wheel every payment die is spent
    let mut st = start;
    st.seats[0].reel = NONE;
    steps(&g, &mut st, &[33, 52, 6]);
    assert_eq!(st.seats[0].fresh[..3], [1, 1, 0]);
}

/// Centerpin Reel (`items.csv`, contract Decision 19 and §16.10): "when you would draw a Dink as
/// part of your own fishing action … draw 3 instead (keep all)". Only Dinks of the own cast
/// become three; pass rewards stay one.
#[test]
fn centerpin_reel_only_in_the_own_cast() {
    let (g, mut st, [_blanket]) = started_with(2, tentacles(), [(0, "Blanket Octopus")], 1);
    equip_reel(&mut st, 0, 8); // Centerpin Reel
    let start = st;
    // a Dink the caught fish gives: three
    steps(&g, &mut st, &[32, 51, 6]);
    assert_eq!(st.node, Node::Coin);
    step(&g, &mut st, 1); // tails: discard it, draw a dink
    for _ in 0..3 {
        assert_eq!(st.node, Node::DrawDink);
        let a = legal_of(&g, &st)[0];
        step(&g, &mut st, a);
    }
    assert_eq!(st.seats[0].dinks.count_ones(), 3);
    assert_eq!(st.node, Node::AfterMain);
    // the Dink for not paying: three
    let mut st = start;
    steps(&g, &mut st, &[32, 7, 50]);
    for _ in 0..3 {
        let a = legal_of(&g, &st)[0];
        step(&g, &mut st, a);
    }
    assert_eq!(st.seats[0].dinks.count_ones(), 3);
    // a pass reward: one
    let mut st = start;
    steps(&g, &mut st, &[0, 8]);
    let a = legal_of(&g, &st)[0];
    step(&g, &mut st, a);
    assert_eq!(st.seats[0].dinks.count_ones(), 1);
    assert_ne!(st.node, Node::DrawDink);
}

/// Rod of the Dead (`items.csv`, contract Decision 38 and §16.10): "you may choose to ignore the
/// Reveal and/or Catch abilities of the fish you reveal and/or catch (each ability separately)".
/// One choice per Reveal and per Catch ability; a not-caught clause is part of the Reveal
/// ability (Decision 37), so a fish with only that clause (Scrat) is asked about too.
#[test]
fn rod_of_the_dead_reveal_and_catch_separately() {
    let (g, mut st, [eyefish, scrat, _stingray]) = started_with(
        2,
        json!({}),
        [(0, "Eyefish"), (1, "Scrat"), (2, "Whiptail Stingray")],
        1,
    );
    equip_rod(&mut st, 0, 9); // Rod of the Dead
    let start = st;
    // Eyefish: no reveal list (no node), a catch list → ignore_catch after it moved to the hand
    steps(&g, &mut st, &[32, 50, 6]);
    assert_eq!((st.node, st.actor), (Node::IgnoreCatch, 0));
    assert!(st.seats[0].hand.contains(usize::from(eyefish)));
    assert_eq!(legal_of(&g, &st), vec![16, 17]);
    assert_eq!(g.action_label(&st, 16), "resolve the catch ability");
    assert_eq!(g.action_label(&st, 17), "ignore the catch ability");
    let mut resolved = st;
    step(&g, &mut st, 17);
    assert_eq!(st.seats[0].regret_count(), 0);
    assert_eq!(st.node, Node::AfterMain);
    step(&g, &mut resolved, 16);
    assert_eq!(resolved.node, Node::DrawRegret);
    // Whiptail Stingray: a reveal list → ignore_reveal
    let mut st = start;
    step(&g, &mut st, 34);
    assert_eq!((st.node, st.actor), (Node::IgnoreReveal, 0));
    step(&g, &mut st, 17);
    assert_eq!(st.node, Node::Pay);
    // Scrat: only a not-caught clause, part of its Reveal ability → ignore_reveal too;
    // resolved, the clause runs on decline (see rod_of_the_dead_ignores_a_not_caught_clause)
    let mut st = start;
    step(&g, &mut st, 33);
    assert_eq!((st.node, st.actor), (Node::IgnoreReveal, 0));
    step(&g, &mut st, 16);
    assert_eq!(st.node, Node::Pay);
    steps(&g, &mut st, &[7, 50]);
    let a = legal_of(&g, &st)[0];
    step(&g, &mut st, a);
    assert!(st.seats[1].hand.contains(usize::from(scrat)));
}

#[test]
fn rod_of_the_deep_reorders_before_the_reveal() {
    let (g, mut st) = started(2, json!({}), &[(0, &[0, 1, 2])], 1);
    let rod = item_id(&g.data.rods, "Rod of the Deep") as u8;
    equip_rod(&mut st, 0, rod);
    step(&g, &mut st, 32);
    assert_eq!(st.node, Node::Reorder);
    assert_eq!(legal_of(&g, &st), vec![165, 166]);
    assert_eq!(g.state_json(&st)["ctx"]["order"], json!([0, 1]));
    step(&g, &mut st, 166);
    // Barracuda is now the top and revealed
    assert_eq!(st.top_fish(0), Some(1));
    assert_eq!(st.node, Node::Pay);
    let shoal = &g.state_json(&st)["shoals"][0];
    assert_eq!(
        shoal.as_array().unwrap()[0..3],
        [json!(1), json!(0), json!(2)]
    );
}

/// Rod of the Infinite (`items.csv`, contract Decision 45 and §16.10): "when you cast: peek at
/// the top 3 fish of the shoal and put them back in any order, before revealing the top fish".
/// No Dink is discarded.
#[test]
fn rod_of_the_infinite_needs_no_dink() {
    let (a, b, c) = (fid("Eyefish"), fid("Osteofish"), fid("Geist"));
    let (g, mut st) = started(2, json!({}), &[(0, &[a, b, c])], 1);
    equip_rod(&mut st, 0, 8); // Rod of the Infinite
    assert_eq!(st.seats[0].dinks, 0);
    step(&g, &mut st, 32);
    assert_eq!((st.node, st.actor), (Node::Reorder, 0));
    let mut want = [a, b, c];
    want.sort_unstable();
    let ids: Vec<u32> = want.iter().map(|&f| FISH + u32::from(f)).collect();
    assert_eq!(legal_of(&g, &st), ids);
    // Osteofish first, then Geist: Osteofish is revealed on top
    steps(&g, &mut st, &[FISH + u32::from(b), FISH + u32::from(c)]);
    assert_eq!(st.node, Node::Pay);
    assert_eq!(st.top_fish(0), Some(b));
    let len = usize::from(st.shoal_len[0]);
    assert_eq!(st.shoals[0][len - 3..len], [a, c, b]);
    // a held dink is kept
    let (g, mut st) = started(2, json!({}), &[(0, &[a, b, c])], 1);
    equip_rod(&mut st, 0, 8); // Rod of the Infinite
    hold_dinks(&mut st, 0, 1);
    step(&g, &mut st, 32);
    assert_eq!(st.node, Node::Reorder);
    assert_eq!(st.seats[0].dinks, 1);
    assert_eq!(st.dink_discard, 0);
}

/// A readiness table with its item count and the source of its items.
type ReadyKind<'a> = (
    &'a super::super::items::ReadyTable,
    usize,
    fn(u8) -> ItemSrc,
);

/// The readiness tables of the dinks and the supplies.
fn ready_kinds(g: &DeepRegrets) -> [ReadyKind<'_>; 2] {
    [
        (&g.dink_ready, data::DINK_COUNT, ItemSrc::Dink),
        (&g.supply_ready, data::SUPPLY_COUNT, ItemSrc::Supply),
    ]
}

#[test]
fn ready_tables_need_what_each_held_item_needs() {
    // The flags found needed by byte are those some use of a held item needs (a missing use,
    // `REQ_NEVER`, needs none), for every single item and a spread of held sets.
    let g = game(4, json!({}));
    let kinds = ready_kinds(&g);
    let never = super::super::items::REQ_NEVER;
    for (table, count, src) in kinds {
        let singles = (0..32).map(|i| 1u32 << i);
        let spread = (0u32..1 << 12).map(|x| x.wrapping_mul(0x9E37_79B9));
        for held in singles.chain(spread).chain([0, u32::MAX]) {
            let mut expect = 0;
            for i in (0..count as u8).filter(|&i| held >> i & 1 == 1) {
                for &m in g.reqs(src(i)) {
                    if m & never == 0 {
                        expect |= m;
                    }
                }
            }
            assert_eq!(table.needed(held), expect, "held {held:#x}");
        }
    }
}

#[test]
fn ready_tables_agree_with_each_item() {
    // The dinks and supplies found ready by flag are those with a ready use, on every third
    // set of the 19 readiness flags, with and without other bits (never `REQ_NEVER`, which no
    // seat's flags hold).
    let g = game(4, json!({}));
    let kinds = ready_kinds(&g);
    for (table, count, src) in kinds {
        for x in (0u32..1 << 20).step_by(3) {
            let flags = if x < 1 << 19 {
                x
            } else {
                x.wrapping_mul(0x9E37_79B9) & !super::super::items::REQ_NEVER
            };
            let ready = table.ready(u32::MAX, flags);
            for i in 0..32u8 {
                let expect = usize::from(i) < count && g.ready_in(src(i), flags).is_some();
                assert_eq!(ready >> i & 1 == 1, expect, "item {i}, flags {flags:#x}");
            }
        }
    }
}

/// Decision 83: "If the Sea is ever empty, the game ends immediately" (rulebook p.10), also when
/// a reveal outside a cast discards the sea's last card, a face-down special card.
#[test]
fn a_reveal_outside_a_cast_that_empties_the_sea_ends_the_game() {
    let d = data::data().unwrap();
    for item in ["Heart of the Fathoms", "Diving Lantern"] {
        let (g, mut st, [trafficker]) = started_with(2, json!({}), [(0, "Tidal Trafficker")], 1);
        empty_sea_but_one_fish(&mut st);
        let id = item_id(&d.supplies, item);
        hold_supplies(&mut st, 0, 1 << id);
        at_turn(&mut st, 0);
        step(&g, &mut st, SUPPLY + id);
        if item == "Diving Lantern" {
            assert_eq!(
                (st.node, legal_of(&g, &st)),
                (Node::RevealColumn, vec![COLUMN])
            );
            step(&g, &mut st, COLUMN);
        }
        assert!(st.sea_empty(), "{item}");
        assert!(st.fish_discard[0].contains(&trafficker), "{item}");
        assert_eq!(st.node, Node::Over, "{item}");
        assert_eq!(g.current_player(&st), TERMINAL);
        assert_eq!(g.state_json(&st)["phase"], "over");
        assert_eq!(g.state_json(&st)["ctx"]["item"], Value::Null);
    }
}
