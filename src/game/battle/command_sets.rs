//! The control bar's command sets read from data (`data/command_sets.ron`): the buttons an
//! army shows and their order (a structure's and a builder's come from the object data).
//!
//! Must not: word or draw the buttons (`army_bar.rs` does), or hold any key (the key map does).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::content::{ContentRoots, FileError, parse_ron, read_text};
use crate::game::keys::{KeyCommand, SLOTS};

use super::army_bar::army_action;

/// Where the command sets are, under a content root.
pub const COMMAND_SETS_FILE: &str = "data/command_sets.ron";

/// The command sets as read.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandSets {
    /// The army's buttons, in order: each an army command (Stop, Guard, AttackMove, Scatter,
    /// Formation), at most once.
    pub army: Vec<KeyCommand>,
}

impl CommandSets {
    /// The command sets of the first content root that has the file (a mod's over the game's).
    pub fn load(roots: &ContentRoots) -> Result<CommandSets, FileError> {
        let Some(path) = roots.find(COMMAND_SETS_FILE) else {
            let message = "not found in any content root".to_string();
            return Err(FileError::Io { path: PathBuf::from(COMMAND_SETS_FILE), message });
        };
        CommandSets::parse(&path, &read_text(&path)?)
    }

    /// The file's text (`path` names it in errors): a command that is not the army's, one
    /// listed twice, or more than leave room for Build… is refused with its line.
    pub fn parse(path: &Path, text: &str) -> Result<CommandSets, FileError> {
        let sets: CommandSets = parse_ron(path, text)?;
        let bad = |command: KeyCommand, message: String| {
            let needle = format!("\"{command}\"");
            let line = text.lines().position(|l| l.contains(&needle) && !l.trim_start().starts_with("//"));
            FileError::Syntax { path: path.to_path_buf(), line: line.map_or(1, |i| i + 1), col: 1, message }
        };
        for (i, &c) in sets.army.iter().enumerate() {
            if army_action(c, true).is_none() {
                return Err(bad(
                    c,
                    format!("{c} is not an army command (Stop, Guard, AttackMove, Scatter, Formation)"),
                ));
            }
            if sets.army[..i].contains(&c) {
                return Err(bad(c, format!("{c} is listed twice in army")));
            }
        }
        if sets.army.len() + 1 > SLOTS as usize {
            let message = format!("army has {} buttons: at most {} leave room for Build…", sets.army.len(), SLOTS - 1);
            return Err(FileError::Syntax { path: path.to_path_buf(), line: 1, col: 1, message });
        }
        Ok(sets)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_army_is_five_buttons_and_a_stranger_is_refused_with_its_line() {
        let shipped = include_str!("../../../data/command_sets.ron");
        let sets = CommandSets::parse(Path::new(COMMAND_SETS_FILE), shipped).unwrap();
        assert_eq!(
            sets.army,
            [KeyCommand::Stop, KeyCommand::Guard, KeyCommand::AttackMove, KeyCommand::Scatter, KeyCommand::Formation]
        );
        let e = CommandSets::parse(Path::new("c.ron"), "(\n  army: [\"Stop\",\n  \"SelectArmy\"],\n)").unwrap_err();
        assert!(e.to_string().contains("c.ron:3:") && e.to_string().contains("not an army command"), "{e}");
        let e = CommandSets::parse(Path::new("c.ron"), "(army: [\"Stop\", \"Stop\"])").unwrap_err();
        assert!(e.to_string().contains("listed twice"), "{e}");
    }
}
