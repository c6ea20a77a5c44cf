//! The order in which one frame's commands execute, the same on every machine.
//!
//! Commands run by (kind, player, id): every player's selections first, then their moves, and
//! so on. That order alone would change what a player meant when several orders fall in one
//! frame, as they do when orders are given during a pause or a network stall, or faster than a
//! frame: "select A, move A, select B, move B" would send both groups to B's point, and "stop,
//! then move" would end stopped. So each player's commands are first cut into rounds,
//! in the order the player gave them: a round ends where a selection follows an order to the
//! selection, or where an order to the selection follows one of a later kind. Rounds run one
//! after another, each by (kind, player, id). A frame without such a turn (any frame of the AI,
//! which gives one selection and its orders) runs exactly by (kind, player, id).
//!
//! Must not: depend on the order the commands arrived in, or on anything but the commands.

use std::borrow::Borrow;

use super::command::{Command, StampedCommand};

/// Puts one frame's commands in the order every machine executes them (see the module docs),
/// keeping one command of each (player, id).
pub fn execution_order<C: Borrow<StampedCommand>>(commands: &mut Vec<C>) {
    // Each player's commands as given; of two with one number, the one of the lower kind.
    commands.sort_by_key(|c| {
        let c: &StampedCommand = c.borrow();
        (c.player, c.id, c.command.kind())
    });
    commands.dedup_by(|a, b| {
        let (a, b): (&StampedCommand, &StampedCommand) = ((*a).borrow(), (*b).borrow());
        (a.player, a.id) == (b.player, b.id)
    });
    let mut rounds: Vec<(u32, C)> = Vec::with_capacity(commands.len());
    let mut player = None;
    let (mut round, mut latest) = (0u32, None::<u8>);
    for c in commands.drain(..) {
        let s: &StampedCommand = c.borrow();
        if player != Some(s.player) {
            (player, round, latest) = (Some(s.player), 0, None);
        }
        let kind = s.command.kind();
        let directed = s.command.uses_selection();
        if let Some(before) = latest
            && (matches!(s.command, Command::Select { .. }) || (directed && kind < before))
        {
            (round, latest) = (round + 1, None);
        }
        if directed {
            latest = Some(latest.map_or(kind, |k| k.max(kind)));
        }
        rounds.push((round, c));
    }
    rounds.sort_by_key(|(round, c)| {
        let c: &StampedCommand = c.borrow();
        (*round, c.command.kind(), c.player, c.id)
    });
    commands.extend(rounds.into_iter().map(|(_, c)| c));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::command::Point;
    use crate::sim::ids::{CommandId, Frame, ObjectId, PlayerId};
    use proptest::prelude::*;

    fn stamped(player: u8, id: u32, command: Command) -> StampedCommand {
        StampedCommand { frame: Frame(5), player: PlayerId(player), id: CommandId(id), command }
    }

    fn obj(index: u32) -> ObjectId {
        ObjectId { index, generation: 0 }
    }

    fn select(o: u32) -> Command {
        Command::Select { objects: vec![obj(o)], add: false }
    }

    fn mv(x: i32) -> Command {
        Command::Move { to: Point { x, y: 0 } }
    }

    /// (player, id) in execution order.
    fn ran(mut commands: Vec<StampedCommand>) -> Vec<(u8, u32)> {
        execution_order(&mut commands);
        commands.iter().map(|c| (c.player.0, c.id.0)).collect()
    }

    #[test]
    fn a_frame_without_a_turn_runs_by_kind_player_and_id() {
        // As the AI gives them: research, training, then a selection and its order.
        let frame = vec![
            stamped(1, 0, Command::Research { structure: obj(3), upgrade: Default::default() }),
            stamped(1, 1, Command::Produce { factory: obj(3), template: Default::default() }),
            stamped(1, 2, select(4)),
            stamped(1, 3, mv(10)),
            stamped(0, 7, select(1)),
            stamped(0, 8, Command::Stop),
        ];
        assert_eq!(ran(frame), vec![(0, 7), (1, 2), (1, 3), (0, 8), (1, 1), (1, 0)]);
    }

    #[test]
    fn a_second_selection_after_an_order_waits_for_that_order() {
        let frame = vec![
            stamped(0, 0, select(1)),
            stamped(0, 1, mv(10)),
            stamped(0, 2, select(2)),
            stamped(0, 3, mv(20)),
            stamped(1, 0, select(9)),
            stamped(1, 1, mv(30)),
        ];
        // Round 0: both players' first selections, then their moves; round 1: the second pair.
        assert_eq!(ran(frame), vec![(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (0, 3)]);
    }

    #[test]
    fn an_order_of_an_earlier_kind_given_later_runs_later() {
        // Stop, then move: the move is the last word. Move, then stop: one round already.
        let frame = vec![stamped(0, 0, Command::Stop), stamped(0, 1, mv(10))];
        assert_eq!(ran(frame), vec![(0, 0), (0, 1)]);
        let frame = vec![stamped(0, 0, mv(10)), stamped(0, 1, Command::Stop)];
        assert_eq!(ran(frame), vec![(0, 0), (0, 1)]);
    }

    #[test]
    fn commands_that_name_their_structure_do_not_start_a_round() {
        let frame = vec![
            stamped(0, 0, select(1)),
            stamped(0, 1, Command::Sell { structure: obj(5) }),
            stamped(0, 2, Command::Produce { factory: obj(6), template: Default::default() }),
            stamped(0, 3, mv(10)),
        ];
        assert_eq!(ran(frame), vec![(0, 0), (0, 3), (0, 2), (0, 1)]);
    }

    /// A command drawn from a few kinds that start rounds and a few that do not.
    fn any_command() -> impl Strategy<Value = Command> {
        prop_oneof![
            (0u32..4).prop_map(select),
            (0i32..4).prop_map(mv),
            Just(Command::Stop),
            (0u32..4).prop_map(|o| Command::Attack { target: obj(o) }),
            (0u32..4).prop_map(|o| Command::Sell { structure: obj(o) }),
        ]
    }

    proptest! {
        /// Whatever the arrival order and repeats, the result is the same; each player's
        /// selections and orders to the selection run in the order the player gave them.
        #[test]
        fn the_order_is_fixed_by_the_commands_and_keeps_each_players_intent(
            given in proptest::collection::vec((0u8..3, any_command()), 0..24),
            shuffle in proptest::collection::vec(any::<u32>(), 24),
        ) {
            let mut next = [0u32; 3];
            let frame: Vec<StampedCommand> = given
                .into_iter()
                .map(|(p, c)| {
                    let id = next[p as usize];
                    next[p as usize] += 1;
                    stamped(p, id, c)
                })
                .collect();
            let mut arrived: Vec<StampedCommand> = frame.iter().chain(frame.iter().take(3)).cloned().collect();
            // A deterministic shuffle from the drawn keys.
            let mut keys: Vec<(u32, usize)> = (0..arrived.len()).map(|i| (shuffle[i % shuffle.len()], i)).collect();
            keys.sort();
            arrived = keys.into_iter().map(|(_, i)| arrived[i].clone()).collect();
            let mut a = frame.clone();
            execution_order(&mut a);
            execution_order(&mut arrived);
            prop_assert_eq!(&a, &arrived);
            prop_assert_eq!(a.len(), frame.len());
            for p in 0..3u8 {
                let directed: Vec<u32> = a
                    .iter()
                    .filter(|c| c.player.0 == p)
                    .filter(|c| matches!(c.command, Command::Select { .. }) || c.command.uses_selection())
                    .map(|c| c.id.0)
                    .collect();
                let mut given = directed.clone();
                given.sort();
                prop_assert_eq!(directed, given, "player {}'s selections and orders out of turn", p);
            }
        }
    }
}
