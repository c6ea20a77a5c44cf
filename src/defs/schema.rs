//! The shapes of the definition files as written by people: names instead of ids, seconds
//! instead of frames, decimals instead of fixed-point. `deny_unknown_fields` everywhere, so a
//! misspelt key is an error with its line.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::sim::rules::{ObjectKind, Stat, Targets};

use super::model::ModelDef;

/// One entry of `data/objects.ron`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectDef {
    /// Unique name.
    pub name: String,
    /// The name players read (buttons, tooltips, the selection panel, alerts); the unique name
    /// when absent.
    #[serde(default)]
    pub display_name: Option<String>,
    /// One line for the player: what it is for (shown in tooltips).
    #[serde(default)]
    pub description: String,
    /// Faction name (must exist in factions.ron).
    pub faction: String,
    /// Infantry, Vehicle or Structure.
    pub kind: ObjectKind,
    /// Price.
    pub cost: i64,
    /// Seconds to build.
    pub build_time: f64,
    /// Footprint in cells.
    #[serde(default = "one_by_one")]
    pub footprint: (u8, u8),
    /// Health when new.
    pub max_health: i32,
    /// Armour class name.
    pub armor: String,
    /// World units per second.
    #[serde(default)]
    pub speed: f64,
    /// World units per second, per second.
    #[serde(default)]
    pub acceleration: f64,
    /// Degrees per second.
    #[serde(default)]
    pub turn_rate: f64,
    /// Sight radius, world units.
    pub vision: f64,
    /// Collision radius, world units.
    pub radius: f64,
    /// Weapon names, best first.
    #[serde(default)]
    pub weapons: Vec<String>,
    /// Names of what this object builds or produces.
    #[serde(default)]
    pub builds: Vec<String>,
    /// Names of structures needed first.
    #[serde(default)]
    pub prerequisites: Vec<String>,
    /// Gatherers: money carried per trip and seconds spent loading it at a supply pile.
    #[serde(default)]
    pub gather: Option<GatherDef>,
    /// Structures where gatherers unload.
    #[serde(default)]
    pub supply_depot: bool,
    /// Power made (positive) or used (negative) once finished.
    #[serde(default)]
    pub power: i32,
    /// Names of the upgrades (from upgrades.ron) this structure researches.
    #[serde(default)]
    pub researches: Vec<String>,
    /// How the renderer draws it (not read by the simulation).
    pub model: ModelDef,
    /// What it says and sounds like (not read by the simulation).
    #[serde(default)]
    pub sounds: super::sounds::ObjectSounds,
}

/// A gatherer's trip.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GatherDef {
    /// Money per trip.
    pub carry: u32,
    /// Seconds of loading at the pile.
    pub time: f64,
}

fn yes() -> bool {
    true
}

fn one_by_one() -> (u8, u8) {
    (1, 1)
}

/// One entry of `data/weapons.ron`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponDef {
    /// Unique name.
    pub name: String,
    /// Reach, world units.
    pub range: f64,
    /// Damage per shot.
    pub damage: i32,
    /// Damage type name (from armor.ron).
    pub damage_type: String,
    /// Seconds between shots.
    pub reload: f64,
    /// Percent by which each hit's damage may vary either way (0–50).
    #[serde(default)]
    pub spread: u32,
    /// Speed of its shell in world units a second; 0: the shot hits at once.
    #[serde(default)]
    pub projectile_speed: f64,
    /// Targets closer than this cannot be fired at (world units).
    #[serde(default)]
    pub min_range: f64,
    /// Radius of the blast (world units); 0: only the target is hit.
    #[serde(default)]
    pub area: f64,
    /// Ground (default), Air or Both.
    #[serde(default)]
    pub targets: Targets,
    /// The sound of a shot, from sounds.ron (not read by the simulation).
    #[serde(default)]
    pub sound: Option<String>,
}

/// `data/armor.ron`: damage types and armour classes.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmorFile {
    /// Damage type names.
    pub damage_types: Vec<String>,
    /// Armour classes.
    pub armor: Vec<ArmorDef>,
}

/// One armour class.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmorDef {
    /// Unique name.
    pub name: String,
    /// Percent of each damage type taken; types not listed take 100.
    #[serde(default)]
    pub percent: BTreeMap<String, i32>,
}

/// One entry of `data/factions.ron`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FactionDef {
    /// Unique name.
    pub name: String,
    /// Money at the start.
    #[serde(default)]
    pub starting_money: i64,
    /// Whether players may pick it (false for the neutral side owning scenery).
    #[serde(default = "yes")]
    pub playable: bool,
    /// (object name, count) placed at the start position, first one on the spot.
    pub starting_objects: Vec<(String, u32)>,
    /// Percent of normal speed for construction and production while low on power.
    #[serde(default = "half")]
    pub low_power_speed: u32,
    /// Percent of a structure's price paid back when it is sold.
    #[serde(default = "half")]
    pub sell_refund: u32,
    /// Ranks its units earn by destroying enemies, lowest first.
    #[serde(default = "standard_veterancy")]
    pub veterancy: Vec<RankDef>,
    /// Burning and repair of its structures.
    #[serde(default)]
    pub upkeep: UpkeepDef,
}

/// How a faction's structures burn and are repaired, in `data/factions.ron`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct UpkeepDef {
    /// A finished structure below this percent of its health burns.
    pub burn_below: u32,
    /// Percent of its health a burning structure loses a second (decimals allowed).
    pub burn_rate: f64,
    /// Seconds a repair takes from no health to full.
    pub repair_time: f64,
    /// Cost of a repair from no health to full, in percent of the structure's price.
    pub repair_cost: u32,
}

impl Default for UpkeepDef {
    fn default() -> UpkeepDef {
        UpkeepDef { burn_below: 25, burn_rate: 1.0, repair_time: 40.0, repair_cost: 50 }
    }
}

/// One entry of `data/upgrades.ron`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpgradeDef {
    /// Unique name.
    pub name: String,
    /// The name players read; the unique name when absent.
    #[serde(default)]
    pub display_name: Option<String>,
    /// Faction name.
    pub faction: String,
    /// Price.
    pub cost: i64,
    /// Seconds of research.
    pub research_time: f64,
    /// One line for the tooltip (not read by the simulation).
    #[serde(default)]
    pub description: String,
    /// What it changes.
    pub effects: Vec<EffectDef>,
}

/// One change an upgrade makes.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EffectDef {
    /// The kinds of object it applies to (Infantry, Vehicle, Structure).
    pub kinds: Vec<ObjectKind>,
    /// Damage, Armor (damage taken), Speed or Sight.
    pub stat: Stat,
    /// The new value in percent of the old (10–500).
    pub percent: u32,
}

/// One veterancy rank in `data/factions.ron`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RankDef {
    /// Worth of enemies destroyed, in percent of the unit's own price.
    pub worth: u32,
    /// Damage in percent of normal.
    pub damage: u32,
    /// Health in percent of normal.
    pub health: u32,
}

/// Three ranks: a unit's own price destroyed, twice it, four times it; 10 % more damage and
/// health a rank.
fn standard_veterancy() -> Vec<RankDef> {
    vec![
        RankDef { worth: 100, damage: 110, health: 110 },
        RankDef { worth: 200, damage: 120, health: 120 },
        RankDef { worth: 400, damage: 130, health: 130 },
    ]
}

/// The default speed while low on power: half.
fn half() -> u32 {
    50
}

impl super::source::Named for ObjectDef {
    fn name(&self) -> &str {
        &self.name
    }
}

impl super::source::Named for WeaponDef {
    fn name(&self) -> &str {
        &self.name
    }
}

impl super::source::Named for FactionDef {
    fn name(&self) -> &str {
        &self.name
    }
}

impl super::source::Named for UpgradeDef {
    fn name(&self) -> &str {
        &self.name
    }
}
