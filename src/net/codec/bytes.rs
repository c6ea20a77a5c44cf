//! The codec's primitives: LEB128 varints (signed ones zigzagged), little-endian words, length-
//! prefixed text, and [`Reader`], a cursor over untrusted bytes that checks every announced
//! length against the bytes left before anything is allocated.
//!
//! Must not: know any message (the protocol files do).

use super::DecodeError;

/// Appends `v` as an LEB128 varint.
pub(crate) fn varint(w: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        w.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    w.push(v as u8);
}

/// A signed number folded so small magnitudes of either sign take few bytes.
pub(crate) fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// The inverse of [`zigzag`].
pub(crate) fn unzigzag(v: u64) -> i64 {
    (v >> 1) as i64 ^ -((v & 1) as i64)
}

/// Appends a length-prefixed UTF-8 string.
pub(crate) fn text(w: &mut Vec<u8>, s: &str) {
    varint(w, s.len() as u64);
    w.extend_from_slice(s.as_bytes());
}

/// A cursor over untrusted bytes.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub(crate) fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, at: 0 }
    }

    /// The offset of the next byte.
    pub(crate) fn at(&self) -> usize {
        self.at
    }

    /// An error at the current offset.
    pub(crate) fn fail<T>(&self, what: impl Into<String>) -> Result<T, DecodeError> {
        Err(DecodeError { at: self.at, what: what.into() })
    }

    /// True when every byte was read.
    pub(crate) fn done(&self) -> bool {
        self.at >= self.bytes.len()
    }

    /// Bytes not read yet.
    pub(crate) fn left(&self) -> usize {
        self.bytes.len().saturating_sub(self.at)
    }

    /// One byte.
    pub(crate) fn u8(&mut self) -> Result<u8, DecodeError> {
        match self.bytes.get(self.at) {
            Some(&b) => {
                self.at += 1;
                Ok(b)
            }
            None => self.fail("the message ends early"),
        }
    }

    /// The next `n` bytes, when there are that many.
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        if n > self.left() {
            return self.fail(format!("{n} bytes announced, {} left", self.left()));
        }
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    /// A little-endian 64-bit word.
    pub(crate) fn u64_le(&mut self) -> Result<u64, DecodeError> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }

    /// An LEB128 varint of at most 64 bits.
    pub(crate) fn varint(&mut self) -> Result<u64, DecodeError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.u8()?;
            let part = (b & 0x7f) as u64;
            if shift == 63 && part > 1 {
                return self.fail("a number overflows 64 bits");
            }
            v |= part << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        self.fail("a number overflows 64 bits")
    }

    /// A varint of at most `max`, named `what` in the error.
    pub(crate) fn bounded(&mut self, max: u64, what: &str) -> Result<u64, DecodeError> {
        let v = self.varint()?;
        if v > max {
            return self.fail(format!("{what} {v} is over {max}"));
        }
        Ok(v)
    }

    /// A count of items that each take at least `min_bytes`: at most `max`, and no more than
    /// the bytes left could hold (so nothing is allocated from an untrusted size).
    pub(crate) fn count(&mut self, max: usize, min_bytes: usize, what: &str) -> Result<usize, DecodeError> {
        let n = self.varint()?;
        if n > max as u64 {
            return self.fail(format!("{n} {what}, more than {max}"));
        }
        let n = n as usize;
        if n.saturating_mul(min_bytes) > self.left() {
            return self.fail(format!("{n} {what} announced, {} bytes left", self.left()));
        }
        Ok(n)
    }

    /// A varint that fits 32 bits.
    pub(crate) fn u32v(&mut self, what: &str) -> Result<u32, DecodeError> {
        Ok(self.bounded(u32::MAX as u64, what)? as u32)
    }

    /// A varint that fits 16 bits.
    pub(crate) fn u16v(&mut self, what: &str) -> Result<u16, DecodeError> {
        Ok(self.bounded(u16::MAX as u64, what)? as u16)
    }

    /// A zigzagged varint that fits 32 bits.
    pub(crate) fn i32v(&mut self, what: &str) -> Result<i32, DecodeError> {
        let v = unzigzag(self.varint()?);
        i32::try_from(v).or_else(|_| self.fail(format!("{what} {v} is out of range")))
    }

    /// Length-prefixed UTF-8 text of at most `max` bytes.
    pub(crate) fn text(&mut self, max: usize, what: &str) -> Result<String, DecodeError> {
        let n = self.varint()?;
        if n > max as u64 {
            return self.fail(format!("{what} of {n} bytes is longer than {max}"));
        }
        let n = n as usize;
        let start = self.at;
        let bytes = self.take(n)?;
        match std::str::from_utf8(bytes) {
            Ok(s) => Ok(s.to_string()),
            Err(_) => Err(DecodeError { at: start, what: format!("{what} is not UTF-8") }),
        }
    }

    /// A byte that must be 0 or 1.
    pub(crate) fn flag(&mut self) -> Result<bool, DecodeError> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            b => self.fail(format!("flag {b} is neither 0 nor 1")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_at_every_width_and_refuse_overflow() {
        for v in [0, 1, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            let mut w = Vec::new();
            varint(&mut w, v);
            assert_eq!(Reader::new(&w).varint().unwrap(), v);
        }
        for v in [0, -1, 1, i64::MIN, i64::MAX] {
            assert_eq!(unzigzag(zigzag(v)), v);
        }
        let e = Reader::new(&[0xff; 10]).varint().unwrap_err();
        assert_eq!(e.what, "a number overflows 64 bits");
    }

    #[test]
    fn a_count_larger_than_the_bytes_left_is_refused_before_allocating() {
        let mut r = Reader::new(&[0x90, 0x03, 1, 2]);
        let e = r.count(1000, 1, "objects").unwrap_err();
        assert_eq!(e.what, "400 objects announced, 2 bytes left");
    }
}
