//! The road atlas: one block of eight bands per road type (straight, curve, tight curve, tee,
//! Y, H, four-way, alpha join), each band 512 px along the road (repeating seamlessly) by 64 px
//! across it. Surfaces are painted from the type's style; shoulders fade to transparent.

use image::{Rgba, RgbaImage};

use crate::map::roads::types::{ATLAS_WIDTH, BAND_PX, Band, RoadStyle, RoadType, RoadTypes};
use crate::noise;

/// The colour of kerb stones.
const KERB: [f32; 3] = [0.68, 0.67, 0.63];
/// How wide a junction's kerb is, in patch units (a sixty-fourth of the patch is a pixel).
const KERB_WIDTH: f32 = 0.035;

/// Paints the whole atlas.
pub fn render(types: &RoadTypes) -> RgbaImage {
    let blocks = types.blocks();
    let mut img = RgbaImage::new(ATLAS_WIDTH, blocks * Band::COUNT * BAND_PX);
    for t in &types.types {
        for band in
            [Band::Straight, Band::Curve, Band::TightCurve, Band::Tee, Band::Y, Band::H, Band::FourWay, Band::AlphaJoin]
        {
            let top = (t.def.atlas_block * Band::COUNT + band.index()) * BAND_PX;
            for y in 0..BAND_PX {
                for x in 0..ATLAS_WIDTH {
                    img.put_pixel(x, top + y, pixel(t, band, x, y));
                }
            }
        }
    }
    img
}

fn mix(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t]
}

/// The sides of a junction patch a road comes in by — west (u = 0), east (u = 1), north
/// (v = 0), south (v = 1) — for the patches whose arms meet their sides square on: a
/// four-way's all four, a tee's through road and its branch (which the road builder always
/// turns to the north). Y and H patches have slanted arms: none listed, they stay plain.
fn junction_arms(band: Band) -> Option<[bool; 4]> {
    match band {
        Band::FourWay => Some([true; 4]),
        Band::Tee => Some([true, true, true, false]),
        _ => None,
    }
}

/// Where a point (`u`, `v`) of a junction patch (0..1 each way) lies against the road's
/// surface: its signed distance inside it (negative beyond the kerb, in patch units), given
/// the arms and the shoulder share `shoulder` of the arms' width. Corners between two arms
/// are rounded (a quarter circle of the shoulder's radius about the patch's corner, which
/// meets both arms' surface edges smoothly); a side without an arm is the through road's
/// straight edge. `None` far from any edge (the surface goes on).
fn junction_edge(arms: [bool; 4], shoulder: f32, u: f32, v: f32) -> Option<f32> {
    // Inward distance from each side: west, east, north, south.
    let d = [u, 1.0 - u, v, 1.0 - v];
    let reach = shoulder + 0.12;
    let mut edge: Option<f32> = None;
    let mut take = |s: f32| edge = Some(edge.map_or(s, |e: f32| e.min(s)));
    for k in 0..4 {
        if !arms[k] && d[k] < reach {
            take(d[k] - shoulder);
        }
    }
    // Corners: (west, north), (east, north), (west, south), (east, south).
    for (a, b) in [(0, 2), (1, 2), (0, 3), (1, 3)] {
        if arms[a] && arms[b] && d[a] < reach && d[b] < reach {
            take((d[a] * d[a] + d[b] * d[b]).sqrt() - shoulder);
        }
    }
    edge
}

/// How much of a junction patch's marking paint covers the point (`u`, `v`), if any: on each
/// side a road comes in by, a stop line across the way in and a zebra crossing behind it,
/// between the kerbs.
fn junction_marking(arms: [bool; 4], shoulder: f32, u: f32, v: f32) -> Option<f32> {
    let sides = [(u, v), (1.0 - u, v), (v, u), (1.0 - v, u)];
    let near: Vec<(f32, f32)> =
        sides.into_iter().enumerate().filter(|&(k, (d, _))| arms[k] && d < 0.3).map(|(_, s)| s).collect();
    // Where two ways in overlap (a corner) nothing is painted.
    let [(d, along)] = near[..] else { return None };
    let lane = shoulder + 0.05;
    if !(lane..=1.0 - lane).contains(&along) {
        return None;
    }
    if (0.025..0.05).contains(&d) {
        return Some(1.0);
    }
    if (0.08..0.23).contains(&d) {
        // Bars along the way in, about a twelfth of its width apart.
        let stripe = (along * 12.0).fract();
        return (stripe < 0.55).then_some(0.92);
    }
    None
}

/// One pixel: `x` along the road (0..512), `y` across (0 = left edge, 63 = right edge).
/// Junction patches, whose kerbs curve, are averaged over 4×4 points of the pixel.
fn pixel(t: &RoadType, band: Band, x: u32, y: u32) -> Rgba<u8> {
    let rgba = if junction_arms(band).is_some() {
        let mut sum = [0.0f32; 4];
        for i in 0..4 {
            for j in 0..4 {
                let at = shade(t, band, x as f32 + (i as f32 - 1.5) / 4.0, y as f32 + (j as f32 - 1.5) / 4.0);
                // Colour weighted by coverage, so transparent corners do not darken the kerb.
                for k in 0..3 {
                    sum[k] += at[k] * at[3];
                }
                sum[3] += at[3];
            }
        }
        let a = sum[3].max(1e-6);
        [sum[0] / a, sum[1] / a, sum[2] / a, sum[3] / 16.0]
    } else {
        shade(t, band, x as f32, y as f32)
    };
    let to8 = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    Rgba([to8(rgba[0]), to8(rgba[1]), to8(rgba[2]), to8(rgba[3])])
}

/// The colour and alpha at the point (`x`, `y`) of a band, in pixels (whole numbers are a
/// pixel's corner, as the noise reads them).
fn shade(t: &RoadType, band: Band, x: f32, y: f32) -> [f32; 4] {
    let seed = t.id as u32 * 31 + band.index() * 7;
    let across = (y + 0.5) / BAND_PX as f32; // 0..1
    let surface_half = t.def.width_in_texture / 2.0;
    let from_centre = (across - 0.5).abs();
    let junction = matches!(band, Band::Tee | Band::Y | Band::H | Band::FourWay);
    let shoulder = 0.5 - surface_half;
    // A junction patch's (u, v), and for the square ones how far inside the surface the
    // point lies near a kerb.
    let (ju, jv) = ((x.rem_euclid(64.0) + 0.5) / 64.0, across);
    let arms = junction_arms(band);
    let kerb_in = arms.and_then(|a| junction_edge(a, shoulder, ju, jv));
    // Alpha: opaque surface, shoulders fading out; a junction's corners and its side with no
    // way in fade beyond the kerb like a shoulder.
    let mut alpha = if junction {
        match kerb_in {
            Some(s) if s < 0.0 => (1.0 + s / shoulder.max(1e-3)).clamp(0.0, 1.0).powf(1.5),
            _ => 1.0,
        }
    } else {
        if from_centre <= surface_half {
            1.0
        } else {
            (1.0 - (from_centre - surface_half) / shoulder.max(1e-3)).clamp(0.0, 1.0).powf(1.5)
        }
    };
    let period = (ATLAS_WIDTH / 16) as i64;
    let grain = noise::fractal(seed, x / 16.0, y / 16.0, period);
    let fine = noise::value(seed + 3, x / 3.0, y / 3.0, (ATLAS_WIDTH / 3) as i64);
    let (base, line, dash_color): ([f32; 3], [f32; 3], [f32; 3]) = match t.def.style {
        RoadStyle::Asphalt => ([0.23, 0.235, 0.25], [0.85, 0.85, 0.8], [0.9, 0.78, 0.3]),
        RoadStyle::Dirt => ([0.47, 0.37, 0.25], [0.4, 0.31, 0.2], [0.4, 0.31, 0.2]),
        RoadStyle::Damaged => ([0.33, 0.32, 0.31], [0.6, 0.6, 0.56], [0.62, 0.56, 0.35]),
    };
    let mut c = mix(base, [base[0] * 1.25, base[1] * 1.25, base[2] * 1.25], grain * 0.8 + fine * 0.2);
    let in_surface = junction || from_centre <= surface_half;
    let edge_line = (from_centre - (surface_half - 0.06)).abs() < 0.018;
    let centre_line = from_centre < 0.016;
    let along = x.rem_euclid(64.0);
    match t.def.style {
        RoadStyle::Asphalt if !junction => {
            if in_surface && edge_line {
                c = line;
            }
            let dashed = matches!(band, Band::Straight | Band::AlphaJoin);
            if centre_line && (!dashed || along < 36.0) && band != Band::TightCurve {
                c = dash_color;
            }
        }
        RoadStyle::Dirt => {
            // Two ruts worn by wheels, and grass tufts on the shoulders.
            if !junction {
                let rut = ((across - 0.33).abs().min((across - 0.67).abs()) / 0.05).min(1.0);
                c = mix([base[0] * 0.75, base[1] * 0.72, base[2] * 0.7], c, rut);
            }
            if !in_surface && noise::value(seed + 9, x / 5.0, y / 2.0, (ATLAS_WIDTH / 5) as i64) > 0.6 {
                c = [0.3, 0.4, 0.2];
            }
        }
        RoadStyle::Damaged => {
            if !junction && edge_line && grain > 0.45 {
                c = line;
            }
            if centre_line && along < 30.0 && grain > 0.5 && !junction {
                c = dash_color;
            }
            // Cracks: thin dark veins where the noise crosses a level.
            let crack = noise::fractal(seed + 17, x / 20.0, y / 20.0, (ATLAS_WIDTH / 20) as i64);
            if (crack - 0.5).abs() < 0.012 {
                c = [0.12, 0.12, 0.12];
            }
            // Potholes.
            let hole = noise::value(seed + 23, x / 14.0, y / 14.0, (ATLAS_WIDTH / 14) as i64);
            if hole > 0.8 && in_surface {
                c = mix(c, [0.15, 0.14, 0.13], ((hole - 0.8) * 8.0).min(1.0));
            }
        }
        RoadStyle::Asphalt => {
            // Junction patches: a worn middle; on each way in a stop line and a zebra
            // crossing; the edge line follows the kerb round the corners.
            let wear = 1.0 - ((ju - 0.5).powi(2) + (jv - 0.5).powi(2)).sqrt() * 1.6;
            c = mix(c, [c[0] * 0.85, c[1] * 0.85, c[2] * 0.85], wear.clamp(0.0, 1.0) * 0.5);
            if let Some(mark) = arms.and_then(|a| junction_marking(a, shoulder, ju, jv)) {
                c = mix(c, line, mark);
            }
            if kerb_in.is_some_and(|s| (s - 0.06).abs() < 0.018) {
                c = line;
            }
        }
    }
    // Kerb stones where a junction's surface ends (not on dirt tracks): pale concrete with a
    // darker joint every few stones.
    if let Some(s) = kerb_in
        && t.def.style != RoadStyle::Dirt
        && (0.0..KERB_WIDTH).contains(&s)
    {
        let stone = noise::value(seed + 29, ju * 40.0, jv * 40.0, 40);
        c = mix(KERB, [KERB[0] * 0.8, KERB[1] * 0.8, KERB[2] * 0.8], stone * 0.6);
        if s > KERB_WIDTH * 0.8 {
            c = [c[0] * 0.6, c[1] * 0.6, c[2] * 0.6]; // the kerb's shadowed face
        }
    }
    if band == Band::AlphaJoin {
        // Fades out along the road: opaque at u = 0, gone at u = 1.
        alpha *= (1.0 - x / (ATLAS_WIDTH - 1) as f32).clamp(0.0, 1.0).powf(0.8);
    }
    [c[0], c[1], c[2], alpha]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn junctions_are_marked_on_their_ways_in_and_plain_in_the_middle_and_corners() {
        let four = [true; 4];
        assert_eq!(junction_marking(four, 0.1, 0.5, 0.5), None, "the middle is plain");
        assert_eq!(junction_marking(four, 0.1, 0.03, 0.03), None, "so are the corners");
        assert_eq!(junction_marking(four, 0.1, 0.03, 0.5), Some(1.0), "a stop line across the west way in");
        let stripes: Vec<bool> =
            (0..48).map(|k| junction_marking(four, 0.1, 0.15, 0.2 + k as f32 / 80.0).is_some()).collect();
        assert!(stripes.contains(&true) && stripes.contains(&false), "zebra stripes alternate");
        let tee = junction_arms(Band::Tee).unwrap();
        assert_eq!(junction_marking(tee, 0.1, 0.5, 0.97), None, "no crossing where no road comes in");
        assert_eq!(junction_marking(tee, 0.1, 0.5, 0.03), Some(1.0), "the branch has one");
        assert_eq!(junction_arms(Band::Y), None, "slanted arms stay plain");
    }

    #[test]
    fn junction_corners_are_rounded_kerbs_and_a_side_without_a_road_is_straight() {
        let four = [true; 4];
        // The patch's corner is off the road; the corner's middle is on it.
        assert!(junction_edge(four, 0.1, 0.02, 0.02).unwrap() < 0.0);
        assert!(junction_edge(four, 0.1, 0.12, 0.12).unwrap() > 0.0);
        // The curve meets the arms' surface edges where they enter: at the west side, the
        // surface starts at the shoulder's width from the north.
        assert!(junction_edge(four, 0.1, 0.0, 0.1).unwrap().abs() < 1e-6);
        assert_eq!(junction_edge(four, 0.1, 0.5, 0.5), None, "the middle is far from any kerb");
        // A tee's south side is the through road's edge, all along.
        let tee = [true, true, true, false];
        for u in [0.05, 0.5, 0.95] {
            assert!((junction_edge(tee, 0.1, u, 0.95).unwrap() - -0.05).abs() < 1e-6, "u {u}");
        }
    }
}
