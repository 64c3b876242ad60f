//! The `greedy` bot of the overtaking lane. It reads only what its seat's observation holds plus
//! its memory of the rows it has seen, and never changes the state.

use super::{
    between, highest, lowest, Phase, TrafficarsOvertaking, TrafficarsOvertakingState, HIGHEST_CARD,
    LOWEST_CARD, OVERTAKE, PASS,
};
use crate::game::{cheapest, Bot};
use crate::rng::SplitMix64;

/// The `greedy` bot.
///
/// It reads only what its seat's observation holds (its hand, the row) plus its memory of every
/// row it has seen (cleared rows leave the game, so their cards can be in no hand).
/// - Overtake: always (it sheds cards and takes the turn); with `optional_overtake = false` the
///   engine overtakes for it, with `true` it chooses "overtake" at every `overtake` node.
/// - Play: of the fitting cards, the one that leaves the fewest cards strictly between it and the
///   end it goes to that it has not seen (not in its own hand, not seen in a row: cards an
///   overtaker could hold, wherever they are), counting each of its own cards stranded there as
///   half; ties go to the card closest to the end, then the lowest. So it plays outwards from the
///   ends, which also lets it play the most cards in a row.
/// - Start card (its pile is empty): the middle card of its hand (the lower one of the two middle
///   cards), so both ends stay open for its other cards.
/// - Pass: when forced (the only legal action).
#[derive(Clone, Debug, Default)]
pub struct GreedyBot {
    /// Cards seen in the row at any time (out of every hand for good).
    gone: u64,
}

impl GreedyBot {
    fn choose_play(&self, st: &TrafficarsOvertakingState, hand: u64, legal: &[u32]) -> u32 {
        let row = st.row;
        let key = |x: u32| {
            if !(LOWEST_CARD..=HIGHEST_CARD).contains(&x) || row == 0 {
                return (u32::MAX, u32::MAX);
            }
            let y = if x < lowest(row) {
                lowest(row)
            } else {
                highest(row)
            };
            let gap = between(x, y);
            let unknown = (gap & !hand & !self.gone & !row).count_ones();
            let own = (gap & hand).count_ones();
            // Cost in half cards: unknown cards weigh 2, own stranded cards 1.
            (2 * unknown + own, x.abs_diff(y))
        };
        cheapest(legal, (u32::MAX, u32::MAX), key)
            .unwrap_or_else(|| legal.first().copied().unwrap_or(PASS))
    }
}

impl Bot<TrafficarsOvertaking> for GreedyBot {
    fn reset(&mut self, _game: &TrafficarsOvertaking, _seat: usize, _rng: SplitMix64) {
        self.gone = 0;
    }

    fn act(
        &mut self,
        _game: &TrafficarsOvertaking,
        st: &TrafficarsOvertakingState,
        legal: &[u32],
    ) -> u32 {
        self.gone |= st.row;
        let first = legal.first().copied().unwrap_or(0);
        match st.phase {
            Phase::Overtake => {
                if legal.contains(&OVERTAKE) {
                    OVERTAKE
                } else {
                    first
                }
            }
            Phase::Play => {
                if legal == [PASS] {
                    PASS
                } else {
                    self.choose_play(st, st.hand(usize::from(st.active)), legal)
                }
            }
            Phase::Start => legal
                .get(legal.len().saturating_sub(1) / 2)
                .copied()
                .unwrap_or(first),
            _ => first,
        }
    }

    fn observe(&mut self, _game: &TrafficarsOvertaking, st: &TrafficarsOvertakingState) {
        self.gone |= st.row;
    }
}
