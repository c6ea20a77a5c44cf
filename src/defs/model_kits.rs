//! Model kits (`data/models.ron`): named lists of parts — boxes, pyramids, gabled roofs,
//! cylinders — that an object's model names with `kit:` instead of its shape's built-in mesh.
//! Parts are in the model's unit space (x across, y forward, z up, standing on z = 0; a
//! structure's footprint is −0.5..0.5 each way and its height 0..1), so one kit fits any size.
//! A part may wear the owner's colour (`team`), turn toward the object's target (`turret`) and
//! move by an animation role (`anim`: legs and arms swing, wheels and rotors turn, a barrel
//! recoils, a muzzle flash shows when firing, a part breaks off when badly damaged).
//!
//! Must not: build meshes (the renderer does) or reach the simulation.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::content::ContentRoots;

use super::error::{DefsError, DefsErrors};
use super::model::ModelDef;
use super::source::Source;

/// Most kits in a file.
pub const MAX_KITS: usize = 512;
/// Most parts in one kit.
pub const MAX_PARTS: usize = 96;
/// Farthest a part may reach from the model's origin, in unit space.
pub const MAX_REACH: f32 = 4.0;
/// Most sides of a cylinder.
pub const MAX_SIDES: u32 = 32;

fn one() -> f32 {
    1.0
}

fn eight() -> u32 {
    8
}

/// How a part moves: its animation role, posed by the renderer from display state (how far the
/// object travelled, how hard its gun just kicked, its health, power and the time). The order
/// is the number the shader reads (`shaders/world.wgsl`, `vs_object`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum Anim {
    /// Still (with the body or the turret).
    #[default]
    None = 0,
    /// A left leg: swings about its top (the hip) as the unit walks.
    LegLeft = 1,
    /// A right leg: swings against the left one.
    LegRight = 2,
    /// A left arm: swings about its top (the shoulder) against the left leg, raised when aiming.
    ArmLeft = 3,
    /// A right arm.
    ArmRight = 4,
    /// A wheel: turns about its centre across the model (x) with the distance travelled.
    Wheel = 5,
    /// A track: its tread bands run with the distance travelled.
    Track = 6,
    /// A rotor blade: spins about the vertical through its centre.
    Rotor = 7,
    /// A barrel: slides back when the gun fires.
    Barrel = 8,
    /// A muzzle flash: shows, glowing, only the moment the gun fires.
    Flash = 9,
    /// A part that breaks (falls over about its foot) below a quarter health.
    Broken = 10,
    /// A lamp or lit window: glows while its owner has power, dark without.
    Light = 11,
    /// A tail rotor's blade: spins about the line across the model (x) through its centre.
    TailRotor = 12,
}

/// How a part is drawn besides its shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Finish {
    /// Brightness multiplier (details darker than the body).
    pub shade: f32,
    /// Wears the owner's colour instead of the model's.
    pub team: bool,
    /// Turns with the turret (toward the object's target) instead of the body.
    pub turret: bool,
    /// How it moves.
    pub anim: Anim,
}

/// One part of a kit.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Part {
    /// An axis-aligned box from `min` to `max`.
    Box {
        /// One corner.
        min: (f32, f32, f32),
        /// The opposite corner.
        max: (f32, f32, f32),
        /// Brightness multiplier (details darker than the body).
        #[serde(default = "one")]
        shade: f32,
        /// Wears the owner's colour.
        #[serde(default)]
        team: bool,
        /// Turns with the turret.
        #[serde(default)]
        turret: bool,
        /// How it moves.
        #[serde(default)]
        anim: Anim,
    },
    /// A four-sided pyramid over the rectangle `min`–`max` (at `min.2`), apex at height `top`.
    Pyramid {
        /// One corner of the base.
        min: (f32, f32, f32),
        /// The opposite corner (its height is ignored).
        max: (f32, f32, f32),
        /// The apex's height.
        top: f32,
        /// Brightness multiplier (details darker than the body).
        #[serde(default = "one")]
        shade: f32,
        /// Wears the owner's colour.
        #[serde(default)]
        team: bool,
        /// Turns with the turret.
        #[serde(default)]
        turret: bool,
        /// How it moves.
        #[serde(default)]
        anim: Anim,
    },
    /// A gabled roof over the rectangle `min`–`max` (at `min.2`), its ridge along y at `top`.
    Gable {
        /// One corner of the base.
        min: (f32, f32, f32),
        /// The opposite corner (its height is ignored).
        max: (f32, f32, f32),
        /// The ridge's height.
        top: f32,
        /// Brightness multiplier (details darker than the body).
        #[serde(default = "one")]
        shade: f32,
        /// Wears the owner's colour.
        #[serde(default)]
        team: bool,
        /// Turns with the turret.
        #[serde(default)]
        turret: bool,
        /// How it moves.
        #[serde(default)]
        anim: Anim,
    },
    /// A wheel or drum: a cylinder lying across the model (its axis along x), centred on `at`,
    /// `width` wide; its faces and ends alternate in shade, so its turning shows.
    Drum {
        /// Its centre.
        at: (f32, f32, f32),
        /// Its radius.
        radius: f32,
        /// Its width along x.
        width: f32,
        /// Sides of the prism.
        #[serde(default = "eight")]
        sides: u32,
        /// Brightness multiplier (details darker than the body).
        #[serde(default = "one")]
        shade: f32,
        /// Wears the owner's colour.
        #[serde(default)]
        team: bool,
        /// Turns with the turret.
        #[serde(default)]
        turret: bool,
        /// How it moves.
        #[serde(default)]
        anim: Anim,
    },
    /// An upright cylinder (a prism of `sides` sides) centred on `at`.
    Cylinder {
        /// Its axis, across and forward.
        at: (f32, f32),
        /// Its radius.
        radius: f32,
        /// Its bottom's height.
        bottom: f32,
        /// Its top's height.
        top: f32,
        /// Sides of the prism.
        #[serde(default = "eight")]
        sides: u32,
        /// Brightness multiplier (details darker than the body).
        #[serde(default = "one")]
        shade: f32,
        /// Wears the owner's colour.
        #[serde(default)]
        team: bool,
        /// Turns with the turret.
        #[serde(default)]
        turret: bool,
        /// How it moves.
        #[serde(default)]
        anim: Anim,
    },
}

impl Part {
    /// How it is drawn besides its shape.
    pub fn finish(&self) -> Finish {
        match *self {
            Part::Box { shade, team, turret, anim, .. }
            | Part::Pyramid { shade, team, turret, anim, .. }
            | Part::Gable { shade, team, turret, anim, .. }
            | Part::Drum { shade, team, turret, anim, .. }
            | Part::Cylinder { shade, team, turret, anim, .. } => Finish { shade, team, turret, anim },
        }
    }

    /// What is wrong with the part's numbers, if anything.
    fn problem(&self) -> Option<String> {
        let numbers: Vec<f32> = match *self {
            Part::Box { min, max, .. } => vec![min.0, min.1, min.2, max.0, max.1, max.2],
            Part::Pyramid { min, max, top, .. } | Part::Gable { min, max, top, .. } => {
                vec![min.0, min.1, min.2, max.0, max.1, top]
            }
            Part::Cylinder { at, radius, bottom, top, .. } => vec![at.0, at.1, radius, bottom, top],
            Part::Drum { at, radius, width, .. } => vec![at.0, at.1, at.2, radius, width],
        };
        if numbers.iter().any(|v| !v.is_finite() || v.abs() > MAX_REACH) {
            return Some(format!("every coordinate must be a number within ±{MAX_REACH}"));
        }
        let shade = self.finish().shade;
        if !(0.0..=2.0).contains(&shade) {
            return Some(format!("shade {shade} must be between 0 and 2"));
        }
        let flat = match *self {
            Part::Box { min, max, .. } => min.0 >= max.0 || min.1 >= max.1 || min.2 >= max.2,
            Part::Pyramid { min, max, top, .. } | Part::Gable { min, max, top, .. } => {
                min.0 >= max.0 || min.1 >= max.1 || top <= min.2
            }
            Part::Cylinder { radius, bottom, top, sides, .. } => {
                if !(3..=MAX_SIDES).contains(&sides) {
                    return Some(format!("sides {sides} must be between 3 and {MAX_SIDES}"));
                }
                radius <= 0.0 || top <= bottom
            }
            Part::Drum { radius, width, sides, .. } => {
                if !(3..=MAX_SIDES).contains(&sides) {
                    return Some(format!("sides {sides} must be between 3 and {MAX_SIDES}"));
                }
                radius <= 0.0 || width <= 0.0
            }
        };
        flat.then(|| "it has no volume (each max must be above its min)".to_string())
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KitDef {
    name: String,
    parts: Vec<Part>,
    /// The parts drawn instead at Low graphics quality, at rest; none: the renderer thins
    /// `parts` by its own rule.
    #[serde(default)]
    low: Vec<Part>,
}

/// One kit: its parts, and those drawn instead at Low quality (empty: derived from them).
#[derive(Clone, Debug, Default, PartialEq)]
struct Kit {
    parts: Vec<Part>,
    low: Vec<Part>,
}

/// How Low graphics quality thins a kit that names no Low parts (`data/low_detail.ron`).
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LowRule {
    /// A part whose middle extent (unit space) is below this is left out.
    pub least_part: f32,
    /// Most sides of a cylinder or a wheel.
    pub most_sides: u32,
}

impl Default for LowRule {
    fn default() -> LowRule {
        LowRule { least_part: 0.05, most_sides: 6 }
    }
}

impl LowRule {
    /// Reads `data/low_detail.ron` through the content roots (mods first); none is the default.
    pub fn load(roots: &ContentRoots) -> Result<LowRule, DefsErrors> {
        match roots.find("data/low_detail.ron") {
            Some(path) => LowRule::from_source(&Source::read(&path).map_err(|e| DefsErrors(vec![e]))?),
            None => Ok(LowRule::default()),
        }
    }

    /// Parses and checks the rule; a bad number is named by field and line.
    pub fn from_source(src: &Source) -> Result<LowRule, DefsErrors> {
        let rule: LowRule = src.parse().map_err(|e| DefsErrors(vec![e]))?;
        let mut errors = Vec::new();
        if !(0.0..=1.0).contains(&rule.least_part) {
            errors.push(src.invalid("low detail", "", "least_part", "must be between 0 and 1 (unit space)"));
        }
        if !(3..=MAX_SIDES).contains(&rule.most_sides) {
            errors.push(src.invalid("low detail", "", "most_sides", format!("must be between 3 and {MAX_SIDES}")));
        }
        if errors.is_empty() { Ok(rule) } else { Err(DefsErrors(errors)) }
    }
}

/// Every kit by name, and how Low quality thins those that name no Low parts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelKits {
    kits: BTreeMap<String, Kit>,
    /// How Low quality thins a kit without Low parts of its own.
    pub low_rule: LowRule,
}

impl ModelKits {
    /// Reads `data/models.ron` (none is no kits) and `data/low_detail.ron` through the content
    /// roots (mods first).
    pub fn load(roots: &ContentRoots) -> Result<ModelKits, DefsErrors> {
        let kits = match roots.find("data/models.ron") {
            Some(path) => ModelKits::from_source(&Source::read(&path).map_err(|e| DefsErrors(vec![e]))?)?,
            None => ModelKits::default(),
        };
        Ok(ModelKits { low_rule: LowRule::load(roots)?, ..kits })
    }

    /// The shipped kits (`data/models.ron`) as the file gives them, Low thinned by the
    /// default rule (not `data/low_detail.ron`'s): for tests.
    #[cfg(test)]
    pub fn shipped() -> ModelKits {
        let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data/models.ron"));
        ModelKits::from_source(&Source::read(path).expect("data/models.ron reads")).expect("shipped kits load")
    }

    /// Parses and checks a kit file; every problem is named by kit, field and line.
    pub fn from_source(src: &Source) -> Result<ModelKits, DefsErrors> {
        let defs: Vec<KitDef> = src.parse().map_err(|e| DefsErrors(vec![e]))?;
        let mut errors: Vec<DefsError> = Vec::new();
        if defs.len() > MAX_KITS {
            let name = defs.get(MAX_KITS).map_or("", |d| d.name.as_str());
            errors.push(src.invalid("model kit", name, "name", format!("more than {MAX_KITS} kits")));
        }
        let mut kits = BTreeMap::new();
        for d in defs.iter().take(MAX_KITS) {
            let mut bad = |field: &'static str, m: String| errors.push(src.invalid("model kit", &d.name, field, m));
            if kits.contains_key(&d.name) {
                bad("name", "defined twice".into());
            }
            if d.parts.is_empty() || d.parts.len() > MAX_PARTS {
                bad("parts", format!("{} parts; a kit has 1 to {MAX_PARTS}", d.parts.len()));
            }
            for (i, p) in d.parts.iter().enumerate() {
                if let Some(why) = p.problem() {
                    bad("parts", format!("part {}: {why}", i + 1));
                }
            }
            if d.low.len() > MAX_PARTS {
                bad("low", format!("{} parts; at most {MAX_PARTS}", d.low.len()));
            }
            let has_turret = d.parts.iter().any(|p| p.finish().turret);
            for (i, p) in d.low.iter().enumerate() {
                let f = p.finish();
                let why = p.problem().or_else(|| {
                    // A rotor's blades keep their role at Low: drawn at rest, but the shadow
                    // leaves them out (a spinning rotor lets the sun through).
                    if !matches!(f.anim, Anim::None | Anim::Rotor | Anim::TailRotor) {
                        Some(format!("{:?}: Low parts are drawn at rest and take no anim but a rotor's", f.anim))
                    } else if f.turret && !has_turret {
                        Some("turns with a turret, but none of the kit's parts does".into())
                    } else {
                        None
                    }
                });
                if let Some(why) = why {
                    bad("low", format!("part {}: {why}", i + 1));
                }
            }
            kits.insert(d.name.clone(), Kit { parts: d.parts.clone(), low: d.low.clone() });
        }
        if errors.is_empty() { Ok(ModelKits { kits, low_rule: LowRule::default() }) } else { Err(DefsErrors(errors)) }
    }

    /// The parts of kit `name`.
    pub fn get(&self, name: &str) -> Option<&[Part]> {
        self.kits.get(name).map(|k| k.parts.as_slice())
    }

    /// The parts kit `name` draws at Low quality instead, if it names them.
    pub fn low(&self, name: &str) -> Option<&[Part]> {
        self.kits.get(name).map(|k| k.low.as_slice()).filter(|l| !l.is_empty())
    }

    /// Objects whose model names a kit this file lacks, as (object index, kit name).
    pub fn missing<'a>(&self, models: &'a [ModelDef]) -> Vec<(usize, &'a str)> {
        models
            .iter()
            .enumerate()
            .filter_map(|(i, m)| m.kit.as_deref().filter(|k| !self.kits.contains_key(*k)).map(|k| (i, k)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<ModelKits, DefsErrors> {
        ModelKits::from_source(&Source::from_text("models.ron", text))
    }

    #[test]
    fn the_shipped_kits_load() {
        let kits = ModelKits::shipped();
        assert!(kits.get("Headquarters").is_some_and(|p| p.len() > 4));
    }

    /// A team-coloured band whose top lies in the same plane as a box it overlaps fights it
    /// for the same pixels (stripes that crawl as the camera moves): in every shipped kit, Full
    /// and Low, such a band stops short of the box's top or stands clear above it.
    #[test]
    fn no_team_band_shares_its_top_with_a_box_it_overlaps() {
        let kits = ModelKits::shipped();
        type Corner = (f32, f32, f32);
        let boxes = |parts: &[Part]| -> Vec<(Corner, Corner, bool, bool)> {
            parts
                .iter()
                .filter_map(|p| match p {
                    Part::Box { min, max, team, turret, .. } => Some((*min, *max, *team, *turret)),
                    _ => None,
                })
                .collect()
        };
        let mut fighting = Vec::new();
        for (name, kit) in &kits.kits {
            for list in [&kit.parts, &kit.low] {
                let bs = boxes(list);
                for (i, a) in bs.iter().enumerate() {
                    for (j, b) in bs.iter().enumerate() {
                        let overlap = a.0.0 < b.1.0 && b.0.0 < a.1.0 && a.0.1 < b.1.1 && b.0.1 < a.1.1;
                        if i != j && a.2 && !b.2 && a.3 == b.3 && overlap && a.1.2 == b.1.2 {
                            fighting.push(format!("{name}: team box {i} and box {j} share the top z = {}", a.1.2));
                        }
                    }
                }
            }
        }
        assert!(fighting.is_empty(), "{fighting:#?}");
    }

    #[test]
    fn parts_read_with_their_finish_and_bad_ones_are_named() {
        let kits = load(
            r#"[(name: "Hut", parts: [
                Box(min: (-0.4, -0.4, 0.0), max: (0.4, 0.4, 0.5)),
                Gable(min: (-0.45, -0.45, 0.5), max: (0.45, 0.45, 0.0), top: 1.0, team: true),
                Cylinder(at: (0.2, 0.2), radius: 0.05, bottom: 0.5, top: 1.1, shade: 0.4, turret: true),
            ])]"#,
        )
        .unwrap();
        let hut = kits.get("Hut").unwrap();
        assert_eq!(hut.len(), 3);
        assert_eq!(hut[0].finish(), Finish { shade: 1.0, team: false, turret: false, anim: Anim::None });
        assert!(hut[1].finish().team);
        assert_eq!(hut[2].finish(), Finish { shade: 0.4, team: false, turret: true, anim: Anim::None });
        let e = load(
            "[\n(name: \"Flat\", parts: [Box(min: (0.0, 0.0, 0.0), max: (1.0, 1.0, 0.0))]),\n(name: \"Far\", parts: [Box(min: (0.0, 0.0, 0.0), max: (9.0, 1.0, 1.0))]),\n]",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("models.ron:2") && e.contains("Flat") && e.contains("no volume"), "{e}");
        assert!(e.contains("models.ron:3") && e.contains("Far") && e.contains("within ±4"), "{e}");
    }

    #[test]
    fn the_low_rule_reads_and_refuses_bad_numbers() {
        let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data/low_detail.ron"));
        let rule = LowRule::from_source(&Source::read(path).unwrap()).unwrap();
        assert!(rule.least_part > 0.0 && rule.most_sides >= 3);
        let bad =
            |text: &str| LowRule::from_source(&Source::from_text("low_detail.ron", text)).unwrap_err().to_string();
        let e = bad("(\n least_part: 2.0,\n most_sides: 2,\n)");
        assert!(e.contains("least_part") && e.contains("low_detail.ron:2"), "{e}");
        assert!(e.contains("most_sides") && e.contains("between 3 and"), "{e}");
        assert!(bad("(least_part: 0.1, most_sides: 6, sides: 3)").contains("sides"));
    }

    #[test]
    fn a_kit_names_its_low_parts_and_bad_ones_are_refused() {
        let kits = load(
            r#"[(name: "Tank", parts: [
                Box(min: (-0.4, -0.8, 0.0), max: (0.4, 0.8, 0.5), anim: Track),
                Box(min: (-0.2, -0.2, 0.5), max: (0.2, 0.2, 0.8), turret: true),
            ], low: [
                Box(min: (-0.4, -0.8, 0.0), max: (0.4, 0.8, 0.8), turret: true),
            ]), (name: "Hut", parts: [Box(min: (-0.4, -0.4, 0.0), max: (0.4, 0.4, 0.5))])]"#,
        )
        .unwrap();
        assert_eq!(kits.low("Tank").map(<[Part]>::len), Some(1));
        assert_eq!(kits.low("Hut"), None, "without a low list the renderer derives one");
        let e = load(
            "[\n(name: \"Walker\", parts: [Box(min: (0.0, 0.0, 0.0), max: (1.0, 1.0, 1.0))],\n low: [Box(min: (0.0, 0.0, 0.0), max: (1.0, 1.0, 1.0), anim: LegLeft), Box(min: (0.0, 0.0, 0.0), max: (1.0, 1.0, 1.0), turret: true)]),\n]",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("Walker") && e.contains("part 1") && e.contains("take no anim"), "{e}");
        assert!(e.contains("part 2") && e.contains("none of the kit's parts"), "{e}");
    }

    #[test]
    fn parts_take_animation_roles_and_an_unknown_role_is_refused_at_its_line() {
        let kits = load(
            r#"[(name: "Jeep", parts: [
                Box(min: (-0.4, -0.8, 0.2), max: (0.4, 0.8, 0.6)),
                Drum(at: (-0.45, 0.5, 0.2), radius: 0.2, width: 0.12, anim: Wheel),
                Box(min: (-0.03, 0.0, 0.7), max: (0.03, 0.6, 0.76), turret: true, anim: Barrel),
            ])]"#,
        )
        .unwrap();
        let jeep = kits.get("Jeep").unwrap();
        assert_eq!(jeep[0].finish().anim, Anim::None);
        assert_eq!(jeep[1].finish().anim, Anim::Wheel);
        assert_eq!(jeep[2].finish(), Finish { shade: 1.0, team: false, turret: true, anim: Anim::Barrel });
        let e = load(
            "[\n(name: \"Walker\", parts: [\n    Box(min: (0.0, 0.0, 0.0), max: (1.0, 1.0, 1.0)),\n    Box(min: (0.0, 0.0, 0.0), max: (1.0, 1.0, 1.0), anim: Leg),\n]),\n]",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("models.ron:4") && e.contains("Leg") && e.contains("LegLeft"), "{e}");
        let e = load("[(name: \"Flat\", parts: [Drum(at: (0.0, 0.0, 0.2), radius: 0.2, width: 0.0)])]")
            .unwrap_err()
            .to_string();
        assert!(e.contains("Flat") && e.contains("no volume"), "{e}");
    }
}
