//! The `--players` specification: one entry per start slot, `idle`, `scripted`, `remote` or
//! `ai:<difficulty>`, each optionally `@<faction>`; a shorthand for a [`MatchSetup`] whose
//! other fields keep their defaults.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::match_setup::{Difficulty, MatchSetup, SlotKind, SlotSetup};

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
                "remote" => SlotKind::Remote,
                "learner" => SlotKind::Ai { difficulty: Difficulty::Learner },
                _ => match kind.strip_prefix("ai:").and_then(|d| Difficulty::ALL.into_iter().find(|x| x.name() == d)) {
                    Some(difficulty) => SlotKind::Ai { difficulty },
                    None => {
                        return Err(err(
                            "expected idle, scripted, remote, learner or ai:easy|normal|hard|brutal, optionally @<faction>",
                        ));
                    }
                },
            };
            slots.push(SlotSpec { kind, faction });
        }
        Ok(PlayersSpec(slots))
    }
}

impl PlayersSpec {
    /// The match this specification describes on `map` with `seed`: one slot per entry, every
    /// other choice at its default, except that slots without `@<faction>` take the playable
    /// factions in turn (slot 1 the first, slot 2 the second, …), as `--players` always has.
    /// A faction named in another case (`@coalition`) is the playable one of that name.
    pub fn to_match_setup(&self, map: &str, seed: u64, playable: &[String]) -> MatchSetup {
        let canonical = |name: &String| playable.iter().find(|p| p.eq_ignore_ascii_case(name)).unwrap_or(name).clone();
        let slots = self
            .0
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let turn = (!playable.is_empty()).then(|| playable[i % playable.len()].clone());
                SlotSetup { faction: s.faction.as_ref().map(canonical).or(turn), ..SlotSetup::new(s.kind) }
            })
            .collect();
        MatchSetup { map: map.to_string(), seed, slots, run_ahead: None, map_hash: None, content_hash: None }
    }
}

impl fmt::Display for PlayersSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.0.iter().enumerate() {
            if i > 0 {
                write!(f, ",")?;
            }
            match s.kind {
                SlotKind::Scripted => write!(f, "scripted")?,
                SlotKind::Remote => write!(f, "remote")?,
                SlotKind::Ai { difficulty: Difficulty::Learner } => write!(f, "learner")?,
                SlotKind::Ai { difficulty } => write!(f, "ai:{}", difficulty.name())?,
                // The spec never produces the others; a human seat reads as idle headless.
                SlotKind::Idle | SlotKind::Human | SlotKind::Closed => write!(f, "idle")?,
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
        assert_eq!(spec.0[2].kind, SlotKind::Ai { difficulty: Difficulty::Hard });
        assert_eq!(spec.to_string(), "scripted,idle@Dominion,ai:hard");
        let spec: PlayersSpec = "learner@Coalition,ai:easy".parse().unwrap();
        assert_eq!(spec.0[0].kind, SlotKind::Ai { difficulty: Difficulty::Learner });
        assert_eq!(spec.to_string(), "learner@Coalition,ai:easy");
        assert!("ai:learner".parse::<PlayersSpec>().is_err(), "the learner is no computer difficulty");
    }

    #[test]
    fn rejects_unknown_kinds_naming_the_entry() {
        let e = "idle,robot".parse::<PlayersSpec>().unwrap_err();
        assert_eq!(e.index, 2);
        assert!("idle@".parse::<PlayersSpec>().is_err());
        assert!("ai:medium".parse::<PlayersSpec>().is_err());
    }

    #[test]
    fn becomes_a_match_setup_with_defaults() {
        let spec: PlayersSpec = "ai:easy@Dominion,remote".parse().unwrap();
        let playable = ["Coalition".to_string(), "Dominion".to_string()];
        let m = spec.to_match_setup("crossroads", 9, &playable);
        assert_eq!((m.map.as_str(), m.seed, m.slots.len()), ("crossroads", 9, 2));
        assert_eq!(m.slots[0].faction.as_deref(), Some("Dominion"));
        assert_eq!(m.slots[1].faction.as_deref(), Some("Dominion"), "slot 2 takes the second faction");
        assert_eq!(m.slots[1].kind, SlotKind::Remote);
        assert_eq!((m.slots[1].team, m.slots[1].money), (None, None));
        let m = "idle,idle,idle".parse::<PlayersSpec>().unwrap().to_match_setup("x", 1, &playable);
        let factions: Vec<_> = m.slots.iter().map(|s| s.faction.as_deref().unwrap()).collect();
        assert_eq!(factions, ["Coalition", "Dominion", "Coalition"]);
    }

    #[test]
    fn a_faction_in_another_case_is_the_playable_one() {
        let spec: PlayersSpec = "ai:easy@coalition,idle@DOMINION,idle@Nobody".parse().unwrap();
        let playable = vec!["Coalition".to_string(), "Dominion".to_string()];
        let setup = spec.to_match_setup("m", 1, &playable);
        let names: Vec<Option<&str>> = setup.slots.iter().map(|s| s.faction.as_deref()).collect();
        assert_eq!(
            names,
            [Some("Coalition"), Some("Dominion"), Some("Nobody")],
            "an unknown one is left to be refused"
        );
    }
}
