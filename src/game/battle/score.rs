//! The score: objects each player built, lost and destroyed, counted from the tick's
//! `UnitProduced`, `StructureCompleted`, `Killed` and `KillCredited` events (a player's
//! destroyed are the kills its own units made, not every loss of its enemies). The score
//! screen's rows are made from it in `summary.rs`.
//!
//! Must not: decide the outcome (the simulation's victory does).

use crate::sim::PlayerId;
use crate::sim::event::GameEvent;

/// Objects built, lost and destroyed, per player.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Score {
    built: Vec<u32>,
    lost: Vec<u32>,
    destroyed: Vec<u32>,
}

impl Score {
    pub fn new(players: usize) -> Score {
        Score { built: vec![0; players], lost: vec![0; players], destroyed: vec![0; players] }
    }

    /// The score as a save carries it.
    pub fn saved(&self) -> crate::session::save::SavedScore {
        crate::session::save::SavedScore {
            built: self.built.clone(),
            lost: self.lost.clone(),
            destroyed: self.destroyed.clone(),
        }
    }

    /// The score a save carried, for `players` players; none (counting from zero) when it
    /// carried none or one for another number of players.
    pub fn from_saved(saved: Option<crate::session::save::SavedScore>, players: usize) -> Option<Score> {
        let s = saved?;
        let fits = [&s.built, &s.lost, &s.destroyed].iter().all(|v| v.len() == players);
        fits.then_some(Score { built: s.built, lost: s.lost, destroyed: s.destroyed })
    }

    /// Counts the frame's units trained, structures finished, losses and kills.
    pub fn count(&mut self, events: &[GameEvent]) {
        for e in events {
            let tally = match e {
                GameEvent::Killed { owner, .. } => self.lost.get_mut(owner.index()),
                GameEvent::KillCredited { by, .. } => self.destroyed.get_mut(by.index()),
                GameEvent::UnitProduced { owner, .. } | GameEvent::StructureCompleted { owner, .. } => {
                    self.built.get_mut(owner.index())
                }
                _ => None,
            };
            if let Some(n) = tally {
                *n += 1;
            }
        }
    }

    /// Objects `p` lost.
    pub fn lost(&self, p: PlayerId) -> u32 {
        self.lost.get(p.index()).copied().unwrap_or(0)
    }

    /// Units and structures `p` built.
    pub fn built(&self, p: PlayerId) -> u32 {
        self.built.get(p.index()).copied().unwrap_or(0)
    }

    /// Enemy objects `p`'s own units destroyed.
    pub fn destroyed(&self, p: PlayerId) -> u32 {
        self.destroyed.get(p.index()).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ids::{ObjectId, TemplateId};
    use crate::sim::vector::Vec2;

    fn killed(object: u32, owner: u8) -> GameEvent {
        GameEvent::Killed {
            object: ObjectId::from_bits(u64::from(object)),
            template: TemplateId(0),
            owner: PlayerId(owner),
            at: Vec2::ZERO,
        }
    }

    fn credited(object: u32, by: u8) -> GameEvent {
        GameEvent::KillCredited { victim: ObjectId::from_bits(u64::from(object)), by: PlayerId(by) }
    }

    #[test]
    fn destroyed_counts_a_players_own_kills_not_its_enemies_losses() {
        // Three players: player 0 fights and destroys two of player 1's and one of player 2's;
        // player 2, idle, loses another to nobody's shot (it was sold off, say), and kills nothing.
        let mut score = Score::new(3);
        score.count(&[credited(10, 0), killed(10, 1), credited(11, 0), killed(11, 1)]);
        score.count(&[credited(20, 0), killed(20, 2), killed(21, 2)]);
        assert_eq!(score.destroyed, vec![3, 0, 0]);
        assert_eq!(score.lost, vec![0, 2, 2]);
    }
}
