//! Wreck debris: when a vehicle, aircraft or structure is destroyed where the local player
//! sees, a few parts of its own model kit are thrown from where they sat on it — its loose
//! parts (a turret, a barrel, a wheel, a mast) whole but small, the rest as bent panels torn
//! from them (a thin sheet folded along its middle) — in the faction's own colours singed and
//! greyed, not black; they tumble, bounce on the ground, settle on a face and sink away, each
//! throwing sparks. How many follows the graphics quality, and how fast, how far and
//! how long `data/effects.ron` (`wreck_parts`). Display state made from the tick's `Killed`
//! events, drawn as model instances of the library's loose-piece meshes.
//!
//! Must not: touch the world (the parts block nothing and the game never hears of them), or
//! use the game's RNG (its randomness is the particles').

use std::collections::BTreeMap;

use glam::{Vec2, Vec3};

use crate::render::world::ObjectInstance;
use crate::render::world::models::piece_mesh;
use crate::render::world::models::pieces::{PartPiece, PieceShape};
use crate::render::world::pose;
use crate::sim::World;
use crate::sim::event::GameEvent;
use crate::sim::ids::ObjectId;
use crate::sim::rules::ObjectKind;

use super::super::display::{altitude, to_display};
use super::super::scene::{Pose, Scene};
use super::super::shroud::{self, Shroud};
use super::particles::{GRAVITY, Kind, Particle, Particles};

/// Most pieces alive at once (the oldest go first).
const MAX_PIECES: usize = 240;
/// The largest a thrown loose part is along any side (world units).
const LARGEST_PIECE: f32 = 5.0;
/// The largest a torn panel is along any side (world units): a structure's wall breaks into
/// sheets no bigger.
const LARGEST_PANEL: f32 = 4.0;
/// How high a panel is folded along its middle, a share of its width.
const PANEL_FOLD: f32 = 0.28;
/// Below this speed (world units a second) a bouncing piece comes to rest.
const REST_SPEED: f32 = 4.0;
/// How much of its colour a thrown part keeps (the shader scorches it in patches besides).
const SINGED: f32 = 0.75;
/// How far the owner's paint on a thrown part has burnt toward soot.
const PAINT_SINGED: f32 = 0.5;
/// How far a thrown part's colour is greyed.
const GREYED: f32 = 0.3;

/// How a destroyed object stood and was drawn, for the parts it throws.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Body {
    /// Its foot on the battlefield.
    pub origin: Vec3,
    /// Its facing, radians counter-clockwise from east.
    pub yaw: f32,
    /// Its unit space's stretch on the battlefield.
    pub scale: Vec3,
    /// Linear colours of its own parts and of those in its owner's colour.
    pub color: Vec3,
    /// See `color`.
    pub team: Vec3,
}

/// One thrown part.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Piece {
    /// The library's mesh it is drawn with.
    pub mesh: usize,
    /// Its middle.
    pub pos: Vec3,
    vel: Vec3,
    /// Its facing, roll and pitch (radians), and how fast each turns.
    turn: Vec3,
    spin: Vec3,
    /// Its size along the mesh's axes (world units).
    pub size: Vec3,
    color: Vec3,
    /// The ground it falls to.
    ground: f32,
    /// Seconds since it was thrown.
    pub age: f32,
    /// Resting on the ground.
    pub resting: bool,
}

impl Piece {
    /// Half its height as it is turned now: how far its middle stays above the ground.
    fn half_height(&self) -> f32 {
        let (sr, cr) = self.turn.y.sin_cos();
        let (sp, cp) = self.turn.z.sin_cos();
        // The mesh's z row after pitch, then roll (as the shader turns it).
        0.5 * (sr.abs() * self.size.x + (sp * cr).abs() * self.size.y + (cp * cr).abs() * self.size.z)
    }
}

impl Piece {
    /// The roll and pitch nearest its own that lay it on its broadest face (its thinnest side
    /// upright).
    fn lying_flat(&self) -> (f32, f32) {
        use std::f32::consts::{FRAC_PI_2, PI};
        // The nearest whole and the nearest odd multiple of a quarter turn.
        let level = |a: f32| (a / PI).round() * PI;
        let on_side = |a: f32| FRAC_PI_2 + ((a - FRAC_PI_2) / PI).round() * PI;
        let (roll, pitch) = (self.turn.y, self.turn.z);
        let s = self.size;
        if s.x <= s.y && s.x <= s.z {
            (on_side(roll), level(pitch))
        } else if s.y <= s.z {
            (level(roll), on_side(pitch))
        } else {
            (level(roll), level(pitch))
        }
    }
}

/// A panel torn from a part `whole` big (world units), `draw` in 0..1 saying how much of it:
/// a sheet across its two broadest sides, folded along its middle, no larger than
/// `LARGEST_PANEL`.
fn panel(whole: Vec3, draw: f32) -> Vec3 {
    let mut sides = whole.to_array();
    sides.sort_by(|a, b| b.total_cmp(a));
    let (long, wide) = (sides[0] * (0.45 + 0.3 * draw), sides[1] * (0.5 + 0.3 * (1.0 - draw)));
    let (long, wide) = (long.max(wide), long.min(wide));
    let shrink = (LARGEST_PANEL / long).min(1.0);
    let (long, wide) = (long * shrink, (wide * shrink).max(long * shrink * 0.35));
    Vec3::new(wide, long, wide * PANEL_FOLD)
}

/// A thrown part's colour (`color` its own parts', `team` its owner's, linear): the faction's
/// colour singed and greyed, the owner's paint partly burnt — still its own colours, not black.
fn singed(part: &PartPiece, color: Vec3, team: Vec3) -> Vec3 {
    let paint = if part.team { team.lerp(pose::SOOT, PAINT_SINGED) } else { color };
    pose::greyed(paint, GREYED) * part.shade.clamp(0.6, 1.1) * SINGED
}

/// The thrown parts on the battlefield.
#[derive(Clone, Debug, Default)]
pub(super) struct Debris {
    pub list: Vec<Piece>,
}

impl Debris {
    /// Throws parts of each vehicle, aircraft and structure the local player saw destroyed
    /// (`before`: the poses before the frame, where each stood and faced).
    pub fn note(
        &mut self,
        events: &[GameEvent],
        scene: &Scene,
        world: &World,
        before: &BTreeMap<ObjectId, Pose>,
        sight: &Shroud,
        particles: &mut Particles,
    ) {
        if particles.quality().wreck_parts == 0 {
            return;
        }
        let rules = world.rules();
        for e in events {
            let GameEvent::Killed { object, template, owner, at } = *e else { continue };
            let kind = rules.template(template).kind;
            if !matches!(kind, ObjectKind::Vehicle | ObjectKind::Aircraft | ObjectKind::Structure) {
                continue;
            }
            let pose = before.get(&object);
            let pos = pose.map_or(to_display(at), |p| p.pos);
            if sight.at(pos) != shroud::VISIBLE {
                continue;
            }
            let Some((scale, color, team)) = scene.model_look(rules, template, owner) else { continue };
            // Structures keep the grid's orientation (as the scene draws them).
            let yaw = if kind.blocks_ground() { std::f32::consts::FRAC_PI_2 } else { pose.map_or(0.0, |p| p.yaw) };
            let origin = pos.extend(scene.height(pos) + altitude(kind));
            let body = Body { origin, yaw, scale, color, team };
            let parts = scene.library.parts.get(template.0 as usize).cloned().unwrap_or_else(|| [].into());
            self.throw(&parts, body, scene.height(pos), particles);
        }
    }

    /// Throws up to the quality's number of `parts` (a kit's, as loose pieces) from `body`,
    /// landing on `ground`; the loose ones (turret, guns, masts) first, the rest at random, as
    /// bent panels; wheels stay on the hulk.
    pub fn throw(&mut self, parts: &[PartPiece], body: Body, ground: f32, particles: &mut Particles) {
        let settings = particles.settings().wreck_parts;
        let most = particles.quality().wreck_parts as usize;
        // Each part's draw: loose parts ahead of the rest, then at random. Wheels stay on the
        // hulk (thrown, they read as black discs).
        let mut order: Vec<(f32, &PartPiece)> = parts
            .iter()
            .filter(|p| !p.lying)
            .map(|p| (particles.random() + if p.loose { 1.0 } else { 0.0 }, p))
            .collect();
        order.sort_by(|a, b| b.0.total_cmp(&a.0));
        let (sy, cy) = body.yaw.sin_cos();
        // Unit space to the world, as the shader places a model: forward is the facing.
        let place = |p: Vec3| Vec3::new(p.x * sy + p.y * cy, -p.x * cy + p.y * sy, p.z);
        for (_, part) in order.into_iter().take(most) {
            let middle = (part.lo + part.hi) / 2.0 * body.scale;
            let pos = body.origin + place(middle);
            let whole =
                part.size() * if part.lying { Vec3::new(body.scale.y, body.scale.z, body.scale.x) } else { body.scale };
            let (mesh, size) = if part.loose {
                (piece_mesh(part.shape), whole * (LARGEST_PIECE / whole.max_element()).min(1.0))
            } else {
                (piece_mesh(PieceShape::Wedge), panel(whole, particles.random()))
            };
            // Out from the middle of the body, and up.
            let out =
                place(middle).truncate().try_normalize().unwrap_or_else(|| Vec2::from_angle(particles.random() * 6.3));
            let (least, fastest) = settings.throw;
            let up = least + particles.random() * (fastest - least);
            let vel = (out * up * (0.3 + particles.random() * 0.4)).extend(up);
            let turns = settings.spin * std::f32::consts::TAU;
            let mut spin = || (particles.random() * 2.0 - 1.0) * turns;
            let spin = Vec3::new(spin(), spin(), spin());
            let roll = if part.lying { std::f32::consts::FRAC_PI_2 } else { 0.0 };
            let color = singed(part, body.color, body.team);
            if self.list.len() >= MAX_PIECES {
                self.list.remove(0);
            }
            self.list.push(Piece {
                mesh,
                pos,
                vel,
                turn: Vec3::new(body.yaw, roll, 0.0),
                spin,
                size,
                color,
                ground,
                age: 0.0,
                resting: false,
            });
            for _ in 0..settings.sparks {
                let d =
                    Vec2::from_angle(particles.random() * std::f32::consts::TAU) * (8.0 + particles.random() * 14.0);
                let (up, life) = (10.0 + particles.random() * 18.0, 0.6 + particles.random() * 0.8);
                particles.push(Particle {
                    kind: Kind::Spark,
                    pos,
                    vel: d.extend(up),
                    age: 0.0,
                    life: settings.spark_seconds * life,
                    size: (0.45, 0.2),
                    color: settings.spark_colour,
                    alpha: 1.0,
                });
            }
        }
    }

    /// Lets `dt` seconds pass: pieces fly and tumble, bounce, settle on a face, then sink away
    /// (`settings`: how long they lie and sink, and their bounce).
    pub fn age(&mut self, dt: f32, particles: &Particles) {
        let s = particles.settings().wreck_parts;
        let (lie, sink) = s.seconds;
        for p in &mut self.list {
            p.age += dt;
            if !p.resting {
                p.vel.z -= GRAVITY * dt;
                p.pos += p.vel * dt;
                p.turn += p.spin * dt;
                let floor = p.ground + p.half_height();
                if p.pos.z < floor {
                    p.pos.z = floor;
                    if p.vel.z < 0.0 {
                        p.vel = Vec3::new(p.vel.x * 0.5, p.vel.y * 0.5, -p.vel.z * s.bounce);
                        p.spin *= 0.5;
                    }
                    if p.vel.length() < REST_SPEED {
                        p.resting = true;
                    }
                }
            } else {
                // Topples onto its broadest face.
                let (roll, pitch) = p.lying_flat();
                let k = (dt * 10.0).min(1.0);
                p.turn.y += (roll - p.turn.y) * k;
                p.turn.z += (pitch - p.turn.z) * k;
                p.pos.z = p.ground + p.half_height() - p.size.max_element() * ((p.age - lie) / sink).clamp(0.0, 1.0);
            }
        }
        self.list.retain(|p| p.age < lie + sink);
    }

    /// The pieces as model instances of the loose-piece meshes: scorched, tumbling.
    pub fn instances(&self, out: &mut [Vec<ObjectInstance>]) {
        for p in &self.list {
            let Some(list) = out.get_mut(p.mesh) else { continue };
            let color = p.color.to_array();
            let mut i = ObjectInstance::still(p.pos.to_array(), p.turn.x, p.size.to_array(), color, color);
            // Scorched (the first damage stage's patches), turned by its roll and pitch.
            i.state[0] = 1.0;
            i.tilt = pose::tilt(p.turn.y, p.turn.z);
            list.push(i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defs::ModelDef;
    use crate::defs::model::Shape;
    use crate::render::quality::Quality;
    use crate::render::world::models::ModelLibrary;
    use crate::render::world::models::pieces::PIECE_SHAPES;

    /// The battle tank's kit as loose pieces, from the game's data/models.ron.
    fn tank_parts() -> std::sync::Arc<[PartPiece]> {
        let kits = crate::defs::model_kits::ModelKits::shipped();
        let tank = ModelDef { shape: Shape::Tank, color: (0.5, 0.5, 0.5), height: 8.0, kit: Some("BattleTank".into()) };
        ModelLibrary::build(&[tank], &kits).parts[0].clone()
    }

    fn body() -> Body {
        let (color, team) = (Vec3::new(0.3, 0.3, 0.3), Vec3::new(0.8, 0.1, 0.1));
        Body { origin: Vec3::new(100.0, 100.0, 5.0), yaw: 0.7, scale: Vec3::splat(8.0), color, team }
    }

    #[test]
    fn a_wreck_throws_parts_of_its_own_kit_as_many_as_the_quality_allows_guns_and_wheels_first() {
        let parts = tank_parts();
        assert!(parts.len() > 5 && parts.iter().any(|p| p.loose));
        let fx = crate::defs::effects::game_settings();
        for (quality, want) in [(Quality::Low, 1), (Quality::Medium, 3), (Quality::High, 5)] {
            assert_eq!(
                super::super::particles::kept_at(&fx, quality).wreck_parts,
                want,
                "data/effects.ron at {quality}"
            );
            let mut particles = super::super::particles::fresh();
            particles.set_quality(quality);
            let before = particles.len();
            let mut debris = Debris::default();
            debris.throw(&parts, body(), 5.0, &mut particles);
            assert_eq!(debris.list.len(), want as usize, "{quality}");
            for piece in &debris.list {
                // Each piece is one of the kit's loose parts, at the model's scale (no larger
                // than LARGEST_PIECE) on its shape's mesh, or a bent panel torn from another.
                let capped = |p: &PartPiece| {
                    let s = p.size() * 8.0;
                    s * (LARGEST_PIECE / s.max_element()).min(1.0)
                };
                let loose = parts
                    .iter()
                    .any(|p| p.loose && piece.mesh == piece_mesh(p.shape) && (capped(p) - piece.size).length() < 1e-3);
                let panel = piece.mesh == piece_mesh(PieceShape::Wedge)
                    && piece.size.max_element() <= LARGEST_PANEL + 1e-4
                    && piece.size.z <= piece.size.x * PANEL_FOLD + 1e-4;
                assert!(loose || panel, "{piece:?} is no part of the kit");
                assert!(PIECE_SHAPES.iter().any(|&s| piece_mesh(s) == piece.mesh));
                assert!(piece.vel.z > 0.0, "thrown up");
            }
            // The loose parts (turret, barrel, wheels) go first.
            let loose = |p: &Piece| {
                parts.iter().any(|q| {
                    let s = q.size() * 8.0;
                    q.loose && (s * (LARGEST_PIECE / s.max_element()).min(1.0) - p.size).length() < 1e-3
                })
            };
            assert!(loose(&debris.list[0]), "{quality}: the first part thrown is a loose one");
            let sparks = (particles.len() - before) as f32;
            let made = (want * fx.wreck_parts.sparks) as f32;
            let share = super::super::particles::kept_at(&fx, quality).percent as f32 / 100.0;
            assert!((sparks - made * share).abs() <= 1.0, "{quality}: {sparks} sparks of {made}");
        }
        // A quality that throws none.
        let mut none = fx.clone();
        none.quality.low.wreck_parts = 0;
        let mut particles = Particles::new(std::sync::Arc::new(none));
        particles.set_quality(Quality::Low);
        let mut debris = Debris::default();
        debris.throw(&parts, body(), 5.0, &mut particles);
        assert!(debris.list.is_empty());
    }

    #[test]
    fn thrown_parts_keep_the_factions_colours_singed_not_black_and_panels_are_thin_bent_sheets() {
        let part = |team, loose| PartPiece {
            shape: PieceShape::Block,
            lo: Vec3::ZERO,
            hi: Vec3::new(1.0, 0.6, 0.3),
            lying: false,
            shade: 1.0,
            team,
            loose,
        };
        let (own, red) = (Vec3::new(0.45, 0.3, 0.2), Vec3::new(0.8, 0.1, 0.1));
        let hue = |c: Vec3| c.x - c.y.max(c.z);
        let t = singed(&part(true, false), own, red);
        assert!(hue(t) > hue(red) * 0.2, "the owner's red still shows: {t}");
        assert!(t.max_element() < red.max_element() * 0.8, "singed darker: {t}");
        let o = singed(&part(false, false), own, red);
        assert!(hue(o) > 0.0 && o.max_element() > own.max_element() * 0.6, "its own colour, not black: {o}");
        // A panel: a sheet no bigger than LARGEST_PANEL, thin, folded along its length.
        for draw in [0.0, 0.5, 1.0] {
            let p = panel(Vec3::new(24.0, 30.0, 10.0), draw);
            assert!(p.max_element() <= LARGEST_PANEL + 1e-4 && p.y >= p.x, "{p}");
            assert!(p.z <= p.x * PANEL_FOLD + 1e-5 && p.z > 0.0, "{p}");
        }
        // Thrown, a torn panel flies on the wedge (the folded sheet), a loose part on its own.
        let mut particles = super::super::particles::fresh();
        particles.set_quality(Quality::High);
        let mut debris = Debris::default();
        debris.throw(&[part(true, false), part(false, true)], body(), 5.0, &mut particles);
        let meshes: Vec<usize> = debris.list.iter().map(|p| p.mesh).collect();
        assert_eq!(meshes, [piece_mesh(PieceShape::Block), piece_mesh(PieceShape::Wedge)]);
    }

    #[test]
    fn thrown_parts_fall_bounce_come_to_rest_on_the_ground_and_are_all_gone_after_their_time() {
        let parts = tank_parts();
        let mut particles = super::super::particles::fresh();
        let mut debris = Debris::default();
        debris.throw(&parts, body(), 5.0, &mut particles);
        let n = debris.list.len();
        let highest = |d: &Debris| d.list.iter().map(|p| p.pos.z).fold(f32::MIN, f32::max);
        let start = highest(&debris);
        let mut rose = false;
        let (lie, sink) = particles.settings().wreck_parts.seconds;
        let mut t = 0.0;
        while t < lie - 0.1 {
            debris.age(0.02, &particles);
            t += 0.02;
            rose |= highest(&debris) > start + 1.0;
            for p in &debris.list {
                assert!(p.pos.z >= 5.0 + p.half_height() - 1e-3, "{p:?} went through the ground");
            }
        }
        assert!(rose, "parts fly up before they fall");
        assert_eq!(debris.list.len(), n, "all still there before their time");
        for p in &debris.list {
            assert!(p.resting, "{p:?} came to rest");
            let least = p.size.min_element();
            assert!((p.half_height() * 2.0 - least).abs() < 0.05, "{p:?} lies on its broadest face");
        }
        let mut out = vec![Vec::new(); piece_mesh(PIECE_SHAPES[3]) + 1];
        debris.instances(&mut out);
        assert_eq!(out.iter().map(Vec::len).sum::<usize>(), n, "drawn as one instance each");
        let mut left = sink + 0.2;
        while left > 0.0 {
            debris.age(0.05, &particles);
            left -= 0.05;
        }
        assert!(debris.list.is_empty(), "sunk away");
    }
}
