//! The shared test kit: generic checks that every [`Game`] must pass, whatever its rules (the
//! idea of OpenSpiel's `basic_tests`). The engine's own tests run them over every registered game
//! and over a set of option variations derived from its [`OptionSpec`]s, so a game's folder only
//! holds tests of its own rules.
//!
//! It owns the generic invariants of the state machine, the fast-path agreement, the bot contract
//! and the serialization round trip. It must not know anything about any particular game. The
//! checks panic with a message naming the game and the node on the first violation (they are
//! meant for tests).

use crate::error::EngineError;
use crate::game::{Bot, Game, RandomBot, CHANCE, TERMINAL};
use crate::options::{OptionKind, OptionSpec};
use crate::rng::{derive_seed, SplitMix64};
use crate::search::{margin_rewards, win_shares};
use crate::session::{AnySession, Session};
use crate::sim::{self, SimConfig, SHARE_DENOMINATOR};
use serde_json::{Map, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// The most steps (decisions and chance outcomes) a game may take before the kit calls it endless.
pub const MAX_STEPS: usize = 200_000;

/// Option sets that exercise every declared option once: the defaults (an empty map); each bool
/// flipped; each int at its min and its max; each other choice; each optional int at `null`, min
/// and max. Values equal to the default are left out, so every set differs from the defaults.
pub fn option_sets(specs: &[OptionSpec]) -> Vec<Map<String, Value>> {
    let mut sets = vec![Map::new()];
    for spec in specs {
        let values: Vec<Value> = match spec.kind {
            OptionKind::Bool => vec![Value::Bool(spec.default != Value::Bool(true))],
            OptionKind::Int { min, max } => vec![Value::from(min), Value::from(max)],
            OptionKind::OptionalInt { min, max } => {
                vec![Value::Null, Value::from(min), Value::from(max)]
            }
            OptionKind::Choice(choices) => choices.iter().map(|&c| Value::from(c)).collect(),
        };
        for v in values {
            if v != spec.default {
                let mut m = Map::new();
                m.insert(spec.name.to_string(), v);
                if !sets.contains(&m) {
                    sets.push(m);
                }
            }
        }
    }
    sets
}

/// Every configuration the kit plays of `G`: each option set of [`option_sets`] at the smallest
/// and the largest player count (the defaults at every player count), leaving out combinations
/// that the game rejects with [`EngineError::InvalidOption`]. Panics on any other error.
pub fn configurations<G: Game>() -> Vec<(usize, Map<String, Value>, G)> {
    let (lo, hi) = G::PLAYERS;
    let mut out = Vec::new();
    for (i, options) in option_sets(&G::option_specs()).into_iter().enumerate() {
        let counts: Vec<usize> = if i == 0 {
            (lo..=hi).collect()
        } else {
            let mut c = vec![lo, hi];
            c.dedup();
            c
        };
        for n in counts {
            match G::from_options(n, &options) {
                Ok(game) => out.push((n, options.clone(), game)),
                Err(EngineError::InvalidOption(_)) => {}
                Err(e) => panic!("{}: players={n} options={options:?}: {e}", G::ID),
            }
        }
    }
    assert!(!out.is_empty(), "{}: no playable configuration", G::ID);
    out
}

/// The generic invariants of one node (`what` names it in messages).
fn check_node<G: Game>(game: &G, session: &Session<G>, what: &str, tensor: &mut [f32]) {
    let state = session.state();
    let n = game.players();
    let player = game.current_player(state);
    let (mut legal, mut chance) = (Vec::new(), Vec::new());
    game.legal_actions(state, &mut legal);
    game.chance_outcomes(state, &mut chance);
    assert!(
        player == CHANCE || player == TERMINAL || (0..n as i32).contains(&player),
        "{what}: current_player {player} is out of range"
    );
    assert!(
        legal.windows(2).all(|w| w[0] < w[1]),
        "{what}: legal actions are not sorted and unique: {legal:?}"
    );
    assert!(
        legal.iter().all(|&a| a < game.num_actions()),
        "{what}: an action is outside 0..{}: {legal:?}",
        game.num_actions()
    );
    let scores = AnySession::scores(session);
    assert_eq!(scores.len(), n, "{what}: scores have the wrong length");
    if player == TERMINAL {
        assert!(legal.is_empty(), "{what}: terminal with actions {legal:?}");
        assert!(chance.is_empty(), "{what}: terminal with chance outcomes");
        let winners = game.winners(state);
        assert!(!winners.is_empty(), "{what}: nobody won");
        assert!(
            winners.windows(2).all(|w| w[0] < w[1]) && winners.iter().all(|&w| w < n),
            "{what}: winners {winners:?} are not sorted seats"
        );
        let mask = winners.iter().fold(0u64, |m, &s| m | 1 << s);
        assert_eq!(game.winner_mask(state), mask, "{what}: winner_mask");
    } else if player == CHANCE {
        assert!(!chance.is_empty(), "{what}: a chance node without outcomes");
        assert!(
            chance.windows(2).all(|w| w[0].0 < w[1].0) && chance.iter().all(|&(_, w)| w > 0),
            "{what}: chance outcomes not sorted or with a zero weight: {chance:?}"
        );
        let outcomes: Vec<u32> = chance.iter().map(|&(o, _)| o).collect();
        assert_eq!(
            outcomes, legal,
            "{what}: legal_actions differ from the outcomes"
        );
    } else {
        assert!(
            !legal.is_empty(),
            "{what}: seat {player} has no legal action"
        );
        assert!(chance.is_empty(), "{what}: a decision with chance outcomes");
    }
    for p in 0..n {
        let obs = game.observation(state, p);
        assert!(obs.is_object(), "{what}: observation({p}) is not an object");
        tensor.fill(f32::NAN);
        game.observation_tensor(state, p, tensor);
        assert!(
            tensor.iter().all(|x| x.is_finite()),
            "{what}: observation_tensor({p}) is not finite everywhere"
        );
    }
}

/// Checks that `to_json` survives a trip through [`Session::from_json`] unchanged.
fn check_round_trip<G: Game>(game: &Arc<G>, session: &Session<G>, what: &str) {
    let json = session.to_json();
    let back = Session::from_json(Arc::clone(game), &json)
        .unwrap_or_else(|e| panic!("{what}: its own state dict is rejected: {e}"));
    assert_eq!(
        back.to_json(),
        json,
        "{what}: the state dict changes on a round trip"
    );
}

/// Plays `games` random games of `game` to the end through a [`Session`] (chance outcomes drawn
/// by weight, actions uniformly, all from generators seeded by `seed`), checking at every node the
/// generic invariants: `current_player` in range; legal actions sorted, unique, inside
/// `0..num_actions` and non-empty at decision and chance nodes; chance outcomes sorted with
/// positive weights and equal to the legal actions; at the end no actions, non-empty sorted
/// winners in range, `winner_mask` agreeing; `scores` of length `players`; every seat's
/// observation a JSON object and its tensor of the declared size and finite; the state dict round
/// trip through [`Session::from_json`] (every few steps and at the end); at most [`MAX_STEPS`]
/// steps.
pub fn check_random_playouts<G: Game>(game: &Arc<G>, games: u64, seed: u64) {
    let size: usize = game.observation_shape().iter().product();
    let mut tensor = vec![0.0f32; size];
    let (mut legal, mut chance) = (Vec::new(), Vec::new());
    for g in 0..games {
        let mut rng = SplitMix64::new(derive_seed(seed, g));
        let mut session = Session::new(Arc::clone(game), None);
        let opts = game.options();
        for step in 0.. {
            let what = format!(
                "{} players={} options={opts:?} game {g} step {step}",
                G::ID,
                game.players()
            );
            assert!(step <= MAX_STEPS, "{what}: the game does not end");
            check_node(&**game, &session, &what, &mut tensor);
            let state = session.state();
            let player = game.current_player(state);
            if step % 16 == 0 || player == TERMINAL {
                check_round_trip(game, &session, &what);
            }
            if player == TERMINAL {
                check_score_direction(&**game, state, &what);
                break;
            }
            let action = if player == CHANCE {
                game.chance_outcomes(state, &mut chance);
                rng.pick_weighted(&chance).unwrap_or(0)
            } else {
                game.legal_actions(state, &mut legal);
                legal[rng.below(legal.len() as u64) as usize]
            };
            assert!(
                !game.action_label(state, action).is_empty(),
                "{what}: empty label of {action}"
            );
            session
                .apply(i64::from(action), Some(i64::from(player)))
                .unwrap_or_else(|e| panic!("{what}: a legal action is refused: {e}"));
        }
    }
}

/// Asserts that the terminal `state` agrees with [`Game::higher_score_is_better`]: no seat that
/// did not win has a better score than a winner, and the search's `reward=margin`
/// ([`margin_rewards`]) orders the seats by win share first and then by score in the game's
/// direction (fewer penalty cards are better in Trafficars).
fn check_score_direction<G: Game>(game: &G, state: &G::State, what: &str) {
    let n = game.players();
    let (mut wins, mut margins, mut scores) = (vec![0.0; n], vec![0.0; n], vec![0i64; n]);
    win_shares(game, state, &mut wins);
    margin_rewards(game, state, &mut scores, &mut margins);
    game.scores(state, &mut scores);
    let sign = if game.higher_score_is_better() { 1 } else { -1 };
    let key = |s: usize| (wins[s], sign * scores[s]);
    for a in 0..n {
        for b in 0..n {
            if wins[a] > 0.0 && wins[b] == 0.0 {
                assert!(
                    sign * scores[a] >= sign * scores[b],
                    "{what}: seat {b} lost with a better score than winner {a}: {scores:?}"
                );
            }
            assert_eq!(
                key(a).partial_cmp(&key(b)),
                margins[a].partial_cmp(&margins[b]),
                "{what}: seats {a} and {b}: win shares {wins:?}, scores {scores:?}, margin \
                 rewards {margins:?}"
            );
        }
    }
}

/// Plays `games` random games of `game` and asserts at every node that [`Game::sample_chance`]
/// and [`Game::random_action`] return what the definitions give (a weighted pick over
/// `chance_outcomes`, `legal[below(len)]` over `legal_actions`) and leave the generator in the
/// same state, for several generator states per node; that [`Game::legal_bits`] sets the bits
/// of the listed actions and clears all others; that [`Game::resolve_chance`] resolves every run
/// of chance nodes as stepping it does; and that [`Game::random_playout`] plays the same games as
/// [`crate::step::random_playout`]. The batch runner and the vector envs rely on this.
pub fn check_fast_paths<G: Game>(game: &G, games: u64, seed: u64) {
    let (mut legal, mut chance, mut buf) = (Vec::new(), Vec::new(), Vec::new());
    let mut buf2 = Vec::new();
    // One word more than the actions need, to check that it is cleared too.
    let mut set = vec![0u64; game.num_actions().div_ceil(64) as usize + 1];
    for g in 0..games {
        let mut state = game.initial_state();
        let mut rng = SplitMix64::new(derive_seed(seed, g));
        loop {
            let player = game.current_player(&state);
            if player == TERMINAL {
                break;
            }
            if player == CHANCE {
                check_resolve_chance(game, &state, rng, &mut chance);
            }
            set.fill(u64::MAX);
            game.legal_bits(&state, &mut set, &mut buf2);
            game.legal_actions(&state, &mut legal);
            let listed: Vec<u32> = (0..set.len() as u32 * 64)
                .filter(|&a| set[a as usize / 64] >> (a % 64) & 1 == 1)
                .collect();
            assert_eq!(listed, legal, "{}: legal_bits", G::ID);
            for k in 0..4u64 {
                let probe = SplitMix64::new(rng.state() ^ k.wrapping_mul(0x9E37_79B9));
                let (mut fast, mut slow) = (probe, probe);
                if player == CHANCE {
                    let a = game.sample_chance(&state, &mut fast, &mut buf);
                    game.chance_outcomes(&state, &mut chance);
                    assert_eq!(Some(a), slow.pick_weighted(&chance), "{}", G::ID);
                } else {
                    let a = game.random_action(&state, &mut fast, &mut buf2);
                    game.legal_actions(&state, &mut legal);
                    if k == 0 {
                        check_is_legal(game, &state, &legal);
                    }
                    let i = slow.below(legal.len() as u64) as usize;
                    assert_eq!(a, Some(legal[i]), "{} at {legal:?}", G::ID);
                }
                assert_eq!(fast, slow, "{}: generator states differ", G::ID);
            }
            let action = if player == CHANCE {
                game.sample_chance(&state, &mut rng, &mut buf)
            } else {
                game.legal_actions(&state, &mut legal);
                legal[rng.below(legal.len() as u64) as usize]
            };
            game.apply(&mut state, action);
        }
    }
    // The game's own playout with the `random` bot in every seat against the definition.
    for g in 0..games {
        let game_seed = derive_seed(seed ^ 0x00C0_FFEE, g);
        let at = format!("playout {g}");
        let start = game.initial_state();
        let (fast, slow) = playouts_both_ways(game, &start, game.players(), game_seed, &at);
        assert_eq!(
            game.state_json(&fast),
            game.state_json(&slow),
            "{}: {at}: end state",
            G::ID
        );
    }
}

/// Asserts that [`Game::resolve_chance`] from the chance node `state` with a generator in state
/// `rng` reaches the state, the generator state and the count that the definition,
/// [`crate::step::resolve_chance`] (one node at a time), reaches.
fn check_resolve_chance<G: Game>(
    game: &G,
    state: &G::State,
    rng: SplitMix64,
    buf: &mut Vec<(u32, u64)>,
) {
    let (mut fast, mut fast_rng) = (state.clone(), rng);
    let resolved = game.resolve_chance(&mut fast, &mut fast_rng, buf);
    let (mut slow, mut slow_rng) = (state.clone(), rng);
    let stepped = crate::step::resolve_chance(game, &mut slow, &mut slow_rng, buf);
    assert_eq!(resolved, stepped, "{}: resolve_chance count", G::ID);
    assert_eq!(fast_rng, slow_rng, "{}: resolve_chance stream", G::ID);
    assert_eq!(
        game.state_json(&fast),
        game.state_json(&slow),
        "{}: resolve_chance end state",
        G::ID
    );
}

/// Asserts that [`Game::is_legal`] says yes exactly to the actions of `legal` (the list of
/// `state`), over every action id and a few past them.
fn check_is_legal<G: Game>(game: &G, state: &G::State, legal: &[u32]) {
    for action in 0..game.num_actions() + 2 {
        assert_eq!(
            game.is_legal(state, action),
            legal.binary_search(&action).is_ok(),
            "{}: is_legal({action}) disagrees with the legal list {legal:?}",
            G::ID
        );
    }
}

/// Plays `games` seeded games of `game` with the built-in bot `spec` in seat 0 and `random`
/// elsewhere, and again with `spec` in every seat, through the batch runner's
/// [`sim::play_game`] and by applying [`crate::step::step`] alone: the same counts and the same
/// end state (the batch runner may resolve runs of chance nodes in one call, see
/// [`Game::resolve_chance`]).
pub fn check_batch_games_match_stepping<G: Game>(game: &G, spec: &str, games: u64, seed: u64) {
    let n = game.players();
    let lineups = [
        (0..n)
            .map(|s| if s == 0 { spec } else { "random" })
            .collect::<Vec<_>>(),
        vec![spec; n],
    ];
    let (mut legal, mut chance) = (Vec::new(), Vec::new());
    for lineup in lineups {
        let seats = || -> Vec<sim::SeatBot<G>> {
            lineup
                .iter()
                .map(|b| sim::SeatBot::new(game, b))
                .collect::<crate::error::Result<_>>()
                .unwrap_or_else(|e| panic!("{}: bot {spec}: {e}", G::ID))
        };
        let (mut batch, mut stepped) = (seats(), seats());
        for g in 0..games {
            let game_seed = derive_seed(seed, g);
            let mut fast = game.initial_state();
            let counts = sim::play_game(
                game,
                &mut batch,
                game_seed,
                &mut fast,
                &mut legal,
                &mut chance,
            )
            .unwrap_or_else(|e| panic!("{}: {lineup:?} game {g}: {e}", G::ID));
            let mut slow = game.initial_state();
            let mut rng = SplitMix64::new(game_seed);
            let observing = crate::step::reset_seats(game, &mut stepped, game_seed);
            let mut slow_counts = (0u32, 0u32);
            loop {
                let done = crate::step::step(
                    game,
                    &mut slow,
                    &mut rng,
                    &mut stepped,
                    observing,
                    &mut legal,
                    &mut chance,
                    &mut 0,
                );
                match done {
                    Ok(crate::step::Stepped::Decision) => slow_counts.0 += 1,
                    Ok(crate::step::Stepped::Chance) => slow_counts.1 += 1,
                    Ok(crate::step::Stepped::Terminal) => break,
                    Ok(crate::step::Stepped::External) => {
                        panic!("{}: {lineup:?} game {g}: an external seat", G::ID)
                    }
                    Err(e) => panic!("{}: {lineup:?} game {g}: {}", G::ID, e.into_error::<G>()),
                }
            }
            assert_eq!(
                counts,
                slow_counts,
                "{}: {lineup:?} game {g}: counts",
                G::ID
            );
            assert_eq!(
                game.state_json(&fast),
                game.state_json(&slow),
                "{}: {lineup:?} game {g}: end state",
                G::ID
            );
        }
    }
}

/// Plays `games` seeded games of `game` with the built-in bot `spec` in every seat, and beside
/// each seat a twin bot of the same spec and stream that is always given the legal list: at every
/// decision, a bot choosing without the list ([`Bot::act_unlisted`]) must choose what its twin
/// chooses with [`Bot::act`], a legal action, and draw the same from its stream (so later
/// decisions agree too).
pub fn check_unlisted_decisions<G: Game>(game: &G, spec: &str, games: u64, seed: u64) {
    let make = || {
        (0..game.players())
            .map(|_| sim::make_bot(game, spec).unwrap_or_else(|e| panic!("{}: {e}", G::ID)))
            .collect::<Vec<_>>()
    };
    let (mut bots, mut twins) = (make(), make());
    let (mut legal, mut chance) = (Vec::new(), Vec::new());
    for g in 0..games {
        let game_seed = derive_seed(seed, g);
        crate::step::reset_seats(game, &mut bots, game_seed);
        crate::step::reset_seats(game, &mut twins, game_seed);
        let mut rng = SplitMix64::new(game_seed);
        let mut state = game.initial_state();
        for step in 0.. {
            assert!(step <= MAX_STEPS, "{} {spec}: the game does not end", G::ID);
            let player = game.current_player(&state);
            if player == TERMINAL {
                break;
            }
            let action = if player == CHANCE {
                game.sample_chance(&state, &mut rng, &mut chance)
            } else {
                let seat = player as usize;
                game.legal_actions(&state, &mut legal);
                let expected = twins[seat].act(game, &state, &legal);
                let action = bots[seat]
                    .act_unlisted(game, &state)
                    .unwrap_or_else(|| bots[seat].act(game, &state, &legal));
                assert_eq!(action, expected, "{} {spec}: game {g} step {step}", G::ID);
                assert!(
                    game.is_legal(&state, action),
                    "{} {spec}: illegal {action}",
                    G::ID
                );
                action
            };
            game.apply(&mut state, action);
            for bot in bots.iter_mut().chain(twins.iter_mut()) {
                bot.observe(game, &state);
            }
        }
    }
}

/// `G` with `players` seats and the options of the JSON object `options` (anything else counts
/// as no options), shared for sessions; panics when the game rejects them.
pub fn game_with<G: Game>(players: usize, options: Value) -> Arc<G> {
    let map = options.as_object().cloned().unwrap_or_default();
    let game = G::from_options(players, &map)
        .unwrap_or_else(|e| panic!("{} players={players} options={map:?}: {e}", G::ID));
    Arc::new(game)
}

/// The games of `sets`, one per `(players, options)` entry, each made by [`game_with`].
pub fn games_with<G: Game>(sets: &[(usize, Value)]) -> Vec<Arc<G>> {
    sets.iter().map(|(n, o)| game_with(*n, o.clone())).collect()
}

/// The games of every player count of `players` with every option set of `option_sets` (player
/// counts outermost), each made by [`game_with`].
pub fn games_over<G: Game>(
    players: std::ops::RangeInclusive<usize>,
    option_sets: &[Value],
) -> Vec<Arc<G>> {
    players
        .flat_map(|n| option_sets.iter().map(move |o| game_with(n, o.clone())))
        .collect()
}

/// One random step of `state`: a chance outcome by weight ([`Game::sample_chance`]) or a uniform
/// legal action ([`Game::random_action`]), applied and returned. Panics when a decision node has
/// no legal action.
fn random_step<G: Game>(
    game: &G,
    state: &mut G::State,
    rng: &mut SplitMix64,
    legal: &mut Vec<u32>,
    chance: &mut Vec<(u32, u64)>,
) -> u32 {
    let action = if game.current_player(state) == CHANCE {
        game.sample_chance(state, rng, chance)
    } else {
        game.random_action(state, rng, legal)
            .unwrap_or_else(|| panic!("{}: a decision without legal actions", G::ID))
    };
    game.apply(state, action);
    action
}

/// Plays `node` out twice from the same `seed` (the chance stream, and the seat streams derived
/// from it as a batch game's are): once with the game's own [`Game::random_playout`] and once
/// with the definition, [`crate::step::random_playout`], one node at a time. Asserts the same
/// decision and chance counts and every generator in the same state (`at` names the node in a
/// failure); returns the two end states, the game's own first.
fn playouts_both_ways<G: Game>(
    game: &G,
    node: &G::State,
    players: usize,
    seed: u64,
    at: &str,
) -> (G::State, G::State) {
    let (mut legal, mut chance) = (Vec::new(), Vec::new());
    let mut fast_seats = vec![SplitMix64::default(); players];
    crate::step::reset_random_seats(&mut fast_seats, seed);
    let mut slow_seats = fast_seats.clone();
    let (mut fast, mut slow) = (node.clone(), node.clone());
    let (mut fast_rng, mut slow_rng) = (SplitMix64::new(seed), SplitMix64::new(seed));
    let fast_counts = game.random_playout(
        &mut fast,
        &mut fast_rng,
        &mut fast_seats,
        &mut legal,
        &mut chance,
    );
    let mut slow_table = crate::step::RandomTable {
        chance: &mut slow_rng,
        seats: &mut slow_seats,
        legal: &mut legal,
        outcomes: &mut chance,
        counts: (0, 0),
    };
    let slow_counts =
        crate::step::random_playout(game, &mut slow, &mut slow_table).map(|()| slow_table.counts);
    assert_eq!(fast_counts, slow_counts, "{}: {at}: counts", G::ID);
    assert_eq!(fast_rng, slow_rng, "{}: {at}: chance stream", G::ID);
    assert_eq!(fast_seats, slow_seats, "{}: {at}: seat streams", G::ID);
    (fast, slow)
}

/// `playouts_both_ways` from `node`, asserting the same end state too.
pub fn assert_random_playout_matches_stepping<G: Game>(
    game: &G,
    node: &G::State,
    players: usize,
    seed: u64,
    at: &str,
) where
    G::State: PartialEq + std::fmt::Debug,
{
    let (fast, slow) = playouts_both_ways(game, node, players, seed, at);
    assert_eq!(fast, slow, "{}: {at}: end state", G::ID);
}

/// [`assert_random_playout_matches_stepping`] from every node of the random game
/// [`playout_nodes`]`(game, walk_seed)`, node `i` played out from `derive_seed(index, i)`;
/// `index` names the game in a failure.
pub fn assert_random_playouts_match_stepping_along<G: Game>(
    game: &G,
    players: usize,
    walk_seed: u64,
    index: u64,
) where
    G::State: PartialEq + std::fmt::Debug,
{
    for (i, (_, node)) in playout_nodes(game, walk_seed).into_iter().enumerate() {
        assert_random_playout_matches_stepping(
            game,
            &node,
            players,
            derive_seed(index, i as u64),
            &format!("game {index} node {i}"),
        );
    }
}

/// Every node of a random game of `game` seeded by `seed` (chance outcomes by weight, actions
/// uniformly), the terminal one included, each with the history of actions that leads to it.
/// Panics after [`MAX_STEPS`] steps.
pub fn playout_nodes<G: Game>(game: &G, seed: u64) -> Vec<(Vec<u32>, G::State)> {
    let mut rng = SplitMix64::new(seed);
    let (mut state, mut history, mut out) = (game.initial_state(), Vec::new(), Vec::new());
    let (mut legal, mut chance) = (Vec::new(), Vec::new());
    loop {
        out.push((history.clone(), state.clone()));
        if game.current_player(&state) == TERMINAL {
            return out;
        }
        assert!(
            history.len() < MAX_STEPS,
            "{}: the game does not end",
            G::ID
        );
        history.push(random_step(
            game,
            &mut state,
            &mut rng,
            &mut legal,
            &mut chance,
        ));
    }
}

/// `game`'s determinization of `state` for `observer`, drawn with a generator seeded by `seed`;
/// panics when the game cannot determinize it.
pub fn determinized<G: Game>(game: &G, state: &G::State, observer: usize, seed: u64) -> G::State {
    game.determinize(state, observer, &mut SplitMix64::new(seed))
        .unwrap_or_else(|| panic!("{}: no determinization for seat {observer}", G::ID))
}

/// The bitset of the card ids in `cards` (each below 64).
pub fn card_mask(cards: &[u8]) -> u64 {
    cards.iter().fold(0, |m, &c| m | 1u64 << c)
}

/// Plays `state` on at random (seeded by `seed`) to the end, calling `each` after every step,
/// and returns the terminal state. Panics after [`MAX_STEPS`] steps.
pub fn play_to_end<G: Game>(
    game: &G,
    mut state: G::State,
    seed: u64,
    mut each: impl FnMut(&G::State),
) -> G::State {
    let mut rng = SplitMix64::new(seed);
    let (mut legal, mut chance) = (Vec::new(), Vec::new());
    for _ in 0..MAX_STEPS {
        if game.current_player(&state) == TERMINAL {
            return state;
        }
        random_step(game, &mut state, &mut rng, &mut legal, &mut chance);
        each(&state);
    }
    panic!("{}: the game does not end", G::ID);
}

/// The observation tensor of seat `player` in `state`, as a vector.
pub fn tensor_of<G: Game>(game: &G, state: &G::State, player: usize) -> Vec<f32> {
    let mut out = vec![0.0; game.observation_shape().iter().product()];
    game.observation_tensor(state, player, &mut out);
    out
}

/// Asserts the label of each `(action, label)` of `labels` in `state`.
pub fn assert_labels<G: Game>(game: &G, state: &G::State, labels: &[(u32, &str)]) {
    for &(action, want) in labels {
        assert_eq!(
            game.action_label(state, action),
            want,
            "{}: label of {action}",
            G::ID
        );
    }
}

/// Asserts that seat `observer` sees the same in `a` and `b`: equal observations (JSON) and
/// equal observation tensors.
pub fn assert_same_view<G: Game>(game: &G, a: &G::State, b: &G::State, observer: usize) {
    assert_eq!(
        game.observation(a, observer),
        game.observation(b, observer),
        "{}: seat {observer} sees different observations",
        G::ID
    );
    assert_eq!(
        tensor_of(game, a, observer),
        tensor_of(game, b, observer),
        "{}: seat {observer} sees different observation tensors",
        G::ID
    );
}

/// Whether `history` replays through a fresh [`Session`] (every action accepted) to a state with
/// the same state dict as `state`.
pub fn replays_to<G: Game>(game: &Arc<G>, history: &[u32], state: &G::State) -> bool {
    let mut session = Session::new(Arc::clone(game), None);
    history
        .iter()
        .all(|&a| session.apply(i64::from(a), None).is_ok())
        && game.state_json(session.state()) == game.state_json(state)
}

/// How many different state dicts `tries` samples of `state` for seat `observer` give, all drawn
/// from one generator seeded by `seed`.
pub fn distinct_samples<G: Game>(
    game: &G,
    state: &G::State,
    observer: usize,
    tries: usize,
    seed: u64,
) -> usize {
    let mut rng = SplitMix64::new(seed);
    let mut seen = Vec::new();
    for _ in 0..tries {
        let sample = game
            .determinize(state, observer, &mut rng)
            .unwrap_or_else(|| panic!("{}: no determinizer", G::ID));
        let json = game.state_json(&sample);
        if !seen.contains(&json) {
            seen.push(json);
        }
    }
    seen.len()
}

/// A node choice for [`check_determinizer`]: every `n`-th node of a game (every node for 0 or 1).
pub fn every_nth(n: usize) -> impl Fn(usize, &[u32]) -> bool {
    move |node, _| node % n.max(1) == 0
}

/// One determinized node handed to the game-specific part of [`check_determinizer`].
pub struct SampleCase<'a, G: Game> {
    /// The actions that led to the real state.
    pub history: &'a [u32],
    /// The real state.
    pub real: &'a G::State,
    /// The seat the sample was drawn for.
    pub observer: usize,
    /// The position of the node in its game (0 for the initial state).
    pub node: usize,
    /// The seed of the sample's generator (distinct per game, node and observer).
    pub seed: u64,
    /// `game.determinize(real, observer, SplitMix64::new(seed))`.
    pub sample: G::State,
}

impl<G: Game> std::fmt::Debug for SampleCase<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SampleCase")
            .field("game", &G::ID)
            .field("history", &self.history)
            .field("observer", &self.observer)
            .field("node", &self.node)
            .field("seed", &self.seed)
            .finish_non_exhaustive()
    }
}

/// The generic determinizer checks over `games` random games of `game` (seeded from `seed`): at
/// the nodes that `pick` accepts (given the node's position in its game and its history) and at
/// the end, for every seat, the sample exists, shows that seat
/// exactly what the real state shows ([`assert_same_view`]), is the same for the same generator
/// state, and plays on at random to the end. `extra` then runs the game's own checks on each
/// case. Returns the number of cases.
pub fn check_determinizer<G: Game>(
    game: &Arc<G>,
    games: u64,
    seed: u64,
    pick: impl Fn(usize, &[u32]) -> bool,
    mut extra: impl FnMut(&SampleCase<'_, G>),
) -> usize {
    let mut cases = 0;
    for g in 0..games {
        let game_seed = derive_seed(seed, g);
        for (node, (history, real)) in playout_nodes(&**game, game_seed).iter().enumerate() {
            if !pick(node, history) && game.current_player(real) != TERMINAL {
                continue;
            }
            for observer in 0..game.players() {
                let seed = derive_seed(game_seed, (node * 8 + observer) as u64);
                let draw = || {
                    game.determinize(real, observer, &mut SplitMix64::new(seed))
                        .unwrap_or_else(|| panic!("{}: no determinizer", G::ID))
                };
                let sample = draw();
                assert_same_view(&**game, &sample, real, observer);
                assert_eq!(
                    game.state_json(&draw()),
                    game.state_json(&sample),
                    "{}: the sample is not a function of the generator",
                    G::ID
                );
                let end = play_to_end(&**game, sample.clone(), seed, |_| {});
                assert_eq!(game.current_player(&end), TERMINAL);
                extra(&SampleCase {
                    history,
                    real,
                    observer,
                    node,
                    seed,
                    sample,
                });
                cases += 1;
            }
        }
    }
    cases
}

/// The no-peeking check of a determinizer at one case of [`check_determinizer`]: `alt` is another
/// real state that seat `case.observer` cannot tell from `case.real` (asserted: the seat observes
/// the same in both), so the sample drawn from it with the case's generator must be the case's
/// sample. Returns whether `alt` differs from the real state (whether the check tested anything).
pub fn assert_sample_does_not_peek<G: Game>(
    game: &G,
    case: &SampleCase<'_, G>,
    alt: &G::State,
) -> bool
where
    G::State: PartialEq + std::fmt::Debug,
{
    let observer = case.observer;
    assert_eq!(
        game.observation(alt, observer),
        game.observation(case.real, observer),
        "{}: seat {observer} can tell the states apart",
        G::ID
    );
    let sample = game.determinize(alt, observer, &mut SplitMix64::new(case.seed));
    assert_eq!(
        sample.as_ref(),
        Some(&case.sample),
        "{}: the sample depends on hidden cards",
        G::ID
    );
    alt != case.real
}

/// The variety check of a determinizer at one case of [`check_determinizer`], for a real state
/// with two or more hidden places that can hold different cards: samples drawn from one more
/// generator give at least two different states.
pub fn assert_samples_vary<G: Game>(game: &G, case: &SampleCase<'_, G>) {
    let seat = case.observer;
    let seed = case.seed ^ 0x5eed;
    assert!(
        distinct_samples(game, case.real, seat, 21, seed) > 1,
        "{}: the samples for seat {seat} do not vary",
        G::ID
    );
}

/// What a determinizer test of [`check_determinizer`] tallies: the cases checked, those whose
/// no-peeking check had a different real state to test ([`assert_sample_does_not_peek`]) and
/// those whose samples were checked to vary ([`assert_samples_vary`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct SampleTally {
    /// Cases checked.
    pub checked: u64,
    /// Cases whose no-peeking check compared with a different real state.
    pub rearranged: u64,
    /// Cases whose samples were checked to vary.
    pub varied: u64,
}

impl SampleTally {
    /// Prints the tally and asserts that it checked more than `checked` cases and, in more than
    /// `each` of them, compared with a different real state and checked variety.
    pub fn assert_more_than(&self, checked: u64, each: u64) {
        eprintln!("{self:?}");
        assert!(
            self.checked > checked && self.rearranged > each && self.varied > each,
            "too few cases: {self:?}"
        );
    }
}

/// Plays one game of `game` with the search player `spec` (`name` or `name:params`, see
/// [`crate::search::make_search_bot`]) in seat `search_seat` against `random` in the others,
/// every bot observing every step, chance outcomes drawn from `seed`; asserts that every action
/// is legal and returns the terminal state.
pub fn play_search_against_random<G: Game>(
    game: &G,
    spec: &str,
    search_seat: usize,
    seed: u64,
) -> G::State {
    let (name, params) = match spec.split_once(':') {
        Some((name, params)) => (name, Some(params)),
        None => (spec, None),
    };
    let mut bots: Vec<Box<dyn Bot<G>>> = (0..game.players())
        .map(|seat| -> Box<dyn Bot<G>> {
            if seat == search_seat {
                crate::search::make_search_bot(game, name, params)
                    .unwrap_or_else(|| panic!("{}: no search player {name}", G::ID))
                    .unwrap_or_else(|e| panic!("{}: search player {spec}: {e}", G::ID))
            } else {
                Box::new(RandomBot::default())
            }
        })
        .collect();
    for (seat, bot) in bots.iter_mut().enumerate() {
        bot.reset(game, seat, SplitMix64::new(derive_seed(seed, seat as u64)));
    }
    let mut rng = SplitMix64::new(seed);
    let (mut state, mut legal, mut chance) = (game.initial_state(), Vec::new(), Vec::new());
    for _ in 0..MAX_STEPS {
        let action = match game.current_player(&state) {
            TERMINAL => return state,
            CHANCE => game.sample_chance(&state, &mut rng, &mut chance),
            p => {
                game.legal_actions(&state, &mut legal);
                let a = bots[p as usize].act(game, &state, &legal);
                assert!(legal.contains(&a), "{}: {spec} plays illegal {a}", G::ID);
                a
            }
        };
        game.apply(&mut state, action);
        for bot in &mut bots {
            bot.observe(game, &state);
        }
    }
    panic!("{}: the game does not end", G::ID);
}

/// A [`RandomBot`] seeded by `seed` (reset for seat 0), to play every seat of a game.
pub fn random_bot<G: Game>(game: &G, seed: u64) -> RandomBot {
    let mut bot = RandomBot::default();
    Bot::<G>::reset(&mut bot, game, 0, SplitMix64::new(seed));
    bot
}

/// Plays one game of `game` to the end through a [`Session`] whose chance outcomes are drawn from
/// `seed`; at every decision `decide(state, seat, legal)` checks what it wants and returns the
/// seat's action. Returns the finished session. Panics on a refused action or after
/// [`MAX_STEPS`] decisions.
pub fn play_session<G: Game>(
    game: &Arc<G>,
    seed: u64,
    mut decide: impl FnMut(&G::State, usize, &[u32]) -> u32,
) -> Session<G> {
    let g = game.as_ref();
    let mut s = Session::new(Arc::clone(game), Some(seed));
    let mut legal = Vec::new();
    for _ in 0..MAX_STEPS {
        let cp = g.current_player(s.state());
        if cp == TERMINAL {
            return s;
        }
        g.legal_actions(s.state(), &mut legal);
        let a = decide(s.state(), cp as usize, &legal);
        s.apply(i64::from(a), Some(i64::from(cp)))
            .unwrap_or_else(|e| panic!("{}: seat {cp} may not play {a}: {e}", G::ID));
    }
    panic!("{}: the game does not end", G::ID);
}

/// Plays `games` games of `game` (chance seeded from `seed`, each seat's `bot()` reset with its
/// own stream and observing every decision node) and checks at every decision that the seat's
/// bot chooses the same action when what it may not see is blanked out: `hide(copy, seat)`
/// replaces in a copy of the state the other seats' hidden information (and anything else the
/// seat cannot know) by placeholders. Returns the decisions checked.
pub fn check_ignores_hidden<G: Game, B: Bot<G> + Clone>(
    game: &Arc<G>,
    bot: impl Fn() -> B,
    games: u64,
    seed: u64,
    hide: impl Fn(&mut G::State, usize),
) -> usize {
    let g = game.as_ref();
    let mut checked = 0;
    for gi in 0..games {
        let mut bots: Vec<B> = (0..g.players()).map(|_| bot()).collect();
        for (p, b) in bots.iter_mut().enumerate() {
            b.reset(g, p, SplitMix64::new(derive_seed(gi, p as u64)));
        }
        play_session(game, derive_seed(seed, gi), |state, seat, legal| {
            for b in bots.iter_mut() {
                b.observe(g, state);
            }
            let mut twin = bots[seat].clone();
            let a = bots[seat].act(g, state, legal);
            let mut hidden = state.clone();
            hide(&mut hidden, seat);
            let blind = twin.act(g, &hidden, legal);
            assert_eq!(
                blind,
                a,
                "{}: game {gi}, seat {seat} uses hidden information",
                G::ID
            );
            checked += 1;
            a
        });
    }
    checked
}

/// Plays `games` seeded games with the bot `bot()` in the seats of `mask` and the random bot
/// elsewhere (every bot reset with its seat's own random stream, chance outcomes drawn by the
/// session from the game's seed) and calls `decide(game, seat, chosen)` after every decision of
/// a seat of `mask`. Returns the number of such decisions.
pub fn play_bot_decisions<G: Game, B: Bot<G>>(
    game: &Arc<G>,
    bot: impl Fn() -> B,
    mask: u32,
    games: u64,
    seed: u64,
    mut decide: impl FnMut(u64, usize, u32),
) -> usize {
    let g = game.as_ref();
    let n = g.players();
    let mut legal = Vec::new();
    let mut decisions = 0;
    for gi in 0..games {
        let mut s = Session::new(Arc::clone(game), Some(derive_seed(seed, gi)));
        let mut bots: Vec<B> = (0..n).map(|_| bot()).collect();
        let mut random: Vec<RandomBot> = vec![RandomBot::default(); n];
        for p in 0..n {
            let rng = SplitMix64::new(derive_seed(gi ^ seed, p as u64));
            bots[p].reset(g, p, rng);
            Bot::<G>::reset(&mut random[p], g, p, rng);
        }
        while g.current_player(s.state()) != TERMINAL {
            let p = g.current_player(s.state()) as usize;
            g.legal_actions(s.state(), &mut legal);
            let a = if mask & (1 << p) != 0 {
                let a = bots[p].act(g, s.state(), &legal);
                assert!(legal.contains(&a), "{}: illegal {a} in {legal:?}", G::ID);
                decide(gi, p, a);
                decisions += 1;
                a
            } else {
                Bot::<G>::act(&mut random[p], g, s.state(), &legal)
            };
            s.apply(i64::from(a), None)
                .unwrap_or_else(|e| panic!("{}: a legal action was refused: {e}", G::ID));
            for bot in bots.iter_mut().filter(|b| b.observes()) {
                bot.observe(g, s.state());
            }
        }
    }
    decisions
}

/// One set of games whose bot decisions a test pins (see [`check_pinned_decisions`]).
#[derive(Debug)]
pub struct DecisionRun<G> {
    /// Names the run in the pinned table and in messages.
    pub label: String,
    /// The game played.
    pub game: Arc<G>,
    /// The seats the bot under test plays (the random bot plays the others).
    pub mask: u32,
    /// How many games.
    pub games: u64,
    /// The seed of the games (see [`play_bot_decisions`]).
    pub seed: u64,
}

/// The runs of each option set of `settings` (JSON objects) at each player count of `players`
/// that the game accepts (others are skipped): the bot in every seat, in seat 0, and in seats 0
/// and 2, for `games[k]` games seeded by `seed(option set, players, k)` for these three `k`.
pub fn decision_runs<G: Game>(
    settings: &[Value],
    players: std::ops::RangeInclusive<usize>,
    games: [u64; 3],
    seed: impl Fn(usize, usize, usize) -> u64,
) -> Vec<DecisionRun<G>> {
    let mut runs = Vec::new();
    for (i, options) in settings.iter().enumerate() {
        let map = options.as_object().cloned().unwrap_or_default();
        for n in players.clone() {
            let Ok(game) = G::from_options(n, &map) else {
                continue;
            };
            let game = Arc::new(game);
            let all = (1u32 << n) - 1;
            for (k, mask) in [all, 1, 0b101 & all].into_iter().enumerate() {
                let seed = seed(i, n, k);
                runs.push(DecisionRun {
                    label: format!("options {i} players {n} mask {mask:#b} seed {seed}"),
                    game: Arc::clone(&game),
                    mask,
                    games: games[k],
                    seed,
                });
            }
        }
    }
    runs
}

/// The number of decisions of `run` and a fingerprint of them: a hash of every (game, seat,
/// chosen action) in order, so any changed decision changes it.
pub fn decision_fingerprint<G: Game, B: Bot<G>>(
    run: &DecisionRun<G>,
    bot: impl Fn() -> B,
) -> (usize, u64) {
    let mut hash = run.seed;
    let decisions =
        play_bot_decisions(&run.game, bot, run.mask, run.games, run.seed, |gi, p, a| {
            hash = derive_seed(hash, gi << 40 | (p as u64) << 32 | u64::from(a));
        });
    (decisions, hash)
}

/// The environment variable that makes [`check_pinned_decisions`] print the table of the current
/// decisions (`CARDTABLE_BLESS=1 cargo test ... -- --nocapture`), to paste over a pinned table
/// after a deliberate change of a bot.
pub const BLESS_VAR: &str = "CARDTABLE_BLESS";

/// Checks that the bot `bot()` still makes the decisions pinned in `pinned`, one row
/// `(label, decisions, fingerprint)` per run of `runs` in the same order (see
/// [`decision_fingerprint`]). Panics naming the first run whose decisions differ; with
/// [`BLESS_VAR`] set it first prints the table of the current decisions. Returns the number of
/// decisions checked.
///
/// It keeps a faster rewrite or a clean-up of a bot honest: every decision must stay the same.
/// A game's table is recorded once from a bot proven to decide as its evaluation as first
/// written, and regenerated only after a deliberate change of its play:
/// `CARDTABLE_BLESS=1 cargo test -p cardtable-engine --release pinned -- --nocapture` prints the
/// rows to paste over it.
pub fn check_pinned_decisions<G: Game, B: Bot<G>>(
    bot: impl Fn() -> B,
    runs: &[DecisionRun<G>],
    pinned: &[(&str, usize, u64)],
) -> usize {
    let got: Vec<(usize, u64)> = runs.iter().map(|r| decision_fingerprint(r, &bot)).collect();
    if std::env::var_os(BLESS_VAR).is_some() {
        println!(
            "\n{}: the current decisions, to paste over the pinned table:",
            G::ID
        );
        for (run, (decisions, hash)) in runs.iter().zip(&got) {
            println!("    ({:?}, {decisions}, {hash:#018x}),", run.label);
        }
    }
    let labels: Vec<&str> = runs.iter().map(|r| r.label.as_str()).collect();
    let pinned_labels: Vec<&str> = pinned.iter().map(|row| row.0).collect();
    assert_eq!(
        labels,
        pinned_labels,
        "{}: the runs differ from the pinned table (set {BLESS_VAR}=1 to print a new one)",
        G::ID
    );
    for ((run, &(decisions, hash)), &(_, want_decisions, want_hash)) in
        runs.iter().zip(&got).zip(pinned)
    {
        assert!(
            (decisions, hash) == (want_decisions, want_hash),
            "{} {} (options {:?}): the bot's decisions changed: {decisions} decisions with \
             fingerprint {hash:#018x}, pinned {want_decisions} with {want_hash:#018x} (if the \
             change is deliberate, set {BLESS_VAR}=1 to print the new table)",
            G::ID,
            run.label,
            run.game.options()
        );
    }
    got.iter().map(|&(decisions, _)| decisions).sum()
}

/// The share of the games won by built-in bot `bot` (as a fraction, shared wins split) against
/// `random` in every other seat, over `games_per_seat` seeded games with the bot in each seat in
/// turn.
pub fn win_share_against_random<G: Game>(game: &G, bot: &str, games_per_seat: u64) -> f64 {
    let n = game.players();
    let mut shares = 0u128;
    for seat in 0..n {
        let mut bots = vec!["random".to_string(); n];
        bots[seat] = bot.to_string();
        let config = SimConfig {
            threads: Some(1),
            keep_games: false,
            ..SimConfig::new(games_per_seat, 0x5EED + seat as u64, bots)
        };
        let result = sim::simulate(game, &config, &|_| true)
            .unwrap_or_else(|e| panic!("{}: bot {bot}: {e}", G::ID));
        shares += result.seats[seat].win_shares;
    }
    shares as f64 / (SHARE_DENOMINATOR as f64 * (games_per_seat * n as u64) as f64)
}

/// Checks that every built-in bot of `game` wins a larger share than a seat's fair share
/// (`1 / players`) times `margin` against `random` opponents, over `games_per_seat` games per
/// seat (see [`win_share_against_random`]).
pub fn check_bots_beat_random<G: Game>(game: &G, games_per_seat: u64, margin: f64) {
    let fair = 1.0 / game.players() as f64;
    for &bot in G::bot_names() {
        let share = win_share_against_random(game, bot, games_per_seat);
        assert!(
            share > fair * margin,
            "{} players={}: bot {bot} wins {share:.3} against random, not above {:.3}",
            G::ID,
            game.players(),
            fair * margin
        );
    }
}

/// Checks the bot contract on bot specs: `random` and every built-in bot name build; an unknown
/// name, an empty name, and a nonsense parameter for any bot are [`EngineError::InvalidOption`]
/// errors, never a panic; a simulation naming a bad bot fails before playing; the game's
/// [`Game::SEARCH_DEFAULTS`] parse.
pub fn check_bot_specs<G: Game>(game: &G) {
    if let Err(e) = crate::search::MctsParams::game_defaults::<G>() {
        panic!("{}: SEARCH_DEFAULTS does not parse: {e}", G::ID);
    }
    let build = |spec: &str| {
        catch_unwind(AssertUnwindSafe(|| sim::make_bot(game, spec).map(|_| ())))
            .unwrap_or_else(|_| panic!("{}: bot spec {spec:?} panics", G::ID))
    };
    for name in std::iter::once("random").chain(G::bot_names().iter().copied()) {
        if let Err(e) = build(name) {
            panic!("{}: built-in bot {name:?} does not build: {e}", G::ID);
        }
        for param in ["not a parameter", "", "-1e999x", ":"] {
            let spec = format!("{name}:{param}");
            assert!(
                matches!(build(&spec), Err(EngineError::InvalidOption(_))),
                "{}: bot spec {spec:?} is not rejected",
                G::ID
            );
        }
    }
    // `bot_usages` spells every bot: its name, with `[:X]` exactly when it takes a parameter
    // (one without one rejects any).
    assert_eq!(
        G::bot_usages().len(),
        G::bot_names().len(),
        "{}: bot_usages",
        G::ID
    );
    for (&name, &usage) in G::bot_names().iter().zip(G::bot_usages()) {
        let takes = match usage.strip_prefix(name) {
            Some("") => false,
            Some(p) if p.starts_with("[:") && p.ends_with(']') && p.len() > 3 => true,
            _ => panic!("{}: bot {name:?} is spelled {usage:?}", G::ID),
        };
        assert!(
            takes
                || matches!(
                    build(&format!("{name}:1")),
                    Err(EngineError::InvalidOption(_))
                ),
            "{}: bot {name:?} is spelled {usage:?} but takes a parameter",
            G::ID
        );
    }
    for spec in ["no_such_bot", "", ":", "Random", "random "] {
        assert!(
            matches!(build(spec), Err(EngineError::InvalidOption(_))),
            "{}: bot spec {spec:?} is not rejected",
            G::ID
        );
    }
    let config = SimConfig {
        threads: Some(1),
        ..SimConfig::new(1, 0, vec!["no_such_bot".to_string(); game.players()])
    };
    assert!(
        matches!(
            sim::simulate(game, &config, &|_| true),
            Err(EngineError::InvalidOption(_))
        ),
        "{}: a simulation with an unknown bot is not rejected",
        G::ID
    );
}

/// How much of the kit to run (games per configuration).
#[derive(Clone, Copy, Debug)]
pub struct KitSize {
    /// Random playouts with the default options at each player count.
    pub default_playouts: u64,
    /// Random playouts of every other option set.
    pub variant_playouts: u64,
    /// Games of the fast-path check per configuration.
    pub fast_path_games: u64,
    /// Games per seat in the bots-beat-random check (default options, smallest and largest
    /// player count).
    pub bot_games_per_seat: u64,
    /// A bot must win more than `margin / players` of the games.
    pub bot_margin: f64,
    /// Games per built-in bot of the check that bots choose the same without the legal list.
    pub unlisted_games: u64,
    /// Random games of the determinizer check (default options, smallest and largest player
    /// count).
    pub determinizer_playouts: u64,
    /// The determinizer check samples every this many nodes of those games (and the last).
    pub determinizer_every: usize,
}

impl Default for KitSize {
    fn default() -> Self {
        Self {
            default_playouts: 10,
            variant_playouts: 3,
            fast_path_games: 5,
            bot_games_per_seat: 100,
            bot_margin: 1.1,
            unlisted_games: 4,
            determinizer_playouts: 2,
            determinizer_every: 7,
        }
    }
}

/// Runs the playout, round-trip and fast-path checks over every configuration of `G`.
pub fn check_rules<G: Game>(size: &KitSize) {
    for (i, (_, options, game)) in configurations::<G>().into_iter().enumerate() {
        let game = Arc::new(game);
        let playouts = if options.is_empty() {
            size.default_playouts
        } else {
            size.variant_playouts
        };
        check_random_playouts(&game, playouts, i as u64);
        check_fast_paths(&*game, size.fast_path_games, i as u64);
    }
}

/// Runs the bot checks (specs and bots-beat-random) with the default options at the smallest and
/// the largest player count.
pub fn check_bots<G: Game>(size: &KitSize) {
    let (lo, hi) = G::PLAYERS;
    for n in [lo, hi] {
        let game = G::from_options(n, &Map::new())
            .unwrap_or_else(|e| panic!("{} players={n}: {e}", G::ID));
        check_bot_specs(&game);
        check_bots_beat_random(&game, size.bot_games_per_seat, size.bot_margin);
        for (i, &bot) in G::bot_names().iter().enumerate() {
            check_unlisted_decisions(&game, bot, size.unlisted_games, i as u64);
            check_batch_games_match_stepping(&game, bot, size.unlisted_games, i as u64);
        }
    }
}

/// Runs the generic determinizer checks ([`check_determinizer`]) with the default options at the
/// smallest and the largest player count, when `G` has a determinizer.
pub fn check_determinization<G: Game>(size: &KitSize) {
    let (lo, hi) = G::PLAYERS;
    for n in [lo, hi] {
        let game = G::from_options(n, &Map::new())
            .unwrap_or_else(|e| panic!("{} players={n}: {e}", G::ID));
        let start = game.initial_state();
        if game
            .determinize(&start, 0, &mut SplitMix64::new(0))
            .is_none()
        {
            return;
        }
        let game = Arc::new(game);
        let cases = check_determinizer(
            &game,
            size.determinizer_playouts,
            n as u64,
            every_nth(size.determinizer_every),
            |_| {},
        );
        assert!(cases > 0, "{}: no determinized node", G::ID);
    }
}

/// Every check of the kit over `G` (see [`check_rules`], [`check_bots`] and
/// [`check_determinization`]).
pub fn check_game<G: Game>(size: &KitSize) {
    check_rules::<G>(size);
    check_bots::<G>(size);
    check_determinization::<G>(size);
}

/// The kit over every registered game: one module per game with one test per group of checks.
#[cfg(test)]
mod every_game {
    macro_rules! kit_tests {
        ($($module:ident :: $game:ident),*) => {
            $(
                mod $module {
                    use crate::games::$module::$game as G;
                    use crate::testing::{check_bots, check_determinization, check_rules, KitSize};

                    #[test]
                    fn rules() {
                        check_rules::<G>(&KitSize::default());
                    }

                    #[test]
                    fn bots() {
                        check_bots::<G>(&KitSize::default());
                    }

                    #[test]
                    fn determinizer() {
                        check_determinization::<G>(&KitSize::default());
                    }
                }
            )*
        };
    }

    crate::games::for_each_game!(kit_tests);
}
