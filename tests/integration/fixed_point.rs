//! Property tests of the simulation's integer maths against floating-point references (which
//! may live here, outside the simulation): trigonometry, atan2, normalisation, cross products.

use proptest::prelude::*;
use ridgeline::sim::{Angle, Fixed, Vec2, Vec3};

fn to_f64(x: Fixed) -> f64 {
    x.raw() as f64 / 65536.0
}

proptest! {
    #[test]
    fn sin_cos_match_reference(a in any::<u16>()) {
        let rad = a as f64 / 65536.0 * std::f64::consts::TAU;
        let angle = Angle(a);
        prop_assert!((to_f64(angle.sin()) - rad.sin()).abs() < 3e-5);
        prop_assert!((to_f64(angle.cos()) - rad.cos()).abs() < 3e-5);
    }

    #[test]
    fn atan2_matches_reference(x in -(1i64 << 40)..(1i64 << 40), y in -(1i64 << 40)..(1i64 << 40)) {
        prop_assume!(x != 0 || y != 0);
        let got = Angle::atan2(Fixed::from_raw(y), Fixed::from_raw(x));
        let want = (y as f64).atan2(x as f64).rem_euclid(std::f64::consts::TAU) / std::f64::consts::TAU * 65536.0;
        let err = (got.0 as f64 - want).rem_euclid(65536.0);
        let err = err.min(65536.0 - err);
        prop_assert!(err <= 1.5, "atan2({y}, {x}) = {} want {want}", got.0);
    }

    #[test]
    fn atan2_inverts_sin_cos(a in any::<u16>()) {
        let angle = Angle(a);
        let scale = Fixed::from_int(1000);
        let back = Angle::atan2(angle.sin() * scale, angle.cos() * scale);
        prop_assert!(back.delta(angle).abs() <= 2);
    }

    #[test]
    fn normalize_gives_unit_length(x in -(1i64 << 34)..(1i64 << 34), y in -(1i64 << 34)..(1i64 << 34)) {
        let v = Vec2::new(Fixed::from_raw(x), Fixed::from_raw(y));
        let n = v.normalize();
        if v == Vec2::ZERO {
            prop_assert_eq!(n, Vec2::ZERO);
        } else if v.length() > Fixed::from_ratio(1, 64) {
            // Below 1/64 of a unit the 16-bit fraction cannot express a direction well.
            let err = (n.length_squared() - Fixed::ONE).abs();
            prop_assert!(err <= Fixed::from_ratio(1, 256), "|n|² = {} for {:?}", n.length_squared(), v);
            let dir_err = (n.angle().delta(v.angle())).abs();
            prop_assert!(dir_err <= 8, "direction moved by {dir_err}");
        }
    }

    #[test]
    fn length_matches_reference(x in -(1i64 << 34)..(1i64 << 34), y in -(1i64 << 34)..(1i64 << 34)) {
        let v = Vec2::new(Fixed::from_raw(x), Fixed::from_raw(y));
        let want = (to_f64(v.x).powi(2) + to_f64(v.y).powi(2)).sqrt();
        prop_assert!((to_f64(v.length()) - want).abs() < 0.01 + want * 1e-4);
    }

    #[test]
    fn cross3_is_orthogonal(a in -1000i64..1000, b in -1000i64..1000, c in -1000i64..1000, d in -1000i64..1000) {
        let u = Vec3::new(Fixed::from_int(a), Fixed::from_int(b), Fixed::ONE);
        let v = Vec3::new(Fixed::from_int(c), Fixed::ONE, Fixed::from_int(d));
        let w = u.cross(v);
        prop_assert_eq!(w.dot(u), Fixed::ZERO);
        prop_assert_eq!(w.dot(v), Fixed::ZERO);
    }
}
