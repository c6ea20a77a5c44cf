//! What changed at the lobby's table, in words for everyone's chat: a player who turns to
//! watching or back to playing, a player moved to another team. Arrivals, departures and
//! removals are said where they happen (`lobby_link.rs`).
//!
//! Must not: decide or apply anything (the table does), or do I/O.

use crate::net::wire::{Roster, Seat};

/// The lines telling what changed for the people seated at both `before` and `after`, slot
/// by slot.
pub fn roster_news(before: &Roster, after: &Roster) -> Vec<String> {
    let mut lines = Vec::new();
    for (old, new) in before.slots.iter().zip(&after.slots) {
        let name = &new.name;
        match (old.seat, new.seat) {
            (Seat::Player(a), Seat::Observer(b)) if a == b => lines.push(format!("{name} will watch the game.")),
            (Seat::Observer(a), Seat::Player(b)) if a == b => lines.push(format!("{name} will play.")),
            (Seat::Player(a), Seat::Player(b)) if a == b && old.team != new.team => lines.push(match new.team {
                0 => format!("{name} plays without a team."),
                t => format!("{name} is on team {t}."),
            }),
            _ => {}
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lockstep::transport::PeerId;
    use crate::online::lobby::{LobbyChange, LobbyTable};

    fn table() -> LobbyTable {
        let mut t = LobbyTable::new("four_corners", 4, "Ava", 2);
        t.seat(PeerId(1), "Ben").unwrap();
        t
    }

    #[test]
    fn watching_playing_and_teams_are_news_and_nothing_else_is() {
        let mut t = table();
        let before = t.roster().clone();
        t.apply(PeerId(1), &LobbyChange::Seat(1, Seat::Observer(PeerId(1)))).unwrap();
        assert_eq!(roster_news(&before, t.roster()), ["Ben will watch the game."]);
        let before = t.roster().clone();
        t.apply(PeerId(1), &LobbyChange::Seat(1, Seat::Player(PeerId(1)))).unwrap();
        assert_eq!(roster_news(&before, t.roster()), ["Ben will play."]);
        let before = t.roster().clone();
        t.apply(PeerId(0), &LobbyChange::Team(1, 2)).unwrap();
        assert_eq!(roster_news(&before, t.roster()), ["Ben is on team 2."]);
        let before = t.roster().clone();
        t.apply(PeerId(0), &LobbyChange::Team(1, 0)).unwrap();
        assert_eq!(roster_news(&before, t.roster()), ["Ben plays without a team."]);
        // A colour, a faction or the money is seen in the table, not told.
        let before = t.roster().clone();
        t.apply(PeerId(1), &LobbyChange::Faction(1, 1)).unwrap();
        t.apply(PeerId(0), &LobbyChange::Money(2)).unwrap();
        assert!(roster_news(&before, t.roster()).is_empty());
    }
}
