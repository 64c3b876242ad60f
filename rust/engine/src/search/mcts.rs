//! Information-set MCTS over determinizations (after Cowling, Powley & Whitehouse 2012,
//! "Information Set Monte Carlo Tree Search"), with UCB over availability counts.
//!
//! # Information sets
//! Tree nodes are information sets, not action sequences: a seat's node is keyed by the history
//! of that seat's own observations along the walk (a hash chain of its observation tensors,
//! extended whenever the tensor changes), and its edges are that seat's actions with their
//! statistics. A seat therefore never branches on what it cannot see: in a game with
//! simultaneous commitments (Goofspiel's bids, Turn the Tide's cards) the seat answering a
//! pending bid meets the same node whatever that bid was, and chance outcomes it sees are told
//! apart. Each iteration samples one determinization of the root, walks down choosing by UCB
//! among the actions legal in that sample, adds one edge, plays out to the end and backs each
//! seat's reward (its win share, or with `reward=margin` half that plus a score margin; see
//! [`super::Reward`]) up the edges it took.
//!
//! # Prior
//! With `prior=W > 0` each information set asks the game's heuristic bot once for its choice
//! there (the bot reads only the seat's observation); that edge is expanded first and gets the
//! progressive bias `W / (visits + 1)` on top of its UCB value, so the search starts from the
//! heuristic's move and leaves it when the playouts say so. With `prior=0` (the generic
//! default) no heuristic bot is made and nothing is drawn for it.
//!
//! # Action classes
//! With `classes=on` (default off but in Trafficars memory, the only game that has classes so far)
//! actions that are worth the same in every determinization of an information set share one edge
//! ([`Game::search_class`], where [`Game::HAS_ACTION_CLASSES`]): the flips of never-seen
//! positions, whose cards the determinizer deals uniformly, become one choice "flip a card nobody
//! has seen", which the walk plays at a uniformly random member. The tree then compares a
//! handful of choices (that class, each remembered card, stop) instead of splitting its
//! iterations over some 40 equivalent flips.
//!
//! # Opponents
//! With `opponents=tree` every seat chooses in its own information sets (multiple-observer
//! style); with `opponents=rollout` the other seats play the rollout policy inside the tree as
//! well, and only the searching seat's decisions are nodes, which makes the search a best
//! response to that policy.
//!
//! # Commitments made just before the decision
//! A determinizer samples hidden commitments (a pending bid) uniformly from what is possible.
//! The bot therefore remembers (through [`Bot::observe`]) the state it saw just before the
//! other seats' latest run of decisions, and each iteration first tries a determinization of that
//! earlier state, replayed to the current decision with the rollout policy; the replay is kept
//! only if it looks to the searching seat exactly like the real decision (rejection sampling of
//! the other seats' commitments under the opponent model), else the iteration falls back to a
//! determinization of the current state. Both states are read only through `determinize` for
//! the bot's own seat, so no hidden information leaks. In a game that shows every decision to every
//! seat ([`Game::DECISIONS_ARE_PUBLIC`]: nothing is committed face down) the others'
//! decisions hide nothing, so the bot keeps no earlier state there, and one observation per step
//! keys the information sets of every seat (they all see the same table).
//!
//! # Arena
//! All nodes of a decision live in one `Vec<Node>` and an open-addressing key table, both cleared
//! (keeping their memory) at every decision. Edges form linked lists (`first_child` /
//! `next_sibling` indices), since they are added one at a time and not every action is available
//! in every determinization. The walk reuses the bot's buffers (legal actions, edge slots, path,
//! observation tensor, keys), so an iteration allocates nothing besides what the game's own
//! `determinize` returns.

use super::{
    first_or_zero, heuristic_bots, parse_budget, parse_choice, parse_pairs, parse_reward,
    parse_rollout, require_determinizer, Playout, Reward, RolloutPolicy,
};
use crate::error::{ensure_fits, EngineError, Result};
use crate::game::{Bot, Game, SearchStats, CHANCE, TERMINAL};
use crate::rng::{derive_seed, mix64, SplitMix64};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The most steps a replay from the anchor takes before it gives up.
const MAX_REPLAY: usize = 256;

/// The most availability counts whose logarithms the bot keeps in a table (larger ones are
/// computed).
const MAX_LN_TABLE: usize = 1 << 20;

/// The information-set table's length at the start of a decision (or the full length, if
/// smaller): searches of up to about 4,000 iterations never grow it.
const INITIAL_TABLE: usize = 1 << 14;

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
    /// How the other seats choose their actions inside the tree; default [`Opponents::Tree`].
    pub opponents: Opponents,
    /// What a finished playout is worth; default [`Reward::Win`].
    pub reward: Reward,
    /// Weight of the progressive bias towards the game's heuristic bot's choice in each
    /// information set (`prior / (visits + 1)` added to that edge's UCB value, and that edge
    /// expanded first); default 0 (off).
    pub prior: f64,
    /// Whether exchangeable actions share one edge per information set (see
    /// [`Game::search_class`]; only some games have such actions); default off
    /// (on in the memory game).
    pub classes: bool,
    /// Progressive widening: with `widen = W > 0` an information set below the root visited `n`
    /// times gets a new edge only while it has fewer than `1 + floor(W * sqrt(n))` (the
    /// heuristic's choice first),
    /// so that rarely visited ones play their few edges instead of trying every action once;
    /// default 0 (off: every action is tried once before UCB chooses; 0.01 in the memory game).
    pub widen: f64,
    /// Common random numbers at the root: the root's edge is chosen before the determinization,
    /// and the `k`-th iteration through any root edge plays on the decision's `k`-th
    /// determinization and outcome stream, so that the root's actions are compared on the same
    /// samples; default off. Not used where the bot replays from an earlier state.
    pub crn: bool,
}

/// How the seats other than the searching one choose their actions during a walk down the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponents {
    /// Each seat chooses by UCB in its own information sets (its own observation history), so
    /// it never branches on what it cannot see, such as a pending simultaneous bid.
    Tree,
    /// Each seat plays the rollout policy (the game's `greedy` bot or uniformly at random);
    /// only the searching seat's own decisions form the tree.
    Rollout,
}

impl Default for MctsParams {
    /// The generic defaults: 1000 iterations, `c = 0.7`, random playouts, [`Opponents::Tree`],
    /// [`Reward::Win`], no prior, classes, widening or common random numbers.
    fn default() -> Self {
        MctsParams {
            iterations: 1000,
            c: 0.7,
            rollout: RolloutPolicy::Random,
            opponents: Opponents::Tree,
            reward: Reward::Win,
            prior: 0.0,
            classes: false,
            widen: 0.0,
            crn: false,
        }
    }
}

/// The parameter keys of `mcts:...`, in the order [`super::SEARCH_BOT_USAGES`] spells them.
pub(super) const KEYS: &[&str] = &[
    "iterations",
    "c",
    "rollout",
    "opponents",
    "reward",
    "prior",
    "classes",
    "widen",
    "crn",
];

impl MctsParams {
    /// Parses `"iterations=2000,c=0.7,rollout=random|greedy,opponents=tree|rollout,reward=win|margin,prior=0,classes=off|on,crn=off|on"`
    /// (any subset, any order; `None` means all defaults) for game `G`; [`EngineError::InvalidOption`] on anything else.
    pub fn parse<G: Game>(params: Option<&str>) -> Result<Self> {
        Self::for_game::<G>().with::<G>(params)
    }

    /// These parameters with those of the list `params` (as in [`MctsParams::parse`]) set.
    fn with<G: Game>(self, params: Option<&str>) -> Result<Self> {
        let mut p = self;
        for (key, value) in parse_pairs::<G>("mcts", params, KEYS)? {
            match key {
                "iterations" => p.iterations = parse_budget::<G>("mcts", key, value)?,
                "c" => p.c = parse_weight::<G>(key, value)?,
                "prior" => p.prior = parse_weight::<G>(key, value)?,
                "widen" => p.widen = parse_weight::<G>(key, value)?,
                "opponents" => {
                    p.opponents = parse_choice::<G, _>(
                        "mcts",
                        key,
                        value,
                        &[("tree", Opponents::Tree), ("rollout", Opponents::Rollout)],
                    )?;
                }
                "reward" => p.reward = parse_reward::<G>("mcts", value)?,
                "classes" => {
                    p.classes =
                        parse_choice::<G, _>("mcts", key, value, &[("on", true), ("off", false)])?;
                }
                "crn" => {
                    p.crn =
                        parse_choice::<G, _>("mcts", key, value, &[("on", true), ("off", false)])?;
                }
                _ => p.rollout = parse_rollout::<G>("mcts", value)?,
            }
        }
        Ok(p)
    }

    /// The defaults for game `G`: [`MctsParams::default`] with the game's
    /// [`Game::SEARCH_DEFAULTS`] set, the parameters that measured strongest in that game
    /// (`docs/search.md`). The shared test kit checks that every game's list parses; one that
    /// did not would leave the generic defaults.
    pub fn for_game<G: Game>() -> Self {
        let parsed = Self::game_defaults::<G>();
        debug_assert!(parsed.is_ok(), "{}: SEARCH_DEFAULTS: {parsed:?}", G::ID);
        parsed.unwrap_or_default()
    }

    /// [`MctsParams::default`] with [`Game::SEARCH_DEFAULTS`] of `G` set (the shared test kit
    /// checks every game's).
    ///
    /// # Errors
    /// [`EngineError::InvalidOption`] naming what does not parse.
    pub fn game_defaults<G: Game>() -> Result<Self> {
        let list = Some(G::SEARCH_DEFAULTS).filter(|s| !s.is_empty());
        Self::default().with::<G>(list)
    }
}

/// A finite number `>= 0` for parameter `key`.
fn parse_weight<G: Game>(key: &str, value: &str) -> Result<f64> {
    match value.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(EngineError::InvalidOption(format!(
            "{}: bot mcts: {key} must be a finite number >= 0, got {value:?}",
            G::ID
        ))),
    }
}

/// One node of the search tree: an information set of the seat to move (`action == NONE`), or an
/// edge of one (an action taken there, with its statistics).
#[derive(Clone, Copy, Debug)]
struct Node {
    /// An information set's first edge.
    first_child: u32,
    /// The next edge of the same information set.
    next_sibling: u32,
    /// The action of an edge ([`NONE`] for an information set).
    action: u32,
    /// The seat to move in the information set (the seat that takes an edge's action).
    player: u32,
    /// Iterations that took this edge (of an information set: walks that reached it).
    visits: u32,
    /// Iterations in which this edge's action was available when its information set was met.
    avail: u32,
    /// Summed reward of `player` over the visits.
    total: f64,
    /// An information set's heuristic choice ([`UNHINTED`] until asked, [`NONE`] for none).
    hint: u32,
}

/// [`Node::hint`] of an information set whose heuristic choice was not asked for yet.
const UNHINTED: u32 = NONE - 1;

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
            hint: UNHINTED,
        }
    }
}

/// A hash of an observation tensor (positions and values of its non-zero entries). Tensors are
/// mostly zeros, so it skips runs of eight zeros (of either sign) with one test, and chains the
/// entries with one multiplication each (the result is mixed once at the end).
#[inline]
pub(super) fn hash_tensor(values: &[f32]) -> u64 {
    #[inline(always)]
    fn add(h: u64, values: &[f32], first: usize) -> u64 {
        let mut h = h;
        for (j, &v) in values.iter().enumerate() {
            if v != 0.0 {
                h = (h ^ u64::from(v.to_bits()) ^ (((first + j) as u64) << 32))
                    .wrapping_mul(0x9e37_79b9_7f4a_7c15);
                h ^= h >> 29;
            }
        }
        h
    }
    let mut h = 0x243f_6a88_85a3_08d3u64;
    let mut chunks = values.chunks_exact(8);
    let mut first = 0;
    for chunk in &mut chunks {
        if !chunk.iter().fold(true, |zero, &v| zero & (v == 0.0)) {
            h = add(h, chunk, first);
        }
        first += 8;
    }
    mix64(add(h, chunks.remainder(), first))
}

/// The `mcts` bot: information-set MCTS with one information set per seat and observation
/// history (see the module docs).
pub struct IsmctsBot<G: Game> {
    params: MctsParams,
    rng: SplitMix64,
    /// Information sets and their edges.
    nodes: Vec<Node>,
    /// Open-addressing table from an information-set key to its node (`(key, node)`, node
    /// [`NONE`] when free); its length is a power of two, at most half full: it starts small and
    /// doubles as information sets are added, up to `table_full`.
    table: Vec<(u64, u32)>,
    /// Information sets in `table`.
    table_used: usize,
    /// The table's length at the start of a decision (at most `table_full`).
    table_start: usize,
    /// The decision's full table length, a power of two at least twice the node budget: the
    /// budget is read from it, whatever length the table has grown to so far.
    table_full: usize,
    /// Edge indices of the current walk, root first.
    path: Vec<u32>,
    legal: Vec<u32>,
    /// For each entry of `legal`, the matching edge or [`NONE`].
    slots: Vec<u32>,
    /// The legal actions behind the classes in `legal` (when `classing`).
    concrete: Vec<u32>,
    /// Whether edges stand for classes of exchangeable actions (`classes` in a game that has
    /// them): `legal` then holds the classes.
    classing: bool,
    /// Each seat's information key along the current walk (a hash of its observation history).
    keys: Vec<u64>,
    /// Each seat's last observation hash along the current walk.
    seen: Vec<u64>,
    /// The observation tensor buffer.
    tensor: Vec<f32>,
    playout: Playout<G>,
    /// Steps the walks down the tree have applied so far (for speed measurements).
    walk_steps: u64,
    /// One heuristic bot per seat for the progressive bias (empty when `prior` is 0 or the game
    /// has no heuristic bot).
    hinters: Vec<Box<dyn Bot<G>>>,
    /// The bot's seat, as given to `reset`.
    seat: usize,
    /// The state the bot's seat saw just before the other seats' decisions that led to its
    /// current decision (none after chance or its own move, or when the bot did not see it).
    anchor: Option<G::State>,
    /// Whether the states observed since `anchor` were all other seats' decisions.
    in_run: bool,
    /// Whether the game shows every decision to every seat: then no anchor is kept, and one
    /// observation per step keys every seat's information sets.
    public: bool,
    /// The seat searching in the current iteration.
    searching: usize,
    /// The outcome stream of the current iteration with common random numbers (`crn`): chance
    /// and the rollout policy draw from it instead of the bot's own stream.
    common: Option<SplitMix64>,
    /// The hash of the searching seat's observation at the current decision.
    root_hash: u64,
    /// `ln(k)` for the availability counts `k` a decision's UCB values can meet, so that
    /// selection looks logarithms up instead of computing one per edge.
    ln: Vec<f64>,
    /// Set to end the current decision after its iteration in progress ([`Bot::stop_flag`]).
    stop: Arc<AtomicBool>,
    /// The latest decision that searched ([`Bot::search_stats`]); its tree stays in `nodes`
    /// until the next decision.
    last: LastSearch,
}

/// What [`IsmctsBot`] keeps of its latest search for [`Bot::search_stats`].
#[derive(Debug, Default)]
struct LastSearch {
    /// The legal actions (empty when the latest decision did not search).
    actions: Vec<u32>,
    /// Each action's root edge (its class with classing, else the action).
    choices: Vec<u32>,
    /// The root information set.
    root: u32,
    /// Iterations run.
    iterations: u32,
    /// The action played.
    chosen: u32,
}

debug_handle!(IsmctsBot, params, seat);

impl<G: Game> IsmctsBot<G> {
    /// A bot for `game`; fails if the game has no determinizer or the tree would not fit in
    /// memory.
    pub fn new(game: &G, params: MctsParams) -> Result<Self> {
        require_determinizer(game, "mcts")?;
        let budget = (params.iterations as usize)
            .checked_mul(2)
            .and_then(|n| n.checked_add(2));
        let bytes = budget
            .and_then(|n| n.checked_mul(std::mem::size_of::<Node>()))
            .zip(
                budget
                    .and_then(|n| n.checked_mul(2))
                    .and_then(usize::checked_next_power_of_two)
                    .and_then(|n| n.checked_mul(std::mem::size_of::<(u64, u32)>())),
            )
            .and_then(|(a, b)| a.checked_add(b));
        ensure_fits(bytes, "the mcts search tree", "use fewer iterations")?;
        let tensor_len = game.observation_shape().iter().product();
        Ok(Self {
            params,
            rng: SplitMix64::default(),
            nodes: Vec::new(),
            table: Vec::new(),
            table_used: 0,
            table_start: INITIAL_TABLE,
            table_full: 0,
            path: Vec::new(),
            legal: Vec::new(),
            slots: Vec::new(),
            concrete: Vec::new(),
            classing: params.classes && G::HAS_ACTION_CLASSES,
            keys: vec![0; game.players()],
            seen: vec![0; game.players()],
            tensor: vec![0.0; tensor_len],
            playout: Playout::new(game, params.rollout, params.reward)?,
            walk_steps: 0,
            hinters: if params.prior > 0.0 {
                heuristic_bots(game)?
            } else {
                Vec::new()
            },
            seat: 0,
            anchor: None,
            in_run: false,
            public: G::DECISIONS_ARE_PUBLIC,
            searching: 0,
            common: None,
            root_hash: 0,
            ln: Vec::new(),
            stop: Arc::default(),
            last: LastSearch::default(),
        })
    }

    /// The parameters the bot was made with.
    pub fn params(&self) -> MctsParams {
        self.params
    }

    /// The bot with its information-set table starting at `length` entries (a power of two) at
    /// every decision, instead of [`INITIAL_TABLE`]: for tests of the table's growth.
    #[cfg(test)]
    pub(super) fn with_table_start(mut self, length: usize) -> Self {
        self.table_start = length;
        self
    }

    /// The information-set table's current length (for tests of its growth).
    #[cfg(test)]
    pub(super) fn table_len(&self) -> usize {
        self.table.len()
    }

    /// Steps (decisions and chance steps) the playouts of this bot have played since it was made,
    /// over all its decisions: the steps its rollout policy chose, not those of its walks through
    /// the tree. For speed measurements: the search's whole cost over these steps compares with the
    /// batch runner's cost per step (`examples/search_perf.rs`).
    pub fn playout_steps(&self) -> u64 {
        self.playout.steps
    }

    /// Steps (decisions and chance steps) the walks down the tree have applied since the bot was
    /// made, before their playouts took over: with [`Opponents::Rollout`] these include the other
    /// seats' moves by the rollout policy. With [`IsmctsBot::playout_steps`], every step the
    /// search played (for speed measurements).
    pub fn walk_steps(&self) -> u64 {
        self.walk_steps
    }

    /// Clears the tree for a new decision (keeping the memory).
    fn clear(&mut self) {
        self.nodes.clear();
        self.table_full = (self.params.iterations as usize)
            .saturating_mul(4)
            .saturating_add(4)
            .next_power_of_two();
        // A large search starts small and grows its table with what it adds, so that memory
        // follows the iterations actually run (an interrupted search never fills a table sized
        // for all of them), and a decision does not keep the previous one's large table.
        let start = self.table_full.min(self.table_start);
        if self.table.len() == start {
            self.table.fill((0, NONE));
        } else {
            self.table = vec![(0, NONE); start];
        }
        self.table_used = 0;
        // An edge is available at most once per iteration (plus the walk that added it).
        let logs = (self.params.iterations as usize)
            .saturating_add(2)
            .min(MAX_LN_TABLE);
        if self.ln.len() != logs {
            self.ln = (0..logs).map(|k| (k as f64).ln()).collect();
        }
    }

    /// The seats whose observation histories the walk needs: every seat when the others search
    /// in their own information sets, else only the searching `seat`.
    fn tracked(&self, seat: usize) -> std::ops::Range<usize> {
        match self.params.opponents {
            Opponents::Tree => 0..self.keys.len(),
            Opponents::Rollout => seat..seat + 1,
        }
    }

    /// Starts the observation history of every tracked seat at `state`. In a game whose
    /// decisions are all public every seat sees what the searching seat `searching` sees (up to
    /// its own seat number, which the key holds anyway), so one observation serves every seat.
    fn start_keys(
        &mut self,
        game: &G,
        state: &G::State,
        seats: std::ops::Range<usize>,
        searching: usize,
    ) {
        // Every determinization of the decision looks to the searching seat as the real state
        // does (a determinizer keeps the seat's observation, and a replay is kept only when it
        // matches), so its observation hash is the root's, computed once per decision.
        if self.public {
            let h = self.root_hash;
            for seat in seats {
                self.seen[seat] = h;
                self.keys[seat] = mix64(h ^ (seat as u64).wrapping_add(1));
            }
            return;
        }
        for seat in seats {
            let h = if seat == searching {
                self.root_hash
            } else {
                game.observation_tensor(state, seat, &mut self.tensor);
                hash_tensor(&self.tensor)
            };
            self.seen[seat] = h;
            self.keys[seat] = mix64(h ^ (seat as u64).wrapping_add(1));
        }
    }

    /// Extends the observation history of every tracked seat by its observation of `state`
    /// (when it changed), and lets remembering playout bots see `state`.
    fn extend_keys(&mut self, game: &G, state: &G::State, seats: std::ops::Range<usize>) {
        self.playout.observe(game, state);
        if self.public {
            // The searching seat's observation for every seat (see `start_keys`).
            game.observation_tensor(state, self.searching, &mut self.tensor);
            let h = hash_tensor(&self.tensor);
            for seat in seats {
                if h != self.seen[seat] {
                    self.seen[seat] = h;
                    self.keys[seat] = mix64(self.keys[seat] ^ h);
                }
            }
            return;
        }
        for seat in seats {
            game.observation_tensor(state, seat, &mut self.tensor);
            let h = hash_tensor(&self.tensor);
            if h != self.seen[seat] {
                self.seen[seat] = h;
                self.keys[seat] = mix64(self.keys[seat] ^ h);
            }
        }
    }

    /// The information set of `player` with key `key`: found, or added (as long as the node
    /// budget allows; [`NONE`] otherwise). The flag says whether it was added.
    fn info_set(&mut self, key: u64, player: u32) -> (u32, bool) {
        if self.table.is_empty() {
            return (NONE, false);
        }
        let mask = self.table.len() - 1;
        let mut i = (mix64(key) as usize) & mask;
        loop {
            let (k, node) = self.table[i];
            if node == NONE {
                if self.nodes.len() * 2 + 2 >= self.table_full {
                    return (NONE, false);
                }
                let index = self.nodes.len() as u32;
                self.nodes.push(Node::new(NONE, player));
                self.table_used += 1;
                if self.table_used * 2 > self.table.len() && self.table.len() < self.table_full {
                    self.grow_table();
                    self.insert_key(key, index);
                } else {
                    self.table[i] = (key, index);
                }
                return (index, true);
            }
            if k == key {
                return (node, false);
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the table, moving every information set to its slot in the new length.
    fn grow_table(&mut self) {
        let doubled = vec![(0, NONE); self.table.len() * 2];
        let old = std::mem::replace(&mut self.table, doubled);
        for (key, node) in old {
            if node != NONE {
                self.insert_key(key, node);
            }
        }
    }

    /// Puts `(key, node)` into the first free slot of `key`'s probe sequence (`key` not in the
    /// table, which has a free slot).
    fn insert_key(&mut self, key: u64, node: u32) {
        let mask = self.table.len() - 1;
        let mut i = (mix64(key) as usize) & mask;
        while self.table[i].1 != NONE {
            i = (i + 1) & mask;
        }
        self.table[i] = (key, node);
    }

    /// Adds an edge of `parent` for `action` taken by `player`, and returns its index.
    fn add_edge(&mut self, parent: u32, action: u32, player: u32) -> u32 {
        let index = self.nodes.len() as u32;
        let mut node = Node::new(action, player);
        if let Some(p) = self.nodes.get_mut(parent as usize) {
            node.next_sibling = p.first_child;
            p.first_child = index;
        }
        self.nodes.push(node);
        index
    }

    /// Fills `slots` with the edge of information set `node` for each action of `legal`.
    /// Returns how many actions have no edge yet.
    fn match_children(&mut self, node: u32) -> usize {
        self.slots.clear();
        self.slots.resize(self.legal.len(), NONE);
        let mut child = self
            .nodes
            .get(node as usize)
            .map_or(NONE, |n| n.first_child);
        let mut matched = 0;
        while let Some(c) = self.nodes.get(child as usize) {
            if let Ok(i) = self.legal.binary_search(&c.action) {
                self.slots[i] = child;
                matched += 1;
            }
            child = c.next_sibling;
        }
        self.legal.len() - matched
    }

    /// When classing, turns `legal` (the actions of `state`) into its sorted classes and keeps
    /// the actions in `concrete`.
    fn group_into_classes(&mut self, state: &G::State) {
        if !self.classing {
            return;
        }
        self.concrete.clear();
        self.concrete.extend_from_slice(&self.legal);
        for a in &mut self.legal {
            *a = G::search_class(state, *a);
        }
        self.legal.sort_unstable();
        self.legal.dedup();
    }

    /// The action to play for the edge `class` in `state`: the class itself when it is an action
    /// (always without classing), else a uniformly random member of the class among `concrete`.
    fn concrete_action(&mut self, state: &G::State, class: u32) -> u32 {
        if !self.classing || self.concrete.binary_search(&class).is_ok() {
            return class;
        }
        let count = self
            .concrete
            .iter()
            .filter(|&&a| G::search_class(state, a) == class)
            .count();
        let k = self.rng.below(count as u64) as usize;
        self.concrete
            .iter()
            .copied()
            .filter(|&a| G::search_class(state, a) == class)
            .nth(k)
            .unwrap_or(class)
    }

    /// The heuristic choice in information set `info` for `mover` in `state` among `legal`
    /// (asked once per information set), or [`NONE`] without a prior.
    fn hint(&mut self, game: &G, state: &G::State, info: u32, mover: u32) -> u32 {
        let known = self.nodes.get(info as usize).map_or(NONE, |n| n.hint);
        if known != UNHINTED {
            return known;
        }
        let hint = match self.hinters.get_mut(mover as usize) {
            Some(bot) => {
                let a = if self.classing {
                    G::search_class(state, bot.act(game, state, &self.concrete))
                } else {
                    bot.act(game, state, &self.legal)
                };
                if self.legal.binary_search(&a).is_ok() {
                    a
                } else {
                    NONE
                }
            }
            None => NONE,
        };
        if let Some(n) = self.nodes.get_mut(info as usize) {
            n.hint = hint;
        }
        hint
    }

    /// Counts a visit of information set `info` (not the root, which always widens), which has
    /// `expanded` edges available in this walk, and says whether the walk may add an edge there:
    /// always without widening (or with no edge available), else while it has fewer than
    /// `1 + floor(widen * sqrt(visits))` of them.
    fn may_widen(&mut self, info: u32, expanded: usize) -> bool {
        let widen = self.params.widen;
        let Some(n) = self.nodes.get_mut(info as usize) else {
            return true;
        };
        n.visits += 1;
        widen <= 0.0
            || expanded == 0
            || (expanded as f64) < 1.0 + (widen * f64::from(n.visits).sqrt()).floor()
    }

    /// UCB choice among the edges in `slots` (all present), counting each as available; the
    /// edge of action `hint` gets the progressive bias `prior / (visits + 1)`.
    fn select(&mut self, hint: u32) -> u32 {
        let c = self.params.c;
        let prior = self.params.prior;
        let mut best = NONE;
        let mut best_value = f64::NEG_INFINITY;
        for &child in &self.slots {
            let Some(n) = self.nodes.get_mut(child as usize) else {
                continue;
            };
            n.avail += 1;
            let visits = f64::from(n.visits.max(1));
            let ln_avail = self
                .ln
                .get(n.avail as usize)
                .copied()
                .unwrap_or_else(|| f64::from(n.avail).ln());
            let mut value = n.total / visits + c * (ln_avail / visits).sqrt();
            if n.action == hint {
                value += prior / (f64::from(n.visits) + 1.0);
            }
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
        let seats = self.tracked(seat);
        self.playout.start(game, &mut self.rng);
        self.searching = seat;
        self.start_keys(game, state, seats.clone(), seat);
        self.walk(game, state, seat, root_legal, true);
    }

    /// One iteration with common random numbers at the root (`crn`): the root's edge is chosen
    /// first, on the real `state` (the choice reads only what the searching `seat` sees there),
    /// and the `k`-th iteration through an edge plays on the `k`-th determinization and with
    /// the `k`-th outcome stream of the decision (both derived from `base`), whichever edge it
    /// is, so that the root's actions are compared on the same hidden cards and draws.
    fn iterate_common(
        &mut self,
        game: &G,
        state: &G::State,
        seat: usize,
        root_legal: &[u32],
        root: u32,
        base: u64,
    ) {
        game.legal_actions(state, &mut self.legal);
        self.legal.retain(|a| root_legal.binary_search(a).is_ok());
        if self.legal.is_empty() {
            return;
        }
        self.group_into_classes(state);
        let Some((edge, class, expanded)) = self.choose(game, state, root, seat as u32, true)
        else {
            return;
        };
        let k = self.nodes.get(edge as usize).map_or(0, |n| n.visits);
        let mut sample = SplitMix64::new(derive_seed(base, u64::from(k)));
        let Some(mut det) = game.determinize(state, seat, &mut sample) else {
            return;
        };
        if usize::try_from(game.current_player(&det)).ok() != Some(seat) {
            return;
        }
        self.path.clear();
        let seats = self.tracked(seat);
        self.playout.start(game, &mut sample);
        self.searching = seat;
        self.start_keys(game, &det, seats.clone(), seat);
        let action = self.concrete_action(state, class);
        game.apply(&mut det, action);
        self.walk_steps += 1;
        self.path.push(edge);
        self.common = Some(sample);
        if expanded {
            self.play_out(game, &mut det);
        } else {
            self.extend_keys(game, &det, seats);
            self.walk(game, &mut det, seat, root_legal, false);
        }
        self.common = None;
    }

    /// Plays `state` out with the outcome stream (the common one when set) and backs the
    /// rewards up the path.
    fn play_out(&mut self, game: &G, state: &mut G::State) {
        let rng = match &mut self.common {
            Some(r) => r,
            None => &mut self.rng,
        };
        self.playout.run_on(game, state, rng);
        self.backpropagate();
    }

    /// The choice in information set `info` of `mover` among `legal` (`root_node`: the root,
    /// which always widens): a new edge while the information set may get one (the heuristic
    /// choice first, then uniformly among the others), else the UCB choice among its edges.
    /// Returns the edge, its action (class) and whether it was just added; `None` if no edge
    /// could be chosen.
    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        info: u32,
        mover: u32,
        root_node: bool,
    ) -> Option<(u32, u32, bool)> {
        let unexpanded = self.match_children(info);
        let hint = if self.hinters.is_empty() {
            NONE
        } else {
            self.hint(game, state, info, mover)
        };
        let widen = root_node || self.may_widen(info, self.legal.len() - unexpanded);
        if unexpanded > 0 && widen {
            // The heuristic choice first, then uniformly among the others.
            let hinted = self
                .legal
                .binary_search(&hint)
                .ok()
                .filter(|&i| self.slots.get(i) == Some(&NONE));
            let slot = hinted.unwrap_or_else(|| {
                let k = self.rng.below(unexpanded as u64) as usize;
                self.slots
                    .iter()
                    .enumerate()
                    .filter(|&(_, &s)| s == NONE)
                    .nth(k)
                    .map_or(0, |(i, _)| i)
            });
            let class = self.legal[slot];
            let edge = self.add_edge(info, class, mover);
            for &s in &self.slots {
                if let Some(n) = self.nodes.get_mut(s as usize) {
                    n.avail += 1;
                }
            }
            if let Some(n) = self.nodes.get_mut(edge as usize) {
                n.avail = 1;
            }
            return Some((edge, class, true));
        }
        let edge = self.select(hint);
        self.nodes
            .get(edge as usize)
            .map(|n| (edge, n.action, false))
    }

    /// Walks `state` down the tree from the root (`at_root`) or below it, adds one edge, plays
    /// out and backs up. Chance and the rollout policy draw from the outcome stream (the
    /// common one when set, else the bot's own).
    fn walk(
        &mut self,
        game: &G,
        state: &mut G::State,
        seat: usize,
        root_legal: &[u32],
        mut at_root: bool,
    ) {
        let seats = self.tracked(seat);
        loop {
            let player = game.current_player(state);
            if player == TERMINAL {
                break;
            }
            if player == CHANCE {
                let rng = match &mut self.common {
                    Some(r) => r,
                    None => &mut self.rng,
                };
                self.playout.chance_step(game, state, rng);
                self.walk_steps += 1;
                self.extend_keys(game, state, seats.clone());
                continue;
            }
            let mover = player as u32;
            if !at_root && self.params.opponents == Opponents::Rollout && mover as usize != seat {
                let rng = match &mut self.common {
                    Some(r) => r,
                    None => &mut self.rng,
                };
                let Some(action) = self.playout.policy_action(game, state, rng) else {
                    return;
                };
                game.apply(state, action);
                self.walk_steps += 1;
                self.extend_keys(game, state, seats.clone());
                continue;
            }
            game.legal_actions(state, &mut self.legal);
            if at_root {
                self.legal.retain(|a| root_legal.binary_search(a).is_ok());
            }
            if self.legal.is_empty() {
                return; // A decision without actions: nothing sound to back up.
            }
            self.group_into_classes(state);
            if self.legal.len() == 1 && !at_root {
                let action = self.concrete_action(state, self.legal[0]);
                game.apply(state, action);
                self.walk_steps += 1;
                self.extend_keys(game, state, seats.clone());
                continue;
            }
            let root_node = at_root;
            at_root = false;
            let key = self.keys.get(player as usize).copied().unwrap_or(0);
            let (info, _) = self.info_set(key, mover);
            if info == NONE {
                // The tree is full: play out from here.
                self.play_out(game, state);
                return;
            }
            let Some((edge, class, expanded)) = self.choose(game, state, info, mover, root_node)
            else {
                break;
            };
            let action = self.concrete_action(state, class);
            game.apply(state, action);
            self.walk_steps += 1;
            self.path.push(edge);
            if expanded {
                self.play_out(game, state);
                return;
            }
            self.extend_keys(game, state, seats.clone());
        }
        // The walk reached the end of the game inside the tree: score it as it stands.
        self.playout.score(game, state);
        self.backpropagate();
    }

    /// Plays the determinization `state` of the anchor forward with the rollout policy up to the
    /// searching `seat`'s next decision; whether that decision looks to `seat` exactly like the
    /// real one (its observation hashes to `root_hash`).
    fn replay_to_root(
        &mut self,
        game: &G,
        state: &mut G::State,
        seat: usize,
        root_hash: u64,
    ) -> bool {
        self.playout.start(game, &mut self.rng);
        for _ in 0..MAX_REPLAY {
            match game.current_player(state) {
                TERMINAL => return false,
                CHANCE => self.playout.chance_step(game, state, &mut self.rng),
                p if usize::try_from(p).ok() == Some(seat) => {
                    game.observation_tensor(state, seat, &mut self.tensor);
                    return hash_tensor(&self.tensor) == root_hash;
                }
                _ => match self.playout.policy_action(game, state, &mut self.rng) {
                    Some(action) => {
                        game.apply(state, action);
                        self.playout.observe(game, state);
                    }
                    None => return false,
                },
            }
        }
        false
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

    /// The most visited edge of the root information set `root` among `legal` (ties: higher
    /// mean reward, then smaller action).
    fn best_root_action(&self, root: u32, legal: &[u32]) -> u32 {
        let mut best: Option<(u32, f64, u32)> = None;
        let mut child = self
            .nodes
            .get(root as usize)
            .map_or(NONE, |n| n.first_child);
        while let Some(c) = self.nodes.get(child as usize) {
            if legal.binary_search(&c.action).is_ok() {
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
    fn stop_flag(&self) -> Option<Arc<AtomicBool>> {
        Some(Arc::clone(&self.stop))
    }

    fn reset(&mut self, _game: &G, seat: usize, rng: SplitMix64) {
        self.rng = rng;
        self.seat = seat;
        self.anchor = None;
        self.in_run = false;
        self.last.actions.clear();
    }

    /// Keeps the state before the other seats' latest run of decisions (see the module docs).
    fn observe(&mut self, game: &G, state: &G::State) {
        if self.public {
            return;
        }
        match usize::try_from(game.current_player(state)) {
            Ok(p) if p == self.seat => {
                if self.in_run {
                    self.in_run = false;
                } else {
                    self.anchor = None;
                }
            }
            Ok(_) => {
                if !self.in_run {
                    match &mut self.anchor {
                        Some(a) => a.clone_from(state),
                        slot => *slot = Some(state.clone()),
                    }
                    self.in_run = true;
                }
            }
            Err(_) => {
                self.anchor = None;
                self.in_run = false;
            }
        }
    }

    fn act(&mut self, game: &G, state: &G::State, legal: &[u32]) -> u32 {
        self.last.actions.clear();
        let seat = match usize::try_from(game.current_player(state)) {
            Ok(seat) if legal.len() > 1 => seat,
            _ => return first_or_zero(legal),
        };
        self.clear();
        for (s, bot) in self.hinters.iter_mut().enumerate() {
            bot.reset(game, s, SplitMix64::new(self.rng.next()));
        }
        // The root information set: the searching seat's own observation, which every
        // determinization shares.
        game.observation_tensor(state, seat, &mut self.tensor);
        let h = hash_tensor(&self.tensor);
        self.root_hash = h;
        let root_key = mix64(h ^ (seat as u64).wrapping_add(1));
        let (root, _) = self.info_set(root_key, seat as u32);
        let anchor = if seat == self.seat {
            self.anchor.take()
        } else {
            None
        };
        let common = self.params.crn && anchor.is_none();
        let base = if common { self.rng.next() } else { 0 };
        let mut run = 0;
        for i in 0..self.params.iterations {
            if i > 0 && self.stop.load(Ordering::Acquire) {
                break;
            }
            run += 1;
            if common {
                self.iterate_common(game, state, seat, legal, root, base);
                continue;
            }
            if let Some(a) = &anchor {
                if let Some(mut det) = game.determinize(a, seat, &mut self.rng) {
                    if self.replay_to_root(game, &mut det, seat, h) {
                        self.iterate(game, &mut det, seat, legal);
                        continue;
                    }
                }
            }
            let Some(mut det) = game.determinize(state, seat, &mut self.rng) else {
                continue;
            };
            self.iterate(game, &mut det, seat, legal);
        }
        self.anchor = anchor;
        let chosen = if self.classing {
            self.legal.clear();
            self.legal.extend_from_slice(legal);
            self.group_into_classes(state);
            let classes = std::mem::take(&mut self.legal);
            let class = self.best_root_action(root, &classes);
            self.legal = classes;
            self.concrete_action(state, class)
        } else {
            self.best_root_action(root, legal)
        };
        let last = &mut self.last;
        last.actions.extend_from_slice(legal);
        last.choices.clear();
        if self.classing {
            last.choices
                .extend(legal.iter().map(|&a| G::search_class(state, a)));
        } else {
            last.choices.extend_from_slice(legal);
        }
        last.root = root;
        last.iterations = run;
        last.chosen = chosen;
        chosen
    }

    fn observes(&self) -> bool {
        !self.public
    }

    fn search_stats(&self) -> Option<SearchStats> {
        let last = &self.last;
        if last.actions.is_empty() {
            return None;
        }
        // The root's edges: (choice, visits, mean reward).
        let mut edges = Vec::new();
        let mut child = self
            .nodes
            .get(last.root as usize)
            .map_or(NONE, |n| n.first_child);
        while let Some(c) = self.nodes.get(child as usize) {
            let mean = if c.visits == 0 {
                f64::NAN
            } else {
                c.total / f64::from(c.visits)
            };
            edges.push((c.action, c.visits, mean));
            child = c.next_sibling;
        }
        let edge = |choice: u32| {
            edges
                .iter()
                .find(|e| e.0 == choice)
                .map_or((0, f64::NAN), |e| (e.1, e.2))
        };
        let (visits, values) = last.choices.iter().map(|&c| edge(c)).unzip();
        Some(SearchStats {
            actions: last.actions.clone(),
            visits,
            values,
            choices: last.choices.clone(),
            iterations: last.iterations,
            chosen: last.chosen,
        })
    }
}
