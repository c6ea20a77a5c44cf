//! Step 3 of the road builder: where three or four roads meet, a junction patch — its kind
//! (tee, Y, H, four-way) and the axis its texture is laid along, and how far each arm is cut
//! back so its edges and its neighbours' meet outside the patch.
//!
//! Must not: panic on any input; a meeting it cannot join is left open with a warning.

use std::collections::BTreeMap;
use std::f32::consts::PI;

use super::{Layout, MAX_LINKS, MAX_TRIM_SHARE, NodeKey, Piece, SURFACE_OFFSET, Seg, Shape, describe, push_edge};
use crate::map::roads::ground::Ground;
use crate::map::roads::mesh::PieceKind;
use crate::map::roads::types::{Band, RoadTypes};
use glam::Vec2;

/// Step 3: three- and four-way meetings become junction patches; arms are shortened to them.
pub(super) fn junctions(
    segs: &mut [Seg],
    nodes: &BTreeMap<NodeKey, Vec<(usize, usize)>>,
    hw: &[f32],
    types: &RoadTypes,
    ground: &dyn Ground,
    out: &mut Layout,
) {
    for links in nodes.values() {
        if links.len() < 3 {
            continue;
        }
        let (s0, e0) = links[0];
        let node = segs[s0].point(e0);
        if links.len() > MAX_LINKS {
            out.warnings.push(format!(
                "{} roads meet at ({:.1}, {:.1}); at most {MAX_LINKS} are joined, so their ends are left open ({})",
                links.len(),
                node.x,
                node.y,
                describe(&segs[s0], types)
            ));
            continue;
        }
        let ty = segs[s0].ty;
        let h = hw[ty];
        let mut arms: Vec<(usize, usize, Vec2)> = links.iter().map(|&(s, e)| (s, e, segs[s].outward(e))).collect();
        arms.sort_by(|a, b| a.2.y.atan2(a.2.x).total_cmp(&b.2.y.atan2(b.2.x)));
        // Shorten each arm so its edges and its neighbours' meet outside the patch: an arm
        // next to a sharp angle is cut back further, one between wide angles only by the
        // half width (so a slanted branch does not push the whole patch out).
        let n = arms.len();
        let mut cut = vec![h; n];
        for k in 0..n {
            let (a, b) = (arms[k].2, arms[(k + 1) % n].2);
            let mut angle = b.y.atan2(b.x) - a.y.atan2(a.x);
            if angle <= 0.0 {
                angle += 2.0 * PI;
            }
            if angle < PI {
                let need = (h / (angle / 2.0).tan().max(1e-3)).min(3.0 * h);
                cut[k] = cut[k].max(need);
                cut[(k + 1) % n] = cut[(k + 1) % n].max(need);
            }
        }
        let (kind, band, axis) = classify(&arms);
        let mut ring = Vec::new();
        let mut edges = Vec::new();
        for (&(s, e, d), &r) in arms.iter().zip(&cut) {
            let trim = r.min(segs[s].len() * MAX_TRIM_SHARE);
            segs[s].trim[e] = trim;
            let seg_dir = segs[s].dir();
            let centre = node + d * trim;
            let id = push_edge(&mut out.edges, centre, seg_dir, h);
            segs[s].edge[e] = Some(id);
            edges.push(id);
            ring.push(out.edges[id].l);
            ring.push(out.edges[id].r);
        }
        ring.sort_by(|a, b| (*a - node).y.atan2((*a - node).x).total_cmp(&(*b - node).y.atan2((*b - node).x)));
        ring.dedup_by(|a, b| a.distance(*b) < 1e-3);
        let (lo, hi) = ring.iter().fold((node, node), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
        let floor = ground.max_height_in(lo, hi) + SURFACE_OFFSET;
        for &id in &edges {
            out.edges[id].floor = floor;
        }
        // The patch's texture square: the smallest one, in the axis frame, that holds the
        // ring, so a right-angled junction's arms meet its sides with their whole width (the
        // atlas paints the way in on each side, the surface and kerbs where the arms' are).
        let side = axis.perp();
        let extent = ring
            .iter()
            .map(|p| {
                let d = *p - node;
                d.dot(axis).abs().max(d.dot(side).abs())
            })
            .fold(h, f32::max);
        out.pieces.push(Piece { kind, band, ty, shape: Shape::Fan { centre: node, ring, axis, extent, floor, edges } });
    }
}

/// Classifies a junction from its arms' directions (sorted by angle).
fn classify(arms: &[(usize, usize, Vec2)]) -> (PieceKind, Band, Vec2) {
    let dirs: Vec<Vec2> = arms.iter().map(|a| a.2).collect();
    // The most nearly opposed pair is the through road.
    let mut best = (f32::MAX, 0, 1);
    for i in 0..dirs.len() {
        for j in i + 1..dirs.len() {
            let d = dirs[i].dot(dirs[j]);
            if d < best.0 {
                best = (d, i, j);
            }
        }
    }
    let (dot, i, j) = best;
    let axis = (dirs[i] - dirs[j]).normalize_or(Vec2::X);
    if dirs.len() == 4 {
        return (PieceKind::FourWay, Band::FourWay, axis);
    }
    if dot > -0.866 {
        return (PieceKind::Y, Band::Y, dirs[0]);
    }
    let third = dirs[3 - i - j];
    if third.dot(axis).abs() < 0.34 {
        // The branch always leaves by the same side of the atlas's tee (the axis' left, its
        // top edge), so the side with no road gets a kerb instead of a crossing.
        let axis = if axis.perp().dot(third) >= 0.0 { axis } else { -axis };
        (PieceKind::Tee, Band::Tee, axis)
    } else {
        // A slanted branch off a through road: an H-style junction (or its mirror image).
        let mirrored = axis.perp_dot(third) < 0.0;
        (if mirrored { PieceKind::HFlip } else { PieceKind::H }, Band::H, axis)
    }
}
