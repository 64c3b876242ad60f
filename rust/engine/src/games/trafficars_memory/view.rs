//! How a memory-game state is shown: the canonical state, the observation of a seat (JSON and
//! tensor) and the action labels, as the contract fixes them. Everything here only reads a state;
//! no rule is decided here.

use super::{
    is_joker, Phase, TrafficarsMemory, TrafficarsMemoryState, LAYOUT_ACTIONS, MAX_GRID, NO_SEAT,
    STOP,
};
use crate::bits;
use crate::tensor::{scaled, TensorWriter};
use serde_json::{json, Value};

impl TrafficarsMemory {
    /// The action label (contract, "Actions and labels").
    pub(super) fn label(&self, st: &TrafficarsMemoryState, action: u32) -> String {
        match st.phase {
            Phase::Layout if LAYOUT_ACTIONS.contains(&action) => {
                let card = if is_joker(action) {
                    format!("joker ({action})")
                } else {
                    action.to_string()
                };
                format!("lay {card} at position {}", st.laid)
            }
            Phase::Flip if (action as usize) < self.grid => format!("flip position {action}"),
            Phase::Flip if action == STOP => "stop and take the run".to_string(),
            _ => format!("action {action}"),
        }
    }

    /// The observation of seat `player` (the same for every seat but `seat`).
    pub(super) fn observation_json(&self, st: &TrafficarsMemoryState, player: usize) -> Value {
        json!({
            "seat": player,
            "phase": st.phase.name(),
            "current": Self::current_json(st),
            "faces": self.faces_json(st),
            "seen": self.seen_json(st),
            "on_table": self.on_table_json(st),
            "taken": self.taken_json(st),
            "flipped": Self::flipped_json(st),
            "idle_turns": st.idle_turns,
        })
    }

    /// The length of the observation tensor.
    pub(super) fn tensor_size(&self) -> usize {
        4 + 3 * self.players + 6 * self.grid
    }

    /// Writes the observation tensor of seat `player`.
    pub(super) fn write_tensor(&self, st: &TrafficarsMemoryState, player: usize, out: &mut [f32]) {
        let (n, grid) = (self.players, self.grid);
        let mut w = TensorWriter::new(out);
        w.one_hot(Some(player), n);
        w.one_hot(Some(st.phase as usize), Phase::COUNT);
        w.one_hot(
            Some(usize::from(st.current)).filter(|_| st.current != NO_SEAT),
            n,
        );
        // Six entries per position (on the table, face up, known, card, joker, flip order), set
        // from the sets of positions: the buffer starts zeroed, so only the ones are written.
        let cells = w.block(6 * grid);
        let mut put = |pos: usize, entry: usize, value: f32| {
            if let Some(x) = cells.get_mut(6 * pos + entry) {
                *x = value;
            }
        };
        for pos in bits::ones(st.on_table) {
            put(pos as usize, 0, 1.0);
        }
        for pos in bits::ones(st.flipped_mask) {
            put(pos as usize, 1, 1.0);
        }
        for pos in bits::ones(st.flipped_mask | st.seen) {
            let pos = pos as usize;
            let card = st.layout.get(pos).copied().unwrap_or(0);
            put(pos, 2, 1.0);
            put(pos, 3, scaled(f64::from(card), 50.0));
            put(pos, 4, f32::from(u8::from(is_joker(u32::from(card)))));
        }
        // The flip order of the positions flipped this turn (1 = first).
        let flips = &st.flipped[..usize::from(st.flipped_len).min(MAX_GRID)];
        for (k, &pos) in flips.iter().enumerate() {
            put(usize::from(pos), 5, scaled(k as f64 + 1.0, grid as f64));
        }
        for s in 0..n {
            w.push_scaled(f64::from(st.taken[s]), grid as f64);
        }
        w.push_scaled(f64::from(st.idle_turns), f64::from(self.stall_turns));
        debug_assert_eq!(w.position(), 4 + 3 * n + 6 * grid);
    }

    /// The canonical state.
    pub(super) fn state_value(&self, st: &TrafficarsMemoryState) -> Value {
        json!({
            "phase": st.phase.name(),
            "current": Self::current_json(st),
            "seen": self.seen_json(st),
            "on_table": self.on_table_json(st),
            "taken": self.taken_json(st),
            "flipped": Self::flipped_json(st),
            "idle_turns": st.idle_turns,
            "layout": &st.layout[..usize::from(st.laid).min(MAX_GRID)],
        })
    }

    fn per_position<F: Fn(usize) -> Value>(&self, f: F) -> Value {
        Value::Array((0..self.grid).map(f).collect())
    }

    /// Per position, its card where `positions` has the position's bit, else `null`.
    fn cards_at(&self, st: &TrafficarsMemoryState, positions: u64) -> Value {
        self.per_position(|p| {
            if positions >> p & 1 == 1 {
                json!(st.layout[p])
            } else {
                Value::Null
            }
        })
    }

    fn faces_json(&self, st: &TrafficarsMemoryState) -> Value {
        self.cards_at(st, st.flipped_mask)
    }

    fn seen_json(&self, st: &TrafficarsMemoryState) -> Value {
        self.cards_at(st, st.seen)
    }

    fn on_table_json(&self, st: &TrafficarsMemoryState) -> Value {
        self.per_position(|p| Value::Bool(st.on_table >> p & 1 == 1))
    }

    fn current_json(st: &TrafficarsMemoryState) -> Value {
        if st.current == NO_SEAT {
            Value::Null
        } else {
            json!(st.current)
        }
    }

    fn flipped_json(st: &TrafficarsMemoryState) -> Value {
        json!(&st.flipped[..usize::from(st.flipped_len).min(MAX_GRID)])
    }

    fn taken_json(&self, st: &TrafficarsMemoryState) -> Value {
        json!(&st.taken[..self.players])
    }
}
