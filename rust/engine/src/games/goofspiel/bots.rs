//! The `greedy` bot of Goofspiel. It reads only what its seat may know (the point card, the
//! point cards still to come and its own hand) and never changes the state.

use super::{Goofspiel, GoofspielState, FIRST_ID, LAST_ID, LOWEST_CARD};
use crate::bits;
use crate::game::Bot;
use crate::rng::SplitMix64;

/// The `greedy` bot: rank matching.
///
/// It bids the card of its hand whose rank (0-based, in increasing order) equals the rank of the
/// revealed point card among the point cards still in play (the revealed one and the unrevealed
/// ones). Both sets always have the same size, and in a game the bot plays from the start its
/// hand is exactly that set of values, so this is "bid the card equal to the point card": it never
/// wastes a high card on a low point card, and it takes each point card unless the opponent bids
/// higher. It reads only the public point card and remaining point cards and its own hand (never
/// the opponent's pending bid).
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyBot;

impl GreedyBot {
    /// The rank of the current point card among the point cards still in play.
    fn rank(st: &GoofspielState) -> usize {
        let id = u32::from(st.point_card).wrapping_sub(LOWEST_CARD);
        let below = bits::bit_in(id, FIRST_ID, LAST_ID).wrapping_sub(1);
        (st.remaining & below).count_ones() as usize
    }
}

impl Bot<Goofspiel> for GreedyBot {
    fn reset(&mut self, _game: &Goofspiel, _seat: usize, _rng: SplitMix64) {}

    fn act(&mut self, _game: &Goofspiel, st: &GoofspielState, legal: &[u32]) -> u32 {
        let k = Self::rank(st);
        legal.get(k).or(legal.last()).copied().unwrap_or(0)
    }
}
