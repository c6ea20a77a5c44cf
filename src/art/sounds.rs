//! The game's sound effects, synthesised: gunfire, cannon, rockets, explosions of three sizes,
//! engines, construction, radio chirps per unit class, announcements and interface clicks.
//! `ridgeline gen-sounds` writes them as 48 kHz mono 16-bit WAV files to `data/sounds/`, where
//! `data/sounds.ron` names them; a test checks that regenerating gives the same bytes.
//!
//! Must not: run while playing, or draw randomness from anything but each file's own seed.

use std::f32::consts::TAU;

use crate::audio::synth::{HighPass, LowPass, Noise, Osc, Wave, env, fade_out, midi_hz, normalize};

/// Sample rate of the generated files.
pub const RATE: u32 = 48_000;

const R: f32 = RATE as f32;

/// A recipe: the file's seed in, its samples out.
type Recipe = fn(&mut Noise) -> Vec<f32>;

/// Every generated file: its name under `data/sounds/`, and its recipe and seed.
const FILES: &[(&str, Recipe, u64)] = &[
    ("rifle_1.wav", rifle, 1),
    ("rifle_2.wav", rifle, 2),
    ("rifle_3.wav", rifle, 3),
    ("machinegun_1.wav", machine_gun, 4),
    ("machinegun_2.wav", machine_gun, 5),
    ("cannon_1.wav", cannon, 6),
    ("cannon_2.wav", cannon, 7),
    ("heavy_cannon.wav", heavy_cannon, 8),
    ("rocket_1.wav", rocket, 9),
    ("rocket_2.wav", rocket, 10),
    ("artillery.wav", artillery, 11),
    ("flak.wav", flak, 12),
    ("flame.wav", flame, 13),
    ("explosion_small_1.wav", explosion_small, 14),
    ("explosion_small_2.wav", explosion_small, 15),
    ("explosion_medium_1.wav", explosion_medium, 16),
    ("explosion_medium_2.wav", explosion_medium, 17),
    ("explosion_large.wav", explosion_large, 18),
    ("death_infantry_1.wav", death_infantry, 19),
    ("death_infantry_2.wav", death_infantry, 20),
    ("engine.wav", engine, 21),
    ("construct.wav", construct, 22),
    ("sell.wav", sell, 23),
    ("chirp_infantry_select.wav", |n| chirp(n, &[76.0, 81.0], 0.06), 24),
    ("chirp_infantry_order.wav", |n| chirp(n, &[81.0, 79.0, 76.0], 0.05), 25),
    ("chirp_vehicle_select.wav", |n| chirp(n, &[64.0, 69.0], 0.08), 26),
    ("chirp_vehicle_order.wav", |n| chirp(n, &[69.0, 67.0, 64.0], 0.06), 27),
    ("chirp_aircraft_select.wav", |n| chirp(n, &[84.0, 88.0], 0.05), 28),
    ("chirp_aircraft_order.wav", |n| chirp(n, &[88.0, 86.0, 84.0], 0.04), 29),
    ("chirp_structure_select.wav", |n| chirp(n, &[60.0], 0.09), 30),
    ("cue_unit_ready.wav", |n| cue(n, &[72.0, 76.0, 79.0], 0.11, Wave::Triangle), 31),
    ("cue_building_complete.wav", |n| cue(n, &[67.0, 72.0, 76.0, 79.0], 0.12, Wave::Square), 32),
    ("cue_upgrade_complete.wav", |n| cue(n, &[79.0, 84.0, 88.0, 91.0], 0.08, Wave::Sine), 33),
    ("cue_promoted.wav", |n| cue(n, &[84.0, 91.0], 0.1, Wave::Sine), 34),
    ("cue_under_attack.wav", under_attack, 35),
    ("cue_insufficient_funds.wav", insufficient_funds, 36),
    ("ui_click.wav", ui_click, 37),
    ("ui_hover.wav", ui_hover, 38),
    ("ui_refused.wav", ui_refused, 39),
];

/// Every generated file as (name, WAV bytes), in a fixed order.
pub fn generate() -> Vec<(&'static str, Vec<u8>)> {
    FILES
        .iter()
        .map(|&(name, recipe, seed)| {
            let mut noise = Noise::new(seed);
            let mut samples = recipe(&mut noise);
            fade_out(&mut samples, 0.004, R);
            (name, wav_bytes(&samples))
        })
        .collect()
}

/// 48 kHz mono 16-bit WAV bytes of `samples` (clamped to −1..1).
fn wav_bytes(samples: &[f32]) -> Vec<u8> {
    let spec =
        hound::WavSpec { channels: 1, sample_rate: RATE, bits_per_sample: 16, sample_format: hound::SampleFormat::Int };
    let mut out = std::io::Cursor::new(Vec::new());
    // Writing to memory cannot fail but for a sample count beyond what a WAV header holds.
    if let Ok(mut w) = hound::WavWriter::new(&mut out, spec) {
        for s in samples {
            let _ = w.write_sample((s.clamp(-1.0, 1.0) * 32_767.0).round() as i16);
        }
        let _ = w.finalize();
    }
    out.into_inner()
}

/// `seconds` of samples from `f(t)`.
fn render(seconds: f32, mut f: impl FnMut(f32) -> f32) -> Vec<f32> {
    (0..(seconds * R) as usize).map(|i| f(i as f32 / R)).collect()
}

/// A rifle: a bright crack, a short thump and a little room tail.
fn rifle(n: &mut Noise) -> Vec<f32> {
    let body = n.range(110.0, 150.0);
    let (mut hp, mut lp, mut osc) = (HighPass::default(), LowPass::default(), Osc::default());
    let mut s = render(0.28, |t| {
        let w = n.white();
        let crack = hp.run(w, 1800.0, R) * env(t, 0.0005, 0.012);
        let thump = osc.run(Wave::Sine, body * (1.0 - t * 2.0), R) * env(t, 0.001, 0.03);
        let tail = lp.run(w, 1200.0, R) * env(t, 0.004, 0.08) * 0.6;
        crack + thump * 0.8 + tail
    });
    normalize(&mut s, 0.9);
    s
}

/// A heavy machine gun: three quick shots.
fn machine_gun(n: &mut Noise) -> Vec<f32> {
    let gap = n.range(0.065, 0.08);
    let (mut hp, mut lp, mut osc) = (HighPass::default(), LowPass::default(), Osc::default());
    let mut s = render(0.36, |t| {
        let w = n.white();
        let k = (t / gap).floor();
        let local = t - k * gap;
        let shot = if k < 3.0 { 1.0 - k * 0.12 } else { 0.0 };
        let crack = hp.run(w, 1400.0, R) * env(local, 0.0005, 0.01) * shot;
        let thump = osc.run(Wave::Sine, 95.0, R) * env(local, 0.001, 0.025) * shot;
        crack + thump + lp.run(w, 900.0, R) * env(t, 0.01, 0.12) * 0.4
    });
    normalize(&mut s, 0.9);
    s
}

/// A tank cannon: a boom that sweeps down, with a blast of filtered noise.
fn cannon(n: &mut Noise) -> Vec<f32> {
    let low = n.range(70.0, 90.0);
    let (mut lp, mut osc) = (LowPass::default(), Osc::default());
    let mut s = render(0.9, |t| {
        let boom = osc.run(Wave::Sine, low * (1.0 - t * 0.5), R) * env(t, 0.003, 0.18);
        let blast = lp.run(n.white(), 2500.0 * (-t * 6.0).exp() + 200.0, R) * env(t, 0.001, 0.22);
        boom + blast * 1.4
    });
    normalize(&mut s, 0.92);
    s
}

/// The top units' guns: a deeper boom and a metallic ring.
fn heavy_cannon(n: &mut Noise) -> Vec<f32> {
    let (mut lp, mut osc, mut ring) = (LowPass::default(), Osc::default(), Osc::default());
    let mut s = render(1.1, |t| {
        let boom = osc.run(Wave::Sine, 55.0 * (1.0 - t * 0.4), R) * env(t, 0.004, 0.3);
        let blast = lp.run(n.white(), 1800.0 * (-t * 4.0).exp() + 150.0, R) * env(t, 0.001, 0.3);
        let metal = ring.run(Wave::Sine, 930.0, R) * env(t, 0.001, 0.12) * 0.25;
        boom + blast * 1.5 + metal
    });
    normalize(&mut s, 0.93);
    s
}

/// A rocket: an ignition pop, then a whoosh that rises and fades.
fn rocket(n: &mut Noise) -> Vec<f32> {
    let rise = n.range(900.0, 1400.0);
    let (mut lp, mut hp) = (LowPass::default(), HighPass::default());
    let mut s = render(0.85, |t| {
        let w = n.white();
        let pop = hp.run(w, 600.0, R) * env(t, 0.0005, 0.02);
        let band = lp.run(w, 400.0 + rise * t, R) * env(t, 0.05, 0.3);
        pop * 0.8 + band * 2.0
    });
    normalize(&mut s, 0.88);
    s
}

/// A howitzer: a heavy thud and a long rumble.
fn artillery(n: &mut Noise) -> Vec<f32> {
    let (mut lp, mut lp2, mut osc) = (LowPass::default(), LowPass::default(), Osc::default());
    let mut s = render(1.3, |t| {
        let boom = osc.run(Wave::Sine, 48.0, R) * env(t, 0.005, 0.25);
        let rumble = lp2.run(lp.run(n.white(), 500.0, R), 300.0, R) * env(t, 0.01, 0.45) * 3.0;
        boom + rumble
    });
    normalize(&mut s, 0.92);
    s
}

/// Flak: two sharp pops.
fn flak(n: &mut Noise) -> Vec<f32> {
    let (mut hp, mut lp) = (HighPass::default(), LowPass::default());
    let mut s = render(0.5, |t| {
        let w = n.white();
        let pops = env(t, 0.0005, 0.02) + env(t - 0.12, 0.0005, 0.02) * 0.8;
        hp.run(w, 900.0, R) * pops + lp.run(w, 700.0, R) * env(t, 0.005, 0.12) * 0.7
    });
    normalize(&mut s, 0.88);
    s
}

/// A flamethrower: a roaring, fluttering burst.
fn flame(n: &mut Noise) -> Vec<f32> {
    let (mut lp, mut hp) = (LowPass::default(), HighPass::default());
    let mut s = render(0.7, |t| {
        let flutter = 0.7 + 0.3 * (t * TAU * 23.0).sin();
        let roar = lp.run(n.white(), 900.0, R) * flutter;
        hp.run(roar, 120.0, R) * (env(t, 0.04, 0.35) * 2.5)
    });
    normalize(&mut s, 0.85);
    s
}

/// An explosion of `seconds`, its noise opening to `bright` Hz, with a sub thump at `sub` Hz and
/// crackling debris.
fn explosion(n: &mut Noise, seconds: f32, bright: f32, sub: f32) -> Vec<f32> {
    let (mut lp, mut lp2, mut osc) = (LowPass::default(), LowPass::default(), Osc::default());
    let decay = seconds * 0.25;
    let mut s = render(seconds, |t| {
        let w = n.white();
        let cutoff = bright * (-t * 3.0 / seconds).exp() + 120.0;
        let body = lp2.run(lp.run(w, cutoff, R), cutoff * 1.5, R) * env(t, 0.004, decay) * 3.0;
        let thump = osc.run(Wave::Sine, sub * (1.0 - 0.4 * t / seconds), R) * env(t, 0.003, decay * 0.6);
        let crackle = if n.white() > 0.985 { n.white() * env(t - 0.05, 0.01, decay) } else { 0.0 };
        body + thump + crackle * 0.5
    });
    normalize(&mut s, 0.95);
    s
}

fn explosion_small(n: &mut Noise) -> Vec<f32> {
    explosion(n, 0.8, 3000.0, 90.0)
}

fn explosion_medium(n: &mut Noise) -> Vec<f32> {
    explosion(n, 1.4, 2200.0, 60.0)
}

fn explosion_large(n: &mut Noise) -> Vec<f32> {
    explosion(n, 2.2, 1600.0, 42.0)
}

/// A soldier falls: a short cry gliding down and a thud.
fn death_infantry(n: &mut Noise) -> Vec<f32> {
    let pitch = n.range(230.0, 320.0);
    let (mut voice, mut formant, mut lp, mut thud) =
        (Osc::default(), LowPass::default(), LowPass::default(), Osc::default());
    let mut s = render(0.45, |t| {
        let f = pitch * (1.0 - 0.35 * t / 0.3) * (1.0 + 0.02 * (t * TAU * 7.0).sin());
        let cry = formant.run(voice.run(Wave::Saw, f, R), 1100.0, R) * env(t, 0.02, 0.12) * 1.5;
        let hit = (thud.run(Wave::Sine, 70.0, R) + lp.run(n.white(), 400.0, R) * 2.0) * env(t - 0.25, 0.002, 0.05);
        cry + hit
    });
    normalize(&mut s, 0.8);
    s
}

/// A vehicle's engine: a growling throttle-up.
fn engine(n: &mut Noise) -> Vec<f32> {
    let (mut saw, mut lp, mut lpn) = (Osc::default(), LowPass::default(), LowPass::default());
    let mut s = render(1.0, |t| {
        let rpm = 38.0 + 22.0 * (t / 0.4).min(1.0);
        let growl = lp.run(saw.run(Wave::Saw, rpm, R), 260.0, R) * (1.0 + 0.3 * (t * TAU * 9.0).sin());
        let hiss = lpn.run(n.white(), 600.0, R) * 0.3;
        (growl * 2.0 + hiss) * env(t, 0.1, 0.5)
    });
    normalize(&mut s, 0.8);
    s
}

/// Construction: three hammer strikes on metal.
fn construct(n: &mut Noise) -> Vec<f32> {
    let (mut a, mut b, mut c, mut hp) = (Osc::default(), Osc::default(), Osc::default(), HighPass::default());
    let mut s = render(1.0, |t| {
        let k = (t / 0.3).floor();
        let local = t - k * 0.3;
        let strike = if k < 3.0 { env(local, 0.0008, 0.06) } else { 0.0 };
        let metal =
            a.run(Wave::Sine, 1250.0, R) + b.run(Wave::Sine, 1730.0, R) * 0.6 + c.run(Wave::Sine, 2610.0, R) * 0.4;
        (metal * 0.5 + hp.run(n.white(), 2000.0, R) * 0.6) * strike
    });
    normalize(&mut s, 0.8);
    s
}

/// A sale: two coin chimes.
fn sell(_: &mut Noise) -> Vec<f32> {
    let (mut a, mut b) = (Osc::default(), Osc::default());
    let mut s = render(0.5, |t| {
        a.run(Wave::Sine, 1318.5, R) * env(t, 0.002, 0.08) + b.run(Wave::Sine, 1760.0, R) * env(t - 0.08, 0.002, 0.15)
    });
    normalize(&mut s, 0.7);
    s
}

/// A radio acknowledgement: a squelch of static, then beeps at the MIDI `notes`, `beep` seconds
/// each, through a narrow radio band.
fn chirp(n: &mut Noise, notes: &[f32], beep: f32) -> Vec<f32> {
    let seconds = 0.05 + notes.len() as f32 * (beep + 0.02) + 0.06;
    let (mut osc, mut hp, mut lp) = (Osc::default(), HighPass::default(), LowPass::default());
    let mut s = render(seconds, |t| {
        let squelch = n.white() * (env(t, 0.002, 0.02) + env(t - (seconds - 0.05), 0.002, 0.015)) * 0.5;
        let i = ((t - 0.05) / (beep + 0.02)).floor();
        let local = t - 0.05 - i * (beep + 0.02);
        let tone = match notes.get(i as usize) {
            Some(&m) if t >= 0.05 && local < beep => osc.run(Wave::Square, midi_hz(m), R) * 0.5,
            _ => 0.0,
        };
        lp.run(hp.run(tone + squelch, 350.0, R), 3200.0, R)
    });
    normalize(&mut s, 0.7);
    s
}

/// An announcement: notes at the MIDI `notes`, `step` seconds apart, each ringing on.
fn cue(_: &mut Noise, notes: &[f32], step: f32, wave: Wave) -> Vec<f32> {
    let seconds = step * notes.len() as f32 + 0.5;
    let mut oscs: Vec<Osc> = notes.iter().map(|_| Osc::default()).collect();
    let mut lp = LowPass::default();
    let mut s = render(seconds, |t| {
        let mut v = 0.0;
        for (i, (&m, osc)) in notes.iter().zip(oscs.iter_mut()).enumerate() {
            v += osc.run(wave, midi_hz(m), R) * env(t - i as f32 * step, 0.006, 0.25);
        }
        lp.run(v, 4000.0, R)
    });
    normalize(&mut s, 0.75);
    s
}

/// "Under attack": a two-tone alarm.
fn under_attack(_: &mut Noise) -> Vec<f32> {
    let (mut osc, mut lp) = (Osc::default(), LowPass::default());
    let mut s = render(0.9, |t| {
        let f = if ((t / 0.15) as u32).is_multiple_of(2) { 880.0 } else { 660.0 };
        lp.run(osc.run(Wave::Square, f, R), 2500.0, R) * (env(t, 0.01, 0.5) * 0.9)
    });
    normalize(&mut s, 0.75);
    s
}

/// "Insufficient funds": a falling buzz in two steps.
fn insufficient_funds(_: &mut Noise) -> Vec<f32> {
    let (mut osc, mut lp) = (Osc::default(), LowPass::default());
    let mut s = render(0.5, |t| {
        let f = if t < 0.2 { 311.0 } else { 233.0 };
        let gate = if (0.18..0.22).contains(&t) { 0.0 } else { 1.0 };
        lp.run(osc.run(Wave::Saw, f, R), 1500.0, R) * env(t, 0.005, 0.25) * gate
    });
    normalize(&mut s, 0.7);
    s
}

/// An interface click: a short tick.
fn ui_click(n: &mut Noise) -> Vec<f32> {
    let (mut osc, mut hp) = (Osc::default(), HighPass::default());
    let mut s =
        render(0.05, |t| (osc.run(Wave::Sine, 1900.0, R) + hp.run(n.white(), 3000.0, R) * 0.5) * env(t, 0.0005, 0.008));
    normalize(&mut s, 0.6);
    s
}

/// An order refused: two short, low bonks.
fn ui_refused(_: &mut Noise) -> Vec<f32> {
    let (mut osc, mut lp) = (Osc::default(), LowPass::default());
    let mut s = render(0.3, |t| {
        let local = if t < 0.12 { t } else { t - 0.14 };
        lp.run(osc.run(Wave::Square, 196.0, R), 900.0, R) * env(local, 0.003, 0.04)
    });
    normalize(&mut s, 0.6);
    s
}

/// Hovering a button: a soft, quiet tick.
fn ui_hover(_: &mut Noise) -> Vec<f32> {
    let mut osc = Osc::default();
    let mut s = render(0.03, |t| osc.run(Wave::Sine, 1250.0, R) * env(t, 0.001, 0.006));
    normalize(&mut s, 0.3);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8]) -> Vec<i16> {
        let r = hound::WavReader::new(std::io::Cursor::new(bytes)).unwrap();
        assert_eq!(r.spec().sample_rate, RATE);
        assert_eq!(r.spec().channels, 1);
        r.into_samples::<i16>().map(|s| s.unwrap()).collect()
    }

    #[test]
    fn every_file_is_audible_short_and_unclipped() {
        for (name, bytes) in generate() {
            let s = decode(&bytes);
            let peak = s.iter().map(|x| x.unsigned_abs()).max().unwrap_or(0);
            assert!(peak > 6_000, "{name} is nearly silent (peak {peak})");
            assert!(peak < 32_767, "{name} clips");
            assert!(s.len() < RATE as usize * 3, "{name} is longer than 3 s");
            assert!(s.last().unwrap().unsigned_abs() < 200, "{name} ends with a click");
        }
    }

    #[test]
    fn variants_differ_and_sizes_differ_by_explosion() {
        let files = generate();
        let get = |n: &str| decode(&files.iter().find(|(f, _)| *f == n).unwrap().1);
        assert_ne!(get("rifle_1.wav"), get("rifle_2.wav"));
        let (small, medium, large) =
            (get("explosion_small_1.wav").len(), get("explosion_medium_1.wav").len(), get("explosion_large.wav").len());
        assert!(small < medium && medium < large, "{small} {medium} {large}");
    }
}
