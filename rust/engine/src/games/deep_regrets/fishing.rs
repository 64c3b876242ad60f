//! The cast's numbers (contract §7.4, §16.5–§16.6): effective difficulty, the exact-dice rule
//! and the payment.
//!
//! Must not: change the state; the steps of the cast live in `abilities` and `apply`.

use super::data::{Fish, When};
use super::{DeepRegrets, DeepRegretsState as S, Seat, CLASSES, CLASS_FACE, NONE};

impl DeepRegrets {
    /// The difficulty modifier of `seat`'s equipped rod for `fish`: its passive amount where the
    /// passive applies, else 0 (also without a rod).
    #[inline]
    pub(super) fn rod_modifier(&self, seat: &Seat, fish: &Fish) -> i32 {
        if seat.rod == NONE {
            return 0;
        }
        match self
            .data
            .rods
            .get(usize::from(seat.rod))
            .and_then(|r| r.rod_passive)
        {
            Some((amount, when)) => {
                let applies = match when {
                    When::All => true,
                    When::Foul(foul) => fish.foul == foul,
                    When::Size(size) => fish.size == size,
                    When::FirstCatch => !seat.caught_today,
                };
                if applies {
                    i32::from(amount)
                } else {
                    0
                }
            }
            None => 0,
        }
    }

    /// The effective difficulty D of the current cast.
    pub(super) fn effective_difficulty(&self, st: &S, p: usize) -> i32 {
        if !st.cast_on || st.cast_zero {
            return 0;
        }
        let Some(f) = st.top_fish(usize::from(st.cast_shoal)) else {
            return 0;
        };
        let Some(fish) = self.data.fish.get(usize::from(f)) else {
            return 0;
        };
        self.difficulty_of(st, p, fish)
    }

    /// [`Self::effective_difficulty`] of a cast that is on, not made zero, with `fish` on top
    /// of its shoal.
    #[inline(always)]
    fn difficulty_of(&self, st: &S, p: usize, fish: &Fish) -> i32 {
        let seat = &st.seats[p];
        let rod = self.rod_modifier(seat, fish);
        let base = st.cast_base.map_or(i32::from(fish.difficulty), i32::from);
        let mut front = 0i32;
        // A seat mostly has no fish in front: one test then.
        if !seat.front.is_empty() {
            seat.front.and(&self.front_difficulty_set).each(|g| {
                if let Some((foul, amount)) = self
                    .data
                    .fish
                    .get(usize::from(g))
                    .and_then(|x| x.rules.front_difficulty)
                {
                    if foul == fish.foul {
                        front += i32::from(amount);
                    }
                }
            });
        }
        let per = match fish.rules.per {
            None => 0,
            Some((super::data::Per::HandFish, a)) => i32::from(a) * seat.hand.count() as i32,
            Some((super::data::Per::SeatsAtDepth2, a)) => {
                let c = st.seats[..self.n()].iter().filter(|x| x.depth == 2).count();
                i32::from(a) * c as i32
            }
        };
        (base + rod + front + per + i32::from(st.cast_reduction)).max(0)
    }

    /// (payment count, payment sum).
    // Inlined into `pay_numbers`: its first test mostly answers, and a call costs more.
    #[inline]
    pub(super) fn payment(&self, st: &S) -> (u32, u32) {
        // Most casts are paid from nothing (one test instead of the sums).
        if st.payment == [0; CLASSES] {
            return (0, 0);
        }
        let mut n = 0;
        let mut sum = 0;
        for c in 0..CLASSES {
            n += u32::from(st.payment[c]);
            sum += u32::from(st.payment[c]) * u32::from(CLASS_FACE[c]);
        }
        (n, sum)
    }

    /// The exact-dice count of the cast fish (0 = any).
    pub(super) fn cast_exact(&self, st: &S) -> u32 {
        st.top_fish(usize::from(st.cast_shoal))
            .and_then(|f| self.data.fish.get(usize::from(f)))
            .map_or(0, |f| u32::from(f.exact))
    }

    /// The cast's numbers at the `pay` node, each found once: the fish on top of the cast's
    /// shoal, its exact-dice count (0 = any), the effective difficulty D and the payment.
    // Inlined into the `random` bot's pay loop, which runs with the CPU's bit instructions.
    #[inline(always)]
    pub(super) fn pay_numbers(&self, st: &S, p: usize) -> PayNumbers {
        let fish = st
            .top_fish(usize::from(st.cast_shoal))
            .and_then(|f| self.data.fish.get(usize::from(f)));
        let exact = fish.map_or(0, |f| u32::from(f.exact));
        let d = match fish {
            Some(f) if st.cast_on && !st.cast_zero => self.difficulty_of(st, p, f),
            _ => 0,
        };
        let (paid, sum) = self.payment(st);
        let mut pay = PayNumbers {
            fish: if st.cast_on { fish } else { None },
            exact,
            d,
            paid,
            sum,
            complete: false,
        };
        pay.check();
        pay
    }
}

/// What [`DeepRegrets::pay_numbers`] finds.
pub(super) struct PayNumbers {
    /// The cast fish's data (`None` without a cast).
    pub fish: Option<&'static Fish>,
    /// Its exact-dice count (0 = any).
    pub exact: u32,
    /// The effective difficulty D.
    pub d: i32,
    /// Dice in the payment.
    pub paid: u32,
    /// The payment's sum.
    pub sum: u32,
    /// Whether the payment is complete.
    pub complete: bool,
}

impl PayNumbers {
    /// Sets `complete` from the others.
    #[inline]
    fn check(&mut self) {
        self.complete = (self.exact == 0 || self.paid == self.exact) && self.sum as i32 >= self.d;
    }

    /// The numbers after a die of class `c` went into the payment (the cast, and so D, stay).
    #[inline]
    pub fn paid_die(&mut self, c: usize) {
        self.paid += 1;
        self.sum += CLASS_FACE.get(c).map_or(0, |&f| u32::from(f));
        self.check();
    }
}
