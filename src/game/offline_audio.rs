//! The sound of a whole game rendered offline through the game's own mixer (a capture
//! backend): a headless game or a replay runs frame by frame, its events become sounds heard
//! from a camera that follows the largest fight, and each frame's 1/30 s of audio is pulled
//! from the mixer. `ridgeline render-audio` writes it as a WAV; the audio benchmark times it.
//!
//! It lives in the client, not in `audio/`: it runs a game (the session), which the sound
//! system itself must not know.
//!
//! Must not: touch a sound device, or change the game it listens to.

use std::path::Path;

use crate::content::ContentRoots;
use crate::session::start::LocalMatch;
use crate::session::{SessionError, Step};
use crate::sim::event::GameEvent;

use crate::audio::backend::{Capture, OutputSettings, SAMPLE_RATE};
use crate::audio::cues::Cues;
use crate::audio::ear::Ear;
use crate::audio::mixer::{Mood, Volumes};
use crate::audio::{AudioError, open_mixer};

/// Audio frames per game frame (48 kHz over 30 frames a second).
pub const SAMPLES_PER_FRAME: usize = (SAMPLE_RATE / crate::sim::FRAMES_PER_SECOND) as usize;
/// Half the ground width the listening camera shows (the game's default view).
const HALF_WIDTH: f32 = 320.0;
/// Side of the squares fights are counted in, world units.
const FIGHT_CELL: f32 = 160.0;
/// How much of each square's count is kept from one frame to the next.
const FIGHT_KEPT: f32 = 0.97;
/// How far the camera moves toward the fight each frame.
const FOLLOW: f32 = 0.05;

/// What to render.
#[derive(Clone, Copy, Debug)]
pub struct RenderSpec {
    /// First game frame heard.
    pub from: u32,
    /// Last game frame heard (the game's end if sooner).
    pub to: u32,
    /// With the soundtrack.
    pub music: bool,
}

/// Why rendering failed.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// Sound could not be set up.
    #[error(transparent)]
    Audio(#[from] AudioError),
    /// The game failed.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// The WAV could not be written.
    #[error("{path}: {message}")]
    Write {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
}

/// The camera's place: the centre of the square with the most recent shooting.
#[derive(Default)]
struct Follow {
    heat: std::collections::BTreeMap<(i32, i32), f32>,
    centre: Option<[f32; 2]>,
}

impl Follow {
    fn note(&mut self, events: &[GameEvent]) -> [f32; 2] {
        for v in self.heat.values_mut() {
            *v *= FIGHT_KEPT;
        }
        self.heat.retain(|_, v| *v > 0.05);
        for e in events {
            if let GameEvent::WeaponFired { from, .. } = e {
                let [x, y] = crate::audio::cues::spot(*from);
                let key = ((x / FIGHT_CELL).floor() as i32, (y / FIGHT_CELL).floor() as i32);
                *self.heat.entry(key).or_default() += 1.0;
            }
        }
        let hottest = self
            .heat
            .iter()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .map(|(&(x, y), _)| [(x as f32 + 0.5) * FIGHT_CELL, (y as f32 + 0.5) * FIGHT_CELL]);
        let centre = match (self.centre, hottest) {
            (Some(c), Some(h)) => [c[0] + (h[0] - c[0]) * FOLLOW, c[1] + (h[1] - c[1]) * FOLLOW],
            (None, Some(h)) => h,
            (Some(c), None) => c,
            (None, None) => [0.0, 0.0],
        };
        self.centre = Some(centre);
        centre
    }
}

/// Runs `game` (already set up: a headless match or a replay being played back) and returns
/// its sound from `spec.from` to `spec.to` as interleaved stereo samples.
pub fn render_match(roots: &ContentRoots, game: &mut LocalMatch, spec: RenderSpec) -> Result<Vec<f32>, RenderError> {
    let capture = Capture::new();
    let mut mixer = open_mixer(
        roots,
        OutputSettings::Capture(capture.clone()),
        Volumes { master: 100, effects: 100, voice: 100, music: 100 },
        1,
    )?;
    if spec.music {
        mixer.set_mood(Mood::Battle { intensity: 0.0 });
    }
    let defs = game.content.defs.clone();
    let mut cues = Cues::default();
    let mut follow = Follow::default();
    let mut out = Vec::new();
    while game.session.world().frame().0 < spec.to && !game.session.world().is_over() {
        let Step::Ticked { frame, report, .. } = game.session.step()? else {
            break; // a local game never waits; stop rather than spin
        };
        let centre = follow.note(&report.events);
        if frame.0 < spec.from {
            continue;
        }
        let ear = Ear::new(centre, HALF_WIDTH);
        for heard in cues.note(&defs, &report.events, frame.0, None, &ear, |_| true) {
            mixer.play(&heard.name, heard.at);
        }
        if spec.music {
            mixer.set_mood(Mood::Battle { intensity: cues.intensity() });
        }
        out.extend(capture.render(SAMPLES_PER_FRAME));
    }
    Ok(out)
}

/// Writes interleaved stereo samples as a 48 kHz 16-bit WAV.
pub fn write_wav(path: &Path, samples: &[f32]) -> Result<(), RenderError> {
    let spec = hound::WavSpec {
        channels: 2,
        sample_rate: SAMPLE_RATE,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    // Written beside and renamed over: a full disk leaves the old WAV as it was.
    crate::content::write_with(path, None, |f| {
        let mut w = hound::WavWriter::new(std::io::BufWriter::new(f), spec)?;
        for s in samples {
            w.write_sample((s.clamp(-1.0, 1.0) * 32_767.0).round() as i16)?;
        }
        w.finalize()
    })
    .map_err(|e| RenderError::Write { path: path.display().to_string(), message: e.why })
}

/// Loudness of interleaved stereo samples over windows of `window` frames: (peak, RMS) each.
pub fn levels(samples: &[f32], window: usize) -> Vec<(f32, f32)> {
    samples
        .chunks(window.max(1) * 2)
        .map(|c| {
            let peak = c.iter().fold(0.0f32, |m, s| m.max(s.abs()));
            let rms = (c.iter().map(|s| s * s).sum::<f32>() / c.len().max(1) as f32).sqrt();
            (peak, rms)
        })
        .collect()
}
