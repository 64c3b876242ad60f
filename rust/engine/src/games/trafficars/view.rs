//! How a Trafficars state is shown: the canonical state, the observation of a seat (JSON and
//! tensor) and the action labels, as the contract fixes them. Everything here only reads a state;
//! no rule is decided here (the lanes' places and counts come from the rules module as they are).

use super::{
    tok_id, Board, Decision, Kind, Phase, Trafficars, TrafficarsState, CARD_ACTIONS, CARD_IDS,
    DOUBLE, FREE_PLACE_OPTION, LANE_OPTION, MAX_SEATS, START,
};
use crate::bits;
use crate::tensor::{scaled, TensorWriter};
use serde_json::{json, Value};

impl Trafficars {
    /// How a label names card `id` (contract, "Actions and labels"): a car by its number, any
    /// other card by its kind with its id in brackets (`trailer 10 (51)`, `police (57)`).
    fn card_name(&self, id: u32) -> String {
        let Ok(card) = u8::try_from(id) else {
            return id.to_string();
        };
        match self.kind(card) {
            Kind::Car => id.to_string(),
            Kind::Trailer => format!("trailer {} ({id})", self.number(card)),
            Kind::Ambulance => format!("ambulance ({id})"),
            Kind::Police => format!("police ({id})"),
            Kind::TowTruck => format!("tow truck ({id})"),
        }
    }

    /// The action label (contract, "Actions and labels").
    pub(super) fn label(&self, st: &TrafficarsState, action: u32) -> String {
        let a = action;
        let card = CARD_ACTIONS.contains(&a);
        match st.phase {
            Phase::Deal if card => {
                let dealt = usize::from(st.dealt);
                let name = self.card_name(a);
                if dealt < self.lanes {
                    format!("lane {dealt} starts with {name}")
                } else {
                    let seat = (dealt - self.lanes) / usize::from(self.hand_size).max(1);
                    format!("deal {name} to seat {seat}")
                }
            }
            Phase::Commit if card => format!("play {}", self.card_name(a)),
            Phase::Resolve => {
                let kind = self.decision(st);
                let lane = a.wrapping_sub(LANE_OPTION);
                let free = a.wrapping_sub(FREE_PLACE_OPTION);
                let lanes = self.lanes as u32;
                match kind {
                    Some(k) if lane < lanes => match k {
                        Decision::Ambulance => format!("ambulance to lane {lane}"),
                        Decision::Police => format!("police to lane {lane}"),
                        Decision::PoliceTake | Decision::Take => format!("take lane {lane}"),
                        Decision::TowTruck => format!("tow truck to lane {lane}"),
                        Decision::Target => format!("to lane {lane}"),
                        Decision::Insert => format!("insert into lane {lane}"),
                        Decision::Commit => format!("action {a}"),
                    },
                    Some(Decision::Target | Decision::Take | Decision::Insert) if free < lanes => {
                        format!("fill the free place in lane {free}")
                    }
                    _ => format!("action {a}"),
                }
            }
            _ => format!("action {a}"),
        }
    }

    /// The observation of seat `player`.
    pub(super) fn observation_json(&self, st: &TrafficarsState, player: usize) -> Value {
        let b = &st.board;
        let (lanes, place_cars, cars) = self.lanes_json(b);
        let own = st.commitments.get(player).copied().unwrap_or(0);
        let resolving = match (st.phase, b.head()) {
            (Phase::Resolve, Some(s)) => json!(b.revealed[s]),
            _ => Value::Null,
        };
        json!({
            "seat": player,
            "phase": st.phase.name(),
            "decision": self.decision(st).map(Decision::name),
            "turn": st.turn,
            "hand": bits::to_vec(st.hands.get(player).copied().unwrap_or(0)),
            "lanes": lanes,
            "place_cars": place_cars,
            "cars": cars,
            "penalties": json!(&b.penalties[..self.players]),
            "committed": Value::Array(
                st.commitments[..self.players].iter().map(|&c| Value::Bool(c != 0)).collect()
            ),
            "own_commitment": if own == 0 { Value::Null } else { json!(own) },
            "revealed": self.revealed_json(b),
            "last_revealed": self.last_revealed_json(b),
            "resolving": resolving,
            "queue": Self::queue_json(b),
        })
    }

    /// The length of the observation tensor.
    pub(super) fn tensor_size(&self) -> usize {
        385 + 64 * self.lanes + 128 * self.players
    }

    /// Writes the observation tensor of seat `player`.
    pub(super) fn write_tensor(&self, st: &TrafficarsState, player: usize, out: &mut [f32]) {
        let (n, l) = (self.players, self.lanes);
        let b = &st.board;
        let mut w = TensorWriter::new(out);
        w.one_hot(Some(player), n);
        w.one_hot(Some(st.phase as usize), Phase::COUNT);
        let decision = self.decision(st).map(|d| match d {
            Decision::Commit => 0,
            Decision::Ambulance => 1,
            Decision::Police => 2,
            Decision::PoliceTake => 3,
            Decision::TowTruck => 4,
            Decision::Target => 5,
            Decision::Take => 6,
            Decision::Insert => 7,
        });
        w.one_hot(decision, 8);
        w.push_scaled(f64::from(st.turn), f64::from(self.hand_size));
        w.multi_hot(st.hands.get(player).copied().unwrap_or(0), 1, CARD_IDS);
        let block = l + 3;
        for (k, lane) in b.lanes[..l].iter().enumerate() {
            let (mut places, mut level, mut double) = (0usize, 0usize, false);
            for &t in lane.toks() {
                if t & START != 0 {
                    places += 1;
                    level = 0;
                    double = t & DOUBLE != 0;
                } else {
                    level += 1;
                }
                if let Some(i) = usize::from(tok_id(t)).checked_sub(1) {
                    let base = i * block;
                    w.set(base + k, 1.0);
                    w.set(base + l, scaled(places as f64, 8.0));
                    w.set(base + l + 1, scaled((level + 1) as f64, 4.0));
                    if double {
                        w.set(base + l + 2, 1.0);
                    }
                }
            }
        }
        w.skip(CARD_IDS * block);
        for lane in &b.lanes[..l] {
            // The free place's place index: the places that start before its token.
            let place = lane
                .free_place()
                .map(|i| lane.toks()[..i].iter().filter(|&&t| t & START != 0).count());
            w.push(place.map_or(0.0, |j| scaled((j + 1) as f64, 8.0)));
        }
        for lane in &b.lanes[..l] {
            w.push_scaled(f64::from(lane.cars()), 8.0);
        }
        for s in 0..n {
            w.push_scaled(f64::from(b.penalties[s]), 20.0);
        }
        for s in 0..n {
            w.push_bool(st.commitments[s] != 0);
        }
        let own = st.commitments.get(player).copied().unwrap_or(0);
        w.one_hot(usize::from(own).checked_sub(1), CARD_IDS);
        for s in 0..n {
            let card = if b.revealed_mask == 0 {
                0
            } else {
                b.revealed[s]
            };
            w.one_hot(usize::from(card).checked_sub(1), CARD_IDS);
        }
        for &card in &b.last_revealed[..n] {
            w.one_hot(usize::from(card).checked_sub(1), CARD_IDS);
        }
        let resolving = match (st.phase, b.head()) {
            (Phase::Resolve, Some(s)) => usize::from(b.revealed[s]).checked_sub(1),
            _ => None,
        };
        w.one_hot(resolving, CARD_IDS);
        for (k, &s) in b.pending().iter().enumerate() {
            w.set(usize::from(s), scaled((k + 1) as f64, n as f64));
        }
        w.skip(n);
        debug_assert_eq!(w.position(), 385 + 64 * l + 128 * n);
    }

    /// The canonical state.
    pub(super) fn state_value(&self, st: &TrafficarsState) -> Value {
        let b = &st.board;
        let (lanes, place_cars, _) = self.lanes_json(b);
        let hands: Vec<Value> = (0..self.players)
            .map(|s| json!(bits::to_vec(st.hands[s])))
            .collect();
        json!({
            "phase": st.phase.name(),
            "turn": st.turn,
            "lanes": lanes,
            "place_cars": place_cars,
            "penalties": json!(&b.penalties[..self.players]),
            "revealed": self.revealed_json(b),
            "last_revealed": self.last_revealed_json(b),
            "queue": Self::queue_json(b),
            "hands": hands,
            "commitments": self.seat_cards(&st.commitments),
        })
    }

    /// `lanes`, `place_cars` and `cars` as JSON.
    fn lanes_json(&self, b: &Board) -> (Value, Value, Value) {
        let mut lanes = Vec::with_capacity(self.lanes);
        let mut counts = Vec::with_capacity(self.lanes);
        let mut cars = Vec::with_capacity(self.lanes);
        for lane in &b.lanes[..self.lanes] {
            let mut places: Vec<Value> = Vec::new();
            let mut pc: Vec<Value> = Vec::new();
            let t = lane.toks();
            let mut i = 0;
            while i < t.len() {
                let end = lane.place_end(i);
                if tok_id(t[i]) == 0 {
                    places.push(Value::Null);
                } else {
                    places.push(json!(t[i..end]
                        .iter()
                        .map(|&x| tok_id(x))
                        .collect::<Vec<_>>()));
                }
                pc.push(json!(1 + u8::from(t[i] & DOUBLE != 0)));
                i = end;
            }
            lanes.push(Value::Array(places));
            counts.push(Value::Array(pc));
            cars.push(json!(lane.cars()));
        }
        (
            Value::Array(lanes),
            Value::Array(counts),
            Value::Array(cars),
        )
    }

    fn revealed_json(&self, b: &Board) -> Value {
        if b.revealed_mask == 0 {
            Value::Null
        } else {
            json!(&b.revealed[..self.players])
        }
    }

    /// `last_revealed`: null until a turn has ended (card ids are never 0).
    fn last_revealed_json(&self, b: &Board) -> Value {
        if b.last_revealed[0] == 0 {
            Value::Null
        } else {
            json!(&b.last_revealed[..self.players])
        }
    }

    fn queue_json(b: &Board) -> Value {
        json!(b.pending())
    }

    fn seat_cards(&self, xs: &[u8; MAX_SEATS]) -> Value {
        Value::Array(
            xs[..self.players]
                .iter()
                .map(|&c| if c == 0 { Value::Null } else { json!(c) })
                .collect(),
        )
    }
}
