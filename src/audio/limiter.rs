//! The master bus's last stage: a soft-knee limiter that lets everything below the knee through
//! untouched and bends louder peaks smoothly toward full scale without ever reaching it, so a
//! battle of hundreds of guns never clips.
//!
//! Must not: allocate while processing (it runs on the audio thread).

use kira::Frame;
use kira::effect::{Effect, EffectBuilder};
use kira::info::Info;

/// Level below which samples pass unchanged.
pub const KNEE: f32 = 0.6;
/// The most any sample can reach (just under full scale).
pub const CEILING: f32 = 0.98;

/// One sample through the limiter's curve.
pub fn limit(x: f32) -> f32 {
    let a = x.abs();
    if a <= KNEE || !a.is_finite() {
        return if a.is_finite() { x } else { 0.0 };
    }
    let room = CEILING - KNEE;
    (KNEE + room * ((a - KNEE) / room).tanh()).copysign(x)
}

/// Builds the limiter for a track.
pub struct LimiterBuilder;

struct Limiter;

impl Effect for Limiter {
    fn process(&mut self, input: &mut [Frame], _dt: f64, _info: &Info) {
        for f in input {
            *f = Frame { left: limit(f.left), right: limit(f.right) };
        }
    }
}

impl EffectBuilder for LimiterBuilder {
    type Handle = ();

    fn build(self) -> (Box<dyn Effect>, ()) {
        (Box::new(Limiter), ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_passes_loud_bends_and_nothing_reaches_full_scale() {
        assert_eq!(limit(0.3), 0.3);
        assert_eq!(limit(-0.6), -0.6);
        assert!(limit(0.9) > 0.8 && limit(0.9) < 0.9);
        for x in [1.0f32, 2.0, 10.0, 1e6, -50.0] {
            assert!(limit(x).abs() < CEILING + 1e-6 && limit(x).abs() > KNEE, "{x} → {}", limit(x));
        }
        assert_eq!(limit(f32::NAN), 0.0);
        let mut last = 0.0;
        for i in 0..1000 {
            let y = limit(i as f32 / 100.0);
            assert!(y >= last, "the curve never turns down");
            last = y;
        }
    }
}
