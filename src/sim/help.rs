//! The call for help: idle armed units that see a comrade hit, or are hit themselves, take up a
//! guard where they stand and engage the attacker; they return fire and help allies, then go
//! back to their place (combat's `Guard` order does that). A structure hit calls farther: every
//! idle armed unit within [`BASE_GUARD`] of it answers, seen or not (a base defends itself, as
//! Generals' units on guard do), so a new player's army does not stand idle beside a Command
//! Post being shot. Combat notes the frame's hits; this
//! answers them once, after every unit has had its turn.
//! Must not: answer for an attacker the victim's team cannot see, or move anyone itself.

use super::fixed::Fixed;
use super::ids::ObjectId;
use super::object::Order;
use super::targeting::TargetIndex;
use super::vision::Sight;
use super::world::World;

/// Hits a frame that call for help, at most.
pub(super) const MAX_ALERTS: usize = 64;
/// Farthest a helper may stand from the comrade hit (no unit sees farther).
const HELP_REACH: Fixed = Fixed::from_int(400);
/// Idle armed units this close to a structure of their team that is hit answer, whether they
/// see it or not (30 cells).
pub(super) const BASE_GUARD: Fixed = Fixed::from_int(300);

/// Idle armed units that see a comrade hit (or are hit themselves) take up a guard where they
/// stand and engage the attacker if their team sees it: they return fire and help allies, then
/// go back to their place when the fight is over. Only the objects `may_answer` marks (by slot)
/// are read: it must mark every idle armed unit (it may mark more).
pub(super) fn call_for_help(
    world: &mut World,
    index: &TargetIndex,
    alerts: &[(ObjectId, ObjectId)],
    may_answer: &[bool],
) {
    let rules = std::sync::Arc::clone(&world.rules);
    let mut helpers: Vec<(u32, ObjectId)> = Vec::new();
    for &(victim, attacker) in alerts {
        let (Some(v), Some(a)) = (world.objects.get(victim), world.objects.get(attacker)) else { continue };
        let Some(team) = world.players.get(v.owner.index()).map(|p| p.team) else { continue };
        let (at, from) = (v.pos, a.pos);
        // A structure hit calls every idle unit of the base; a unit, those that see it.
        let base = v.kind.blocks_ground();
        if world.vision.sight_at(team, from) != Sight::Visible {
            continue;
        }
        index.for_each_near(
            |t| t == team,
            at,
            HELP_REACH,
            false,
            |e| {
                // The mark is a byte per slot: the many comrades that cannot answer are passed
                // over without reading their objects.
                if !may_answer.get(e.slot as usize).copied().unwrap_or(false) {
                    debug_assert!(
                        world.objects.by_slot(e.slot as usize).is_none_or(|o| o.order != Order::Idle
                            || o.target.is_some()
                            || rules.template(o.template).weapons.is_empty()),
                        "an idle armed unit in slot {} was not marked as one that may answer",
                        e.slot
                    );
                    return;
                }
                let Some(o) = world.objects.by_slot(e.slot as usize) else { return };
                let t = rules.template(o.template);
                let sight = t.vision;
                let idle = o.order == Order::Idle && o.target.is_none() && t.is_mobile() && !t.weapons.is_empty();
                // Within the square read as well as in sight, so a (modded) sight beyond the reach
                // never makes the answer depend on how the grid's buckets fall.
                let d = o.pos - at;
                let near = d.x.abs() <= HELP_REACH && d.y.abs() <= HELP_REACH;
                let reach = if base { BASE_GUARD.max(sight) } else { sight };
                if idle && near && o.is_complete() && d.length_squared() <= reach * reach {
                    helpers.push((e.slot, attacker));
                }
            },
        );
    }
    helpers.sort();
    helpers.dedup_by_key(|h| h.0);
    for (slot, attacker) in helpers {
        if let Some(mut o) = world.objects.by_slot_mut(slot as usize) {
            let anchor = o.pos;
            o.set_order(Order::Guard { anchor });
            o.set_target(Some(attacker));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::command::{Command, StampedCommand};
    use super::super::fixed::Fixed;
    use super::super::ids::{CommandId, Frame, PlayerId, TemplateId};
    use super::super::object::Order;
    use super::super::test_support;
    use super::super::vector::Vec2;

    fn cmd(player: u8, id: u32, command: Command) -> StampedCommand {
        StampedCommand { frame: Frame(0), player: PlayerId(player), id: CommandId(id), command }
    }

    #[test]
    fn idle_units_of_a_base_answer_when_a_structure_is_hit_even_out_of_their_sight() {
        // Test units see 60. Player 0's post (a structure) at (300, 300) and, 200 away, an idle
        // unit of player 0: it cannot see the post. Player 1's attacker shoots the post.
        let mut w = test_support::world(
            64,
            vec![
                (TemplateId(1), 0, Vec2::from_int(300, 300)),
                (TemplateId(0), 0, Vec2::from_int(300, 500)),
                (TemplateId(0), 0, Vec2::from_int(300, 640)),
                (TemplateId(0), 1, Vec2::from_int(330, 300)),
            ],
        );
        let at = |w: &crate::sim::world::World, owner: u8, y: i64| {
            w.objects().find(|o| o.owner == PlayerId(owner) && o.pos.y == Fixed::from_int(y)).unwrap().id
        };
        let (post, guard, far, attacker) = (at(&w, 0, 300), at(&w, 0, 500), at(&w, 0, 640), at(&w, 1, 300));
        w.tick(&[
            cmd(1, 0, Command::Select { objects: vec![attacker], add: false }),
            cmd(1, 1, Command::Attack { target: post }),
        ]);
        let mut answered = false;
        for _ in 0..60 {
            w.tick(&[]);
            let g = w.object(guard).unwrap();
            if g.order == (Order::Guard { anchor: Vec2::from_int(300, 500) }) {
                answered = g.target == Some(attacker);
                break;
            }
        }
        assert!(answered, "the unit 200 away answered the base's call");
        // 340 away is past the base's guard: it stays put.
        assert_eq!(w.object(far).unwrap().order, Order::Idle);
    }
}
