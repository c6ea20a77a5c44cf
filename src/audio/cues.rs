//! What a battle sounds like: the simulation's events turned into sounds by name and placed
//! for the listener — shots and deaths where they happen (what the player may see), the local
//! player's announcements ("unit ready", "building complete", "under attack", "insufficient
//! funds") in the middle — and how much fighting is heard, for the music.
//!
//! Must not: play sounds (the mixer does), or change anything the simulation reads.

use crate::defs::Definitions;
use crate::sim::command::RejectReason;
use crate::sim::event::GameEvent;
use crate::sim::ids::{PlayerId, TemplateId};
use crate::sim::rules::ObjectKind;

use super::ear::{Ear, Placement};

/// The announcement and interface sounds the game asks for by name; `data/sounds.ron` must have
/// each (a test checks the shipped table).
pub mod names {
    /// A unit left its factory.
    pub const UNIT_READY: &str = "UnitReady";
    /// A structure was finished.
    pub const BUILDING_COMPLETE: &str = "BuildingComplete";
    /// An upgrade was researched.
    pub const UPGRADE_COMPLETE: &str = "UpgradeComplete";
    /// A unit earned a rank.
    pub const PROMOTED: &str = "Promoted";
    /// The player's things are being shot at.
    pub const UNDER_ATTACK: &str = "UnderAttack";
    /// An order was refused for want of money.
    pub const INSUFFICIENT_FUNDS: &str = "InsufficientFunds";
    /// Any other order of the player's was refused.
    pub const REFUSED: &str = "OrderRefused";
    /// A heavy shell or rocket landed.
    pub const IMPACT: &str = "Impact";
    /// A construction site was laid.
    pub const CONSTRUCTION: &str = "Construction";
    /// A structure was sold.
    pub const SOLD: &str = "Sold";
    /// A push button was pressed (the default for buttons that name none).
    pub const CLICK: &str = "UiClick";
    /// The pointer came onto a push button.
    pub const HOVER: &str = "UiHover";
    /// Every name above.
    pub const ALL: [&str; 10] = [
        UNIT_READY,
        BUILDING_COMPLETE,
        UPGRADE_COMPLETE,
        PROMOTED,
        UNDER_ATTACK,
        INSUFFICIENT_FUNDS,
        CONSTRUCTION,
        SOLD,
        CLICK,
        HOVER,
    ];
}

/// Damage from one hit that is heard as an impact (shells and rockets, not bullets).
const IMPACT_DAMAGE: i32 = 30;
/// Frames between two "under attack" announcements (10 s).
const UNDER_ATTACK_GAP: u32 = 300;
/// How much of the fighting heat is kept from one frame to the next (fades in ~3 s).
const HEAT_KEPT: f32 = 0.985;
/// Heat one shot heard on screen adds.
const HEAT_PER_SHOT: f32 = 0.02;

/// A sound to play, by name, placed for the listener.
#[derive(Clone, Debug, PartialEq)]
pub struct Heard {
    /// The sound's name in the table.
    pub name: String,
    /// Where it is heard.
    pub at: Placement,
}

/// The battle's sound cues: turns each frame's events into sounds.
#[derive(Clone, Debug, Default)]
pub struct Cues {
    last_under_attack: Option<u32>,
    heat: f32,
}

/// A sim position as the listener's world units.
pub(crate) fn spot(p: crate::sim::vector::Vec2) -> [f32; 2] {
    let one = crate::sim::Fixed::ONE.raw() as f32;
    [p.x.raw() as f32 / one, p.y.raw() as f32 / one]
}

impl Cues {
    /// The sounds of one frame's `events`, heard by `local` (None: a neutral listener, such as
    /// a replay showing everything) through `ear`; `visible` says whether the listener may see
    /// a place (sounds under the shroud are not heard).
    pub fn note(
        &mut self,
        defs: &Definitions,
        events: &[GameEvent],
        frame: u32,
        local: Option<PlayerId>,
        ear: &Ear,
        visible: impl Fn([f32; 2]) -> bool,
    ) -> Vec<Heard> {
        self.heat *= HEAT_KEPT;
        let mut out = Vec::new();
        let mine = |p: PlayerId| local == Some(p);
        let placed = |name: Option<&String>, at: [f32; 2], out: &mut Vec<Heard>| {
            if let Some(name) = name
                && visible(at)
                && let Some(place) = ear.place(at)
            {
                out.push(Heard { name: name.clone(), at: place });
            }
        };
        let flat = |name: &str, out: &mut Vec<Heard>| out.push(Heard { name: name.to_string(), at: Placement::FLAT });
        for e in events {
            match e {
                GameEvent::WeaponFired { weapon, from, .. } => {
                    let at = spot(*from);
                    let sounds = defs.weapon_sounds.get(weapon.0 as usize);
                    let before = out.len();
                    placed(sounds.and_then(|s| s.fire.as_ref()), at, &mut out);
                    if out.len() > before && out[before].at.gain >= 1.0 {
                        self.heat += HEAT_PER_SHOT;
                    }
                }
                GameEvent::Killed { template, at, .. } => {
                    let death = defs.object_sounds.get(template.0 as usize).and_then(|s| s.death.as_ref());
                    placed(death, spot(*at), &mut out);
                }
                GameEvent::UnitProduced { owner, template, at, .. } => {
                    let produced = defs.object_sounds.get(template.0 as usize).and_then(|s| s.produced.as_ref());
                    placed(produced, spot(*at), &mut out);
                    if mine(*owner) {
                        flat(names::UNIT_READY, &mut out);
                    }
                }
                // Walls and the like are quiet; anything a player waits for is announced.
                GameEvent::StructureCompleted { owner, template, .. }
                    if mine(*owner)
                        && defs
                            .rules
                            .templates
                            .get(template.0 as usize)
                            .is_some_and(|t| t.kind == ObjectKind::Structure) =>
                {
                    flat(names::BUILDING_COMPLETE, &mut out);
                }
                GameEvent::UpgradeResearched { owner, .. } if mine(*owner) => flat(names::UPGRADE_COMPLETE, &mut out),
                GameEvent::Promoted { owner, at, .. } if mine(*owner) => {
                    placed(Some(&names::PROMOTED.to_string()), spot(*at), &mut out);
                }
                GameEvent::ConstructionStarted { owner, at, .. } if mine(*owner) => {
                    placed(Some(&names::CONSTRUCTION.to_string()), spot(*at), &mut out);
                }
                GameEvent::StructureSold { owner, .. } if mine(*owner) => flat(names::SOLD, &mut out),
                GameEvent::UnderAttack { player, .. } if mine(*player) => {
                    let quiet = self.last_under_attack.is_some_and(|f| frame < f + UNDER_ATTACK_GAP);
                    if !quiet {
                        self.last_under_attack = Some(frame);
                        flat(names::UNDER_ATTACK, &mut out);
                    }
                }
                GameEvent::Hit { damage, at, .. } if *damage >= IMPACT_DAMAGE => {
                    placed(Some(&names::IMPACT.to_string()), spot(*at), &mut out);
                }
                GameEvent::OrderRefused(r) if mine(r.player) => match r.reason {
                    RejectReason::NotEnoughMoney { .. } => flat(names::INSUFFICIENT_FUNDS, &mut out),
                    _ => flat(names::REFUSED, &mut out),
                },
                _ => {}
            }
        }
        out
    }

    /// How much fighting the listener hears, 0 (none) to 1 (a pitched battle on screen).
    pub fn intensity(&self) -> f32 {
        self.heat.min(1.0)
    }
}

/// The acknowledgement of a unit of `template` when selected (`ordered` false) or ordered.
pub fn acknowledgement(defs: &Definitions, template: TemplateId, ordered: bool) -> Option<&str> {
    let s = defs.object_sounds.get(template.0 as usize)?;
    if ordered { s.order.as_deref() } else { s.select.as_deref() }
}
