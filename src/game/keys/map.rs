//! The key map: every command's key, in the order the keys file lists them (the order the
//! Keys page shows). The defaults come from `data/keys.ron` (every command once, no two
//! sharing a key they may not share); the player's changes are laid over them. A rebind that
//! takes another command's key swaps the two keys, and says so.
//!
//! Must not: act on keys, or hold a map with a command missing or a conflict (every way in
//! checks).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::content::{ContentRoots, FileError, parse_ron, read_text};

use super::{Chord, KeyCommand};

/// Where the default keys are, under a content root.
pub const KEYS_FILE: &str = "data/keys.ron";

/// Every command's key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyMap {
    entries: Vec<(KeyCommand, Chord)>,
}

/// Two commands on one key that may not share it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The key.
    pub key: Chord,
    /// The command that has it.
    pub with: KeyCommand,
    /// The command that would have it too.
    pub wanted_by: KeyCommand,
}

impl std::fmt::Display for Conflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} is both {}'s key and {}'s", self.key, self.with, self.wanted_by)
    }
}

/// What a rebind did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rebound {
    /// The command had that key already.
    Same,
    /// The key was free: the command has it now.
    Moved,
    /// The key was `other`'s, which now has `now` (the command's old key).
    Swapped {
        /// The command that had the key.
        other: KeyCommand,
        /// Its key now.
        now: Chord,
    },
}

/// The keys file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KeysFile {
    keys: Vec<Entry>,
}

/// One line of the keys file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    command: KeyCommand,
    key: Chord,
}

impl KeyMap {
    /// The default keys: `data/keys.ron` of the first content root that has one (a mod's
    /// over the game's).
    pub fn load(roots: &ContentRoots) -> Result<KeyMap, FileError> {
        let Some(path) = roots.find(KEYS_FILE) else {
            let message = "not found in any content root".to_string();
            return Err(FileError::Io { path: PathBuf::from(KEYS_FILE), message });
        };
        KeyMap::parse(&path, &read_text(&path)?)
    }

    /// The keys file's text (`path` names it in errors): every command once, no conflict.
    /// A problem names the file, the line and the command.
    pub fn parse(path: &Path, text: &str) -> Result<KeyMap, FileError> {
        let file: KeysFile = parse_ron(path, text)?;
        // The line of the `nth` mention of a command (the list itself for none).
        let bad = |command: Option<KeyCommand>, nth: usize, message: String| {
            let needle = command.map_or_else(|| "keys".to_string(), |c| format!("\"{c}\""));
            let mentions = text.lines().enumerate().filter(|(_, l)| l.contains(&needle));
            let line = mentions.map(|(i, _)| i + 1).nth(nth).unwrap_or(1);
            FileError::Syntax { path: path.to_path_buf(), line, col: 1, message }
        };
        let mut map = KeyMap::default();
        for e in file.keys {
            if map.entries.iter().any(|(c, _)| *c == e.command) {
                return Err(bad(Some(e.command), 1, format!("{} is listed twice", e.command)));
            }
            map.entries.push((e.command, e.key));
        }
        if let Some(missing) = KeyCommand::all().into_iter().find(|c| map.chord(*c).is_none()) {
            return Err(bad(None, 0, format!("{missing} has no key: every command needs one")));
        }
        if let Some(c) = map.conflict() {
            return Err(bad(Some(c.wanted_by), 0, c.to_string()));
        }
        Ok(map)
    }

    /// These keys with the player's `changes` over them; the first conflict they make.
    pub fn with_changes(&self, changes: &BTreeMap<KeyCommand, Chord>) -> Result<KeyMap, Conflict> {
        let mut map = self.clone();
        for (c, k) in &mut map.entries {
            if let Some(changed) = changes.get(c) {
                *k = *changed;
            }
        }
        map.conflict().map_or(Ok(map), Err)
    }

    /// The commands whose key differs from `defaults`' (what the settings keep).
    pub fn changes_from(&self, defaults: &KeyMap) -> BTreeMap<KeyCommand, Chord> {
        self.entries.iter().filter(|(c, k)| defaults.chord(*c) != Some(*k)).copied().collect()
    }

    /// The first two commands on one key that may not share it, if any.
    pub fn conflict(&self) -> Option<Conflict> {
        self.entries.iter().enumerate().find_map(|(i, (a, ka))| {
            self.entries[i + 1..].iter().find(|(b, kb)| ka == kb && !a.may_share(*b)).map(|(b, _)| Conflict {
                key: *ka,
                with: *a,
                wanted_by: *b,
            })
        })
    }

    /// Every command and its key, in the keys file's order.
    pub fn entries(&self) -> &[(KeyCommand, Chord)] {
        &self.entries
    }

    /// The key of `command`.
    pub fn chord(&self, command: KeyCommand) -> Option<Chord> {
        self.entries.iter().find(|(c, _)| *c == command).map(|(_, k)| *k)
    }

    /// The key of `command` as the player reads it (`S`, `Ctrl+1`; empty if it has none).
    pub fn key_text(&self, command: KeyCommand) -> String {
        self.chord(command).map_or_else(String::new, |k| k.to_string())
    }

    /// The commands on `key`, in the keys file's order (two only where they may share it).
    pub fn commands(&self, key: Chord) -> impl Iterator<Item = KeyCommand> + '_ {
        self.entries.iter().filter(move |(_, k)| *k == key).map(|(c, _)| *c)
    }

    /// Gives `command` the key `key`. A key another command has (one it may not share) is
    /// swapped: that command takes `command`'s old key. Refused, nothing changed, when the
    /// swap would make a conflict of its own or more than one command has the key.
    pub fn rebind(&mut self, command: KeyCommand, key: Chord) -> Result<Rebound, Conflict> {
        let Some(old) = self.chord(command) else { return Ok(Rebound::Same) };
        if old == key {
            return Ok(Rebound::Same);
        }
        let holders: Vec<KeyCommand> = self.commands(key).filter(|c| *c != command && !c.may_share(command)).collect();
        let refused = |with: KeyCommand| Conflict { key, with, wanted_by: command };
        let mut next = self.clone();
        next.set(command, key);
        let done = match holders[..] {
            [] => Rebound::Moved,
            [other] => {
                next.set(other, old);
                Rebound::Swapped { other, now: old }
            }
            [first, ..] => return Err(refused(first)),
        };
        if let Some(c) = next.conflict() {
            return Err(refused(if c.with == command { c.wanted_by } else { c.with }));
        }
        *self = next;
        Ok(done)
    }

    fn set(&mut self, command: KeyCommand, key: Chord) {
        if let Some((_, k)) = self.entries.iter_mut().find(|(c, _)| *c == command) {
            *k = key;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped() -> KeyMap {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(KEYS_FILE);
        KeyMap::parse(&path, &std::fs::read_to_string(&path).unwrap()).unwrap()
    }

    fn k(text: &str) -> Chord {
        Chord::parse(text).unwrap()
    }

    #[test]
    fn the_shipped_keys_give_every_command_one_key() {
        let map = shipped();
        assert_eq!(map.entries().len(), KeyCommand::all().len());
        assert_eq!(map.chord(KeyCommand::Guard), Some(k("G")));
        assert_eq!(map.chord(KeyCommand::StoreGroup(3)), Some(k("Ctrl+3")));
        // Build and the bottom row's fifth slot share B, as the bar has always had it.
        assert_eq!(map.commands(k("B")).collect::<Vec<_>>(), [KeyCommand::BuildMenu, KeyCommand::Slot(11)]);
    }

    #[test]
    fn a_taken_key_is_swapped_and_named() {
        let mut map = shipped();
        assert_eq!(map.rebind(KeyCommand::Stop, k("H")), Ok(Rebound::Moved));
        assert_eq!(
            map.rebind(KeyCommand::Stop, k("G")),
            Ok(Rebound::Swapped { other: KeyCommand::Guard, now: k("H") })
        );
        assert_eq!(map.chord(KeyCommand::Guard), Some(k("H")));
        assert_eq!(map.conflict(), None);
        let changes = map.changes_from(&shipped());
        assert_eq!(changes.len(), 2);
        assert_eq!(shipped().with_changes(&changes), Ok(map));
    }

    #[test]
    fn a_swap_that_would_clash_elsewhere_is_refused() {
        let mut map = shipped();
        // Pause on B: B is Build's and a slot's; two holders cannot both take P.
        let before = map.clone();
        let refused = map.rebind(KeyCommand::Pause, k("B")).unwrap_err();
        assert_eq!(refused.with, KeyCommand::BuildMenu);
        assert_eq!(map, before, "nothing changed");
    }

    #[test]
    fn a_bad_keys_file_names_the_file_the_line_and_the_command() {
        let path = Path::new("data/keys.ron");
        let twice = "(keys: [\n (command: \"Stop\", key: \"S\"),\n (command: \"Stop\", key: \"H\"),\n])";
        let e = KeyMap::parse(path, twice).unwrap_err().to_string();
        assert!(e.starts_with("data/keys.ron:3:") && e.contains("Stop is listed twice"), "{e}");
        let missing = "(keys: [\n (command: \"Stop\", key: \"S\"),\n])";
        assert!(KeyMap::parse(path, missing).unwrap_err().to_string().contains("Guard has no key"));
        let bad_key = "(keys: [\n (command: \"Stop\", key: \"Escape\"),\n])";
        let e = KeyMap::parse(path, bad_key).unwrap_err().to_string();
        assert!(e.starts_with("data/keys.ron:2:") && e.contains("not bound"), "{e}");
        let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(KEYS_FILE)).unwrap();
        let clash = text.replacen("key: \"G\"", "key: \"S\"", 1);
        let e = KeyMap::parse(path, &clash).unwrap_err().to_string();
        assert!(e.contains("S is both Stop's key and Guard's"), "{e}");
    }
}
