//! Two questions every side asks the same way: how one player stands toward another
//! ([`World::relation`]), and what a selection is ordered to do by pointing at something
//! ([`World::order_for`], the right click's rule, with Shift's queueing: [`OrderTiming`]). The
//! client's cursor and right click, the AI and the simulation's own checks ask here, so the rule
//! is written once.
//!
//! Must not: change the world, or look at anything the other machines cannot (visibility of
//! what the player points at is the client's question, asked before).

use super::command::{Command, Point, Queued, RejectReason};
use super::ids::{ObjectId, PlayerId};
use super::world::World;

/// How a player stands toward the owner of something.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// The same player.
    Own,
    /// Another player of the same team.
    Ally,
    /// A player of another team.
    Enemy,
    /// Nobody's (supply piles, scenery), or a player that is not in the game.
    Neutral,
}

/// What a selection is pointed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderTarget {
    /// A point on the ground.
    Ground(Point),
    /// An object.
    Object(ObjectId),
}

/// The kind of order pointing gives, for the cursor's shape and the order's marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderKind {
    /// Selected structures send what they make here.
    Rally,
    /// Builders go back to work on an unfinished structure.
    Resume,
    /// Gatherers work a supply pile.
    Gather,
    /// Attack an enemy.
    Attack,
    /// Go there.
    Move,
}

/// When an order starts: at once, replacing what the units are doing, or queued after it (the
/// player held Shift).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OrderTiming {
    /// Replaces what the units are doing.
    #[default]
    Now,
    /// Waits in the units' queue after what they are doing (a waypoint, the next structure).
    Queued,
}

impl OrderTiming {
    /// `Queued` when `shift` is held, else `Now`.
    pub fn from_shift(shift: bool) -> Self {
        if shift { OrderTiming::Queued } else { OrderTiming::Now }
    }

    /// `command` given at this timing: queued, a move, an attack-move or a build becomes a
    /// [`Command::Queue`] of it; every other command (an attack, a rally point…) starts at once
    /// either way.
    pub fn apply(self, command: Command) -> Command {
        match (self, command) {
            (OrderTiming::Queued, Command::Move { to }) => Command::Queue { order: Queued::Move { to } },
            (OrderTiming::Queued, Command::AttackMove { to }) => Command::Queue { order: Queued::AttackMove { to } },
            (OrderTiming::Queued, Command::Build { template, at }) => {
                Command::Queue { order: Queued::Build { template, at } }
            }
            (_, command) => command,
        }
    }
}

/// The order pointing gives: its kind and the commands that carry it out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Orders {
    /// What kind of order it is.
    pub kind: OrderKind,
    /// The commands, for the player's current selection.
    pub commands: Vec<Command>,
}

impl World {
    /// How `player` stands toward `other`.
    pub fn relation(&self, player: PlayerId, other: PlayerId) -> Relation {
        let (Some(me), Some(them)) = (self.players.get(player.index()), self.players.get(other.index())) else {
            return Relation::Neutral;
        };
        if player == other {
            Relation::Own
        } else if me.is_enemy(them) {
            Relation::Enemy
        } else {
            Relation::Ally
        }
    }

    /// What pointing `selection` (the player's own objects among it count) at `target` orders:
    /// on the ground, structures alone set their rally point and anything else moves; on an
    /// object, builders resume the player's unfinished structure they can build, gatherers
    /// work a supply pile, and everyone attacks an enemy. With [`OrderTiming::Queued`] (Shift)
    /// a move to the ground waits after what the units are doing ([`OrderTiming::apply`]).
    /// Refused with the reason a command would get when pointing there orders nothing.
    pub fn order_for(
        &self,
        player: PlayerId,
        selection: &[ObjectId],
        target: OrderTarget,
        timing: OrderTiming,
    ) -> Result<Orders, RejectReason> {
        let own: Vec<&super::object::Object> =
            selection.iter().filter_map(|id| self.objects.get(*id)).filter(|o| o.owner == player).collect();
        if own.is_empty() {
            return Err(RejectReason::NothingSelected);
        }
        let structures_only = own.iter().all(|o| o.kind.blocks_ground());
        match target {
            OrderTarget::Ground(at) => {
                self.point_on_map(at)?;
                if structures_only {
                    let commands = own.iter().map(|o| Command::SetRally { factory: o.id, at }).collect();
                    Ok(Orders { kind: OrderKind::Rally, commands })
                } else {
                    Ok(Orders { kind: OrderKind::Move, commands: vec![timing.apply(Command::Move { to: at })] })
                }
            }
            OrderTarget::Object(id) => {
                let t = self.objects.get(id).ok_or(RejectReason::UnknownObject(id))?;
                let template = |o: &super::object::Object| self.rules.template(o.template);
                let order = |kind, command| Ok(Orders { kind, commands: vec![timing.apply(command)] });
                if structures_only {
                    // Structures point only at the ground (their rally point).
                    return Err(RejectReason::InvalidTarget(id));
                }
                let relation = self.relation(player, t.owner);
                if relation == Relation::Own
                    && !t.is_complete()
                    && own.iter().any(|o| template(o).builds.contains(&t.template))
                {
                    return order(OrderKind::Resume, Command::Resume { site: id });
                }
                if t.supply > 0 && own.iter().any(|o| template(o).gather.is_some()) {
                    return order(OrderKind::Gather, Command::Gather { pile: id });
                }
                if relation == Relation::Enemy {
                    return order(OrderKind::Attack, Command::Attack { target: id });
                }
                Err(RejectReason::InvalidTarget(id))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ids::TemplateId;
    use crate::sim::test_support;
    use crate::sim::vector::Vec2;

    /// Two players, a unit each (template 0) and a structure for player 0 (template 1).
    fn world() -> (World, ObjectId, ObjectId, ObjectId) {
        let w = test_support::world(
            16,
            vec![
                (TemplateId(0), 0, Vec2::from_int(40, 40)),
                (TemplateId(0), 1, Vec2::from_int(90, 90)),
                (TemplateId(1), 0, Vec2::from_int(60, 40)),
            ],
        );
        let at = |x, y| w.objects().find(|o| o.pos == Vec2::from_int(x, y)).map(|o| o.id).expect("placed");
        let (mine, theirs, post) = (at(40, 40), at(90, 90), at(60, 40));
        (w, mine, theirs, post)
    }

    #[test]
    fn relations_follow_players_and_teams() {
        let (w, ..) = world();
        assert_eq!(w.relation(PlayerId(0), PlayerId(0)), Relation::Own);
        assert_eq!(w.relation(PlayerId(0), PlayerId(1)), Relation::Enemy);
        assert_eq!(w.relation(PlayerId(0), PlayerId::NEUTRAL), Relation::Neutral);
        assert_eq!(w.relation(PlayerId(7), PlayerId(0)), Relation::Neutral);
    }

    #[test]
    fn a_unit_pointed_at_an_enemy_attacks_it_and_at_the_ground_moves() {
        let (w, mine, theirs, _) = world();
        let o = w.order_for(PlayerId(0), &[mine], OrderTarget::Object(theirs), OrderTiming::Now).unwrap();
        assert_eq!(o, Orders { kind: OrderKind::Attack, commands: vec![Command::Attack { target: theirs }] });
        let at = Point { x: 50, y: 50 };
        let o = w.order_for(PlayerId(0), &[mine], OrderTarget::Ground(at), OrderTiming::Now).unwrap();
        assert_eq!(o, Orders { kind: OrderKind::Move, commands: vec![Command::Move { to: at }] });
    }

    #[test]
    fn structures_alone_set_their_rally_point_and_refuse_objects() {
        let (w, _, theirs, depot) = world();
        let at = Point { x: 20, y: 30 };
        let o = w.order_for(PlayerId(0), &[depot], OrderTarget::Ground(at), OrderTiming::Now).unwrap();
        assert_eq!(o.kind, OrderKind::Rally);
        assert_eq!(o.commands, vec![Command::SetRally { factory: depot, at }]);
        assert_eq!(
            w.order_for(PlayerId(0), &[depot], OrderTarget::Object(theirs), OrderTiming::Now),
            Err(RejectReason::InvalidTarget(theirs))
        );
    }

    #[test]
    fn pointing_at_ones_own_finished_unit_or_without_a_selection_orders_nothing() {
        let (w, mine, theirs, depot) = world();
        assert_eq!(
            w.order_for(PlayerId(0), &[mine], OrderTarget::Object(depot), OrderTiming::Now),
            Err(RejectReason::InvalidTarget(depot))
        );
        // The other player's unit in the selection is not the player's to order.
        assert_eq!(
            w.order_for(PlayerId(0), &[theirs], OrderTarget::Object(mine), OrderTiming::Now),
            Err(RejectReason::NothingSelected)
        );
        let off = Point { x: -5, y: 0 };
        assert_eq!(
            w.order_for(PlayerId(0), &[mine], OrderTarget::Ground(off), OrderTiming::Now),
            Err(RejectReason::OutsideMap(off))
        );
    }

    #[test]
    fn shift_queues_a_move_to_the_ground_but_not_an_attack_or_a_rally_point() {
        let (w, mine, theirs, depot) = world();
        let at = Point { x: 50, y: 50 };
        let o = w.order_for(PlayerId(0), &[mine], OrderTarget::Ground(at), OrderTiming::Queued).unwrap();
        assert_eq!(
            o,
            Orders { kind: OrderKind::Move, commands: vec![Command::Queue { order: Queued::Move { to: at } }] }
        );
        let o = w.order_for(PlayerId(0), &[mine], OrderTarget::Object(theirs), OrderTiming::Queued).unwrap();
        assert_eq!(o.commands, vec![Command::Attack { target: theirs }]);
        let o = w.order_for(PlayerId(0), &[depot], OrderTarget::Ground(at), OrderTiming::Queued).unwrap();
        assert_eq!(o.commands, vec![Command::SetRally { factory: depot, at }]);
    }

    #[test]
    fn shift_queues_moves_attack_moves_and_builds_only() {
        let (to, template) = (Point { x: 3, y: 4 }, TemplateId(1));
        let q = OrderTiming::Queued;
        assert_eq!(q.apply(Command::AttackMove { to }), Command::Queue { order: Queued::AttackMove { to } });
        assert_eq!(
            q.apply(Command::Build { template, at: to }),
            Command::Queue { order: Queued::Build { template, at: to } }
        );
        assert_eq!(q.apply(Command::Stop), Command::Stop);
        assert_eq!(OrderTiming::Now.apply(Command::Move { to }), Command::Move { to });
        assert_eq!(OrderTiming::from_shift(true), q);
    }
}
