//! What Goofspiel shows: the canonical state, a seat's observation, its tensor and the action
//! labels (`docs/games/goofspiel.md`). It reads the state, never changes it, and decides no rule.

use super::{values_of, Goofspiel, GoofspielState, LOWEST_CARD};
use crate::game::CHANCE;
use crate::tensor::TensorWriter;
use serde_json::{json, Map, Value};

/// `null` for 0, else the number.
fn opt(v: u8) -> Value {
    if v == 0 {
        Value::Null
    } else {
        json!(v)
    }
}

impl Goofspiel {
    fn hands_json(st: &GoofspielState) -> Value {
        json!([values_of(st.hands[0]), values_of(st.hands[1])])
    }

    fn bids_json(st: &GoofspielState) -> Value {
        Value::Array(st.done().iter().map(|t| json!(t.bids)).collect())
    }

    fn point_history_json(st: &GoofspielState) -> Value {
        Value::Array(st.done().iter().map(|t| json!(t.point)).collect())
    }

    /// The label of `action` at `st`: a point card at the chance node, a bid at a decision.
    pub(super) fn label(&self, st: &GoofspielState, action: u32) -> String {
        match st.to_move {
            // In u64: a label is asked for any id, so `id + 1` must not overflow.
            CHANCE => format!("point card {}", u64::from(action) + u64::from(LOWEST_CARD)),
            0 | 1 => format!("bid {}", u64::from(action) + u64::from(LOWEST_CARD)),
            _ => format!("action {action}"),
        }
    }

    /// Seat `player`'s observation: everything public plus its own pending bid.
    pub(super) fn observation_json(&self, st: &GoofspielState, player: usize) -> Value {
        let mut m = Self::public_json(st);
        m.insert("seat".into(), json!(player));
        m.insert("committed".into(), json!([st.pending != 0, false]));
        m.insert("own_bid".into(), opt(st.pending_of(player)));
        Value::Object(m)
    }

    /// What everyone sees, the part shared by the observation and the canonical state.
    fn public_json(st: &GoofspielState) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("turn".into(), json!(st.turn));
        m.insert("point_card".into(), opt(st.point_card));
        m.insert("remaining_points".into(), json!(values_of(st.remaining)));
        m.insert("hands".into(), Self::hands_json(st));
        m.insert("points".into(), json!(st.points));
        m.insert("bids".into(), Self::bids_json(st));
        m.insert("point_history".into(), Self::point_history_json(st));
        m
    }

    /// The length of the observation tensor.
    pub(super) fn tensor_size(&self) -> usize {
        let n = self.num_cards as usize;
        7 + 5 * n + 3 * n * n
    }

    /// The observation of seat `player` as numbers (the order of the contract).
    pub(super) fn write_tensor(&self, st: &GoofspielState, player: usize, out: &mut [f32]) {
        let n = self.num_cards as usize;
        let total = f64::from(self.num_cards * (self.num_cards + 1) / 2);
        let mut w = TensorWriter::new(out);
        w.one_hot(Some(player), 2);
        w.push_scaled(f64::from(st.turn), n as f64);
        w.one_hot(usize::from(st.point_card).checked_sub(1), n);
        w.multi_hot(st.remaining, 0, n);
        w.multi_hot(st.hands[0], 0, n);
        w.multi_hot(st.hands[1], 0, n);
        w.push_scaled(f64::from(st.points[0]), total);
        w.push_scaled(f64::from(st.points[1]), total);
        let done = st.done();
        for t in 0..n {
            match done.get(t) {
                Some(rec) => {
                    w.one_hot(usize::from(rec.point).checked_sub(1), n);
                    w.one_hot(usize::from(rec.bids[0]).checked_sub(1), n);
                    w.one_hot(usize::from(rec.bids[1]).checked_sub(1), n);
                }
                None => w.skip(3 * n),
            }
        }
        w.push_bool(st.pending_of(0) != 0);
        w.push_bool(st.pending_of(1) != 0);
        w.one_hot(usize::from(st.pending_of(player)).checked_sub(1), n);
        debug_assert_eq!(w.position(), self.tensor_size());
    }

    /// The canonical state (identical across backends).
    pub(super) fn state_value(&self, st: &GoofspielState) -> Value {
        let mut m = Self::public_json(st);
        m.insert(
            "pending".into(),
            json!([opt(st.pending_of(0)), opt(st.pending_of(1))]),
        );
        Value::Object(m)
    }
}
