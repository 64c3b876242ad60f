//! Many decisions at once ([`decide_all`]): a fresh built-in bot decides in each session of a
//! batch, on a thread pool, e.g. to label states with a search's visit counts for training.
//!
//! It owns the batch's seeding, threads and stopping only: every decision is the bot's own, made
//! through [`AnyGame::bot`] as the per-step API makes it.

use crate::error::{EngineError, Result};
use crate::game::{SearchStats, CHANCE};
use crate::rng::derive_seed;
use crate::session::{AnyGame, AnySession};
use crate::sim::{check_threads, thread_pool, while_reporting, SearchStops};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What [`decide_all`] found in one session.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The action the bot chose.
    pub action: u32,
    /// The bot's [`crate::Bot::search_stats`] of the decision: `None` for a bot that does not
    /// search, and for a decision with a single legal action (taken without a search).
    pub stats: Option<SearchStats>,
}

/// The decision of a fresh bot `spec` in the seat to move of each of `sessions`, on `threads`
/// worker threads (`None`: one per core).
///
/// Session `i` gets the bot seeded with `derive_seed(seed, i)`, shown the session's game from its
/// start (as [`crate::session::AnyBot::observe`] shows it, for bots with a memory) and asked for
/// its action: exactly what seating that bot by hand, observing and acting would give, so the
/// results do not depend on the threads.
///
/// `progress(done)` is called from the calling thread about ten times a second with the number
/// of decisions made; when it returns `false` the batch stops (a search in progress ends after
/// its current iteration). Entry `i` of the result is session `i`'s decision, `None` for one the
/// stop left unmade or cut short: every entry is `Some` unless the batch was stopped, and each
/// decision made is the one an unstopped batch gives.
///
/// # Errors
/// [`EngineError::InvalidOption`] for an unknown bot, a bad parameter or thread count;
/// [`EngineError::IllegalAction`] naming the session (`state i: ...`) for a session of another
/// game, at a chance node or over.
pub fn decide_all(
    game: &dyn AnyGame,
    sessions: &[&dyn AnySession],
    spec: &str,
    seed: u64,
    threads: Option<usize>,
    progress: &dyn Fn(u64) -> bool,
) -> Result<Vec<Option<Decision>>> {
    let seeds: Vec<u64> = (0..sessions.len() as u64)
        .map(|i| derive_seed(seed, i))
        .collect();
    decide_seeded(game, sessions, spec, &seeds, threads, progress)
}

/// [`decide_all`] with the bot of session `i` seeded with `seeds[i]` itself: a session's decision
/// then depends on its own seed only, not on its place in the batch.
///
/// # Errors
/// As [`decide_all`], and [`EngineError::InvalidOption`] for a number of seeds other than the
/// number of sessions.
pub fn decide_seeded(
    game: &dyn AnyGame,
    sessions: &[&dyn AnySession],
    spec: &str,
    seeds: &[u64],
    threads: Option<usize>,
    progress: &dyn Fn(u64) -> bool,
) -> Result<Vec<Option<Decision>>> {
    check_threads(threads)?;
    if seeds.len() != sessions.len() {
        return Err(EngineError::InvalidOption(format!(
            "{} seeds given for {} states",
            seeds.len(),
            sessions.len()
        )));
    }
    // An unknown bot or a bad parameter is refused before any session is looked at, and a
    // session without a seat to decide before any search starts.
    game.bot(spec, 0, seeds.first().copied().unwrap_or(0))?;
    let seats = sessions
        .iter()
        .enumerate()
        .map(|(i, session)| seat_to_decide(i, game, *session))
        .collect::<Result<Vec<_>>>()?;
    let pool = thread_pool(threads)?;
    let stopped = AtomicBool::new(false);
    let done = AtomicU64::new(0);
    let searches = SearchStops::default();
    let stop = || {
        stopped.store(true, Ordering::SeqCst);
        searches.raise();
    };
    let decide = |i: usize, session: &dyn AnySession, seat: usize| -> Result<Option<Decision>> {
        let at = |e: EngineError| e.prefixed(&format!("state {i}: "));
        let seed = seeds.get(i).copied().unwrap_or(0);
        let mut bot = game.bot(spec, seat, seed).map_err(at)?;
        searches.add(bot.stop_flag());
        // Checked after the bot's flag is kept, so that a stop is never missed in between.
        if stopped.load(Ordering::SeqCst) {
            return Ok(None);
        }
        bot.observe(session).map_err(at)?;
        let action = bot.act(session).map_err(at)?;
        if stopped.load(Ordering::SeqCst) {
            // The search may have been cut short: not the decision asked for.
            return Ok(None);
        }
        done.fetch_add(1, Ordering::Relaxed);
        Ok(Some(Decision {
            action,
            stats: bot.search_stats(),
        }))
    };
    let decided = while_reporting(&done, progress, stop, || {
        pool.install(|| {
            sessions
                .par_iter()
                .zip(&seats)
                .enumerate()
                .map(|(i, (session, &seat))| {
                    // An error (a session of another game) ends the searches still running.
                    decide(i, *session, seat).inspect_err(|_| stop())
                })
                .collect::<Result<Vec<_>>>()
        })
    })?;
    if decided.iter().all(Option::is_some) {
        progress(done.load(Ordering::Relaxed));
    }
    Ok(decided)
}

/// The seat to decide in session `i`, or the error naming it: a state of another game, a chance
/// node or a game over.
fn seat_to_decide(i: usize, game: &dyn AnyGame, session: &dyn AnySession) -> Result<usize> {
    // A state of another game is named here, in order, rather than by whichever search meets
    // it first.
    if session.game_id() != game.id() {
        return Err(EngineError::IllegalAction(format!(
            "state {i}: this bot plays {}, not that state's {}",
            game.id(),
            session.game_id()
        )));
    }
    let player = session.current_player();
    usize::try_from(player).map_err(|_| {
        let why = if player == CHANCE {
            "a chance outcome is due, no seat decides"
        } else {
            "the game is over"
        };
        EngineError::IllegalAction(format!("state {i}: {why}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;
    use serde_json::Map;

    /// Sessions of `game` at decisions: seeded games played at random for a few steps each
    /// (some at the start of a hand, some in the middle).
    fn decision_sessions(game: &dyn AnyGame, count: u64) -> Vec<Box<dyn AnySession>> {
        (0..count)
            .map(|g| {
                let mut s = game.new_session(Some(derive_seed(7, g)));
                let mut rng = crate::rng::SplitMix64::new(g);
                for _ in 0..(g % 23) {
                    let p = s.current_player();
                    if p < 0 {
                        break;
                    }
                    let legal = s.legal_actions();
                    let pick = legal[rng.below(legal.len() as u64) as usize];
                    s.apply(i64::from(pick), Some(i64::from(p))).unwrap();
                }
                s
            })
            .filter(|s| s.current_player() >= 0)
            .collect()
    }

    /// The decisions of a batch that was not stopped.
    fn made(decided: Result<Vec<Option<Decision>>>) -> Vec<Decision> {
        decided
            .unwrap()
            .into_iter()
            .map(|d| d.expect("a decision of an unstopped batch"))
            .collect()
    }

    fn as_refs(sessions: &[Box<dyn AnySession>]) -> Vec<&dyn AnySession> {
        sessions.iter().map(|s| &**s).collect()
    }

    fn ttt() -> Box<dyn AnyGame> {
        registry::make("turn_the_tide", 4, &Map::new()).unwrap()
    }

    /// Turn the Tide for four and `count` of its sessions at decisions (see
    /// [`decision_sessions`]).
    fn ttt_decisions(count: u64) -> (Box<dyn AnyGame>, Vec<Box<dyn AnySession>>) {
        let game = ttt();
        let sessions = decision_sessions(&*game, count);
        (game, sessions)
    }

    /// The decisions of [`decide_all`] on `sessions`, never stopped.
    fn decided(
        game: &dyn AnyGame,
        sessions: &[Box<dyn AnySession>],
        spec: &str,
        seed: u64,
        threads: Option<usize>,
    ) -> Vec<Decision> {
        made(decide_all(
            game,
            &as_refs(sessions),
            spec,
            seed,
            threads,
            &|_| true,
        ))
    }

    #[test]
    fn each_decision_is_the_bot_seated_by_hand_whatever_the_threads() {
        let (game, sessions) = ttt_decisions(24);
        let spec = "mcts:iterations=60";
        let one = decided(&*game, &sessions, spec, 5, Some(1));
        let two = decided(&*game, &sessions, spec, 5, Some(2));
        assert_eq!(one, two);
        assert_eq!(one.len(), sessions.len());
        for (i, (session, decision)) in sessions.iter().zip(&one).enumerate() {
            let seat = usize::try_from(session.current_player()).unwrap();
            let mut bot = game.bot(spec, seat, derive_seed(5, i as u64)).unwrap();
            bot.observe(&**session).unwrap();
            assert_eq!(bot.act(&**session).unwrap(), decision.action, "state {i}");
            assert_eq!(bot.search_stats(), decision.stats, "state {i}");
        }
        assert!(one.iter().any(|d| d.stats.is_some()));
    }

    #[test]
    fn a_bot_without_a_search_gives_no_statistics() {
        let (game, sessions) = ttt_decisions(5);
        let decisions = decided(&*game, &sessions, "greedy", 0, None);
        assert!(decisions.iter().all(|d| d.stats.is_none()));
        for (session, d) in sessions.iter().zip(&decisions) {
            assert!(session.legal_actions().contains(&d.action));
        }
    }

    #[test]
    fn bad_requests_are_refused_naming_the_state() {
        let game = ttt();
        let at_chance = game.new_session(None);
        let sessions = decision_sessions(&*game, 3);
        let mut refs = as_refs(&sessions);
        refs.push(&*at_chance);
        let err = decide_all(&*game, &refs, "random", 0, None, &|_| true).unwrap_err();
        let at = refs.len() - 1;
        assert_eq!(
            err,
            EngineError::IllegalAction(format!(
                "state {at}: a chance outcome is due, no seat decides"
            ))
        );
        let other = registry::make("goofspiel", 2, &Map::new()).unwrap();
        let foreign = decision_sessions(&*other, 2);
        let refs = as_refs(&foreign);
        assert!(matches!(
            decide_all(&*game, &refs, "random", 0, None, &|_| true),
            Err(EngineError::IllegalAction(m)) if m.starts_with("state 0: this bot plays turn_the_tide")
        ));
        assert!(matches!(
            decide_all(&*game, &[], "nobody", 0, None, &|_| true),
            Err(EngineError::InvalidOption(_))
        ));
        assert!(matches!(
            decide_all(&*game, &[], "random", 0, Some(0), &|_| true),
            Err(EngineError::InvalidOption(_))
        ));
        assert_eq!(
            decide_all(&*game, &[], "random", 0, None, &|_| true),
            Ok(Vec::new())
        );
    }

    /// With a seed per session, a decision depends on its session and seed only: the batch
    /// reversed gives the same decisions, reversed.
    #[test]
    fn seeded_decisions_do_not_depend_on_their_place() {
        let (game, sessions) = ttt_decisions(12);
        let refs = as_refs(&sessions);
        let seeds: Vec<u64> = (0..12).map(|i| 1000 + 7 * i).collect();
        let spec = "mcts:iterations=40";
        let forward = made(decide_seeded(&*game, &refs, spec, &seeds, Some(2), &|_| {
            true
        }));
        let (mut back_refs, mut back_seeds) = (refs.clone(), seeds.clone());
        back_refs.reverse();
        back_seeds.reverse();
        let mut backward = made(decide_seeded(
            &*game,
            &back_refs,
            spec,
            &back_seeds,
            None,
            &|_| true,
        ));
        backward.reverse();
        assert_eq!(forward, backward);
        let derived: Vec<u64> = (0..12).map(|i| derive_seed(3, i)).collect();
        assert_eq!(
            decide_seeded(&*game, &refs, spec, &derived, Some(1), &|_| true).unwrap(),
            decide_all(&*game, &refs, spec, 3, Some(1), &|_| true).unwrap()
        );
        let short = decide_seeded(&*game, &refs, spec, &seeds[..3], None, &|_| true);
        assert!(
            matches!(short, Err(EngineError::InvalidOption(m)) if m == "3 seeds given for 12 states")
        );
    }

    #[test]
    fn a_stop_ends_the_searches_in_progress() {
        let (game, sessions) = ttt_decisions(4);
        let refs = as_refs(&sessions);
        // Far more iterations than the test could wait for: only the stop ends them.
        let spec = "mcts:iterations=100000000";
        let started = std::time::Instant::now();
        let decided = decide_all(&*game, &refs, spec, 0, Some(2), &|_| false).unwrap();
        assert_eq!(decided, vec![None; refs.len()]);
        assert!(started.elapsed() < std::time::Duration::from_secs(60));
    }

    /// A batch stopped midway keeps the decisions it made, each the one the whole batch gives,
    /// and leaves the others `None`.
    #[test]
    fn a_stopped_batch_keeps_the_decisions_made() {
        let (game, sessions) = ttt_decisions(40);
        let refs = as_refs(&sessions);
        let spec = "mcts:iterations=3000";
        let whole = decided(&*game, &sessions, spec, 9, Some(1));
        let stopped = decide_all(&*game, &refs, spec, 9, Some(1), &|done| done < 3).unwrap();
        assert_eq!(stopped.len(), refs.len());
        let kept = stopped.iter().filter(|d| d.is_some()).count();
        assert!(
            (3..refs.len()).contains(&kept),
            "{kept} of {} kept",
            refs.len()
        );
        for (i, (d, w)) in stopped.iter().zip(&whole).enumerate() {
            if let Some(d) = d {
                assert_eq!(d, w, "state {i}");
            }
        }
    }
}
