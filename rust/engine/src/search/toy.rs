//! A tiny two-player game with hidden hands, for testing and benchmarking the search players
//! without depending on any registered game. It is not registered.
//!
//! Rules of "hidden duel": twelve cards valued `0..12`; chance deals five to each seat
//! alternately (seat 0 first), two stay undealt. Five tricks follow: the leader plays a card face
//! up, then the other seat; the higher card wins the trick, whose winner leads the next one.
//! Seat 0 leads the first trick. Trick `t` (`0..5`) is worth `t + 1` points; the seat with more
//! points (of 15) wins. Actions and chance outcomes are card values.

use crate::error::Result;
use crate::game::{Bot, Game, CHANCE, TERMINAL};
use crate::options::OptionValues;
use crate::rng::SplitMix64;
use serde_json::{json, Map, Value};

/// Cards in the deck.
pub const CARDS: u32 = 12;
/// Cards dealt to each seat.
pub const HAND: u32 = 5;
const ALL: u16 = (1 << CARDS) - 1;

/// The hidden-duel game (see the module docs).
#[derive(Clone, Debug)]
pub struct HiddenDuel {
    values: OptionValues,
    determinizer: bool,
}

impl Default for HiddenDuel {
    fn default() -> Self {
        Self {
            values: OptionValues::default(),
            determinizer: true,
        }
    }
}

impl HiddenDuel {
    /// The same game without a determinizer ([`Game::determinize`] returns `None`), to check that
    /// search players refuse such games.
    pub fn without_determinizer() -> Self {
        Self {
            determinizer: false,
            ..Self::default()
        }
    }
}

/// The full state of a hidden duel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DuelState {
    /// Cards each seat still holds (bit `c` = card `c`).
    pub hands: [u16; 2],
    /// Cards each seat has played (public).
    pub played: [u16; 2],
    /// Cards dealt so far.
    pub deals: u8,
    /// The card led in the current trick, if any.
    pub lead: Option<u8>,
    /// The seat leading the current trick.
    pub leader: u8,
    /// Tricks played so far.
    pub trick: u8,
    /// Points per seat.
    pub points: [u8; 2],
}

fn cards(mask: u16) -> Vec<u32> {
    (0..CARDS).filter(|&c| mask >> c & 1 == 1).collect()
}

/// What both seats see: the played cards, the deal count, the trick and the points.
fn public_json(st: &DuelState) -> Map<String, Value> {
    let public = json!({
        "played": [cards(st.played[0]), cards(st.played[1])],
        "deals": st.deals,
        "lead": st.lead,
        "leader": st.leader,
        "trick": st.trick,
        "points": st.points,
    });
    public.as_object().cloned().unwrap_or_default()
}

crate::options::game_options! {
    /// Two players and no other options.
    #[players(2..=2)]
    pub struct DuelOptions {}
}

impl Game for HiddenDuel {
    type State = DuelState;
    const ID: &'static str = "hidden_duel";
    type Options = DuelOptions;

    fn with_options(_players: usize, _options: DuelOptions, values: OptionValues) -> Result<Self> {
        Ok(Self {
            values,
            determinizer: true,
        })
    }

    fn option_values(&self) -> &OptionValues {
        &self.values
    }

    fn players(&self) -> usize {
        2
    }

    fn num_actions(&self) -> u32 {
        CARDS
    }

    fn initial_state(&self) -> DuelState {
        DuelState::default()
    }

    fn current_player(&self, st: &DuelState) -> i32 {
        if u32::from(st.deals) < 2 * HAND {
            CHANCE
        } else if u32::from(st.trick) == HAND {
            TERMINAL
        } else if st.lead.is_some() {
            1 - i32::from(st.leader)
        } else {
            i32::from(st.leader)
        }
    }

    fn legal_actions(&self, st: &DuelState, out: &mut Vec<u32>) {
        out.clear();
        let mask = match self.current_player(st) {
            CHANCE => ALL & !(st.hands[0] | st.hands[1]),
            TERMINAL => 0,
            p => st.hands[p as usize & 1],
        };
        out.extend((0..CARDS).filter(|&c| mask >> c & 1 == 1));
    }

    fn chance_outcomes(&self, st: &DuelState, out: &mut Vec<(u32, u64)>) {
        out.clear();
        if self.current_player(st) == CHANCE {
            let free = ALL & !(st.hands[0] | st.hands[1]);
            out.extend((0..CARDS).filter(|&c| free >> c & 1 == 1).map(|c| (c, 1)));
        }
    }

    fn apply(&self, st: &mut DuelState, action: u32) {
        let bit = 1u16 << (action % CARDS);
        match self.current_player(st) {
            CHANCE => {
                st.hands[usize::from(st.deals & 1)] |= bit;
                st.deals += 1;
            }
            TERMINAL => {}
            p => {
                let p = p as usize & 1;
                st.hands[p] &= !bit;
                st.played[p] |= bit;
                let card = (action % CARDS) as u8;
                match st.lead {
                    None => st.lead = Some(card),
                    Some(led) => {
                        let winner = if card > led { p as u8 } else { st.leader };
                        st.points[usize::from(winner)] += st.trick + 1;
                        st.leader = winner;
                        st.lead = None;
                        st.trick += 1;
                    }
                }
            }
        }
    }

    fn action_label(&self, st: &DuelState, action: u32) -> String {
        if self.current_player(st) == CHANCE {
            format!("deal {action}")
        } else {
            format!("play {action}")
        }
    }

    fn scores(&self, st: &DuelState, out: &mut [i64]) {
        for (o, &p) in out.iter_mut().zip(&st.points) {
            *o = i64::from(p);
        }
    }

    fn winner_mask(&self, st: &DuelState) -> u64 {
        match st.points[0].cmp(&st.points[1]) {
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Less => 2,
            std::cmp::Ordering::Equal => 3,
        }
    }

    fn observation(&self, st: &DuelState, player: usize) -> Value {
        let mut out = public_json(st);
        out.insert("seat".into(), json!(player));
        out.insert("hand".into(), json!(cards(st.hands[player & 1])));
        Value::Object(out)
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![3 * CARDS as usize + 4]
    }

    fn observation_tensor(&self, st: &DuelState, player: usize, out: &mut [f32]) {
        out.fill(0.0);
        let n = CARDS as usize;
        for c in 0..n {
            let on = |m: u16| if m >> c & 1 == 1 { 1.0 } else { 0.0 };
            out[c] = on(st.hands[player & 1]);
            out[n + c] = on(st.played[0]);
            out[2 * n + c] = on(st.played[1]);
        }
        out[3 * n] = f32::from(st.deals) / 10.0;
        out[3 * n + 1] = st.lead.map_or(0.0, |c| f32::from(c + 1) / 12.0);
        out[3 * n + 2] = f32::from(st.points[0]) / 15.0;
        out[3 * n + 3] = f32::from(st.points[1]) / 15.0;
    }

    fn state_json(&self, st: &DuelState) -> Value {
        let mut out = public_json(st);
        out.insert(
            "hands".into(),
            json!([cards(st.hands[0]), cards(st.hands[1])]),
        );
        Value::Object(out)
    }

    /// Keeps the observer's hand and every played card; deals the other seat's held cards
    /// uniformly from the unseen cards (the other hand and the undealt ones), listed in increasing
    /// order, so the result does not depend on where the unseen cards really are.
    fn determinize(
        &self,
        st: &DuelState,
        observer: usize,
        rng: &mut SplitMix64,
    ) -> Option<DuelState> {
        if !self.determinizer {
            return None;
        }
        let me = observer & 1;
        let other = 1 - me;
        let unseen = ALL & !st.hands[me] & !st.played[0] & !st.played[1];
        // Deals alternate starting with seat 0, so the other seat has received this many cards.
        let dealt_to_other = (u32::from(st.deals) + 1 - other as u32) / 2;
        let held = dealt_to_other.saturating_sub(st.played[other].count_ones());
        let mut pool = [0u8; CARDS as usize];
        let mut len = 0;
        for c in 0..CARDS as u8 {
            if unseen >> c & 1 == 1 {
                pool[len] = c;
                len += 1;
            }
        }
        let mut hand = 0u16;
        for i in 0..(held as usize).min(len) {
            let j = i + rng.below((len - i) as u64) as usize;
            pool.swap(i, j);
            hand |= 1 << pool[i];
        }
        let mut out = *st;
        out.hands[other] = hand;
        Some(out)
    }

    crate::game::builtin_bots!("greedy" => DuelGreedy);
}

/// The toy's `greedy` bot: leads its highest card; follows with the lowest card that wins the
/// trick, or its lowest card when none does.
#[derive(Clone, Copy, Debug, Default)]
pub struct DuelGreedy;

impl Bot<HiddenDuel> for DuelGreedy {
    fn reset(&mut self, _game: &HiddenDuel, _seat: usize, _rng: SplitMix64) {}

    fn act(&mut self, _game: &HiddenDuel, st: &DuelState, legal: &[u32]) -> u32 {
        let lowest = legal.first().copied().unwrap_or(0);
        match st.lead {
            None => legal.last().copied().unwrap_or(0),
            Some(led) => legal
                .iter()
                .copied()
                .find(|&c| c > u32::from(led))
                .unwrap_or(lowest),
        }
    }

    fn observes(&self) -> bool {
        false
    }
}
