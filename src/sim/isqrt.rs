//! The integer square root the fixed-point root is built on: ⌊√n⌋ of a `u64`, exactly the
//! standard library's `u64::isqrt`, with one division.
//!
//! The top 24 bits of `n` (shifted by an even count; a small `n` shifted up and its root down)
//! give an estimate by interpolating a 256-entry table of roots: within one part in 2¹⁶ of the
//! root. From such an estimate `y`, one integer Newton step lands on ⌊√n⌋ or one above it (it
//! is never below ⌊√n⌋, and above the true root by at most `(y − √n)² / 2y`, under one for
//! every `u64`), and a square settles which. Distances are taken every frame for every moving
//! unit and every overlapping pair, so the root is on the hot path.
//! Must not: use floating point, or answer anything but the exact floor of the root.

/// For each `m` up to 256, ⌊√m · 2¹⁶⌋: the root at the table's points, 16 fractional bits.
static ROOT_AT: [u32; 257] = roots_at();

const fn roots_at() -> [u32; 257] {
    let mut table = [0u32; 257];
    let mut m = 0;
    while m <= 256 {
        // ⌊√(m · 2³²)⌋ by bisection (a const fn cannot call `isqrt` on every toolchain).
        let v = (m as u64) << 32;
        let (mut lo, mut hi) = (0u64, 1u64 << 25);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if mid * mid <= v {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        table[m] = lo as u32;
        m += 1;
    }
    table
}

/// The estimate of √t·2⁸ for `t` in 2²²..2²⁴: the table's root at `t / 2¹⁶`, plus the
/// fraction's share of the step to the next point (the root is concave, so the chord lies at
/// most one part in 2¹⁶ below it).
#[inline(always)]
fn estimate(t: u64) -> u64 {
    let (m, f) = ((t >> 16) as usize, t & 0xffff);
    let (at, next) = (u64::from(ROOT_AT[m & 0xff]), u64::from(ROOT_AT[(m & 0xff) + 1]));
    at + (((next - at) * f) >> 16)
}

/// ⌊√n⌋, the same as `n.isqrt()`.
#[inline]
pub fn isqrt(n: u64) -> u64 {
    if n < 1 << 22 {
        if n == 0 {
            return 0;
        }
        // ⌊√(n·4ᵏ)⌋ / 2ᵏ = ⌊√n⌋: the root of `n` moved up into the estimate's range.
        let up = (24 - (64 - n.leading_zeros())) & !1;
        return root(n << up) >> (up / 2);
    }
    root(n)
}

/// ⌊√n⌋ for `n` at least 2²².
#[inline(always)]
fn root(n: u64) -> u64 {
    let bits = 64 - n.leading_zeros();
    // An even shift that leaves the top 23 or 24 bits.
    let shift = (bits - 23) & !1;
    let est = estimate(n >> shift);
    // √n = √(n >> shift)·2^(shift/2) and `est` is that root times 2⁸: dropping the low bits
    // of `n` and of the shift costs under one part in 2²² and one unit.
    let half = shift / 2;
    let y = if half >= 8 { est << (half - 8) } else { est >> (8 - half) };
    let y = (y + n / y) >> 1;
    if u128::from(y) * u128::from(y) > u128::from(n) { y - 1 } else { y }
}

#[cfg(test)]
mod tests {
    use super::isqrt;
    use proptest::prelude::*;

    #[test]
    fn small_numbers_squares_and_their_neighbours_are_exact() {
        for n in 0..(1u64 << 20) {
            assert_eq!(isqrt(n), n.isqrt(), "{n}");
        }
        for k in 0..64 {
            let p = 1u64 << k;
            for n in [p - 1, p, p + 1] {
                assert_eq!(isqrt(n), n.isqrt(), "{n}");
            }
            let r = (1u64 << (k / 2)) + k as u64;
            for n in [r * r - 1, r * r, r * r + 1] {
                assert_eq!(isqrt(n), n.isqrt(), "{n}");
            }
            // Around the size where small numbers are moved up, and squares near the top.
            let edge = (1u64 << 22) + (k as u64) * 0x1_0001;
            let root = edge.isqrt();
            for n in [edge - 1, edge, edge + 1, root * root, root * root - 1, (root + 1) * (root + 1) - 1] {
                assert_eq!(isqrt(n), n.isqrt(), "{n}");
            }
        }
        let top = u32::MAX as u64;
        for n in [top * top - 1, top * top, top * top + 1, u64::MAX - 1, u64::MAX] {
            assert_eq!(isqrt(n), n.isqrt(), "{n}");
        }
    }

    #[test]
    fn the_estimate_is_within_one_part_in_2_16_of_the_root() {
        // The bound the single Newton step rests on, at every 24-bit `t` the estimate is asked
        // about (a larger `n` only loses bits below these).
        for t in (1u64 << 22)..(1u64 << 24) {
            let exact = (t << 16).isqrt();
            let est = super::estimate(t);
            assert!(est <= exact + 1 && exact - est.min(exact) <= exact >> 16, "{t}: {est} against {exact}");
        }
    }

    proptest! {
        #[test]
        fn it_is_the_standard_root(n in any::<u64>(), shift in 0u32..64) {
            prop_assert_eq!(isqrt(n), n.isqrt());
            prop_assert_eq!(isqrt(n >> shift), (n >> shift).isqrt());
        }
    }
}
