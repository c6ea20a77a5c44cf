//! `data/objects.ron` checked and turned into the sim's [`ObjectTemplate`]s: each object's
//! references (faction, armour, weapons, what it builds and needs, what it researches) looked
//! up by name, and its numbers (seconds, decimals) checked and converted.
//!
//! Must not: keep an object with an unknown name in it or a number out of range; every problem
//! is reported with file, line, item and field.

use std::collections::BTreeMap;

use super::schema::ObjectDef;
use super::{Builder, DefsError, ModelDef, Source, decimal, did_you_mean, frames, too_many};
use crate::sim::angle::Angle;
use crate::sim::fixed::Fixed;
use crate::sim::ids::{ArmorId, FRAMES_PER_SECOND, TemplateId, UpgradeId, WeaponId};
use crate::sim::rules::{Gather, ObjectKind, ObjectTemplate};

/// What one object names, looked up (None where a name is unknown, already reported).
struct Refs {
    faction: Option<usize>,
    armor: Option<usize>,
    weapons: Vec<WeaponId>,
    builds: Vec<TemplateId>,
    prerequisites: Vec<TemplateId>,
    researches: Vec<UpgradeId>,
}

/// One object's numbers in simulation units (None where one was refused, already reported).
struct Numbers {
    speed: Option<Fixed>,
    acceleration: Option<Fixed>,
    turn: Option<Fixed>,
    vision: Option<Fixed>,
    radius: Option<Fixed>,
    build: Option<u32>,
    gather: Option<Gather>,
}

impl Builder<'_> {
    /// Every object's template, in file order (names first, so objects may refer to ones
    /// defined later in the file); returns their models, in the same order.
    pub(super) fn objects(&mut self, defs: &[ObjectDef], factions: &[String]) -> Vec<ModelDef> {
        let src = &self.src.objects;
        if let Some(e) = too_many(src, "object", "objects", defs.iter().map(|o| o.name.as_str())) {
            self.errors.push(e);
            return Vec::new();
        }
        for (i, o) in defs.iter().enumerate() {
            if self.rules.template_names.insert(o.name.clone(), TemplateId(i as u16)).is_some() {
                self.errors.push(src.invalid("object", &o.name, "name", "defined twice"));
            }
        }
        let weapon_ids: BTreeMap<String, WeaponId> =
            self.rules.weapons.iter().enumerate().map(|(i, w)| (w.name.clone(), WeaponId(i as u16))).collect();
        let mut models = Vec::new();
        for o in defs {
            let refs = self.object_refs(o, factions, &weapon_ids);
            let numbers = self.object_numbers(o);
            self.check_object_limits(o);
            // Turn rate: whole angle units per frame, capped at a half turn.
            let turn_units = numbers.turn.map_or(0, |t| t.round_int().clamp(0, 32767)) as u16;
            self.rules.templates.push(ObjectTemplate {
                name: o.name.clone(),
                faction: refs.faction.unwrap_or(0) as u16,
                kind: o.kind,
                cost: o.cost,
                build_frames: numbers.build.unwrap_or(0),
                footprint: o.footprint,
                max_health: o.max_health,
                armor: ArmorId(refs.armor.unwrap_or(0) as u16),
                speed: numbers.speed.unwrap_or_default(),
                acceleration: numbers.acceleration.unwrap_or_default(),
                turn_rate: Angle(turn_units),
                vision: numbers.vision.unwrap_or_default(),
                radius: numbers.radius.unwrap_or(Fixed::ONE).max(Fixed::from_ratio(1, 4)),
                weapons: refs.weapons,
                builds: refs.builds,
                prerequisites: refs.prerequisites,
                gather: numbers.gather,
                supply_depot: o.supply_depot,
                power: o.power,
                researches: refs.researches,
            });
            models.push(o.model.clone());
        }
        models
    }

    /// The names object `o` refers to, looked up; each unknown one reported with its field
    /// (and the nearest known name).
    fn object_refs(&mut self, o: &ObjectDef, factions: &[String], weapon_ids: &BTreeMap<String, WeaponId>) -> Refs {
        let (src, item, n) = (&self.src.objects, "object", o.name.as_str());
        let faction = factions.iter().position(|f| *f == o.faction);
        if faction.is_none() {
            let hint = did_you_mean(&o.faction, factions.iter().map(String::as_str));
            self.errors.push(src.invalid(item, n, "faction", format!("unknown faction \"{}\"{hint}", o.faction)));
        }
        let armor = self.rules.armors.iter().position(|a| a.name == o.armor);
        if armor.is_none() {
            let hint = did_you_mean(&o.armor, self.rules.armors.iter().map(|a| a.name.as_str()));
            self.errors.push(src.invalid(item, n, "armor", format!("unknown armour class \"{}\"{hint}", o.armor)));
        }
        let mut weapons = Vec::new();
        for w in &o.weapons {
            match weapon_ids.get(w) {
                Some(id) => weapons.push(*id),
                None => {
                    let hint = did_you_mean(w, weapon_ids.keys().map(String::as_str));
                    self.errors.push(src.invalid(item, n, "weapons", format!("unknown weapon \"{w}\"{hint}")));
                }
            }
        }
        let lookup = |names: &[String], field: &'static str, errors: &mut Vec<DefsError>| -> Vec<TemplateId> {
            names
                .iter()
                .filter_map(|x| {
                    let id = self.rules.template_names.get(x).copied();
                    if id.is_none() {
                        let hint = did_you_mean(x, self.rules.template_names.keys().map(String::as_str));
                        errors.push(src.invalid(item, n, field, format!("unknown object \"{x}\"{hint}")));
                    }
                    id
                })
                .collect()
        };
        let mut errs = Vec::new();
        let builds = lookup(&o.builds, "builds", &mut errs);
        let prerequisites = lookup(&o.prerequisites, "prerequisites", &mut errs);
        self.errors.extend(errs);
        let mut researches = Vec::new();
        for u in &o.researches {
            match self.rules.upgrade_id(u) {
                Some(id) => researches.push(id),
                None => self.errors.push(src.invalid(item, n, "researches", format!("unknown upgrade \"{u}\""))),
            }
        }
        if !o.researches.is_empty() && o.kind != ObjectKind::Structure {
            self.errors.push(src.invalid(item, n, "researches", "only structures research upgrades"));
        }
        Refs { faction, armor, weapons, builds, prerequisites, researches }
    }

    /// Object `o`'s seconds and decimals, checked and converted to frames and fixed-point.
    fn object_numbers(&mut self, o: &ObjectDef) -> Numbers {
        let (src, item, n): (&Source, _, _) = (&self.src.objects, "object", o.name.as_str());
        let per_frame = 1.0 / FRAMES_PER_SECOND as f64;
        let speed = self.check(decimal(o.speed, per_frame), src, item, n, "speed");
        let per_frame_squared = 1.0 / (FRAMES_PER_SECOND * FRAMES_PER_SECOND) as f64;
        let acceleration = self.check(decimal(o.acceleration, per_frame_squared), src, item, n, "acceleration");
        let turn =
            self.check(decimal(o.turn_rate, 65536.0 / 360.0 / FRAMES_PER_SECOND as f64), src, item, n, "turn_rate");
        let vision = self.check(decimal(o.vision, 1.0), src, item, n, "vision");
        let radius = self.check(decimal(o.radius, 1.0), src, item, n, "radius");
        let build = self.check(frames(o.build_time), src, item, n, "build_time");
        let gather = match &o.gather {
            None => None,
            Some(g) => {
                if g.carry == 0 {
                    self.errors.push(src.invalid(item, n, "gather", "carry must be positive"));
                }
                self.check(frames(g.time), src, item, n, "gather").map(|f| Gather { carry: g.carry, frames: f.max(1) })
            }
        };
        Numbers { speed, acceleration, turn, vision, radius, build, gather }
    }

    /// Object `o`'s health, price, power and footprint within their limits.
    fn check_object_limits(&mut self, o: &ObjectDef) {
        let (src, item, n) = (&self.src.objects, "object", o.name.as_str());
        if o.max_health <= 0 {
            self.errors.push(src.invalid(item, n, "max_health", "must be positive"));
        }
        if !(0..=crate::content::limits::MAX_PRICE).contains(&o.cost) {
            let max = crate::content::limits::MAX_PRICE;
            self.errors.push(src.invalid(item, n, "cost", format!("{} is outside 0..={max} (the limit)", o.cost)));
        }
        if !(-1000..=1000).contains(&o.power) {
            self.errors.push(src.invalid(item, n, "power", format!("{} is outside -1000..=1000", o.power)));
        }
        if o.power != 0 && o.kind != ObjectKind::Structure {
            self.errors.push(src.invalid(item, n, "power", "only structures make or use power"));
        }
        if o.footprint.0 == 0 || o.footprint.1 == 0 {
            self.errors.push(src.invalid(item, n, "footprint", "must be at least 1×1"));
        }
    }
}
