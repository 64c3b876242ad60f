//! In port (contract §7.2, §7.3, §16.10): selling, mounting, the shops and the Cloche.
//!
//! Must not: hold generic checks that the shared test kit runs for every game.

use super::*;

#[test]
fn sell_with_foul_regret_and_money_cap() {
    let (g, mut st) = opening(2);
    let s = &mut st.seats[0];
    s.depth = 0;
    s.money = 7;
    hold_regrets(&mut st, 0, [0, 1, 0, 0]); // tier 1: fair +1, foul -1
                                            // Hammerhead (fair 5), Halley's Folly (foul 4), Whispering Skull (no value)
    for f in [0u8, 5, 47] {
        give_hand(&mut st, 0, f);
    }
    at_turn(&mut st, 0);
    assert_eq!(legal_of(&g, &st)[..3], [0, 10, 11]);
    step(&g, &mut st, 10);
    assert_eq!(legal_of(&g, &st), vec![165, 170]);
    step(&g, &mut st, 170);
    assert_eq!(st.seats[0].money, 10);
    assert_eq!((st.count, st.foul), (1, 1));
    assert_eq!(legal_of(&g, &st), vec![0, 165]);
    step(&g, &mut st, 165);
    assert_eq!(st.seats[0].money, 10, "capped");
    // no sellable fish left: the sale ends by itself, one regret for the foul fish
    assert_eq!(st.node, Node::DrawRegret);
    assert_eq!((st.count, st.foul), (0, 0));
    step(&g, &mut st, 2);
    assert_eq!(st.seats[0].regrets, [0, 1, 1, 0]);
    assert_eq!((st.node, st.actor), (Node::Turn, 1));
    assert_eq!(&st.fish_discard[0][..2], &[5, 0]);
    assert!(st.seats[0].hand.contains(47));
}

#[test]
fn mounting_and_end_penalty() {
    let (g, mut st) = opening(3);
    let fish = [fid("Swordfish"), fid("Barracuda"), fid("Coelacanth")];
    for f in fish {
        give_hand(&mut st, 0, f);
    }
    st.seats[0].depth = 0;
    at_turn(&mut st, 0);
    step(&g, &mut st, 11);
    assert_eq!(legal_of(&g, &st), vec![79, 80, 81]);
    assert_eq!(g.action_label(&st, 80), "mount in slot 1 (x3)");
    step(&g, &mut st, 80);
    assert_eq!(st.node, Node::MountFish);
    assert_eq!(g.state_json(&st)["ctx"]["slot"], 1);
    step(&g, &mut st, FISH + u32::from(fish[0]));
    assert_eq!(legal_of(&g, &st), vec![0, 79, 81]);
    steps(
        &g,
        &mut st,
        &[79, FISH + u32::from(fish[1]), 81, FISH + u32::from(fish[2])],
    );
    // all slots full: ends by itself
    assert_eq!((st.node, st.actor), (Node::Turn, 1));
    assert_eq!(st.seats[0].mounted, [fish[1], fish[0], fish[2]]);
    // end: seat 0 has the highest RV (0 = 0 = 0: everyone ties) and loses its best mount:
    // Swordfish (5+2)×3 = 21 > Barracuda 6×2 = Coelacanth 6×2
    let mut a = st;
    g.finish(&mut a);
    assert_eq!(a.discarded[0], fish[0]);
    assert_eq!(a.final_scores[0], 12 + 12);
    // with a regret card seat 1 alone has the highest RV
    let mut b = st;
    b.seats[1].regrets = [0, 1, 0, 0];
    g.finish(&mut b);
    assert_eq!(b.discarded[0], NONE);
    assert_eq!(b.final_scores[0], 12 + 21 + 12);
    // 2 players: the penalised seat loses its worst mounted fish (lowest slot among equals)
    let g2 = game(2, json!({}));
    let mut c = st;
    g2.finish(&mut c);
    assert_eq!(c.discarded[0], fish[1]);
    assert_eq!(c.final_scores[0], 21 + 12);
}

#[test]
fn shop_worked_example() {
    let (g, mut st) = opening(3);
    st.day = 2;
    let s = &mut st.seats[2];
    s.depth = 0;
    s.money = 6;
    hold_regrets(&mut st, 2, [0, 1, 1, 0]);
    hold_dinks(&mut st, 2, 1 << 17);
    at_turn(&mut st, 2);
    let mut want: Vec<u32> = vec![0];
    want.extend(SHOP..=SHOP_LAST);
    want.push(117);
    assert_eq!(legal_of(&g, &st), want);
    assert_eq!(g.action_label(&st, 90), "supply shop $5");
    assert_eq!(g.action_label(&st, 117), "use Pearl");
    step(&g, &mut st, 117);
    assert_eq!(st.discount, 2);
    assert_eq!(st.dink_discard, 1 << 17);
    assert_eq!(st.node, Node::Turn);
    step(&g, &mut st, 90);
    assert_eq!(st.seats[2].money, 3);
    assert_eq!(st.discount, 0);
    assert!(st.seats[2].shops_used[2]);
    for id in [0, 9, 12, 4, 19] {
        assert_eq!(st.node, Node::DrawSupply);
        step(&g, &mut st, id);
    }
    assert_eq!(
        g.state_json(&st)["ctx"]["shop"],
        json!({"shop": 2, "drawn": [0, 9, 12, 4, 19]})
    );
    assert_eq!(
        g.observation(&st, 0)["ctx"]["shop"],
        json!({"shop": "supply", "drawn": [null, null, null, null, null]})
    );
    assert_eq!(st.node, Node::ShopKeep);
    assert_eq!(g.state_json(&st)["ctx"]["left"], 3);
    assert_eq!(legal_of(&g, &st), vec![125, 129, 134, 137, 144]);
    assert_eq!(g.action_label(&st, 134), "keep Bag of Maggots");
    steps(&g, &mut st, &[134, 125, 129]);
    assert_eq!(st.seats[2].supplies, (1 << 9) | 1 | (1 << 4));
    assert!(st.supply_deck >> 12 & 1 == 1 && st.supply_deck >> 19 & 1 == 1);
    assert_eq!(st.shop, NONE);
    // supplies usable in port: free actions after the shop (free actions)
    end_turn(&g, &mut st, 2);
    assert_eq!((st.node, st.actor), (Node::Turn, 0));
}

#[test]
fn rod_shop_keep_and_equip_at_declaration() {
    let (g, mut st) = opening(2);
    st.seats[0].depth = 0;
    st.seats[0].money = 10;
    at_turn(&mut st, 0);
    step(&g, &mut st, 84); // rod $5: draw 5 keep 2
    steps(&g, &mut st, &[6, 0, 9, 3, 1]);
    assert_eq!(legal_of(&g, &st), vec![145, 146, 148, 151, 154]);
    steps(&g, &mut st, &[151, 145]);
    assert_eq!(st.seats[0].rods, 1 | (1 << 6));
    assert_eq!(
        st.seats[0].rod, NONE,
        "equipped only at the next Declaration"
    );
    assert_eq!(st.seats[0].money, 5);
    // tackle $3: 2 dice; Fresh 3 < 4 → rolled, then full → Spent
    st.seats[1].passed = true;
    at_turn(&mut st, 0);
    step(&g, &mut st, 92);
    step(&g, &mut st, 2);
    assert_eq!(st.node, Node::Roll);
    step(&g, &mut st, 3);
    step(&g, &mut st, 1);
    assert_eq!(st.seats[0].fresh[10], 1);
    assert_eq!(st.seats[0].spent[2], 1);
    assert_eq!(st.seats[0].money, 2);
    st.seats[1].passed = false;
    autoplay_until(&g, &mut st, |s| s.node == Node::EquipRod);
    assert_eq!(st.actor, 0);
    assert_eq!(legal_of(&g, &st), vec![145, 151]);
    step(&g, &mut st, 151);
    assert_eq!(st.seats[0].rod, 6);
}

#[test]
fn cloche_and_claw_hammer() {
    let (g, mut st) = opening(2);
    let cloche = item_id(&g.data.supplies, "Cloche");
    let hammer = item_id(&g.data.supplies, "Claw Hammer");
    hold_supplies(&mut st, 0, 1 << cloche | 1 << hammer);
    st.seats[0].depth = 0;
    let small = give_named(&mut st, 0, "Sockeye Salmon");
    let legal = legal_of(&g, &st);
    assert!(legal.contains(&(SUPPLY + cloche)) && !legal.contains(&(SUPPLY + hammer)));
    step(&g, &mut st, SUPPLY + cloche);
    assert_eq!((st.node, st.slot), (Node::MountFish, 3));
    let a = FISH + u32::from(small);
    assert_eq!(g.action_label(&st, a), "mount Sockeye Salmon on the Cloche");
    step(&g, &mut st, a);
    assert_eq!(st.seats[0].cloche, small);
    assert_eq!(st.supply_discard, 0);
    assert_eq!(st.node, Node::Turn);
    step(&g, &mut st, SUPPLY + hammer);
    assert_eq!(st.seats[0].cloche, NONE);
    assert!(st.seats[0].hand.contains(usize::from(small)));
    assert_eq!(st.supply_discard, 1 << cloche | 1 << hammer);
}
