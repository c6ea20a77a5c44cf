//! Sound: kira for mixing, with output backends of our own (no system library to build), the
//! sound table's files decoded into a bank, the battle's events turned into placed sounds, a
//! soundtrack synthesised from the score. The offline renderer behind `render-audio` runs a
//! game, so it lives in the client (`game/offline_audio.rs`).
//!
//! Must not: be read by the simulation or the AI, or decide anything in the game (sound only
//! follows what happened); never stop the game when there is no sound device.

pub mod backend;
pub mod bank;
pub mod cues;
pub mod ear;
pub mod limiter;
pub mod mixer;
pub mod music;
pub mod synth;

use crate::content::ContentRoots;
use crate::defs::{DefsErrors, SoundTable};

pub use backend::{Capture, OutputError, OutputSettings, Tier};
pub use ear::{Ear, Placement};
pub use mixer::{Mixer, Mood, Volumes};

/// Why sound could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum AudioError {
    /// `data/sounds.ron` or `data/music.ron` is wrong.
    #[error("{0}")]
    Data(#[from] DefsErrors),
    /// A sound file is missing or unreadable.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Files(Vec<bank::BankError>),
    /// No output opened.
    #[error(transparent)]
    Output(#[from] OutputError),
}

/// Loads the sound table, its files and the score, and opens a mixer on `settings` with the
/// soundtrack's loops ready.
pub fn open_mixer(
    roots: &ContentRoots,
    settings: OutputSettings,
    volumes: Volumes,
    seed: u64,
) -> Result<Mixer, AudioError> {
    let table = SoundTable::load(roots)?;
    let bank = bank::Bank::load(&table, roots).map_err(AudioError::Files)?;
    let score = music::Score::load(roots)?;
    let mut mixer = Mixer::open(settings, bank, volumes, seed)?;
    let tune = |name: &str| {
        let samples = score.piece(name).map(music::render).unwrap_or_default();
        bank::from_frames(music::RATE, samples.into_iter().map(kira::Frame::from_mono).collect())
    };
    mixer.set_tunes(tune("Menu"), tune("BattleCalm"), tune("BattleIntense"));
    Ok(mixer)
}

/// The game's sound: a mixer on the speakers, or nothing (said once in the log).
pub struct Audio {
    mixer: Option<Mixer>,
}

impl Audio {
    /// Opens the speakers (PulseAudio, then ALSA); without either, or with broken sound data,
    /// the game goes on silent and the log says why.
    pub fn start(roots: &ContentRoots, volumes: Volumes) -> Audio {
        let seed =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
        match open_mixer(roots, OutputSettings::default(), volumes, seed) {
            Ok(mut mixer) => {
                log::info!("sound through {}", mixer.tier().map_or("a capture".to_string(), |t| t.to_string()));
                Audio { mixer: Some(mixer) }
            }
            Err(e) => {
                log::warn!("playing without sound: {e}");
                Audio { mixer: None }
            }
        }
    }

    /// No sound at all.
    pub fn silent() -> Audio {
        Audio { mixer: None }
    }

    /// The mixer, when there is sound.
    pub fn mixer(&mut self) -> Option<&mut Mixer> {
        self.mixer.as_mut()
    }

    /// Plays `name` placed as given (nothing when silent).
    pub fn play(&mut self, name: &str, at: Placement) {
        if let Some(m) = &mut self.mixer {
            m.play(name, at);
        }
    }

    /// Applies the options' volumes.
    pub fn set_volumes(&mut self, v: Volumes) {
        if let Some(m) = &mut self.mixer {
            m.set_volumes(v);
        }
    }

    /// Holds or resumes everything (the window was minimised or restored).
    pub fn set_paused(&mut self, paused: bool) {
        if let Some(m) = &mut self.mixer {
            m.set_paused(paused);
        }
    }

    /// Sets the soundtrack's mood.
    pub fn set_mood(&mut self, mood: Mood) {
        if let Some(m) = &mut self.mixer {
            m.set_mood(mood);
        }
    }
}
