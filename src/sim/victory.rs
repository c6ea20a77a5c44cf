//! Victory: a player with no objects left is defeated; when every player still standing is on
//! one team, that team wins (reported as its lowest slot). If all fall at once it is a draw.
//!
//! Must not: end a game that has a single team from the start (a sandbox has no winner).

use super::ids::PlayerId;
use super::world::World;

/// Updates defeat flags and the winner after the frame's destruction.
pub(crate) fn update(world: &mut World) {
    if world.game_over {
        return;
    }
    for p in &mut world.players {
        if world.objects.owned_count(p.id) == 0 && !p.defeated {
            p.defeated = true;
            p.selection.clear();
        }
    }
    let mut teams: Vec<u8> = world.players.iter().map(|p| p.team).collect();
    teams.sort_unstable();
    teams.dedup();
    if teams.len() < 2 {
        return;
    }
    let standing: Vec<&_> = world.players.iter().filter(|p| !p.defeated).collect();
    match standing.first() {
        None => world.game_over = true,
        Some(first) if standing.iter().all(|p| p.team == first.team) => {
            world.game_over = true;
            world.winner = Some(PlayerId(first.id.0));
        }
        Some(_) => {}
    }
}
