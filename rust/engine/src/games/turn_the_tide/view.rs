//! What Turn the Tide shows: the canonical state, a seat's observation, its tensor and the action
//! labels (`docs/games/turn_the_tide.md`). It reads the state, never changes it, and decides no
//! rule.

use super::{
    Phase, TurnTheTide, TurnTheTideState, HAND_SIZE, HIGHEST_CARD, LOWEST_CARD, MAX_SEATS, NO_SEAT,
    TAKE_TIDE_A, TAKE_TIDE_B, TIDE_VALUES,
};
use crate::bits;
use crate::tensor::{scaled, TensorWriter};
use serde_json::{json, Value};

/// Weather cards (entries of a card block of the tensor).
const CARD_BLOCK: usize = (HIGHEST_CARD - LOWEST_CARD + 1) as usize;

impl TurnTheTide {
    fn seat_vec<T: Copy + Into<Value>>(&self, xs: &[T; MAX_SEATS]) -> Value {
        Value::Array(xs[..self.players].iter().map(|&x| x.into()).collect())
    }

    fn eliminated_json(&self, st: &TurnTheTideState) -> Value {
        Value::Array(
            (0..self.players)
                .map(|s| Value::Bool(st.eliminated(s)))
                .collect(),
        )
    }

    fn tide_json(&self, st: &TurnTheTideState) -> Value {
        Value::Array(
            (0..self.players)
                .map(|s| {
                    if st.tide[s] == 0 {
                        Value::Null
                    } else {
                        json!(st.tide[s])
                    }
                })
                .collect(),
        )
    }

    fn played_json(&self, st: &TurnTheTideState) -> Value {
        Value::Array(
            (0..self.players)
                .map(|s| json!(&st.played[s][..usize::from(st.played_len[s]).min(HAND_SIZE)]))
                .collect(),
        )
    }

    fn revealed_json(st: &TurnTheTideState) -> Value {
        json!(&st.revealed[..usize::from(st.revealed_len).min(2)])
    }

    /// The label of `action` at `st`.
    pub(super) fn label(&self, st: &TurnTheTideState, action: u32) -> String {
        match st.phase {
            Phase::Deal => format!("deal {action} to seat {}", Self::deal_seat(st)),
            Phase::Tide => {
                let which = if st.revealed_len == 0 { 'A' } else { 'B' };
                format!("tide {which}: {action}")
            }
            Phase::Play => format!("play {action}"),
            Phase::ChooseTide => match action {
                TAKE_TIDE_A => format!("take tide A ({})", st.revealed[0]),
                TAKE_TIDE_B => format!("take tide B ({})", st.revealed[1]),
                _ => format!("action {action}"),
            },
            Phase::Over => format!("action {action}"),
        }
    }

    /// Seat `player`'s observation: everything public plus its own hand and commitment.
    pub(super) fn observation_json(&self, st: &TurnTheTideState, player: usize) -> Value {
        let own = st.commitments.get(player).copied().unwrap_or(0);
        json!({
            "seat": player,
            "phase": st.phase.name(),
            "round": st.round,
            "hand_index": st.hand_index,
            "hand": bits::to_vec(st.hands.get(player).copied().unwrap_or(0)),
            "lifebuoys": self.seat_vec(&st.lifebuoys),
            "tide": self.tide_json(st),
            "revealed_tide": Self::revealed_json(st),
            "eliminated": self.eliminated_json(st),
            "played": self.played_json(st),
            "committed": Value::Array(
                st.commitments[..self.players].iter().map(|&c| Value::Bool(c != 0)).collect()
            ),
            "own_commitment": if own == 0 { Value::Null } else { json!(own) },
            "scores": self.seat_vec(&st.scores),
        })
    }

    /// The length of the observation tensor.
    pub(super) fn tensor_size(&self) -> usize {
        210 + self.rounds + 77 * self.players
    }

    /// The observation of seat `player` as numbers (the order of the contract).
    pub(super) fn write_tensor(&self, st: &TurnTheTideState, player: usize, out: &mut [f32]) {
        let n = self.players;
        let mut w = TensorWriter::new(out);
        w.one_hot(Some(player), n);
        w.one_hot(Some(st.phase as usize), Phase::COUNT);
        w.one_hot(Some(usize::from(st.round)), self.rounds);
        w.push_scaled(f64::from(st.hand_index), 12.0);
        w.multi_hot(
            st.hands.get(player).copied().unwrap_or(0),
            LOWEST_CARD,
            CARD_BLOCK,
        );
        for s in 0..n {
            w.push_scaled(f64::from(st.lifebuoys[s]), 12.0);
        }
        for s in 0..n {
            w.one_hot(usize::from(st.tide[s]).checked_sub(1), TIDE_VALUES);
        }
        for i in 0..2 {
            let v = if i < usize::from(st.revealed_len) {
                usize::from(st.revealed[i]).checked_sub(1)
            } else {
                None
            };
            w.one_hot(v, TIDE_VALUES);
        }
        for s in 0..n {
            w.push_bool(st.eliminated(s));
        }
        for s in 0..n {
            let len = usize::from(st.played_len[s]).min(HAND_SIZE);
            for (i, &c) in st.played[s][..len].iter().enumerate() {
                if let Some(c) = usize::from(c).checked_sub(LOWEST_CARD as usize) {
                    w.set(c * (n + 1) + s, 1.0);
                    w.set(c * (n + 1) + n, scaled((i + 1) as f64, 12.0));
                }
            }
        }
        w.skip(CARD_BLOCK * (n + 1));
        for s in 0..n {
            w.push_bool(st.commitments[s] != 0);
        }
        let own = st.commitments.get(player).copied().unwrap_or(0);
        w.one_hot(
            usize::from(own).checked_sub(LOWEST_CARD as usize),
            CARD_BLOCK,
        );
        for s in 0..n {
            w.push_scaled(f64::from(st.scores[s]), 12.0);
        }
        debug_assert_eq!(w.position(), self.tensor_size());
    }

    /// The canonical state (identical across backends).
    pub(super) fn state_value(&self, st: &TurnTheTideState) -> Value {
        let dealt: Vec<Value> = (0..self.players)
            .map(|s| {
                let len = usize::from(st.dealt_count)
                    .saturating_sub(s * HAND_SIZE)
                    .min(HAND_SIZE);
                json!(&st.dealt[s][..len])
            })
            .collect();
        let hands: Vec<Value> = (0..self.players)
            .map(|s| json!(bits::to_vec(st.hands[s])))
            .collect();
        let commitments: Vec<Value> = st.commitments[..self.players]
            .iter()
            .map(|&c| if c == 0 { Value::Null } else { json!(c) })
            .collect();
        json!({
            "dealt": dealt,
            "round": st.round,
            "hand_index": st.hand_index,
            "hands": hands,
            "lifebuoys": self.seat_vec(&st.lifebuoys),
            "tide": self.tide_json(st),
            "eliminated": self.eliminated_json(st),
            "played": self.played_json(st),
            "scores": self.seat_vec(&st.scores),
            "revealed_tide": Self::revealed_json(st),
            "tide_deck": st.tide_deck.counts(),
            "commitments": commitments,
            "chooser": if st.chooser == NO_SEAT { Value::Null } else { json!(st.chooser) },
        })
    }
}
