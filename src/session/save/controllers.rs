//! This machine's controllers again from a saved game ([`ControllerState`]): a script with the
//! commands it had still to give, a computer player with its memory; each decides as it would have.
//!
//! Must not: keep an AI's plan (it comes from the data again, whose digest the save compares).

use crate::ai::SkirmishAi;
use crate::defs::AiPlans;

use super::super::controller::{Controller, ControllerState, Idle};
use super::super::match_setup::{ResolvedSlot, SlotKind};
use super::super::script::Scripted;

/// The controller `state` was saved from again: a computer player gets its slot's plan from
/// `plans`. An error says what does not fit the setup.
pub fn restore(state: ControllerState, slots: &[ResolvedSlot], plans: &AiPlans) -> Result<Box<dyn Controller>, String> {
    let player = state.player();
    let Some(slot) = slots.iter().find(|s| s.player == player) else {
        return Err(format!("a controller for player {player}, which the setup lacks"));
    };
    Ok(match (state, slot.kind) {
        (ControllerState::Idle(p), SlotKind::Idle | SlotKind::Human) => Box::new(Idle(p)),
        (ControllerState::Scripted { player, commands }, SlotKind::Scripted) => {
            Box::new(Scripted::restored(player, commands))
        }
        (ControllerState::Ai(state), SlotKind::Ai { difficulty }) => {
            let plan = plans
                .get(difficulty.name())
                .ok_or_else(|| format!("slot {}: data/ai.ron has no plan \"{}\"", slot.slot, difficulty.name()))?;
            Box::new(SkirmishAi::restored(plan.clone(), *state))
        }
        (state, kind) => {
            return Err(format!("player {player}'s controller ({}) does not play a {kind:?} slot", state.kind()));
        }
    })
}
