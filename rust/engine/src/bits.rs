//! Bit tricks on `u64` sets shared by the games: counting, and picking the element of a given
//! rank (the uniform chance draws and the random bot's choice).
//! The CPU's own instructions do the work where it has them (see the `cpu` module); the
//! portable code gives the same results everywhere else.

use crate::rng::SplitMix64;

/// Every byte 0x01.
const ONES: u64 = 0x0101_0101_0101_0101;
/// Every byte 0x80.
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// `SELECT_IN_BYTE[b][r]`: the position of the set bit of rank `r` in the byte `b` (8 if none).
const SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[8u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut rank = 0;
        let mut pos = 0;
        while pos < 8 {
            if b >> pos & 1 == 1 {
                table[b][rank] = pos as u8;
                rank += 1;
            }
            pos += 1;
        }
        b += 1;
    }
    table
};

/// Byte `i` of the result: the number of set bits in bytes `0..=i` of `mask` (at most 64, so
/// every byte is below 0x80). The top byte is the number of set bits.
#[inline]
fn byte_ranks(mask: u64) -> u64 {
    let mut counts = mask - ((mask >> 1) & 0x5555_5555_5555_5555);
    counts = (counts & 0x3333_3333_3333_3333) + ((counts >> 2) & 0x3333_3333_3333_3333);
    ((counts + (counts >> 4)) & 0x0F0F_0F0F_0F0F_0F0F).wrapping_mul(ONES)
}

/// The bit of element `i` if `i` lies in `lo..=hi` (both below 64), else 0: the games' "card id
/// to hand bit" conversion, which must never shift out of range.
#[inline]
pub fn bit_in(i: u32, lo: u32, hi: u32) -> u64 {
    if lo <= i && i <= hi && i < 64 {
        1u64 << i
    } else {
        0
    }
}

/// The elements (bit positions) of `mask`, in increasing order.
#[inline]
pub fn ones(mask: u64) -> impl Iterator<Item = u32> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        if rest == 0 {
            None
        } else {
            let i = rest.trailing_zeros();
            rest &= rest - 1;
            Some(i)
        }
    })
}

/// The elements of `mask` in increasing order, as a vector.
pub fn to_vec(mask: u64) -> Vec<u32> {
    ones(mask).collect()
}

/// The number of set bits of `mask` (what `count_ones` gives): the CPU's population count where
/// it has one (known when compiling, or detected when running), else a portable count that stays
/// cheap on targets without the instruction, such as baseline x86-64.
#[inline]
pub fn count(mask: u64) -> u32 {
    crate::cpu::count(mask).unwrap_or_else(|| portable_count(mask))
}

/// [`count`] without the CPU's instruction.
#[inline]
pub(crate) fn portable_count(mask: u64) -> u32 {
    (byte_ranks(mask) >> 56) as u32
}

/// [`portable_select`] with `ranks = byte_ranks(mask)`.
#[inline]
fn select_ranked(mask: u64, ranks: u64, rank: u32) -> u32 {
    // No bit of that rank (this covers every rank >= 64, so nothing below overflows).
    if u64::from(rank) >= ranks >> 56 {
        return 64;
    }
    // Bit 7 of byte i is set when ranks_i <= rank (no borrow crosses bytes: both are < 0x80).
    let at_most = (((u64::from(rank) * ONES) | HIGHS) - ranks) & HIGHS;
    // The bytes with ranks_i <= rank come first (the ranks never decrease): their number (at most
    // 7, as the top byte is the count, above `rank`) is the index of the byte holding the wanted
    // bit. The multiplication sums the flags into the top byte; shifting by 53 instead of 56 gives
    // that number times 8 (the bits in between are zero), the bit offset of the byte.
    let shift = ((at_most >> 7).wrapping_mul(ONES) >> 53) as u32 & 0x38;
    let before = ((ranks << 8) >> shift) as u32 & 0xFF;
    let in_byte = ((mask >> shift) & 0xFF) as usize;
    let r = (rank - before) as usize & 7;
    shift + u32::from(SELECT_IN_BYTE[in_byte][r])
}

/// The position of the set bit of rank `rank` (0-based, counted from the lowest bit) of `mask`,
/// or 64 if `mask` has `rank` or fewer set bits.
///
/// The CPU's `pdep` where it is available and fast (detected when running), else a portable
/// select in constant time.
#[inline]
pub fn select(mask: u64, rank: u32) -> u32 {
    crate::cpu::select(mask, rank).unwrap_or_else(|| portable_select(mask, rank))
}

/// [`select`] in portable code, in constant time without a loop over the bits: the running
/// popcounts of the eight bytes are formed side by side in one word, compared with `rank` all at
/// once to find the byte, and the bit inside that byte comes from a table.
#[inline]
pub(crate) fn portable_select(mask: u64, rank: u32) -> u32 {
    select_ranked(mask, byte_ranks(mask), rank)
}

/// A uniform element of the set `mask`: the element of rank `rng.below(n)` among its `n`
/// elements, or `None` (drawing nothing) for the empty set.
///
/// This is exactly [`SplitMix64::pick_weighted`] over the elements in increasing order with
/// weight 1 each, and exactly what the `random` bot picks from that list of legal actions.
#[inline]
pub fn pick(mask: u64, rng: &mut SplitMix64) -> Option<u32> {
    if let Some(picked) = crate::cpu::pick(mask, |n| rng.below(n)) {
        return picked;
    }
    portable_pick(mask, rng)
}

/// [`pick`] without the CPU's instructions (the same draw and the same element).
#[inline]
pub(crate) fn portable_pick(mask: u64, rng: &mut SplitMix64) -> Option<u32> {
    let ranks = byte_ranks(mask);
    let n = ranks >> 56;
    if n == 0 {
        return None;
    }
    Some(select_ranked(mask, ranks, rng.below(n) as u32))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// Masks to check bit functions on: a few edge cases, then `rounds` times a random mask and
    /// sparser and denser ones made from it, drawn from a generator seeded by `seed`.
    pub(crate) fn sample_masks(seed: u64, rounds: usize) -> Vec<u64> {
        let mut rng = SplitMix64::new(seed);
        let mut masks = vec![0, 1, u64::MAX, 1 << 63, 0x8000_0000_0000_0001, 0xFF00];
        for _ in 0..rounds {
            let a = rng.next();
            masks.push(a);
            masks.push(a & rng.next());
            masks.push(a & rng.next() & rng.next() & rng.next());
            masks.push(a | rng.next());
        }
        masks
    }

    fn slow_select(mut mask: u64, rank: u32) -> u32 {
        for _ in 0..rank {
            if mask == 0 {
                return 64;
            }
            mask &= mask - 1;
        }
        if mask == 0 {
            64
        } else {
            mask.trailing_zeros()
        }
    }

    #[test]
    fn pick_matches_the_definitions() {
        let mut rng = SplitMix64::new(5);
        for i in 0..5000u64 {
            let m = rng.next() & rng.next() & if i % 3 == 0 { rng.next() } else { u64::MAX };
            let list: Vec<u32> = (0..64).filter(|&b| m >> b & 1 == 1).collect();
            assert_eq!(count(m), m.count_ones());
            let weighted: Vec<(u32, u64)> = list.iter().map(|&b| (b, 1)).collect();
            let (mut a, mut b, mut c) = (rng, rng, rng);
            let mut d = rng;
            assert_eq!(portable_pick(m, &mut d), b.pick_weighted(&weighted));
            assert_eq!(d, b);
            let mut b = rng;
            assert_eq!(pick(m, &mut a), b.pick_weighted(&weighted));
            if !list.is_empty() {
                assert_eq!(
                    pick(m, &mut rng),
                    Some(list[c.below(list.len() as u64) as usize])
                );
                assert_eq!(rng, c);
            }
            assert_eq!(a, b);
        }
        let mut r = SplitMix64::new(1);
        assert_eq!(pick(0, &mut r), None);
        assert_eq!(portable_pick(0, &mut r), None);
        assert_eq!(r, SplitMix64::new(1));
    }

    #[test]
    fn select_matches_the_definition() {
        for m in sample_masks(9, 2000) {
            assert_eq!(count(m), m.count_ones());
            assert_eq!(portable_count(m), m.count_ones());
            for rank in 0..70 {
                assert_eq!(select(m, rank), slow_select(m, rank), "{m:#x} {rank}");
                assert_eq!(
                    portable_select(m, rank),
                    slow_select(m, rank),
                    "{m:#x} {rank}"
                );
            }
        }
    }
}
