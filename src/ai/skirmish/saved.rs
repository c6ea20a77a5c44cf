//! A computer player's state as data, for saved games: everything it carries from one decision
//! to the next, taken apart with no `..`, so a field added to [`SkirmishAi`] does not compile
//! until it is saved here or named as found again; restored, the player decides exactly as it
//! would have.
//!
//! Must not: keep the plan (it comes from `data/ai.ron`, whose digest a save compares).

use serde::{Deserialize, Serialize};

use crate::sim::ids::{ObjectId, PlayerId};
use crate::sim::vector::Vec2;

use super::super::AiStyle;
use super::super::base::Piles;
use super::super::memory::Memory;
use super::{AiPlan, FirstWave, Orders, Phase, SkirmishAi};

/// What a saved game keeps of one computer player.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AiState {
    player: PlayerId,
    phase: Phase,
    last: Orders,
    last_frame: u32,
    decisions: u32,
    memory: Memory,
    scout: Option<ObjectId>,
    wave_worth: i64,
    reserve: i64,
    foe: Option<PlayerId>,
    stagger: Option<u32>,
    first_attack: Option<u32>,
    style: Option<AiStyle>,
    own: Vec<ObjectId>,
    piles: Option<Vec<ObjectId>>,
    hunt: Vec<(Vec2, u32)>,
    /// A record for reports, kept so a loaded game reports the same.
    #[serde(default)]
    first_wave: Option<FirstWave>,
}

impl AiState {
    /// The player it plays.
    pub fn player(&self) -> PlayerId {
        self.player
    }
}

impl SkirmishAi {
    /// Its state, to save.
    pub fn state(&self) -> AiState {
        let SkirmishAi {
            player,
            // From the data, given again on restore.
            plan: _,
            phase,
            last,
            last_frame,
            decisions,
            memory,
            scout,
            wave_worth,
            reserve,
            foe,
            stagger,
            first_attack,
            style,
            own,
            piles,
            hunt,
            first_wave,
        } = self;
        AiState {
            player: *player,
            phase: phase.clone(),
            last: last.clone(),
            last_frame: *last_frame,
            decisions: *decisions,
            memory: memory.clone(),
            scout: *scout,
            wave_worth: *wave_worth,
            reserve: *reserve,
            foe: *foe,
            stagger: *stagger,
            first_attack: *first_attack,
            style: style.clone(),
            own: own.clone(),
            // The piles' list; what was found of their ground and by the last decision is
            // found again.
            piles: piles.listed(),
            hunt: hunt.clone(),
            first_wave: *first_wave,
        }
    }

    /// The player `state` was saved from, playing by `plan` again.
    pub fn restored(plan: AiPlan, state: AiState) -> SkirmishAi {
        let AiState {
            player,
            phase,
            last,
            last_frame,
            decisions,
            memory,
            scout,
            wave_worth,
            reserve,
            foe,
            stagger,
            first_attack,
            style,
            own,
            piles,
            hunt,
            first_wave,
        } = state;
        SkirmishAi {
            player,
            plan,
            phase,
            last,
            last_frame,
            decisions,
            memory,
            scout,
            wave_worth,
            reserve,
            foe,
            stagger,
            first_attack,
            style,
            own,
            piles: Piles::with_listed(piles),
            hunt,
            first_wave,
        }
    }
}
