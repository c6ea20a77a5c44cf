//! The RTS camera: display state looking down at a point on the ground, with yaw and zoom;
//! its view-projection matrix, and the ground point under a screen pixel.
//!
//! The pitch is a smooth function of the zoom ([`pitch_at`]): the default and far zooms look
//! down at the fixed [`PITCH`], and every wheel step in from the default tilts the view a
//! little further toward the horizon (as Generals-class games do), so the sky, the clouds and
//! the distance haze come into view without any one step jumping. The
//! target stays under the screen's centre at every zoom; keeping the view over the map is
//! judged from the untilted view ([`Camera::clamp_view`]), so a tilted view may look out past
//! the map's edge, where the renderer draws land that is only scenery.
//!
//! Must not: live in or be read by the simulation (every player's camera differs).

use glam::{Mat4, Vec2, Vec3, camera};

/// Distance from eye to the looked-at point at zoom 1, world units.
pub const BASE_DISTANCE: f32 = 320.0;
/// Zoom limits (larger is closer).
pub const ZOOM_RANGE: (f32, f32) = (0.35, 3.0);
/// Vertical field of view.
const FOV_Y: f32 = 0.7;
/// Angle of the view below the horizon at the default and far zooms (radians).
pub const PITCH: f32 = 0.95;
/// Angle of the view below the horizon at the closest zoom: it looks out across the land,
/// the horizon about a fifth of the screen below its top edge.
pub const CLOSE_PITCH: f32 = 0.2;
/// The zoom from which the camera tilts toward the horizon: the default zoom, so the tilt is
/// spread over all the wheel steps in from it (about ten); at and below it the pitch is
/// [`PITCH`].
pub const TILT_FROM: f32 = 1.0;
/// The shares of the tilt's course (in wheel steps) over which it eases in from nothing and
/// out to the closest pitch; between them the pitch falls by the same angle each step.
const TILT_EASE: (f32, f32) = (0.3, 0.2);
/// The most one wheel step (the zoom times 1.12) changes the pitch by, radians (about 6°).
pub const WHEEL_STEP_TILT: f32 = 0.105;
/// How far from the target a view's outline on the ground reaches at most, in eye distances
/// (a tilted view's far corners look out to the horizon; the radar frames the near part).
pub const OUTLINE_REACH: f32 = 4.0;
/// How far past the looked-at point a tilted view's far plane reaches at the closest zoom
/// (world units): the land out to the horizon, hazed.
const HORIZON: f32 = 9000.0;

/// The pitch (angle of the view below the horizon) at a zoom: [`PITCH`] up to [`TILT_FROM`],
/// then falling to [`CLOSE_PITCH`] at the closest zoom by the zoom's logarithm (the wheel
/// multiplies the zoom by the same factor each step, so each step tilts by a like angle): it
/// eases in from nothing and out to the closest pitch (no kink where the tilt begins or ends)
/// and falls evenly between, never more than [`WHEEL_STEP_TILT`] a wheel step.
pub fn pitch_at(zoom: f32) -> f32 {
    let t = tilt_at(zoom);
    PITCH * (1.0 - t) + CLOSE_PITCH * t
}

/// How far a zoom's view has tilted toward the horizon: 0 at and below [`TILT_FROM`], 1 at
/// the closest zoom; by the zoom's logarithm, quadratic over the first and last shares of the
/// way ([`TILT_EASE`]) and straight between, its slope the same where the pieces meet.
fn tilt_at(zoom: f32) -> f32 {
    let z = zoom.clamp(ZOOM_RANGE.0, ZOOM_RANGE.1);
    let s = ((z / TILT_FROM).ln() / (ZOOM_RANGE.1 / TILT_FROM).ln()).clamp(0.0, 1.0);
    let (a, e) = TILT_EASE;
    let slope = 2.0 / (2.0 - a - e);
    if s < a {
        slope * s * s / (2.0 * a)
    } else if s > 1.0 - e {
        1.0 - slope * (1.0 - s) * (1.0 - s) / (2.0 * e)
    } else {
        slope * (s - a / 2.0)
    }
}

/// Where the player is looking.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// The point on the ground at the centre of the screen (world units).
    pub target: Vec3,
    /// Rotation about the vertical, radians (0 looks north).
    pub yaw: f32,
    /// 1 is the default distance; larger is closer.
    pub zoom: f32,
}

impl Camera {
    /// A camera looking north at `target`.
    pub fn looking_at(target: Vec3) -> Camera {
        Camera { target, yaw: 0.0, zoom: 1.0 }
    }

    /// The angle of the view below the horizon at this zoom ([`pitch_at`]).
    pub fn pitch(&self) -> f32 {
        pitch_at(self.zoom)
    }

    /// The eye position.
    pub fn eye(&self) -> Vec3 {
        self.eye_at(self.pitch())
    }

    /// The eye position were the view pitched at `pitch`.
    fn eye_at(&self, pitch: f32) -> Vec3 {
        let distance = BASE_DISTANCE / self.zoom.clamp(ZOOM_RANGE.0, ZOOM_RANGE.1);
        let back = Vec3::new(-self.yaw.sin() * pitch.cos(), -self.yaw.cos() * pitch.cos(), pitch.sin());
        self.target + back * distance
    }

    /// View-projection matrix for a viewport of `aspect` (width / height), depth 0..1.
    pub fn view_proj(&self, aspect: f32) -> Mat4 {
        self.view_proj_at(aspect, self.pitch())
    }

    /// The view-projection matrix were the view pitched at `pitch`. A tilted view's far plane
    /// reaches out toward the horizon (the land past the map, hazed, then the sky).
    fn view_proj_at(&self, aspect: f32, pitch: f32) -> Mat4 {
        let eye = self.eye_at(pitch);
        let distance = (eye - self.target).length();
        let view = camera::rh::view::look_at_mat4(eye, self.target, Vec3::Z);
        let tilt = ((PITCH - pitch) / (PITCH - CLOSE_PITCH)).clamp(0.0, 1.0);
        let far = distance * 6.0 + HORIZON * tilt;
        // wgpu's clip space: depth 0..1, y up (the "directx" convention).
        let proj = camera::rh::proj::directx::perspective(FOV_Y, aspect.max(0.01), (distance * 0.05).max(1.0), far);
        proj * view
    }

    /// Moves the target by a screen-aligned offset in world units (x right, y up the screen).
    pub fn pan(&mut self, by: Vec2) {
        let (s, c) = self.yaw.sin_cos();
        let right = Vec2::new(c, -s);
        let forward = Vec2::new(s, c);
        let d = right * by.x + forward * by.y;
        self.target += Vec3::new(d.x, d.y, 0.0);
    }

    /// Multiplies the zoom, within limits.
    pub fn zoom_by(&mut self, factor: f32) {
        self.zoom = (self.zoom * factor).clamp(ZOOM_RANGE.0, ZOOM_RANGE.1);
    }

    /// Keeps the target over a map of `size` world units.
    pub fn clamp_to(&mut self, size: Vec2) {
        self.target.x = self.target.x.clamp(0.0, size.x.max(0.0));
        self.target.y = self.target.y.clamp(0.0, size.y.max(0.0));
    }

    /// Keeps everything a `screen`-sized view shows inside a map of `size` world units whose
    /// ground lies between the heights `ground.0` and `ground.1`: the camera comes closer when
    /// the map is smaller than the view, and the target moves in from the edges. The bottom
    /// `covered` pixels (the HUD's control bar) do not count: the map's near edge may be brought
    /// up to the HUD's top, so nothing of the map stays hidden under it. What counts is the
    /// view at [`PITCH`]: a view tilted toward the horizon (a close zoom) keeps its target
    /// where the untilted one would, and looks out past the map's edge at scenery.
    pub fn clamp_view(&mut self, size: Vec2, screen: Vec2, ground: (f32, f32), covered: f32) {
        if size.x <= 0.0 || size.y <= 0.0 || screen.x <= 0.0 || screen.y <= 0.0 {
            return;
        }
        for _ in 0..8 {
            let Some((lo, hi)) = self.footprint(screen, ground, covered) else { return };
            let over = ((hi.x - lo.x) / size.x).max((hi.y - lo.y) / size.y);
            if over <= 1.0 || self.zoom >= ZOOM_RANGE.1 {
                break;
            }
            self.zoom = (self.zoom * over * 1.01).min(ZOOM_RANGE.1);
        }
        let Some((lo, hi)) = self.footprint(screen, ground, covered) else { return };
        let fit = |t: f32, lo: f32, hi: f32, size: f32| {
            if hi - lo >= size { size / 2.0 - (lo + hi) / 2.0 } else { t.clamp(-lo, size - hi) }
        };
        self.target.x = fit(self.target.x, lo.x, hi.x, size.x);
        self.target.y = fit(self.target.y, lo.y, hi.y, size.y);
    }

    /// Where the corners of the screen's uncovered part (all but the bottom `covered` pixels)
    /// meet the ground anywhere between the heights `ground.0` and `ground.1`, as offsets from
    /// the target: least and most.
    fn footprint(&self, screen: Vec2, ground: (f32, f32), covered: f32) -> Option<(Vec2, Vec2)> {
        let t = self.target.truncate();
        let mut lo = Vec2::splat(f32::MAX);
        let mut hi = Vec2::splat(f32::MIN);
        let bottom = (screen.y - covered).clamp(screen.y * 0.5, screen.y);
        for c in [Vec2::ZERO, Vec2::new(screen.x, 0.0), Vec2::new(0.0, bottom), Vec2::new(screen.x, bottom)] {
            for z in [ground.0, ground.1] {
                let g = self.ground_point_at(c, screen, z, PITCH)? - t;
                lo = lo.min(g);
                hi = hi.max(g);
            }
        }
        Some((lo, hi))
    }

    /// The ray through a pixel of a `screen`-sized viewport: origin and unit direction.
    pub fn ray(&self, pixel: Vec2, screen: Vec2) -> (Vec3, Vec3) {
        self.ray_at(pixel, screen, self.pitch())
    }

    /// The ray through a pixel were the view pitched at `pitch`.
    fn ray_at(&self, pixel: Vec2, screen: Vec2, pitch: f32) -> (Vec3, Vec3) {
        let inv = self.view_proj_at(screen.x / screen.y.max(1.0), pitch).inverse();
        let ndc = Vec2::new(pixel.x / screen.x * 2.0 - 1.0, 1.0 - pixel.y / screen.y * 2.0);
        let near = inv.project_point3(ndc.extend(0.0));
        let far = inv.project_point3(ndc.extend(1.0));
        (near, (far - near).normalize_or(Vec3::NEG_Z))
    }

    /// Where the ray through a pixel meets the horizontal plane at height `z`, if it does.
    pub fn ground_point(&self, pixel: Vec2, screen: Vec2, z: f32) -> Option<Vec2> {
        self.ground_point_at(pixel, screen, z, self.pitch())
    }

    /// Where the ray through a pixel meets the plane at height `z` were the view pitched at
    /// `pitch`.
    fn ground_point_at(&self, pixel: Vec2, screen: Vec2, z: f32, pitch: f32) -> Option<Vec2> {
        let (o, d) = self.ray_at(pixel, screen, pitch);
        if d.z.abs() < 1e-6 {
            return None;
        }
        let t = (z - o.z) / d.z;
        (t > 0.0).then(|| (o + d * t).truncate())
    }

    /// Where the ray through a pixel meets the plane at height `z`, cut at [`OUTLINE_REACH`]
    /// eye distances from the target: a ray that passes over the horizon, or meets the plane
    /// farther off, gives the point at that reach along its heading. For the outline of what a
    /// view shows (the radar's frame), which a tilted view's top corners would otherwise leave
    /// open.
    pub fn ground_point_near(&self, pixel: Vec2, screen: Vec2, z: f32) -> Vec2 {
        let reach = OUTLINE_REACH * (self.eye() - self.target).length();
        let t = self.target.truncate();
        if let Some(p) = self.ground_point(pixel, screen, z).filter(|p| (*p - t).length() <= reach) {
            return p;
        }
        let (o, d) = self.ray(pixel, screen);
        let heading = d.truncate().normalize_or(Vec2::Y);
        // The far point of the ray's track at `reach` from the target: |o + h s - t| = reach.
        let from = o.truncate() - t;
        let b = from.dot(heading);
        let s = -b + (b * b - from.length_squared() + reach * reach).max(0.0).sqrt();
        o.truncate() + heading * s
    }

    /// How far along the ray through a pixel it first meets the box `lo`–`hi`, if it does.
    pub fn ray_hits_box(&self, pixel: Vec2, screen: Vec2, lo: Vec3, hi: Vec3) -> Option<f32> {
        let (o, d) = self.ray(pixel, screen);
        let (mut near, mut far) = (0.0f32, f32::MAX);
        for axis in 0..3 {
            let (o, d, lo, hi) = (o[axis], d[axis], lo[axis], hi[axis]);
            if d.abs() < 1e-9 {
                if o < lo || o > hi {
                    return None;
                }
                continue;
            }
            let (a, b) = ((lo - o) / d, (hi - o) / d);
            near = near.max(a.min(b));
            far = far.min(a.max(b));
        }
        (near <= far).then_some(near)
    }

    /// The pixel a world point appears at, if it is in front of the camera.
    pub fn project(&self, p: Vec3, screen: Vec2) -> Option<Vec2> {
        let clip = self.view_proj(screen.x / screen.y.max(1.0)) * p.extend(1.0);
        if clip.w <= 0.0 {
            return None;
        }
        let ndc = clip.truncate() / clip.w;
        Some(Vec2::new((ndc.x + 1.0) / 2.0 * screen.x, (1.0 - ndc.y) / 2.0 * screen.y))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_centre_pixel_looks_at_the_target() {
        let cam = Camera { target: Vec3::new(500.0, 700.0, 20.0), yaw: 0.4, zoom: 1.3 };
        let screen = Vec2::new(1280.0, 720.0);
        let g = cam.ground_point(screen / 2.0, screen, 20.0).unwrap();
        assert!((g - Vec2::new(500.0, 700.0)).length() < 0.5, "{g}");
        let px = cam.project(cam.target, screen).unwrap();
        assert!((px - screen / 2.0).length() < 0.5);
    }

    #[test]
    fn project_and_pick_are_inverse() {
        let cam = Camera::looking_at(Vec3::new(300.0, 300.0, 0.0));
        let screen = Vec2::new(1024.0, 768.0);
        for p in [Vec2::new(250.0, 320.0), Vec2::new(340.0, 280.0), Vec2::new(300.0, 410.0)] {
            let px = cam.project(p.extend(0.0), screen).unwrap();
            let back = cam.ground_point(px, screen, 0.0).unwrap();
            assert!((back - p).length() < 0.5, "{p} → {px} → {back}");
        }
    }

    #[test]
    fn north_is_up_the_screen_and_pan_follows_the_screen() {
        let mut cam = Camera::looking_at(Vec3::new(300.0, 300.0, 0.0));
        let screen = Vec2::new(800.0, 600.0);
        let north = cam.project(Vec3::new(300.0, 350.0, 0.0), screen).unwrap();
        let east = cam.project(Vec3::new(350.0, 300.0, 0.0), screen).unwrap();
        assert!(north.y < screen.y / 2.0 && east.x > screen.x / 2.0);
        cam.yaw = std::f32::consts::FRAC_PI_2; // looking east
        cam.pan(Vec2::new(0.0, 10.0));
        assert!((cam.target.x - 310.0).abs() < 1e-3 && (cam.target.y - 300.0).abs() < 1e-3);
    }

    #[test]
    fn the_view_never_shows_beyond_the_map_edge() {
        let screen = Vec2::new(1280.0, 720.0);
        let size = Vec2::new(1280.0, 1280.0);
        for (target, yaw, zoom) in [
            (Vec2::new(0.0, 0.0), 0.0, 1.0),
            (Vec2::new(1280.0, 1280.0), 0.0, 1.0),
            (Vec2::new(-300.0, 600.0), 0.5, 0.35),
            (Vec2::new(640.0, 640.0), 0.0, 0.35),
        ] {
            let mut cam = Camera { target: target.extend(0.0), yaw, zoom };
            cam.clamp_view(size, screen, (0.0, 0.0), 0.0);
            for c in [Vec2::ZERO, Vec2::new(screen.x, 0.0), Vec2::new(0.0, screen.y), screen] {
                let g = cam.ground_point(c, screen, 0.0).unwrap();
                assert!(
                    g.x >= -0.5 && g.y >= -0.5 && g.x <= size.x + 0.5 && g.y <= size.y + 0.5,
                    "{target} yaw {yaw} zoom {zoom}: corner {c} shows {g}"
                );
            }
        }
        // A view well inside the map stays where it is.
        let mut cam = Camera::looking_at(Vec3::new(640.0, 640.0, 0.0));
        cam.clamp_view(size, screen, (0.0, 0.0), 0.0);
        assert_eq!((cam.target, cam.zoom), (Vec3::new(640.0, 640.0, 0.0), 1.0));
    }

    #[test]
    fn a_ray_hits_a_box_it_points_at_and_misses_one_beside() {
        let cam = Camera::looking_at(Vec3::new(300.0, 300.0, 0.0));
        let screen = Vec2::new(800.0, 600.0);
        let centre = screen / 2.0;
        let t = cam.ray_hits_box(centre, screen, Vec3::new(290.0, 290.0, 0.0), Vec3::new(310.0, 310.0, 30.0));
        let eye_to_top = (cam.eye() - Vec3::new(300.0, 300.0, 30.0)).length();
        assert!(t.is_some_and(|t| t > 0.0 && t < eye_to_top + 20.0), "{t:?}");
        assert_eq!(cam.ray_hits_box(centre, screen, Vec3::new(400.0, 290.0, 0.0), Vec3::new(420.0, 310.0, 30.0)), None);
    }

    #[test]
    fn the_pitch_is_the_fixed_one_up_to_the_tilt_and_eases_to_the_close_one() {
        // The default and far zooms look down exactly as before the tilt existed.
        for zoom in [ZOOM_RANGE.0, 0.55, 0.8, 1.0, TILT_FROM] {
            assert_eq!(pitch_at(zoom), PITCH, "zoom {zoom}");
        }
        assert_eq!(pitch_at(ZOOM_RANGE.1), CLOSE_PITCH);
        assert_eq!(pitch_at(100.0), CLOSE_PITCH, "beyond the range it is the closest zoom's");
        // Smooth: it only falls as the zoom comes closer, with no step between small zoom steps,
        // and it begins from nothing (the first hundredth of a zoom past the default hardly tilts).
        let mut last = PITCH;
        let mut zoom = TILT_FROM;
        while zoom < ZOOM_RANGE.1 {
            zoom += 0.01;
            let p = pitch_at(zoom);
            assert!(p <= last && last - p < 0.008, "zoom {zoom}: {last} → {p}");
            last = p;
        }
        assert!(PITCH - pitch_at(TILT_FROM + 0.01) < 1e-3);
        // Spread over the range: the tilt is well under way by zoom 2, and not over by 2.5.
        assert!(
            pitch_at(2.0) < PITCH - 0.3 && pitch_at(2.5) > CLOSE_PITCH + 0.05,
            "{} {}",
            pitch_at(2.0),
            pitch_at(2.5)
        );
        // The renderer pushes the haze out for views tilted past the same pitch.
        assert_eq!(crate::render::world::PLAN_PITCH, PITCH);
        // The default camera's eye is where the fixed pitch put it.
        let cam = Camera::looking_at(Vec3::new(100.0, 100.0, 0.0));
        let back = Vec3::new(0.0, -PITCH.cos(), PITCH.sin()) * BASE_DISTANCE;
        assert!((cam.eye() - (cam.target + back)).length() < 1e-3, "{}", cam.eye());
    }

    #[test]
    fn the_centre_pixel_looks_at_the_target_at_every_zoom() {
        let screen = Vec2::new(1280.0, 720.0);
        let mut zoom = ZOOM_RANGE.0;
        while zoom <= ZOOM_RANGE.1 + 1e-3 {
            let cam = Camera { target: Vec3::new(500.0, 700.0, 20.0), yaw: -0.7, zoom };
            let g = cam.ground_point(screen / 2.0, screen, 20.0).unwrap();
            assert!((g - Vec2::new(500.0, 700.0)).length() < 0.05 * BASE_DISTANCE / zoom, "zoom {zoom}: {g}");
            let px = cam.project(cam.target, screen).unwrap();
            assert!((px - screen / 2.0).length() < 0.5, "zoom {zoom}: {px}");
            zoom += 0.05;
        }
    }

    #[test]
    fn the_closest_zoom_shows_the_sky_above_the_horizon_and_the_default_does_not() {
        let screen = Vec2::new(1280.0, 720.0);
        let close = Camera { zoom: ZOOM_RANGE.1, ..Camera::looking_at(Vec3::new(500.0, 500.0, 0.0)) };
        // The top row looks up over the horizon; the row a third down still meets the ground.
        assert!(close.ray(Vec2::new(640.0, 0.0), screen).1.z > 0.0);
        assert!(close.ground_point(Vec2::new(640.0, 0.0), screen, 0.0).is_none());
        assert!(close.ground_point(Vec2::new(640.0, 240.0), screen, 0.0).is_some());
        // Its far plane reaches the land far off (a point 3000 units ahead is drawn).
        let ahead = close.view_proj(screen.x / screen.y) * Vec3::new(500.0, 3500.0, 0.0).extend(1.0);
        assert!(ahead.w > 0.0 && ahead.z / ahead.w < 1.0, "{ahead}");
        for zoom in [ZOOM_RANGE.0, 1.0, TILT_FROM] {
            let cam = Camera { zoom, ..close };
            for x in [0.0, 640.0, 1280.0] {
                assert!(cam.ground_point(Vec2::new(x, 0.0), screen, 0.0).is_some(), "zoom {zoom}");
            }
        }
    }

    #[test]
    fn a_tilted_view_is_kept_over_the_map_where_the_untilted_one_would_be() {
        let screen = Vec2::new(1280.0, 720.0);
        let size = Vec2::new(1280.0, 1280.0);
        for target in [Vec2::new(0.0, 0.0), Vec2::new(1280.0, 600.0), Vec2::new(640.0, 640.0)] {
            let mut tilted = Camera { target: target.extend(0.0), yaw: 0.3, zoom: ZOOM_RANGE.1 };
            tilted.clamp_view(size, screen, (0.0, 10.0), 0.0);
            // The same clamp worked out by hand from the untilted view's footprint.
            let plan = tilted.footprint(screen, (0.0, 10.0), 0.0).unwrap();
            let t = tilted.target.truncate();
            assert!((t + plan.0).min_element() >= -0.5 && (t + plan.1).x <= size.x + 0.5, "{target}: {t}");
            assert!((t + plan.1).y <= size.y + 0.5, "{target}: {t}");
            assert_eq!(tilted.zoom, ZOOM_RANGE.1, "a close view is never pushed back");
        }
        // A view in the middle does not move.
        let mut mid = Camera { zoom: ZOOM_RANGE.1, ..Camera::looking_at(Vec3::new(640.0, 640.0, 0.0)) };
        mid.clamp_view(size, screen, (0.0, 10.0), 0.0);
        assert_eq!(mid.target, Vec3::new(640.0, 640.0, 0.0));
    }

    #[test]
    fn the_outline_is_the_ground_under_the_corners_and_cut_at_the_reach_when_tilted() {
        let screen = Vec2::new(1280.0, 720.0);
        let corners = [Vec2::ZERO, Vec2::new(1280.0, 0.0), screen, Vec2::new(0.0, 720.0)];
        let plan = Camera::looking_at(Vec3::new(900.0, 900.0, 0.0));
        for c in corners {
            assert_eq!(plan.ground_point_near(c, screen, 0.0), plan.ground_point(c, screen, 0.0).unwrap());
        }
        let close = Camera { zoom: ZOOM_RANGE.1, yaw: 0.5, ..plan };
        let reach = OUTLINE_REACH * (close.eye() - close.target).length();
        let top_left = close.ground_point_near(Vec2::ZERO, screen, 0.0);
        let top_right = close.ground_point_near(Vec2::new(1280.0, 0.0), screen, 0.0);
        for p in [top_left, top_right] {
            assert!(((p - close.target.truncate()).length() - reach).abs() < 0.5, "{p}");
        }
        // Still the view's left and right, ahead of the target (the view looks north-east).
        let (right, ahead) = (Vec2::new(0.5f32.cos(), -0.5f32.sin()), Vec2::new(0.5f32.sin(), 0.5f32.cos()));
        let t = close.target.truncate();
        assert!((top_left - t).dot(right) < 0.0 && (top_right - t).dot(right) > 0.0);
        assert!((top_left - t).dot(ahead) > 0.0 && (top_right - t).dot(ahead) > 0.0);
        let bottom = close.ground_point_near(screen, screen, 0.0);
        assert_eq!(bottom, close.ground_point(screen, screen, 0.0).unwrap(), "the near corners meet the ground");
    }

    #[test]
    fn no_wheel_step_tilts_the_view_by_more_than_a_few_degrees() {
        // The wheel multiplies the zoom by 1.12 a step (battle::input): from anywhere in the
        // range, one step in changes the pitch by at most WHEEL_STEP_TILT, and never up.
        let mut zoom = ZOOM_RANGE.0;
        let mut most = 0.0f32;
        while zoom < ZOOM_RANGE.1 {
            let next = (zoom * 1.12).min(ZOOM_RANGE.1);
            let d = pitch_at(zoom) - pitch_at(next);
            assert!((0.0..=WHEEL_STEP_TILT).contains(&d), "zoom {zoom} → {next}: {d} rad");
            most = most.max(d);
            zoom *= 1.01;
        }
        // The bound is close to what the curve needs (the tilt is spread, not bunched).
        assert!(most > WHEEL_STEP_TILT * 0.8, "{most}");
    }

    #[test]
    fn zoom_stays_in_range() {
        let mut cam = Camera::looking_at(Vec3::ZERO);
        cam.zoom_by(100.0);
        assert_eq!(cam.zoom, ZOOM_RANGE.1);
        cam.zoom_by(0.0001);
        assert_eq!(cam.zoom, ZOOM_RANGE.0);
    }
}
