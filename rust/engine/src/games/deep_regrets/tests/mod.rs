//! Rule scenarios of Deep Regrets with explicit chance (the rulebook's and the contract's worked
//! examples), grouped by topic; this file holds the shared openings and helpers.
//!
//! Must not: hold generic checks that the shared test kit runs for every registered game (legal
//! lists sorted, chance weights, fast-path equality, round trips, observation keys, bot
//! parameters, win rates).

use super::actions::*;
use super::*;
use crate::game::{Bot, CHANCE, TERMINAL};
use crate::rng::derive_seed;
use crate::session::Session;
use serde_json::{json, Map, Value};
use std::sync::Arc;

mod abilities;
mod day;
mod fishing;
mod greedy;
mod items;
mod madness;
mod port;
pub(super) mod random_play;
mod scoring;
mod setup;

pub(super) type Sess = Session<DeepRegrets>;

/// A game of `players` seats with the options `opts` (a JSON object).
pub(super) fn game(players: usize, opts: Value) -> Arc<DeepRegrets> {
    crate::testing::game_with(players, opts)
}

/// The id of the fish named `name`.
pub(super) fn fid(name: &str) -> u8 {
    data::data()
        .unwrap()
        .fish
        .iter()
        .position(|f| f.name == name)
        .unwrap() as u8
}

/// The id of the item named `name` in `list`.
pub(super) fn item_id(list: &[data::Item], name: &str) -> u32 {
    list.iter().position(|i| i.name == name).unwrap() as u32
}

/// The legal actions (or chance outcomes) at `st`.
pub(super) fn legal_of(g: &DeepRegrets, st: &DeepRegretsState) -> Vec<u32> {
    let mut v = Vec::new();
    g.legal_actions(st, &mut v);
    v
}

/// Applies `a` after checking it is legal.
pub(super) fn step(g: &DeepRegrets, st: &mut DeepRegretsState, a: u32) {
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

/// Applies `actions` in order, each checked to be legal.
pub(super) fn steps(g: &DeepRegrets, st: &mut DeepRegretsState, actions: &[u32]) {
    for &a in actions {
        step(g, st, a);
    }
}

/// Deals the shoals: shoal s gets `tops[s]` first (when given), then the lowest free ids.
pub(super) fn deal(g: &DeepRegrets, st: &mut DeepRegretsState, tops: &[(usize, &[u8])]) {
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
pub(super) fn started(
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
    step(&g, &mut st, GIVE_TO + lp as u32);
    assert_eq!(st.node, Node::Turn);
    (g, st)
}

/// Plays on with simple fixed choices until the state reaches `stop` (or the end): passes at
/// every turn, draws dinks as rewards, rolls the first outcome, keeps/gives the first option.
pub(super) fn autoplay_until(
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
            Node::Turn => PASS,
            Node::AfterMain => END_TURN,
            Node::Declare => STAY_AT_SEA,
            Node::PortDiscard => KEEP_ALL,
            Node::MusterSelect => ROLL_NOW,
            _ => legal[0],
        };
        step(g, st, a);
    }
    panic!("autoplay did not stop");
}

/// Puts seat p in a chosen situation at its `turn` node (Actions phase).
pub(super) fn at_turn(st: &mut DeepRegretsState, p: usize) {
    st.phase = Phase::Actions;
    st.node = Node::Turn;
    st.actor = p as u8;
    st.turn = p as u8;
    st.stack_len = 0;
    st.main_done = false;
}

/// Ends the turn at the `after_main` node (free actions), checking that it is asked for `p`.
pub(super) fn end_turn(g: &DeepRegrets, st: &mut DeepRegretsState, p: usize) {
    assert_eq!((st.node, st.actor), (Node::AfterMain, p as u8));
    step(g, st, END_TURN);
}

/// Seat `p`'s hand gets fish `f` (taken out of wherever it lies in the sea).
pub(super) fn give_hand(st: &mut DeepRegretsState, p: usize, f: u8) {
    for s in 0..9 {
        let len = usize::from(st.shoal_len[s]);
        if let Some(i) = st.shoals[s][..len].iter().position(|&x| x == f) {
            st.shoals[s].copy_within(i + 1..len, i);
            st.shoal_len[s] -= 1;
        }
    }
    st.seats[p].hand.insert(f);
}

/// [`started`] with one named fish on top of each listed shoal, `(shoal, name)`; also returns
/// the fish ids in the order given.
pub(super) fn started_with<const K: usize>(
    n: usize,
    opts: Value,
    tops: [(usize, &str); K],
    lp: usize,
) -> (Arc<DeepRegrets>, DeepRegretsState, [u8; K]) {
    let ids = tops.map(|(_, name)| fid(name));
    let fish: Vec<[u8; 1]> = ids.iter().map(|&f| [f]).collect();
    let tops: Vec<(usize, &[u8])> = tops
        .iter()
        .zip(&fish)
        .map(|(&(shoal, _), f)| (shoal, &f[..]))
        .collect();
    let (g, st) = started(n, opts, &tops, lp);
    (g, st, ids)
}

/// The options with the Tentacles expansion.
pub(super) fn tentacles() -> Value {
    json!({"expansion_tentacles": true})
}

/// Gives seat `p` the fish named `name` (see [`give_hand`]); returns its id.
pub(super) fn give_named(st: &mut DeepRegretsState, p: usize, name: &str) -> u8 {
    let f = fid(name);
    give_hand(st, p, f);
    f
}

/// Puts the fish named `name` in front of seat `p` (see [`put_in_front`]); returns its id.
pub(super) fn put_named_in_front(st: &mut DeepRegretsState, p: usize, name: &str) -> u8 {
    let f = fid(name);
    put_in_front(st, p, f);
    f
}

/// Runs the current (decision or chance) nodes with their first legal action until `node`.
pub(super) fn first_until(g: &DeepRegrets, st: &mut DeepRegretsState, node: Node) {
    for _ in 0..100 {
        if st.node == node {
            return;
        }
        let a = legal_of(g, st)[0];
        step(g, st, a);
    }
    panic!("{} not reached", node.name());
}

/// The common opening: `n` seats, default options, the lowest fish dealt, every seat rolled 1, 2,
/// 3 and the Life Preserver given to seat 1; seat 0 is at its first `turn` node.
pub(super) fn opening(n: usize) -> (Arc<DeepRegrets>, DeepRegretsState) {
    started(n, json!({}), &[], 1)
}

/// Seat `p` holds the regret cards `counts` (copies of values 0..3), taken from the deck.
pub(super) fn hold_regrets(st: &mut DeepRegretsState, p: usize, counts: [u8; 4]) {
    for v in 0..4 {
        st.regret_deck[v] -= counts[v];
    }
    st.seats[p].regrets = counts;
}

/// Seat `p` holds the dinks of `mask`, taken from the deck.
pub(super) fn hold_dinks(st: &mut DeepRegretsState, p: usize, mask: u32) {
    st.seats[p].dinks = mask;
    st.dink_deck &= !mask;
}

/// Seat `p` holds the supplies of `mask`, taken from the deck.
pub(super) fn hold_supplies(st: &mut DeepRegretsState, p: usize, mask: u32) {
    st.seats[p].supplies = mask;
    st.supply_deck &= !mask;
}

/// Seat `p` holds rod `r` (taken from the deck) and has it equipped.
pub(super) fn equip_rod(st: &mut DeepRegretsState, p: usize, r: u8) {
    st.rod_deck &= !(1 << r);
    st.seats[p].rods = 1 << r;
    st.seats[p].rod = r;
}

/// Seat `p` holds reel `r` (taken from the deck) and has it equipped.
pub(super) fn equip_reel(st: &mut DeepRegretsState, p: usize, r: u8) {
    st.reel_deck &= !(1 << r);
    st.seats[p].reels = 1 << r;
    st.seats[p].reel = r;
}

/// Fish `f` lies in front of seat `p` (taken out of the sea).
pub(super) fn put_in_front(st: &mut DeepRegretsState, p: usize, f: u8) {
    give_hand(st, p, f);
    st.seats[p].hand.remove(f);
    st.seats[p].front.insert(f);
}

/// Fish `f` is mounted in seat `p`'s slot `k` (taken out of the sea).
pub(super) fn mount(st: &mut DeepRegretsState, p: usize, k: usize, f: u8) {
    give_hand(st, p, f);
    st.seats[p].hand.remove(f);
    st.seats[p].mounted[k] = f;
}

/// Empties the sea but for the top fish of shoal 0: every other fish goes to its discard pile,
/// bottom first.
pub(super) fn empty_sea_but_one_fish(st: &mut DeepRegretsState) {
    for s in 0..9 {
        let keep = usize::from(s == 0);
        while usize::from(st.shoal_len[s]) > keep {
            let f = st.shoals[s][0];
            st.shoals[s].copy_within(1.., 0);
            st.shoal_len[s] -= 1;
            st.discard_fish(f);
        }
    }
}
