//! The CPU's own bit instructions (population count, and `pdep` for the k-th set bit), detected at
//! run time so that one portable build uses them where the machine has them.
//!
//! This is the only module of the engine where `unsafe` is allowed, and for one reason: calling a
//! function compiled with `#[target_feature]` (which lets the compiler emit `popcnt` or `pdep`)
//! is `unsafe`, because running it on a CPU without the feature is undefined behaviour. Every such
//! call below is made only after the feature has been detected (or is enabled for the whole
//! build), and the functions this module exports are safe: they answer `None` when the fast path
//! is not available and the caller falls back to the portable code in [`crate::bits`]. The tests
//! check that every path gives exactly the portable results.
//!
//! `pdep` is used only where it is fast: on the AMD processors before Zen 3 it is microcoded and
//! far slower than the portable select, so those count as not having it.

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::{__cpuid, _pdep_u64};
    use std::sync::atomic::{AtomicU8, Ordering};

    /// Not detected yet.
    const UNKNOWN: u8 = 0;
    /// Detected: bit 0 set when `popcnt` is available, bit 1 when a fast `pdep` is too.
    const DETECTED: u8 = 0x80;
    /// Bit of [`LEVEL`]: `popcnt` is available.
    pub const POPCNT: u8 = 1;
    /// Bit of [`LEVEL`]: `popcnt` and a fast `pdep` (BMI2) are available.
    pub const PDEP: u8 = 2;

    static LEVEL: AtomicU8 = AtomicU8::new(UNKNOWN);

    /// The detected features ([`POPCNT`], [`PDEP`] bits).
    #[inline(always)]
    pub fn level() -> u8 {
        let level = LEVEL.load(Ordering::Relaxed);
        if level == UNKNOWN {
            detect()
        } else {
            level
        }
    }

    /// Whether the CPU has `feature` (a bit of [`level`]): one load and one test once detected.
    #[inline(always)]
    pub fn has(feature: u8) -> bool {
        let level = LEVEL.load(Ordering::Relaxed);
        level & feature != 0 || (level == UNKNOWN && detect() & feature != 0)
    }

    #[cold]
    #[inline(never)]
    fn detect() -> u8 {
        let mut level = DETECTED;
        if std::is_x86_feature_detected!("popcnt") {
            level |= POPCNT;
            if std::is_x86_feature_detected!("bmi2") && pdep_is_fast() {
                level |= PDEP;
            }
        }
        LEVEL.store(level, Ordering::Relaxed);
        level
    }

    /// False on AMD and Hygon processors before family 0x19 (Zen 3), where `pdep` is microcoded.
    fn pdep_is_fast() -> bool {
        // SAFETY: `cpuid` exists on every x86-64 processor; leaves 0 and 1 always exist.
        #[allow(unused_unsafe)]
        let (vendor, signature) = unsafe { (__cpuid(0), __cpuid(1).eax) };
        let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6E65, 0x444D_4163)
            || (vendor.ebx, vendor.edx, vendor.ecx) == (0x6F67_7948, 0x6E65_476E, 0x656E_6975);
        let family = ((signature >> 8) & 0xF) + ((signature >> 20) & 0xFF);
        !amd || family >= 0x19
    }

    /// `mask.count_ones()` with the `popcnt` instruction.
    ///
    /// # Safety
    /// The CPU must have `popcnt`.
    #[cfg_attr(target_feature = "popcnt", allow(dead_code))]
    #[target_feature(enable = "popcnt")]
    pub unsafe fn count(mask: u64) -> u32 {
        mask.count_ones()
    }

    /// The position of the set bit of rank `rank`, or 64: `pdep` deposits the bit `1 << rank`
    /// on the `rank`-th set bit of `mask`, and that bit's position is the answer.
    ///
    /// # Safety
    /// The CPU must have `popcnt` and BMI2.
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    pub unsafe fn select(mask: u64, rank: u32) -> u32 {
        if rank >= 64 {
            return 64;
        }
        // SAFETY: this function runs only where BMI2 is available (its own contract).
        #[allow(unused_unsafe)]
        let bit = unsafe { _pdep_u64(1u64 << rank, mask) };
        bit.trailing_zeros()
    }

    /// Runs `f` with `popcnt` and BMI2 enabled in the code inlined into it.
    ///
    /// # Safety
    /// The CPU must have `popcnt` and BMI2.
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    pub unsafe fn with_pdep<R>(f: impl FnOnce() -> R) -> R {
        f()
    }

    /// Runs `f` with `popcnt` enabled in the code inlined into it.
    ///
    /// # Safety
    /// The CPU must have `popcnt`.
    #[cfg_attr(target_feature = "popcnt", allow(dead_code))]
    #[target_feature(enable = "popcnt")]
    pub unsafe fn with_popcnt<R>(f: impl FnOnce() -> R) -> R {
        f()
    }

    /// The element of rank `draw(n)` among the `n > 0` elements of `mask`, or `None` for the empty
    /// set (without calling `draw`).
    ///
    /// # Safety
    /// The CPU must have `popcnt` and BMI2.
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    pub unsafe fn pick(mask: u64, draw: impl FnOnce(u64) -> u64) -> Option<u32> {
        let n = mask.count_ones();
        if n == 0 {
            return None;
        }
        // SAFETY: as for this function.
        Some(unsafe { select(mask, draw(u64::from(n)) as u32) })
    }
}

/// Runs `f`, compiled with the CPU's population count and `pdep` enabled where the CPU has them
/// (detected once per call).
///
/// A function compiled without those features cannot inline the ones of this module that use
/// them, so every [`count`], [`select`] and [`pick`] of a hot loop would be a call. Run inside
/// this, the loop and everything inlined into it (the game's rules, the random bot) is compiled
/// a second time with the features, so those calls become single instructions; the detection
/// checks that remain are a load and a branch the CPU predicts. `f` must be inlined into this
/// (an `#[inline(always)]` closure or function) for that to happen; the results are the same
/// either way.
#[inline(always)]
pub(crate) fn with_bit_instructions<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        let level = x86::level();
        if level & x86::PDEP != 0 {
            // SAFETY: `popcnt` and a fast BMI2 were detected.
            return unsafe { x86::with_pdep(f) };
        }
        #[cfg(not(target_feature = "popcnt"))]
        if level & x86::POPCNT != 0 {
            // SAFETY: `popcnt` was detected.
            return unsafe { x86::with_popcnt(f) };
        }
    }
    f()
}

/// `mask.count_ones()` computed by the CPU's population count instruction, or `None` where the
/// CPU has none (the caller then counts portably).
#[inline(always)]
pub(crate) fn count(mask: u64) -> Option<u32> {
    #[cfg(any(target_feature = "popcnt", target_arch = "aarch64"))]
    {
        Some(mask.count_ones())
    }
    #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
    {
        if x86::has(x86::POPCNT) {
            // SAFETY: `popcnt` was detected.
            Some(unsafe { x86::count(mask) })
        } else {
            None
        }
    }
    #[cfg(not(any(
        target_feature = "popcnt",
        target_arch = "aarch64",
        target_arch = "x86_64"
    )))]
    {
        let _ = mask;
        None
    }
}

/// The body of a function of this module answering by the function of the same name in the
/// `x86` module where the CPU has a fast `pdep` (and `popcnt`), and `None` otherwise (on other
/// architectures the arguments are only used, so that they do not count as unused).
macro_rules! by_fast_pdep {
    ($f:ident($($arg:ident),*)) => {{
        #[cfg(target_arch = "x86_64")]
        {
            if x86::has(x86::PDEP) {
                // SAFETY: `popcnt` and a fast BMI2 were detected.
                return Some(unsafe { x86::$f($($arg),*) });
            }
        }
        let _ = ($($arg),*);
        None
    }};
}

/// The position of the set bit of rank `rank` of `mask` (64 if there is none) by the CPU's
/// `pdep`, or `None` where the CPU has no fast `pdep` (the caller then selects portably).
#[inline(always)]
pub(crate) fn select(mask: u64, rank: u32) -> Option<u32> {
    by_fast_pdep!(select(mask, rank))
}

/// The element of rank `draw(n)` among the `n` elements of `mask` (`Some(None)`, without calling
/// `draw`, for the empty set) by the CPU's `popcnt` and `pdep`, or `None` where the CPU has no
/// fast `pdep` (the caller then picks portably).
#[inline(always)]
pub(crate) fn pick(mask: u64, draw: impl FnOnce(u64) -> u64) -> Option<Option<u32>> {
    by_fast_pdep!(pick(mask, draw))
}

#[cfg(test)]
mod tests {
    use crate::bits;
    use crate::rng::SplitMix64;

    fn masks() -> Vec<u64> {
        let mut masks = bits::tests::sample_masks(23, 20_000);
        masks.extend((0..64).map(|i| 1u64 << i));
        masks.extend((0..64).map(|i| u64::MAX >> i));
        masks
    }

    #[test]
    fn every_path_matches_the_portable_one() {
        for m in masks() {
            let portable_count = bits::portable_count(m);
            assert_eq!(portable_count, m.count_ones());
            if let Some(c) = super::count(m) {
                assert_eq!(c, portable_count, "{m:#x}");
            }
            assert_eq!(bits::count(m), portable_count);
            for rank in 0..=70 {
                let portable = bits::portable_select(m, rank);
                if let Some(s) = super::select(m, rank) {
                    assert_eq!(s, portable, "{m:#x} {rank}");
                }
                assert_eq!(bits::select(m, rank), portable, "{m:#x} {rank}");
            }
        }
    }

    #[test]
    fn every_pick_draws_as_the_portable_one() {
        let mut rng = SplitMix64::new(7);
        for m in masks() {
            let seed = rng.next();
            let mut portable_rng = SplitMix64::new(seed);
            let portable = bits::portable_pick(m, &mut portable_rng);
            let mut fast_rng = SplitMix64::new(seed);
            assert_eq!(bits::pick(m, &mut fast_rng), portable, "{m:#x}");
            assert_eq!(fast_rng, portable_rng);
            let mut cpu_rng = SplitMix64::new(seed);
            if let Some(p) = super::pick(m, |n| cpu_rng.below(n)) {
                assert_eq!(p, portable, "{m:#x}");
                assert_eq!(cpu_rng, portable_rng);
            }
        }
    }

    #[test]
    fn reports_what_it_detected() {
        // Not an assertion on the machine: shows in `--nocapture` which paths the tests covered.
        println!(
            "popcnt: {}, fast pdep: {}",
            super::count(1).is_some(),
            super::select(1, 0).is_some()
        );
    }
}
