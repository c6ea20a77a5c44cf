//! The road atlas: one block of eight bands per road type (straight, curve, tight curve, tee,
//! Y, H, four-way, alpha join), each band 512 px along the road (repeating seamlessly) by 64 px
//! across it. Surfaces are painted from the type's style; shoulders fade to transparent.

use image::{Rgba, RgbaImage};

use crate::map::roads::types::{ATLAS_WIDTH, BAND_PX, Band, RoadStyle, RoadType, RoadTypes};
use crate::noise;

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

/// How much of a junction patch's marking paint covers the point (`u`, `v`) of the patch
/// (0..1 each way), if any: zebra stripes across each side's way in, a stop line behind them.
fn junction_marking(u: f32, v: f32) -> Option<f32> {
    // Distance in from each side, and where along that side the point is.
    let sides = [(u, v), (1.0 - u, v), (v, u), (1.0 - v, u)];
    let near: Vec<(f32, f32)> = sides.into_iter().filter(|(d, _)| *d < 0.27).collect();
    // A corner (near two sides) has no way in: plain.
    let [(d, along)] = near[..] else { return None };
    if !(0.16..=0.84).contains(&along) {
        return None;
    }
    if (0.05..0.18).contains(&d) {
        // Stripes across the way in, 1/12 of the side wide with gaps between.
        let stripe = (along * 12.0).fract();
        return (stripe < 0.55).then_some(0.92);
    }
    (0.215..0.245).contains(&d).then_some(1.0)
}

/// One pixel: `x` along the road (0..512), `y` across (0 = left edge, 63 = right edge).
fn pixel(t: &RoadType, band: Band, x: u32, y: u32) -> Rgba<u8> {
    let seed = t.id as u32 * 31 + band.index() * 7;
    let across = (y as f32 + 0.5) / BAND_PX as f32; // 0..1
    let surface_half = t.def.width_in_texture / 2.0;
    let from_centre = (across - 0.5).abs();
    let junction = matches!(band, Band::Tee | Band::Y | Band::H | Band::FourWay);
    // Alpha: opaque surface, shoulders fading out; junction patches are all surface.
    let mut alpha = if junction {
        1.0
    } else {
        let shoulder = 0.5 - surface_half;
        if from_centre <= surface_half {
            1.0
        } else {
            (1.0 - (from_centre - surface_half) / shoulder.max(1e-3)).clamp(0.0, 1.0).powf(1.5)
        }
    };
    let period = (ATLAS_WIDTH / 16) as i64;
    let grain = noise::fractal(seed, x as f32 / 16.0, y as f32 / 16.0, period);
    let fine = noise::value(seed + 3, x as f32 / 3.0, y as f32 / 3.0, (ATLAS_WIDTH / 3) as i64);
    let (base, line, dash_color): ([f32; 3], [f32; 3], [f32; 3]) = match t.def.style {
        RoadStyle::Asphalt => ([0.23, 0.235, 0.25], [0.85, 0.85, 0.8], [0.9, 0.78, 0.3]),
        RoadStyle::Dirt => ([0.47, 0.37, 0.25], [0.4, 0.31, 0.2], [0.4, 0.31, 0.2]),
        RoadStyle::Damaged => ([0.33, 0.32, 0.31], [0.6, 0.6, 0.56], [0.62, 0.56, 0.35]),
    };
    let mut c = mix(base, [base[0] * 1.25, base[1] * 1.25, base[2] * 1.25], grain * 0.8 + fine * 0.2);
    let in_surface = junction || from_centre <= surface_half;
    let edge_line = (from_centre - (surface_half - 0.06)).abs() < 0.018;
    let centre_line = from_centre < 0.016;
    let along = x % 64;
    match t.def.style {
        RoadStyle::Asphalt if !junction => {
            if in_surface && edge_line {
                c = line;
            }
            let dashed = matches!(band, Band::Straight | Band::AlphaJoin);
            if centre_line && (!dashed || along < 36) && band != Band::TightCurve {
                c = dash_color;
            }
        }
        RoadStyle::Dirt => {
            // Two ruts worn by wheels, and grass tufts on the shoulders.
            if !junction {
                let rut = ((across - 0.33).abs().min((across - 0.67).abs()) / 0.05).min(1.0);
                c = mix([base[0] * 0.75, base[1] * 0.72, base[2] * 0.7], c, rut);
            }
            if !in_surface && noise::value(seed + 9, x as f32 / 5.0, y as f32 / 2.0, (ATLAS_WIDTH / 5) as i64) > 0.6 {
                c = [0.3, 0.4, 0.2];
            }
        }
        RoadStyle::Damaged => {
            if !junction && edge_line && grain > 0.45 {
                c = line;
            }
            if centre_line && along < 30 && grain > 0.5 && !junction {
                c = dash_color;
            }
            // Cracks: thin dark veins where the noise crosses a level.
            let crack = noise::fractal(seed + 17, x as f32 / 20.0, y as f32 / 20.0, (ATLAS_WIDTH / 20) as i64);
            if (crack - 0.5).abs() < 0.012 {
                c = [0.12, 0.12, 0.12];
            }
            // Potholes.
            let hole = noise::value(seed + 23, x as f32 / 14.0, y as f32 / 14.0, (ATLAS_WIDTH / 14) as i64);
            if hole > 0.8 && in_surface {
                c = mix(c, [0.15, 0.14, 0.13], ((hole - 0.8) * 8.0).min(1.0));
            }
        }
        RoadStyle::Asphalt => {
            // Junction patches: a worn middle, and on each side a zebra crossing behind a
            // stop line (the corners, where no road comes in, stay plain).
            let (u, v) = ((x % 64) as f32 / 64.0, across);
            let wear = 1.0 - ((u - 0.5).powi(2) + (v - 0.5).powi(2)).sqrt() * 1.6;
            c = mix(c, [c[0] * 0.85, c[1] * 0.85, c[2] * 0.85], wear.clamp(0.0, 1.0) * 0.5);
            if let Some(mark) = junction_marking(u, v) {
                c = mix(c, line, mark);
            }
        }
    }
    if band == Band::AlphaJoin {
        // Fades out along the road: opaque at u = 0, gone at u = 1.
        alpha *= (1.0 - x as f32 / (ATLAS_WIDTH - 1) as f32).clamp(0.0, 1.0).powf(0.8);
    }
    let to8 = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    Rgba([to8(c[0]), to8(c[1]), to8(c[2]), to8(alpha)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn junctions_are_marked_on_their_sides_and_plain_in_the_middle_and_corners() {
        assert_eq!(junction_marking(0.5, 0.5), None, "the middle is plain");
        assert_eq!(junction_marking(0.03, 0.03), None, "so are the corners");
        assert_eq!(junction_marking(0.23, 0.5), Some(1.0), "a stop line across the west way in");
        let stripes: Vec<bool> = (0..48).map(|k| junction_marking(0.1, 0.2 + k as f32 / 80.0).is_some()).collect();
        assert!(stripes.contains(&true) && stripes.contains(&false), "zebra stripes alternate");
    }
}
