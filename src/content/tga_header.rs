//! What a TGA file's header says about its pixels (size, depth, alpha bits, run-length
//! encoding, which corner the rows start from), read from its first 18 bytes so `ui-import`
//! can say how it read each texture. The pixels themselves are decoded by the `image` crate,
//! which follows the same header (origin bits, RLE, 24/32-bit).
//!
//! Must not: decode pixels, or read past the header.

/// The facts of a TGA header a modder needs to tell a flipped or odd file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TgaHeader {
    /// Width in pixels.
    pub width: u16,
    /// Height in pixels.
    pub height: u16,
    /// Bits per pixel (24 or 32 for true colour).
    pub bits: u8,
    /// Alpha bits per pixel the descriptor declares (bits 0–3 of byte 17).
    pub alpha_bits: u8,
    /// Run-length encoded (image types 9, 10, 11).
    pub rle: bool,
    /// Rows stored from the top (descriptor bit 5); else from the bottom, the TGA default.
    pub top_first: bool,
    /// Pixels stored right to left (descriptor bit 4).
    pub right_first: bool,
}

impl TgaHeader {
    /// Reads the header from a file's first bytes; `None` when there are fewer than 18.
    pub fn read(bytes: &[u8]) -> Option<TgaHeader> {
        let h = bytes.get(..18)?;
        let word = |i: usize| u16::from_le_bytes([h[i], h[i + 1]]);
        Some(TgaHeader {
            width: word(12),
            height: word(14),
            bits: h[16],
            alpha_bits: h[17] & 0x0f,
            rle: matches!(h[2], 9..=11),
            top_first: h[17] & 0x20 != 0,
            right_first: h[17] & 0x10 != 0,
        })
    }
}

impl std::fmt::Display for TgaHeader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TGA {}×{}, {}-bit", self.width, self.height, self.bits)?;
        if self.alpha_bits > 0 {
            write!(f, " with {} alpha bits", self.alpha_bits)?;
        } else if self.bits == 32 {
            f.write_str(" (no alpha bits declared: the fourth byte is read as alpha)")?;
        }
        if self.rle {
            f.write_str(", run-length encoded")?;
        }
        let rows = if self.top_first { "top" } else { "bottom" };
        let side = if self.right_first { "right" } else { "left" };
        write!(f, ", origin {rows}-{side}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_descriptor_bits_say_origin_depth_and_encoding() {
        let mut h = [0u8; 18];
        h[2] = 10;
        h[12] = 64;
        h[14] = 32;
        h[16] = 32;
        h[17] = 0x28;
        let got = TgaHeader::read(&h).unwrap();
        assert_eq!(
            got,
            TgaHeader {
                width: 64,
                height: 32,
                bits: 32,
                alpha_bits: 8,
                rle: true,
                top_first: true,
                right_first: false
            }
        );
        assert_eq!(got.to_string(), "TGA 64×32, 32-bit with 8 alpha bits, run-length encoded, origin top-left");
        h[2] = 2;
        h[17] = 0;
        h[16] = 24;
        assert_eq!(TgaHeader::read(&h).unwrap().to_string(), "TGA 64×32, 24-bit, origin bottom-left");
        assert_eq!(TgaHeader::read(&h[..17]), None);
    }
}
