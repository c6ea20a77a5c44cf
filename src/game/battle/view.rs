//! The battle's view: the camera, the screen size, the cursor and held arrow keys; scrolling
//! (keys and screen edges), zoom (the wheel's toward the point under the cursor), and the
//! mapping between pixels and the ground.
//!
//! Must not: give orders or change the selection (it only says where things are).

use glam::{Mat4, Vec2, Vec3};

use crate::audio::Ear;
use crate::sim::World;
use crate::sim::ids::ObjectId;
use crate::ui::draw::DrawCmd;

use super::super::camera::Camera;
use super::super::display::to_display;
use super::super::scene::Scene;

/// Camera pan speed at zoom 1, world units a second.
const PAN_SPEED: f32 = 420.0;
/// Pixels from the screen edge that scroll the camera.
const EDGE_PX: f32 = 3.0;
/// How quickly the zoom eases toward the wheel's goal (per second).
const ZOOM_EASE: f32 = 14.0;

/// Camera, screen and cursor.
#[derive(Clone, Debug)]
pub(super) struct View {
    /// The local player's view.
    pub camera: Camera,
    /// Screen size in pixels.
    pub screen: Vec2,
    /// Where the mouse is.
    pub cursor: Vec2,
    /// Arrow keys held: left, right, up, down.
    arrows: [bool; 4],
    /// The cursor is over the window (edges scroll only then).
    pub inside: bool,
    /// The zoom the camera eases toward.
    zoom_goal: f32,
    /// The wheel turned: the zoom eases toward the ground under the cursor (kept under it),
    /// not the screen's middle, until the goal is reached.
    zoom_at_cursor: bool,
    /// Pixels at the screen's bottom the HUD covers (the camera may bring the map's edge above
    /// them).
    pub covered: f32,
}

impl View {
    pub fn new(camera: Camera, screen: Vec2) -> View {
        View {
            camera,
            screen,
            cursor: screen / 2.0,
            arrows: [false; 4],
            inside: true,
            zoom_goal: camera.zoom,
            zoom_at_cursor: false,
            covered: 0.0,
        }
    }

    /// Moves the camera for held arrows and a cursor at the screen's edge.
    pub fn scroll(&mut self, dt: f32, scene: &Scene) {
        let held = |i: usize| if self.arrows[i] { 1.0 } else { 0.0 };
        let mut dir = Vec2::new(held(1) - held(0), held(2) - held(3));
        let (c, s) = (self.cursor, self.screen);
        if s.x > 0.0 && s.y > 0.0 && self.inside {
            if c.x <= EDGE_PX {
                dir.x -= 1.0;
            } else if c.x >= s.x - 1.0 - EDGE_PX {
                dir.x += 1.0;
            }
            if c.y <= EDGE_PX {
                dir.y += 1.0;
            } else if c.y >= s.y - 1.0 - EDGE_PX {
                dir.y -= 1.0;
            }
        }
        if dir != Vec2::ZERO {
            self.camera.pan(dir.normalize() * PAN_SPEED / self.camera.zoom * dt);
        }
        // The zoom eases toward where the wheel sent it, the ground under the cursor staying
        // under it (the cursor inside the window; otherwise toward the screen's middle).
        let ease = 1.0 - (-ZOOM_EASE * dt).exp();
        let anchor = self.zoom_at_cursor && self.inside && self.on_screen(self.cursor);
        let before = if anchor { self.ground_under(self.cursor, scene) } else { None };
        self.camera.zoom += (self.zoom_goal - self.camera.zoom) * ease;
        self.settle(scene);
        // Twice: the first step moves the camera over other ground, whose height moves it a
        // little again.
        for _ in 0..2 {
            if let Some(before) = before
                && let Some(after) = self.ground_under(self.cursor, scene)
            {
                self.camera.target += (before - after).extend(0.0);
                self.settle(scene);
            }
        }
        if (self.zoom_goal - self.camera.zoom).abs() < 1e-3 {
            self.zoom_at_cursor = false;
        }
    }

    /// Replaces the camera (its zoom becomes the wheel's goal) and keeps it over the map.
    pub fn set_camera(&mut self, camera: Camera, scene: &Scene) {
        self.camera = camera;
        self.zoom_goal = camera.zoom;
        self.zoom_at_cursor = false;
        self.settle(scene);
    }

    /// Keeps the view over the map (no void past its edges) at the ground's height there.
    pub fn settle(&mut self, scene: &Scene) {
        self.camera.clamp_to(scene.size());
        let t = self.camera.target.truncate();
        self.camera.target.z = scene.height(t);
        let zoom = self.camera.zoom;
        self.camera.clamp_view(scene.size(), self.screen, scene.ground_range(), self.covered);
        // A map smaller than the view brought the camera closer: the wheel starts from there.
        if self.camera.zoom > zoom {
            self.zoom_goal = self.zoom_goal.max(self.camera.zoom);
        }
    }

    /// The wheel: zoom toward `factor` times the goal, within limits, on the point under the
    /// cursor.
    pub fn zoom_by(&mut self, factor: f32) {
        let (lo, hi) = super::super::camera::ZOOM_RANGE;
        self.zoom_goal = (self.zoom_goal * factor).clamp(lo, hi);
        self.zoom_at_cursor = true;
    }

    /// A scrolling key went down or up: 0 left, 1 right, 2 up, 3 down (the player's keys for
    /// them, the arrows by default).
    pub fn scroll_key(&mut self, direction: usize, down: bool) {
        if let Some(held) = self.arrows.get_mut(direction) {
            *held = down;
        }
    }

    /// Centres the camera on a ground point (as near as the map's edges allow).
    pub fn look_at(&mut self, p: Vec2, scene: &Scene) {
        self.camera.target = p.extend(scene.height(p));
        self.settle(scene);
    }

    /// The view-projection matrix for the current screen.
    pub fn view_proj(&self) -> Mat4 {
        self.camera.view_proj(self.screen.x / self.screen.y.max(1.0))
    }

    /// The ground point under a pixel, following the terrain's height. A view tilted toward
    /// the horizon (a close zoom) sees the ground at grazing angles, where a hill can hide
    /// what lies behind it: its ray is followed from the eye to where it first goes under the
    /// ground. None over the horizon.
    pub fn ground_under(&self, at: Vec2, scene: &Scene) -> Option<Vec2> {
        if self.camera.pitch() < super::super::camera::PITCH {
            return self.march_to_ground(at, scene);
        }
        let mut z = self.camera.target.z;
        let mut p = None;
        for _ in 0..3 {
            p = self.camera.ground_point(at, self.screen, z);
            z = scene.height(p?);
        }
        p
    }

    /// Steps along the ray through a pixel (a cell's length at a time, out to well past the
    /// map) to the first point under the ground, then halves the last step down to a tenth of a
    /// unit.
    fn march_to_ground(&self, at: Vec2, scene: &Scene) -> Option<Vec2> {
        let (o, d) = self.camera.ray(at, self.screen);
        let below = |t: f32| {
            let p = o + d * t;
            p.z <= scene.height(p.truncate())
        };
        let step = scene.map.file.cell_size.max(1.0) as f32;
        let reach = scene.size().max_element() * 2.0 + (self.camera.eye() - self.camera.target).length();
        let (mut before, mut t) = (0.0, step);
        while t < reach {
            if below(t) {
                let (mut lo, mut hi) = (before, t);
                while hi - lo > 0.1 {
                    let mid = (lo + hi) / 2.0;
                    if below(mid) { hi = mid } else { lo = mid }
                }
                return Some((o + d * hi).truncate());
            }
            before = t;
            t += step;
        }
        None
    }

    /// The corners of the ground the view shows, in screen order from the top left: the
    /// ground under each corner, and where a tilted view's top corners look out past
    /// [`OUTLINE_REACH`](super::super::camera::OUTLINE_REACH) eye distances (or over the
    /// horizon), the point at that reach along their heading (the radar's view frame).
    pub fn outline(&self, scene: &Scene) -> [Vec2; 4] {
        let s = self.screen;
        let reach = super::super::camera::OUTLINE_REACH * (self.camera.eye() - self.camera.target).length();
        let t = self.camera.target.truncate();
        [Vec2::ZERO, Vec2::new(s.x, 0.0), s, Vec2::new(0.0, s.y)].map(|c| {
            self.ground_under(c, scene)
                .filter(|g| (*g - t).length() <= reach)
                .unwrap_or_else(|| self.camera.ground_point_near(c, s, self.camera.target.z))
        })
    }

    /// Where a point on the ground (raised by `lift`) appears on the screen.
    pub fn project_ground(&self, g: Vec2, lift: f32, scene: &Scene) -> Option<Vec2> {
        self.camera.project(g.extend(scene.height(g) + lift), self.screen)
    }

    /// A closed outline through ground points, as seen on screen.
    pub fn ground_loop(
        &self,
        scene: &Scene,
        out: &mut Vec<DrawCmd>,
        points: impl Iterator<Item = Vec2>,
        color: [u8; 4],
        width: f32,
    ) {
        let px: Vec<Vec2> = points.filter_map(|g| self.project_ground(g, 0.5, scene)).collect();
        for i in 0..px.len() {
            let (a, b) = (px[i], px[(i + 1) % px.len()]);
            out.push(DrawCmd::Line { from: (a.x, a.y), to: (b.x, b.y), color, width });
        }
    }

    /// Where a point in the world appears on the screen.
    pub fn project(&self, p: Vec3) -> Option<Vec2> {
        self.camera.project(p, self.screen)
    }

    /// Where an object appears on the screen (its middle, a little above the ground).
    pub fn screen_pos(&self, world: &World, id: ObjectId, scene: &Scene) -> Option<Vec2> {
        let o = world.object(id)?;
        self.project_ground(to_display(o.pos), 3.0 + super::super::display::altitude(o.kind), scene)
    }

    /// True if a pixel is on the screen.
    pub fn on_screen(&self, p: Vec2) -> bool {
        p.x >= 0.0 && p.y >= 0.0 && p.x <= self.screen.x && p.y <= self.screen.y
    }

    /// Where the player listens from: the ground at the middle of the screen, the screen's
    /// right along the ground, and half the ground width it shows.
    pub fn ear(&self, scene: &Scene) -> Ear {
        let screen = self.screen;
        let centre = self.camera.target.truncate();
        let left = self.ground_under(Vec2::new(0.0, screen.y * 0.5), scene);
        let right = self.ground_under(Vec2::new(screen.x, screen.y * 0.5), scene);
        match (left, right) {
            (Some(l), Some(r)) if (r - l).length() > 1.0 => {
                let across = r - l;
                let dir = across.normalize();
                Ear { right: dir.to_array(), ..Ear::new(centre.to_array(), across.length() * 0.5) }
            }
            _ => Ear::new(centre.to_array(), 320.0),
        }
    }
}
