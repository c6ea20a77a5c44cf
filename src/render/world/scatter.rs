//! Where the ground's scatter stands: grass tufts, stones and bushes (`data/scatter.ron`)
//! strewn over a map by terrain class, made once per map as model instances. Every item comes
//! from a hash of its cell, its kind and its number, so the same map always shows the same
//! scatter on every machine; each item also gets a rank from the hash, and a graphics quality
//! draws the lowest-ranked share of each kind (Medium a subset of High, never other items).
//!
//! Must not: read the simulation or anything of a game in progress (what stands on the ground
//! is decided from the map alone; structures built later cover what is under them).

use glam::Vec2;

use super::ObjectInstance;
use super::pose;
use crate::map::classes::Detail;
use crate::map::roads::{Ground, HeightField, RoadMesh};
use crate::map::scatter::{ScatterDefs, ScatterShape, ScatterShares};
use crate::map::{Map, TerrainClasses};
use crate::render::Quality;

/// One kind's items, lowest rank first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScatterGroup {
    /// How they are drawn.
    pub shape: Option<ScatterShape>,
    /// Their instances, lowest rank first.
    pub instances: Vec<ObjectInstance>,
    /// Each instance's rank (0..1), ascending.
    ranks: Vec<f32>,
}

impl ScatterGroup {
    /// Each instance's rank (0..1), ascending: a quality draws those below its share.
    pub fn ranks(&self) -> &[f32] {
        &self.ranks
    }

    /// A group of `instances` with their `ranks` (ascending), for tests.
    #[cfg(test)]
    pub(crate) fn with_ranks(instances: Vec<ObjectInstance>, ranks: Vec<f32>) -> ScatterGroup {
        ScatterGroup { shape: Some(ScatterShape::Stone), instances, ranks }
    }
}

/// A map's scatter, grouped by kind in the file's order.
#[derive(Clone, Debug, PartialEq)]
pub struct Scatter {
    /// One group per kind.
    pub groups: Vec<ScatterGroup>,
    /// The share of each group drawn per quality.
    shares: ScatterShares,
}

impl Default for Scatter {
    fn default() -> Scatter {
        Scatter { groups: Vec::new(), shares: ScatterDefs::default().quality }
    }
}

/// A well-mixed 32-bit hash of a few numbers (display only: never the simulation's RNG).
fn hash(parts: [u32; 5]) -> u32 {
    let mut h: u32 = 0x9e37_79b9;
    for p in parts {
        h ^= p.wrapping_mul(0x85eb_ca6b);
        h = h.rotate_left(13).wrapping_mul(0xc2b2_ae35) ^ (h >> 16);
    }
    h ^= h >> 15;
    h = h.wrapping_mul(0x2c1b_3c6d);
    h ^ (h >> 12)
}

/// The hash as a number in 0..1.
fn unit(parts: [u32; 5]) -> f32 {
    (hash(parts) >> 8) as f32 / (1u32 << 24) as f32
}

/// The road mesh's triangles by the cells their bounds touch, for testing points against.
struct RoadCells {
    width: u32,
    height: u32,
    cell: f32,
    triangles: Vec<[Vec2; 3]>,
    by_cell: Vec<Vec<u32>>,
}

impl RoadCells {
    fn new(roads: &RoadMesh, cells: (u32, u32), cell: f32) -> RoadCells {
        let (width, height) = cells;
        let mut by_cell = vec![Vec::new(); (width * height) as usize];
        let mut triangles = Vec::new();
        for tri in roads.indices.chunks_exact(3) {
            let corner = |i: u32| roads.vertices.get(i as usize).map(|v| Vec2::new(v.position[0], v.position[1]));
            let (Some(a), Some(b), Some(c)) = (corner(tri[0]), corner(tri[1]), corner(tri[2])) else { continue };
            let (lo, hi) = (a.min(b).min(c) / cell, a.max(b).max(c) / cell);
            let n = triangles.len() as u32;
            triangles.push([a, b, c]);
            let span =
                |l: f32, h: f32, max: u32| (l.floor().max(0.0) as u32)..=(h.floor().max(0.0) as u32).min(max - 1);
            for y in span(lo.y, hi.y, height) {
                for x in span(lo.x, hi.x, width) {
                    by_cell[(y * width + x) as usize].push(n);
                }
            }
        }
        RoadCells { width, height, cell, triangles, by_cell }
    }

    /// Whether `p` lies on a road (inside one of its triangles).
    fn covers(&self, p: Vec2) -> bool {
        let (x, y) = ((p.x / self.cell).floor(), (p.y / self.cell).floor());
        if x < 0.0 || y < 0.0 || x >= self.width as f32 || y >= self.height as f32 {
            return false;
        }
        let side = |a: Vec2, b: Vec2| (b - a).perp_dot(p - a);
        self.by_cell[(y as u32 * self.width + x as u32) as usize].iter().any(|&t| {
            let [a, b, c] = self.triangles[t as usize];
            let (s1, s2, s3) = (side(a, b), side(b, c), side(c, a));
            (s1 >= 0.0 && s2 >= 0.0 && s3 >= 0.0) || (s1 <= 0.0 && s2 <= 0.0 && s3 <= 0.0)
        })
    }
}

impl Scatter {
    /// Strews `defs`' kinds over `map` by its terrain `classes`: never on impassable or paved
    /// classes, water, cliffs or roads, nor within a cell of the map's objects and supplies.
    pub fn place(
        map: &Map,
        classes: &TerrainClasses,
        defs: &ScatterDefs,
        ground: &HeightField,
        roads: &RoadMesh,
    ) -> Scatter {
        let (w, h) = map.file.size;
        let cell = map.file.cell_size as f32;
        let mut blocked = map.blocked_cells(classes);
        let spots = map.file.objects.iter().map(|o| o.at).chain(map.file.supplies.iter().map(|s| s.at));
        for (ox, oy) in spots {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let (x, y) = (ox.floor() as i64 + dx, oy.floor() as i64 + dy);
                    if (0..w as i64).contains(&x) && (0..h as i64).contains(&y) {
                        blocked[(y * w as i64 + x) as usize] = true;
                    }
                }
            }
        }
        let road_cells = RoadCells::new(roads, (w, h), cell);
        let mut groups: Vec<ScatterGroup> =
            defs.kinds.iter().map(|k| ScatterGroup { shape: Some(k.shape), ..ScatterGroup::default() }).collect();
        for y in 0..h {
            for x in 0..w {
                let i = (y * w + x) as usize;
                let Some(class) = map.classes.get(i).and_then(|&c| classes.classes.get(c as usize)) else { continue };
                if blocked.get(i).copied().unwrap_or(true) || !class.passable || class.detail == Detail::Paved {
                    continue;
                }
                for (k, kind) in defs.kinds.iter().enumerate() {
                    let per_cell = defs.per_cell(k, &class.name);
                    let extra = unit([x, y, k as u32, 0xffff, 1]) < per_cell.fract();
                    let n = per_cell.floor() as u32 + u32::from(extra);
                    for j in 0..n {
                        let r = |salt: u32| unit([x, y, k as u32, j, salt]);
                        let at = Vec2::new((x as f32 + r(2)) * cell, (y as f32 + r(3)) * cell);
                        if road_cells.covers(at) {
                            continue;
                        }
                        let size = kind.size.0 + (kind.size.1 - kind.size.0) * r(4);
                        let tint = 0.8 + 0.4 * r(5);
                        let warm = 0.92 + 0.16 * r(8);
                        let (cr, cg, cb) = kind.color;
                        let color = [cr * tint * warm, cg * tint, cb * tint / warm];
                        let stretch = 0.8 + 0.4 * r(6);
                        let yaw = r(7) * std::f32::consts::TAU;
                        // Sunk a little so no gap shows under it on a slope.
                        let z = ground.height(at) - size * 0.08;
                        let instance = ObjectInstance {
                            tilt: pose::LEVEL,
                            ..ObjectInstance::still([at.x, at.y, z], yaw, [size * stretch, size, size], color, color)
                        };
                        groups[k].instances.push(instance);
                        groups[k].ranks.push(r(9));
                    }
                }
            }
        }
        for g in &mut groups {
            let mut order: Vec<usize> = (0..g.ranks.len()).collect();
            order.sort_by(|&a, &b| g.ranks[a].total_cmp(&g.ranks[b]));
            g.instances = order.iter().map(|&i| g.instances[i]).collect();
            g.ranks = order.iter().map(|&i| g.ranks[i]).collect();
        }
        Scatter { groups, shares: defs.quality }
    }

    /// The share of each kind `quality` draws: the items ranked below it.
    pub fn share(&self, quality: Quality) -> f32 {
        match quality {
            Quality::Low => self.shares.low,
            Quality::Medium => self.shares.medium,
            Quality::High => self.shares.high,
        }
    }

    /// How many of group `kind`'s items `quality` draws (its first ones).
    pub fn count(&self, kind: usize, quality: Quality) -> usize {
        let share = self.share(quality);
        self.groups.get(kind).map_or(0, |g| g.ranks.partition_point(|&r| r < share))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defs::Source;
    use crate::map::format::PlacedObject;

    fn classes() -> TerrainClasses {
        let src = Source::from_text("data/terrain.ron", include_str!("../../../data/terrain.ron"));
        TerrainClasses { classes: src.parse().unwrap() }
    }

    /// A flat 24×24 map in bands of four columns per class: Grass, Dirt, Rock, Sand,
    /// Pavement, Rubble.
    fn banded() -> Map {
        let mut map = Map::load(std::path::Path::new("maps/proving_grounds")).unwrap();
        map.file.size = (24, 24);
        map.file.water_level = 0.0;
        map.file.objects = vec![PlacedObject { template: "Tree".into(), at: (2.5, 20.5) }];
        map.file.supplies.clear();
        map.heightmap = crate::map::Heightmap::flat(25, 25, 1000);
        map.classes = (0..24 * 24).map(|i| ((i % 24) / 4) as u8).collect();
        map
    }

    fn defs() -> ScatterDefs {
        ScatterDefs::load(std::path::Path::new("data/scatter.ron"), &classes()).unwrap()
    }

    fn placed(map: &Map) -> Scatter {
        let ground = HeightField::from_map(map);
        Scatter::place(map, &classes(), &defs(), &ground, &RoadMesh::default())
    }

    fn class_under(map: &Map, i: &ObjectInstance) -> u8 {
        let cell = map.file.cell_size as f32;
        let (x, y) = ((i.offset[0] / cell) as u32, (i.offset[1] / cell) as u32);
        map.classes[(y * map.file.size.0 + x) as usize]
    }

    #[test]
    fn scatter_is_the_same_every_time_and_keeps_to_its_classes() {
        let map = banded();
        let a = placed(&map);
        assert_eq!(a, placed(&map), "placement is a function of the map alone");
        let defs = defs();
        for (k, group) in a.groups.iter().enumerate() {
            for i in &group.instances {
                let class = &classes().classes[class_under(&map, i) as usize];
                assert!(defs.per_cell(k, &class.name) > 0.0, "{} on {}", defs.kinds[k].name, class.name);
                assert!(class.passable && class.detail != Detail::Paved, "{} on {}", defs.kinds[k].name, class.name);
            }
        }
        let stones = a.groups.iter().position(|g| g.shape == Some(ScatterShape::Stone)).unwrap();
        let tufts = a.groups.iter().position(|g| g.shape == Some(ScatterShape::Tuft)).unwrap();
        let on = |g: usize, class: u8| a.groups[g].instances.iter().filter(|i| class_under(&map, i) == class).count();
        // Stones on rock, tufts on grass; nothing at all on pavement (4) or rubble (5).
        assert!(
            on(stones, 2) > 20 && on(tufts, 0) > 15,
            "{} stones on rock, {} tufts on grass",
            on(stones, 2),
            on(tufts, 0)
        );
        assert!((0..a.groups.len()).all(|g| on(g, 4) == 0 && on(g, 5) == 0));
        // The tree's cell and its neighbours stay clear.
        let near_tree =
            |i: &ObjectInstance| (i.offset[0] / 10.0 - 2.5).abs() < 1.5 && (i.offset[1] / 10.0 - 20.5).abs() < 1.5;
        assert!(a.groups.iter().flat_map(|g| &g.instances).all(|i| !near_tree(i)));
        // A different map (the classes' bands shifted) strews differently.
        let mut other = banded();
        other.classes.rotate_right(1);
        assert_ne!(placed(&other).groups[tufts].instances, a.groups[tufts].instances);
    }

    #[test]
    fn each_quality_draws_its_share_and_low_draws_none() {
        let a = placed(&banded());
        for (k, g) in a.groups.iter().enumerate() {
            let (low, medium, high) =
                (a.count(k, Quality::Low), a.count(k, Quality::Medium), a.count(k, Quality::High));
            assert_eq!(low, 0, "Low draws no scatter");
            assert_eq!(high, g.instances.len());
            assert!(medium < high && medium > 0, "group {k}: {medium} of {high}");
            let share = medium as f32 / high as f32;
            assert!((share - 0.4).abs() < 0.2, "group {k}: Medium draws {share} of High");
        }
    }

    #[test]
    fn nothing_stands_on_a_road() {
        let map = banded();
        // A road strip over the grass columns, 40 units wide, from y 60 to 140.
        let v = |x: f32, y: f32| crate::map::roads::RoadVertex {
            position: [x, y, 0.0],
            normal: [0.0, 0.0, 1.0],
            uv: [0.0, 0.0],
        };
        let roads = RoadMesh {
            vertices: vec![v(0.0, 60.0), v(40.0, 60.0), v(40.0, 140.0), v(0.0, 140.0)],
            indices: vec![0, 1, 2, 0, 2, 3],
            ..RoadMesh::default()
        };
        let ground = HeightField::from_map(&map);
        let with = Scatter::place(&map, &classes(), &defs(), &ground, &roads);
        let on_road = |i: &&ObjectInstance| i.offset[0] < 40.0 && (60.0..140.0).contains(&i.offset[1]);
        assert_eq!(with.groups.iter().flat_map(|g| &g.instances).filter(on_road).count(), 0);
        assert!(placed(&map).groups.iter().flat_map(|g| &g.instances).filter(on_road).count() > 5);
    }
}
