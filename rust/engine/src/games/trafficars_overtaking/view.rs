//! What the overtaking lane shows: the canonical state, a seat's observation, its tensor and the
//! action labels (`docs/games/trafficars_overtaking.md`). It reads the state, never changes it,
//! and decides no rule.

use super::{
    Phase, TrafficarsOvertaking, TrafficarsOvertakingState, HIGHEST_CARD, LET_GO, LOWEST_CARD,
    NO_SEAT, OVERTAKE, PASS,
};
use crate::bits;
use crate::tensor::TensorWriter;
use serde_json::{json, Value};

/// Car cards (entries of a card block of the tensor).
const CARD_BLOCK: usize = (HIGHEST_CARD - LOWEST_CARD + 1) as usize;

impl TrafficarsOvertaking {
    fn seat_json(s: u8) -> Value {
        if s == NO_SEAT {
            Value::Null
        } else {
            json!(s)
        }
    }

    fn overtake_card_json(st: &TrafficarsOvertakingState) -> Value {
        if st.overtake_card == 0 {
            Value::Null
        } else {
            json!(st.overtake_card)
        }
    }

    /// The label of `action` at `st`.
    pub(super) fn label(&self, st: &TrafficarsOvertakingState, action: u32) -> String {
        let card = (LOWEST_CARD..=HIGHEST_CARD).contains(&action);
        match st.phase {
            Phase::Deal if card => {
                if usize::from(st.removed_len) < self.removed_count {
                    format!("remove {action}")
                } else {
                    format!("deal {action} to seat {}", self.deal_seat(st))
                }
            }
            Phase::Play if card => format!("play {action}"),
            Phase::Play if action == PASS => "pass".to_string(),
            Phase::Start if card => format!("start the row with {action}"),
            Phase::Overtake if action == OVERTAKE => "overtake".to_string(),
            Phase::Overtake if action == LET_GO => "let go".to_string(),
            _ => format!("action {action}"),
        }
    }

    /// Seat `player`'s observation: everything public plus its own hand.
    pub(super) fn observation_json(&self, st: &TrafficarsOvertakingState, player: usize) -> Value {
        let n = self.players;
        json!({
            "seat": player,
            "phase": st.phase.name(),
            "row": bits::to_vec(st.row),
            "hand": bits::to_vec(st.hand(player)),
            "pile_sizes": (0..n).map(|s| st.pile_count(s)).collect::<Vec<_>>(),
            "hand_sizes": (0..n).map(|s| st.hands[s].count_ones()).collect::<Vec<_>>(),
            "active": st.active,
            "overtaker": st.overtaker,
            "passes": st.passes,
            "overtake_card": Self::overtake_card_json(st),
            "winner": Self::seat_json(st.winner),
        })
    }

    /// The length of the observation tensor.
    pub(super) fn tensor_size(&self) -> usize {
        156 + 6 * self.players
    }

    /// The observation of seat `player` as numbers (the order of the contract).
    pub(super) fn write_tensor(
        &self,
        st: &TrafficarsOvertakingState,
        player: usize,
        out: &mut [f32],
    ) {
        let n = self.players;
        let mut w = TensorWriter::new(out);
        w.one_hot(Some(player), n);
        w.one_hot(Some(st.phase as usize), Phase::COUNT);
        w.multi_hot(st.row, LOWEST_CARD, CARD_BLOCK);
        w.multi_hot(st.hand(player), LOWEST_CARD, CARD_BLOCK);
        for s in 0..n {
            w.push_scaled(f64::from(st.pile_count(s)), 25.0);
        }
        for s in 0..n {
            w.push_scaled(f64::from(st.hands[s].count_ones()), 6.0);
        }
        w.one_hot(Some(usize::from(st.active)), n);
        w.one_hot(Some(usize::from(st.overtaker)), n);
        w.push_scaled(f64::from(st.passes), n as f64);
        w.one_hot(
            usize::from(st.overtake_card).checked_sub(LOWEST_CARD as usize),
            CARD_BLOCK,
        );
        w.one_hot(
            Some(usize::from(st.winner)).filter(|_| st.winner != NO_SEAT),
            n,
        );
        debug_assert_eq!(w.position(), self.tensor_size());
    }

    /// The canonical state (identical across backends).
    pub(super) fn state_value(&self, st: &TrafficarsOvertakingState) -> Value {
        let n = self.players;
        let removed = &st.removed[..usize::from(st.removed_len).min(st.removed.len())];
        json!({
            "phase": st.phase.name(),
            "row": bits::to_vec(st.row),
            "active": st.active,
            "overtaker": st.overtaker,
            "passes": st.passes,
            "overtake_card": Self::overtake_card_json(st),
            "winner": Self::seat_json(st.winner),
            "removed": removed,
            "piles": (0..n).map(|s| json!(st.pile(s))).collect::<Vec<_>>(),
            "hands": (0..n).map(|s| json!(bits::to_vec(st.hands[s]))).collect::<Vec<_>>(),
        })
    }
}
