//! The card data as the engine reads it, the options, the deal and the first Refresh, the
//! canonical state's keys, labels and the tensor size (contract §1, §2, §5, §10, §11).
//!
//! Must not: hold generic checks that the shared test kit runs for every game.

use super::*;

#[test]
fn data_matches_assumptions() {
    let d = data::data().unwrap();
    assert_eq!(d.fish.len(), 135);
    for (i, f) in d.fish.iter().enumerate() {
        assert_eq!(usize::from(f.depth), i / 45 + 1, "fish {i}");
    }
    for depth in 0..3 {
        let base = d.fish[depth * 45..depth * 45 + 45]
            .iter()
            .filter(|f| f.base)
            .count();
        assert_eq!(base, 39);
    }
    assert_eq!(
        d.faces,
        [
            [1, 1, 2, 3],
            [0, 0, 1, 2],
            [1, 1, 2, 3],
            [2, 2, 3, 3],
            [1, 2, 3, 4]
        ]
    );
    assert_eq!(d.dice_count, [3, 9, 8, 7, 1]);
    for c in 0..CLASSES {
        let k = usize::from(CLASS_KIND[c]);
        assert!(d.faces[k].contains(&CLASS_FACE[c]));
        assert_eq!(class_of(k, u32::from(CLASS_FACE[c])), Some(c));
        assert_eq!(
            CLASS_NAME[c],
            format!("{}{}", KIND_LETTER[k], CLASS_FACE[c])
        );
    }
    for k in 0..KINDS {
        let top = d.faces[k].iter().max().copied().unwrap();
        assert_eq!(CLASS_FACE[usize::from(TOP_CLASS[k])], top);
        assert_eq!(usize::from(CLASS_KIND[usize::from(TOP_CLASS[k])]), k);
    }
    let tiers: Vec<(u8, i8, i8, u8, u8)> = d
        .madness
        .iter()
        .map(|t| (t.min_regrets, t.fair, t.foul, t.max_fresh, t.shop_discount))
        .collect();
    assert_eq!(
        tiers,
        vec![
            (0, 2, -2, 4, 0),
            (1, 1, -1, 5, 0),
            (4, 1, 0, 5, 0),
            (7, 0, 1, 6, 0),
            (10, -1, 1, 7, 0),
            (13, -2, 2, 8, 1)
        ]
    );
    let shops: Vec<Vec<(u8, u8, u8)>> = d
        .shops
        .iter()
        .map(|s| s.iter().map(|t| (t.price, t.draw, t.keep)).collect())
        .collect();
    assert_eq!(shops[0], vec![(1, 1, 1), (3, 3, 1), (5, 5, 2)]);
    assert_eq!(shops[2], vec![(1, 1, 1), (3, 3, 2), (5, 5, 3)]);
    assert_eq!(shops[3], vec![(1, 1, 0), (3, 2, 0), (5, 3, 0)]);
    assert_eq!(d.mount_multipliers, [2, 3, 2]);
    assert_eq!((d.money_cap, d.money_per_point, d.payday), (10, 2, 3));
    assert_eq!((d.lifeboat_regret_value, d.overfishing_regrets), (10, 1));
    assert_eq!(d.dinks.len(), 25);
    assert!(d.dinks[23].uses.is_empty() && d.dinks[24].uses.is_empty());
    assert_eq!(d.reels[8].dink_draw, Some(3));
    assert_eq!(d.rods[6].rod_passive, Some((-2, data::When::FirstCatch)));
    assert!(d.rods[7].rod_passive.is_none());
    // the items of the card abilities
    assert_eq!(
        d.supplies[15].uses,
        vec![vec![data::Prim::Reveal(data::RevealTarget::Column)]]
    );
    assert_eq!(
        d.supplies[16].uses,
        vec![vec![data::Prim::Reveal(data::RevealTarget::All)]]
    );
    assert_eq!(d.supplies[18].uses, vec![vec![data::Prim::ClawHammer]]);
    assert_eq!(d.supplies[19].uses, vec![vec![data::Prim::Cloche]]);
    assert_eq!(d.rods[7].reorder, Some(2));
    assert_eq!(d.rods[8].reorder, Some(3));
    assert!(d.rods[9].ignore_reveal && d.rods[9].ignore_catch && d.reels[9].retain_leftover);
    assert!(!d.rods[7].ignore_catch && !d.reels[8].retain_leftover);
    assert!(d.reels[8].dink_draw == Some(3) && d.reels[8].dink_draw_own_cast);
    // fish abilities as data
    let f = |name: &str| &d.fish[usize::from(fid(name))];
    let list = |id: u16| d.lists[usize::from(id)].clone();
    assert!(d.lists[0].is_empty());
    assert_eq!(
        list(f("Hammerhead Shark").catch),
        vec![data::Prim::DiscardFish(0)]
    );
    assert!(f("Hammerhead Shark").shark && f("Goblin Shark").shark && !f("Remora").shark);
    assert_eq!(
        list(f("Parasitic Larvae").reveal),
        vec![data::Prim::AutoCatch]
    );
    assert!(f("Parasitic Larvae").front && f("Parasitic Larvae").rules.front_extra == 1);
    assert_eq!(
        list(f("Tri-Tentacle").catch),
        vec![data::Prim::DrawRegretFoul]
    );
    let data::Prim::Choice(a, b) = list(f("Sockeye Salmon").eat)[0] else {
        panic!("choice expected")
    };
    assert_eq!(list(a), vec![data::Prim::Increment(1)]);
    assert_eq!(list(b), vec![data::Prim::DiscardRandomRegret(1)]);
    let data::Prim::Coin(h, t) = list(f("Blanket Octopus").catch)[0] else {
        panic!("coin expected")
    };
    assert_eq!(h, 0);
    assert_eq!(
        list(t),
        vec![data::Prim::DiscardThis, data::Prim::DrawDink(1)]
    );
    assert_eq!(
        list(f("The Plug").reveal),
        vec![data::Prim::Plug, data::Prim::EndCast]
    );
    assert_eq!(
        f("No Face").rules.show,
        Some(data::Show::Fish(fid("Two Face")))
    );
    assert_eq!(f("Giant Isopod").rules.discard_size, Some(2));
    assert_eq!(f("Hollow Earth Worm").rules.worms_difficulty, Some(4));
    assert!(f("Overmind").rules.must_catch && f("Overmind").rules.port_mount);
    assert_eq!(f("Dumbo Octopus").rules.give_away, Some(4));
    assert_eq!(f("Iron Coffin").rules.front_offer, Some((2, 1)));
    assert!(f("Colossal Squid").rules.column_lock && f("Gloom Orphan").rules.column_lock);
    assert_eq!(
        f("Vampire Squid").rules.per,
        Some((data::Per::SeatsAtDepth2, -1))
    );
    assert_eq!(f("Orca").rules.front_difficulty, Some((true, -1)));
    let fronts = d.fish.iter().filter(|x| x.front).count();
    assert_eq!(fronts, 8);
    assert_eq!(d.regret_decks.len(), 2);
}

#[test]
fn options_are_validated() {
    let g = game(3, json!({}));
    assert_eq!(
        Value::Object(g.options()),
        json!({"days": 6, "expansion_tentacles": false, "regret_split": "6/24/20/10"})
    );
    for bad in [
        json!({"days": 4}),
        json!({"regret_split": "1/2/3/4"}),
        json!({"expansion_tentacles": 1}),
        json!({"colour": "red"}),
    ] {
        assert!(
            DeepRegrets::from_options(3, bad.as_object().unwrap()).is_err(),
            "{bad}"
        );
    }
    assert!(DeepRegrets::from_options(1, &Map::new()).is_err());
    assert!(DeepRegrets::from_options(6, &Map::new()).is_err());
    assert_eq!(g.num_actions(), 512);
    let short = game(
        2,
        json!({"days": 5, "regret_split": "10/20/20/10", "expansion_tentacles": true}),
    );
    let st = short.initial_state();
    assert_eq!(st.day, 2);
    assert_eq!(st.regret_deck, [10, 20, 20, 10]);
    assert_eq!(st.deal_left.count(), 135);
    assert_eq!(short.per_shoal, 15);
}

#[test]
fn setup_deal_first_refresh_and_state_keys() {
    let g = game(3, json!({}));
    let mut s = Sess::new(Arc::clone(&g), None);
    assert_eq!(g.current_player(s.state()), CHANCE);
    let legal = legal_of(&g, s.state());
    assert_eq!(legal.len(), 39);
    assert!(legal
        .iter()
        .all(|&f| f < 45 && g.data.fish[f as usize].base));
    assert_eq!(
        g.action_label(s.state(), 0),
        "deal Hammerhead Shark to shoal 0"
    );
    assert_eq!(g.action_label(s.state(), 135), "outcome 135");
    let st0 = g.state_json(s.state());
    assert_eq!(st0["phase"], "setup");
    assert_eq!(st0["node"], "deal");
    assert_eq!(st0["actor"], Value::Null);
    assert_eq!(st0["day"], 1);
    // deal everything with the lowest ids: shoal 0 gets 0,1,2,4,… with 0 on top
    for _ in 0..117 {
        let a = legal_of(&g, s.state())[0];
        s.apply(i64::from(a), None).unwrap();
    }
    let j = g.state_json(s.state());
    assert_eq!(j["shoals"][0][0], 0);
    assert_eq!(j["shoals"][0][1], 1);
    assert_eq!(j["shoals"][0].as_array().unwrap().len(), 13);
    assert_eq!(j["phase"], "refresh");
    assert_eq!(j["node"], "roll");
    assert_eq!(j["actor"], 0);
    assert_eq!(j["ctx"]["to_roll"], json!(["P", "P", "P"]));
    let mut c = Vec::new();
    g.chance_outcomes(s.state(), &mut c);
    assert_eq!(c, vec![(1, 2), (2, 1), (3, 1)]);
    assert_eq!(g.action_label(s.state(), 3), "P die rolls 3");
    // seat 0 rolls 1,1,3 (5); seats 1 and 2 roll 3,2,1 (6): the tie goes to seat 1 (turn order)
    for a in [1, 1, 3, 3, 2, 1, 3, 2, 1] {
        s.apply(a, Some(-1)).unwrap();
    }
    let j = g.state_json(s.state());
    assert_eq!(j["players"][0]["fresh"], json!(["P1", "P1", "P3"]));
    assert_eq!(j["players"][1]["fresh"], json!(["P1", "P2", "P3"]));
    assert_eq!(j["node"], "life_preserver");
    assert_eq!(j["actor"], 1);
    assert_eq!(legal_of(&g, s.state()), vec![74, 76]);
    assert_eq!(
        g.action_label(s.state(), 76),
        "give the Life Preserver to seat 2"
    );
    s.apply(76, Some(1)).unwrap();
    let j = g.state_json(s.state());
    assert_eq!(j["life_preserver"], 2);
    assert_eq!(j["phase"], "actions");
    assert_eq!(j["node"], "turn");
    assert_eq!(
        (j["actor"].clone(), j["turn"].clone()),
        (json!(0), json!(0))
    );
    // first day: no declaration; seat 0 at sea, depth 1: pass, abandon, casts, the Can of
    // Worms (a free action), sinkers
    assert_eq!(
        legal_of(&g, s.state()),
        vec![0, 3, 32, 33, 34, 41, 42, 43, 50, 52]
    );
    let keys: Vec<&String> = j.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        vec![
            "actor",
            "bag",
            "ctx",
            "day",
            "dink_deck",
            "dink_discard",
            "end",
            "face_up",
            "first_player",
            "fish_discard",
            "known",
            "last_turns",
            "life_preserver",
            "node",
            "phase",
            "players",
            "plug",
            "reel_deck",
            "reel_discard",
            "regret_deck",
            "regret_discard",
            "rod_deck",
            "rod_discard",
            "shoals",
            "supply_deck",
            "supply_discard",
            "turn"
        ]
    );
    let pk: Vec<&String> = j["players"][0].as_object().unwrap().keys().collect();
    assert_eq!(
        pk,
        vec![
            "caught_today",
            "cloche",
            "coffin_used",
            "depth",
            "dinks",
            "fresh",
            "front",
            "hand",
            "lifeboat_used",
            "locks",
            "money",
            "mounted",
            "passed",
            "reel",
            "reel_used",
            "reels",
            "regrets",
            "rod",
            "rods",
            "shops_used",
            "skull_used",
            "spent",
            "supplies",
            "worms",
        ]
    );
    let ck: Vec<&String> = j["ctx"].as_object().unwrap().keys().collect();
    assert_eq!(
        ck,
        vec![
            "ability", "cast", "count", "discount", "foul", "item", "left", "offer", "order",
            "peek", "pool", "rolled", "shop", "slot", "target", "to_roll",
        ]
    );
    let o = g.observation(s.state(), 1);
    assert_eq!(
        o["shoals"][0],
        json!({"size": 13, "top": null, "known": null, "back": "l"})
    );
    assert_eq!(o["decks"]["regret"], 60);
    assert_eq!(o["current_player"], 0);
    assert_eq!(o["scores"], json!([0, 0, 0]));
    // to_dict round trip through the generic session
    let back = Sess::from_json(Arc::clone(&g), &s.to_json()).unwrap();
    assert_eq!(g.state_json(back.state()), g.state_json(s.state()));
}

#[test]
fn labels_follow_the_node_and_fall_back() {
    let (g, st) = opening(2);
    assert_eq!(g.action_label(&st, 0), "pass");
    assert_eq!(g.action_label(&st, 14), "action 14");
    assert_eq!(g.action_label(&st, 44), "use the Can of Worms on shoal 3");
    assert_eq!(g.action_label(&st, 87), "reel shop $5");
    assert_eq!(g.action_label(&st, 511), "action 511");
}

/// Contract §16.12: "Total size: 1792 + 23 + 221·n + 1 + 140·n + 139 + 6 + n + 5 + 136 + 139 + 27
/// = 2268 + 362·n" (`ctx.cast2` ends with `ignored, revealed`).
#[test]
fn tensor_size_is_2268_plus_362_per_seat() {
    for n in 2..=5 {
        let g = game(n, tentacles());
        assert_eq!(g.observation_shape(), vec![2268 + 362 * n]);
    }
}

/// Decision 86: "Card back shows depth and size silhouette (Small / Middling / Large)." §11.3:
/// `back` is "the top card's `size` in the data file (`"s"`, `"m"`, `"l"`), face up or face
/// down, null when the shoal is empty"; §11.4: the `shoals` segment ends each shoal with
/// "one-hot(back over `s`, `m`, `l`, 3) (all 0 when null: an empty shoal)".
#[test]
fn card_backs_show_the_size_of_every_top() {
    let tops = [(0, "Eyefish"), (1, "Barracuda"), (2, "Hammerhead Shark")];
    let (g, mut st, _) = started_with(2, json!({}), tops, 1);
    // shoal 2 emptied (only what the observation shows of it matters here)
    st.shoal_len[2] = 0;
    // The §11.4 segments before `shoals`, for 2 seats: seat, day, phase, node, actor / turn /
    // first_player, last_turns, life_preserver, current_player, seats, mounted, regrets, hand,
    // dinks and supplies.
    let n = 2;
    let shoals = n + 6 + 5 + 58 + 3 * n + 2 + n + (n + 2) + 78 * n + 135 * n + 4 + 135 + 45;
    let mut tensor = vec![0.0f32; g.observation_shape()[0]];
    for p in 0..n {
        let o = g.observation(&st, p);
        let backs: Vec<&Value> = (0..9).map(|s| &o["shoals"][s]["back"]).collect();
        assert_eq!(backs[..3], [&json!("s"), &json!("m"), &Value::Null]);
        assert_eq!(
            o["shoals"][1],
            json!({"size": 13, "top": null, "known": null, "back": "m"})
        );
        assert_eq!(
            o["shoals"][2],
            json!({"size": 0, "top": null, "known": null, "back": null})
        );
        for s in 3..9 {
            let top = usize::from(st.top_fish(s).unwrap());
            let size = usize::from(g.data.fish[top].size);
            assert_eq!(o["shoals"][s]["back"], data::SIZE_NAMES[size]);
        }
        g.observation_tensor(&st, p, &mut tensor);
        let back = |s: usize| &tensor[shoals + 94 * s + 91..shoals + 94 * s + 94];
        assert_eq!(tensor[shoals], 13.0 / 15.0);
        assert_eq!(back(0), [1.0, 0.0, 0.0]);
        assert_eq!(back(1), [0.0, 1.0, 0.0]);
        assert_eq!(back(2), [0.0, 0.0, 0.0]);
    }
    // Face up, the back is still the top's size.
    st.face_up |= 1 << 1;
    let o = g.observation(&st, 0);
    assert_eq!(
        o["shoals"][1],
        json!({"size": 13, "top": "Barracuda", "known": null, "back": "m"})
    );
}
