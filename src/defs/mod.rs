//! Definitions: RON files in `data/` turned into validated, sim-ready tables.
//!
//! People write names, seconds and decimals; the sim gets ids, frames and fixed-point. Every
//! cross-reference (weapon, armour, faction, builds, prerequisites) is checked here, and every
//! problem is reported with file, line, item and field, all of them in one go.
//! Must not: be read by the simulation directly (it receives [`Rules`]), or keep going with a
//! half-valid table.

pub mod ai_plan;
pub mod ai_plans;
pub mod ai_style;
pub mod ai_styles;
pub mod ai_tuning;
pub mod display_names;
pub mod effects;
pub mod error;
mod graph;
pub mod model;
pub mod model_kits;
mod objects;
pub mod schema;
pub mod sounds;
pub mod source;
#[cfg(test)]
pub mod test_support;
mod upgrades;

use std::sync::Arc;

use crate::content::ContentRoots;
use crate::content::limits::{MAX_DEFINITIONS, MAX_STARTING_OBJECTS};
use crate::sim::fixed::Fixed;
use crate::sim::ids::FRAMES_PER_SECOND;
use crate::sim::rules::{ArmorTemplate, Faction, Rank, Rules, Upkeep, WeaponTemplate};

use crate::content::suggest::did_you_mean;
pub use ai_plans::AiPlans;
pub use ai_tuning::AiTuning;
pub use error::{DefsError, DefsErrors};
pub use model::ModelDef;
pub use model_kits::ModelKits;
use schema::{ArmorFile, FactionDef, ObjectDef, UpgradeDef, WeaponDef};
pub use sounds::{Category, ObjectSounds, SoundDef, SoundRef, SoundTable, WeaponSounds};
pub use source::{Named, Source};

/// Largest magnitude accepted for decimal values (world units, seconds...).
const MAX_DECIMAL: f64 = 1.0e6;

/// The loaded definitions: the sim's rules and the client's model table.
#[derive(Clone, Debug)]
pub struct Definitions {
    /// Sim-ready tables.
    pub rules: Arc<Rules>,
    /// Model per template, indexed like `rules.templates`.
    pub models: Vec<ModelDef>,
    /// Each upgrade's one-line description, indexed like `rules.upgrades`.
    pub upgrade_descriptions: Vec<String>,
    /// Each object's one-line description, indexed like `rules.templates`.
    pub object_descriptions: Vec<String>,
    /// Each object's name as players read it, indexed like `rules.templates`.
    pub object_names: Vec<String>,
    /// Each upgrade's name as players read it, indexed like `rules.upgrades`.
    pub upgrade_names: Vec<String>,
    /// Each object's sounds, indexed like `rules.templates`.
    pub object_sounds: Vec<ObjectSounds>,
    /// Each weapon's sounds, indexed like `rules.weapons`.
    pub weapon_sounds: Vec<WeaponSounds>,
    /// Every sound named above, where it is named (checked against the sound table).
    pub sound_refs: Vec<SoundRef>,
    /// The names and descriptions above as the data gives them, kept for translations.
    pub data_texts: Arc<display_names::DataTexts>,
}

/// The five source files of a rule set.
#[derive(Clone, Debug)]
pub struct RuleSources {
    /// objects.ron
    pub objects: Source,
    /// weapons.ron
    pub weapons: Source,
    /// armor.ron
    pub armor: Source,
    /// factions.ron
    pub factions: Source,
    /// upgrades.ron
    pub upgrades: Source,
}

impl Definitions {
    /// The names of the factions players may choose, in `data/factions.ron` order.
    pub fn playable_factions(&self) -> Vec<String> {
        self.rules.factions.iter().filter(|f| f.playable).map(|f| f.name.clone()).collect()
    }

    /// Loads `data/{objects,weapons,armor,factions,upgrades}.ron` through the content roots, and
    /// checks the sounds they name against `data/sounds.ron`.
    pub fn load(roots: &ContentRoots) -> Result<Definitions, DefsErrors> {
        let read = |name: &str| Source::find(roots, &format!("data/{name}"));
        let files =
            [read("objects.ron"), read("weapons.ron"), read("armor.ron"), read("factions.ron"), read("upgrades.ron")];
        let errors: Vec<DefsError> = files.iter().filter_map(|f| f.as_ref().err().cloned()).collect();
        if !errors.is_empty() {
            return Err(DefsErrors(errors));
        }
        let [Ok(mut objects), Ok(mut weapons), Ok(armor), Ok(mut factions), Ok(mut upgrades)] = files else {
            return Err(DefsErrors(Vec::new()));
        };
        // Entry files a mod adds beside a list (`data/objects/*.ron`…), merged by name.
        let mut errors = Vec::new();
        for (source, file) in [
            (&mut objects, "objects.ron"),
            (&mut weapons, "weapons.ron"),
            (&mut factions, "factions.ron"),
            (&mut upgrades, "upgrades.ron"),
        ] {
            for path in roots.extras(file) {
                match Source::read(&path) {
                    Ok(extra) => source.extras.push(extra),
                    Err(e) => errors.push(e),
                }
            }
        }
        if !errors.is_empty() {
            return Err(DefsErrors(errors));
        }
        let defs = Definitions::from_sources(&RuleSources { objects, weapons, armor, factions, upgrades })?;
        // The sounds objects and weapons name are checked here too, like every other reference
        // (they never reach the simulation, so the rules alone need no sound table).
        SoundTable::load(roots)?.check(&defs.sound_refs)?;
        Ok(defs)
    }

    /// Parses and validates a rule set from its five sources.
    pub fn from_sources(src: &RuleSources) -> Result<Definitions, DefsErrors> {
        let mut errors = Vec::new();
        let objects: Option<Vec<ObjectDef>> = src.objects.parse_merged().map_err(|e| errors.extend(e)).ok();
        let weapons: Option<Vec<WeaponDef>> = src.weapons.parse_merged().map_err(|e| errors.extend(e)).ok();
        let armor: Option<ArmorFile> = src.armor.parse().map_err(|e| errors.push(e)).ok();
        let factions: Option<Vec<FactionDef>> = src.factions.parse_merged().map_err(|e| errors.extend(e)).ok();
        let upgrades: Option<Vec<UpgradeDef>> = src.upgrades.parse_merged().map_err(|e| errors.extend(e)).ok();
        let (Some(objects), Some(weapons), Some(armor), Some(factions), Some(upgrades)) =
            (objects, weapons, armor, factions, upgrades)
        else {
            return Err(DefsErrors(errors));
        };
        let mut b = Builder { src, errors, rules: Rules::default() };
        b.armor(&armor);
        b.weapons(&weapons);
        let faction_names = b.faction_names(&factions);
        b.upgrades(&upgrades, &faction_names);
        let upgrade_descriptions = upgrades.iter().map(|u| u.description.clone()).collect();
        let object_descriptions = objects.iter().map(|o| o.description.clone()).collect();
        let object_names = objects
            .iter()
            .map(|o| b.display_name(&src.objects, "object", &o.name, o.display_name.as_deref()))
            .collect();
        let upgrade_names = upgrades
            .iter()
            .map(|u| b.display_name(&src.upgrades, "upgrade", &u.name, u.display_name.as_deref()))
            .collect();
        let models = b.objects(&objects, &faction_names);
        let object_sounds: Vec<ObjectSounds> = objects.iter().map(|o| o.sounds.clone()).collect();
        let weapon_sounds: Vec<WeaponSounds> = weapons.iter().map(|w| WeaponSounds { fire: w.sound.clone() }).collect();
        let mut sound_refs = Vec::new();
        // Each file's names indexed once: looking every entry up in the text would cost the
        // file's length per entry.
        let files: Vec<&Source> = std::iter::once(&src.objects).chain(src.objects.extras.iter()).collect();
        let indexes: Vec<_> = files.iter().map(|s| s.name_index()).collect();
        for o in &objects {
            // The last file that declares it (an extra's entry replaces the main file's).
            let k = (0..files.len()).rev().find(|&k| indexes[k].contains_key(o.name.as_str())).unwrap_or(0);
            let at = files[k];
            for (field, sound) in o.sounds.named() {
                sound_refs.push(SoundRef {
                    path: at.path.clone(),
                    line: at.indexed_line_of_field(&indexes[k], &o.name, field),
                    item: "object",
                    name: o.name.clone(),
                    field,
                    sound: sound.to_string(),
                });
            }
        }
        for w in &weapons {
            if let Some(sound) = &w.sound {
                let at = src.weapons.locate(&w.name);
                sound_refs.push(SoundRef {
                    path: at.path.clone(),
                    line: at.line_of_field(&w.name, "sound"),
                    item: "weapon",
                    name: w.name.clone(),
                    field: "sound",
                    sound: sound.clone(),
                });
            }
        }
        b.factions(&factions);
        if b.errors.is_empty() {
            // The graph is checked once every name resolved.
            b.errors.extend(graph::check(&b.rules, src));
        }
        if b.errors.is_empty() {
            let data_texts = Arc::new(display_names::DataTexts {
                object_names: Vec::clone(&object_names),
                object_descriptions: Vec::clone(&object_descriptions),
                upgrade_names: Vec::clone(&upgrade_names),
                upgrade_descriptions: Vec::clone(&upgrade_descriptions),
            });
            Ok(Definitions {
                rules: Arc::new(b.rules),
                models,
                upgrade_descriptions,
                object_descriptions,
                object_names,
                upgrade_names,
                data_texts,
                object_sounds,
                weapon_sounds,
                sound_refs,
            })
        } else {
            Err(DefsErrors(b.errors))
        }
    }
}

/// Builds [`Rules`] while collecting errors.
struct Builder<'a> {
    src: &'a RuleSources,
    errors: Vec<DefsError>,
    rules: Rules,
}

/// Checks a decimal and converts it to fixed-point (exact rounding, so every machine agrees).
fn decimal(v: f64, scale: f64) -> Result<Fixed, String> {
    if !v.is_finite() || v.abs() > MAX_DECIMAL {
        return Err(format!("{v} is not a number between -{MAX_DECIMAL} and {MAX_DECIMAL}"));
    }
    if v < 0.0 {
        return Err(format!("{v} must not be negative"));
    }
    Ok(Fixed::from_raw((v * scale * 65536.0).round() as i64))
}

/// A table longer than [`MAX_DEFINITIONS`], refused at its first entry past the limit.
fn too_many<'n>(
    src: &Source,
    item: &'static str,
    plural: &str,
    mut names: impl ExactSizeIterator<Item = &'n str>,
) -> Option<DefsError> {
    let n = names.len();
    (n > MAX_DEFINITIONS).then(|| {
        let first_over = names.nth(MAX_DEFINITIONS).unwrap_or("");
        src.invalid(item, first_over, "name", format!("{n} {plural}; the limit is {MAX_DEFINITIONS}"))
    })
}

/// Seconds to whole frames (at least one when positive).
fn frames(seconds: f64) -> Result<u32, String> {
    let f = decimal(seconds, FRAMES_PER_SECOND as f64)?;
    Ok(f.round_int().max(i64::from(seconds > 0.0)) as u32)
}

impl Builder<'_> {
    fn check<T>(
        &mut self,
        r: Result<T, String>,
        src: &Source,
        item: &'static str,
        name: &str,
        field: &'static str,
    ) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(m) => {
                self.errors.push(src.invalid(item, name, field, m));
                None
            }
        }
    }

    fn armor(&mut self, file: &ArmorFile) {
        let src = &self.src.armor;
        if file.armor.len() > MAX_DEFINITIONS || file.damage_types.len() > MAX_DEFINITIONS {
            let m = format!("more than {MAX_DEFINITIONS} armour classes or damage types");
            self.errors.push(src.invalid("armor", "", "armor", m));
            return;
        }
        self.rules.damage_types = file.damage_types.clone();
        for a in &file.armor {
            if self.rules.armors.iter().any(|x| x.name == a.name) {
                self.errors.push(src.invalid("armor", &a.name, "name", "defined twice"));
            }
            let mut percent = vec![100; file.damage_types.len()];
            for (ty, p) in &a.percent {
                match file.damage_types.iter().position(|d| d == ty) {
                    Some(i) => percent[i] = *p,
                    None => self.errors.push(src.invalid(
                        "armor",
                        &a.name,
                        "percent",
                        format!("unknown damage type \"{ty}\""),
                    )),
                }
                if !(0..=1000).contains(p) {
                    self.errors.push(src.invalid("armor", &a.name, "percent", format!("{p}% is outside 0..=1000")));
                }
            }
            self.rules.armors.push(ArmorTemplate { name: a.name.clone(), percent });
        }
    }

    fn weapons(&mut self, defs: &[WeaponDef]) {
        let src = &self.src.weapons;
        if let Some(e) = too_many(src, "weapon", "weapons", defs.iter().map(|w| w.name.as_str())) {
            self.errors.push(e);
            return;
        }
        for w in defs {
            if self.rules.weapons.iter().any(|x| x.name == w.name) {
                self.errors.push(src.invalid("weapon", &w.name, "name", "defined twice"));
            }
            let range = self.check(decimal(w.range, 1.0), src, "weapon", &w.name, "range");
            let reload = self.check(frames(w.reload), src, "weapon", &w.name, "reload");
            let speed = self.check(
                decimal(w.projectile_speed, 1.0 / FRAMES_PER_SECOND as f64),
                src,
                "weapon",
                &w.name,
                "projectile_speed",
            );
            let min_range = self.check(decimal(w.min_range, 1.0), src, "weapon", &w.name, "min_range");
            let area = self.check(decimal(w.area, 1.0), src, "weapon", &w.name, "area");
            if let (Some(min), Some(max)) = (min_range, range)
                && min >= max
                && min > Fixed::ZERO
            {
                self.errors.push(src.invalid("weapon", &w.name, "min_range", "must be shorter than range"));
            }
            let damage_type = self.rules.damage_types.iter().position(|d| *d == w.damage_type);
            if damage_type.is_none() {
                self.errors.push(src.invalid(
                    "weapon",
                    &w.name,
                    "damage_type",
                    format!("unknown damage type \"{}\"", w.damage_type),
                ));
            }
            if w.damage < 0 {
                self.errors.push(src.invalid("weapon", &w.name, "damage", "must not be negative"));
            }
            if w.spread > 50 {
                self.errors.push(src.invalid("weapon", &w.name, "spread", format!("{}% is over 50%", w.spread)));
            }
            self.rules.weapons.push(WeaponTemplate {
                name: w.name.clone(),
                range: range.unwrap_or_default(),
                damage: w.damage,
                damage_type: damage_type.unwrap_or(0) as u16,
                reload_frames: reload.unwrap_or(1).max(1),
                spread: w.spread.min(50) as u8,
                projectile_speed: speed.unwrap_or_default(),
                min_range: min_range.unwrap_or_default(),
                area: area.unwrap_or_default(),
                targets: w.targets,
            });
        }
    }

    fn faction_names(&mut self, defs: &[FactionDef]) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for f in defs {
            if names.contains(&f.name) {
                self.errors.push(self.src.factions.invalid("faction", &f.name, "name", "defined twice"));
            }
            names.push(f.name.clone());
        }
        names
    }

    fn factions(&mut self, defs: &[FactionDef]) {
        let src = &self.src.factions;
        for f in defs {
            let mut starting = Vec::new();
            let total: u64 = f.starting_objects.iter().map(|(_, c)| *c as u64).sum();
            if total > MAX_STARTING_OBJECTS as u64 {
                let m = format!("{total} objects; a faction starts with at most {MAX_STARTING_OBJECTS}");
                self.errors.push(src.invalid("faction", &f.name, "starting_objects", m));
            }
            for (name, count) in &f.starting_objects {
                if *count == 0 {
                    let m = format!("\"{name}\" has count 0; leave it out or give a positive count");
                    self.errors.push(src.invalid("faction", &f.name, "starting_objects", m));
                }
                match self.rules.template_names.get(name) {
                    Some(id) => starting.push((*id, *count)),
                    None => {
                        let hint = did_you_mean(name, self.rules.template_names.keys().map(String::as_str));
                        self.errors.push(src.invalid(
                            "faction",
                            &f.name,
                            "starting_objects",
                            format!("unknown object \"{name}\"{hint}"),
                        ));
                    }
                }
            }
            if starting.is_empty() && f.playable {
                self.errors.push(src.invalid(
                    "faction",
                    &f.name,
                    "starting_objects",
                    "a faction needs at least one starting object",
                ));
            }
            if !(0..=crate::content::limits::MAX_PRICE).contains(&f.starting_money) {
                let max = crate::content::limits::MAX_PRICE;
                self.errors.push(src.invalid(
                    "faction",
                    &f.name,
                    "starting_money",
                    format!("{} is outside 0..={max} (the limit)", f.starting_money),
                ));
            }
            if f.sell_refund > 100 {
                let m = format!("{} is over 100 (percent of the price paid back)", f.sell_refund);
                self.errors.push(src.invalid("faction", &f.name, "sell_refund", m));
            }
            if !(1..=100).contains(&f.low_power_speed) {
                let m = format!("{} is outside 1..=100 (percent of normal speed)", f.low_power_speed);
                self.errors.push(src.invalid("faction", &f.name, "low_power_speed", m));
            }
            if f.veterancy.len() > 3 {
                self.errors.push(src.invalid("faction", &f.name, "veterancy", "at most three ranks"));
            }
            let climbs = f.veterancy.windows(2).all(|w| w[1].worth > w[0].worth);
            let sane = f.veterancy.iter().all(|r| {
                (1..=10_000).contains(&r.worth) && (100..=500).contains(&r.damage) && (100..=500).contains(&r.health)
            });
            if !climbs || !sane {
                let m = "ranks need worth rising within 1..=10000 and damage and health within 100..=500 percent";
                self.errors.push(src.invalid("faction", &f.name, "veterancy", m));
            }
            let u = &f.upkeep;
            if !(1..=99).contains(&u.burn_below) || u.repair_cost > 500 {
                let m = "burn_below must lie within 1..=99 and repair_cost within 0..=500 percent";
                self.errors.push(src.invalid("faction", &f.name, "upkeep", m));
            }
            let burn = self.check(decimal(u.burn_rate, 10.0), src, "faction", &f.name, "upkeep");
            let repair = self.check(frames(u.repair_time), src, "faction", &f.name, "upkeep");
            let upkeep = Upkeep {
                burn_below: u.burn_below.clamp(1, 99),
                burn_per_mille: burn.map_or(10, |b| b.round_int().clamp(0, 1000) as u32),
                repair_frames: repair.unwrap_or(1).max(1),
                repair_cost: u.repair_cost.min(500),
            };
            self.rules.factions.push(Faction {
                name: f.name.clone(),
                starting_money: f.starting_money,
                playable: f.playable,
                starting_objects: starting,
                low_power_speed: f.low_power_speed.clamp(1, 100) as u8,
                sell_refund: f.sell_refund.min(100) as u8,
                veterancy: f
                    .veterancy
                    .iter()
                    .take(3)
                    .map(|r| Rank { worth_percent: r.worth, damage_percent: r.damage, health_percent: r.health })
                    .collect(),
                upkeep,
            });
        }
    }
}
