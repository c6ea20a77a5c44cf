//! Steps 1–5 of the road builder: clean the segments, find which ends meet, order segments
//! into runs, and decide every piece: straights, curves, miters, junction patches, alpha joins
//! and fading caps, with the shared edges between them.
//!
//! Works in world units with `f32`; it is display geometry, never simulation state.
//! Must not: panic on any input; bad input becomes a warning and a sensible result.

use std::collections::{BTreeMap, BTreeSet};
use std::f32::consts::PI;

use glam::Vec2;

use super::RoadSegment;
use super::ground::Ground;
use super::mesh::PieceKind;
use super::types::{Band, RoadTypes};

mod junctions;
mod near;
use junctions::junctions;
use near::SegmentGrid;

/// A turn at or below this (radians) is mitered rather than curved.
const MITER_MAX_TURN: f32 = 25.0 * PI / 180.0;
/// An angled (mitered) corner sharper than this is curved anyway: the miter would spike.
const ANGLED_MAX_TURN: f32 = 120.0 * PI / 180.0;
/// Curve pieces span about this much turn each.
const CURVE_STEP: f32 = 30.0 * PI / 180.0;
/// Most a junction or corner may shorten a segment end, as a share of its length.
const MAX_TRIM_SHARE: f32 = 0.45;
/// Most links at one point that form a junction.
const MAX_LINKS: usize = 4;
/// Height added to road surfaces against depth fighting.
pub(crate) const SURFACE_OFFSET: f32 = 0.15;

/// A cross-section line shared by two pieces: left and right points relative to travel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Edge {
    pub l: Vec2,
    pub r: Vec2,
    /// Lowest height allowed (a junction's floor), world units.
    pub floor: f32,
}

/// How a piece's texture coordinate along the road is laid out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Along {
    /// Tiled, continuing from `u0` world units along the run.
    Tiled(f32),
    /// Stretched once over the piece, opaque to transparent (`reversed`: transparent first).
    Fade { reversed: bool },
}

/// The geometry of a piece before tessellation.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Shape {
    /// A strip between two edges; `straight` allows dropping flat columns.
    Strip { start: usize, end: usize, along: Along },
    /// A circular arc between two edges.
    Arc { start: usize, end: usize, centre: Vec2, radius: f32, a0: f32, sweep: f32, half_width: f32, u0: f32 },
    /// A flat convex patch: the ring of arm edge points around a centre; its texture square
    /// is `2 * extent` wide along `axis` and across it.
    Fan { centre: Vec2, ring: Vec<Vec2>, axis: Vec2, extent: f32, floor: f32, edges: Vec<usize> },
}

/// One piece of road.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Piece {
    pub kind: PieceKind,
    pub band: Band,
    pub ty: usize,
    pub shape: Shape,
}

/// The result of steps 1–5.
#[derive(Clone, Debug, Default)]
pub(crate) struct Layout {
    pub edges: Vec<Edge>,
    pub pieces: Vec<Piece>,
    /// Stacking per road type after cross-type joins raised some.
    pub stacking: Vec<i32>,
    pub warnings: Vec<String>,
}

#[derive(Clone, Debug)]
struct Seg {
    ty: usize,
    a: Vec2,
    b: Vec2,
    angled: bool,
    tight: bool,
    join: bool,
    /// Index in the map's list, for warnings.
    source: usize,
    trim: [f32; 2],
    edge: [Option<usize>; 2],
}

impl Seg {
    fn dir(&self) -> Vec2 {
        (self.b - self.a).normalize_or_zero()
    }
    fn len(&self) -> f32 {
        (self.b - self.a).length()
    }
    fn point(&self, end: usize) -> Vec2 {
        if end == 0 { self.a } else { self.b }
    }
    /// Direction pointing away from `end` along the segment.
    fn outward(&self, end: usize) -> Vec2 {
        if end == 0 { self.dir() } else { -self.dir() }
    }
    fn flip(&mut self) {
        std::mem::swap(&mut self.a, &mut self.b);
        self.trim.swap(0, 1);
        self.edge.swap(0, 1);
    }
}

type NodeKey = (usize, u32, u32);

fn key(ty: usize, p: Vec2) -> NodeKey {
    (ty, p.x.to_bits(), p.y.to_bits())
}

fn perp(d: Vec2) -> Vec2 {
    Vec2::new(-d.y, d.x)
}

fn describe(s: &Seg, types: &RoadTypes) -> String {
    let name = types.types.get(s.ty).map_or("?", |t| t.def.name.as_str());
    format!("road segment {} ({name} ({:.1}, {:.1})–({:.1}, {:.1}))", s.source, s.a.x, s.a.y, s.b.x, s.b.y)
}

/// Builds the layout of every piece from the map's segments.
pub(crate) fn layout(input: &[RoadSegment], types: &RoadTypes, ground: &dyn Ground) -> Layout {
    let mut out = Layout { stacking: types.types.iter().map(|t| t.def.stacking).collect(), ..Layout::default() };
    let mut segs = clean(input, types, &mut out.warnings);
    let hw: Vec<f32> = types.types.iter().map(|t| t.half_width()).collect();
    let nodes = nodes(&segs);
    let runs = runs(&mut segs, &nodes);
    // Re-key after flipping (positions are unchanged, ends may have swapped).
    let nodes = self::nodes(&segs);
    junctions(&mut segs, &nodes, &hw, types, ground, &mut out);
    let corners = corners(&mut segs, &nodes, &hw, types, &mut out);
    // Straight pieces (edges at both ends), walked along runs so textures continue.
    for run in &runs {
        let mut u = 0.0f32;
        for &i in run {
            let s = &segs[i];
            let d = s.dir();
            let h = hw[s.ty];
            let start = s.edge[0].unwrap_or_else(|| push_edge(&mut out.edges, s.a + d * s.trim[0], d, h));
            let end = s.edge[1].unwrap_or_else(|| push_edge(&mut out.edges, s.b - d * s.trim[1], d, h));
            segs[i].edge = [Some(start), Some(end)];
            let len = (mid(&out.edges[end]) - mid(&out.edges[start])).length();
            out.pieces.push(Piece {
                kind: PieceKind::Straight,
                band: Band::Straight,
                ty: segs[i].ty,
                shape: Shape::Strip { start, end, along: Along::Tiled(u) },
            });
            u += len;
            if let Some(arcs) = corners.get(&(i, 1)) {
                for arc in arcs {
                    let mut arc = arc.clone();
                    if let Shape::Arc { u0, radius, sweep, .. } = &mut arc.shape {
                        *u0 = u;
                        u += *radius * sweep.abs();
                    }
                    out.pieces.push(arc);
                }
            }
        }
    }
    open_ends(&mut segs, &nodes, &hw, &mut out);
    out
}

fn mid(e: &Edge) -> Vec2 {
    (e.l + e.r) * 0.5
}

fn push_edge(edges: &mut Vec<Edge>, centre: Vec2, dir: Vec2, hw: f32) -> usize {
    let n = perp(dir) * hw;
    edges.push(Edge { l: centre + n, r: centre - n, floor: f32::MIN });
    edges.len() - 1
}

/// Step 1: known types only, finite points, zero lengths nudged, duplicates dropped.
fn clean(input: &[RoadSegment], types: &RoadTypes, warnings: &mut Vec<String>) -> Vec<Seg> {
    let mut segs: Vec<Seg> = Vec::new();
    // Each kept segment as its type and its two ends in order, so a duplicate (either way
    // round) is one look-up; `+ 0.0` makes -0 and 0 the same, as `==` on the floats has them.
    let mut seen: BTreeSet<(usize, [u32; 4])> = BTreeSet::new();
    let ends = |s: &Seg| {
        let bits = |p: Vec2| [(p.x + 0.0).to_bits(), (p.y + 0.0).to_bits()];
        let (a, b) = (bits(s.a), bits(s.b));
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        (s.ty, [lo[0], lo[1], hi[0], hi[1]])
    };
    for (i, r) in input.iter().enumerate() {
        let Some(t) = types.by_name(&r.road) else {
            warnings.push(format!("road segment {i}: unknown road type \"{}\"; segment skipped", r.road));
            continue;
        };
        if !(r.from.is_finite() && r.to.is_finite()) {
            warnings.push(format!("road segment {i}: point is not a finite number; segment skipped"));
            continue;
        }
        let mut s = Seg {
            ty: t.id as usize,
            a: r.from,
            b: r.to,
            angled: r.flags.angled,
            tight: r.flags.tight,
            join: r.flags.join,
            source: i,
            trim: [0.0; 2],
            edge: [None; 2],
        };
        if s.a == s.b {
            s.b.x += 0.25;
            warnings.push(format!("{}: zero length; nudged by a quarter unit", describe(&s, types)));
        }
        if !seen.insert(ends(&s)) {
            warnings.push(format!("{}: duplicate of an earlier segment; dropped", describe(&s, types)));
            continue;
        }
        segs.push(s);
    }
    segs
}

/// Step 2a: which segment ends meet at each exact point, per road type.
fn nodes(segs: &[Seg]) -> BTreeMap<NodeKey, Vec<(usize, usize)>> {
    let mut map: BTreeMap<NodeKey, Vec<(usize, usize)>> = BTreeMap::new();
    for (i, s) in segs.iter().enumerate() {
        map.entry(key(s.ty, s.a)).or_default().push((i, 0));
        map.entry(key(s.ty, s.b)).or_default().push((i, 1));
    }
    map
}

/// Step 2b: orders and flips segments into runs through two-link points.
fn runs(segs: &mut [Seg], nodes: &BTreeMap<NodeKey, Vec<(usize, usize)>>) -> Vec<Vec<usize>> {
    let degree =
        |segs: &[Seg], s: usize, end: usize| nodes.get(&key(segs[s].ty, segs[s].point(end))).map_or(0, Vec::len);
    let mut visited = vec![false; segs.len()];
    let mut runs = Vec::new();
    // Runs starting at ends (points not linking exactly two), then closed loops.
    let mut starts: Vec<(usize, usize)> = Vec::new();
    for i in 0..segs.len() {
        for end in 0..2 {
            if degree(segs, i, end) != 2 {
                starts.push((i, end));
            }
        }
    }
    starts.extend((0..segs.len()).map(|i| (i, 0)));
    for (first, entry) in starts {
        if visited[first] {
            continue;
        }
        let mut run = Vec::new();
        let (mut cur, mut entry) = (first, entry);
        loop {
            visited[cur] = true;
            if entry == 1 {
                segs[cur].flip();
            }
            run.push(cur);
            let exit = key(segs[cur].ty, segs[cur].b);
            let Some(links) = nodes.get(&exit) else { break };
            if links.len() != 2 {
                break;
            }
            let Some(&(next, next_end)) = links.iter().find(|&&(s, _)| s != cur) else { break };
            if visited[next] {
                break;
            }
            // `next_end` was recorded before any flip of `next`; it has not been flipped yet.
            (cur, entry) = (next, next_end);
        }
        runs.push(run);
    }
    runs
}

/// Step 4: two-link points get a miter or curve pieces. Returns the curve pieces by the
/// (segment, end) they follow.
fn corners(
    segs: &mut [Seg],
    nodes: &BTreeMap<NodeKey, Vec<(usize, usize)>>,
    hw: &[f32],
    types: &RoadTypes,
    out: &mut Layout,
) -> BTreeMap<(usize, usize), Vec<Piece>> {
    let mut arcs: BTreeMap<(usize, usize), Vec<Piece>> = BTreeMap::new();
    for links in nodes.values() {
        if links.len() != 2 {
            continue;
        }
        // After run ordering one link ends at the point (end 1) and the other starts there.
        let (Some(&(s1, _)), Some(&(s2, _))) = (links.iter().find(|l| l.1 == 1), links.iter().find(|l| l.1 == 0))
        else {
            continue;
        };
        if s1 == s2 {
            continue;
        }
        let ty = segs[s1].ty;
        let h = hw[ty];
        let (d1, d2) = (segs[s1].dir(), segs[s2].dir());
        let node = segs[s1].b;
        let turn = d1.perp_dot(d2).atan2(d1.dot(d2));
        let angled = segs[s1].angled || segs[s2].angled;
        if turn.abs() <= MITER_MAX_TURN || (angled && turn.abs() <= ANGLED_MAX_TURN) {
            miter(segs, (s1, s2), h, true, out);
            continue;
        }
        let tight = segs[s1].tight || segs[s2].tight;
        let t = &types.types[ty].def;
        let mut radius = 2.0 * h * t.width_in_texture * if tight { t.tight_radius } else { t.curve_radius };
        let half = turn.abs() / 2.0;
        let avail = ((segs[s1].len() - segs[s1].trim[0]) * MAX_TRIM_SHARE)
            .min((segs[s2].len() - segs[s2].trim[1]) * MAX_TRIM_SHARE);
        let mut trim = radius * half.tan();
        if trim > avail {
            trim = avail.max(0.0);
            radius = trim / half.tan().max(1e-3);
        }
        if radius < h * 1.05 {
            out.warnings.push(format!(
                "{}: the segments at ({:.1}, {:.1}) are too short for a curve; mitered instead",
                describe(&segs[s1], types),
                node.x,
                node.y
            ));
            miter(segs, (s1, s2), h, false, out);
            continue;
        }
        segs[s1].trim[1] = trim;
        segs[s2].trim[0] = trim;
        let bend = Bend { ty, h, turn, radius, trim, tight };
        arcs.insert((s1, 1), curve(segs, (s1, s2), &bend, out));
    }
    arcs
}

/// A miter where segment `s1` ends and `s2` starts: one edge both share, across where their
/// sides (`h` out) cross; where they are parallel, at the sides' average (`averaged`) or at
/// `s1`'s.
fn miter(segs: &mut [Seg], (s1, s2): (usize, usize), h: f32, averaged: bool, out: &mut Layout) {
    let (d1, d2, node) = (segs[s1].dir(), segs[s2].dir(), segs[s1].b);
    let (n1, n2) = (perp(d1) * h, perp(d2) * h);
    let off = if averaged { (n1 + n2) * 0.5 } else { n1 };
    let l = intersect(node + n1, d1, node + n2, d2).unwrap_or(node + off);
    let r = intersect(node - n1, d1, node - n2, d2).unwrap_or(node - off);
    out.edges.push(Edge { l, r, floor: f32::MIN });
    let id = out.edges.len() - 1;
    segs[s1].edge[1] = Some(id);
    segs[s2].edge[0] = Some(id);
}

/// A curve between two segments: their road type and half-width, the turn (radians, positive
/// anticlockwise), the curve's radius, how far each segment is trimmed back, and whether it is
/// a tight one.
struct Bend {
    ty: usize,
    h: f32,
    turn: f32,
    radius: f32,
    trim: f32,
    tight: bool,
}

/// The arc pieces of `bend` from where segment `s1` is trimmed to where `s2` is, one per
/// [`CURVE_STEP`] of the turn, with their edges.
fn curve(segs: &mut [Seg], (s1, s2): (usize, usize), bend: &Bend, out: &mut Layout) -> Vec<Piece> {
    let &Bend { ty, h, turn, radius, trim, tight } = bend;
    let (d1, d2, node) = (segs[s1].dir(), segs[s2].dir(), segs[s1].b);
    let t1 = node - d1 * trim;
    let side = turn.signum();
    let centre = t1 + perp(d1) * radius * side;
    let a0 = (t1 - centre).y.atan2((t1 - centre).x);
    let steps = (turn.abs() / CURVE_STEP).ceil().max(1.0) as usize;
    let sweep = turn / steps as f32;
    let start_edge = push_edge(&mut out.edges, t1, d1, h);
    segs[s1].edge[1] = Some(start_edge);
    let mut prev = start_edge;
    let mut pieces = Vec::new();
    for k in 1..=steps {
        let id = if k == steps {
            let e = push_edge(&mut out.edges, node + d2 * trim, d2, h);
            segs[s2].edge[0] = Some(e);
            e
        } else {
            let ang = a0 + sweep * k as f32;
            let radial = Vec2::new(ang.cos(), ang.sin());
            let p = centre + radial * radius;
            // Travel direction on the arc: radial turned a quarter toward the turn.
            let dir = perp(radial) * side;
            push_edge(&mut out.edges, p, dir, h)
        };
        pieces.push(Piece {
            kind: PieceKind::Curve,
            band: if tight { Band::TightCurve } else { Band::Curve },
            ty,
            shape: Shape::Arc {
                start: prev,
                end: id,
                centre,
                radius,
                a0: a0 + sweep * (k - 1) as f32,
                sweep,
                half_width: h,
                u0: 0.0,
            },
        });
        prev = id;
    }
    pieces
}

/// Where the lines p + t·d and q + s·e cross, if they are not parallel.
fn intersect(p: Vec2, d: Vec2, q: Vec2, e: Vec2) -> Option<Vec2> {
    let den = d.perp_dot(e);
    if den.abs() < 1e-6 {
        return None;
    }
    let t = (q - p).perp_dot(e) / den;
    Some(p + d * t)
}

/// Step 5: open ends flagged `join` blend into a nearby road of another type, or fade out.
fn open_ends(segs: &mut [Seg], nodes: &BTreeMap<NodeKey, Vec<(usize, usize)>>, hw: &[f32], out: &mut Layout) {
    let reach = hw.iter().copied().fold(0.0f32, f32::max);
    let grid = SegmentGrid::new(&segs.iter().map(|o| (o.a, o.b, hw[o.ty] + reach)).collect::<Vec<_>>());
    for links in nodes.values() {
        if links.len() != 1 {
            continue;
        }
        let (s, e) = links[0];
        if !segs[s].join {
            continue;
        }
        let ty = segs[s].ty;
        let h = hw[ty];
        let p = segs[s].point(e);
        let outward = -segs[s].outward(e); // pointing out of the road, past the end
        let Some(edge) = segs[s].edge[e] else { continue };
        // The nearest road of another type that the end touches.
        let mut best: Option<(f32, usize)> = None;
        for &j in grid.near(p) {
            let (j, o) = (j as usize, &segs[j as usize]);
            if o.ty == ty {
                continue;
            }
            let d = distance_to_segment(p, o.a, o.b);
            if d <= hw[o.ty] + h && best.is_none_or(|(bd, bj)| d < bd || (d == bd && j < bj)) {
                best = Some((d, j));
            }
        }
        let seg_dir = segs[s].dir();
        let (kind, length) = match best {
            Some((d, j)) => {
                let other = segs[j].ty;
                out.stacking[ty] = out.stacking[ty].max(out.stacking[other] + 1);
                (PieceKind::AlphaJoin, (d + 0.5 * h).max(0.5 * h))
            }
            None => (PieceKind::Cap, h),
        };
        let base = mid(&out.edges[edge]);
        let far = push_edge(&mut out.edges, base + outward * length, seg_dir, h);
        // Strips run from the road's end outward, so the fade runs the same way.
        let (start, end) = if e == 1 { (edge, far) } else { (far, edge) };
        let along = Along::Fade { reversed: e == 0 };
        out.pieces.push(Piece { kind, band: Band::AlphaJoin, ty, shape: Shape::Strip { start, end, along } });
    }
}

fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 { ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0) } else { 0.0 };
    p.distance(a + ab * t)
}
