//! The deterministic random number generator shared bit-for-bit with the Python reference:
//! SplitMix64 for the stream, Lemire's multiply-and-reject method for `below(n)`, and the
//! weighted pick used by every seeded chance node.

/// The SplitMix64 output function: mixes `z` into a well-spread 64-bit value (also a good hash
/// step).
#[inline]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// SplitMix64 generator (see `docs/rng.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose internal state is `seed`.
    pub const fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The internal state (the value to store to resume the stream later).
    pub const fn state(&self) -> u64 {
        self.state
    }

    /// The next 64-bit output.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix64(self.state)
    }

    /// A uniform integer in `0..n` (Lemire's method with rejection). `n` must be positive:
    /// `below(0)` panics in debug builds and returns 0 (after one draw) in release builds.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0, "below(0) is undefined");
        let mut m = u128::from(self.next()) * u128::from(n);
        let mut l = m as u64;
        if l < n {
            let t = n.wrapping_neg() % n;
            while l < t {
                m = u128::from(self.next()) * u128::from(n);
                l = m as u64;
            }
        }
        (m >> 64) as u64
    }

    /// Picks one outcome from `(outcome, weight)` pairs listed in increasing outcome order:
    /// draws `u = below(sum of weights)` and returns the first outcome whose running sum exceeds `u`.
    /// Returns `None` (drawing nothing) when the list is empty, all weights are zero, or the
    /// weights sum past `u64::MAX`.
    pub fn pick_weighted(&mut self, outcomes: &[(u32, u64)]) -> Option<u32> {
        let total = outcomes
            .iter()
            .try_fold(0u64, |sum, &(_, w)| sum.checked_add(w))?;
        if total == 0 {
            return None;
        }
        let u = self.below(total);
        let mut running = 0u64;
        for &(outcome, weight) in outcomes {
            running += weight;
            if running > u {
                return Some(outcome);
            }
        }
        None
    }
}

/// Derives the seed of sub-stream `index` of `seed` (used for per-game and per-bot seeds in batch
/// simulation): the first output of a SplitMix64 seeded with the first output of `seed` mixed with
/// `index`, so results never depend on how games are split across threads or machines.
#[inline]
pub fn derive_seed(seed: u64, index: u64) -> u64 {
    SeedDeriver::new(seed).derive(index)
}

/// [`derive_seed`] for many indices of one seed: the part that depends on the seed only is
/// computed once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeedDeriver {
    base: u64,
}

impl SeedDeriver {
    /// Prepares the sub-streams of `seed`.
    #[inline]
    pub fn new(seed: u64) -> Self {
        Self {
            base: SplitMix64::new(seed).next(),
        }
    }

    /// Exactly `derive_seed(seed, index)`.
    #[inline]
    pub fn derive(&self, index: u64) -> u64 {
        SplitMix64::new(self.base ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03)).next()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_summing_past_the_range_pick_nothing() {
        // The sum wrapped: to 0 in release builds (None, "empty"), a panic in debug builds.
        let mut r = SplitMix64::new(1);
        assert_eq!(r.pick_weighted(&[(0, u64::MAX), (1, 1)]), None);
        assert_eq!(r.pick_weighted(&[(7, 1 << 63), (9, 1 << 63)]), None);
        assert_eq!(r.state(), 1); // nothing was drawn
        assert!(r.pick_weighted(&[(7, u64::MAX - 1), (9, 1)]).is_some());
    }

    #[test]
    fn below_is_in_range() {
        let mut r = SplitMix64::new(1);
        for n in 1..200u64 {
            assert!(r.below(n) < n);
        }
    }

    #[test]
    fn deriver_matches_derive_seed() {
        for seed in [0, 1, 42, u64::MAX] {
            let d = SeedDeriver::new(seed);
            for index in [0, 1, 2, 1000, u64::MAX] {
                assert_eq!(d.derive(index), derive_seed(seed, index));
            }
        }
        assert_eq!(derive_seed(0, 0), 0xa706dd2f4d197e6f);
        assert_eq!(derive_seed(42, 7), 0xd4471d7a7c7c61c);
    }

    #[test]
    fn a_stream_resumes_from_its_stored_state() {
        let mut r = SplitMix64::new(7);
        assert_eq!(r.state(), 7);
        for _ in 0..5 {
            r.next();
        }
        let mut resumed = SplitMix64::new(r.state());
        assert_ne!(r.state(), 7);
        for _ in 0..20 {
            assert_eq!(resumed.next(), r.next());
        }
    }

    #[test]
    fn weighted_pick_respects_zero_weights() {
        let mut r = SplitMix64::new(3);
        for _ in 0..100 {
            let o = r.pick_weighted(&[(1, 0), (4, 2), (9, 0)]);
            assert_eq!(o, Some(4));
        }
        assert_eq!(r.pick_weighted(&[]), None);
    }
}
