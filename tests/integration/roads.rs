//! The road builder on small synthetic layouts, one per feature: topology as a text snapshot,
//! and geometry: no cracks, every vertex on or above the ground, flat stretches thinned, hills
//! kept, identical output on every run. Random inputs never panic.

use crate::common;

use glam::Vec2;
use proptest::prelude::*;
use ridgeline::map::roads::{self, Ground, HeightField, PieceKind, RoadMesh, RoadSegment, RoadTypes, SegmentFlags};

fn types() -> RoadTypes {
    RoadTypes::load(&common::root().join("data/roads.ron")).expect("roads.ron")
}

fn flat() -> HeightField {
    HeightField::flat((100, 100), 10.0, 5.0)
}

fn hill() -> HeightField {
    HeightField::from_fn((100, 100), 10.0, |x, y| {
        let d2 = (x - 500.0).powi(2) + (y - 500.0).powi(2);
        5.0 + 40.0 * (-d2 / (2.0 * 120.0f32.powi(2))).exp()
    })
}

fn seg(road: &str, a: (f32, f32), b: (f32, f32)) -> RoadSegment {
    RoadSegment {
        road: road.into(),
        from: Vec2::new(a.0, a.1),
        to: Vec2::new(b.0, b.1),
        flags: SegmentFlags::default(),
    }
}

fn flagged(mut s: RoadSegment, f: impl Fn(&mut SegmentFlags)) -> RoadSegment {
    f(&mut s.flags);
    s
}

fn names(t: &RoadTypes) -> Vec<String> {
    t.types.iter().map(|t| t.def.name.clone()).collect()
}

/// Builds and checks the geometric invariants every layout must keep; returns the mesh.
fn build_checked(segs: &[RoadSegment], ground: &HeightField) -> RoadMesh {
    let t = types();
    let mesh = roads::build(segs, &t, ground).unwrap();
    // Identical on every run.
    assert_eq!(mesh, roads::build(segs, &t, ground).unwrap(), "output differs between runs");
    // Every vertex finite and on or above the ground under it.
    for v in &mesh.vertices {
        assert!(v.position.iter().chain(&v.normal).chain(&v.uv).all(|x| x.is_finite()), "{v:?}");
        let g = ground.height(Vec2::new(v.position[0], v.position[1]));
        assert!(v.position[2] >= g - 1e-4, "vertex {:?} below ground {g}", v.position);
        assert!(v.normal[2] > 0.0);
    }
    // No cracks: every shared edge is emitted at the same place by every piece using it.
    let mut by_edge: std::collections::BTreeMap<usize, Vec<[[f32; 3]; 2]>> = Default::default();
    for p in &mesh.pieces {
        for (id, pts) in &p.edges {
            by_edge.entry(*id).or_default().push(*pts);
        }
    }
    for (id, uses) in &by_edge {
        for u in &uses[1..] {
            for k in 0..2 {
                let d: f32 = (0..3).map(|c| (u[k][c] - uses[0][k][c]).abs()).fold(0.0, f32::max);
                assert!(d < 1e-3, "crack at edge {id}: {:?} vs {:?}", u, uses[0]);
            }
        }
    }
    // Indices in range, batches cover every index once.
    assert!(mesh.indices.iter().all(|&i| (i as usize) < mesh.vertices.len()));
    assert_eq!(mesh.batches.iter().map(|b| b.index_count as usize).sum::<usize>(), mesh.indices.len());
    mesh
}

fn topology(mesh: &RoadMesh) -> String {
    mesh.topology(&names(&types()))
}

fn count(mesh: &RoadMesh, kind: PieceKind) -> usize {
    mesh.pieces.iter().filter(|p| p.kind == kind).count()
}

#[test]
fn straight_chain_is_one_run_without_joints() {
    let segs = [
        seg("Asphalt", (100.0, 500.0), (300.0, 500.0)),
        seg("Asphalt", (500.0, 500.0), (300.0, 500.0)), // reversed: the builder flips it
        seg("Asphalt", (500.0, 500.0), (800.0, 500.0)),
    ];
    let mesh = build_checked(&segs, &flat());
    assert_eq!(topology(&mesh), "Straight Asphalt ×3\n");
    assert!(mesh.warnings.is_empty(), "{:?}", mesh.warnings);
    // Texture u continues along the run: the three pieces' u ranges follow each other.
    let mut ranges: Vec<(f32, f32)> = mesh
        .pieces
        .iter()
        .map(|p| {
            let us: Vec<f32> = (p.vertices.clone()).map(|i| mesh.vertices[i as usize].uv[0]).collect();
            (us.iter().copied().fold(f32::MAX, f32::min), us.iter().copied().fold(f32::MIN, f32::max))
        })
        .collect();
    ranges.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert!(ranges[0].0.abs() < 1e-4);
    for w in ranges.windows(2) {
        assert!((w[0].1 - w[1].0).abs() < 1e-4, "u jumps: {ranges:?}");
    }
}

#[test]
fn shallow_bend_is_mitered() {
    let a = Vec2::new(100.0, 500.0);
    let b = Vec2::new(400.0, 500.0);
    let c = b + Vec2::from_angle(20f32.to_radians()) * 300.0;
    let mesh =
        build_checked(&[seg("Asphalt", (a.x, a.y), (b.x, b.y)), seg("Asphalt", (b.x, b.y), (c.x, c.y))], &flat());
    assert_eq!(topology(&mesh), "Straight Asphalt ×2\n");
    // The two straights meet at one shared, slanted edge.
    let shared: Vec<usize> =
        mesh.pieces[0].edges.iter().map(|e| e.0).filter(|id| mesh.pieces[1].edges.iter().any(|f| f.0 == *id)).collect();
    assert_eq!(shared.len(), 1);
}

fn bend(degrees: f32, tight: bool) -> RoadMesh {
    let a = Vec2::new(100.0, 300.0);
    let b = Vec2::new(500.0, 300.0);
    let c = b + Vec2::from_angle(degrees.to_radians()) * 400.0;
    let s1 = flagged(seg("Asphalt", (a.x, a.y), (b.x, b.y)), |f| f.tight = tight);
    build_checked(&[s1, seg("Asphalt", (b.x, b.y), (c.x, c.y))], &flat())
}

#[test]
fn sharp_bends_get_a_curve_piece_per_thirty_degrees() {
    assert_eq!(topology(&bend(90.0, false)), "Straight Asphalt ×2\nCurve Asphalt ×3\n");
    assert_eq!(count(&bend(45.0, false), PieceKind::Curve), 2);
    assert_eq!(count(&bend(150.0, false), PieceKind::Curve), 5);
    assert_eq!(count(&bend(-120.0, false), PieceKind::Curve), 4);
    // An angled flag keeps a 90° corner a miter.
    let s1 = flagged(seg("Asphalt", (100.0, 300.0), (500.0, 300.0)), |f| f.angled = true);
    let m = build_checked(&[s1, seg("Asphalt", (500.0, 300.0), (500.0, 700.0))], &flat());
    assert_eq!(count(&m, PieceKind::Curve), 0);
}

#[test]
fn tight_curves_hug_the_corner() {
    // With the tight radius the curve is shorter, so the straights reach closer to the corner.
    let corner = Vec2::new(500.0, 300.0);
    let closest = |m: &RoadMesh| {
        m.pieces
            .iter()
            .filter(|p| p.kind == PieceKind::Straight)
            .flat_map(|p| p.vertices.clone())
            .map(|i| Vec2::new(m.vertices[i as usize].position[0], m.vertices[i as usize].position[1]).distance(corner))
            .fold(f32::MAX, f32::min)
    };
    let (normal, tight) = (bend(90.0, false), bend(90.0, true));
    assert_eq!(count(&tight, PieceKind::Curve), 3);
    assert!(closest(&tight) < closest(&normal) * 0.8, "tight {} normal {}", closest(&tight), closest(&normal));
    // And they use a different atlas band.
    let band = |m: &RoadMesh| {
        let p = m.pieces.iter().find(|p| p.kind == PieceKind::Curve).unwrap();
        m.vertices[p.vertices.start as usize].uv[1]
    };
    assert_ne!(band(&normal), band(&tight));
}

fn junction(arms_deg: &[f32]) -> RoadMesh {
    let c = Vec2::new(500.0, 500.0);
    let segs: Vec<RoadSegment> = arms_deg
        .iter()
        .map(|d| {
            let p = c + Vec2::from_angle(d.to_radians()) * 300.0;
            seg("Asphalt", (c.x, c.y), (p.x, p.y))
        })
        .collect();
    build_checked(&segs, &flat())
}

/// The vertices of the first piece of `kind` in `mesh`: (world position, atlas uv).
fn piece_vertices(mesh: &RoadMesh, kind: PieceKind) -> Vec<(Vec2, [f32; 2])> {
    let p = mesh.pieces.iter().find(|p| p.kind == kind).expect("piece");
    p.vertices
        .clone()
        .map(|i| {
            let v = &mesh.vertices[i as usize];
            (Vec2::new(v.position[0], v.position[1]), v.uv)
        })
        .collect()
}

#[test]
fn square_junctions_fill_their_texture_square_and_a_tees_branch_takes_its_top_side() {
    // A four-way's patch spans its whole texture square, so the atlas's ways in, kerbs and
    // crossings sit where the arms meet it.
    let four = piece_vertices(&junction(&[0.0, 90.0, 180.0, 270.0]), PieceKind::FourWay);
    let span = |f: &dyn Fn(&[f32; 2]) -> f32| {
        let vals: Vec<f32> = four.iter().map(|(_, uv)| f(uv)).collect();
        vals.iter().cloned().fold(f32::MIN, f32::max) - vals.iter().cloned().fold(f32::MAX, f32::min)
    };
    let band_u = 64.0 / 512.0;
    assert!((span(&|uv| uv[0]) - band_u).abs() < 1e-4, "u spans the patch: {four:?}");
    // Tees: whichever way the branch goes, its side of the patch is the texture's top (the
    // smallest v), where the atlas paints the branch's crossing.
    for (arms, branch) in
        [([0.0, 90.0, 180.0], Vec2::Y), ([0.0, 180.0, 270.0], -Vec2::Y), ([90.0, 270.0, 0.0], Vec2::X)]
    {
        let tee = piece_vertices(&junction(&arms), PieceKind::Tee);
        let centre = Vec2::new(500.0, 500.0);
        let far = tee.iter().map(|(p, _)| (*p - centre).dot(branch)).fold(f32::MIN, f32::max);
        let v_min = tee.iter().map(|(_, uv)| uv[1]).fold(f32::MAX, f32::min);
        let v_max = tee.iter().map(|(_, uv)| uv[1]).fold(f32::MIN, f32::max);
        for (p, uv) in &tee {
            if (*p - centre).dot(branch) > far - 1e-3 {
                assert!(uv[1] - v_min < (v_max - v_min) * 0.01, "arms {arms:?}: branch vertex {p} at v {}", uv[1]);
            }
        }
    }
}

#[test]
fn a_slanted_branch_cuts_back_only_the_arms_beside_its_sharp_angle() {
    // East, west, and a branch 45° off the west arm: the west arm and the branch meet at a
    // sharp angle and are cut back far; the east arm, between wide angles, stays close in.
    let m = junction(&[0.0, 180.0, 135.0]);
    let centre = Vec2::new(500.0, 500.0);
    let reach = |dir: Vec2| {
        m.pieces
            .iter()
            .filter(|p| p.kind == PieceKind::Straight)
            .flat_map(|p| p.vertices.clone())
            .map(|i| Vec2::new(m.vertices[i as usize].position[0], m.vertices[i as usize].position[1]) - centre)
            .filter(|d| d.normalize().dot(dir) > 0.9)
            .map(|d| d.dot(dir))
            .fold(f32::MAX, f32::min)
    };
    let (east, west) = (reach(Vec2::X), reach(-Vec2::X));
    assert!(east < west * 0.6, "east arm starts {east} out, west {west}");
}

#[test]
fn slanted_junctions_end_in_a_border_like_a_roads_side_and_square_ones_need_none() {
    // The stretches of a Y's or an H's patch where no road comes in are drawn from the
    // straight band (edge line, fading shoulder); a four-way's patch is all its own band.
    let t = types();
    let asphalt = t.types.iter().find(|r| r.def.name == "Asphalt").expect("asphalt");
    let (s0, s1) = asphalt.band_v(ridgeline::map::roads::Band::Straight, t.blocks());
    let in_straight = |kind: PieceKind, mesh: &RoadMesh| {
        piece_vertices(mesh, kind).iter().filter(|(_, uv)| (s0..=s1).contains(&uv[1])).count()
    };
    let y = junction(&[90.0, 210.0, 330.0]);
    assert!(in_straight(PieceKind::Y, &y) >= 4, "the Y has border strips");
    let h = junction(&[0.0, 180.0, 45.0]);
    let kind = if count(&h, PieceKind::H) == 1 { PieceKind::H } else { PieceKind::HFlip };
    assert!(in_straight(kind, &h) >= 4, "the H has border strips");
    assert_eq!(in_straight(PieceKind::FourWay, &junction(&[0.0, 90.0, 180.0, 270.0])), 0);
}

#[test]
fn three_and_four_way_meetings_are_classified() {
    assert_eq!(topology(&junction(&[0.0, 90.0, 180.0])), "Straight Asphalt ×3\nTee Asphalt ×1\n");
    assert_eq!(topology(&junction(&[90.0, 210.0, 330.0])), "Straight Asphalt ×3\nY Asphalt ×1\n");
    let h = junction(&[0.0, 180.0, 45.0]);
    let mirrored = junction(&[0.0, 180.0, -45.0]);
    assert_eq!(count(&h, PieceKind::H) + count(&h, PieceKind::HFlip), 1);
    assert_ne!(count(&h, PieceKind::H), count(&mirrored, PieceKind::H), "mirror images differ");
    assert_eq!(topology(&junction(&[0.0, 90.0, 180.0, 270.0])), "Straight Asphalt ×4\nFourWay Asphalt ×1\n");
    // Arms are shortened to the patch: no straight reaches the centre.
    let m = junction(&[0.0, 90.0, 180.0, 270.0]);
    for p in m.pieces.iter().filter(|p| p.kind == PieceKind::Straight) {
        for i in p.vertices.clone() {
            let v = m.vertices[i as usize].position;
            assert!(Vec2::new(v[0], v[1]).distance(Vec2::new(500.0, 500.0)) > 10.0);
        }
    }
}

#[test]
fn a_flagged_end_touching_another_type_gets_an_alpha_join_and_draws_on_top() {
    let segs = [
        seg("Asphalt", (100.0, 500.0), (900.0, 500.0)),
        flagged(seg("DirtTrack", (500.0, 800.0), (500.0, 512.0)), |f| f.join = true),
    ];
    let mesh = build_checked(&segs, &flat());
    // The dirt track's open far end is flagged too but touches nothing: it fades out.
    assert_eq!(
        topology(&mesh),
        "Straight Asphalt ×1\nStraight DirtTrack ×1\nAlphaJoin DirtTrack ×1\nCap DirtTrack ×1\n"
    );
    let dirt = types().by_name("DirtTrack").unwrap().id;
    let order: Vec<u16> = mesh.batches.iter().map(|b| b.road_type).collect();
    assert_eq!(*order.last().unwrap(), dirt, "the joining road draws last: {:?}", mesh.batches);
}

#[test]
fn a_flagged_open_end_fades_out_as_a_cap() {
    let mesh =
        build_checked(&[flagged(seg("DamagedRoad", (200.0, 200.0), (600.0, 260.0)), |f| f.join = true)], &flat());
    assert_eq!(topology(&mesh), "Straight DamagedRoad ×1\nCap DamagedRoad ×2\n");
    let unflagged = build_checked(&[seg("DamagedRoad", (200.0, 200.0), (600.0, 260.0))], &flat());
    assert_eq!(count(&unflagged, PieceKind::Cap), 0);
}

#[test]
fn flat_ground_is_thinned_and_hills_are_followed() {
    let segs = [seg("Asphalt", (100.0, 500.0), (900.0, 500.0))];
    let on_flat = build_checked(&segs, &flat());
    let on_hill = build_checked(&segs, &hill());
    let n_across = on_flat.vertices.len() / 2;
    assert_eq!(on_flat.vertices.len(), 2 * n_across, "a flat straight needs only its two end columns");
    assert!(on_hill.vertices.len() > 20 * n_across, "{} vertices over the hill", on_hill.vertices.len());
    // Over the hill the road rises with it.
    let top = on_hill.vertices.iter().map(|v| v.position[2]).fold(f32::MIN, f32::max);
    assert!(top > 40.0);
}

#[test]
fn bad_input_gives_warnings_and_a_result() {
    let c = (500.0, 500.0);
    let mut segs: Vec<RoadSegment> = (0..5)
        .map(|k| {
            let p = Vec2::new(500.0, 500.0) + Vec2::from_angle(k as f32 * 1.2) * 200.0;
            seg("Asphalt", c, (p.x, p.y))
        })
        .collect();
    segs.push(seg("Gravel", (0.0, 0.0), (10.0, 0.0)));
    segs.push(seg("DirtTrack", (50.0, 50.0), (50.0, 50.0)));
    segs.push(seg("Asphalt", (700.0, 500.0), (500.0, 500.0))); // segment 0 reversed
    let mesh = build_checked(&segs, &flat());
    let all = mesh.warnings.join("\n");
    assert!(all.contains("road segment 5: unknown road type \"Gravel\""), "{all}");
    assert!(all.contains("road segment 6") && all.contains("zero length"), "{all}");
    assert!(all.contains("road segment 7") && all.contains("duplicate"), "{all}");
    assert!(all.contains("5 roads meet at (500.0, 500.0)"), "{all}");
    assert_eq!(count(&mesh, PieceKind::Straight), 6);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_segments_never_panic_and_stay_finite(
        raw in prop::collection::vec((0usize..3, 0u8..12, 0u8..12, 0u8..12, 0u8..12, any::<u8>()), 0..40)
    ) {
        let t = types();
        let names = names(&t);
        // Points on a coarse grid so ends often meet.
        let segs: Vec<RoadSegment> = raw
            .iter()
            .map(|&(ty, x0, y0, x1, y1, f)| RoadSegment {
                road: names[ty].clone(),
                from: Vec2::new(x0 as f32 * 80.0, y0 as f32 * 80.0),
                to: Vec2::new(x1 as f32 * 80.0, y1 as f32 * 80.0),
                flags: SegmentFlags { angled: f & 1 != 0, tight: f & 2 != 0, join: f & 4 != 0 },
            })
            .collect();
        let mesh = roads::build(&segs, &t, &hill()).unwrap();
        for v in &mesh.vertices {
            prop_assert!(v.position.iter().chain(&v.normal).chain(&v.uv).all(|x| x.is_finite()));
        }
        prop_assert!(mesh.indices.iter().all(|&i| (i as usize) < mesh.vertices.len()));
    }
}
