//! Turning a map, the definitions and a `--players` specification into a game setup and the
//! controllers of its players.

use crate::ai::SkirmishAi;
use crate::defs::AiPlans;
use thiserror::Error;

use crate::defs::Definitions;
use crate::map::{Map, MapContent};
use crate::sim::ids::PlayerId;
use crate::sim::world::{GameSetup, PlayerSetup};

use super::controller::{Controller, Idle};
use super::players::{PlayersSpec, SlotKind};
use super::script::CommandScript;

/// A specification that does not fit the map or the rules.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SetupSpecError {
    /// More slots than start positions.
    #[error("{players} players given but map \"{map}\" has {starts} start positions")]
    TooManyPlayers {
        /// Slots given.
        players: usize,
        /// Map name.
        map: String,
        /// Its start positions.
        starts: usize,
    },
    /// Fewer than two players.
    #[error("a game needs at least 2 players, {0} given")]
    TooFewPlayers(usize),
    /// An unknown faction.
    #[error("player {slot}: unknown faction \"{name}\" (known: {known})")]
    UnknownFaction {
        /// The slot.
        slot: usize,
        /// The name given.
        name: String,
        /// Known names.
        known: String,
    },
    /// The AI plans have no plan for a difficulty.
    #[error("player {slot}: data/ai.ron has no plan \"{difficulty}\"")]
    NoAiPlan {
        /// The slot.
        slot: usize,
        /// The difficulty asked for.
        difficulty: &'static str,
    },
}

/// Builds the setup: each slot on its own team, factions as given or alternating.
pub fn game_setup(
    defs: &Definitions,
    map: &Map,
    content: &MapContent,
    spec: &PlayersSpec,
    seed: u64,
) -> Result<GameSetup, SetupSpecError> {
    let n = spec.0.len();
    if n < 2 {
        return Err(SetupSpecError::TooFewPlayers(n));
    }
    let starts = map.file.start_positions.len();
    if n > starts {
        return Err(SetupSpecError::TooManyPlayers { players: n, map: map.file.name.clone(), starts });
    }
    let factions = &defs.rules.factions;
    let mut players = Vec::new();
    for (slot, s) in spec.0.iter().enumerate() {
        let faction = match &s.faction {
            Some(name) => {
                defs.rules.faction_index(name).filter(|&i| factions[i as usize].playable).ok_or_else(|| {
                    SetupSpecError::UnknownFaction {
                        slot,
                        name: name.clone(),
                        known: factions
                            .iter()
                            .filter(|f| f.playable)
                            .map(|f| f.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", "),
                    }
                })?
            }
            None => {
                let playable: Vec<usize> = (0..factions.len()).filter(|&i| factions[i].playable).collect();
                playable.get(slot % playable.len().max(1)).copied().unwrap_or(0) as u16
            }
        };
        players.push(PlayerSetup { faction, team: slot as u8 });
    }
    Ok(GameSetup {
        rules: defs.rules.clone(),
        terrain: map.terrain(&content.classes),
        players,
        seed,
        objects: map.initial_objects(&defs.rules),
    })
}

/// The controllers for the slots this machine runs.
pub fn controllers(
    spec: &PlayersSpec,
    script: &CommandScript,
    plans: &AiPlans,
) -> Result<Vec<Box<dyn Controller>>, SetupSpecError> {
    let mut out: Vec<Box<dyn Controller>> = Vec::new();
    for (slot, s) in spec.0.iter().enumerate() {
        let id = PlayerId(slot as u8);
        match s.kind {
            SlotKind::Idle => out.push(Box::new(Idle(id))),
            SlotKind::Scripted => out.push(Box::new(script.controller(id))),
            SlotKind::Ai(d) => {
                let plan = plans.get(d.name()).ok_or(SetupSpecError::NoAiPlan { slot, difficulty: d.name() })?;
                out.push(Box::new(SkirmishAi::new(id, plan.clone())));
            }
        }
    }
    Ok(out)
}
