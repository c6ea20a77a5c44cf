//! Controllers: whatever decides a player's commands (a script now, the AI later, the human's
//! UI translators in the client). They read the world and return commands; they never change it.

use crate::sim::command::Command;
use crate::sim::ids::PlayerId;
use crate::sim::world::World;

/// Produces a player's commands, once per logic frame, before that frame executes.
pub trait Controller {
    /// The player this controller speaks for.
    fn player(&self) -> PlayerId;
    /// Commands to submit now; they execute `run_ahead` frames later.
    fn think(&mut self, world: &World) -> Vec<Command>;
    /// How it plays, for reports (a computer player's style, once drawn); none for others.
    fn style(&self) -> Option<String> {
        None
    }
}

/// A player whose commands come from elsewhere on this machine (the human's input
/// translators): sent through a channel, submitted when the next frame is thought about.
#[derive(Debug)]
pub struct Queued {
    player: PlayerId,
    inbox: std::sync::mpsc::Receiver<Command>,
}

impl Queued {
    /// A controller for `player` and the sender that feeds it.
    pub fn new(player: PlayerId) -> (Queued, std::sync::mpsc::Sender<Command>) {
        let (tx, rx) = std::sync::mpsc::channel();
        (Queued { player, inbox: rx }, tx)
    }
}

impl Controller for Queued {
    fn player(&self) -> PlayerId {
        self.player
    }

    fn think(&mut self, _world: &World) -> Vec<Command> {
        self.inbox.try_iter().collect()
    }
}

impl Controller for crate::ai::SkirmishAi {
    fn player(&self) -> PlayerId {
        crate::ai::SkirmishAi::player(self)
    }

    fn think(&mut self, world: &World) -> Vec<Command> {
        crate::ai::SkirmishAi::think(self, world)
    }
    fn style(&self) -> Option<String> {
        crate::ai::SkirmishAi::style(self).map(|s| s.name.clone())
    }
}

/// A player that never does anything.
#[derive(Clone, Debug)]
pub struct Idle(pub PlayerId);

impl Controller for Idle {
    fn player(&self) -> PlayerId {
        self.0
    }

    fn think(&mut self, _world: &World) -> Vec<Command> {
        Vec::new()
    }
}
