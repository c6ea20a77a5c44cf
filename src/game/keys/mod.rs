//! Rebindable keys: the battle's commands that have a key ([`KeyCommand`]), the keys themselves
//! ([`Chord`]) and the one table of which key does what ([`KeyMap`]), its defaults read from
//! `data/keys.ron` and the player's changes kept in the settings.
//!
//! Must not: act on a key (the battle and the client do), or read or write the settings file
//! (the settings hold the player's changes; this only combines them with the defaults).

mod chord;
mod command;
mod map;

pub use chord::{Chord, KeyName};
pub use command::{GROUPS, KeyCommand, SLOTS, Scope};
pub use map::{Conflict, KEYS_FILE, KeyMap, Rebound};
