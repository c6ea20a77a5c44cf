//! How each object has been moving, as the picture shows it: the distance it has travelled
//! (legs and wheels follow it), its stride (its share of top speed, eased) and how fast it
//! turns (a helicopter leans into it). Display state kept beside the interpolated poses,
//! advanced once per logic frame from the poses before and after it.
//!
//! Must not: be read by the simulation or change the world; losing it only resets the legs.

use std::collections::BTreeMap;

use crate::sim::World;
use crate::sim::ids::ObjectId;

use super::display::{radians, to_display, to_f32};

/// How much of the way to its new stride or turn an object goes each logic frame.
const EASE: f32 = 0.35;

/// One object's motion as shown.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Travel {
    /// World units travelled since it was first seen, up to the last logic frame.
    pub distance: f32,
    /// World units it moved in the last logic frame.
    pub last_step: f32,
    /// Its share of top speed (0..1), eased.
    pub stride: f32,
    /// How fast it turns, radians a logic frame (counter-clockwise positive), eased.
    pub turning: f32,
}

impl Travel {
    /// One logic frame passed in which it moved `step` world units and turned `turn` radians,
    /// with a top speed of `top` world units a frame.
    pub fn advance(&mut self, step: f32, turn: f32, top: f32) {
        self.distance += step;
        self.last_step = step;
        let share = if top > 0.0 { (step / top).min(1.0) } else { 0.0 };
        self.stride += (share - self.stride) * EASE;
        self.turning += (turn - self.turning) * EASE;
    }

    /// The distance travelled `alpha` (0..1) of the way through the frame after the last.
    pub fn distance_at(&self, alpha: f32) -> f32 {
        self.distance - self.last_step * (1.0 - alpha.clamp(0.0, 1.0))
    }
}

/// Every object's motion as shown, by id.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Travels {
    by_id: BTreeMap<ObjectId, Travel>,
}

impl Travels {
    /// A logic frame ran: each object's move from where `before` says it stood (its place and
    /// facing in radians) to where it is in `world` now; the objects gone are forgotten.
    pub fn step(&mut self, before: impl Fn(ObjectId) -> Option<(glam::Vec2, f32)>, world: &World) {
        let rules = world.rules();
        let mut next = BTreeMap::new();
        for o in world.objects() {
            let t = rules.template(o.template);
            if t.kind.blocks_ground() {
                continue;
            }
            let mut travel = self.by_id.get(&o.id).copied().unwrap_or_default();
            let (step, turn) = match before(o.id) {
                Some((pos, yaw)) => {
                    let turn = (radians(o.facing) - yaw + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU)
                        - std::f32::consts::PI;
                    (to_display(o.pos).distance(pos), turn)
                }
                None => (0.0, 0.0),
            };
            travel.advance(step, turn, to_f32(t.speed));
            next.insert(o.id, travel);
        }
        self.by_id = next;
    }

    /// How `id` has been moving (at rest if it has not).
    pub fn of(&self, id: ObjectId) -> Travel {
        self.by_id.get(&id).copied().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_adds_up_and_the_stride_follows_the_speed() {
        let mut t = Travel::default();
        for _ in 0..20 {
            t.advance(2.0, 0.0, 2.0);
        }
        assert_eq!(t.distance, 40.0);
        assert!(t.stride > 0.99, "{}", t.stride);
        // Between frames the distance is interpolated.
        assert_eq!(t.distance_at(0.5), 39.0);
        assert_eq!(t.distance_at(1.0), 40.0);
        // Stopped, it eases back to standing; half speed, half a stride.
        for _ in 0..20 {
            t.advance(0.0, 0.0, 2.0);
        }
        assert!(t.stride < 0.01 && t.distance == 40.0);
        for _ in 0..20 {
            t.advance(1.0, 0.1, 2.0);
        }
        assert!((t.stride - 0.5).abs() < 0.01 && (t.turning - 0.1).abs() < 0.01);
        // Something that cannot move never strides.
        let mut still = Travel::default();
        still.advance(3.0, 0.0, 0.0);
        assert_eq!(still.stride, 0.0);
    }
}
