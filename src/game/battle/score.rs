//! The score: objects each player lost, counted from the tick's `Killed` events, and the
//! score screen's rows at the end.
//!
//! Must not: decide the outcome (the simulation's victory does).

use crate::sim::PlayerId;
use crate::sim::event::GameEvent;

use super::Battle;

/// Losses per player.
#[derive(Clone, Debug, Default)]
pub(super) struct Score {
    lost: Vec<u32>,
}

impl Score {
    pub fn new(players: usize) -> Score {
        Score { lost: vec![0; players] }
    }

    /// Counts the frame's losses.
    pub fn count(&mut self, events: &[GameEvent]) {
        for e in events {
            if let GameEvent::Killed { owner, .. } = e
                && let Some(n) = self.lost.get_mut(owner.index())
            {
                *n += 1;
            }
        }
    }

    fn lost(&self, p: PlayerId) -> u32 {
        self.lost.get(p.index()).copied().unwrap_or(0)
    }
}

impl Battle {
    /// The outcome for the local player and a score row per player: name, units lost, enemy
    /// units destroyed, structures standing, score.
    pub fn summary(&self) -> (String, Vec<Vec<String>>) {
        let world = self.world();
        let players = world.players();
        let team = |p: PlayerId| players.get(p.index()).map(|x| x.team);
        let outcome = match world.winner() {
            Some(w) if team(w) == team(self.local) => "Victory",
            Some(_) => "Defeat",
            None if world.is_over() => "Draw",
            None if self.is_replay() => "Replay ended",
            None => "Battle left",
        };
        let rows = players
            .iter()
            .map(|p| {
                let destroyed: u32 = players.iter().filter(|q| q.team != p.team).map(|q| self.score.lost(q.id)).sum();
                let lost = self.score.lost(p.id);
                let structures = world
                    .objects()
                    .filter(|o| o.owner == p.id && world.rules().template(o.template).kind.blocks_ground())
                    .count();
                let name = match self.game.slots.get(p.id.index()) {
                    _ if p.id == self.local && !self.is_replay() => "You".to_string(),
                    Some(slot) => slot.name.clone(),
                    None => format!("Player {}", p.id.0 + 1),
                };
                let score = (100 * destroyed as i64 + 50 * structures as i64 - 25 * lost as i64).max(0);
                vec![name, lost.to_string(), destroyed.to_string(), structures.to_string(), score.to_string()]
            })
            .collect();
        (outcome.to_string(), rows)
    }
}
