//! The end of the game (contract §8): Regret Values, the penalty discard of the seats with the
//! highest Regret Value, and the final scores.
//!
//! Must not: be reached other than through the tasks and nodes that end the game; it only reads
//! the holdings and writes the end fields.

use super::{DeepRegrets, DeepRegretsState as S, Node, Phase, NONE};

impl DeepRegrets {
    /// The game ends (contract §8).
    pub(super) fn finish(&self, st: &mut S) {
        let n = self.n();
        let d = self.data;
        for p in 0..n {
            let seat = &st.seats[p];
            let lb = if seat.lifeboat_used {
                u32::from(d.lifeboat_regret_value)
            } else {
                0
            };
            st.regret_values[p] = (seat.regret_value() + lb).min(255) as u8;
        }
        let max_rv = st.regret_values[..n].iter().copied().max().unwrap_or(0);
        for p in 0..n {
            st.discarded[p] = NONE;
            st.cloche_discarded[p] = NONE;
            if st.regret_values[p] != max_rv {
                continue;
            }
            let mut pick: Option<(usize, i32)> = None;
            for k in 0..3 {
                let f = st.seats[p].mounted[k];
                if f == NONE {
                    continue;
                }
                let v = self.value(st, usize::from(f), p) * i32::from(d.mount_multipliers[k]);
                let better = match pick {
                    None => true,
                    Some((_, b)) => {
                        if n == 2 {
                            v < b
                        } else {
                            v > b
                        }
                    }
                };
                if better {
                    pick = Some((k, v));
                }
            }
            if let Some((k, _)) = pick {
                let f = st.seats[p].mounted[k];
                st.seats[p].mounted[k] = NONE;
                st.discard_fish(f);
                st.discarded[p] = f;
            }
            // Contract, Decisions 80: the Cloche fish goes right after the same seat's
            // mounted-fish discard, seat by seat (the order of the discard pile shows it).
            let f = st.seats[p].cloche;
            if f != NONE {
                st.seats[p].cloche = NONE;
                st.discard_fish(f);
                st.cloche_discarded[p] = f;
            }
        }
        for p in 0..n {
            let mut score = 0i32;
            st.seats[p]
                .hand
                .each(|f| score += self.value(st, usize::from(f), p));
            st.seats[p]
                .front
                .each(|f| score += self.value(st, usize::from(f), p));
            let c = st.seats[p].cloche;
            if c != NONE {
                score += self.value(st, usize::from(c), p) * 2;
            }
            for k in 0..3 {
                let f = st.seats[p].mounted[k];
                if f != NONE {
                    score += self.value(st, usize::from(f), p) * i32::from(d.mount_multipliers[k]);
                }
            }
            score += i32::from(st.seats[p].money) / i32::from(d.money_per_point.max(1));
            st.final_scores[p] = score as i16;
        }
        st.ended = true;
        st.phase = Phase::Over;
        st.node = Node::Over;
        st.actor = NONE;
        st.turn = NONE;
        st.reset_ctx();
        st.stack_len = 0;
    }
}
