//! The soundtrack, synthesised at load from the score in `data/music.ron` instead of shipped as
//! minutes of audio: pieces of parts, each part an instrument playing a line of notes on a
//! sixteenth-note grid. The menu theme is one piece; the battle has a calm and an intense layer
//! of one length and tempo, played together and cross-faded by how much fighting is heard.
//!
//! A line is tokens separated by spaces: `<pitch>:<steps>` (`C4:4`, `F#3:2`, `Bb2:8`), a chord
//! `C3+E3+G3:16`, a rest `-:4`, a drum hit `x:2`; `*n` repeats a token (`A1:2*8`) and `|` marks
//! bars for the reader.
//!
//! Must not: read files other than through the content roots, or take long (a few tenths of a
//! second for the whole score in a release build).

use serde::Deserialize;

use crate::content::ContentRoots;
use crate::defs::{DefsErrors, Source};

use super::synth::{HighPass, LowPass, Noise, Osc, Wave, env, midi_hz, note_env};

/// Sample rate of the synthesised music.
pub const RATE: u32 = 24_000;
/// Longest piece, in seconds.
pub const MAX_SECONDS: f32 = 120.0;

/// What plays a part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Instrument {
    /// Soft detuned saws, slow attack.
    Pad,
    /// A low, round square wave.
    Bass,
    /// A triangle with vibrato.
    Lead,
    /// Bright saws that open and close.
    Brass,
    /// A bass drum.
    Kick,
    /// A snare.
    Snare,
    /// A closed hi-hat.
    Hat,
}

/// Pieces a score may hold.
pub const MAX_PIECES: usize = 64;
/// Parts (lines played together) in one piece.
pub const MAX_PARTS: usize = 16;
/// Notes sounded together in one chord.
pub const MAX_CHORD: usize = 8;

/// One part of a piece.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Part {
    /// Who plays it.
    pub instrument: Instrument,
    /// Loudness in percent (0–200).
    #[serde(default = "hundred")]
    pub volume: u32,
    /// The line.
    pub notes: String,
}

fn hundred() -> u32 {
    100
}

/// One piece of the score.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Piece {
    /// Its name (Menu, BattleCalm, BattleIntense).
    pub name: String,
    /// Beats a minute (a step is a quarter beat).
    pub tempo: u32,
    /// Its length in steps; lines may be shorter (silence after) but not longer.
    pub steps: u32,
    /// What plays.
    pub parts: Vec<Part>,
}

/// A note or chord of a line, in steps from the piece's start.
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    /// First step.
    pub start: u32,
    /// Steps held.
    pub steps: u32,
    /// MIDI note numbers (empty for a drum hit).
    pub pitches: Vec<u8>,
}

/// The pieces the game plays, by name.
pub const PIECES: [&str; 3] = ["Menu", "BattleCalm", "BattleIntense"];

/// The score, checked.
#[derive(Clone, Debug)]
pub struct Score {
    /// Every piece.
    pub pieces: Vec<Piece>,
}

impl Score {
    /// Loads `data/music.ron` through the content roots.
    pub fn load(roots: &ContentRoots) -> Result<Score, DefsErrors> {
        let source = Source::find(roots, "data/music.ron").map_err(|e| DefsErrors(vec![e]))?;
        Score::parse(&source)
    }

    /// Parses and checks a score: every line reads, fits its piece, and the pieces the game
    /// plays are there (the battle's two layers with one tempo and length).
    pub fn parse(source: &Source) -> Result<Score, DefsErrors> {
        let pieces: Vec<Piece> = source.parse().map_err(|e| DefsErrors(vec![e]))?;
        let mut errors = Vec::new();
        if pieces.len() > MAX_PIECES {
            errors.push(source.invalid(
                "score",
                "music",
                "pieces",
                format!("{} pieces; the limit is {MAX_PIECES}", pieces.len()),
            ));
            return Err(DefsErrors(errors));
        }
        for p in &pieces {
            // The work a score asks of the renderer is bounded before any line is read.
            if p.parts.len() > MAX_PARTS {
                errors.push(source.invalid(
                    "piece",
                    &p.name,
                    "parts",
                    format!("{} parts; the limit is {MAX_PARTS}", p.parts.len()),
                ));
                continue;
            }
            if !(40..=240).contains(&p.tempo) {
                errors.push(source.invalid("piece", &p.name, "tempo", format!("{} is not from 40 to 240", p.tempo)));
            }
            let seconds = p.steps as f32 * step_seconds(p.tempo.max(1));
            if p.steps == 0 || seconds > MAX_SECONDS {
                errors.push(source.invalid(
                    "piece",
                    &p.name,
                    "steps",
                    format!("{} steps is not 1 step to {MAX_SECONDS} s", p.steps),
                ));
            }
            for (i, part) in p.parts.iter().enumerate() {
                match parse_line(&part.notes) {
                    Ok(notes) if notes.iter().any(|n| n.pitches.len() > MAX_CHORD) => {
                        errors.push(source.invalid(
                            "piece",
                            &p.name,
                            "notes",
                            format!("part {}: a chord of more than {MAX_CHORD} notes (the limit)", i + 1),
                        ));
                    }
                    Ok(notes) => {
                        let end = notes.last().map_or(0, |n| n.start + n.steps);
                        if end > p.steps {
                            errors.push(source.invalid(
                                "piece",
                                &p.name,
                                "notes",
                                format!("part {} lasts {end} steps, more than the piece's {}", i + 1, p.steps),
                            ));
                        }
                    }
                    Err(e) => errors.push(source.invalid("piece", &p.name, "notes", format!("part {}: {e}", i + 1))),
                }
                if part.volume > 200 {
                    errors.push(source.invalid(
                        "piece",
                        &p.name,
                        "volume",
                        format!("part {}: {} is over 200", i + 1, part.volume),
                    ));
                }
            }
        }
        for name in PIECES {
            if !pieces.iter().any(|p| p.name == name) {
                errors.push(source.invalid("piece", name, "name", format!("the score has no piece called {name}")));
            }
        }
        let find = |n: &str| pieces.iter().find(|p| p.name == n);
        if let (Some(a), Some(b)) = (find("BattleCalm"), find("BattleIntense"))
            && (a.tempo != b.tempo || a.steps != b.steps)
        {
            errors.push(source.invalid(
                "piece",
                "BattleIntense",
                "steps",
                "the battle's layers need one tempo and length to play together",
            ));
        }
        if errors.is_empty() { Ok(Score { pieces }) } else { Err(DefsErrors(errors)) }
    }

    /// The piece called `name`.
    pub fn piece(&self, name: &str) -> Option<&Piece> {
        self.pieces.iter().find(|p| p.name == name)
    }
}

/// Seconds a step lasts at `tempo`.
fn step_seconds(tempo: u32) -> f32 {
    60.0 / tempo as f32 / 4.0
}

/// A pitch such as `C4`, `F#3` or `Bb2` as a MIDI note number.
fn pitch(text: &str) -> Result<u8, String> {
    let mut chars = text.chars();
    let base = match chars.next() {
        Some('C') => 0,
        Some('D') => 2,
        Some('E') => 4,
        Some('F') => 5,
        Some('G') => 7,
        Some('A') => 9,
        Some('B') => 11,
        _ => return Err(format!("\"{text}\" is not a pitch (C4, F#3, Bb2…)")),
    };
    let rest: String = chars.collect();
    let (shift, octave) = match rest.strip_prefix('#') {
        Some(o) => (1, o),
        None => match rest.strip_prefix('b') {
            Some(o) => (-1, o),
            None => (0, rest.as_str()),
        },
    };
    let octave: i32 = octave.parse().map_err(|_| format!("\"{text}\" has no octave (0–8)"))?;
    if !(0..=8).contains(&octave) {
        return Err(format!("\"{text}\": octave {octave} is not from 0 to 8"));
    }
    Ok((12 * (octave + 1) + base + shift).clamp(0, 127) as u8)
}

/// Reads a line into notes (see the module's notes for the syntax).
pub fn parse_line(line: &str) -> Result<Vec<Note>, String> {
    let mut notes = Vec::new();
    let mut at: u32 = 0;
    for (i, token) in line.split_whitespace().filter(|t| *t != "|").enumerate() {
        let bad = |why: String| format!("token {} \"{token}\": {why}", i + 1);
        let (token_body, times) = match token.split_once('*') {
            Some((body, n)) => (body, n.parse::<u32>().map_err(|_| bad("the repeat is not a number".into()))?),
            None => (token, 1),
        };
        if !(1..=256).contains(&times) {
            return Err(bad("repeats from 1 to 256 times".into()));
        }
        let (what, steps) = token_body.split_once(':').ok_or_else(|| bad("needs :steps".into()))?;
        let steps: u32 = steps.parse().map_err(|_| bad("the steps are not a number".into()))?;
        if !(1..=256).contains(&steps) {
            return Err(bad("lasts 1 to 256 steps".into()));
        }
        let pitches = match what {
            "-" => None,
            "x" => Some(Vec::new()),
            chord => Some(chord.split('+').map(pitch).collect::<Result<Vec<u8>, String>>().map_err(bad)?),
        };
        for _ in 0..times {
            if let Some(p) = &pitches {
                notes.push(Note { start: at, steps, pitches: p.clone() });
            }
            at = at.saturating_add(steps);
            if at > 1 << 16 {
                return Err(bad("the line is too long".into()));
            }
        }
    }
    Ok(notes)
}

/// A piece rendered to mono samples at [`RATE`].
pub fn render(piece: &Piece) -> Vec<f32> {
    let step = step_seconds(piece.tempo.max(1));
    let total = (piece.steps as f32 * step * RATE as f32) as usize;
    let mut out = vec![0.0f32; total];
    for (i, part) in piece.parts.iter().enumerate() {
        let Ok(notes) = parse_line(&part.notes) else { continue };
        let gain = part.volume as f32 / 100.0;
        let mut noise = Noise::new(i as u64 + 1);
        for note in notes {
            let start = (note.start as f32 * step * RATE as f32) as usize;
            let length = note.steps as f32 * step;
            play_note(&mut out, start, length, part.instrument, &note.pitches, gain, &mut noise);
        }
    }
    // Soft limit: a gentle curve instead of hard clipping where parts pile up.
    for s in &mut out {
        *s = (*s * 0.8).tanh();
    }
    out
}

/// Adds one note (or drum hit) of `instrument` into `out` from sample `start`, wrapping past
/// the end so loops join without a gap.
fn play_note(
    out: &mut [f32],
    start: usize,
    length: f32,
    instrument: Instrument,
    pitches: &[u8],
    gain: f32,
    noise: &mut Noise,
) {
    let r = RATE as f32;
    let (tail, attack, release) = match instrument {
        Instrument::Pad => (0.6, 0.25, 0.6),
        Instrument::Bass => (0.05, 0.005, 0.05),
        Instrument::Lead => (0.15, 0.02, 0.15),
        Instrument::Brass => (0.1, 0.03, 0.1),
        Instrument::Kick => (0.35, 0.0, 0.0),
        Instrument::Snare => (0.25, 0.0, 0.0),
        Instrument::Hat => (0.06, 0.0, 0.0),
    };
    let len = out.len();
    if len == 0 {
        return;
    }
    let samples = ((length + tail) * r) as usize;
    let mut oscs: Vec<(Osc, Osc)> = pitches.iter().map(|_| (Osc::default(), Osc::default())).collect();
    let (mut lp, mut hp, mut body) = (LowPass::default(), HighPass::default(), Osc::default());
    for i in 0..samples {
        let t = i as f32 / r;
        let v = match instrument {
            Instrument::Kick => body.run(Wave::Sine, 50.0 + 90.0 * (-t * 30.0).exp(), r) * env(t, 0.001, 0.12),
            Instrument::Snare => {
                let n = hp.run(noise.white(), 1500.0, r) * env(t, 0.001, 0.07);
                n + body.run(Wave::Sine, 190.0, r) * env(t, 0.001, 0.04) * 0.6
            }
            Instrument::Hat => hp.run(noise.white(), 7000.0, r) * env(t, 0.0005, 0.02) * 0.6,
            _ => {
                let e = note_env(t, length, attack, release);
                let mut v = 0.0;
                for (&p, (a, b)) in pitches.iter().zip(oscs.iter_mut()) {
                    let f = midi_hz(p as f32);
                    v += match instrument {
                        Instrument::Pad => (a.run(Wave::Saw, f * 1.003, r) + b.run(Wave::Saw, f * 0.997, r)) * 0.25,
                        Instrument::Bass => a.run(Wave::Square, f, r) * 0.5,
                        Instrument::Lead => a.run(Wave::Triangle, f * (1.0 + 0.004 * (t * 36.0).sin()), r) * 0.5,
                        _ => a.run(Wave::Saw, f, r) * 0.35,
                    };
                }
                let cutoff = match instrument {
                    Instrument::Pad => 1400.0,
                    Instrument::Bass => 500.0,
                    Instrument::Lead => 3000.0,
                    _ => 600.0 + 2600.0 * env(t, 0.04, 0.25),
                };
                lp.run(v, cutoff, r) * e
            }
        };
        out[(start + i) % len] += v * gain * 0.5;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_notes_chords_rests_and_repeats() {
        let notes = parse_line("C4:4 -:2 | A1:2*3 C3+E3+G3:16 x:1").unwrap();
        assert_eq!(notes[0], Note { start: 0, steps: 4, pitches: vec![60] });
        assert_eq!(notes[1], Note { start: 6, steps: 2, pitches: vec![33] });
        assert_eq!(notes[3].start, 10);
        assert_eq!(notes[4], Note { start: 12, steps: 16, pitches: vec![48, 52, 55] });
        assert_eq!(notes[5], Note { start: 28, steps: 1, pitches: vec![] });
        assert_eq!(pitch("F#3").unwrap(), 54);
        assert_eq!(pitch("Bb2").unwrap(), 46);
    }

    #[test]
    fn bad_lines_say_which_token() {
        for (line, want) in [
            ("C4", "needs :steps"),
            ("H4:2", "not a pitch"),
            ("C4:0", "1 to 256"),
            ("C9:1", "octave"),
            ("C4:1*x", "repeat"),
        ] {
            let e = parse_line(line).unwrap_err();
            assert!(e.contains("token 1") && e.contains(want), "{line}: {e}");
        }
    }

    #[test]
    fn a_score_without_the_battle_layers_or_with_a_long_line_is_refused() {
        let text = r#"[(name: "Menu", tempo: 100, steps: 4, parts: [(instrument: Lead, notes: "C4:8")])]"#;
        let e = Score::parse(&Source::from_text("data/music.ron", text)).unwrap_err().to_string();
        assert!(e.contains("lasts 8 steps") && e.contains("BattleCalm") && e.contains("BattleIntense"), "{e}");
    }

    #[test]
    fn a_piece_renders_its_length_with_sound_and_without_clipping() {
        let piece = Piece {
            name: "T".into(),
            tempo: 120,
            steps: 16,
            parts: vec![
                Part { instrument: Instrument::Bass, volume: 100, notes: "A1:4*4".into() },
                Part { instrument: Instrument::Kick, volume: 100, notes: "x:4*4".into() },
            ],
        };
        let s = render(&piece);
        assert_eq!(s.len(), (16.0 * 0.125 * RATE as f32) as usize);
        let peak = s.iter().fold(0.0f32, |m, x| m.max(x.abs()));
        assert!(peak > 0.1 && peak < 1.0, "{peak}");
    }
}
