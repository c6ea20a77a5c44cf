//! A key as the battle's keys read it: one key, with Ctrl or without, written as the player
//! reads it (`S`, `Ctrl+1`, `Space`, `.`). Letters are one key whatever the case, and `=` and
//! `_` are the `+` and `-` keys they share (Shift is the queueing key, never part of a chord).
//!
//! Must not: decide what a key does (the key map does).

use serde::{Deserialize, Serialize};

/// A key on the keyboard, as a chord names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum KeyName {
    /// A key that types a character (a letter in lower case, a digit, punctuation).
    Char(char),
    /// The space bar.
    Space,
    /// Tab.
    Tab,
    /// Left arrow.
    Left,
    /// Right arrow.
    Right,
    /// Up arrow.
    Up,
    /// Down arrow.
    Down,
    /// Home.
    Home,
    /// End.
    End,
    /// Delete.
    Delete,
    /// Backspace.
    Backspace,
}

/// The named keys with the words they are written as.
const NAMED: [(KeyName, &str); 10] = [
    (KeyName::Space, "Space"),
    (KeyName::Tab, "Tab"),
    (KeyName::Left, "Left"),
    (KeyName::Right, "Right"),
    (KeyName::Up, "Up"),
    (KeyName::Down, "Down"),
    (KeyName::Home, "Home"),
    (KeyName::End, "End"),
    (KeyName::Delete, "Delete"),
    (KeyName::Backspace, "Backspace"),
];

/// A key with or without Ctrl: what one command is bound to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Chord {
    /// Ctrl is held.
    pub ctrl: bool,
    /// The key.
    pub key: KeyName,
}

impl Chord {
    /// The key that types `c` (Ctrl held or not); None for a character no key of its own
    /// types (whitespace, control characters).
    pub fn character(c: char, ctrl: bool) -> Option<Chord> {
        if c.is_whitespace() || c.is_control() {
            return None;
        }
        let c = match c.to_lowercase().next().unwrap_or(c) {
            '=' => '+',
            '_' => '-',
            c => c,
        };
        Some(Chord { ctrl, key: KeyName::Char(c) })
    }

    /// The UI's named key `key` as a chord; None for the keys that are never bound (Escape
    /// cancels and opens the menu, Enter opens the chat).
    pub fn named(key: crate::ui::Key, ctrl: bool) -> Option<Chord> {
        use crate::ui::Key;
        let key = match key {
            Key::Space => KeyName::Space,
            Key::Tab => KeyName::Tab,
            Key::Left => KeyName::Left,
            Key::Right => KeyName::Right,
            Key::Up => KeyName::Up,
            Key::Down => KeyName::Down,
            Key::Home => KeyName::Home,
            Key::End => KeyName::End,
            Key::Delete => KeyName::Delete,
            Key::Backspace => KeyName::Backspace,
            Key::Enter | Key::Escape | Key::SelectAll => return None,
        };
        Some(Chord { ctrl, key })
    }

    /// Reads a chord as it is written (`S`, `ctrl+1`, `Space`); why not, in the player's words.
    pub fn parse(text: &str) -> Result<Chord, String> {
        let t = text.trim();
        let (ctrl, rest) = match t.get(..5) {
            Some(head) if head.eq_ignore_ascii_case("ctrl+") && t.len() > 5 => (true, &t[5..]),
            _ => (false, t),
        };
        if let Some((key, _)) = NAMED.iter().find(|(_, n)| n.eq_ignore_ascii_case(rest)) {
            return Ok(Chord { ctrl, key: *key });
        }
        let mut chars = rest.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Chord::character(c, ctrl).ok_or_else(|| format!("\"{text}\" is not a key")),
            _ if ["escape", "esc", "enter", "return"].iter().any(|n| n.eq_ignore_ascii_case(rest)) => {
                Err(format!("\"{text}\": Escape and Enter keep their own work and are not bound"))
            }
            _ => Err(format!(
                "\"{text}\" is not a key: write one character (S, 1, .), a named key (Space, Tab, Left, \
                 Right, Up, Down, Home, End, Delete, Backspace), either after Ctrl+ if it is held"
            )),
        }
    }
}

impl std::fmt::Display for Chord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.ctrl {
            write!(f, "Ctrl+")?;
        }
        match self.key {
            KeyName::Char(c) => write!(f, "{}", c.to_uppercase()),
            named => {
                let name = NAMED.iter().find(|(k, _)| *k == named).map_or("?", |(_, n)| n);
                write!(f, "{name}")
            }
        }
    }
}

impl TryFrom<String> for Chord {
    type Error = String;
    fn try_from(text: String) -> Result<Chord, String> {
        Chord::parse(&text)
    }
}

impl From<Chord> for String {
    fn from(c: Chord) -> String {
        c.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chords_read_as_they_are_written_and_write_back_the_same() {
        for text in ["S", "Ctrl+1", ".", "+", "-", "Space", "Ctrl+Tab", "Left", "Backspace"] {
            assert_eq!(Chord::parse(text).map(|c| c.to_string()), Ok(text.to_string()));
        }
        assert_eq!(Chord::parse("ctrl+a"), Chord::parse("Ctrl+A"));
        assert_eq!(Chord::parse("="), Chord::parse("+"), "= is the + key");
        assert_eq!(Chord::character('_', false), Chord::character('-', false));
        assert_eq!(Chord::character('G', false), Chord::character('g', false));
    }

    #[test]
    fn what_is_no_key_is_refused_in_words() {
        for text in ["", "Ctrl+", "SS", "Escape", "Enter", "F13", "Ctrl+Ctrl"] {
            assert!(Chord::parse(text).is_err(), "{text:?} read as a key");
        }
        assert!(Chord::parse("Escape").unwrap_err().contains("not bound"));
        assert_eq!(Chord::named(crate::ui::Key::Escape, false), None);
        assert_eq!(Chord::character(' ', false), None);
    }
}
