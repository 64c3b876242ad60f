//! Unit checks of the `greedy` bot's lookahead (a child module of `bots`, so that it reaches
//! the lookahead's private parts: the boards, deals and resolution it plays turns with).

use super::super::tests::game;
use super::*;
use crate::game::{Game, TERMINAL};
use crate::rng::derive_seed;
use crate::session::Session;
use serde_json::json;
use std::sync::Arc;

/// Reveals `cards` on `b` and resolves the whole queue with the bot's policy, the way the
/// lookahead plays a turn (the last card for its penalty only).
fn play_turn<T: TurnPlay>(g: &Trafficars, b: &mut T, cards: &[u8; MAX_SEATS]) {
    b.reveal(g, cards);
    let queue = Queue::of(g, cards);
    for i in 0..queue.len() {
        if i + 1 == queue.len() {
            b.play_last(g, queue.seat(i), queue.card(i));
        } else {
            b.play(g, queue.seat(i), queue.card(i), queue.card(i + 1));
        }
    }
}

/// Asserts that every seat took as many penalty cards on the summary `quick` as on the lanes
/// from `before` to `exact`; `case` names the case in the message.
fn assert_same_taken(
    g: &Trafficars,
    before: &Board,
    exact: &Board,
    quick: &TurnBoard,
    case: impl Fn() -> String,
) {
    for p in 0..g.players {
        assert_eq!(
            exact.penalties[p] - before.penalties[p],
            quick.taken[p],
            "{}, board {before:?}",
            case()
        );
    }
}

/// The option sets the lane summaries are checked with: the defaults, no lane limit, more,
/// fewer and tiny lanes, no special cards, a short deck and a long hand.
fn summary_settings() -> [serde_json::Value; 8] {
    [
        json!({}),
        json!({"max_cars": null}),
        json!({"lanes": 5, "max_cars": 2}),
        json!({"lanes": 1, "max_cars": 1}),
        json!({"lanes": 2, "max_cars": 1}),
        json!({"special_cards": false, "lanes": 4}),
        json!({"max_number": 12, "hand_size": 5, "max_cars": 3}),
        json!({"hand_size": 20, "lanes": 2, "max_cars": 6}),
    ]
}

/// Calls `check` at every node of `games` random games (a uniform action or chance outcome
/// at each node) of each setting of `settings` with 2 to 5 players (the counts the setting
/// allows), with the game, the state, its legal actions (empty at a chance node), the
/// setting and a stream for the check's own draws, which also picks the moves.
fn for_random_nodes(
    settings: &[serde_json::Value],
    (stream, deals): (u64, u64),
    games: u64,
    mut check: impl FnMut(&Trafficars, &TrafficarsState, &[u32], &serde_json::Value, &mut SplitMix64),
) {
    for (i, opts) in settings.iter().enumerate() {
        for players in 2..=5 {
            let map = opts.as_object().cloned().unwrap_or_default();
            let Ok(g) = Trafficars::from_options(players, &map).map(Arc::new) else {
                continue;
            };
            let mut rng = SplitMix64::new(derive_seed(stream, (10 * i + players) as u64));
            let (mut legal, mut outcomes) = (Vec::new(), Vec::new());
            for gi in 0..games {
                let mut s = Session::new(Arc::clone(&g), Some(derive_seed(deals, gi)));
                while g.current_player(s.state()) != TERMINAL {
                    let st = *s.state();
                    let chance = g.current_player(&st) == crate::game::CHANCE;
                    legal.clear();
                    if !chance {
                        g.legal_actions(&st, &mut legal);
                    }
                    check(&g, &st, &legal, opts, &mut rng);
                    let a = if chance {
                        g.chance_outcomes(&st, &mut outcomes);
                        outcomes[rng.below(outcomes.len() as u64) as usize].0
                    } else {
                        legal[rng.below(legal.len() as u64) as usize]
                    };
                    s.apply(i64::from(a), None).unwrap();
                }
            }
        }
    }
}

/// A turn played out on the lane summaries (with the loops over three lanes unrolled or not)
/// gives every seat the same penalty cards as on the lanes themselves, for every card set
/// revealed at the start of any turn.
#[test]
fn turn_summary_takes_the_same_penalties() {
    let mut checked = 0;
    for_random_nodes(&summary_settings(), (11, 5), 30, |g, st, _, opts, rng| {
        if st.phase != Phase::Commit || st.commitments != [0; MAX_SEATS] {
            return;
        }
        let players = g.players;
        let start = TurnBoard::of(g, &st.board).expect("a summary");
        for (t, lane) in start.lanes.iter().zip(&st.board.lanes[..g.lanes]) {
            assert_eq!(Some(*t), TurnLane::of(g, lane));
        }
        let mut on_table = 0u64;
        for lane in &st.board.lanes[..g.lanes] {
            on_table |= lane.cards_mask();
        }
        // Any cards not on the table, specials among them more often.
        let pool = g.deck & !on_table;
        for _ in 0..20 {
            let mut cards = [0u8; MAX_SEATS];
            let mut left = pool;
            for slot in cards.iter_mut().take(players) {
                let specials = left & (0b111_111_111 << 54);
                let from = if specials != 0 && rng.below(3) == 0 {
                    specials
                } else {
                    left
                };
                let Some(c) = bits::pick(from, rng) else {
                    continue;
                };
                *slot = c as u8;
                left &= !bits::bit_in(c, FIRST_CARD, LAST_CARD);
            }
            // The rules' own reveal and queue.
            let mut exact = st.board;
            g.reveal(&mut exact, &cards);
            while GreedyBot::resolve_head(g, &mut exact) {}
            // The lookahead's queue, on the board and on the summary.
            let (mut board, mut quick) = (st.board, start);
            play_turn(g, &mut board, &cards);
            play_turn(g, &mut quick, &cards);
            if g.lanes == 3 {
                let mut unrolled = Lanes::<3>(start);
                play_turn(g, &mut unrolled, &cards);
                assert_eq!(unrolled.0.taken, quick.taken);
            }
            assert_eq!(board.penalties, exact.penalties);
            assert_same_taken(g, &st.board, &exact, &quick, || {
                format!("{opts} {players} players, cards {cards:?}")
            });
            checked += 1;
        }
    });
    assert!(checked > 10_000, "only {checked} turns checked");
}

/// The choice of a numbered card played out on the lane summaries (the option, then the
/// rest of the turn) gives every seat the same penalty cards as on the lanes themselves, for
/// every option of every such choice in random games of several settings.
#[test]
fn numbered_choice_summary_takes_the_same_penalties() {
    let mut checked = 0;
    for_random_nodes(&summary_settings(), (23, 7), 40, |g, st, legal, opts, _| {
        let choice = g.head_choice(&st.board);
        let start = choice.and_then(|(_, _, c)| TurnBoard::of_numbered(g, &st.board, c.kind));
        let (Phase::Resolve, Some((seat, card, c)), Some(start)) = (st.phase, choice, start) else {
            return;
        };
        for &a in legal {
            let mut exact = st.board;
            g.carry_out(&mut exact, seat, card, c.kind, a);
            g.next_card(&mut exact, card);
            GreedyBot::finish_turn(g, &mut exact);
            let mut quick = start;
            quick.carry_out_numbered(g, seat, card, c.kind, a);
            quick.finish_numbered(g, &st.board);
            assert_same_taken(g, &st.board, &exact, &quick, || {
                format!("{opts} {} players, option {a}", g.players)
            });
            checked += 1;
        }
    });
    assert!(checked > 2_000, "only {checked} options checked");
}

/// Reading the lanes once per stretch in which they gain only revealed cards remembers the
/// same cards as reading them at every state it sees, over random games of several settings,
/// the bot seeing every state or only some.
#[test]
fn observing_once_per_stretch_sees_every_card() {
    let mut checked = 0;
    for (i, opts) in [
        json!({}),
        json!({"lanes": 5, "max_cars": 2}),
        json!({"lanes": 1}),
    ]
    .iter()
    .enumerate()
    {
        for players in 2..=5 {
            let g = game(players, opts.clone());
            let mut rng = SplitMix64::new(derive_seed(17, (10 * i + players) as u64));
            let mut legal = Vec::new();
            for gi in 0..20u64 {
                let mut bot = GreedyBot::default();
                bot.reset(&g, 0, SplitMix64::new(gi));
                let mut every = 0u64;
                let mut s = Session::new(Arc::clone(&g), Some(derive_seed(9, gi)));
                // Every state in even games, about half of them in odd ones.
                loop {
                    let st = *s.state();
                    if gi % 2 == 0 || rng.below(2) == 0 {
                        bot.observe(&g, &st);
                        for lane in &st.board.lanes[..g.lanes] {
                            every |= lane.cards_mask();
                        }
                        every |= st.board.revealed_mask;
                        assert_eq!(bot.seen, every, "{opts} {players} players, game {gi}");
                        checked += 1;
                    }
                    let cp = g.current_player(&st);
                    if cp == TERMINAL {
                        break;
                    }
                    let a = if cp == crate::game::CHANCE {
                        let mut out = Vec::new();
                        g.chance_outcomes(&st, &mut out);
                        out[rng.below(out.len() as u64) as usize].0
                    } else {
                        g.legal_actions(&st, &mut legal);
                        legal[rng.below(legal.len() as u64) as usize]
                    };
                    s.apply(i64::from(a), None).unwrap();
                }
            }
        }
    }
    assert!(checked > 5_000, "only {checked} states checked");
}

/// The bot's choice is the same when every hidden part of the state is blanked out.
#[test]
fn greedy_ignores_hidden_information() {
    let g = game(4, json!({}));
    let mut bots: Vec<GreedyBot> = vec![GreedyBot::default(); 4];
    let mut legal_v = Vec::new();
    for gi in 0..40u64 {
        let mut s = Session::new(Arc::clone(&g), Some(derive_seed(3, gi)));
        for (i, b) in bots.iter_mut().enumerate() {
            b.reset(&g, i, SplitMix64::new(derive_seed(gi, i as u64)));
        }
        while g.current_player(s.state()) != TERMINAL {
            let cp = g.current_player(s.state()) as usize;
            g.legal_actions(s.state(), &mut legal_v);
            let mut twin = bots[cp].clone();
            let a = bots[cp].act(&g, s.state(), &legal_v);
            let mut hidden = *s.state();
            for p in (0..4).filter(|&p| p != cp) {
                hidden.hands[p] = 0;
                if hidden.commitments[p] != 0 {
                    hidden.commitments[p] = 62;
                }
            }
            hidden.deck = 0;
            assert_eq!(twin.act(&g, &hidden, &legal_v), a);
            s.apply(i64::from(a), None).unwrap();
            for b in bots.iter_mut() {
                b.observe(&g, s.state());
            }
        }
    }
}

/// Plain `greedy` remembers at each of its commits exactly the cards a bot following every
/// state has seen (every card that was on the table, revealed, or shown as the last turn's
/// reveal: a card carried out in the step that reveals it and taken in that step is never
/// shown otherwise), over random games of several settings: its memory needs no call between
/// its decisions.
#[test]
fn the_formula_remembers_every_card_at_its_commits() {
    let mut checked = 0;
    for_random_nodes(
        &summary_settings(),
        (51, 53),
        12,
        |g, st, _legal, opts, _| {
            // Every card seen so far, by a bot that follows every state of this game.
            thread_local! {
                static EVERY: std::cell::RefCell<(u64, Vec<GreedyBot>)> =
                    const { std::cell::RefCell::new((0, Vec::new())) };
            }
            EVERY.with_borrow_mut(|(every, bots)| {
                // A new game: the first commit of its first turn (the session deals by itself).
                let first =
                    st.turn == 0 && st.phase == Phase::Commit && st.commitments == [0; MAX_SEATS];
                if first || bots.len() != g.players {
                    *every = 0;
                    *bots = (0..g.players)
                        .map(|seat| {
                            let mut bot = GreedyBot::default();
                            bot.reset(g, seat, SplitMix64::new(seat as u64));
                            bot
                        })
                        .collect();
                }
                for lane in &st.board.lanes[..g.lanes] {
                    *every |= lane.cards_mask();
                }
                *every |= st.board.revealed_mask;
                for &c in &st.board.last_revealed[..g.players] {
                    *every |= 1u64 << c & CARD_BITS;
                }
                let seat = usize::try_from(g.current_player(st)).unwrap_or(usize::MAX);
                if let (Phase::Commit, Some(bot)) = (st.phase, bots.get_mut(seat)) {
                    bot.remember(g, st);
                    assert_eq!(
                        bot.seen, *every,
                        "{opts}, {} players, seat {seat}",
                        g.players
                    );
                    checked += 1;
                }
            });
        },
    );
    assert!(checked > 5_000, "only {checked} commits checked");
}

/// A special card's option chosen on lane summaries made mid-turn is the one chosen on the
/// lanes themselves, at every resolution decision of a special card in random games of several
/// settings where a summary holds the lanes.
#[test]
fn special_choices_on_summaries_match_the_lanes() {
    let (mut checked, mut summarised) = (0, 0);
    for_random_nodes(
        &summary_settings(),
        (61, 67),
        40,
        |g, st, legal, opts, _| {
            let special = matches!(
                st.choice.kind,
                Decision::Ambulance | Decision::Police | Decision::PoliceTake | Decision::TowTruck
            );
            if st.phase != Phase::Resolve || !special || legal.len() < 2 {
                return;
            }
            let mut bot = GreedyBot::default();
            let seat = usize::try_from(g.current_player(st)).unwrap_or(0);
            bot.reset(g, seat, SplitMix64::new(1));
            checked += 1;
            if let Some(a) = bot.special_option(g, st, legal) {
                assert_eq!(a, bot.choose_option(g, st, legal), "{opts}, {st:?}");
                summarised += 1;
            }
        },
    );
    assert!(
        summarised > 1_000,
        "only {summarised} of {checked} decisions summarised"
    );
}

/// The fixed count's lookahead (`greedy:3`), compiled apart (deals on the stack, their count
/// known when compiling), commits the same card as the code every other count runs, drawing
/// the same deals, at every commit decision of random games of every summary setting: every
/// seat's bot sees every state of its game, and both paths run from a copy of it at each of its
/// decisions.
#[test]
fn fixed_count_decides_as_any_other_count_would() {
    let mut checked = 0;
    let mut bots: Vec<GreedyBot> = Vec::new();
    for_random_nodes(
        &summary_settings(),
        (41, 43),
        6,
        |g, st, legal, opts, rng| {
            // A new game: the first commit of its first turn (the deal comes before it).
            let first =
                st.turn == 0 && st.phase == Phase::Commit && st.commitments == [0; MAX_SEATS];
            if first || bots.len() != g.players {
                bots = (0..g.players)
                    .map(|seat| {
                        let mut bot = GreedyBot::with_samples(FIXED_SAMPLES);
                        bot.reset(g, seat, SplitMix64::new(rng.next()));
                        bot
                    })
                    .collect();
            }
            for bot in &mut bots {
                bot.observe(g, st);
            }
            let seat = usize::try_from(g.current_player(st)).unwrap_or(usize::MAX);
            let Some(bot) = bots.get_mut(seat).filter(|_| st.phase == Phase::Commit) else {
                return;
            };
            let mut generic = bot.clone();
            let fast = bot.choose_card_steps::<true>(g, st, legal);
            let other = generic.choose_card_steps::<false>(g, st, legal);
            assert_eq!(fast, other, "{opts}, {} players, seat {seat}", g.players);
            assert_eq!(bot.rng, generic.rng, "{opts}: the two drew differently");
            checked += 1;
        },
    );
    assert!(checked > 1_000, "only {checked} decisions checked");
}
