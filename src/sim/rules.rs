//! Sim-ready definition tables: object templates, weapons, armour and factions, indexed by id.
//!
//! `defs` builds these from data files and validates every cross-reference, so the sim can
//! index them without checks. Must not: hold anything the sim does not read (models, icons and
//! sounds belong to the client's tables in `defs`).

use std::collections::BTreeMap;

use super::angle::Angle;
use super::fixed::Fixed;
use super::ids::{ArmorId, TemplateId, UpgradeId, WeaponId};

/// What sort of thing an object is; decides movement and what counts for victory.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub enum ObjectKind {
    /// Foot soldiers: small, turn on the spot.
    Infantry,
    /// Wheeled and tracked units.
    Vehicle,
    /// Buildings: never move, block the cells of their footprint.
    Structure,
    /// Scenery (trees, rocks, supply piles): never moves, blocks its footprint, belongs to
    /// nobody in particular and does not count for victory.
    Prop,
    /// Helicopters and the like: fly straight over anything, reached only by weapons that
    /// hit the air.
    Aircraft,
}

impl ObjectKind {
    /// Every kind, in declaration order (so `ALL[k as usize] == k`).
    pub const ALL: [ObjectKind; 5] =
        [ObjectKind::Infantry, ObjectKind::Vehicle, ObjectKind::Structure, ObjectKind::Prop, ObjectKind::Aircraft];

    /// True for objects that stand still and block the cells of their footprint.
    pub fn blocks_ground(self) -> bool {
        matches!(self, ObjectKind::Structure | ObjectKind::Prop)
    }

    /// True for objects in the air.
    pub fn is_air(self) -> bool {
        self == ObjectKind::Aircraft
    }
}

/// What a weapon can hit: things on the ground, in the air, or both.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, serde::Serialize, serde::Deserialize)]
pub enum Targets {
    /// Ground units and structures only.
    #[default]
    Ground,
    /// Aircraft only.
    Air,
    /// Anything.
    Both,
}

impl Targets {
    /// True if a weapon with these targets can hit an object in the air (`air`) or on the
    /// ground.
    pub fn hits(self, air: bool) -> bool {
        match self {
            Targets::Ground => !air,
            Targets::Air => air,
            Targets::Both => true,
        }
    }
}

/// Everything the simulation needs to know about one kind of object.
#[derive(Clone, Debug, PartialEq, Hash)]
pub struct ObjectTemplate {
    /// Unique name, as data files and scripts refer to it.
    pub name: String,
    /// Index into [`Rules::factions`].
    pub faction: u16,
    /// Unit or structure.
    pub kind: ObjectKind,
    /// Price in money units.
    pub cost: i64,
    /// Frames to build or produce.
    pub build_frames: u32,
    /// Footprint in cells (width, height); structures block these cells.
    pub footprint: (u8, u8),
    /// Health when new.
    pub max_health: i32,
    /// Armour class.
    pub armor: ArmorId,
    /// Top speed in world units per frame.
    pub speed: Fixed,
    /// Speed gained per frame, in world units per frame.
    pub acceleration: Fixed,
    /// Most the facing can change in one frame.
    pub turn_rate: Angle,
    /// Sight radius in world units.
    pub vision: Fixed,
    /// Collision radius in world units.
    pub radius: Fixed,
    /// Weapons, best first.
    pub weapons: Vec<WeaponId>,
    /// What this object can build or produce.
    pub builds: Vec<TemplateId>,
    /// Structures the owner must have before this can be built.
    pub prerequisites: Vec<TemplateId>,
    /// Gatherers: what one trip carries and how long loading takes.
    pub gather: Option<Gather>,
    /// Gatherers unload here.
    pub supply_depot: bool,
    /// Power made (positive) or used (negative) once finished; see [`super::power`].
    pub power: i32,
    /// Upgrades this structure researches.
    pub researches: Vec<UpgradeId>,
}

/// A gatherer's trip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Gather {
    /// Money per trip.
    pub carry: u32,
    /// Frames of loading at the pile.
    pub frames: u32,
}

impl ObjectTemplate {
    /// True for units that can be ordered to move.
    pub fn is_mobile(&self) -> bool {
        !self.kind.blocks_ground() && self.speed > Fixed::ZERO
    }

    /// True for a unit whose work is building or gathering (a dozer, a hauler): the player's
    /// economy rather than the army.
    pub fn is_worker(&self) -> bool {
        self.is_mobile() && (!self.builds.is_empty() || self.gather.is_some())
    }

    /// True if it carries a weapon.
    pub fn is_armed(&self) -> bool {
        !self.weapons.is_empty()
    }

    /// True if its first weapon can hit something in the air (`air`) or on the ground.
    pub fn can_hit(&self, rules: &Rules, air: bool) -> bool {
        self.weapons.first().is_some_and(|&w| rules.weapon(w).targets.hits(air))
    }
}

/// A weapon: instant-hit for now; projectiles come with the gameplay systems.
#[derive(Clone, Debug, PartialEq, Hash)]
pub struct WeaponTemplate {
    /// Unique name.
    pub name: String,
    /// Reach in world units.
    pub range: Fixed,
    /// Damage per shot before armour.
    pub damage: i32,
    /// Index into [`Rules::damage_types`].
    pub damage_type: u16,
    /// Frames between shots.
    pub reload_frames: u32,
    /// Each hit's damage varies by up to this percent either way, drawn from the game's RNG.
    pub spread: u8,
    /// World units its shell travels a frame; zero: the shot hits at once.
    pub projectile_speed: Fixed,
    /// Targets closer than this cannot be fired at.
    pub min_range: Fixed,
    /// Radius of the blast; zero: only the target is hit.
    pub area: Fixed,
    /// Ground, air or both.
    pub targets: Targets,
}

/// An armour class: how much of each damage type gets through.
#[derive(Clone, Debug, PartialEq, Hash)]
pub struct ArmorTemplate {
    /// Unique name.
    pub name: String,
    /// Percent of damage taken, per damage type index.
    pub percent: Vec<i32>,
}

/// A side: starting money and the objects each player of it begins with.
#[derive(Clone, Debug, PartialEq, Hash)]
pub struct Faction {
    /// Unique name.
    pub name: String,
    /// Money at the start of a game.
    pub starting_money: i64,
    /// False for the neutral side that owns scenery (players cannot pick it).
    pub playable: bool,
    /// Objects placed at the start position, in order (the first is placed on the spot).
    pub starting_objects: Vec<(TemplateId, u32)>,
    /// Percent of normal speed for construction and production while low on power (1–100).
    pub low_power_speed: u8,
    /// Percent of a structure's price paid back when it is sold (0–100).
    pub sell_refund: u8,
    /// The ranks its units earn by destroying enemies, lowest first (at most three).
    pub veterancy: Vec<Rank>,
    /// Burning and repair of its structures.
    pub upkeep: Upkeep,
}

/// Most upgrades a rule set may define (a player's researched upgrades are one 64-bit set).
pub const MAX_UPGRADES: usize = 64;

/// A number an upgrade changes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub enum Stat {
    /// Damage its weapons deal.
    Damage,
    /// Damage it takes (below 100: better armour).
    Armor,
    /// Top speed.
    Speed,
    /// Sight radius.
    Sight,
}

/// One change an upgrade makes to its owner's objects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Effect {
    /// The kinds of object it applies to (a set of `1 << ObjectKind as u8`).
    pub kinds: u8,
    /// What it changes.
    pub stat: Stat,
    /// The new value in percent of the old.
    pub percent: u32,
}

/// An upgrade a player researches once at a structure: it changes numbers for all its objects.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UpgradeTemplate {
    /// Unique name.
    pub name: String,
    /// Index into [`Rules::factions`].
    pub faction: u16,
    /// Price.
    pub cost: i64,
    /// Frames of research.
    pub research_frames: u32,
    /// What it changes.
    pub effects: Vec<Effect>,
}

/// How structures wear and mend: burning below a share of health, and paid repair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Upkeep {
    /// A finished structure below this percent of its health burns.
    pub burn_below: u32,
    /// Health a burning structure loses a second, in tenths of a percent of its maximum.
    pub burn_per_mille: u32,
    /// Frames a repair takes from no health to full.
    pub repair_frames: u32,
    /// What a repair from no health to full costs, in percent of the structure's price.
    pub repair_cost: u32,
}

/// One veterancy rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rank {
    /// Worth of the enemies a unit must have destroyed, in percent of its own price.
    pub worth_percent: u32,
    /// Its weapons' damage, in percent of normal.
    pub damage_percent: u32,
    /// Its health, in percent of normal.
    pub health_percent: u32,
}

impl Rules {
    /// The rank (0 = none) of a unit of `template` that has destroyed enemies worth `xp`.
    pub fn rank(&self, template: TemplateId, xp: u32) -> u8 {
        let t = self.template(template);
        let Some(f) = self.factions.get(t.faction as usize) else { return 0 };
        let cost = t.cost.max(1);
        f.veterancy.iter().take_while(|r| xp as i64 * 100 >= cost * r.worth_percent as i64).count() as u8
    }

    /// The (damage, health) percent of `rank` for units of `template`'s faction.
    pub fn rank_bonus(&self, template: TemplateId, rank: u8) -> (u32, u32) {
        let t = self.template(template);
        let r = (rank as usize).checked_sub(1).and_then(|i| self.factions.get(t.faction as usize)?.veterancy.get(i));
        r.map_or((100, 100), |r| (r.damage_percent, r.health_percent))
    }
}

/// All definition tables of a game.
#[derive(Clone, Debug, Default, PartialEq, Hash)]
pub struct Rules {
    /// Object templates by [`TemplateId`].
    pub templates: Vec<ObjectTemplate>,
    /// Weapons by [`WeaponId`].
    pub weapons: Vec<WeaponTemplate>,
    /// Armour classes by [`ArmorId`].
    pub armors: Vec<ArmorTemplate>,
    /// Damage type names, by index.
    pub damage_types: Vec<String>,
    /// Factions, by index.
    pub factions: Vec<Faction>,
    /// Template ids by name.
    pub template_names: BTreeMap<String, TemplateId>,
    /// Upgrades by [`UpgradeId`].
    pub upgrades: Vec<UpgradeTemplate>,
}

/// A set of templates, by id: what a scan of the store wants, decided once per template so
/// the scan reads a flag per object instead of its template.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TemplateSet {
    /// Per template id, whether it is in the set.
    flags: Vec<bool>,
}

impl TemplateSet {
    /// The set of the templates whose flag is set (by id).
    pub fn from_flags(flags: Vec<bool>) -> TemplateSet {
        TemplateSet { flags }
    }

    /// Whether the set holds `id`.
    #[inline(always)]
    pub fn contains(&self, id: TemplateId) -> bool {
        self.flags.get(id.0 as usize).copied().unwrap_or(false)
    }
}

impl Rules {
    /// The template with this id.
    pub fn template(&self, id: TemplateId) -> &ObjectTemplate {
        &self.templates[id.0 as usize]
    }

    /// The templates `keep` accepts.
    pub fn templates_where(&self, keep: impl Fn(&ObjectTemplate) -> bool) -> TemplateSet {
        TemplateSet::from_flags(self.templates.iter().map(keep).collect())
    }

    /// The weapon with this id.
    pub fn weapon(&self, id: WeaponId) -> &WeaponTemplate {
        &self.weapons[id.0 as usize]
    }

    /// The upgrade with this id.
    pub fn upgrade(&self, id: UpgradeId) -> &UpgradeTemplate {
        &self.upgrades[id.0 as usize]
    }

    /// An upgrade id by name.
    pub fn upgrade_id(&self, name: &str) -> Option<UpgradeId> {
        self.upgrades.iter().position(|u| u.name == name).map(|i| UpgradeId(i as u16))
    }

    /// `stat` of an object of `kind` owned by a player with `researched` upgrades, in percent
    /// of normal: the product of every researched upgrade's effects on it.
    pub fn upgraded(&self, researched: u64, kind: ObjectKind, stat: Stat) -> u32 {
        let mut percent: u64 = 100;
        let mut bits = researched;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let Some(u) = self.upgrades.get(i) else { continue };
            for e in &u.effects {
                if e.stat == stat && e.kinds & (1 << kind as u8) != 0 {
                    percent = percent * e.percent as u64 / 100;
                }
            }
        }
        percent.min(u32::MAX as u64) as u32
    }

    /// A template id by name.
    pub fn template_id(&self, name: &str) -> Option<TemplateId> {
        self.template_names.get(name).copied()
    }

    /// The armour classes `template`'s first weapon does best against: those letting through
    /// at least four fifths of what the most vulnerable class it can reach lets through (in
    /// the air or on the ground, as the weapon's `targets` allow), in table order. Empty for
    /// an unarmed object.
    pub fn strong_against(&self, template: TemplateId) -> Vec<ArmorId> {
        let Some(&w) = self.template(template).weapons.first() else { return Vec::new() };
        let weapon = self.weapon(w);
        // Which classes the weapon can reach: those worn by objects it can hit.
        let reachable: Vec<ArmorId> = (0..self.armors.len())
            .map(|i| ArmorId(i as u16))
            .filter(|&a| self.templates.iter().any(|t| t.armor == a && weapon.targets.hits(t.kind.is_air())))
            .collect();
        let through = |a: ArmorId| {
            self.armors
                .get(a.0 as usize)
                .and_then(|x| x.percent.get(weapon.damage_type as usize))
                .copied()
                .unwrap_or(100)
        };
        let best = reachable.iter().map(|&a| through(a)).max().unwrap_or(0);
        reachable.into_iter().filter(|&a| best > 0 && through(a) * 5 >= best * 4).collect()
    }

    /// A faction index by name.
    pub fn faction_index(&self, name: &str) -> Option<u16> {
        self.factions.iter().position(|f| f.name == name).map(|i| i as u16)
    }

    /// Damage after armour: `damage × percent / 100`, rounded down; at least 1 when the armour
    /// lets any of it through (a percent above 0), else 0.
    pub fn damage_after_armor(&self, weapon: WeaponId, armor: ArmorId) -> i32 {
        let w = self.weapon(weapon);
        let percent = self
            .armors
            .get(armor.0 as usize)
            .and_then(|a| a.percent.get(w.damage_type as usize))
            .copied()
            .unwrap_or(100);
        let through = (w.damage as i64 * percent as i64 / 100).max(0) as i32;
        // Whatever armour lets through at all does at least one point, so riflemen wear a
        // building down instead of never ending the game.
        if percent > 0 && w.damage > 0 { through.max(1) } else { through }
    }
}

#[cfg(test)]
mod tests {
    use super::ObjectKind;

    #[test]
    fn every_kind_is_listed_at_its_own_index() {
        for (i, k) in ObjectKind::ALL.iter().enumerate() {
            assert_eq!(*k as usize, i, "{k:?}");
        }
        // A kind added to the enum stops this match compiling: a reminder to list it.
        for k in ObjectKind::ALL {
            match k {
                ObjectKind::Infantry
                | ObjectKind::Vehicle
                | ObjectKind::Structure
                | ObjectKind::Prop
                | ObjectKind::Aircraft => {}
            }
        }
    }
}
