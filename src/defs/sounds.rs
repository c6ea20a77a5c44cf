//! The sound table (`data/sounds.ron`): every sound the game plays, by name — its file
//! variants under `data/sounds/`, loudness, pitch variation, how many may play at once, its
//! priority and its mixer category — and the checks that objects and weapons name sounds the
//! table has.
//!
//! Must not: decode or play audio (the audio module does), or reach the simulation.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;

use crate::content::ContentRoots;

use super::error::{DefsError, DefsErrors};
use super::source::Source;

/// Most sounds in a table.
pub const MAX_SOUNDS: usize = 512;
/// Most file variants of one sound.
pub const MAX_VARIANTS: usize = 8;
/// Most copies of one sound playing at once.
pub const MAX_INSTANCES: u32 = 32;

/// The mixer bus a sound plays on; each has its own volume in the options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
pub enum Category {
    /// Weapons, explosions, engines, construction.
    Effects,
    /// Unit acknowledgements and announcements.
    Voice,
    /// Interface clicks.
    Ui,
    /// The soundtrack.
    Music,
}

impl Category {
    /// Every category, in mixer order.
    pub const ALL: [Category; 4] = [Category::Effects, Category::Voice, Category::Ui, Category::Music];

    /// Index into per-category tables.
    pub fn index(self) -> usize {
        self as usize
    }
}

fn hundred() -> u32 {
    100
}

fn four() -> u32 {
    4
}

fn one() -> u8 {
    1
}

/// One entry of `data/sounds.ron`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoundDef {
    /// Unique name, as objects, weapons and layouts refer to it.
    pub name: String,
    /// WAV files under `data/sounds/`; one is picked at random each time it plays.
    pub files: Vec<String>,
    /// Loudness in percent (1–400).
    #[serde(default = "hundred")]
    pub volume: u32,
    /// Each play's pitch varies by up to this many percent either way (0–50).
    #[serde(default)]
    pub pitch: u32,
    /// Most copies playing at once (1–32); more are not started.
    #[serde(default = "four")]
    pub max: u32,
    /// When the mixer is full, a sound of higher priority (0–9) takes the place of a lower one.
    #[serde(default = "one")]
    pub priority: u8,
    /// Which volume slider it follows.
    pub category: Category,
}

/// Where a definition names a sound, for the reference check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SoundRef {
    /// The file that names it.
    pub path: PathBuf,
    /// The naming item's line.
    pub line: usize,
    /// "object" or "weapon".
    pub item: &'static str,
    /// The naming item.
    pub name: String,
    /// The field ("sounds.select", "sound"...).
    pub field: &'static str,
    /// The sound named.
    pub sound: String,
}

/// `data/sounds.ron`, checked.
#[derive(Clone, Debug)]
pub struct SoundTable {
    sounds: Vec<SoundDef>,
    by_name: BTreeMap<String, usize>,
    path: PathBuf,
}

impl SoundTable {
    /// Loads `data/sounds.ron` through the content roots.
    pub fn load(roots: &ContentRoots) -> Result<SoundTable, DefsErrors> {
        let source = Source::find(roots, "data/sounds.ron").map_err(|e| DefsErrors(vec![e]))?;
        SoundTable::parse(&source)
    }

    /// Parses and checks a table: unique names, at least one plain `.wav` file name each,
    /// numbers in range.
    pub fn parse(source: &Source) -> Result<SoundTable, DefsErrors> {
        let sounds: Vec<SoundDef> = source.parse().map_err(|e| DefsErrors(vec![e]))?;
        let mut errors = Vec::new();
        let bad = |name: &str, field: &'static str, message: String| source.invalid("sound", name, field, message);
        if sounds.len() > MAX_SOUNDS {
            errors.push(bad(
                &sounds[MAX_SOUNDS].name,
                "name",
                format!("{} sounds; the limit is {MAX_SOUNDS}", sounds.len()),
            ));
        }
        let mut by_name = BTreeMap::new();
        for (i, s) in sounds.iter().enumerate() {
            if by_name.insert(s.name.clone(), i).is_some() {
                errors.push(bad(&s.name, "name", "defined twice".into()));
            }
            if s.files.is_empty() || s.files.len() > MAX_VARIANTS {
                errors.push(bad(&s.name, "files", format!("needs 1 to {MAX_VARIANTS} files, has {}", s.files.len())));
            }
            for f in &s.files {
                let plain = !f.is_empty()
                    && f.ends_with(".wav")
                    && f.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
                    && !f.starts_with('.');
                if !plain {
                    errors.push(bad(
                        &s.name,
                        "files",
                        format!("\"{f}\" is not a plain .wav file name (letters, digits, _ - .)"),
                    ));
                }
            }
            if !(1..=400).contains(&s.volume) {
                errors.push(bad(&s.name, "volume", format!("{} is not a percentage from 1 to 400", s.volume)));
            }
            if s.pitch > 50 {
                errors.push(bad(&s.name, "pitch", format!("{} is more than 50 percent", s.pitch)));
            }
            if !(1..=MAX_INSTANCES).contains(&s.max) {
                errors.push(bad(&s.name, "max", format!("{} is not from 1 to {MAX_INSTANCES}", s.max)));
            }
            if s.priority > 9 {
                errors.push(bad(&s.name, "priority", format!("{} is not from 0 to 9", s.priority)));
            }
        }
        if errors.is_empty() {
            Ok(SoundTable { sounds, by_name, path: source.path.clone() })
        } else {
            Err(DefsErrors(errors))
        }
    }

    /// The sound called `name`.
    pub fn get(&self, name: &str) -> Option<&SoundDef> {
        self.by_name.get(name).map(|&i| &self.sounds[i])
    }

    /// Every sound, in file order.
    pub fn sounds(&self) -> &[SoundDef] {
        &self.sounds
    }

    /// Where the table was read from.
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }

    /// Every reference to a sound the table lacks, each at the naming item's file and line.
    pub fn check(&self, refs: &[SoundRef]) -> Result<(), DefsErrors> {
        let errors: Vec<DefsError> = refs
            .iter()
            .filter(|r| !self.by_name.contains_key(&r.sound))
            .map(|r| DefsError::Invalid {
                path: r.path.clone(),
                line: r.line,
                item: r.item,
                name: r.name.clone(),
                field: r.field,
                message: format!(
                    "no sound called \"{}\" in {}{}",
                    r.sound,
                    self.path.display(),
                    crate::content::suggest::did_you_mean(&r.sound, self.by_name.keys().map(String::as_str))
                ),
            })
            .collect();
        if errors.is_empty() { Ok(()) } else { Err(DefsErrors(errors)) }
    }
}

/// What an object says and sounds like (`sounds:` in objects.ron); every field optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectSounds {
    /// When its owner selects it.
    #[serde(default)]
    pub select: Option<String>,
    /// When its owner orders it somewhere or at something.
    #[serde(default)]
    pub order: Option<String>,
    /// When it is destroyed.
    #[serde(default)]
    pub death: Option<String>,
    /// Where it appears when a factory finishes it (an engine starting, boots landing).
    #[serde(default)]
    pub produced: Option<String>,
}

impl ObjectSounds {
    /// (field, sound) for each sound named.
    pub fn named(&self) -> impl Iterator<Item = (&'static str, &str)> {
        [
            ("sounds.select", &self.select),
            ("sounds.order", &self.order),
            ("sounds.death", &self.death),
            ("sounds.produced", &self.produced),
        ]
        .into_iter()
        .filter_map(|(f, s)| s.as_deref().map(|s| (f, s)))
    }
}

/// What a weapon sounds like (`sound:` in weapons.ron).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WeaponSounds {
    /// When it fires.
    pub fire: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> Result<SoundTable, DefsErrors> {
        SoundTable::parse(&Source::from_text("data/sounds.ron", text))
    }

    #[test]
    fn a_good_table_reads_with_defaults() {
        let t = table(r#"[(name: "Shot", files: ["shot_1.wav", "shot_2.wav"], category: Effects)]"#).unwrap();
        let s = t.get("Shot").unwrap();
        assert_eq!((s.volume, s.pitch, s.max, s.priority, s.category), (100, 0, 4, 1, Category::Effects));
        assert_eq!(s.files.len(), 2);
    }

    #[test]
    fn bad_entries_are_refused_at_their_line_with_the_field() {
        let e = table(
            "[\n (name: \"A\", files: [\"../x.wav\"], category: Ui),\n (name: \"B\", files: [\"b.wav\"], max: 0, pitch: 90, category: Voice),\n (name: \"A\", files: [], category: Ui),\n]",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("sounds.ron:2") && e.contains("../x.wav"), "{e}");
        assert!(e.contains("sounds.ron:3") && e.contains("`max`") && e.contains("`pitch`"), "{e}");
        assert!(e.contains("defined twice") && e.contains("needs 1 to 8 files"), "{e}");
    }

    #[test]
    fn references_to_missing_sounds_name_the_item_and_line() {
        let t = table(r#"[(name: "Shot", files: ["s.wav"], category: Effects)]"#).unwrap();
        let r = |sound: &str| SoundRef {
            path: "data/weapons.ron".into(),
            line: 7,
            item: "weapon",
            name: "Rifle".into(),
            field: "sound",
            sound: sound.into(),
        };
        assert!(t.check(&[r("Shot")]).is_ok());
        let e = t.check(&[r("Shto")]).unwrap_err().to_string();
        assert!(e.contains("weapons.ron:7") && e.contains("Rifle") && e.contains("\"Shto\""), "{e}");
    }
}
