//! Rubble: what is left where a structure was destroyed — its own kit broken up: a low,
//! uneven bed of scorched slabs over its footprint, and the pieces of its walls, roofs, towers
//! and tanks lying on it, shrunk, tipped and half sunk, in its burnt colours — drawn for the
//! rest of the battle where the local player saw it fall, and cleared when a new structure is
//! placed over it.
//!
//! Rubble is display state made from the tick's `Killed` events; the simulation never sees it
//! (the ground is free to walk and build on at once). How each heap lies is drawn from a hash
//! of where it stands, so the same fall always leaves the same heap.
//! Must not: read anything but the events, the rules' footprints and the structure's look, or
//! draw where the local player did not see the structure fall.

use glam::{Vec2, Vec3};

use crate::render::world::ObjectInstance;
use crate::render::world::models::piece_mesh;
use crate::render::world::models::pieces::{PartPiece, PieceShape};
use crate::render::world::pose;
use crate::sim::World;
use crate::sim::event::GameEvent;
use crate::sim::ids::{PlayerId, TemplateId};
use crate::sim::rules::ObjectKind;

use super::super::display::to_display;
use super::super::shroud::{self, Shroud};

/// Most rubble heaps kept (the oldest go first).
const MAX_HEAPS: usize = 256;
/// Slabs in a heap's bed.
const SLABS: u32 = 6;
/// Small chips about a heap's edge.
const CHIPS: u32 = 8;
/// Most pieces of the kit lying on a heap (the biggest parts first).
const MOST_PIECES: usize = 10;
/// The bed's colour (linear RGB): scorched concrete and earth.
const BED: [f32; 3] = [0.075, 0.066, 0.056];
/// How much of its colour a burnt piece keeps.
const BURNT: f32 = 0.42;
/// The largest a piece lies along any side, over the footprint's larger side.
const LARGEST: f32 = 0.38;

/// How a destroyed structure was drawn: its kit as loose pieces, its unit space's stretch on
/// the battlefield and its colours (linear).
#[derive(Clone, Debug)]
pub(super) struct Look {
    /// Its kit's parts (none without a kit: then only the bed is left).
    pub parts: std::sync::Arc<[PartPiece]>,
    /// Unit space to world units.
    pub scale: Vec3,
    /// Its own parts' colour.
    pub color: Vec3,
    /// Its owner-coloured parts' colour.
    pub team: Vec3,
}

/// One piece of a heap, as drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Stone {
    /// The library's mesh it is drawn with.
    pub mesh: usize,
    /// Its middle.
    pub pos: Vec3,
    /// Facing, roll and pitch (radians).
    pub turn: Vec3,
    /// Its size along the mesh's axes (world units).
    pub size: Vec3,
    /// Linear RGB.
    pub color: Vec3,
}

/// One destroyed structure's remains.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Heap {
    /// Centre, display units.
    pub at: Vec2,
    /// Footprint size, display units.
    pub size: Vec2,
    /// The bed and the pieces on it.
    pub stones: Vec<Stone>,
}

/// Every heap on the battlefield.
#[derive(Clone, Debug, Default)]
pub(super) struct Rubble {
    pub heaps: Vec<Heap>,
}

impl Rubble {
    /// Adds a heap for each structure destroyed in sight, as `look` says it was drawn and on
    /// the ground `height` gives, and clears heaps under each new construction site.
    pub fn note(
        &mut self,
        events: &[GameEvent],
        world: &World,
        cell: f32,
        sight: &Shroud,
        look: impl Fn(TemplateId, PlayerId) -> Option<Look>,
        height: impl Fn(Vec2) -> f32,
    ) {
        let rules = world.rules();
        let size_of = |t: TemplateId| {
            let fp = rules.template(t).footprint;
            Vec2::new(fp.0 as f32, fp.1 as f32) * cell
        };
        for e in events {
            match *e {
                GameEvent::Killed { template, owner, at, .. }
                    if rules.template(template).kind == ObjectKind::Structure =>
                {
                    let at = to_display(at);
                    if sight.at(at) == shroud::VISIBLE {
                        if self.heaps.len() >= MAX_HEAPS {
                            self.heaps.remove(0);
                        }
                        self.heaps.push(Heap::lay(at, size_of(template), height(at), look(template, owner).as_ref()));
                    }
                }
                GameEvent::ConstructionStarted { template, at, .. } => {
                    let (at, size) = (to_display(at), size_of(template));
                    self.heaps.retain(|h| {
                        let d = (h.at - at).abs();
                        d.x * 2.0 >= h.size.x + size.x || d.y * 2.0 >= h.size.y + size.y
                    });
                }
                _ => {}
            }
        }
    }

    /// The heaps as model instances of the loose-piece meshes, scorched.
    pub fn instances(&self, out: &mut [Vec<ObjectInstance>]) {
        for s in self.heaps.iter().flat_map(|h| &h.stones) {
            let Some(list) = out.get_mut(s.mesh) else { continue };
            let color = s.color.to_array();
            let mut i = ObjectInstance::still(s.pos.to_array(), s.turn.x, s.size.to_array(), color, color);
            // Scorched (the first damage stage's patches), tipped by its roll and pitch.
            i.state[0] = 1.0;
            i.tilt = pose::tilt(s.turn.y, s.turn.z);
            list.push(i);
        }
    }
}

/// A part's colour after a fire (`color` its own parts', `team` its owner's): greyed, the
/// owner's paint mostly charred away, at the part's shade. Callers darken it as they need.
pub(super) fn charred(part: &PartPiece, color: Vec3, team: Vec3) -> Vec3 {
    let paint = if part.team { team.lerp(Vec3::from_array(BED), 0.6) } else { color };
    let grey = Vec3::splat(paint.dot(Vec3::new(0.2126, 0.7152, 0.0722)));
    paint.lerp(grey, 0.5) * part.shade
}

/// A small display-only random stream from a place (any spread will do; never the game's RNG).
struct Draw(u32);

impl Draw {
    fn at(p: Vec2) -> Draw {
        Draw((p.x * 13.0) as i32 as u32 ^ ((p.y * 7.0) as i32 as u32).wrapping_mul(0x9E37_79B9) | 1)
    }

    /// The next number in 0..1.
    fn next(&mut self) -> f32 {
        // xorshift32
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        (self.0 >> 8) as f32 / (1 << 24) as f32
    }

    /// The next number in -1..1.
    fn signed(&mut self) -> f32 {
        self.next() * 2.0 - 1.0
    }
}

impl Heap {
    /// The heap a structure of footprint `size` leaves at `at` on ground at `ground`: the bed,
    /// then the biggest of its kit's parts (`look`) broken down and lying on it.
    pub fn lay(at: Vec2, size: Vec2, ground: f32, look: Option<&Look>) -> Heap {
        let mut draw = Draw::at(at);
        let mut stones = Vec::new();
        // The bed: overlapping low slabs turned every way, so no straight footprint edge shows.
        for _ in 0..SLABS {
            let middle = at + Vec2::new(draw.signed() * 0.22 * size.x, draw.signed() * 0.22 * size.y);
            let side = size * (0.42 + 0.2 * draw.next());
            let tall = 0.35 + 0.6 * draw.next();
            let shade = 0.75 + 0.5 * draw.next();
            stones.push(Stone {
                mesh: piece_mesh(PieceShape::Block),
                pos: middle.extend(ground + tall * 0.35),
                turn: Vec3::new(draw.next() * std::f32::consts::TAU, draw.signed() * 0.05, draw.signed() * 0.05),
                size: side.extend(tall),
                color: Vec3::from_array(BED) * shade,
            });
        }
        // Chips thrown about its edge, so the bed's outline breaks up.
        for k in 0..CHIPS {
            let round = (k as f32 + draw.next()) / CHIPS as f32 * std::f32::consts::TAU;
            let out = Vec2::from_angle(round) * size * (0.3 + 0.18 * draw.next());
            let side = 0.8 + 1.6 * draw.next();
            let shape = if draw.next() < 0.5 { PieceShape::Block } else { PieceShape::Wedge };
            stones.push(Stone {
                mesh: piece_mesh(shape),
                pos: (at + out).extend(ground + side * 0.3),
                turn: Vec3::new(draw.next() * std::f32::consts::TAU, draw.signed() * 0.4, draw.signed() * 0.4),
                size: Vec3::new(side, side * (0.6 + 0.5 * draw.next()), side * 0.6),
                color: Vec3::from_array(BED) * (1.1 + 0.6 * draw.next()),
            });
        }
        let Some(look) = look else { return Heap { at, size, stones } };
        // The biggest parts first: the walls and roofs make the heap, trims are lost in it.
        let mut parts: Vec<&PartPiece> = look.parts.iter().collect();
        let volume = |p: &PartPiece| (p.size() * look.scale).element_product();
        parts.sort_by(|a, b| volume(b).total_cmp(&volume(a)));
        let largest = size.max_element() * LARGEST;
        for part in parts.into_iter().take(MOST_PIECES) {
            let middle = (part.lo + part.hi) / 2.0 * look.scale;
            // Broken: a half to a fifth of the part, never taller than it is wide.
            let mut piece = part.size() * look.scale * (0.25 + 0.3 * draw.next());
            piece *= (largest / piece.max_element()).min(1.0);
            piece.z = piece.z.min(piece.x.max(piece.y));
            // Where it stood, fallen in toward the middle, a little astray.
            let lie = middle.truncate() * 0.7 + Vec2::new(draw.signed(), draw.signed()) * size * 0.12;
            let lie = lie.clamp(-size * 0.4, size * 0.4);
            // Tipped over a little, or onto its side.
            let (roll, pitch) = if draw.next() < 0.25 {
                (std::f32::consts::FRAC_PI_2, draw.signed() * 0.3)
            } else {
                (draw.signed() * 0.35, draw.signed() * 0.35)
            };
            let upright = if roll.abs() > 1.0 { piece.x } else { piece.z };
            let colour = charred(part, look.color, look.team) * BURNT;
            stones.push(Stone {
                mesh: piece_mesh(part.shape),
                // Half sunk into the bed.
                pos: (at + lie).extend(ground + 0.6 + upright * 0.25),
                turn: Vec3::new(draw.next() * std::f32::consts::TAU, roll, pitch),
                size: piece,
                color: colour,
            });
        }
        Heap { at, size, stones }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defs::ModelDef;
    use crate::defs::model::Shape;
    use crate::render::world::models::ModelLibrary;
    use crate::sim::ids::{ObjectId, PlayerId, TemplateId};
    use crate::sim::test_support;
    use crate::sim::vector::Vec2 as SimVec2;

    fn killed(template: u16, x: i64, y: i64) -> GameEvent {
        GameEvent::Killed {
            object: ObjectId { index: 90, generation: 0 },
            template: TemplateId(template),
            owner: PlayerId(1),
            at: SimVec2::from_int(x, y),
        }
    }

    /// The Barracks' kit as loose pieces, from the game's data/models.ron, drawn 30 × 30 × 14.
    fn barracks() -> Look {
        let kits = crate::defs::model_kits::ModelKits::shipped();
        let model =
            ModelDef { shape: Shape::Building, color: (0.5, 0.5, 0.5), height: 14.0, kit: Some("Barracks".into()) };
        let parts = ModelLibrary::build(&[model], &kits).parts[0].clone();
        Look {
            parts,
            scale: Vec3::new(30.0, 30.0, 14.0),
            color: Vec3::new(0.4, 0.4, 0.45),
            team: Vec3::new(0.1, 0.2, 0.8),
        }
    }

    #[test]
    fn a_structure_seen_to_fall_leaves_a_heap_until_something_is_built_over_it() {
        // test_support: template 0 a unit, 2 a 3×3 block; cells of 10.
        let world = test_support::world(64, vec![]);
        let mut dark = Shroud::new(64, 64, 10.0);
        let mut rubble = Rubble::default();
        let (no_look, flat) = (|_: TemplateId, _: PlayerId| None, |_: Vec2| 5.0);
        rubble.note(&[killed(2, 200, 200)], &world, 10.0, &dark, no_look, flat);
        assert!(rubble.heaps.is_empty(), "not seen, not drawn");
        dark.reveal_all();
        rubble.note(&[killed(2, 200, 200), killed(0, 300, 300)], &world, 10.0, &dark, no_look, flat);
        assert_eq!(rubble.heaps.len(), 1, "units leave none");
        let heap = &rubble.heaps[0];
        assert_eq!((heap.at, heap.size), (Vec2::new(200.0, 200.0), Vec2::new(30.0, 30.0)));
        assert_eq!(heap.stones.len(), (SLABS + CHIPS) as usize, "without a kit, the bed and its chips alone");
        assert!(heap.stones.iter().all(|s| s.pos.z > 5.0 && s.pos.z < 6.0), "on the ground it stands on");
        let site = |x, y| GameEvent::ConstructionStarted {
            site: ObjectId { index: 91, generation: 0 },
            template: TemplateId(1),
            owner: PlayerId(0),
            at: SimVec2::from_int(x, y),
        };
        rubble.note(&[site(240, 240)], &world, 10.0, &dark, no_look, flat);
        assert_eq!(rubble.heaps.len(), 1, "a site beside it leaves it");
        rubble.note(&[site(210, 195)], &world, 10.0, &dark, no_look, flat);
        assert!(rubble.heaps.is_empty(), "a site over it clears it");
    }

    #[test]
    fn a_heap_is_the_structures_own_kit_broken_low_burnt_and_inside_its_footprint() {
        let look = barracks();
        let (at, size, ground) = (Vec2::new(300.0, 420.0), Vec2::new(30.0, 30.0), 12.0);
        let heap = Heap::lay(at, size, ground, Some(&look));
        let pieces = &heap.stones[(SLABS + CHIPS) as usize..];
        assert_eq!(pieces.len(), look.parts.len().min(MOST_PIECES));
        // The biggest part of the kit (its main hall) is among the pieces, in its own shape.
        let volume = |p: &PartPiece| (p.size() * look.scale).element_product();
        let biggest = look.parts.iter().max_by(|a, b| volume(a).total_cmp(&volume(b))).unwrap();
        assert!(pieces.iter().any(|s| s.mesh == piece_mesh(biggest.shape)));
        for s in &heap.stones {
            let d = (s.pos.truncate() - at).abs();
            assert!(d.x <= size.x / 2.0 && d.y <= size.y / 2.0, "{s:?} lies outside the footprint");
            assert!(s.pos.z >= ground && s.pos.z - ground < 6.0, "{s:?}: a heap is low (the hall was 14 tall)");
        }
        for s in &heap.stones[..SLABS as usize] {
            assert!(s.size.x < size.x * 0.65 && s.size.y < size.y * 0.65, "no slab covers the footprint: {s:?}");
            assert!(s.size.z < 1.0, "the bed is low: {s:?}");
        }
        // Burnt: under half the brightest colour any of its parts had.
        let brightest =
            look.color.max(look.team).max_element() * look.parts.iter().map(|p| p.shade).fold(0.0, f32::max);
        for s in pieces {
            assert!(s.size.max_element() <= size.max_element() * LARGEST + 1e-4, "broken small: {s:?}");
            assert!(s.color.max_element() <= brightest * 0.5, "burnt: {s:?}");
        }
        // The same fall leaves the same heap; another place, another.
        assert_eq!(Heap::lay(at, size, ground, Some(&look)), heap);
        let other = Heap::lay(at + Vec2::new(40.0, 0.0), size, ground, Some(&look));
        assert_ne!(other.stones[0].turn, heap.stones[0].turn);
    }

    #[test]
    fn a_burnt_part_loses_most_of_its_owners_paint_and_keeps_its_own_grey() {
        let part = |team| PartPiece {
            shape: PieceShape::Block,
            lo: Vec3::ZERO,
            hi: Vec3::ONE,
            lying: false,
            shade: 1.0,
            team,
            loose: false,
        };
        let (own, red) = (Vec3::new(0.4, 0.4, 0.45), Vec3::new(0.8, 0.1, 0.1));
        let redness = |c: Vec3| c.x - c.y.max(c.z);
        let t = charred(&part(true), own, red);
        assert!(redness(t) < redness(red) * 0.25, "the owner's red mostly gone: {t}");
        assert!(t.max_element() < red.max_element() * 0.5, "and darker: {t}");
        let o = charred(&part(false), own, red);
        assert!((o - own).abs().max_element() < 0.1, "a grey part stays near its grey: {o}");
    }

    #[test]
    fn each_stone_is_drawn_once_scorched_on_its_pieces_mesh() {
        let rubble =
            Rubble { heaps: vec![Heap::lay(Vec2::new(50.0, 50.0), Vec2::splat(20.0), 0.0, Some(&barracks()))] };
        let mut out = vec![Vec::new(); piece_mesh(PieceShape::Spike) + 1];
        rubble.instances(&mut out);
        let drawn: usize = out.iter().map(Vec::len).sum();
        assert_eq!(drawn, rubble.heaps[0].stones.len());
        assert!(out.iter().flatten().all(|i| i.state[0] == 1.0));
        assert!(out[piece_mesh(PieceShape::Block)].len() >= SLABS as usize);
    }
}
