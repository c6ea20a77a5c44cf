//! The shapes of the definition files as written by people: names instead of ids, seconds
//! instead of frames, decimals instead of fixed-point. `deny_unknown_fields` everywhere, so a
//! misspelt key is an error with its line.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::sim::rules::ObjectKind;

use super::model::ModelDef;

/// One entry of `data/objects.ron`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectDef {
    /// Unique name.
    pub name: String,
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
    /// How the renderer draws it (not read by the simulation).
    pub model: ModelDef,
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
