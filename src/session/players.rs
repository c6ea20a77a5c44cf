//! The `--players` specification: one entry per start slot, `idle`, `scripted` or
//! `ai:<difficulty>`, each optionally `@<faction>`.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// What drives a slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotKind {
    /// Never issues a command.
    Idle,
    /// Plays back the `--commands` script.
    Scripted,
    /// A skirmish AI.
    Ai(Difficulty),
}

/// Skirmish AI strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Difficulty {
    /// Slow and forgiving.
    Easy,
    /// A fair fight.
    Normal,
    /// Fast and focused.
    Hard,
    /// Everything it has.
    Brutal,
}

impl Difficulty {
    /// Every difficulty, weakest first (the skirmish setup's computer choices in order).
    pub const ALL: [Difficulty; 4] = [Difficulty::Easy, Difficulty::Normal, Difficulty::Hard, Difficulty::Brutal];

    /// Its name in `data/ai.ron` and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Normal => "normal",
            Difficulty::Hard => "hard",
            Difficulty::Brutal => "brutal",
        }
    }
}

/// One slot of the specification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotSpec {
    /// What drives it.
    pub kind: SlotKind,
    /// Faction name, if given.
    pub faction: Option<String>,
}

/// A bad `--players` value.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("--players entry {index} \"{text}\": {message}")]
pub struct SpecError {
    /// 1-based entry.
    pub index: usize,
    /// The entry.
    pub text: String,
    /// What is wrong.
    pub message: String,
}

/// The whole specification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayersSpec(pub Vec<SlotSpec>);

impl FromStr for PlayersSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut slots = Vec::new();
        for (i, raw) in s.split(',').enumerate() {
            let text = raw.trim();
            let err = |message: &str| SpecError { index: i + 1, text: text.to_string(), message: message.to_string() };
            let (kind, faction) = match text.split_once('@') {
                Some((k, f)) if !f.is_empty() => (k, Some(f.to_string())),
                Some(_) => return Err(err("empty faction after '@'")),
                None => (text, None),
            };
            let kind = match kind {
                "idle" => SlotKind::Idle,
                "scripted" => SlotKind::Scripted,
                "ai:easy" => SlotKind::Ai(Difficulty::Easy),
                "ai:normal" => SlotKind::Ai(Difficulty::Normal),
                "ai:hard" => SlotKind::Ai(Difficulty::Hard),
                "ai:brutal" => SlotKind::Ai(Difficulty::Brutal),
                _ => return Err(err("expected idle, scripted or ai:easy|normal|hard|brutal, optionally @<faction>")),
            };
            slots.push(SlotSpec { kind, faction });
        }
        Ok(PlayersSpec(slots))
    }
}

impl fmt::Display for PlayersSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.0.iter().enumerate() {
            if i > 0 {
                write!(f, ",")?;
            }
            match s.kind {
                SlotKind::Idle => write!(f, "idle")?,
                SlotKind::Scripted => write!(f, "scripted")?,
                SlotKind::Ai(d) => write!(f, "ai:{}", format!("{d:?}").to_lowercase())?,
            }
            if let Some(fac) = &s.faction {
                write!(f, "@{fac}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_back() {
        let spec: PlayersSpec = "scripted,idle@Dominion,ai:hard".parse().unwrap();
        assert_eq!(spec.0.len(), 3);
        assert_eq!(spec.0[1].faction.as_deref(), Some("Dominion"));
        assert_eq!(spec.0[2].kind, SlotKind::Ai(Difficulty::Hard));
        assert_eq!(spec.to_string(), "scripted,idle@Dominion,ai:hard");
    }

    #[test]
    fn rejects_unknown_kinds_naming_the_entry() {
        let e = "idle,robot".parse::<PlayersSpec>().unwrap_err();
        assert_eq!(e.index, 2);
        assert!("idle@".parse::<PlayersSpec>().is_err());
    }
}
