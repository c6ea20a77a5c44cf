//! Controllers: whatever decides a player's commands once a frame (a script, the skirmish AI).
//! They read the world and return commands; they never change it. The human's orders do not
//! come through a controller: the client submits them the moment they are given
//! (`Session::submit_local`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::ai::AiState;
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
    /// Its state for a saved game; none for a controller a game cannot be saved with (the
    /// save is then refused).
    fn state(&self) -> Option<ControllerState> {
        None
    }

    /// What its first attack set out with, for reports (a computer player's, once it has
    /// attacked); none for others.
    fn first_wave(&self) -> Option<crate::ai::FirstWave> {
        None
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
    fn state(&self) -> Option<ControllerState> {
        Some(ControllerState::Ai(Box::new(crate::ai::SkirmishAi::state(self))))
    }

    fn first_wave(&self) -> Option<crate::ai::FirstWave> {
        crate::ai::SkirmishAi::first_wave(self)
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

    fn state(&self) -> Option<ControllerState> {
        Some(ControllerState::Idle(self.0))
    }
}

/// One controller as saved.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum ControllerState {
    /// A player that does nothing.
    Idle(PlayerId),
    /// A script: the commands it has still to give, by frame.
    Scripted {
        /// Its player.
        player: PlayerId,
        /// Commands still to give, by the frame they are given on.
        commands: BTreeMap<u32, Vec<Command>>,
    },
    /// A computer player.
    Ai(Box<AiState>),
}

impl ControllerState {
    /// The player it plays.
    pub fn player(&self) -> PlayerId {
        match self {
            ControllerState::Idle(p) | ControllerState::Scripted { player: p, .. } => *p,
            ControllerState::Ai(s) => s.player(),
        }
    }

    /// What kind of controller it is, in a word.
    pub fn kind(&self) -> &'static str {
        match self {
            ControllerState::Idle(_) => "idle",
            ControllerState::Scripted { .. } => "scripted",
            ControllerState::Ai(_) => "computer",
        }
    }
}
