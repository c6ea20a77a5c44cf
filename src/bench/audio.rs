//! `ridgeline bench audio`: what the mixer costs in a 200-unit battle — per game frame, the
//! battle's events turned into placed sounds, started on the mixer, and 1/30 s of stereo pulled
//! through it (the work a player's machine does beside drawing), with the soundtrack playing.
//!
//! Must not: be used as a test (timings are never asserted).

use std::time::Instant;

use serde_json::{Value, json};

use crate::audio::cues::Cues;
use crate::audio::{Capture, Ear, Mood, OutputSettings, Volumes, open_mixer};
use crate::content::ContentRoots;
use crate::defs::Definitions;
use crate::game::offline_audio::SAMPLES_PER_FRAME;
use crate::lockstep::stream::{Stream, StreamConfig};
use crate::session::controller::Controller;
use crate::sim::ids::PlayerId;

use super::median;

/// Units on each side.
const PER_SIDE: usize = 100;
/// Game frames measured per run.
const FRAMES: u32 = 600;
/// Runs (the median is reported).
const RUNS: usize = 3;

/// One run: each frame's mixer time in µs, the most sounds playing at once, sounds started.
fn run_once(roots: &ContentRoots, defs: &Definitions) -> Result<(Vec<f64>, usize, usize), String> {
    let super::scenarios::Scenario { mut world, mut controllers, .. } =
        super::scenarios::battle(defs, PER_SIDE).map_err(|e| e.to_string())?;
    let capture = Capture::new();
    let full = Volumes { master: 100, effects: 100, voice: 100, music: 100 };
    let mut mixer = open_mixer(roots, OutputSettings::Capture(capture.clone()), full, 1).map_err(|e| e.to_string())?;
    mixer.set_mood(Mood::Battle { intensity: 0.0 });
    let players = vec![PlayerId(0), PlayerId(1)];
    let mut stream =
        Stream::new(StreamConfig { players: players.clone(), local: players, run_ahead: 3, pace: Default::default() });
    let ear = Ear::new([1250.0, 800.0], 320.0);
    let mut cues = Cues::default();
    let (mut per_frame, mut peak, mut started) = (Vec::new(), 0, 0);
    for _ in 0..FRAMES {
        for c in controllers.iter_mut() {
            for cmd in c.think(&world) {
                let _ = stream.submit(c.player(), cmd);
            }
        }
        let Some((frame, commands)) = stream.take_ready() else { break };
        let report = world.tick(&commands);
        stream.record_hash(frame, world.state_hash().total);
        let t0 = Instant::now();
        for h in cues.note(defs, &report.events, frame.0, None, &ear, |_| true) {
            started += usize::from(mixer.play(&h.name, h.at));
        }
        mixer.set_mood(Mood::Battle { intensity: cues.intensity() });
        let samples = capture.render(SAMPLES_PER_FRAME);
        per_frame.push(t0.elapsed().as_secs_f64() * 1e6);
        std::hint::black_box(samples);
        peak = peak.max(mixer.voices());
    }
    Ok((per_frame, peak, started))
}

/// Runs the benchmark and returns its JSON.
pub fn run(roots: &ContentRoots) -> Result<Value, String> {
    let defs = Definitions::load(roots).map_err(|e| e.to_string())?;
    let mut medians = Vec::new();
    let mut p95s = Vec::new();
    let (mut peak, mut started) = (0, 0);
    for _ in 0..RUNS {
        let (mut us, p, s) = run_once(roots, &defs)?;
        us.sort_by(f64::total_cmp);
        p95s.push(us.get(us.len() * 95 / 100).copied().unwrap_or(0.0));
        medians.push(median(us));
        peak = peak.max(p);
        started = s;
    }
    let per_game_frame = median(medians);
    Ok(json!({
        "units": PER_SIDE * 2,
        "frames": FRAMES,
        "mixer_us_per_game_frame": per_game_frame,
        "mixer_us_per_game_frame_p95": median(p95s),
        "mixer_us_per_display_frame_60hz": per_game_frame / 2.0,
        "share_of_real_time": per_game_frame / (1e6 / crate::sim::FRAMES_PER_SECOND as f64),
        "voices_peak": peak,
        "sounds_started": started,
    }))
}
