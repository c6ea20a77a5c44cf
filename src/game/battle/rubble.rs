//! Rubble: what is left where a structure was destroyed — a low, dark slab over its footprint
//! with broken blocks on it — drawn for the rest of the battle where the local player saw it
//! fall, and cleared when a new structure is placed over it.
//!
//! Rubble is display state made from the tick's `Killed` events; the simulation never sees it
//! (the ground is free to walk and build on at once).
//! Must not: read anything but the events and the rules' footprints, or draw where the local
//! player did not see the structure fall.

use glam::{Vec2, Vec3};

use crate::defs::model::Shape;
use crate::render::world::ObjectInstance;
use crate::render::world::models::shape_index;
use crate::sim::World;
use crate::sim::event::GameEvent;
use crate::sim::rules::ObjectKind;

use super::super::display::to_display;
use super::super::scene::Scene;
use super::super::shroud::{self, Shroud};

/// Most rubble heaps kept (the oldest go first).
const MAX_HEAPS: usize = 256;
/// The slab's colour (linear RGB).
const SLAB: [f32; 3] = [0.045, 0.04, 0.035];
/// The broken blocks' colour (linear RGB).
const BLOCKS: [f32; 3] = [0.07, 0.062, 0.055];

/// One destroyed structure's remains.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Heap {
    /// Centre, display units.
    pub at: Vec2,
    /// Footprint size, display units.
    pub size: Vec2,
}

/// Every heap on the battlefield.
#[derive(Clone, Debug, Default)]
pub(super) struct Rubble {
    pub heaps: Vec<Heap>,
}

impl Rubble {
    /// Adds a heap for each structure destroyed in sight, and clears heaps under each new
    /// construction site.
    pub fn note(&mut self, events: &[GameEvent], world: &World, cell: f32, sight: &Shroud) {
        let rules = world.rules();
        let size_of = |t: crate::sim::TemplateId| {
            let fp = rules.template(t).footprint;
            Vec2::new(fp.0 as f32, fp.1 as f32) * cell
        };
        for e in events {
            match *e {
                GameEvent::Killed { template, at, .. } if rules.template(template).kind == ObjectKind::Structure => {
                    let at = to_display(at);
                    if sight.at(at) == shroud::VISIBLE {
                        if self.heaps.len() >= MAX_HEAPS {
                            self.heaps.remove(0);
                        }
                        self.heaps.push(Heap { at, size: size_of(template) });
                    }
                }
                GameEvent::ConstructionStarted { template, at, .. } => {
                    let (at, size) = (to_display(at), size_of(template));
                    self.heaps.retain(|h| {
                        let d = (h.at - at).abs();
                        d.x * 2.0 >= h.size.x + size.x || d.y * 2.0 >= h.size.y + size.y
                    });
                }
                _ => {}
            }
        }
    }

    /// The heaps as model instances: a slab and four blocks each, on the Building mesh.
    pub fn instances(&self, scene: &Scene, out: &mut [Vec<ObjectInstance>]) {
        let Some(list) = out.get_mut(shape_index(Shape::Building)) else { return };
        for h in &self.heaps {
            let ground = scene.height(h.at);
            let yaw = std::f32::consts::FRAC_PI_2;
            list.push(ObjectInstance::still(
                h.at.extend(ground).to_array(),
                yaw,
                [h.size.x * 0.95, h.size.y * 0.95, 1.2],
                SLAB,
                SLAB,
            ));
            // Blocks scattered by a hash of the place (display only: any spread will do).
            let seed = (h.at.x * 13.0 + h.at.y * 7.0) as u32;
            for k in 0..4u32 {
                let r = seed.wrapping_mul(2_654_435_761).wrapping_add(k.wrapping_mul(40_503));
                let fx = ((r & 0xff) as f32 / 255.0 - 0.5) * 0.6;
                let fy = (((r >> 8) & 0xff) as f32 / 255.0 - 0.5) * 0.6;
                let s = 0.18 + ((r >> 16) & 0x3f) as f32 / 63.0 * 0.14;
                let p = h.at + Vec2::new(fx * h.size.x, fy * h.size.y);
                list.push(ObjectInstance::still(
                    Vec3::new(p.x, p.y, ground).to_array(),
                    (r >> 22) as f32 * 0.01,
                    [h.size.x * s, h.size.y * s, 2.5 + 2.0 * s],
                    BLOCKS,
                    BLOCKS,
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ids::{ObjectId, PlayerId, TemplateId};
    use crate::sim::test_support;
    use crate::sim::vector::Vec2 as SimVec2;

    fn killed(template: u16, x: i64, y: i64) -> GameEvent {
        GameEvent::Killed {
            object: ObjectId { index: 90, generation: 0 },
            template: TemplateId(template),
            owner: PlayerId(1),
            at: SimVec2::from_int(x, y),
        }
    }

    #[test]
    fn a_structure_seen_to_fall_leaves_a_heap_until_something_is_built_over_it() {
        // test_support: template 0 a unit, 2 a 3×3 block; cells of 10.
        let world = test_support::world(64, vec![]);
        let mut dark = Shroud::new(64, 64, 10.0);
        let mut rubble = Rubble::default();
        rubble.note(&[killed(2, 200, 200)], &world, 10.0, &dark);
        assert!(rubble.heaps.is_empty(), "not seen, not drawn");
        dark.reveal_all();
        rubble.note(&[killed(2, 200, 200), killed(0, 300, 300)], &world, 10.0, &dark);
        assert_eq!(
            rubble.heaps,
            vec![Heap { at: Vec2::new(200.0, 200.0), size: Vec2::new(30.0, 30.0) }],
            "units leave none"
        );
        let site = |x, y| GameEvent::ConstructionStarted {
            site: ObjectId { index: 91, generation: 0 },
            template: TemplateId(1),
            owner: PlayerId(0),
            at: SimVec2::from_int(x, y),
        };
        rubble.note(&[site(240, 240)], &world, 10.0, &dark);
        assert_eq!(rubble.heaps.len(), 1, "a site beside it leaves it");
        rubble.note(&[site(210, 195)], &world, 10.0, &dark);
        assert!(rubble.heaps.is_empty(), "a site over it clears it");
    }
}
