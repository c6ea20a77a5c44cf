//! What the local player remembers under the fog: every enemy structure seen once stays drawn
//! where it was last seen — greyed, as it was then — and on the radar, until the player sees
//! its spot again (then it shows as it is, or is forgotten if it is gone). The player learns
//! nothing the shroud did not show (the AI keeps the same memory of what its team saw).
//!
//! Must not: read what the shroud hides (only what was shown is kept), or change the world.

use std::collections::BTreeMap;

use crate::render::ObjectInstance;
use crate::sim::ids::ObjectId;
use crate::sim::{PlayerId, Relation, World};

use super::super::display::{radians, to_display};
use super::super::scene::{Scene, Shown, shown_to};
use super::super::shroud::{self, Shroud};

/// How bright a remembered structure is drawn (share of its own colour, toward grey).
const REMEMBERED_BRIGHTNESS: f32 = 0.45;

/// Enemy structures as last seen.
#[derive(Clone, Debug, Default)]
pub(super) struct Memory {
    seen: BTreeMap<ObjectId, Shown>,
}

impl Memory {
    /// After the shroud changed: enemy structures `local` sees now are remembered as they are;
    /// remembered ones whose spot is in sight again but that are not shown are forgotten.
    pub fn update(&mut self, world: &World, local: PlayerId, shroud: &Shroud) {
        let rules = world.rules();
        for o in world.objects() {
            let enemy = world.relation(local, o.owner) == Relation::Enemy;
            if enemy && o.kind.blocks_ground() && shown_to(world, o, local, shroud) {
                let t = rules.template(o.template);
                let built = o.construction.map(|left| 1.0 - left as f32 / t.build_frames.max(1) as f32);
                // As last seen: how far built, how damaged.
                let shown = Shown {
                    built,
                    health: o.health as f32 / t.max_health.max(1) as f32,
                    ..Shown::standing(o.template, to_display(o.pos), radians(o.facing), o.owner)
                };
                self.seen.insert(o.id, shown);
            }
        }
        self.seen.retain(|id, s| {
            let now_shown = world.object(*id).is_some_and(|o| shown_to(world, o, local, shroud));
            now_shown || shroud.at(s.pos) != shroud::VISIBLE
        });
    }

    /// The remembered structures not in sight now (what the fog hides), as last seen.
    pub fn hidden<'a>(
        &'a self,
        world: &'a World,
        local: PlayerId,
        shroud: &'a Shroud,
    ) -> impl Iterator<Item = &'a Shown> + 'a {
        self.seen
            .iter()
            .filter(move |(id, _)| !world.object(**id).is_some_and(|o| shown_to(world, o, local, shroud)))
            .map(|(_, s)| s)
    }

    /// Adds the remembered structures the fog hides to `out`, greyed.
    pub fn instances(
        &self,
        scene: &Scene,
        world: &World,
        local: PlayerId,
        shroud: &Shroud,
        out: &mut [Vec<ObjectInstance>],
    ) {
        let mut greyed = vec![Vec::new(); out.len()];
        for s in self.hidden(world, local, shroud) {
            scene.push_shown(&mut greyed, world.rules(), s);
        }
        for (list, extra) in out.iter_mut().zip(greyed) {
            list.extend(extra.into_iter().map(|mut i| {
                i.color = grey(i.color);
                i.team = grey(i.team);
                i
            }));
        }
    }
}

/// A linear colour as a remembered thing shows it: toward grey, and darker.
fn grey(c: [f32; 3]) -> [f32; 3] {
    let luma = 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2];
    c.map(|v| (luma * 0.7 + v * 0.3) * REMEMBERED_BRIGHTNESS)
}
