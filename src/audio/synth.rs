//! Small synthesis kit shared by the sound generator (`gen-sounds`) and the music made from the
//! score at load: a seeded noise source, oscillators, envelopes and one-pole filters, all on
//! mono `f32` buffers at a given sample rate.
//!
//! Must not: touch files or the audio device, or use any randomness but its own seed (the
//! generated files must come out the same every time).

use std::f32::consts::TAU;

/// A seeded noise source (xorshift64*), the same on every run for one seed.
#[derive(Clone, Debug)]
pub struct Noise(u64);

impl Noise {
    /// A source for `seed` (any value; zero is remapped).
    pub fn new(seed: u64) -> Noise {
        Noise(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// White noise in −1..1.
    pub fn white(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }

    /// A value in `lo..hi`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (self.white() * 0.5 + 0.5) * (hi - lo)
    }
}

/// A one-pole low-pass filter (cut-off in Hz, changeable per sample).
#[derive(Clone, Debug, Default)]
pub struct LowPass {
    y: f32,
}

impl LowPass {
    /// Filters one sample at `cutoff` Hz for `rate` samples a second.
    pub fn run(&mut self, x: f32, cutoff: f32, rate: f32) -> f32 {
        let a = 1.0 - (-TAU * cutoff.clamp(1.0, rate * 0.45) / rate).exp();
        self.y += a * (x - self.y);
        self.y
    }
}

/// A one-pole high-pass filter (the input less its low-passed self).
#[derive(Clone, Debug, Default)]
pub struct HighPass {
    low: LowPass,
}

impl HighPass {
    /// Filters one sample at `cutoff` Hz for `rate` samples a second.
    pub fn run(&mut self, x: f32, cutoff: f32, rate: f32) -> f32 {
        x - self.low.run(x, cutoff, rate)
    }
}

/// An oscillator that keeps its phase while its frequency changes (for sweeps).
#[derive(Clone, Debug, Default)]
pub struct Osc {
    phase: f32,
}

/// An oscillator's wave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wave {
    /// Pure tone.
    Sine,
    /// Odd harmonics, hollow (softened edges).
    Square,
    /// All harmonics, bright.
    Saw,
    /// Soft odd harmonics.
    Triangle,
}

impl Osc {
    /// The next sample of `wave` at `freq` Hz.
    pub fn run(&mut self, wave: Wave, freq: f32, rate: f32) -> f32 {
        let p = self.phase;
        self.phase = (self.phase + freq / rate).fract();
        match wave {
            Wave::Sine => (p * TAU).sin(),
            Wave::Square => ((p * TAU).sin() * 4.0).clamp(-1.0, 1.0),
            Wave::Saw => 2.0 * p - 1.0,
            Wave::Triangle => 1.0 - 4.0 * (p - 0.5).abs(),
        }
    }
}

/// An attack–decay envelope at `t` seconds: rises linearly over `attack`, then falls
/// exponentially with time constant `decay`.
pub fn env(t: f32, attack: f32, decay: f32) -> f32 {
    if t < 0.0 {
        0.0
    } else if t < attack {
        t / attack
    } else {
        (-(t - attack) / decay.max(1e-4)).exp()
    }
}

/// A held note's envelope: `attack` in, held, `release` out after `length` seconds.
pub fn note_env(t: f32, length: f32, attack: f32, release: f32) -> f32 {
    if t < 0.0 || t > length + release {
        0.0
    } else if t < attack {
        t / attack
    } else if t <= length {
        1.0
    } else {
        1.0 - (t - length) / release
    }
}

/// The frequency of a MIDI note number (69 = A4 = 440 Hz).
pub fn midi_hz(note: f32) -> f32 {
    440.0 * 2f32.powf((note - 69.0) / 12.0)
}

/// Scales `samples` so the loudest is at `peak` (silence stays silent).
pub fn normalize(samples: &mut [f32], peak: f32) {
    let max = samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    if max > 0.0 {
        let k = peak / max;
        samples.iter_mut().for_each(|s| *s *= k);
    }
}

/// Fades the last `seconds` to silence (no click at the end).
pub fn fade_out(samples: &mut [f32], seconds: f32, rate: f32) {
    let n = ((seconds * rate) as usize).min(samples.len());
    let start = samples.len() - n;
    for (i, s) in samples[start..].iter_mut().enumerate() {
        *s *= 1.0 - i as f32 / n.max(1) as f32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_repeats_for_a_seed_and_stays_in_range() {
        let (mut a, mut b, mut c) = (Noise::new(3), Noise::new(3), Noise::new(4));
        let xs: Vec<f32> = (0..1000).map(|_| a.white()).collect();
        let ys: Vec<f32> = (0..1000).map(|_| b.white()).collect();
        let zs: Vec<f32> = (0..1000).map(|_| c.white()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs, zs);
        assert!(xs.iter().all(|x| (-1.0..1.0).contains(x)));
        let mean = xs.iter().sum::<f32>() / 1000.0;
        assert!(mean.abs() < 0.1, "{mean}");
    }

    #[test]
    fn a_low_pass_keeps_the_slow_and_drops_the_fast() {
        let rate = 48_000.0;
        let amplitude = |freq: f32| {
            let (mut osc, mut lp) = (Osc::default(), LowPass::default());
            (0..4800).map(|_| lp.run(osc.run(Wave::Sine, freq, rate), 200.0, rate).abs()).skip(2400).fold(0.0, f32::max)
        };
        assert!(amplitude(50.0) > 0.8, "{}", amplitude(50.0));
        assert!(amplitude(8000.0) < 0.05, "{}", amplitude(8000.0));
    }

    #[test]
    fn envelopes_rise_and_fall() {
        assert_eq!(env(-0.1, 0.01, 0.1), 0.0);
        assert!((env(0.005, 0.01, 0.1) - 0.5).abs() < 1e-6);
        assert!(env(0.5, 0.01, 0.1) < 0.01);
        assert_eq!(note_env(0.5, 1.0, 0.1, 0.2), 1.0);
        assert_eq!(note_env(1.3, 1.0, 0.1, 0.2), 0.0);
        assert!((midi_hz(69.0) - 440.0).abs() < 1e-3 && (midi_hz(81.0) - 880.0).abs() < 1e-2);
    }
}
