//! The template sets the tick's systems scan the store by (movement's movers, combat's armed
//! objects, the depots…), worked out once from the rules when a world is built: the rules never
//! change during a game, so the systems need not ask every template again each frame.
//!
//! Must not: hold anything the rules do not decide (it is derived, never hashed).

use super::rules::{ObjectKind, Rules, TemplateSet};

/// The sets, one per question a system asks of every slot.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScanSets {
    /// Everything that can move (units and aircraft), for movement.
    pub movers: TemplateSet,
    /// Units that raise structures: the only ones a construction order is given to.
    pub builders: TemplateSet,
    /// Units on the ground, which separation pushes apart.
    pub ground_units: TemplateSet,
    /// Objects with a weapon, for combat.
    pub armed: TemplateSet,
    /// Gatherers, for the economy.
    pub gatherers: TemplateSet,
    /// Structures, for upkeep.
    pub structures: TemplateSet,
    /// Objects that make or use power, for the power balance.
    pub powered: TemplateSet,
    /// Supply depots, where gatherers unload.
    pub depots: TemplateSet,
}

impl ScanSets {
    /// The sets `rules` decide.
    pub fn new(rules: &Rules) -> ScanSets {
        ScanSets {
            movers: rules.templates_where(|t| !t.kind.blocks_ground()),
            builders: rules.templates_where(|t| !t.kind.blocks_ground() && !t.builds.is_empty()),
            ground_units: rules.templates_where(|t| !t.kind.blocks_ground() && !t.kind.is_air()),
            armed: rules.templates_where(|t| !t.weapons.is_empty()),
            gatherers: rules.templates_where(|t| t.gather.is_some()),
            structures: rules.templates_where(|t| t.kind == ObjectKind::Structure),
            powered: rules.templates_where(|t| t.power != 0),
            depots: rules.templates_where(|t| t.supply_depot),
        }
    }
}
