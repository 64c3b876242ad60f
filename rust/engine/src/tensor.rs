//! Writing observation tensors (layouts: each game's contract, section "Observation tensor";
//! conventions: `docs/learning.md`): a cursor over a zeroed `f32` buffer that writes one segment
//! after another and never panics (writes outside the buffer are ignored).

/// `x / d` computed in `f64` and rounded to `f32` once, exactly as the reference backend does.
#[inline]
pub fn scaled(x: f64, d: f64) -> f32 {
    (x / d) as f32
}

/// The most bytes [`fill_in_pieces`] fills at once.
const PIECE_BYTES: usize = 1024;

/// `buf.fill(value)` in pieces of at most 1 KiB, which the C library fills with vector stores:
/// one call for a buffer of several KiB takes its `rep stosb` path instead, which is no faster
/// and which instruction counts (callgrind, as `benches/perf.py` makes them) charge one
/// instruction per byte.
#[inline]
pub fn fill_in_pieces<T: Copy>(buf: &mut [T], value: T) {
    for piece in buf.chunks_mut((PIECE_BYTES / std::mem::size_of::<T>().max(1)).max(1)) {
        piece.fill(value);
    }
}

/// A cursor writing the segments of one observation tensor, in order.
#[derive(Debug)]
pub struct TensorWriter<'a> {
    buf: &'a mut [f32],
    at: usize,
}

impl<'a> TensorWriter<'a> {
    /// Zero-fills `buf` and starts at its first entry.
    pub fn new(buf: &'a mut [f32]) -> Self {
        fill_in_pieces(buf, 0.0);
        Self { buf, at: 0 }
    }

    /// The number of entries written (or skipped) so far.
    pub fn position(&self) -> usize {
        self.at
    }

    /// Sets entry `i` of the segment that starts at the cursor (the cursor does not move).
    #[inline]
    pub fn set(&mut self, i: usize, value: f32) {
        if let Some(x) = self.buf.get_mut(self.at + i) {
            *x = value;
        }
    }

    /// Ends a segment of `size` entries (entries not set stay 0).
    #[inline]
    pub fn skip(&mut self, size: usize) {
        self.at += size;
    }

    /// The next `size` entries as one slice (shorter where the buffer ends), for a segment
    /// written in place; the cursor moves past them.
    #[inline]
    pub fn block(&mut self, size: usize) -> &mut [f32] {
        let start = self.at.min(self.buf.len());
        let end = self.at.saturating_add(size).min(self.buf.len());
        self.at += size;
        &mut self.buf[start..end]
    }

    /// A segment of one entry.
    #[inline]
    pub fn push(&mut self, value: f32) {
        self.set(0, value);
        self.skip(1);
    }

    /// A segment of one entry, `x / d` (see [`scaled`]).
    #[inline]
    pub fn push_scaled(&mut self, x: f64, d: f64) {
        self.push(scaled(x, d));
    }

    /// A segment of one entry, 1 or 0.
    #[inline]
    pub fn push_bool(&mut self, b: bool) {
        self.push(f32::from(u8::from(b)));
    }

    /// A one-hot segment of `size` entries: entry `index` is 1 (none for `None` or an index out
    /// of range).
    #[inline]
    pub fn one_hot(&mut self, index: Option<usize>, size: usize) {
        if let Some(i) = index.filter(|&i| i < size) {
            self.set(i, 1.0);
        }
        self.skip(size);
    }

    /// A multi-hot segment of `size` entries: entry `i` is 1 if bit `shift + i` of `mask` is set.
    #[inline]
    pub fn multi_hot(&mut self, mask: u64, shift: u32, size: usize) {
        let mut m = mask.checked_shr(shift).unwrap_or(0);
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            if i < size {
                self.set(i, 1.0);
            }
        }
        self.skip(size);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_segments_in_order_and_ignores_overflow() {
        let mut buf = [9.0f32; 8];
        let mut w = TensorWriter::new(&mut buf);
        w.one_hot(Some(1), 3);
        w.multi_hot(0b1010, 1, 3);
        w.push_scaled(1.0, 4.0);
        w.one_hot(None, 1);
        w.one_hot(Some(5), 2);
        assert_eq!(w.position(), 10);
        assert_eq!(buf, [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.25, 0.0]);
    }

    #[test]
    fn blocks_are_cut_where_the_buffer_ends() {
        let mut buf = [9.0f32; 5];
        let mut w = TensorWriter::new(&mut buf);
        w.push(1.0);
        w.block(3).copy_from_slice(&[2.0, 3.0, 4.0]);
        assert_eq!(w.block(4).len(), 1);
        assert!(w.block(2).is_empty());
        assert_eq!(w.position(), 10);
        assert_eq!(buf, [1.0, 2.0, 3.0, 4.0, 0.0]);
    }
}
