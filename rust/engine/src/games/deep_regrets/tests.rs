//! Unit tests: explicit-chance rule scenarios, seeded random games with invariants, bots.

use super::*;
use crate::game::{RandomBot, CHANCE, TERMINAL};
use crate::rng::derive_seed;
use crate::session::Session;
use serde_json::json;
use std::sync::Arc;

type Sess = Session<DeepRegrets>;

fn game(players: usize, opts: Value) -> Arc<DeepRegrets> {
    let map = opts.as_object().cloned().unwrap_or_default();
    Arc::new(DeepRegrets::from_options(players, &map).unwrap())
}

/// Checks the conservation invariants of a state.
fn check_invariants(g: &DeepRegrets, st: &DeepRegretsState) {
    let n = g.players();
    // fish: every in-play fish exactly once
    let mut seen = [0u8; 135];
    for s in 0..9 {
        for &f in &st.shoals[s][..usize::from(st.shoal_len[s])] {
            seen[usize::from(f)] += 1;
        }
    }
    for d in 0..3 {
        for &f in &st.fish_discard[d][..usize::from(st.discard_len[d])] {
            seen[usize::from(f)] += 1;
        }
    }
    st.deal_left.each(|f| seen[usize::from(f)] += 1);
    for p in 0..n {
        st.seats[p].hand.each(|f| seen[usize::from(f)] += 1);
        st.seats[p].front.each(|f| seen[usize::from(f)] += 1);
        for &f in &st.seats[p].mounted {
            if f != NONE {
                seen[usize::from(f)] += 1;
            }
        }
        if st.seats[p].cloche != NONE {
            seen[usize::from(st.seats[p].cloche)] += 1;
        }
    }
    if st.plug {
        seen[usize::from(fid("The Plug"))] += 1;
    }
    if st.shuffle_fish != NONE {
        seen[usize::from(st.shuffle_fish)] += 1;
    }

    for (f, &c) in seen.iter().enumerate() {
        let want = u8::from(g.in_play.contains(f));
        assert_eq!(c, want, "fish {f} seen {c} times");
    }
    // dice
    let mut tackle = [0u32; 3];
    for (c, &b) in st.bag.iter().enumerate() {
        tackle[c] += u32::from(b);
    }
    let actor = usize::from(st.actor);
    for p in 0..n {
        let s = &st.seats[p];
        let mut kinds = [0u32; KINDS];
        for c in 0..CLASSES {
            kinds[usize::from(CLASS_KIND[c])] += u32::from(s.fresh[c]);
            if p == actor {
                kinds[usize::from(CLASS_KIND[c])] +=
                    u32::from(st.payment[c]) + u32::from(st.rolled[c]);
            }
        }
        for k in 0..KINDS {
            kinds[k] += u32::from(s.spent[k]);
            if p == actor {
                kinds[k] += u32::from(st.to_roll[k]);
            }
        }
        assert_eq!(kinds[0], 3, "seat {p} player dice");
        assert!(kinds[4] <= 1);
        for c in 0..3 {
            tackle[c] += kinds[c + 1];
        }
        assert!(s.money <= 10);
        assert!(s.depth <= 3);
    }
    assert_eq!(tackle, [9, 8, 7], "tackle dice");
    // regrets
    let mut regrets = [0u32; 4];
    for v in 0..4 {
        regrets[v] += u32::from(st.regret_deck[v]) + u32::from(st.regret_discard[v]);
        for p in 0..n {
            regrets[v] += u32::from(st.seats[p].regrets[v]);
        }
    }
    for v in 0..4 {
        regrets[v] += u32::from(st.pool[v]) + u32::from(st.offer[v]);
    }
    let want: Vec<u32> = g.regret_copies.iter().map(|&c| u32::from(c)).collect();
    assert_eq!(regrets.to_vec(), want);
    // items
    let drawn: u32 = st.drawn[..usize::from(st.drawn_len)]
        .iter()
        .fold(0, |m, &i| m | 1 << i);
    let check = |deck: u32, discard: u32, held: &dyn Fn(usize) -> u32, extra: u32, count: u32| {
        let mut all = deck;
        let mut total = deck.count_ones() + discard.count_ones() + extra.count_ones();
        all |= discard | extra;
        for p in 0..n {
            all |= held(p);
            total += held(p).count_ones();
        }
        assert_eq!(total, count);
        assert_eq!(all, (1u32 << count) - 1);
    };
    let (rod_x, reel_x, mut sup_x) = match st.shop {
        0 => (drawn, 0, 0),
        1 => (0, drawn, 0),
        2 => (0, 0, drawn),
        _ => (0, 0, 0),
    };
    check(st.dink_deck, st.dink_discard, &|p| st.seats[p].dinks, 0, 25);
    // the Cloche card is out of every pile while it holds a fish (or is being used)
    let mut sup_all = st.supply_deck | st.supply_discard | sup_x;
    for p in 0..n {
        sup_all |= st.seats[p].supplies;
    }
    if g.cloche_supply != NONE && sup_all >> g.cloche_supply & 1 == 0 {
        sup_x |= 1 << g.cloche_supply;
    }
    check(
        st.supply_deck,
        st.supply_discard,
        &|p| st.seats[p].supplies,
        sup_x,
        20,
    );
    check(
        st.rod_deck,
        st.rod_discard,
        &|p| st.seats[p].rods,
        rod_x,
        10,
    );
    check(
        st.reel_deck,
        st.reel_discard,
        &|p| st.seats[p].reels,
        reel_x,
        10,
    );
    // the fast item legality equals the per-item readiness
    if matches!(st.node, Node::Turn | Node::Pay | Node::AfterMain) {
        let mut legal = Vec::new();
        g.legal_actions(st, &mut legal);
        let p = usize::from(st.actor);
        for d in 0..25u32 {
            let ready = st.seats[p].dinks >> d & 1 == 1
                && g.ready_use(st, p, ItemSrc::Dink(d as u8), st.node)
                    .is_some();
            assert_eq!(legal.contains(&(100 + d)), ready, "dink {d}");
        }
        for i in 0..20u32 {
            let ready = st.seats[p].supplies >> i & 1 == 1
                && g.ready_use(st, p, ItemSrc::Supply(i as u8), st.node)
                    .is_some();
            assert_eq!(legal.contains(&(125 + i)), ready, "supply {i}");
        }
    }
    for p in 0..n {
        let s = &st.seats[p];
        if s.rod != NONE {
            assert!(s.rods >> s.rod & 1 == 1);
        }
        if s.reel != NONE {
            assert!(s.reels >> s.reel & 1 == 1);
        }
    }
}

/// Plays one seeded random game with full checks; returns the number of steps.
fn random_game(g: &DeepRegrets, seed: u64, labels: bool, json_every: usize) -> usize {
    let mut rng = SplitMix64::new(seed);
    let mut st = g.initial_state();
    let mut legal = Vec::new();
    let mut chance = Vec::new();
    let mut steps = 0;
    loop {
        check_invariants(g, &st);
        if labels {
            for a in 0..512 {
                let _ = g.action_label(&st, a);
            }
        }
        if json_every > 0 && steps % json_every == 0 {
            let _ = g.state_json(&st);
            for p in 0..g.players() {
                let _ = g.observation(&st, p);
            }
        }
        let cp = g.current_player(&st);
        if cp == TERMINAL {
            g.legal_actions(&st, &mut legal);
            assert!(legal.is_empty());
            assert!(st.ended);
            let w = g.winners(&st);
            assert!(!w.is_empty());
            return steps;
        }
        g.legal_actions(&st, &mut legal);
        assert!(!legal.is_empty(), "no legal action at {:?}", st.node);
        assert!(
            legal.windows(2).all(|w| w[0] < w[1]),
            "unsorted legal at {:?}",
            st.node
        );
        assert!(legal.iter().all(|&a| a < 512));
        let a = if cp == CHANCE {
            g.chance_outcomes(&st, &mut chance);
            assert!(chance.iter().all(|&(_, w)| w > 0));
            let mut r2 = rng;
            let fast = g.sample_chance(&st, &mut rng, &mut chance);
            g.chance_outcomes(&st, &mut chance);
            let slow = r2.pick_weighted(&chance).unwrap();
            assert_eq!(fast, slow);
            fast
        } else {
            assert_eq!(cp, i32::from(st.actor));
            legal[rng.below(legal.len() as u64) as usize]
        };
        g.apply(&mut st, a);
        steps += 1;
        assert!(steps < 100_000, "game does not end");
    }
}

#[test]
fn random_games_keep_invariants() {
    let mut total = 0;
    let mut games = 0;
    for (i, (n, opts)) in [
        (4, json!({})),
        (2, json!({})),
        (3, json!({"days": 5})),
        (
            5,
            json!({"expansion_tentacles": true, "regret_split": "10/20/20/10"}),
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let g = game(n, opts);
        for k in 0..500u64 {
            total += random_game(
                &g,
                derive_seed(77 + i as u64, k),
                k < 20,
                if k < 50 { 7 } else { 0 },
            );
            games += 1;
        }
    }
    println!(
        "{games} games, {:.1} steps per game",
        total as f64 / games as f64
    );
}

/// Games per second of `games` 4-player random games through `sim::play_game` (one thread).
fn games_per_second<G: Game>(g: &G, games: u64) -> (f64, f64) {
    let mut bots: Vec<Box<dyn Bot<G>>> = (0..g.players())
        .map(|_| Box::new(RandomBot::default()) as Box<dyn Bot<G>>)
        .collect();
    let mut st = g.initial_state();
    let (mut legal, mut chance) = (Vec::new(), Vec::new());
    let t = std::time::Instant::now();
    let mut steps = 0u64;
    for i in 0..games {
        let (d, c) = crate::sim::play_game(
            g,
            &mut bots,
            derive_seed(5, i),
            &mut st,
            &mut legal,
            &mut chance,
        )
        .unwrap();
        steps += u64::from(d + c);
    }
    let e = t.elapsed().as_secs_f64();
    (games as f64 / e, steps as f64 / games as f64)
}

#[test]
#[ignore]
fn measure_speed() {
    // best of 5 alternating rounds, to damp the noise of a shared machine
    let g = game(4, json!({}));
    let tt = crate::games::turn_the_tide::TurnTheTide::from_options(4, &Map::new()).unwrap();
    let (mut best, mut best_tt, mut steps, mut tsteps) = (0f64, 0f64, 0f64, 0f64);
    for _ in 0..5 {
        let (gps, s) = games_per_second(&*g, 4_000);
        let (tps, t) = games_per_second(&tt, 8_000);
        best = best.max(gps);
        best_tt = best_tt.max(tps);
        (steps, tsteps) = (s, t);
    }
    println!(
        "deep_regrets: {best:.0} games/s ({steps:.1} steps/game, {:.1} M steps/s)",
        best * steps / 1e6
    );
    println!(
        "turn_the_tide: {best_tt:.0} games/s ({tsteps:.1} steps/game, {:.1} M steps/s)",
        best_tt * tsteps / 1e6
    );
    println!("ratio deep_regrets / turn_the_tide = {:.3}", best / best_tt);
}

// ----- helpers for explicit scenarios ----------------------------------------------------------

fn fid(name: &str) -> u8 {
    data::data()
        .unwrap()
        .fish
        .iter()
        .position(|f| f.name == name)
        .unwrap() as u8
}

fn item_id(list: &[data::Item], name: &str) -> u32 {
    list.iter().position(|i| i.name == name).unwrap() as u32
}

fn legal_of(g: &DeepRegrets, st: &DeepRegretsState) -> Vec<u32> {
    let mut v = Vec::new();
    g.legal_actions(st, &mut v);
    v
}

/// Applies `a` after checking it is legal.
fn step(g: &DeepRegrets, st: &mut DeepRegretsState, a: u32) {
    let legal = legal_of(g, st);
    assert!(
        legal.contains(&a),
        "{a} ({}) not legal at {} (actor {}): {legal:?}",
        g.action_label(st, a),
        st.node.name(),
        st.actor
    );
    g.apply(st, a);
}

fn steps(g: &DeepRegrets, st: &mut DeepRegretsState, actions: &[u32]) {
    for &a in actions {
        step(g, st, a);
    }
}

/// Deals the shoals: shoal s gets `tops[s]` first (when given), then the lowest free ids.
fn deal(g: &DeepRegrets, st: &mut DeepRegretsState, tops: &[(usize, &[u8])]) {
    let reserved: Vec<u8> = tops.iter().flat_map(|(_, f)| f.iter().copied()).collect();
    for s in 0..9 {
        let mine: &[u8] = tops.iter().find(|(t, _)| *t == s).map_or(&[], |(_, f)| *f);
        for k in 0..usize::from(g.per_shoal) {
            assert_eq!(st.node, Node::Deal);
            let f = if k < mine.len() {
                u32::from(mine[k])
            } else {
                *legal_of(g, st)
                    .iter()
                    .find(|&&f| !reserved.contains(&(f as u8)))
                    .unwrap()
            };
            step(g, st, f);
        }
    }
}

/// A game after the deal and the first Refresh: every seat rolls `faces` (P dice) and keeps
/// them; the Life Preserver goes to `lp`. The state rests at the first `turn` node.
fn started(
    n: usize,
    opts: Value,
    tops: &[(usize, &[u8])],
    lp: usize,
) -> (Arc<DeepRegrets>, DeepRegretsState) {
    let g = game(n, opts);
    let mut st = g.initial_state();
    deal(&g, &mut st, tops);
    assert_eq!(st.phase, Phase::Refresh);
    for _ in 0..n {
        assert_eq!(st.node, Node::Roll);
        steps(&g, &mut st, &[1, 2, 3]);
    }
    assert_eq!(st.node, Node::LifePreserver);
    step(&g, &mut st, 74 + lp as u32);
    assert_eq!(st.node, Node::Turn);
    (g, st)
}

/// Plays on with simple fixed choices until the state reaches `stop` (or the end): passes at
/// every turn, draws dinks as rewards, rolls the first outcome, keeps/gives the first option.
fn autoplay_until(
    g: &DeepRegrets,
    st: &mut DeepRegretsState,
    stop: impl Fn(&DeepRegretsState) -> bool,
) {
    for _ in 0..100_000 {
        if stop(st) || st.node == Node::Over {
            return;
        }
        let legal = legal_of(g, st);
        let a = match st.node {
            Node::Turn => 0,
            Node::AfterMain => 24,
            Node::Declare => 1,
            Node::PortDiscard | Node::MusterSelect => 0,
            _ => legal[0],
        };
        step(g, st, a);
    }
    panic!("autoplay did not stop");
}

// ----- scenarios --------------------------------------------------------------------------------

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
    // step 2: items
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
    // step 2: fish abilities as data
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
fn setup_deal_first_refresh_and_keys() {
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
    let ok: Vec<&String> = o.as_object().unwrap().keys().collect();
    assert_eq!(
        ok,
        vec![
            "actor",
            "bag",
            "caught_today",
            "cloche",
            "coffin_used",
            "ctx",
            "current_player",
            "day",
            "decks",
            "depth",
            "dink_count",
            "dinks",
            "end",
            "first_player",
            "fish_discard",
            "fresh",
            "front",
            "hand",
            "hand_count",
            "last_turns",
            "life_preserver",
            "lifeboat_used",
            "locks",
            "money",
            "mounted",
            "node",
            "passed",
            "phase",
            "plug",
            "reel",
            "reel_used",
            "reels",
            "regret_count",
            "regrets",
            "rod",
            "rods",
            "scores",
            "seat",
            "shoals",
            "shops_used",
            "skull_used",
            "spent",
            "supplies",
            "supply_count",
            "turn",
            "worms",
        ]
    );
    assert_eq!(
        o["shoals"][0],
        json!({"size": 13, "top": null, "known": null})
    );
    assert_eq!(o["decks"]["regret"], 60);
    assert_eq!(o["current_player"], 0);
    assert_eq!(o["scores"], json!([0, 0, 0]));
    // to_dict round trip through the generic session
    let back = Sess::from_json(Arc::clone(&g), &s.to_json()).unwrap();
    assert_eq!(g.state_json(back.state()), g.state_json(s.state()));
}

/// Puts seat p in a chosen situation at its `turn` node (Actions phase).
fn at_turn(st: &mut DeepRegretsState, p: usize) {
    st.phase = Phase::Actions;
    st.node = Node::Turn;
    st.actor = p as u8;
    st.turn = p as u8;
    st.stack_len = 0;
    st.main_done = false;
}

/// Ends the turn at the `after_main` node (item 8), checking that it is asked for `p`.
fn end_turn(g: &DeepRegrets, st: &mut DeepRegretsState, p: usize) {
    assert_eq!((st.node, st.actor), (Node::AfterMain, p as u8));
    step(g, st, 24);
}

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
    seat.dinks = 1 << 2;
    st.dink_deck &= !(1 << 2);
    seat.worms = false;
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
               "base": null, "beneath": null, "ignored": false})
    );
    assert_eq!(o["shoals"][4]["top"], "Monkfish");
    step(&g, &mut st, 57);
    assert_eq!(legal_of(&g, &st), vec![6, 7, 12, 102]);
    assert_eq!(
        g.state_json(&st)["ctx"]["cast"],
        json!({"shoal": 4, "reduction": 0, "zero": false, "payment": ["G2"],
               "base": null, "beneath": null, "ignored": false})
    );
    step(&g, &mut st, 6);
    assert_eq!(st.bag[1], 8);
    assert!(st.seats[1].hand.contains(76));
    assert!(st.seats[1].caught_today);
    assert_eq!(st.face_up >> 4 & 1, 0);
    assert_eq!(st.shoal_len[4], 12);
    // free actions after the main action: abandon ship, a sinker with P3, eating the Monkfish
    // (item 8)
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
    assert_eq!(legal_of(&g, &declined), vec![52, 57]);
    assert_eq!(g.action_label(&declined, 57), "spend G2 for a dink");
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
    st.seats[0].dinks = 1 << 2;
    st.dink_deck &= !(1 << 2);
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
    let trafficker = fid("Tidal Trafficker");
    let (g, mut st) = started(2, json!({}), &[(1, &[trafficker])], 1);
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
    // a free action (item 9): back at the turn node, the new top unseen
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
    assert!(legal_of(&g, &st).iter().all(|&a| !(41..=49).contains(&a)));
}

#[test]
fn overfishing_and_empty_sea_end() {
    let (g, mut st) = started(2, json!({}), &[], 1);
    // empty every shoal except shoal 0, which keeps one fish (Hammerhead Shark on top)
    for s in 0..9 {
        let keep = if s == 0 { 1 } else { 0 };
        while usize::from(st.shoal_len[s]) > keep {
            let f = st.shoals[s][0];
            st.shoals[s].copy_within(1.., 0);
            st.shoal_len[s] -= 1;
            st.discard_fish(f);
        }
    }
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
fn passing_rewards_and_last_player_turns() {
    let plain = fid("Coelacanth");
    let (g, mut st) = started(3, json!({}), &[(1, &[plain])], 2);
    st.seats[1].regrets = [0, 1, 0, 0];
    st.regret_deck[1] -= 1;
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
    let a = legal_of(&g, &st)[0];
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
    let (g, mut st) = started(2, json!({}), &[], 1);
    step(&g, &mut st, 0); // seat 0 passes → last_turns 2 for seat 1
    step(&g, &mut st, 8);
    step(&g, &mut st, 0);
    assert_eq!(st.last_turns, 2);
    assert_eq!((st.node, st.actor), (Node::Turn, 1));
    st.seats[1].regrets = [0, 0, 1, 0];
    st.regret_deck[2] -= 1;
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
    // abandon ship is a free action (item 10): the same turn goes on in port, and its main
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

#[test]
fn declaration_make_port_and_back_to_sea() {
    let (g, mut st) = started(2, json!({}), &[], 1);
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
    let (g, mut st) = started(4, json!({}), &[], 1);
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
fn muster_keeps_up_to_the_madness_max() {
    let (g, mut st) = started(2, json!({}), &[], 1);
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

#[test]
fn sell_with_foul_regret_and_money_cap() {
    let (g, mut st) = started(2, json!({}), &[], 1);
    let s = &mut st.seats[0];
    s.depth = 0;
    s.money = 7;
    s.regrets = [0, 1, 0, 0]; // tier 1: fair +1, foul -1
    st.regret_deck[1] -= 1;
    for f in [0u8, 5, 47] {
        // Hammerhead (fair 5), Halley's Folly (foul 4), Whispering Skull (no value)
        st.seats[0].hand.insert(f);
    }
    // keep the fish conserved: take them out of the shoals
    for s in 0..9 {
        let len = usize::from(st.shoal_len[s]);
        let kept: Vec<u8> = st.shoals[s][..len]
            .iter()
            .copied()
            .filter(|f| ![0u8, 5, 47].contains(f))
            .collect();
        st.shoals[s][..kept.len()].copy_from_slice(&kept);
        st.shoal_len[s] = kept.len() as u8;
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
    let (g, mut st) = started(3, json!({}), &[], 1);
    let fish = [fid("Swordfish"), fid("Barracuda"), fid("Coelacanth")];
    for s in 0..9 {
        let len = usize::from(st.shoal_len[s]);
        let kept: Vec<u8> = st.shoals[s][..len]
            .iter()
            .copied()
            .filter(|f| !fish.contains(f))
            .collect();
        st.shoals[s][..kept.len()].copy_from_slice(&kept);
        st.shoal_len[s] = kept.len() as u8;
    }
    for f in fish {
        st.seats[0].hand.insert(f);
    }
    st.seats[0].depth = 0;
    at_turn(&mut st, 0);
    step(&g, &mut st, 11);
    assert_eq!(legal_of(&g, &st), vec![79, 80, 81]);
    assert_eq!(g.action_label(&st, 80), "mount in slot 1 (x3)");
    step(&g, &mut st, 80);
    assert_eq!(st.node, Node::MountFish);
    assert_eq!(g.state_json(&st)["ctx"]["slot"], 1);
    step(&g, &mut st, 165 + u32::from(fish[0]));
    assert_eq!(legal_of(&g, &st), vec![0, 79, 81]);
    steps(
        &g,
        &mut st,
        &[79, 165 + u32::from(fish[1]), 81, 165 + u32::from(fish[2])],
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
fn shop_worked_example() {
    let (g, mut st) = started(3, json!({}), &[], 1);
    st.day = 2;
    let s = &mut st.seats[2];
    s.depth = 0;
    s.money = 6;
    s.regrets = [0, 1, 1, 0];
    st.regret_deck[1] -= 1;
    st.regret_deck[2] -= 1;
    s.dinks = 1 << 17;
    st.dink_deck &= !(1 << 17);
    at_turn(&mut st, 2);
    let mut want: Vec<u32> = vec![0];
    want.extend(82..=93);
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
    // supplies usable in port: free actions after the shop (item 8)
    end_turn(&g, &mut st, 2);
    assert_eq!((st.node, st.actor), (Node::Turn, 0));
}

#[test]
fn rod_shop_keep_and_equip_at_declaration() {
    let (g, mut st) = started(2, json!({}), &[], 1);
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

#[test]
fn item_effects() {
    let d = data::data().unwrap();
    let (g, mut st) = started(2, json!({}), &[(0, &[0])], 1);
    let chum = item_id(&d.supplies, "Bucket of Chum");
    let eyes = item_id(&d.supplies, "Mermaid Eyes");
    let stone = item_id(&d.supplies, "Restless Stone");
    st.seats[0].supplies = (1 << chum) | (1 << eyes) | (1 << stone);
    st.supply_deck &= !st.seats[0].supplies;
    st.seats[0].reels = 1 << 3; // Stop-Latch
    st.seats[0].reel = 3;
    st.reel_deck &= !(1 << 3);
    at_turn(&mut st, 0);
    // at the turn node: Mermaid Eyes (peek) and Stop-Latch are ready; Restless Stone is not (no
    // Spent die to refresh)
    let legal = legal_of(&g, &st);
    assert!(legal.contains(&13) && legal.contains(&(125 + eyes)));
    assert!(!legal.contains(&(125 + chum)) && !legal.contains(&(125 + stone)));
    step(&g, &mut st, 125 + eyes);
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
    assert!(legal_of(&g, &st).contains(&(125 + chum)));
    step(&g, &mut st, 125 + chum);
    steps(&g, &mut st, &[1, 1, 0]);
    assert_eq!(st.node, Node::Pay);
    assert_eq!(g.effective_difficulty(&st, 0), 0);
    assert_eq!(st.seats[0].regrets, [1, 2, 0, 0]);
    assert!(g.state_json(&st)["ctx"]["cast"]["zero"].as_bool().unwrap());
    // Restless Stone: needs a Spent die
    st.seats[0].fresh[2] -= 1;
    st.seats[0].spent[0] += 1;
    assert!(legal_of(&g, &st).contains(&(125 + stone)));
    step(&g, &mut st, 125 + stone);
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
    let (g, mut st) = started(2, json!({}), &[], 1);
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
fn empty_sea_in_start_phase_ends_the_game() {
    let (g, mut st) = started(2, json!({}), &[], 1);
    for s in 1..9 {
        while st.shoal_len[s] > 0 {
            let f = st.take_top(s);
            st.discard_fish(f);
        }
    }
    while st.shoal_len[0] > 1 {
        let f = st.shoals[0][0];
        st.shoals[0].copy_within(1.., 0);
        st.shoal_len[0] -= 1;
        st.discard_fish(f);
    }
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
fn labels_never_panic_and_fall_back() {
    let (g, st) = started(2, json!({}), &[], 1);
    for a in 0..512 {
        let _ = g.action_label(&st, a);
    }
    assert_eq!(g.action_label(&st, 0), "pass");
    assert_eq!(g.action_label(&st, 14), "action 14");
    assert_eq!(g.action_label(&st, 44), "use the Can of Worms on shoal 3");
    assert_eq!(g.action_label(&st, 87), "reel shop $5");
    assert_eq!(g.action_label(&st, 511), "action 511");
}

/// Win share of one greedy bot (rotating seats) against random bots.
fn greedy_win_rate(g: &Arc<DeepRegrets>, games: u64, seed: u64) -> (f64, f64) {
    let n = g.players();
    let mut st = g.initial_state();
    let (mut legal, mut chance) = (Vec::new(), Vec::new());
    let mut wins = 0.0;
    let mut margin = 0.0;
    for gi in 0..games {
        let greedy = (gi % n as u64) as usize;
        let mut bots: Vec<Box<dyn Bot<DeepRegrets>>> = (0..n)
            .map(|p| -> Box<dyn Bot<DeepRegrets>> {
                if p == greedy {
                    Box::new(bots::GreedyBot::default())
                } else {
                    Box::new(RandomBot::default())
                }
            })
            .collect();
        crate::sim::play_game(
            &**g,
            &mut bots,
            derive_seed(seed, gi),
            &mut st,
            &mut legal,
            &mut chance,
        )
        .unwrap();
        let w = g.winners(&st);
        if w.contains(&greedy) {
            wins += 1.0 / w.len() as f64;
        }
        let best_other = (0..n)
            .filter(|&p| p != greedy)
            .map(|p| st.final_scores[p])
            .max()
            .unwrap();
        margin += f64::from(st.final_scores[greedy] - best_other);
    }
    (wins / games as f64, margin / games as f64)
}

#[test]
fn greedy_beats_random() {
    let g = game(4, json!({}));
    let games = if cfg!(debug_assertions) {
        1_000
    } else {
        20_000
    };
    let (rate, margin) = greedy_win_rate(&g, games, 2024);
    println!("greedy vs 3 random, 4 players, {games} games: win share {rate:.4}");
    println!("mean score margin over the best random seat: {margin:.2}");
    assert!(rate > 0.5, "greedy win share {rate}");
}

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

#[test]
#[ignore]
fn node_histogram() {
    let g = game(4, json!({}));
    let mut hist: std::collections::BTreeMap<&str, u64> = Default::default();
    let mut legal = Vec::new();
    let games = 2000u64;
    for gi in 0..games {
        let mut rng = SplitMix64::new(derive_seed(3, gi));
        let mut st = g.initial_state();
        while g.current_player(&st) != TERMINAL {
            *hist.entry(st.node.name()).or_default() += 1;
            let a = if g.current_player(&st) == CHANCE {
                g.sample_chance(&st, &mut rng, &mut Vec::new())
            } else {
                g.legal_actions(&st, &mut legal);
                legal[rng.below(legal.len() as u64) as usize]
            };
            g.apply(&mut st, a);
        }
    }
    for (k, v) in hist {
        println!("{k:>24} {:.1}", v as f64 / games as f64);
    }
}

#[test]
fn seeded_sessions_round_trip_and_replay() {
    let g = game(3, json!({"expansion_tentacles": true}));
    for k in 0..20u64 {
        let mut s = Sess::new(Arc::clone(&g), Some(derive_seed(11, k)));
        let mut rng = SplitMix64::new(k);
        let mut legal = Vec::new();
        let mut mid = None;
        let mut n = 0;
        while g.current_player(s.state()) != TERMINAL {
            g.legal_actions(s.state(), &mut legal);
            let a = legal[rng.below(legal.len() as u64) as usize];
            s.apply(i64::from(a), None).unwrap();
            n += 1;
            if n == 150 {
                mid = Some(s.to_json());
            }
        }
        for j in [mid.unwrap(), s.to_json()] {
            let back = Sess::from_json(Arc::clone(&g), &j).unwrap();
            assert_eq!(back.to_json(), j);
        }
    }
}

#[test]
#[ignore]
fn bench_random_games_only() {
    let g = game(4, json!({}));
    let (gps, steps) = games_per_second(&*g, 20_000);
    println!("deep_regrets alone: {gps:.0} games/s ({steps:.1} steps/game)");
}

// ----- step 2: abilities ------------------------------------------------------------------------

/// Seat `p`'s hand gets fish `f` (taken out of wherever it lies in the sea).
fn give_hand(st: &mut DeepRegretsState, p: usize, f: u8) {
    for s in 0..9 {
        let len = usize::from(st.shoal_len[s]);
        if let Some(i) = st.shoals[s][..len].iter().position(|&x| x == f) {
            st.shoals[s].copy_within(i + 1..len, i);
            st.shoal_len[s] -= 1;
        }
    }
    st.seats[p].hand.insert(f);
}

#[test]
fn eating_runs_the_eat_list_and_returns_to_the_node() {
    let (g, mut st) = started(3, json!({}), &[], 1);
    let barracuda = fid("Barracuda");
    give_hand(&mut st, 0, barracuda);
    st.seats[0].regrets = [0, 1, 0, 1];
    st.regret_deck[1] -= 1;
    st.regret_deck[3] -= 1;
    let eat = 165 + u32::from(barracuda);
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

#[test]
fn reveal_each_everyone_then_pay() {
    let pram = fid("Pram");
    let (g, mut st) = started(3, json!({}), &[(1, &[pram])], 1);
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
    let larvae = fid("Parasitic Larvae");
    let (g, mut st) = started(3, json!({}), &[(0, &[larvae])], 1);
    step(&g, &mut st, 32);
    assert!(st.seats[0].front.contains(usize::from(larvae)));
    assert!(st.seats[0].hand.is_empty());
    end_turn(&g, &mut st, 0);
    assert_eq!((st.node, st.actor), (Node::Turn, 1));
    assert!(!st.cast_on && st.seats[0].caught_today);
    // a draw event of seat 0 draws one more: Geist's eat draws 1 (+1)
    let geist = fid("Geist");
    give_hand(&mut st, 0, geist);
    st.actor = 0;
    st.turn = 0;
    step(&g, &mut st, 165 + u32::from(geist));
    steps(&g, &mut st, &[0, 2]);
    assert_eq!(st.seats[0].regrets, [1, 0, 1, 0]);
    assert_eq!(st.node, Node::Turn);
    let o = g.observation(&st, 2);
    assert_eq!(o["front"][0], json!(["Parasitic Larvae"]));
}

#[test]
fn give_this_by_choice_ends_the_cast() {
    let man = fid("Man O' War");
    let (g, mut st) = started(3, json!({}), &[(0, &[man])], 1);
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

#[test]
fn not_caught_gives_the_fish_to_the_right_after_the_dink() {
    let scrat = fid("Scrat");
    let (g, mut st) = started(3, json!({}), &[(0, &[scrat])], 1);
    step(&g, &mut st, 32);
    assert_eq!(st.node, Node::Pay);
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
fn must_catch_forbids_declining_while_payable() {
    let overmind = fid("Overmind");
    let (g, mut st) = started(
        2,
        json!({"expansion_tentacles": true}),
        &[(3, &[overmind])],
        1,
    );
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
    let squid = fid("Colossal Squid");
    let plug = fid("The Plug");
    let (g, mut st) = started(2, json!({}), &[(4, &[squid]), (6, &[plug])], 1);
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
        .filter(|a| (32..41).contains(a))
        .collect();
    assert_eq!(casts, vec![33, 36, 39]);
    // The Plug: the top of the first non-empty shoal goes at every turn start
    st.seats[0].locks = 0;
    step(&g, &mut st, 38);
    assert!(st.plug);
    assert_eq!(st.shoal_len[6], 12);
    let len0 = st.shoal_len[0];
    // the Can of Worms reaches every shoal within reach, locked columns too (item 9)
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
    let lamprey = fid("Lamprey");
    let selkie = fid("Selkie");
    let (g, mut st) = started(2, json!({}), &[(3, &[lamprey]), (4, &[selkie])], 1);
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

#[test]
fn cloche_and_claw_hammer() {
    let (g, mut st) = started(2, json!({}), &[], 1);
    let cloche = item_id(&g.data.supplies, "Cloche");
    let hammer = item_id(&g.data.supplies, "Claw Hammer");
    st.supply_deck &= !(1 << cloche | 1 << hammer);
    st.seats[0].supplies = 1 << cloche | 1 << hammer;
    st.seats[0].depth = 0;
    let small = fid("Sockeye Salmon");
    give_hand(&mut st, 0, small);
    let legal = legal_of(&g, &st);
    assert!(legal.contains(&(125 + cloche)) && !legal.contains(&(125 + hammer)));
    step(&g, &mut st, 125 + cloche);
    assert_eq!((st.node, st.slot), (Node::MountFish, 3));
    let a = 165 + u32::from(small);
    assert_eq!(g.action_label(&st, a), "mount Sockeye Salmon on the Cloche");
    step(&g, &mut st, a);
    assert_eq!(st.seats[0].cloche, small);
    assert_eq!(st.supply_discard, 0);
    assert_eq!(st.node, Node::Turn);
    step(&g, &mut st, 125 + hammer);
    assert_eq!(st.seats[0].cloche, NONE);
    assert!(st.seats[0].hand.contains(usize::from(small)));
    assert_eq!(st.supply_discard, 1 << cloche | 1 << hammer);
}

#[test]
fn bone_wheel_turns_the_largest_payment_die_down() {
    let sheepshead = fid("Sheepshead");
    let (g, mut st) = started(2, json!({}), &[(0, &[sheepshead])], 1);
    let wheel = item_id(&g.data.reels, "Bone Wheel") as u8;
    st.reel_deck &= !(1 << wheel);
    st.seats[0].reels = 1 << wheel;
    st.seats[0].reel = wheel;
    step(&g, &mut st, 32);
    steps(&g, &mut st, &[52, 6]);
    // P3 paid for difficulty 1: it comes back as P2
    assert_eq!(st.seats[0].fresh[0..3], [1, 2, 0]);
    assert_eq!(st.seats[0].spent[0], 0);
}

#[test]
fn rod_of_the_deep_reorders_before_the_reveal() {
    let (g, mut st) = started(2, json!({}), &[(0, &[0, 1, 2])], 1);
    let rod = item_id(&g.data.rods, "Rod of the Deep") as u8;
    st.rod_deck &= !(1 << rod);
    st.seats[0].rods = 1 << rod;
    st.seats[0].rod = rod;
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

#[test]
fn iron_coffin_offer_and_accept() {
    let (g, mut st) = started(2, json!({}), &[], 1);
    let coffin = fid("Iron Coffin");
    give_hand(&mut st, 0, coffin);
    st.seats[0].hand.remove(coffin);
    st.seats[0].front.insert(coffin);
    st.seats[0].regrets = [0, 0, 1, 1];
    st.regret_deck[2] -= 1;
    st.regret_deck[3] -= 1;
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
    let (g, mut st) = started(3, json!({}), &[], 1);
    let psychic = fid("Psychic Interloper");
    give_hand(&mut st, 0, psychic);
    step(&g, &mut st, 165 + u32::from(psychic));
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
    let star = fid("Northern Stargazer");
    let (g, mut st) = started(2, json!({}), &[(3, &[star])], 1);
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
    let shade = fid("Hadal Shade");
    let (g, mut st) = started(2, json!({"expansion_tentacles": true}), &[(6, &[shade])], 1);
    st.seats[0].depth = 3;
    let monk = fid("Monkfish");
    give_hand(&mut st, 1, monk);
    st.seats[1].hand.remove(monk);
    st.seats[1].mounted[1] = monk;
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
    let small = fid("Sockeye Salmon");
    give_hand(&mut st, 0, small);
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
fn tensor_shape_of_step_two() {
    for n in 2..=5 {
        let g = game(n, json!({"expansion_tentacles": true}));
        assert_eq!(g.observation_shape(), vec![2240 + 362 * n]);
        let mut rng = SplitMix64::new(n as u64);
        let mut st = g.initial_state();
        let mut legal = Vec::new();
        let mut buf = vec![0f32; 2240 + 362 * n];
        while g.current_player(&st) != TERMINAL {
            for p in 0..n {
                g.observation_tensor(&st, p, &mut buf);
                assert!(
                    buf.iter().all(|x| x.is_finite() && *x >= 0.0),
                    "{:?}",
                    st.node
                );
            }
            g.legal_actions(&st, &mut legal);
            let a = legal[rng.below(legal.len() as u64) as usize];
            g.apply(&mut st, a);
        }
    }
}

// ----- issue 14, items 7-14: the printed rules ---------------------------------------------------

/// Runs the current (decision or chance) nodes with their first legal action until `node`.
fn first_until(g: &DeepRegrets, st: &mut DeepRegretsState, node: Node) {
    for _ in 0..100 {
        if st.node == node {
            return;
        }
        let a = legal_of(g, st)[0];
        step(g, st, a);
    }
    panic!("{} not reached", node.name());
}

/// Item 7. "Syö kala (jos kalassa on syömisikoni)." (Eat a fish, if the fish has an Eat
/// ability.) Osteofish has none: once caught, no "eat Osteofish" action is offered.
#[test]
fn item07_only_a_fish_with_an_eat_ability_can_be_eaten() {
    let osteo = fid("Osteofish");
    let geist = fid("Geist");
    let (g, mut st) = started(2, json!({}), &[(0, &[osteo])], 1);
    step(&g, &mut st, 32);
    step(&g, &mut st, 6); // difficulty 0: caught with no die
    assert!(st.seats[0].hand.contains(usize::from(osteo)));
    first_until(&g, &mut st, Node::AfterMain);
    let legal = legal_of(&g, &st);
    assert!(!legal.contains(&(165 + u32::from(osteo))), "{legal:?}");
    assert!(legal.iter().all(|&a| a < 165));
    // Geist has an Eat ability
    give_hand(&mut st, 0, geist);
    assert!(legal_of(&g, &st).contains(&(165 + u32::from(geist))));
    assert!(!legal_of(&g, &st).contains(&(165 + u32::from(osteo))));
    // eating a fish without an Eat ability does nothing even if forced
    let before = st.seats[0].hand;
    g.eat(&mut st, 0, osteo, Node::AfterMain);
    assert_eq!(st.seats[0].hand, before);
}

/// Item 8. "Ilmaiset & rajoittamattomat toiminnot" (free and unlimited actions): on your own
/// turn before and after the main action; after it "end turn" is asked only while some free
/// action is possible.
#[test]
fn item08_free_actions_after_the_main_action() {
    let osteo = fid("Osteofish");
    let sunfish = fid("Sunfish");
    let (g, mut st) = started(2, json!({}), &[(0, &[osteo]), (1, &[sunfish])], 1);
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

/// Item 9. "Käytä matopurkki ja vilkaise päälimmäinen kala, laita se sitten pohjalle tai
/// päälimmäiseksi." (Use the Can of Worms and peek at the top fish, then put it at the bottom
/// or leave it on top.) A free action at sea, no longer part of a cast.
#[test]
fn item09_can_of_worms_is_a_free_action_at_sea() {
    let eyefish = fid("Eyefish");
    let (g, mut st) = started(2, json!({}), &[(1, &[eyefish])], 1);
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
    assert!(legal_of(&g, &st).iter().all(|&a| !(41..=49).contains(&a)));
    // the cast has no worms step any more
    st.seats[0].fresh = fresh;
    st.seats[0].spent[0] = 0;
    step(&g, &mut st, 33);
    assert_eq!(st.node, Node::Pay);
}

/// Item 10. "Kerran pelissä voit hylätä paatin ja siirtyä loppuvuoroksi satamaan. Siitä seuraa
/// kuitenkin vakavaa katumusta." (Once per game you may abandon your boat and move to port for
/// the rest of the turn. It brings grave regret.) A free action; a main action not yet taken is
/// then a port action.
#[test]
fn item10_abandon_ship_is_a_free_action() {
    let osteo = fid("Osteofish");
    let (g, mut st) = started(2, json!({}), &[(0, &[osteo])], 1);
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

/// Item 11. Bone Wheel: "Retain unspent points on dice." Paid exactly: the die is spent; paid
/// with more: the largest payment die stays Fresh showing the leftover (or its highest face
/// below), else it is spent.
#[test]
fn item11_bone_wheel_retains_the_leftover() {
    let shark = fid("Hammerhead Shark");
    let eyefish = fid("Eyefish");
    let (g, mut st) = started(2, json!({}), &[(0, &[shark]), (1, &[eyefish])], 1);
    st.seats[0].reels = 1 << 9;
    st.seats[0].reel = 9;
    st.reel_deck &= !(1 << 9);
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
        steps(&g, &mut st, &[33, 50 + class as u32, 6]);
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

/// Item 12. Centerpin Reel: "When you would draw a Dink card as part of a fishing action, draw
/// three instead." Only Dinks of the own cast become three; pass rewards stay one.
#[test]
fn item12_centerpin_reel_only_in_the_own_cast() {
    let blanket = fid("Blanket Octopus");
    let (g, mut st) = started(
        2,
        json!({"expansion_tentacles": true}),
        &[(0, &[blanket])],
        1,
    );
    st.seats[0].reels = 1 << 8;
    st.seats[0].reel = 8;
    st.reel_deck &= !(1 << 8);
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

/// Item 13. Rod of the Dead: "You may choose to ignore reveal and/or catch abilities on the Fish
/// you reveal and/or catch." One choice per Reveal and per Catch ability; not-caught abilities
/// are not covered.
#[test]
fn item13_rod_of_the_dead_reveal_and_catch_separately() {
    let eyefish = fid("Eyefish");
    let scrat = fid("Scrat");
    let stingray = fid("Whiptail Stingray");
    let (g, mut st) = started(
        2,
        json!({}),
        &[(0, &[eyefish]), (1, &[scrat]), (2, &[stingray])],
        1,
    );
    st.seats[0].rods = 1 << 9;
    st.seats[0].rod = 9;
    st.rod_deck &= !(1 << 9);
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
    // Scrat: only a not-caught list, which the rod does not cover
    let mut st = start;
    step(&g, &mut st, 33);
    assert_eq!(st.node, Node::Pay);
    steps(&g, &mut st, &[7, 50]);
    let a = legal_of(&g, &st)[0];
    step(&g, &mut st, a);
    assert!(st.seats[1].hand.contains(usize::from(scrat)));
}

/// Item 14. Rod of the Infinite: "When you cast, peek at the top three Fish of the Shoal and
/// place them back in any order, before revealing the top Fish." No Dink is discarded.
#[test]
fn item14_rod_of_the_infinite_needs_no_dink() {
    let (a, b, c) = (fid("Eyefish"), fid("Osteofish"), fid("Geist"));
    let (g, mut st) = started(2, json!({}), &[(0, &[a, b, c])], 1);
    st.seats[0].rods = 1 << 8;
    st.seats[0].rod = 8;
    st.rod_deck &= !(1 << 8);
    assert_eq!(st.seats[0].dinks, 0);
    step(&g, &mut st, 32);
    assert_eq!((st.node, st.actor), (Node::Reorder, 0));
    let mut want = [a, b, c];
    want.sort_unstable();
    let ids: Vec<u32> = want.iter().map(|&f| 165 + u32::from(f)).collect();
    assert_eq!(legal_of(&g, &st), ids);
    // Osteofish first, then Geist: Osteofish is revealed on top
    steps(&g, &mut st, &[165 + u32::from(b), 165 + u32::from(c)]);
    assert_eq!(st.node, Node::Pay);
    assert_eq!(st.top_fish(0), Some(b));
    let len = usize::from(st.shoal_len[0]);
    assert_eq!(st.shoals[0][len - 3..len], [a, c, b]);
    // a held dink is kept
    let (g, mut st) = started(2, json!({}), &[(0, &[a, b, c])], 1);
    st.seats[0].rods = 1 << 8;
    st.seats[0].rod = 8;
    st.rod_deck &= !(1 << 8);
    st.seats[0].dinks = 1;
    st.dink_deck &= !1;
    step(&g, &mut st, 32);
    assert_eq!(st.node, Node::Reorder);
    assert_eq!(st.seats[0].dinks, 1);
    assert_eq!(st.dink_discard, 0);
}

/// Random play over 2-5 players with the expansion on and off: no panic, `after_main` is
/// reached, and it never repeats without a free action in between (free actions use something
/// up, so the node cannot cycle).
#[test]
fn random_games_reach_after_main_and_end() {
    let mut reached = 0u64;
    for n in 2..=5 {
        for tentacles in [false, true] {
            let g = game(n, json!({"expansion_tentacles": tentacles}));
            for k in 0..40u64 {
                let mut rng = SplitMix64::new(derive_seed(1414 + n as u64, k));
                let mut st = g.initial_state();
                let mut legal = Vec::new();
                let mut chance = Vec::new();
                let mut steps = 0;
                let mut run = 0;
                while g.current_player(&st) != TERMINAL {
                    g.legal_actions(&st, &mut legal);
                    let a = if g.current_player(&st) == CHANCE {
                        g.sample_chance(&st, &mut rng, &mut chance)
                    } else {
                        legal[rng.below(legal.len() as u64) as usize]
                    };
                    if st.node == Node::AfterMain {
                        reached += 1;
                        assert!(legal.contains(&24));
                        assert!(legal.iter().all(|&x| x != 0 && x != 10 && x != 11));
                        run = if a == 24 { 0 } else { run + 1 };
                        assert!(run < 200, "after_main cycles");
                    }
                    g.apply(&mut st, a);
                    steps += 1;
                    assert!(steps < 20_000, "game does not end");
                }
                assert!(st.ended);
            }
        }
    }
    assert!(reached > 0);
}
