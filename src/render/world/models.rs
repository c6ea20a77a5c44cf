//! Procedural model meshes built from boxes, pyramids, gables and cylinders in unit space: x
//! across, y forward (the facing), z up, standing on z = 0. Instances scale them: units by
//! their model height, buildings and scenery by footprint and height. The library holds a
//! built-in mesh per [`Shape`], the construction scaffold, and a mesh per object whose model
//! names a kit from `data/models.ron` — split in two when some parts turn with a turret — and
//! a closed mesh per loose piece shape, with each kit's parts as such pieces (what a wreck
//! throws, `models/pieces.rs`).
//! Vertices carry a shade, whether they wear the owner's colour, and their part's animation
//! role with the point it turns about (see `pose.rs`).
//!
//! Must not: know about the simulation; the scene tells it where and how big.

use bytemuck::{Pod, Zeroable};
use glam::Vec3;

use crate::defs::ModelDef;
use crate::defs::model::Shape;
use crate::defs::model_kits::{Anim, LowRule, MAX_SIDES, ModelKits, Part};

pub mod pieces;
mod shapes;
use pieces::{PIECE_SHAPES, PartPiece, PieceShape};
use shapes::{build, scaffold};

/// One model vertex.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct ModelVertex {
    /// Position in unit space.
    pub position: [f32; 3],
    /// Unit normal.
    pub normal: [f32; 3],
    /// Brightness multiplier of this part (details darker than the body).
    pub shade: f32,
    /// 1 where the part wears the owner's colour, 0 where the model's.
    pub team: f32,
    /// The point its part turns about (unit space): a leg's hip, a wheel's hub.
    pub pivot: [f32; 3],
    /// Its part's animation role ([`super::pose::role_code`]) and the role's number (a
    /// wheel's radius).
    pub role: [f32; 2],
}

/// Every shape's mesh in one buffer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelLibrary {
    /// All vertices.
    pub vertices: Vec<ModelVertex>,
    /// All indices (into `vertices`).
    pub indices: Vec<u32>,
    /// Index range per mesh: the [`SHAPES`] in order, the [`SCAFFOLD`], the loose pieces
    /// ([`piece_mesh`]), then the kits'.
    pub ranges: Vec<std::ops::Range<u32>>,
    /// Index range per mesh at Low quality (the same meshes in the same order, with fewer
    /// parts and sides: see [`LowDetail`]).
    pub low_ranges: Vec<std::ops::Range<u32>>,
    /// Per object template (by index): its meshes.
    pub meshes: Vec<TemplateMeshes>,
    /// Per object template (by index): its kit's parts as loose pieces (none without a kit).
    pub parts: Vec<std::sync::Arc<[PartPiece]>>,
    /// Per mesh: the least and most corners of its vertices (worked out once, for picking).
    extents: Vec<(Vec3, Vec3)>,
}

/// The meshes one object is drawn with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TemplateMeshes {
    /// The body, turned with the object's facing.
    pub body: usize,
    /// Parts that turn toward the object's target, if any.
    pub turret: Option<usize>,
}

/// The construction scaffold's mesh (a slab, poles and rails around a unit footprint).
pub const SCAFFOLD: usize = SHAPES.len();

/// Where a loose piece shape's mesh sits in the library.
pub fn piece_mesh(shape: PieceShape) -> usize {
    SCAFFOLD + 1 + PIECE_SHAPES.iter().position(|&s| s == shape).unwrap_or(0)
}

/// The shapes in library order.
pub const SHAPES: [Shape; 6] =
    [Shape::Soldier, Shape::Wheeled, Shape::Tank, Shape::Building, Shape::Prop, Shape::Helicopter];

/// Where a shape's mesh sits in the library.
pub fn shape_index(shape: Shape) -> usize {
    SHAPES.iter().position(|&s| s == shape).unwrap_or(0)
}

/// What a model keeps at Low quality when its kit names no Low parts (`data/low_detail.ron`):
/// parts thinner than `least_part` (rivets, antennas, trims) and muzzle flashes are left out,
/// and round parts get at most `most_sides` sides. Its parts are drawn at rest (Low does not
/// pose them).
pub type LowDetail = LowRule;

/// How the Low rule thins a kit's parts.
trait Thinning {
    /// Whether a part of `anim` whose bounds are `lo`–`hi` is drawn at Low.
    fn keeps(&self, anim: Anim, lo: Vec3, hi: Vec3) -> bool;
    /// The sides a round part of `sides` sides gets at Low.
    fn sides(&self, sides: u32) -> u32;
}

impl Thinning for LowDetail {
    fn keeps(&self, anim: Anim, lo: Vec3, hi: Vec3) -> bool {
        let size = hi - lo;
        let mut e = [size.x, size.y, size.z];
        e.sort_by(f32::total_cmp);
        anim != Anim::Flash && e[1] >= self.least_part
    }

    fn sides(&self, sides: u32) -> u32 {
        sides.min(self.most_sides.max(3))
    }
}

struct Builder {
    /// Set while building the Low meshes.
    low: Option<LowDetail>,
    vertices: Vec<ModelVertex>,
    indices: Vec<u32>,
    /// Whether the parts being added wear the owner's colour.
    team: f32,
    /// The pivot of the parts being added.
    pivot: Vec3,
    /// The role (and its number) of the parts being added.
    role: [f32; 2],
}

/// Where a part of `anim` turns about, given its least and most corners: legs and arms about
/// their top, a broken part and a rotor about their foot, the rest about their middle.
pub fn pivot_of(anim: Anim, lo: Vec3, hi: Vec3) -> Vec3 {
    let mid = (lo + hi) / 2.0;
    match anim {
        Anim::LegLeft | Anim::LegRight | Anim::ArmLeft | Anim::ArmRight => Vec3::new(mid.x, mid.y, hi.z),
        Anim::Broken | Anim::Rotor => Vec3::new(mid.x, mid.y, lo.z),
        _ => mid,
    }
}

impl Builder {
    fn new() -> Builder {
        Builder { low: None, vertices: Vec::new(), indices: Vec::new(), team: 0.0, pivot: Vec3::ZERO, role: [0.0; 2] }
    }

    /// The parts added until the next call move by `anim` about the pivot its bounds `lo`–`hi`
    /// give, with the role's number `param`.
    fn moving(&mut self, anim: Anim, lo: Vec3, hi: Vec3, param: f32) {
        self.pivot = pivot_of(anim, lo, hi);
        self.role = [super::pose::role_code(anim), param];
    }

    /// The parts added from now on are still.
    fn still(&mut self) {
        self.moving(Anim::None, Vec3::ZERO, Vec3::ZERO, 0.0);
    }

    fn vertex(&self, c: Vec3, n: Vec3, shade: f32) -> ModelVertex {
        ModelVertex {
            position: c.to_array(),
            normal: n.to_array(),
            shade,
            team: self.team,
            pivot: self.pivot.to_array(),
            role: self.role,
        }
    }

    fn quad(&mut self, corners: [Vec3; 4], shade: f32) {
        let n = (corners[1] - corners[0]).cross(corners[2] - corners[0]).normalize_or(Vec3::Z);
        let base = self.vertices.len() as u32;
        for c in corners {
            self.vertices.push(self.vertex(c, n, shade));
        }
        self.indices.extend_from_slice(&[base, base + 1, base + 2, base, base + 2, base + 3]);
    }

    fn tri(&mut self, corners: [Vec3; 3], shade: f32) {
        let n = (corners[1] - corners[0]).cross(corners[2] - corners[0]).normalize_or(Vec3::Z);
        let base = self.vertices.len() as u32;
        for c in corners {
            self.vertices.push(self.vertex(c, n, shade));
        }
        self.indices.extend_from_slice(&[base, base + 1, base + 2]);
    }

    /// A box from `min` to `max` moving by `anim`.
    fn posed(&mut self, anim: Anim, min: Vec3, max: Vec3, shade: f32) {
        if self.low.is_some_and(|l| !l.keeps(anim, min, max)) {
            return;
        }
        self.moving(anim, min, max, (max.z - min.z).max(max.y - min.y) / 2.0);
        self.cuboid(min, max, shade);
        self.still();
    }

    /// A wheel that turns with the distance travelled.
    fn wheel(&mut self, at: Vec3, radius: f32, width: f32, shade: f32) {
        let half = Vec3::new(width / 2.0, radius, radius);
        self.moving(Anim::Wheel, at - half, at + half, radius);
        let sides = self.low.map_or(8, |l| l.sides(8));
        self.drum(at, radius, width, sides, shade);
        self.still();
    }

    /// The same as `f`, wearing the owner's colour.
    fn in_team(&mut self, f: impl FnOnce(&mut Builder)) {
        self.team = 1.0;
        f(self);
        self.team = 0.0;
    }

    /// A gabled roof over the rectangle from `min` to `max` at height `min.z`, its ridge along
    /// y at `top`.
    fn gable(&mut self, min: Vec3, max: Vec3, top: f32, shade: f32) {
        let z = min.z;
        let mx = (min.x + max.x) / 2.0;
        let p = Vec3::new;
        // The two slopes.
        self.quad([p(min.x, min.y, z), p(mx, min.y, top), p(mx, max.y, top), p(min.x, max.y, z)], shade);
        self.quad([p(max.x, max.y, z), p(mx, max.y, top), p(mx, min.y, top), p(max.x, min.y, z)], shade);
        // The two gable ends.
        self.tri([p(max.x, min.y, z), p(mx, min.y, top), p(min.x, min.y, z)], shade);
        self.tri([p(min.x, max.y, z), p(mx, max.y, top), p(max.x, max.y, z)], shade);
    }

    /// An upright prism of `sides` sides around `at`, from `bottom` to `top`, with a lid.
    fn cylinder(&mut self, at: Vec3, radius: f32, bottom: f32, top: f32, sides: u32, shade: f32) {
        let sides = sides.clamp(3, 64);
        let ring = |k: u32| {
            let a = k as f32 / sides as f32 * std::f32::consts::TAU;
            Vec3::new(at.x + radius * a.cos(), at.y + radius * a.sin(), 0.0)
        };
        for k in 0..sides {
            let (a, b) = (ring(k), ring(k + 1));
            let lo = |v: Vec3| Vec3::new(v.x, v.y, bottom);
            let hi = |v: Vec3| Vec3::new(v.x, v.y, top);
            self.quad([lo(a), lo(b), hi(b), hi(a)], shade);
            if self.low.is_none() {
                self.tri([hi(a), hi(b), Vec3::new(at.x, at.y, top)], shade);
            }
        }
        // At Low the lid is one fan sharing its corners (fewer vertices to pose).
        if self.low.is_some() {
            let rim: Vec<Vec3> = (0..sides).map(|k| ring(k) + Vec3::Z * top).collect();
            self.fan(Vec3::new(at.x, at.y, top), &rim, shade);
        }
    }

    /// A flat polygon: triangles from `centre` to each edge of `rim` (counter-clockwise seen
    /// from the side it faces), sharing their corners.
    fn fan(&mut self, centre: Vec3, rim: &[Vec3], shade: f32) {
        let Some((&a, &b)) = rim.first().zip(rim.get(1)) else { return };
        let n = (a - centre).cross(b - centre).normalize_or(Vec3::Z);
        let base = self.vertices.len() as u32;
        self.vertices.push(self.vertex(centre, n, shade));
        for &c in rim {
            self.vertices.push(self.vertex(c, n, shade));
        }
        let k = rim.len() as u32;
        for i in 0..k {
            self.indices.extend_from_slice(&[base, base + 1 + i, base + 1 + (i + 1) % k]);
        }
    }

    /// A wheel lying across x: a prism of `sides` sides around `at`, `width` wide, its faces
    /// and its ends' wedges alternating light and dark so its turning shows.
    fn drum(&mut self, at: Vec3, radius: f32, width: f32, sides: u32, shade: f32) {
        let sides = sides.clamp(3, 64);
        let (l, r) = (at.x - width / 2.0, at.x + width / 2.0);
        // From the bottom, so a wheel resting on the ground touches it.
        let ring = |k: u32, x: f32| {
            let a = k as f32 / sides as f32 * std::f32::consts::TAU - std::f32::consts::FRAC_PI_2;
            Vec3::new(x, at.y + radius * a.cos(), at.z + radius * a.sin())
        };
        for k in 0..sides {
            let tone = if k % 2 == 0 { shade } else { shade * 0.6 };
            self.quad([ring(k, l), ring(k + 1, l), ring(k + 1, r), ring(k, r)], tone);
            if self.low.is_none() {
                let hub = if k % 2 == 0 { shade * 0.55 } else { shade * 1.1 };
                self.tri([ring(k, r), ring(k + 1, r), Vec3::new(r, at.y, at.z)], hub);
                self.tri([ring(k + 1, l), ring(k, l), Vec3::new(l, at.y, at.z)], hub);
            }
        }
        // At Low (not turning) each end is one plain fan.
        if self.low.is_some() {
            let right: Vec<Vec3> = (0..sides).map(|k| ring(k, r)).collect();
            let left: Vec<Vec3> = (0..sides).rev().map(|k| ring(k, l)).collect();
            self.fan(Vec3::new(r, at.y, at.z), &right, shade * 0.55);
            self.fan(Vec3::new(l, at.y, at.z), &left, shade * 0.55);
        }
    }

    /// One part of a kit.
    fn part(&mut self, part: &Part) {
        let f = part.finish();
        let (lo, hi) = part_bounds(part);
        if self.low.is_some_and(|l| !l.keeps(f.anim, lo, hi)) {
            return;
        }
        let low = self.low;
        let most = |sides: u32| low.map_or(sides, |l| l.sides(sides));
        self.team = if f.team { 1.0 } else { 0.0 };
        let param = match *part {
            Part::Drum { radius, .. } => radius,
            _ => (hi.z - lo.z).max(hi.y - lo.y) / 2.0,
        };
        self.moving(f.anim, lo, hi, param);
        let v = |t: (f32, f32, f32)| Vec3::new(t.0, t.1, t.2);
        match *part {
            Part::Box { min, max, .. } => self.cuboid(v(min), v(max), f.shade),
            Part::Pyramid { min, max, top, .. } => self.pyramid(v(min), v(max), top, f.shade),
            Part::Gable { min, max, top, .. } => self.gable(v(min), v(max), top, f.shade),
            Part::Cylinder { at, radius, bottom, top, sides, .. } => {
                self.cylinder(Vec3::new(at.0, at.1, 0.0), radius, bottom, top, most(sides), f.shade)
            }
            Part::Drum { at, radius, width, sides, .. } => self.drum(v(at), radius, width, most(sides), f.shade),
        }
        self.team = 0.0;
        self.still();
    }

    /// An axis-aligned box from `min` to `max` (no bottom face).
    fn cuboid(&mut self, min: Vec3, max: Vec3, shade: f32) {
        let (a, b) = (min, max);
        let p = |x: f32, y: f32, z: f32| Vec3::new(x, y, z);
        self.quad([p(a.x, a.y, b.z), p(b.x, a.y, b.z), p(b.x, b.y, b.z), p(a.x, b.y, b.z)], shade); // top
        self.quad([p(a.x, a.y, a.z), p(b.x, a.y, a.z), p(b.x, a.y, b.z), p(a.x, a.y, b.z)], shade); // south
        self.quad([p(b.x, b.y, a.z), p(a.x, b.y, a.z), p(a.x, b.y, b.z), p(b.x, b.y, b.z)], shade); // north
        self.quad([p(a.x, b.y, a.z), p(a.x, a.y, a.z), p(a.x, a.y, b.z), p(a.x, b.y, b.z)], shade); // west
        self.quad([p(b.x, a.y, a.z), p(b.x, b.y, a.z), p(b.x, b.y, b.z), p(b.x, a.y, b.z)], shade); // east
    }

    /// A four-sided pyramid over the rectangle from `min` to `max` at height `min.z`, apex at `top`.
    fn pyramid(&mut self, min: Vec3, max: Vec3, top: f32, shade: f32) {
        let z = min.z;
        let c = [
            Vec3::new(min.x, min.y, z),
            Vec3::new(max.x, min.y, z),
            Vec3::new(max.x, max.y, z),
            Vec3::new(min.x, max.y, z),
        ];
        let apex = Vec3::new((min.x + max.x) / 2.0, (min.y + max.y) / 2.0, top);
        for i in 0..4 {
            self.tri([c[i], c[(i + 1) % 4], apex], shade);
        }
    }
}

/// The least and most corners of a part.
fn part_bounds(part: &Part) -> (Vec3, Vec3) {
    let v = |t: (f32, f32, f32)| Vec3::new(t.0, t.1, t.2);
    match *part {
        Part::Box { min, max, .. } => (v(min), v(max)),
        Part::Pyramid { min, max, top, .. } | Part::Gable { min, max, top, .. } => {
            (v(min), Vec3::new(max.0, max.1, top))
        }
        Part::Cylinder { at, radius, bottom, top, .. } => {
            (Vec3::new(at.0 - radius, at.1 - radius, bottom), Vec3::new(at.0 + radius, at.1 + radius, top))
        }
        Part::Drum { at, radius, width, .. } => {
            let half = Vec3::new(width / 2.0, radius, radius);
            (v(at) - half, v(at) + half)
        }
    }
}

/// The least and most corners of the vertices a mesh's `range` of `indices` uses.
fn extent_of(vertices: &[ModelVertex], indices: &[u32], range: &std::ops::Range<u32>) -> (Vec3, Vec3) {
    let used = indices.get(range.start as usize..range.end as usize).unwrap_or_default();
    let mut lo = Vec3::splat(f32::MAX);
    let mut hi = Vec3::splat(f32::MIN);
    for v in used.iter().filter_map(|&i| vertices.get(i as usize)) {
        lo = lo.min(Vec3::from_array(v.position));
        hi = hi.max(Vec3::from_array(v.position));
    }
    if lo.x > hi.x { (Vec3::ZERO, Vec3::ZERO) } else { (lo, hi) }
}

/// How one mesh of the library is made.
enum Recipe<'a> {
    /// A built-in shape's.
    Shape(Shape),
    /// The construction scaffold.
    Scaffold,
    /// A loose piece.
    Piece(PieceShape),
    /// A kit's parts (and those it names for Low) that turn with the turret (true) or with
    /// the body (false).
    Kit(&'a [Part], Option<&'a [Part]>, bool),
}

impl Recipe<'_> {
    /// Adds the mesh to `b` (at its level of detail); its index range.
    fn build(&self, b: &mut Builder) -> std::ops::Range<u32> {
        let start = b.indices.len() as u32;
        match *self {
            Recipe::Shape(shape) => build(shape, b),
            Recipe::Scaffold => scaffold(b),
            Recipe::Piece(shape) => pieces::build(shape, b),
            Recipe::Kit(parts, low, turret) => {
                // At Low a kit's own Low parts are drawn as they are; otherwise the builder
                // thins its parts.
                let named = low.filter(|_| b.low.is_some());
                let saved = b.low;
                if named.is_some() {
                    b.low = Some(LowDetail { least_part: 0.0, most_sides: MAX_SIDES });
                }
                for p in named.unwrap_or(parts).iter().filter(|p| p.finish().turret == turret) {
                    b.part(p);
                }
                b.low = saved;
            }
        }
        start..b.indices.len() as u32
    }
}

impl ModelLibrary {
    /// The built-in meshes only (every template drawn by its shape).
    pub fn builtin() -> ModelLibrary {
        ModelLibrary::build(&[], &ModelKits::default())
    }

    /// Builds the built-in meshes, then a mesh (and a turret mesh where some parts turn) for
    /// every model in `models` that names a kit of `kits`. A kit `kits` lacks falls back to
    /// the shape's mesh (loading refuses that earlier, naming the object).
    /// The Low meshes follow the kits' own Low parts, or thin by the kits' Low rule.
    pub fn build(models: &[ModelDef], kits: &ModelKits) -> ModelLibrary {
        let low = kits.low_rule;
        let mut recipes: Vec<Recipe> = SHAPES.iter().map(|&s| Recipe::Shape(s)).collect();
        recipes.push(Recipe::Scaffold);
        recipes.extend(PIECE_SHAPES.map(Recipe::Piece));
        let mut by_kit: std::collections::BTreeMap<&str, (TemplateMeshes, std::sync::Arc<[PartPiece]>)> =
            Default::default();
        let mut meshes = Vec::with_capacity(models.len());
        let mut loose = Vec::with_capacity(models.len());
        for m in models {
            let body = shape_index(m.shape);
            let Some((name, parts)) = m.kit.as_deref().and_then(|k| kits.get(k).map(|p| (k, p))) else {
                meshes.push(TemplateMeshes { body, turret: None });
                loose.push(std::sync::Arc::from([]));
                continue;
            };
            if let Some((done, pieces)) = by_kit.get(name) {
                meshes.push(*done);
                loose.push(pieces.clone());
                continue;
            }
            let low = kits.low(name);
            let mut add = |turret: bool| {
                parts.iter().any(|p| p.finish().turret == turret).then(|| {
                    recipes.push(Recipe::Kit(parts, low, turret));
                    recipes.len() - 1
                })
            };
            let body = add(false).unwrap_or(body);
            let turret = add(true);
            let made = TemplateMeshes { body, turret };
            let pieces: std::sync::Arc<[PartPiece]> = pieces::pieces_of(parts).into();
            by_kit.insert(name, (made, pieces.clone()));
            meshes.push(made);
            loose.push(pieces);
        }
        let mut b = Builder::new();
        let ranges: Vec<_> = recipes.iter().map(|r| r.build(&mut b)).collect();
        b.low = Some(low);
        let low_ranges = recipes.iter().map(|r| r.build(&mut b)).collect();
        let extents = ranges.iter().map(|r| extent_of(&b.vertices, &b.indices, r)).collect();
        ModelLibrary { vertices: b.vertices, indices: b.indices, ranges, low_ranges, meshes, parts: loose, extents }
    }

    /// The meshes template number `template` is drawn with (its shape's for an unknown one).
    pub fn of(&self, template: usize) -> TemplateMeshes {
        self.meshes.get(template).copied().unwrap_or_default()
    }

    /// The box a template's meshes fill in unit space (the turret's parts in any direction
    /// they can turn): least and most corners.
    pub fn extent(&self, template: usize) -> (Vec3, Vec3) {
        let m = self.of(template);
        let (mut lo, mut hi) = self.mesh_extent(m.body);
        if let Some(t) = m.turret {
            let (tlo, thi) = self.mesh_extent(t);
            // A turret turns: any direction its reach allows.
            let reach = tlo.truncate().length().max(thi.truncate().length()).max(tlo.x.abs().max(thi.x.abs()));
            lo = lo.min(Vec3::new(-reach, -reach, tlo.z));
            hi = hi.max(Vec3::new(reach, reach, thi.z));
        }
        (lo, hi)
    }

    fn mesh_extent(&self, mesh: usize) -> (Vec3, Vec3) {
        self.extents.get(mesh).copied().unwrap_or((Vec3::ZERO, Vec3::ZERO))
    }

    /// How many meshes the library holds.
    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    /// True when the library holds no mesh (never, once built).
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_stands_on_the_ground_without_degenerate_triangles() {
        let lib = ModelLibrary::builtin();
        assert_eq!(lib.ranges.len(), SHAPES.len() + 1 + PIECE_SHAPES.len());
        for (shape, range) in SHAPES.iter().map(|s| format!("{s:?}")).chain(["scaffold".to_string()]).zip(&lib.ranges) {
            assert!(range.end > range.start, "{shape:?} is empty");
            let idx = &lib.indices[range.start as usize..range.end as usize];
            let p = |i: u32| Vec3::from_array(lib.vertices[i as usize].position);
            assert!(idx.iter().all(|&i| p(i).z >= 0.0), "{shape:?} dips below the ground");
            assert!(idx.iter().any(|&i| p(i).z == 0.0), "{shape:?} floats");
            for t in idx.chunks(3) {
                assert!((p(t[1]) - p(t[0])).cross(p(t[2]) - p(t[0])).length() > 1e-6, "{shape:?}");
            }
        }
    }

    #[test]
    fn low_meshes_are_the_same_meshes_with_fewer_vertices() {
        let kits = crate::defs::model_kits::ModelKits::shipped();
        let kit = |k: &str| ModelDef { shape: Shape::Tank, color: (0.5, 0.5, 0.5), height: 1.0, kit: Some(k.into()) };
        // A unit with its own Low parts, a structure thinned by the rule.
        let models = [kit("Jeep"), kit("CommandPost")];
        let lib = ModelLibrary::build(&models, &kits);
        assert_eq!(lib.low_ranges.len(), lib.ranges.len());
        let corners = |r: &std::ops::Range<u32>| {
            let mut used: Vec<u32> = lib.indices[r.start as usize..r.end as usize].to_vec();
            used.sort_unstable();
            used.dedup();
            used
        };
        // The jeep's own list is under half its corners; the thinned post has fewer.
        for (m, share) in lib.meshes.iter().zip([0.5, 0.9]) {
            let (full, low) = (corners(&lib.ranges[m.body]), corners(&lib.low_ranges[m.body]));
            assert!(
                !low.is_empty() && (low.len() as f32) < full.len() as f32 * share,
                "{} of {}",
                low.len(),
                full.len()
            );
            // Nothing posed at Low: no flash, every part at rest.
            assert!(
                low.iter().all(|&i| lib.vertices[i as usize].role[0] != super::super::pose::role_code(Anim::Flash))
            );
        }
        // The jeep's Low parts are its own list: six boxes of four corners a face, five faces.
        assert_eq!(corners(&lib.low_ranges[lib.meshes[0].body]).len(), 6 * 20 - 2 * 20);
    }

    #[test]
    fn soldiers_wear_their_factions_uniform_with_the_owners_colour_only_as_a_trim() {
        let defs = crate::defs::test_support::shipped();
        let kits = crate::defs::model_kits::ModelKits::shipped();
        let lib = ModelLibrary::build(&defs.models, &kits);
        // The share of a mesh's surface in the owner's colour.
        let team_share = |r: &std::ops::Range<u32>| {
            let (mut team, mut all) = (0.0, 0.0);
            for t in lib.indices[r.start as usize..r.end as usize].chunks(3) {
                let v = |i: u32| &lib.vertices[i as usize];
                let p = |i: u32| Vec3::from_array(v(i).position);
                let area = (p(t[1]) - p(t[0])).cross(p(t[2]) - p(t[0])).length();
                all += area;
                team += area * v(t[0]).team;
            }
            team / all
        };
        let mut uniforms: Vec<(String, Vec3)> = Vec::new();
        for (i, t) in defs.rules.templates.iter().enumerate() {
            if t.kind != crate::sim::rules::ObjectKind::Infantry {
                continue;
            }
            let body = lib.of(i).body;
            let (full, low) = (team_share(&lib.ranges[body]), team_share(&lib.low_ranges[body]));
            assert!((0.04..0.3).contains(&full), "{}: {full:.2} of it in the owner's colour", t.name);
            assert!((0.04..0.45).contains(&low), "{} at Low: {low:.2} in the owner's colour", t.name);
            let c = defs.models[i].color;
            let faction = &defs.rules.factions[t.faction as usize].name;
            uniforms.push((faction.clone(), Vec3::new(c.0, c.1, c.2)));
        }
        // The Coalition's olive and the Dominion's brown: the same team colour, told apart.
        let of = |f: &str| uniforms.iter().filter(|u| u.0 == f).map(|u| u.1).collect::<Vec<_>>();
        let (coalition, dominion) = (of("Coalition"), of("Dominion"));
        assert!(!coalition.is_empty() && !dominion.is_empty());
        for c in &coalition {
            assert!(c.y > c.x, "Coalition olive: {c}");
            for d in &dominion {
                assert!(d.x > d.y + 0.05 && (*c - *d).length() > 0.1, "Dominion brown {d} beside {c}");
            }
        }
    }

    #[test]
    fn box_faces_point_outward() {
        let mut b = Builder::new();
        b.cuboid(Vec3::splat(-1.0), Vec3::splat(1.0), 1.0);
        b.pyramid(Vec3::new(-1.0, -1.0, -1.0), Vec3::new(1.0, 1.0, -1.0), 1.0, 1.0);
        b.gable(Vec3::new(-1.0, -1.0, -1.0), Vec3::new(1.0, 1.0, -1.0), 1.0, 1.0);
        b.cylinder(Vec3::ZERO, 1.0, -1.0, 1.0, 8, 1.0);
        for t in b.indices.chunks(3) {
            let p = |i: u32| Vec3::from_array(b.vertices[i as usize].position);
            let n = (p(t[1]) - p(t[0])).cross(p(t[2]) - p(t[0]));
            let mid = (p(t[0]) + p(t[1]) + p(t[2])) / 3.0;
            assert!(n.dot(mid) > 0.0, "a face of a shape centred at the origin points inward");
        }
    }
}
