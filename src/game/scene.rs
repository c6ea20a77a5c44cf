//! The scene: what the world pass draws, made from a map and a snapshot of the world. It holds
//! the map's static display geometry (terrain and road meshes, heights for placing objects)
//! and turns objects into model instances with their owner's colour, optionally interpolated
//! between two logic frames.
//!
//! Must not: change the world; it reads snapshots only.

use std::collections::BTreeMap;

use glam::{Vec2, Vec3};
use image::RgbaImage;
use thiserror::Error;

use crate::content::ContentRoots;
use crate::defs::model::Shape;
use crate::defs::{Definitions, ModelDef, ModelKits};
use crate::map::roads::{Ground, HeightField, RoadMesh};
use crate::map::scatter::ScatterDefs;
use crate::map::terrain_mesh::srgb_to_linear;
use crate::map::{Map, MapContent, TerrainMesh};
use crate::render::world::models::{ModelLibrary, SCAFFOLD};
use crate::render::world::pose::{self, DamageStage};
use crate::render::world::scatter::Scatter;
use crate::render::{ObjectInstance, StaticWorld};
use crate::sim::Relation;
use crate::sim::ids::ObjectId;
use crate::sim::{PlayerId, World};

use super::camera::Camera;
use super::shroud::{self, Shroud};
use super::travel::Travels;

/// How far a model's body leans toward its owner's colour.
const BODY_TINT: f32 = 0.08;

/// Player colours in slot-colour order (Blue, Red, Green, Yellow, Orange, Purple, Cyan, Pink),
/// linear RGB: one for each of eight players.
pub const PLAYER_COLORS: [[f32; 3]; 8] = [
    [0.05, 0.2, 0.75],
    [0.7, 0.04, 0.03],
    [0.06, 0.5, 0.08],
    [0.8, 0.65, 0.05],
    [0.85, 0.27, 0.02],
    [0.36, 0.07, 0.6],
    [0.02, 0.55, 0.6],
    [0.85, 0.2, 0.42],
];

/// The construction scaffold's colour (linear).
const SCAFFOLD_COLOR: [f32; 3] = [0.45, 0.36, 0.18];

/// Why a scene could not be made.
#[derive(Debug, Error)]
pub enum SceneError {
    /// The road atlas is missing or unreadable.
    #[error("{path}: {message}")]
    Atlas {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// The map's roads would make a mesh past the limits.
    #[error("{0}")]
    Roads(String),
    /// `data/models.ron` is broken (every problem listed).
    #[error(transparent)]
    Kits(#[from] crate::defs::DefsErrors),
    /// `data/scatter.ron` is broken (every problem listed).
    #[error("{0}")]
    Scatter(crate::defs::DefsErrors),
    /// Objects name kits that `data/models.ron` lacks (one line each).
    #[error("{}", .0.join("\n"))]
    MissingKits(Vec<String>),
}

/// Loads `data/models.ron` and builds every object's meshes; an object naming a kit the file
/// lacks is refused by name.
pub fn model_library(roots: &ContentRoots, defs: &Definitions) -> Result<ModelLibrary, SceneError> {
    let kits = ModelKits::load(roots)?;
    let missing: Vec<String> = kits
        .missing(&defs.models)
        .into_iter()
        .map(|(i, kit)| {
            let name = defs.rules.templates.get(i).map_or("?", |t| t.name.as_str());
            format!("data/objects.ron: object \"{name}\": model.kit: no kit \"{kit}\" in data/models.ron")
        })
        .collect();
    if !missing.is_empty() {
        return Err(SceneError::MissingKits(missing));
    }
    Ok(ModelLibrary::build(&defs.models, &kits))
}

/// Loads `data/scatter.ron` and checks it against the terrain classes; without the file (a
/// total conversion may leave it out) the ground has no scatter.
pub fn scatter_defs(roots: &ContentRoots, content: &MapContent) -> Result<ScatterDefs, SceneError> {
    match roots.find("data/scatter.ron") {
        Some(path) => ScatterDefs::load(&path, &content.classes).map_err(SceneError::Scatter),
        None => Ok(ScatterDefs::default()),
    }
}

pub use super::display::{radians, to_display};

/// Where and how an object stood in one snapshot, for interpolation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// Ground position.
    pub pos: Vec2,
    /// Facing, radians.
    pub yaw: f32,
    /// Whose it is.
    pub owner: PlayerId,
}

/// True if `player` may see `o` under `shroud`: its team's objects always, scenery once
/// explored, anyone else's only in sight.
pub fn shown_to(world: &World, o: &crate::sim::object::Object, player: PlayerId, shroud: &Shroud) -> bool {
    match world.relation(player, o.owner) {
        Relation::Own | Relation::Ally => true,
        _ if o.owner == PlayerId::NEUTRAL => shroud.at(to_display(o.pos)) != shroud::UNKNOWN,
        _ => shroud.at(to_display(o.pos)) == shroud::VISIBLE,
    }
}

/// Every object's pose in a snapshot, by id.
pub fn poses(world: &World) -> BTreeMap<ObjectId, Pose> {
    world.objects().map(|o| (o.id, Pose { pos: to_display(o.pos), yaw: radians(o.facing), owner: o.owner })).collect()
}

/// The map's display geometry and the tables for drawing objects.
pub struct Scene {
    /// The map.
    pub map: Map,
    /// Ground heights.
    pub ground: HeightField,
    /// The terrain mesh.
    pub terrain: TerrainMesh,
    /// The road mesh.
    pub roads: RoadMesh,
    /// The road atlas.
    pub road_atlas: RgbaImage,
    /// Model per template.
    models: Vec<ModelDef>,
    /// Every template's meshes.
    pub library: ModelLibrary,
    /// The battle's effect settings (`data/effects.ron`).
    pub effects: std::sync::Arc<crate::defs::effects::EffectSettings>,
    /// The lowest and highest ground.
    ground_range: (f32, f32),
    /// Colour index per player slot.
    pub colors: Vec<usize>,
    /// The grass, stones and bushes on the ground (display only).
    pub scatter: Scatter,
}

impl Scene {
    /// Builds the scene of a loaded map.
    pub fn new(roots: &ContentRoots, map: Map, content: &MapContent, defs: &Definitions) -> Result<Scene, SceneError> {
        let ground = HeightField::from_map(&map);
        let terrain = TerrainMesh::build(&map, &content.classes);
        let roads = map.road_mesh(&content.roads).map_err(|e| SceneError::Roads(e.to_string()))?;
        let path = roots.find("data/roads.png").unwrap_or_else(|| "data/roads.png".into());
        let road_atlas = crate::content::open_image(&path)
            .map_err(|e| SceneError::Atlas { path: path.display().to_string(), message: e.to_string() })?
            .into_rgba8();
        let colors = (0..map.file.players as usize).collect();
        let library = model_library(roots, defs)?;
        let scatter = Scatter::place(&map, &content.classes, &scatter_defs(roots, content)?, &ground, &roads);
        let effects = std::sync::Arc::new(crate::defs::effects::EffectSettings::load(roots)?);
        let (lo, hi) = terrain
            .vertices
            .iter()
            .fold((f32::MAX, f32::MIN), |(lo, hi), v| (lo.min(v.position[2]), hi.max(v.position[2])));
        let ground_range = if lo > hi { (0.0, 0.0) } else { (lo, hi) };
        Ok(Scene {
            map,
            ground,
            terrain,
            roads,
            road_atlas,
            models: defs.models.clone(),
            library,
            effects,
            ground_range,
            colors,
            scatter,
        })
    }

    /// What the world pass uploads once: terrain, roads, the road atlas and the map's size.
    pub fn statics(&self) -> StaticWorld<'_> {
        let size = self.size();
        StaticWorld {
            terrain: &self.terrain,
            roads: &self.roads,
            road_atlas: &self.road_atlas,
            cells: self.map.file.size,
            size: [size.x, size.y],
            models: &self.library,
            scatter: &self.scatter,
        }
    }

    /// How a model's unit space is stretched on the battlefield, and whether it stands on the
    /// map's grid: structures and scenery span their footprint and height, units their height
    /// every way.
    fn model_scale(&self, model: &ModelDef, t: &crate::sim::rules::ObjectTemplate) -> (Vec3, bool) {
        if matches!(model.shape, Shape::Building | Shape::Prop) || t.kind.blocks_ground() {
            let cell = self.map.file.cell_size as f32;
            (Vec3::new(t.footprint.0.max(1) as f32 * cell, t.footprint.1.max(1) as f32 * cell, model.height), true)
        } else {
            (Vec3::splat(model.height), false)
        }
    }

    /// The box an object's model fills on the battlefield (world units, z up): what a click
    /// on it hits. Units turn, so theirs holds the model in any facing.
    pub fn object_box(&self, world: &World, o: &crate::sim::object::Object) -> Option<(Vec3, Vec3)> {
        let model = self.models.get(o.template.0 as usize)?;
        let t = world.rules().template(o.template);
        let (lo, hi) = self.library.extent(o.template.0 as usize);
        let at = to_display(o.pos);
        let base = self.height(at) + super::display::altitude(t.kind);
        let (size, on_grid) = self.model_scale(model, t);
        let (lo, hi) = if on_grid {
            // Structures keep the grid's orientation: unit x and y are the world's.
            (lo * size, hi * size)
        } else {
            let reach = lo.truncate().abs().max(hi.truncate().abs()).length() * model.height;
            (Vec3::new(-reach, -reach, lo.z * model.height), Vec3::new(reach, reach, hi.z * model.height))
        };
        let origin = at.extend(base);
        Some((origin + lo, origin + hi))
    }

    /// The model height of a template (0 for an unknown one).
    pub fn model_height(&self, template: crate::sim::TemplateId) -> f32 {
        self.models.get(template.0 as usize).map_or(0.0, |m| m.height)
    }

    /// The map's size in world units.
    pub fn size(&self) -> Vec2 {
        let (w, h) = self.map.file.size;
        Vec2::new(w as f32, h as f32) * self.map.file.cell_size as f32
    }

    /// Ground height at a point.
    pub fn height(&self, p: Vec2) -> f32 {
        self.ground.height(p)
    }

    /// The lowest and highest the ground goes anywhere on the map.
    pub fn ground_range(&self) -> (f32, f32) {
        self.ground_range
    }

    /// A camera over the map's start position `start` (the map's centre if there is none).
    pub fn start_camera(&self, start: usize) -> Camera {
        let cell = self.map.file.cell_size as f32;
        let at = self
            .map
            .file
            .start_positions
            .get(start)
            .map_or(self.size() / 2.0, |&(x, y)| Vec2::new(x as f32, y as f32) * cell);
        // Look a little toward the map's centre so the base and the way out are both in view.
        let toward = (self.size() / 2.0 - at).normalize_or_zero() * 60.0;
        let target = at + toward;
        Camera::looking_at(target.extend(self.height(target)))
    }

    /// The instances to draw, grouped by shape. With `previous` and `alpha` in 0..=1, moving
    /// objects are placed between their previous and current poses.
    pub fn instances(
        &self,
        world: &World,
        previous: Option<&BTreeMap<ObjectId, Pose>>,
        alpha: f32,
        viewer: Option<(PlayerId, &Shroud)>,
    ) -> Vec<Vec<ObjectInstance>> {
        let still = Lively { recoil: &BTreeMap::new(), travel: &Travels::default() };
        self.instances_lively(world, previous, alpha, viewer, still)
    }

    /// As [`Scene::instances`], with the objects in `live.recoil` (0..1: how hard) kicked back
    /// from where they aim, as a gun's recoil, and their parts moving as `live.travel` says.
    pub fn instances_lively(
        &self,
        world: &World,
        previous: Option<&BTreeMap<ObjectId, Pose>>,
        alpha: f32,
        viewer: Option<(PlayerId, &Shroud)>,
        live: Lively,
    ) -> Vec<Vec<ObjectInstance>> {
        let rules = world.rules();
        let mut out = vec![Vec::new(); self.library.len()];
        // Each player's power, once: structures that use it dim while it is low.
        let low: Vec<bool> = (0..world.players().len()).map(|p| world.power(PlayerId(p as u8)).low()).collect();
        for o in world.objects() {
            if let Some((player, shroud)) = viewer
                && !shown_to(world, o, player, shroud)
            {
                continue;
            }
            let t = rules.template(o.template);
            let mut pose = Pose { pos: to_display(o.pos), yaw: radians(o.facing), owner: o.owner };
            if let Some(before) = previous.and_then(|p| p.get(&o.id)) {
                let a = alpha.clamp(0.0, 1.0);
                pose.pos = before.pos.lerp(pose.pos, a);
                let turn = (pose.yaw - before.yaw + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU)
                    - std::f32::consts::PI;
                pose.yaw = before.yaw + turn * a;
            }
            // The turret faces what the object is shooting at, else where the body faces.
            let aim = o
                .target
                .and_then(|id| world.object(id))
                .map(|target| to_display(target.pos) - pose.pos)
                .filter(|d| d.length_squared() > 1e-3)
                .map(|d| d.y.atan2(d.x));
            let travel = live.travel.of(o.id);
            let powered = t.power >= 0 || !(o.powered_down || low.get(o.owner.index()).copied().unwrap_or(false));
            let shown = Shown {
                template: o.template,
                pos: pose.pos,
                yaw: pose.yaw,
                owner: o.owner,
                built: o.construction.map(|left| 1.0 - left as f32 / t.build_frames.max(1) as f32),
                aim,
                recoil: live.recoil.get(&o.id).copied().unwrap_or(0.0),
                health: o.health as f32 / t.max_health.max(1) as f32,
                powered,
                travelled: travel.distance_at(alpha),
                stride: travel.stride,
                turning: travel.turning * crate::sim::FRAMES_PER_SECOND as f32,
            };
            self.push_shown(&mut out, rules, &shown);
        }
        out
    }

    /// Adds the instances of one shown object to `out` (grouped by mesh): its body, its
    /// turret, and a scaffold around a structure being built.
    pub fn push_shown(&self, out: &mut [Vec<ObjectInstance>], rules: &crate::sim::rules::Rules, shown: &Shown) {
        let Some(model) = self.models.get(shown.template.0 as usize) else { return };
        let t = rules.template(shown.template);
        let Some((scale, color, team)) = self.model_look(rules, shown.template, shown.owner) else { return };
        let scale = scale.to_array();
        let ground = self.height(shown.pos) + super::display::altitude(t.kind);
        // Structures and scenery keep the map's grid orientation.
        let yaw = if t.kind.blocks_ground() { std::f32::consts::FRAC_PI_2 } else { shown.yaw };
        // A construction site: a scaffold, and the building rising inside it.
        // A construction site: a scaffold, the building rising inside it in stages (the shader
        // cuts it at the height built).
        if shown.built.is_some()
            && let Some(list) = out.get_mut(SCAFFOLD)
        {
            let around = [scale[0] * 1.04, scale[1] * 1.04, scale[2]];
            let offset = shown.pos.extend(ground).to_array();
            list.push(ObjectInstance::still(offset, yaw, around, SCAFFOLD_COLOR, SCAFFOLD_COLOR));
        }
        let meshes = self.library.of(shown.template.0 as usize);
        // A gun's kick: the turret (or a whole unit without one) pushed back from its aim.
        let kick_dir = shown.aim.unwrap_or(yaw);
        let kick = Vec2::from_angle(kick_dir) * -(shown.recoil.clamp(0.0, 1.0) * 0.08 * model.height.min(12.0));
        let body_kick = if meshes.turret.is_none() && !t.kind.blocks_ground() { kick } else { Vec2::ZERO };
        let height = model.height.max(0.1);
        let stage = if matches!(model.shape, Shape::Prop) { DamageStage::Whole } else { DamageStage::of(shown.health) };
        let motion = [
            shown.travelled / height,
            shown.stride,
            shown.recoil.clamp(0.0, 1.0),
            if shown.aim.is_some() { 1.0 } else { 0.0 },
        ];
        let cut = shown.built.map_or(1.0, pose::construction_cut);
        // Spinning parts start at a phase of their own.
        let phase = (shown.pos.x * 0.13 + shown.pos.y * 0.07).fract() * 6.0;
        let state = [stage as u8 as f32, if shown.powered { 1.0 } else { 0.0 }, cut, phase];
        let tilt = |yaw: f32| match model.shape {
            Shape::Helicopter => {
                let (roll, pitch) = pose::lean(shown.turning, shown.stride);
                pose::tilt(roll, pitch)
            }
            Shape::Wheeled | Shape::Tank if !t.kind.blocks_ground() => self.ground_tilt(shown.pos, yaw, height * 0.6),
            _ => pose::LEVEL,
        };
        let instance = ObjectInstance {
            offset: (shown.pos + body_kick).extend(ground).to_array(),
            yaw,
            scale,
            color: color.to_array(),
            team: team.to_array(),
            motion,
            state,
            tilt: tilt(yaw),
        };
        if let Some(list) = out.get_mut(meshes.body) {
            list.push(instance);
        }
        if let Some(list) = meshes.turret.and_then(|m| out.get_mut(m)) {
            let offset = (shown.pos + kick).extend(ground).to_array();
            let aim = shown.aim.unwrap_or(yaw);
            list.push(ObjectInstance { yaw: aim, offset, tilt: tilt(aim), ..instance });
        }
    }

    /// How `template`'s model of `owner` is drawn: its unit space's stretch on the
    /// battlefield, and the linear colours of its own parts and of those in the owner's colour.
    pub fn model_look(
        &self,
        rules: &crate::sim::rules::Rules,
        template: crate::sim::TemplateId,
        owner: PlayerId,
    ) -> Option<(Vec3, Vec3, Vec3)> {
        let model = self.models.get(template.0 as usize)?;
        let scale = self.model_scale(model, rules.template(template)).0;
        let base = srgb_to_linear(Vec3::new(model.color.0, model.color.1, model.color.2));
        let (color, team) = match self.colors.get(owner.index()).and_then(|&c| PLAYER_COLORS.get(c)) {
            Some(&p) if owner != PlayerId::NEUTRAL => {
                let p = Vec3::from_array(p);
                // A hint of the owner on the body: the faction's own palette stays readable
                // (the owner shows in full on the parts that wear it).
                (base.lerp(p, BODY_TINT), p)
            }
            _ => (base, base),
        };
        Some((scale, color, team))
    }

    /// The roll and pitch of a vehicle facing `yaw` at `at` on the ground, from the heights
    /// `reach` ahead, behind and to each side.
    fn ground_tilt(&self, at: Vec2, yaw: f32, reach: f32) -> [f32; 4] {
        let forward = Vec2::from_angle(yaw) * reach;
        let right = Vec2::new(forward.y, -forward.x);
        let along = (self.height(at + forward) - self.height(at - forward)) / (2.0 * reach);
        let across = (self.height(at + right) - self.height(at - right)) / (2.0 * reach);
        let (roll, pitch) = pose::slope_tilt(along, across);
        pose::tilt(roll, pitch)
    }
}

/// One object as the picture shows it (from a snapshot, interpolated; or made up by a tool).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shown {
    /// What it is.
    pub template: crate::sim::TemplateId,
    /// Where it stands (display units).
    pub pos: Vec2,
    /// Its facing, radians counter-clockwise from east.
    pub yaw: f32,
    /// Whose it is.
    pub owner: PlayerId,
    /// A structure being built: the share done (0..1).
    pub built: Option<f32>,
    /// Where its turret points (radians), if at a target.
    pub aim: Option<f32>,
    /// How hard its gun has just kicked back (0: at rest, 1: the moment it fired).
    pub recoil: f32,
    /// Its health, as a share of its most (0..1): the damage stage shown.
    pub health: f32,
    /// False for a structure that uses power its owner lacks (or powered down): dimmed.
    pub powered: bool,
    /// World units it has travelled (legs, wheels and tracks follow it).
    pub travelled: f32,
    /// Its share of top speed (0..1): how far legs swing, how far a helicopter dips.
    pub stride: f32,
    /// How fast it turns, radians a second (counter-clockwise positive).
    pub turning: f32,
}

impl Shown {
    /// `template` of `owner` standing whole at `pos` facing `yaw`: at rest, finished, powered.
    pub fn standing(template: crate::sim::TemplateId, pos: Vec2, yaw: f32, owner: PlayerId) -> Shown {
        Shown {
            template,
            pos,
            yaw,
            owner,
            built: None,
            aim: None,
            recoil: 0.0,
            health: 1.0,
            powered: true,
            travelled: 0.0,
            stride: 0.0,
            turning: 0.0,
        }
    }
}

/// The display state that moves objects' parts: guns' recoil and how each has been moving.
#[derive(Clone, Copy, Debug)]
pub struct Lively<'a> {
    /// Guns that just fired: how hard each still kicks (1 at the shot, fading to 0).
    pub recoil: &'a BTreeMap<ObjectId, f32>,
    /// How each object has been moving.
    pub travel: &'a Travels,
}
