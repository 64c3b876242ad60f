//! Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012, "Information Set Monte
//! Carlo Tree Search", algorithm SO-ISMCTS) with UCB over availability counts.
//!
//! The tree is built for the seat to move: a node stands for a sequence of decisions (its
//! actions and who took them) from the root information set. Each iteration samples one
//! determinization of the root, walks down the tree using only the actions legal in that
//! determinization, adds one node, plays out to the end and backs the rewards up. Chance nodes
//! are sampled as they come, not branched on: a tree node's children are the decisions that can
//! follow it, whatever chance did in between.
//!
//! # Arena
//! All nodes of a decision live in one `Vec<Node>` that is cleared (keeping its memory) at every
//! decision. Children form a linked list (`first_child` / `next_sibling` indices), since they are
//! added one at a time and not every action is available in every determinization. Each node
//! stores the seat that took its action and that seat's summed reward, so the tree handles any
//! number of players. The walk reuses the bot's buffers (legal actions, child slots, path), so an
//! iteration allocates nothing besides what the game's own `determinize` returns.

use super::{
    first_or_zero, parse_budget, parse_pairs, parse_rollout, require_determinizer, Playout,
    RolloutPolicy,
};
use crate::error::{ensure_fits, EngineError, Result};
use crate::game::{Bot, Game, CHANCE, TERMINAL};
use crate::rng::SplitMix64;

/// No node (the root's parent, the end of a child list, an unexpanded child slot).
const NONE: u32 = u32::MAX;

/// The parameters of the `mcts` bot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsParams {
    /// Iterations (determinized walks and playouts) per decision; default 1000.
    pub iterations: u32,
    /// UCB exploration constant `c` in `mean + c * sqrt(ln(availability) / visits)`; default 0.7.
    pub c: f64,
    /// How playouts choose actions; default random.
    pub rollout: RolloutPolicy,
}

impl Default for MctsParams {
    fn default() -> Self {
        Self {
            iterations: 1000,
            c: 0.7,
            rollout: RolloutPolicy::Random,
        }
    }
}

impl MctsParams {
    /// Parses `"iterations=2000,c=0.7,rollout=random|greedy"` (any subset, any order; `None`
    /// means all defaults) for game `G`; [`EngineError::InvalidOption`] on anything else.
    pub fn parse<G: Game>(params: Option<&str>) -> Result<Self> {
        let mut p = Self::default();
        for (key, value) in parse_pairs::<G>("mcts", params, &["iterations", "c", "rollout"])? {
            match key {
                "iterations" => p.iterations = parse_budget::<G>("mcts", key, value)?,
                "c" => {
                    p.c = match value.parse::<f64>() {
                        Ok(c) if c.is_finite() && c >= 0.0 => c,
                        _ => {
                            return Err(EngineError::InvalidOption(format!(
                                "{}: bot mcts: c must be a finite number >= 0, got {value:?}",
                                G::ID
                            )))
                        }
                    }
                }
                _ => p.rollout = parse_rollout::<G>("mcts", value)?,
            }
        }
        Ok(p)
    }
}

/// One node of the search tree.
#[derive(Clone, Copy, Debug)]
struct Node {
    first_child: u32,
    next_sibling: u32,
    /// The action that leads here from the parent.
    action: u32,
    /// The seat that took `action` ([`NONE`] at the root).
    player: u32,
    /// Iterations that passed through this node.
    visits: u32,
    /// Iterations in which this node's action was available at the parent when it was selected.
    avail: u32,
    /// Summed reward of `player` over the visits.
    total: f64,
}

impl Node {
    const fn new(action: u32, player: u32) -> Self {
        Self {
            first_child: NONE,
            next_sibling: NONE,
            action,
            player,
            visits: 0,
            avail: 0,
            total: 0.0,
        }
    }
}

/// The `mcts` bot: single-observer information-set MCTS (see the module docs).
pub struct IsmctsBot<G: Game> {
    params: MctsParams,
    rng: SplitMix64,
    nodes: Vec<Node>,
    /// Node indices of the current walk, root first.
    path: Vec<u32>,
    legal: Vec<u32>,
    /// For each entry of `legal`, the matching child node or [`NONE`].
    slots: Vec<u32>,
    playout: Playout<G>,
}

impl<G: Game> IsmctsBot<G> {
    /// A bot for `game`; fails if the game has no determinizer or the tree would not fit in
    /// memory.
    pub fn new(game: &G, params: MctsParams) -> Result<Self> {
        require_determinizer(game, "mcts")?;
        let nodes = (params.iterations as usize)
            .checked_add(1)
            .and_then(|n| n.checked_mul(std::mem::size_of::<Node>()));
        ensure_fits(nodes, "the mcts search tree", "use fewer iterations")?;
        Ok(Self {
            params,
            rng: SplitMix64::default(),
            nodes: Vec::new(),
            path: Vec::new(),
            legal: Vec::new(),
            slots: Vec::new(),
            playout: Playout::new(game, params.rollout)?,
        })
    }

    /// The parameters the bot was made with.
    pub fn params(&self) -> MctsParams {
        self.params
    }

    /// Adds a child of `parent` for `action` taken by `player`, and returns its index.
    fn add_child(&mut self, parent: u32, action: u32, player: u32) -> u32 {
        let index = self.nodes.len() as u32;
        let mut node = Node::new(action, player);
        if let Some(p) = self.nodes.get_mut(parent as usize) {
            node.next_sibling = p.first_child;
            p.first_child = index;
        }
        self.nodes.push(node);
        index
    }

    /// Fills `slots` with the child of `node` for each action of `legal` taken by `player`.
    /// Returns how many actions have no child yet.
    fn match_children(&mut self, node: u32, player: u32) -> usize {
        self.slots.clear();
        self.slots.resize(self.legal.len(), NONE);
        let mut child = self
            .nodes
            .get(node as usize)
            .map_or(NONE, |n| n.first_child);
        let mut matched = 0;
        while let Some(c) = self.nodes.get(child as usize) {
            if c.player == player {
                if let Ok(i) = self.legal.binary_search(&c.action) {
                    self.slots[i] = child;
                    matched += 1;
                }
            }
            child = c.next_sibling;
        }
        self.legal.len() - matched
    }

    /// UCB choice among the children in `slots` (all present), counting each as available.
    fn select(&mut self) -> u32 {
        let c = self.params.c;
        let mut best = NONE;
        let mut best_value = f64::NEG_INFINITY;
        for &child in &self.slots {
            let Some(n) = self.nodes.get_mut(child as usize) else {
                continue;
            };
            n.avail += 1;
            let visits = f64::from(n.visits.max(1));
            let value = n.total / visits + c * (f64::from(n.avail).ln() / visits).sqrt();
            if value > best_value {
                best_value = value;
                best = child;
            }
        }
        best
    }

    /// One iteration from the determinization `state` of the root, where `seat` is to move and
    /// `root_legal` lists its actions.
    fn iterate(&mut self, game: &G, state: &mut G::State, seat: usize, root_legal: &[u32]) {
        if usize::try_from(game.current_player(state)).ok() != Some(seat) {
            return; // Not a determinization of this decision; nothing to learn from it.
        }
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        let mut at_root = true;
        loop {
            let player = game.current_player(state);
            if player == TERMINAL {
                break;
            }
            if player == CHANCE {
                self.playout.chance_step(game, state, &mut self.rng);
                continue;
            }
            let mover = player as u32;
            game.legal_actions(state, &mut self.legal);
            if at_root {
                self.legal.retain(|a| root_legal.binary_search(a).is_ok());
                at_root = false;
            }
            if self.legal.is_empty() {
                return; // A decision without actions: nothing sound to back up.
            }
            let unexpanded = self.match_children(node, mover);
            if unexpanded > 0 {
                let k = self.rng.below(unexpanded as u64) as usize;
                let slot = self
                    .slots
                    .iter()
                    .enumerate()
                    .filter(|&(_, &s)| s == NONE)
                    .nth(k)
                    .map_or(0, |(i, _)| i);
                let action = self.legal[slot];
                let child = self.add_child(node, action, mover);
                if let Some(n) = self.nodes.get_mut(child as usize) {
                    n.avail = 1;
                }
                game.apply(state, action);
                self.path.push(child);
                self.playout.run(game, state, &mut self.rng);
                self.backpropagate();
                return;
            }
            let child = self.select();
            let Some(action) = self.nodes.get(child as usize).map(|n| n.action) else {
                break;
            };
            game.apply(state, action);
            self.path.push(child);
            node = child;
        }
        // The walk reached the end of the game inside the tree: score it as it stands.
        super::win_shares(game, state, &mut self.playout.rewards);
        self.backpropagate();
    }

    fn backpropagate(&mut self) {
        for &i in &self.path {
            if let Some(n) = self.nodes.get_mut(i as usize) {
                n.visits += 1;
                if let Some(&r) = self.playout.rewards.get(n.player as usize) {
                    n.total += r;
                }
            }
        }
    }

    /// The most visited root child among `legal` (ties: higher mean reward, then smaller action).
    fn best_root_action(&self, seat: usize, legal: &[u32]) -> u32 {
        let mut best: Option<(u32, f64, u32)> = None;
        let mut child = self.nodes.first().map_or(NONE, |n| n.first_child);
        while let Some(c) = self.nodes.get(child as usize) {
            if c.player as usize == seat && legal.binary_search(&c.action).is_ok() {
                let mean = c.total / f64::from(c.visits.max(1));
                let better = match best {
                    None => true,
                    Some((v, m, a)) => {
                        (c.visits, mean) > (v, m) || ((c.visits, mean) == (v, m) && c.action < a)
                    }
                };
                if better {
                    best = Some((c.visits, mean, c.action));
                }
            }
            child = c.next_sibling;
        }
        best.map_or_else(|| first_or_zero(legal), |(_, _, a)| a)
    }
}

impl<G: Game> Bot<G> for IsmctsBot<G> {
    fn reset(&mut self, _game: &G, _seat: usize, rng: SplitMix64) {
        self.rng = rng;
    }

    fn act(&mut self, game: &G, state: &G::State, legal: &[u32]) -> u32 {
        let seat = match usize::try_from(game.current_player(state)) {
            Ok(seat) if legal.len() > 1 => seat,
            _ => return first_or_zero(legal),
        };
        self.nodes.clear();
        self.nodes.push(Node::new(NONE, NONE));
        for _ in 0..self.params.iterations {
            let Some(mut det) = game.determinize(state, seat, &mut self.rng) else {
                continue;
            };
            self.iterate(game, &mut det, seat, legal);
        }
        self.best_root_action(seat, legal)
    }

    fn observes(&self) -> bool {
        false
    }
}
