//! Steps 6 and 7 of the road builder: every piece sampled along and across at terrain-cell
//! resolution, each cross-section lifted to the highest ground under it, flat stretches thinned
//! out, and atlas coordinates assigned, continuous along each run.

use glam::{Vec2, Vec3};

use super::ground::Ground;
use super::mesh::{Batch, PieceInfo, PieceKind, RoadMesh, RoadVertex};
use super::topology::{Along, Edge, Layout, Piece, SURFACE_OFFSET, Shape};
use super::types::{ATLAS_WIDTH, BAND_PX, Band, RoadTypes};

/// A column may be dropped when the neighbours it lies between predict its height this well.
const FLAT_TOLERANCE: f32 = 0.05;

/// One cross-section: points from the left edge to the right, and the distance along.
struct Column {
    pts: Vec<Vec3>,
    s: f32,
}

/// Points across a road of half-width `hw` on cells of side `cell`.
fn across_count(hw: f32, cell: f32) -> usize {
    ((2.0 * hw / cell).ceil() as usize + 1).clamp(2, 64)
}

/// The highest ground under the line from `l` to `r`, sampled at the `n` vertex positions and
/// three points between each pair, plus the surface offset.
fn section_height(ground: &dyn Ground, l: Vec2, r: Vec2, n: usize) -> f32 {
    let m = (n - 1) * 4;
    (0..=m).map(|k| ground.height(l.lerp(r, k as f32 / m as f32))).fold(f32::MIN, f32::max) + SURFACE_OFFSET
}

fn column(l: Vec2, r: Vec2, z: f32, n: usize, s: f32) -> Column {
    let pts = (0..n)
        .map(|j| {
            let p = if j == 0 {
                l
            } else if j == n - 1 {
                r
            } else {
                l.lerp(r, j as f32 / (n - 1) as f32)
            };
            p.extend(z)
        })
        .collect();
    Column { pts, s }
}

/// Drops interior columns whose height the kept neighbours predict within the tolerance.
fn thin(cols: Vec<Column>) -> Vec<Column> {
    if cols.len() <= 2 {
        return cols;
    }
    let z = |c: &Column| c.pts[0].z;
    let mut keep = vec![true; cols.len()];
    let mut anchor = 0usize;
    for (i, slot) in keep.iter_mut().enumerate().take(cols.len() - 1).skip(1) {
        let next = i + 1;
        let (s0, s1) = (cols[anchor].s, cols[next].s);
        let fits = (anchor + 1..next).all(|k| {
            let t = if s1 > s0 { (cols[k].s - s0) / (s1 - s0) } else { 0.0 };
            (z(&cols[anchor]) + (z(&cols[next]) - z(&cols[anchor])) * t - z(&cols[k])).abs() <= FLAT_TOLERANCE
        });
        if fits {
            *slot = false;
        } else {
            anchor = i;
        }
    }
    cols.into_iter().zip(keep).filter_map(|(c, k)| k.then_some(c)).collect()
}

/// The most vertices and triangles [`tessellate`] can make of a layout (before thinning),
/// counted without making any. Saturates rather than overflows.
pub(crate) fn bound(layout: &Layout, types: &RoadTypes, cell: f32) -> (usize, usize) {
    let cell = cell.max(0.5);
    let (mut vertices, mut triangles) = (0usize, 0usize);
    for p in &layout.pieces {
        let n = across_count(types.types[p.ty].half_width(), cell);
        let (v, t) = match &p.shape {
            Shape::Strip { start, end, .. } => {
                let len = (mid(&layout.edges[*end]) - mid(&layout.edges[*start])).length();
                let count = ((len / cell).ceil() as usize + 1).clamp(2, 4096);
                (count * n, 2 * (count - 1) * (n - 1))
            }
            Shape::Arc { radius, sweep, half_width, .. } => {
                let count = (((radius + half_width) * sweep.abs() / cell).ceil() as usize + 1).clamp(2, 1024);
                (count * n, 2 * (count - 1) * (n - 1))
            }
            // The centre, the ring, and four points and two triangles per border strip.
            Shape::Fan { ring, .. } => (1 + 5 * ring.len(), 3 * ring.len()),
        };
        vertices = vertices.saturating_add(v);
        triangles = triangles.saturating_add(t);
    }
    (vertices, triangles)
}

/// Turns the layout into the mesh: every edge's height, every piece in turn, then the
/// batches.
pub(crate) fn tessellate(layout: &Layout, types: &RoadTypes, ground: &dyn Ground) -> RoadMesh {
    let cell = ground.cell_size().max(0.5);
    let blocks = types.blocks();
    let edge_z = edge_heights(layout, types, ground, cell);
    let mut mesh = RoadMesh { warnings: layout.warnings.clone(), ..RoadMesh::default() };
    let mut piece_indices: Vec<Vec<u32>> = Vec::new();
    for p in &layout.pieces {
        let rt = &types.types[p.ty];
        let hw = rt.half_width();
        let c = PieceCtx {
            layout,
            ground,
            cell,
            edge_z: &edge_z,
            n: across_count(hw, cell),
            hw,
            tile: 2.0 * hw * (ATLAS_WIDTH / BAND_PX) as f32,
            v: rt.band_v(p.band, blocks),
            straight_v: rt.band_v(Band::Straight, blocks),
        };
        let first = mesh.vertices.len() as u32;
        let out = piece(&c, p, &mut mesh.vertices);
        mesh.pieces.push(PieceInfo {
            kind: p.kind,
            road_type: p.ty as u16,
            vertices: first..mesh.vertices.len() as u32,
            edges: out.edges,
        });
        piece_indices.push(out.indices);
    }
    batch(&mut mesh, layout, &piece_indices);
    mesh
}

/// Each edge's height: the highest ground under it, sampled with the points across of a piece
/// that uses it (shared edges share a type), and at least its floor.
fn edge_heights(layout: &Layout, types: &RoadTypes, ground: &dyn Ground, cell: f32) -> Vec<f32> {
    let mut edge_n = vec![2usize; layout.edges.len()];
    for p in &layout.pieces {
        let n = across_count(types.types[p.ty].half_width(), cell);
        match &p.shape {
            Shape::Strip { start, end, .. } | Shape::Arc { start, end, .. } => {
                edge_n[*start] = n;
                edge_n[*end] = n;
            }
            Shape::Fan { edges, .. } => edges.iter().for_each(|e| edge_n[*e] = n),
        }
    }
    layout.edges.iter().zip(&edge_n).map(|(e, &n)| section_height(ground, e.l, e.r, n).max(e.floor)).collect()
}

/// What tessellating one piece reads: the layout, the ground, the cell side and every edge's
/// height, and its road type's numbers.
struct PieceCtx<'a> {
    layout: &'a Layout,
    ground: &'a dyn Ground,
    cell: f32,
    edge_z: &'a [f32],
    /// Points across.
    n: usize,
    /// Half the road's width.
    hw: f32,
    /// The length along one repeat of the atlas's texture.
    tile: f32,
    /// The piece's band in the atlas (top and bottom v).
    v: (f32, f32),
    /// The straight band (junction borders are drawn from its edge).
    straight_v: (f32, f32),
}

/// One piece's output beside the vertices: its triangles and its edges' points as emitted.
#[derive(Default)]
struct PieceOut {
    indices: Vec<u32>,
    edges: Vec<(usize, [[f32; 3]; 2])>,
}

/// Tessellates one piece, its vertices appended to `vertices`.
fn piece(c: &PieceCtx<'_>, p: &Piece, vertices: &mut Vec<RoadVertex>) -> PieceOut {
    let mut out = PieceOut::default();
    let (v0, v1) = c.v;
    match &p.shape {
        Shape::Strip { start, end, along } => {
            let (cols, len) = strip_columns(c, *start, *end);
            let cols = thin(cols);
            let tile = c.tile;
            let u = |s: f32| match along {
                Along::Tiled(u0) => (u0 + s) / tile,
                Along::Fade { reversed: false } => s / len.max(1e-3),
                Along::Fade { reversed: true } => 1.0 - s / len.max(1e-3),
            };
            emit_strip(vertices, &mut out.indices, &cols, u, (v0, v1));
            out.edges.push((*start, ends(&cols[0])));
            out.edges.push((*end, ends(&cols[cols.len() - 1])));
        }
        &Shape::Arc { start, end, centre, radius, a0, sweep, half_width, u0 } => {
            let cols = arc_columns(c, (start, end), ArcPath { centre, radius, a0, sweep, half_width });
            emit_strip(vertices, &mut out.indices, &cols, |s| (u0 + s) / c.tile, (v0, v1));
            out.edges.push((start, ends(&cols[0])));
            out.edges.push((end, ends(&cols[cols.len() - 1])));
        }
        Shape::Fan { centre, ring, axis, extent, floor, edges } => {
            let shape = FanShape { centre: *centre, ring, axis: *axis, extent: *extent, floor: *floor, edges };
            fan(c, p.kind, &shape, vertices, &mut out);
        }
    }
    out
}

/// A straight piece's columns from edge `start` to edge `end`, one a cell, and its length.
fn strip_columns(c: &PieceCtx<'_>, start: usize, end: usize) -> (Vec<Column>, f32) {
    let (e0, e1) = (&c.layout.edges[start], &c.layout.edges[end]);
    let len = (mid(e1) - mid(e0)).length();
    let count = ((len / c.cell).ceil() as usize + 1).clamp(2, 4096);
    let mut cols = Vec::with_capacity(count);
    for k in 0..count {
        let t = k as f32 / (count - 1) as f32;
        let col = if k == 0 {
            column(e0.l, e0.r, c.edge_z[start], c.n, 0.0)
        } else if k == count - 1 {
            column(e1.l, e1.r, c.edge_z[end], c.n, len)
        } else {
            let (l, r) = (e0.l.lerp(e1.l, t), e0.r.lerp(e1.r, t));
            column(l, r, section_height(c.ground, l, r, c.n), c.n, len * t)
        };
        cols.push(col);
    }
    (cols, len)
}

/// A curve's circle: centre, radius, starting angle, sweep (radians, positive
/// anticlockwise) and half the road's width.
struct ArcPath {
    centre: Vec2,
    radius: f32,
    a0: f32,
    sweep: f32,
    half_width: f32,
}

/// A curved piece's columns from edge `start` to edge `end`, one a cell along its outer side.
fn arc_columns(c: &PieceCtx<'_>, (start, end): (usize, usize), arc: ArcPath) -> Vec<Column> {
    let ArcPath { centre, radius, a0, sweep, half_width } = arc;
    let outer = (radius + half_width) * sweep.abs();
    let count = ((outer / c.cell).ceil() as usize + 1).clamp(2, 1024);
    let arc_len = radius * sweep.abs();
    let mut cols = Vec::with_capacity(count);
    for k in 0..count {
        let t = k as f32 / (count - 1) as f32;
        let col = if k == 0 {
            let e = &c.layout.edges[start];
            column(e.l, e.r, c.edge_z[start], c.n, 0.0)
        } else if k == count - 1 {
            let e = &c.layout.edges[end];
            column(e.l, e.r, c.edge_z[end], c.n, arc_len)
        } else {
            let ang = a0 + sweep * t;
            let radial = Vec2::new(ang.cos(), ang.sin());
            let (inner, outer) = (centre + radial * (radius - half_width), centre + radial * (radius + half_width));
            let (l, r) = if sweep > 0.0 { (inner, outer) } else { (outer, inner) };
            column(l, r, section_height(c.ground, l, r, c.n), c.n, arc_len * t)
        };
        cols.push(col);
    }
    cols
}

/// A junction patch: its centre, the ring around it, the axis and extent its texture is laid
/// along, its height, and the edges its arms meet it by.
struct FanShape<'a> {
    centre: Vec2,
    ring: &'a [Vec2],
    axis: Vec2,
    extent: f32,
    floor: f32,
    edges: &'a [usize],
}

/// A junction patch: a flat fan from its centre to its ring, with border strips on slanted
/// junctions (Y, H) and each arm's edge snapped to the ring.
fn fan(c: &PieceCtx<'_>, kind: PieceKind, f: &FanShape<'_>, vertices: &mut Vec<RoadVertex>, out: &mut PieceOut) {
    let (v0, v1) = c.v;
    let (centre, floor) = (f.centre, f.floor);
    let side = f.axis.perp();
    let band_u = BAND_PX as f32 / ATLAS_WIDTH as f32;
    let uv = |p: Vec2| {
        let d = p - centre;
        let (x, y) = (d.dot(f.axis) / (2.0 * f.extent), d.dot(side) / (2.0 * f.extent));
        [(0.5 + x) * band_u, v0 + (0.5 - y) * (v1 - v0)]
    };
    // Slanted junctions (Y, H) have stretches of their ring between two arms that no road
    // comes in by; those get a border strip drawn from the straight band's edge (edge line,
    // shoulder fading out) so the patch ends like a road's side.
    let mouths: Vec<(Vec2, Vec2)> = f.edges.iter().map(|&e| (c.layout.edges[e].l, c.layout.edges[e].r)).collect();
    let bordered = matches!(kind, PieceKind::Y | PieceKind::H | PieceKind::HFlip);
    let (inner, borders) = if bordered {
        let width = 2.0 * c.hw * (1.0 - BORDER_ACROSS);
        junction_border(f.ring, centre, &mouths, width)
    } else {
        (f.ring.to_vec(), Vec::new())
    };
    let first = vertices.len() as u32;
    let flat = |q: Vec2| RoadVertex { position: q.extend(floor).into(), normal: [0.0, 0.0, 1.0], uv: uv(q) };
    vertices.push(flat(centre));
    vertices.extend(inner.iter().map(|&q| flat(q)));
    let k = inner.len() as u32;
    for i in 0..k {
        out.indices.extend_from_slice(&[first, first + 1 + i, first + 1 + (i + 1) % k]);
    }
    let (s0, s1) = c.straight_v;
    for i in borders {
        let j = (i + 1) % f.ring.len();
        let (a, b) = (f.ring[i], f.ring[j]);
        let dir = (b - a).normalize_or_zero();
        let at = vertices.len() as u32;
        for (q, across) in [(a, 1.0), (b, 1.0), (inner[j], BORDER_ACROSS), (inner[i], BORDER_ACROSS)] {
            vertices.push(RoadVertex {
                position: q.extend(floor).into(),
                normal: [0.0, 0.0, 1.0],
                uv: [(q - a).dot(dir) / c.tile, s0 + across * (s1 - s0)],
            });
        }
        out.indices.extend_from_slice(&[at, at + 1, at + 2, at, at + 2, at + 3]);
    }
    for &e in f.edges {
        let edge = &c.layout.edges[e];
        let emitted = |p: Vec2| {
            let nearest = f.ring.iter().copied().min_by(|a, b| a.distance(p).total_cmp(&b.distance(p))).unwrap_or(p);
            [nearest.x, nearest.y, floor]
        };
        out.edges.push((e, [emitted(edge.l), emitted(edge.r)]));
    }
}

/// The mesh's batches: by stacking, then type, pieces in build order within each.
fn batch(mesh: &mut RoadMesh, layout: &Layout, piece_indices: &[Vec<u32>]) {
    let mut order: Vec<usize> = (0..layout.pieces.len()).collect();
    order.sort_by_key(|&i| (layout.stacking[layout.pieces[i].ty], layout.pieces[i].ty, i));
    for i in order {
        let ty = layout.pieces[i].ty as u16;
        let stacking = layout.stacking[ty as usize];
        let idx = &piece_indices[i];
        match mesh.batches.last_mut() {
            Some(b) if b.road_type == ty && b.stacking == stacking => b.index_count += idx.len() as u32,
            _ => mesh.batches.push(Batch {
                road_type: ty,
                stacking,
                first_index: mesh.indices.len() as u32,
                index_count: idx.len() as u32,
            }),
        }
        mesh.indices.extend_from_slice(idx);
    }
}

/// Where a slanted junction's border strip starts, across the straight band (1 is its
/// outer edge): inside the edge line, so the strip carries it.
const BORDER_ACROSS: f32 = 0.78;

/// A junction patch's ring with its border strips cut off: the ring's stretches that are not
/// an arm's mouth (`mouths`, each an arm edge's left and right point) are moved `width`
/// toward `centre`, each end sliding along the mouth it meets. Returns the inner ring (one
/// point per ring point) and the indices `i` of the bordered stretches (ring `i` to `i + 1`).
fn junction_border(ring: &[Vec2], centre: Vec2, mouths: &[(Vec2, Vec2)], width: f32) -> (Vec<Vec2>, Vec<usize>) {
    let k = ring.len();
    let same = |a: Vec2, b: Vec2| a.distance(b) < 1e-3;
    let is_mouth =
        |a: Vec2, b: Vec2| mouths.iter().any(|&(l, r)| (same(a, l) && same(b, r)) || (same(a, r) && same(b, l)));
    let borders: Vec<usize> = (0..k)
        .filter(|&i| ring[i].distance(ring[(i + 1) % k]) > 1e-2 && !is_mouth(ring[i], ring[(i + 1) % k]))
        .collect();
    let mut inner = ring.to_vec();
    for &i in &borders {
        let (a, b) = (ring[i], ring[(i + 1) % k]);
        let chord = b - a;
        let mut inward = chord.perp().normalize_or_zero();
        if inward.dot(centre - a) < 0.0 {
            inward = -inward;
        }
        // Each end slides along its other side (a mouth) until it is `width` in.
        for (end, other) in [(i, (i + k - 1) % k), ((i + 1) % k, (i + 2) % k)] {
            let side = ring[other] - ring[end];
            let depth = side.dot(inward);
            if depth > 1e-3 {
                inner[end] = ring[end] + side * (width / depth).min(0.45);
            }
        }
    }
    (inner, borders)
}

fn mid(e: &Edge) -> Vec2 {
    (e.l + e.r) * 0.5
}

fn ends(c: &Column) -> [[f32; 3]; 2] {
    [c.pts[0].into(), c.pts[c.pts.len() - 1].into()]
}

/// Writes the vertices and triangles of a run of columns.
fn emit_strip(
    vertices: &mut Vec<RoadVertex>,
    indices: &mut Vec<u32>,
    cols: &[Column],
    u: impl Fn(f32) -> f32,
    (v0, v1): (f32, f32),
) {
    let base = vertices.len() as u32;
    let n = cols[0].pts.len();
    for (k, c) in cols.iter().enumerate() {
        let centre = |c: &Column| (c.pts[0] + c.pts[n - 1]) * 0.5;
        let prev = &cols[k.saturating_sub(1)];
        let next = &cols[(k + 1).min(cols.len() - 1)];
        let along = centre(next) - centre(prev);
        let across = c.pts[n - 1] - c.pts[0];
        let mut normal = across.cross(along).normalize_or(Vec3::Z);
        if normal.z < 0.0 {
            normal = -normal;
        }
        for (j, p) in c.pts.iter().enumerate() {
            let v = v0 + (v1 - v0) * j as f32 / (n - 1) as f32;
            vertices.push(RoadVertex { position: (*p).into(), normal: normal.into(), uv: [u(c.s), v] });
        }
    }
    for k in 0..cols.len() as u32 - 1 {
        for j in 0..n as u32 - 1 {
            let a = base + k * n as u32 + j;
            let (b, c, d) = (a + 1, a + n as u32, a + n as u32 + 1);
            indices.extend_from_slice(&[a, b, c, b, d, c]);
        }
    }
}

impl PieceKind {
    /// True for junction patches.
    pub fn is_junction(self) -> bool {
        matches!(self, PieceKind::Tee | PieceKind::Y | PieceKind::H | PieceKind::HFlip | PieceKind::FourWay)
    }
}
