//! The whole-game random playout of Trafficars: [`Game::random_playout`] with the `random` bot in
//! every seat, played phase by phase with the rules' own functions instead of one node at a time.
//!
//! [`Game::random_playout`]: crate::game::Game::random_playout
//!
//! It makes exactly the draws of [`crate::step::random_playout`] (the definition), in the same
//! order and with the same bounds, and reaches the same state; the shared test kit checks this
//! (`check_fast_paths`). What it saves is the per-node dispatch: the deal is one loop over the
//! lanes and the seats, a turn commits every seat's card in one loop, and the resolution draws
//! an option where the stepping path would stop at a decision node, store its options, find the
//! seat to move again and check the drawn option against them.

use super::{Phase, Trafficars, TrafficarsState, MAX_SEATS, START};
use crate::bits;
use crate::rng::SplitMix64;
use crate::step::{self, RandomTable, StepError, StepResult};

impl Trafficars {
    /// [`Game::play_randomly`](crate::game::Game::play_randomly): plays `st` to its end with the
    /// `random` bots of `t`, counting in `t.counts` (see the module doc).
    #[inline(always)]
    pub(super) fn playout(
        &self,
        st: &mut TrafficarsState,
        t: &mut RandomTable<'_>,
    ) -> StepResult<()> {
        loop {
            match st.phase {
                Phase::Deal => {
                    if !self.deal_randomly(st, t.chance, &mut t.counts.1) {
                        // A deck too small for the deal (the options rule it out): the
                        // definition itself from here.
                        return step::random_playout(self, st, t);
                    }
                }
                Phase::Commit => self.turn_randomly(st, t)?,
                Phase::Resolve => {
                    // Only when the playout starts in the middle of a resolution: this decision
                    // as the stepping path makes it, then on with the next phase.
                    if !step::random_step(self, st, t)? {
                        return Ok(());
                    }
                }
                Phase::Over => return Ok(()),
            }
        }
    }

    /// The rest of the deal: every chance step draws a card uniformly from what
    /// [`Trafficars::card_actions`] offers (the deck's cars for the lane starters, then the whole
    /// deck for the hands, dealt seat by seat) and deals it as `apply` does, counting the steps in
    /// `chance_steps`. False, with nothing drawn, if the deck has no card to offer.
    #[inline(always)]
    fn deal_randomly(
        &self,
        st: &mut TrafficarsState,
        chance: &mut SplitMix64,
        chance_steps: &mut u32,
    ) -> bool {
        let total = self.deal_total();
        // Lane starters: lane k gets the k-th card dealt.
        while usize::from(st.dealt) < self.lanes.min(total) {
            let Some(card) = bits::pick(st.deck & self.cars, chance) else {
                return false;
            };
            *chance_steps += 1;
            if let Some(lane) = st.board.lanes.get_mut(usize::from(st.dealt)) {
                lane.push(START | card as u8);
            }
            st.deck &= !(1u64 << card);
            st.dealt += 1;
        }
        // Hands: `hand_size` cards to each seat in turn.
        let hand_size = usize::from(self.hand_size).max(1);
        let given = usize::from(st.dealt).saturating_sub(self.lanes);
        let (mut seat, mut left) = (given / hand_size, hand_size - given % hand_size);
        while usize::from(st.dealt) < total {
            let Some(card) = bits::pick(st.deck, chance) else {
                return false;
            };
            *chance_steps += 1;
            let bit = 1u64 << card;
            if let Some(hand) = st.hands.get_mut(seat) {
                *hand |= bit;
            }
            st.deck &= !bit;
            st.dealt += 1;
            left -= 1;
            if left == 0 {
                seat += 1;
                left = hand_size;
            }
        }
        st.phase = Phase::Commit;
        true
    }

    /// One whole turn from a commit node: the seats still to commit (seats commit in seat order,
    /// so they are `committer..players`) each commit a card drawn uniformly from their hand with
    /// their own stream, then the cards are revealed and resolved; every resolution choice with
    /// two or more options is drawn uniformly by the card's owner. Counts the decisions made.
    #[inline(always)]
    fn turn_randomly(&self, st: &mut TrafficarsState, t: &mut RandomTable<'_>) -> StepResult<()> {
        for seat in self.committer(st).min(MAX_SEATS)..self.players {
            let Some(rng) = t.seats.get_mut(seat) else {
                return Err(StepError::NoBot(seat as u32));
            };
            let hand = st.hands[seat];
            let Some(card) = bits::pick(hand, rng) else {
                return Err(StepError::NoLegalAction(seat as u32));
            };
            t.counts.0 += 1;
            st.hands[seat] = hand & !(1u64 << card);
            st.commitments[seat] = card as u8;
        }
        let cards = st.commitments;
        st.commitments = [0; MAX_SEATS];
        self.reveal(&mut st.board, &cards);
        self.resolve_randomly(st, t)
    }

    /// Resolves the queue to its end (what `advance` does, with the decisions it would stop at
    /// drawn here: `below(options)` from the owner's stream), then ends the turn.
    #[inline]
    fn resolve_randomly(
        &self,
        st: &mut TrafficarsState,
        t: &mut RandomTable<'_>,
    ) -> StepResult<()> {
        let b = &mut st.board;
        while let Some(seat) = b.head() {
            let card = b.revealed.get(seat).copied().unwrap_or(0);
            let c = self.card_choice(b, card);
            let acts = c.acts();
            let act = if let [only] = acts {
                Some(*only)
            } else if acts.is_empty() {
                None
            } else {
                let Some(rng) = t.seats.get_mut(seat) else {
                    return Err(StepError::NoBot(seat as u32));
                };
                t.counts.0 += 1;
                acts.get(rng.below(acts.len() as u64) as usize).copied()
            };
            if let Some(a) = act {
                self.carry_out(b, seat, card, c.kind, u32::from(a));
            }
            self.next_card(b, card);
        }
        self.end_turn(st);
        Ok(())
    }
}
