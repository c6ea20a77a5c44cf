//! The sounds of the table, decoded: each name's WAV variants read once through the content
//! roots (so a mod can replace a file) and kept as kira sound data.
//!
//! Must not: play anything (the mixer does), or fail on a file without naming it.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use kira::Frame;
use kira::sound::static_sound::{StaticSoundData, StaticSoundSettings};

use crate::content::ContentRoots;
use crate::defs::{SoundDef, SoundTable};

/// Longest sound file accepted, in seconds (longer ones are a mistake, not an effect).
pub const MAX_SECONDS: u32 = 30;

/// A sound file that could not be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message} (sound \"{sound}\")")]
pub struct BankError {
    /// The file (or where it was looked for).
    pub path: String,
    /// The sound that names it.
    pub sound: String,
    /// What is wrong.
    pub message: String,
}

/// One sound: its entry and its decoded variants.
#[derive(Clone)]
pub struct Loaded {
    /// The table's entry.
    pub def: SoundDef,
    /// One per file.
    pub variants: Vec<StaticSoundData>,
}

/// Every sound of a table, decoded.
#[derive(Clone, Default)]
pub struct Bank {
    sounds: BTreeMap<String, Loaded>,
}

impl Bank {
    /// Reads every file the table names from `data/sounds/` under the content roots.
    pub fn load(table: &SoundTable, roots: &ContentRoots) -> Result<Bank, Vec<BankError>> {
        let mut sounds = BTreeMap::new();
        let mut errors = Vec::new();
        for def in table.sounds() {
            let mut variants = Vec::new();
            for file in &def.files {
                let rel = format!("data/sounds/{file}");
                let found = roots.find(&rel);
                let result = match &found {
                    Some(path) => decode_file(path),
                    None => Err("not found in any content root".to_string()),
                };
                match result {
                    Ok(data) => variants.push(data),
                    Err(message) => errors.push(BankError {
                        path: found.map_or(rel, |p| p.display().to_string()),
                        sound: def.name.clone(),
                        message,
                    }),
                }
            }
            sounds.insert(def.name.clone(), Loaded { def: def.clone(), variants });
        }
        if errors.is_empty() { Ok(Bank { sounds }) } else { Err(errors) }
    }

    /// The sound called `name`.
    pub fn get(&self, name: &str) -> Option<&Loaded> {
        self.sounds.get(name)
    }

    /// Adds (or replaces) a sound made in memory: music, tests.
    pub fn insert(&mut self, def: SoundDef, variants: Vec<StaticSoundData>) {
        self.sounds.insert(def.name.clone(), Loaded { def, variants });
    }
}

/// Decodes a 16-bit PCM WAV file (mono or stereo).
fn decode_file(path: &Path) -> Result<StaticSoundData, String> {
    // Looked at first: a FIFO or a sparse file whose header claims gigabytes is refused by
    // kind or size, never opened or read whole.
    crate::content::regular_file(path, crate::content::limits::MAX_SOUND_BYTES).map_err(|e| e.to_string())?;
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    decode(&bytes)
}

/// Decodes 16-bit PCM WAV bytes (mono or stereo) into sound data.
pub fn decode(bytes: &[u8]) -> Result<StaticSoundData, String> {
    let reader = hound::WavReader::new(std::io::Cursor::new(bytes)).map_err(|e| format!("not a WAV file: {e}"))?;
    let spec = reader.spec();
    if spec.sample_format != hound::SampleFormat::Int || spec.bits_per_sample != 16 {
        return Err(format!(
            "{}-bit {:?} samples; 16-bit integer PCM is read",
            spec.bits_per_sample, spec.sample_format
        ));
    }
    if !(1..=2).contains(&spec.channels) || !(8_000..=96_000).contains(&spec.sample_rate) {
        return Err(format!(
            "{} channels at {} Hz; mono or stereo at 8–96 kHz is read",
            spec.channels, spec.sample_rate
        ));
    }
    if reader.duration() > spec.sample_rate * MAX_SECONDS {
        return Err(format!("longer than {MAX_SECONDS} s"));
    }
    let samples: Vec<i16> = reader.into_samples::<i16>().collect::<Result<_, _>>().map_err(|e| e.to_string())?;
    let k = 1.0 / 32_768.0;
    let frames: Vec<Frame> = if spec.channels == 1 {
        samples.iter().map(|&s| Frame::from_mono(s as f32 * k)).collect()
    } else {
        samples.chunks_exact(2).map(|c| Frame { left: c[0] as f32 * k, right: c[1] as f32 * k }).collect()
    };
    Ok(from_frames(spec.sample_rate, frames))
}

/// Sound data from frames made in memory.
pub fn from_frames(sample_rate: u32, frames: Vec<Frame>) -> StaticSoundData {
    StaticSoundData { sample_rate, frames: Arc::from(frames), settings: StaticSoundSettings::new(), slice: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_files_are_refused_with_a_reason_and_good_ones_read() {
        assert!(decode(b"RIFF....not a wave").unwrap_err().contains("not a WAV"));
        let spec = hound::WavSpec {
            channels: 1,
            sample_rate: 48_000,
            bits_per_sample: 16,
            sample_format: hound::SampleFormat::Int,
        };
        let mut bytes = std::io::Cursor::new(Vec::new());
        let mut w = hound::WavWriter::new(&mut bytes, spec).unwrap();
        for s in [0i16, 16_384, -16_384] {
            w.write_sample(s).unwrap();
        }
        w.finalize().unwrap();
        let data = decode(&bytes.into_inner()).unwrap();
        assert_eq!(data.frames.len(), 3);
        assert_eq!(data.frames[1], Frame { left: 0.5, right: 0.5 });
    }
}
