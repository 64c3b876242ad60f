//! Flat Monte Carlo over determinizations: every legal action is scored by the mean reward of
//! playouts after it, from sampled full states.
//!
//! Sample `i` draws one determinization and one playout seed, and plays every action from a copy
//! of that determinization with playouts seeded alike (common random numbers: the actions are
//! compared on the same hidden cards and, as far as the games stay alike, the same later draws),
//! so `samples=N` costs `N` determinizations and `N × actions` playouts per decision.

use super::mcts::MctsParams;
use super::{
    first_or_zero, parse_budget, parse_pairs, parse_reward, parse_rollout, require_determinizer,
    Playout, Reward, RolloutPolicy,
};
use crate::error::Result;
use crate::game::{Bot, Game, SearchStats};
use crate::rng::SplitMix64;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The parameters of the `flatmc` bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlatMcParams {
    /// Determinized playouts per legal action and decision; default 100.
    pub samples: u32,
    /// How playouts choose actions; default random.
    pub rollout: RolloutPolicy,
    /// What a finished playout is worth; default [`Reward::Win`].
    pub reward: Reward,
}

impl Default for FlatMcParams {
    fn default() -> Self {
        Self {
            samples: 100,
            rollout: RolloutPolicy::Random,
            reward: Reward::Win,
        }
    }
}

/// The parameter keys of `flatmc:...`, in the order [`super::SEARCH_BOT_USAGES`] spells them.
pub(super) const KEYS: &[&str] = &["samples", "rollout", "reward"];

impl FlatMcParams {
    /// The defaults for game `G`: [`FlatMcParams::default`] with the `rollout` and `reward` of
    /// the game's `mcts` defaults ([`MctsParams::for_game`]), which measured strongest there.
    pub fn for_game<G: Game>() -> Self {
        let m = MctsParams::for_game::<G>();
        Self {
            rollout: m.rollout,
            reward: m.reward,
            ..Self::default()
        }
    }

    /// Parses `"samples=100,rollout=random|greedy"` (any subset, any order; `None` means all
    /// defaults) for game `G`; [`crate::EngineError::InvalidOption`] on anything else.
    pub fn parse<G: Game>(params: Option<&str>) -> Result<Self> {
        let mut p = Self::for_game::<G>();
        for (key, value) in parse_pairs::<G>("flatmc", params, KEYS)? {
            match key {
                "samples" => p.samples = parse_budget::<G>("flatmc", key, value)?,
                "reward" => p.reward = parse_reward::<G>("flatmc", value)?,
                _ => p.rollout = parse_rollout::<G>("flatmc", value)?,
            }
        }
        Ok(p)
    }
}

/// The `flatmc` bot (see the module docs).
pub struct FlatMcBot<G: Game> {
    params: FlatMcParams,
    rng: SplitMix64,
    /// Summed reward per legal action of the current decision.
    totals: Vec<f64>,
    /// Playouts per legal action of the current decision.
    counts: Vec<u32>,
    /// The legal actions of the latest decision that searched (empty when it did not).
    searched: Vec<u32>,
    /// Samples run and the action played at that decision.
    last: (u32, u32),
    /// The legal actions of the current determinization.
    det_legal: Vec<u32>,
    /// The state a playout runs on, overwritten from the determinization for every action.
    scratch: Option<G::State>,
    playout: Playout<G>,
    /// Set to end the current decision after its sample in progress ([`Bot::stop_flag`]).
    stop: Arc<AtomicBool>,
}

debug_handle!(FlatMcBot, params, last);

impl<G: Game> FlatMcBot<G> {
    /// A bot for `game`; fails if the game has no determinizer.
    pub fn new(game: &G, params: FlatMcParams) -> Result<Self> {
        require_determinizer(game, "flatmc")?;
        Ok(Self {
            params,
            rng: SplitMix64::default(),
            totals: Vec::new(),
            counts: Vec::new(),
            searched: Vec::new(),
            last: (0, 0),
            det_legal: Vec::new(),
            scratch: None,
            playout: Playout::new(game, params.rollout, params.reward)?,
            stop: Arc::default(),
        })
    }

    /// The parameters the bot was made with.
    pub fn params(&self) -> FlatMcParams {
        self.params
    }
}

impl<G: Game> Bot<G> for FlatMcBot<G> {
    fn stop_flag(&self) -> Option<Arc<AtomicBool>> {
        Some(Arc::clone(&self.stop))
    }

    fn reset(&mut self, _game: &G, _seat: usize, rng: SplitMix64) {
        self.rng = rng;
        self.searched.clear();
    }

    fn act(&mut self, game: &G, state: &G::State, legal: &[u32]) -> u32 {
        self.searched.clear();
        let seat = match usize::try_from(game.current_player(state)) {
            Ok(seat) if legal.len() > 1 => seat,
            _ => return first_or_zero(legal),
        };
        self.totals.clear();
        self.totals.resize(legal.len(), 0.0);
        self.counts.clear();
        self.counts.resize(legal.len(), 0);
        let mut run = 0;
        for i in 0..self.params.samples {
            if i > 0 && self.stop.load(Ordering::Acquire) {
                break;
            }
            run += 1;
            let Some(det) = game.determinize(state, seat, &mut self.rng) else {
                continue;
            };
            if usize::try_from(game.current_player(&det)).ok() != Some(seat) {
                continue;
            }
            game.legal_actions(&det, &mut self.det_legal);
            let playout_seed = self.rng.next();
            for (i, &action) in legal.iter().enumerate() {
                if self.det_legal.binary_search(&action).is_err() {
                    continue;
                }
                let scratch = match &mut self.scratch {
                    Some(s) => {
                        s.clone_from(&det);
                        s
                    }
                    slot => slot.insert(det.clone()),
                };
                game.apply(scratch, action);
                self.playout
                    .run(game, scratch, &mut SplitMix64::new(playout_seed));
                if let (Some(t), Some(n), Some(&r)) = (
                    self.totals.get_mut(i),
                    self.counts.get_mut(i),
                    self.playout.rewards.get(seat),
                ) {
                    *t += r;
                    *n += 1;
                }
            }
        }
        // The best mean reward; ties go to the smaller action.
        let mut best = 0;
        let mut best_mean = f64::NEG_INFINITY;
        for (i, (&t, &n)) in self.totals.iter().zip(&self.counts).enumerate() {
            let mean = if n == 0 {
                f64::NEG_INFINITY
            } else {
                t / f64::from(n)
            };
            if mean > best_mean {
                best_mean = mean;
                best = i;
            }
        }
        let chosen = legal
            .get(best)
            .copied()
            .unwrap_or_else(|| first_or_zero(legal));
        self.searched.extend_from_slice(legal);
        self.last = (run, chosen);
        chosen
    }

    fn observes(&self) -> bool {
        false
    }

    fn search_stats(&self) -> Option<SearchStats> {
        if self.searched.is_empty() {
            return None;
        }
        let values = self
            .totals
            .iter()
            .zip(&self.counts)
            .map(|(&t, &n)| if n == 0 { f64::NAN } else { t / f64::from(n) })
            .collect();
        Some(SearchStats {
            actions: self.searched.clone(),
            visits: self.counts.clone(),
            values,
            choices: self.searched.clone(),
            iterations: self.last.0,
            chosen: self.last.1,
        })
    }
}
