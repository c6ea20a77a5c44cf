//! The battle's commands that have a key: the army's orders on the control bar, the bar's
//! twelve slots, control groups, the camera, alerts, pause and speed. Each has a name the
//! keys file and the settings write (`Stop`, `Slot1`, `StoreGroup3`) and a label in the string
//! table (`Keys:Stop`, `Keys:Slot` with its number).
//!
//! Must not: know any key (the key map does) or act.

use serde::{Deserialize, Serialize};

/// Control-bar slots (Q–Y, Z–N by default).
pub const SLOTS: u8 = 12;
/// Control groups (1–9).
pub const GROUPS: u8 = 9;

/// A battle command a key gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum KeyCommand {
    /// The army's Stop button.
    Stop,
    /// The army's Guard button.
    Guard,
    /// The army's Attack-move button (then a click).
    AttackMove,
    /// The army's Scatter button.
    Scatter,
    /// The army's formation switch.
    Formation,
    /// A mixed selection's Build… button (and Back in the menu it opens).
    BuildMenu,
    /// The control bar's button in this slot (1–12: the top row, then the bottom row).
    Slot(u8),
    /// Select every fighting unit of the player's.
    SelectArmy,
    /// Select the next idle builder or gatherer.
    IdleWorker,
    /// The next of the objects under the last click (with Shift, the previous).
    NextUnderClick,
    /// Store the selection as this control group (1–9).
    StoreGroup(u8),
    /// Select this control group (twice: the camera goes there).
    RecallGroup(u8),
    /// Jump the camera to the last alert.
    AlertJump,
    /// Open or close the alert log.
    AlertLog,
    /// Pause or resume.
    Pause,
    /// The next faster game speed.
    Faster,
    /// The next slower game speed.
    Slower,
    /// Scroll the camera left while held.
    ScrollLeft,
    /// Scroll the camera right while held.
    ScrollRight,
    /// Scroll the camera up while held.
    ScrollUp,
    /// Scroll the camera down while held.
    ScrollDown,
}

/// Where a command's key acts, which says which keys may be shared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Anywhere in a battle: its key is its own.
    Battle,
    /// A button the army's control bar shows with its key.
    Army,
    /// A control-bar slot: its key presses the button in that place when no shown button
    /// has the key.
    Slot,
}

/// The commands without a number, with their names.
const PLAIN: [(KeyCommand, &str); 18] = [
    (KeyCommand::Stop, "Stop"),
    (KeyCommand::Guard, "Guard"),
    (KeyCommand::AttackMove, "AttackMove"),
    (KeyCommand::Scatter, "Scatter"),
    (KeyCommand::Formation, "Formation"),
    (KeyCommand::BuildMenu, "BuildMenu"),
    (KeyCommand::SelectArmy, "SelectArmy"),
    (KeyCommand::IdleWorker, "IdleWorker"),
    (KeyCommand::NextUnderClick, "NextUnderClick"),
    (KeyCommand::AlertJump, "AlertJump"),
    (KeyCommand::AlertLog, "AlertLog"),
    (KeyCommand::Pause, "Pause"),
    (KeyCommand::Faster, "Faster"),
    (KeyCommand::Slower, "Slower"),
    (KeyCommand::ScrollLeft, "ScrollLeft"),
    (KeyCommand::ScrollRight, "ScrollRight"),
    (KeyCommand::ScrollUp, "ScrollUp"),
    (KeyCommand::ScrollDown, "ScrollDown"),
];

/// The numbered commands' names and how many of each there are.
const NUMBERED: [(&str, u8); 3] = [("Slot", SLOTS), ("StoreGroup", GROUPS), ("RecallGroup", GROUPS)];

impl KeyCommand {
    /// Every command, the plain ones first, then the slots and the groups.
    pub fn all() -> Vec<KeyCommand> {
        let mut out: Vec<KeyCommand> = PLAIN.iter().map(|(c, _)| *c).collect();
        out.extend((1..=SLOTS).map(KeyCommand::Slot));
        out.extend((1..=GROUPS).map(KeyCommand::StoreGroup));
        out.extend((1..=GROUPS).map(KeyCommand::RecallGroup));
        out
    }

    /// Its name in the keys file and the settings, and its number if it has one.
    pub fn name(self) -> (&'static str, Option<u8>) {
        match self {
            KeyCommand::Slot(n) => ("Slot", Some(n)),
            KeyCommand::StoreGroup(n) => ("StoreGroup", Some(n)),
            KeyCommand::RecallGroup(n) => ("RecallGroup", Some(n)),
            plain => (PLAIN.iter().find(|(c, _)| *c == plain).map_or("?", |(_, n)| n), None),
        }
    }

    /// Its label in the string table (`Keys:Stop`; a numbered one's label has `{n}`).
    pub fn label(self) -> String {
        format!("Keys:{}", self.name().0)
    }

    /// Where its key acts.
    pub fn scope(self) -> Scope {
        use KeyCommand::*;
        match self {
            Stop | Guard | AttackMove | Scatter | Formation | BuildMenu => Scope::Army,
            Slot(_) => Scope::Slot,
            _ => Scope::Battle,
        }
    }

    /// True when `self` and `other` may have the same key: a key the army's bar shows and a
    /// slot's key (the button showing the key takes it; the slot's key presses the button in
    /// its place otherwise), as Build (B) and the bottom row's fifth slot share B.
    pub fn may_share(self, other: KeyCommand) -> bool {
        matches!((self.scope(), other.scope()), (Scope::Army, Scope::Slot) | (Scope::Slot, Scope::Army))
    }

    /// True when a watcher of a replay has this key: the pace, the camera and the alerts.
    pub fn for_watchers(self) -> bool {
        use KeyCommand::*;
        matches!(
            self,
            Pause | Faster | Slower | ScrollLeft | ScrollRight | ScrollUp | ScrollDown | AlertJump | AlertLog
        )
    }
}

impl std::fmt::Display for KeyCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.name() {
            (name, Some(n)) => write!(f, "{name}{n}"),
            (name, None) => write!(f, "{name}"),
        }
    }
}

impl std::str::FromStr for KeyCommand {
    type Err = String;
    fn from_str(text: &str) -> Result<KeyCommand, String> {
        if let Some((c, _)) = PLAIN.iter().find(|(_, n)| *n == text) {
            return Ok(*c);
        }
        for (name, count) in NUMBERED {
            if let Some(n) = text.strip_prefix(name).and_then(|n| n.parse::<u8>().ok()) {
                return match (name, n) {
                    (_, 0) => Err(format!("\"{text}\": numbers start at 1")),
                    (_, n) if n > count => Err(format!("\"{text}\": there are {count} of them")),
                    ("Slot", n) => Ok(KeyCommand::Slot(n)),
                    ("StoreGroup", n) => Ok(KeyCommand::StoreGroup(n)),
                    (_, n) => Ok(KeyCommand::RecallGroup(n)),
                };
            }
        }
        let names: Vec<&str> = PLAIN.iter().map(|(_, n)| *n).collect();
        Err(format!(
            "\"{text}\" is no command: {}, Slot1–Slot{SLOTS}, StoreGroup1–{GROUPS}, RecallGroup1–{GROUPS}",
            names.join(", ")
        ))
    }
}

impl TryFrom<String> for KeyCommand {
    type Error = String;
    fn try_from(text: String) -> Result<KeyCommand, String> {
        text.parse()
    }
}

impl From<KeyCommand> for String {
    fn from(c: KeyCommand) -> String {
        c.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_reads_back_from_its_name() {
        let all = KeyCommand::all();
        assert_eq!(all.len(), PLAIN.len() + SLOTS as usize + 2 * GROUPS as usize);
        for c in all {
            assert_eq!(c.to_string().parse::<KeyCommand>(), Ok(c));
        }
        assert!("Slot13".parse::<KeyCommand>().is_err());
        assert!("StoreGroup0".parse::<KeyCommand>().is_err());
        assert!("Gaurd".parse::<KeyCommand>().unwrap_err().contains("Guard"), "the names are listed");
    }
}
