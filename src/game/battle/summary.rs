//! The score screen's rows: the outcome for the local player and, per player, name (a
//! computer's with the style it drew), objects lost, enemy objects destroyed, units and
//! structures built, and the score — from the counts `score.rs` keeps.
//!
//! Must not: decide the outcome (the simulation's victory does) or count anything itself.

use crate::sim::Relation;

use super::play::Play;

/// The outcome for `play`'s local player and a score row per player: name (a computer's with
/// its style), objects lost, enemy objects destroyed, units and structures built, score.
pub(super) fn summary(play: &Play, labels: &crate::ui::labels::Labels) -> (String, Vec<Vec<String>>) {
    let world = play.world();
    // A watcher (a replay, an observer) is told the winner: whose view was shown last decides
    // nothing.
    if let (true, Some(w)) = (play.watches(), world.winner()) {
        let outcome = labels.say("Replays:Won", &[("name", &play.player_name(w))]);
        return (outcome, rows(play, labels));
    }
    let outcome = match world.winner() {
        Some(w) if matches!(world.relation(play.local, w), Relation::Own | Relation::Ally) => "Outcome:Victory",
        Some(_) => "Outcome:Defeat",
        None if world.is_over() => "Outcome:Draw",
        None if play.is_replay() => "Outcome:ReplayEnded",
        None => "Outcome:BattleLeft",
    };
    let outcome = labels.say(outcome, &[]);
    (outcome, rows(play, labels))
}

/// A player's name as the player's language words it: the names the game gives slots that
/// name none ("Computer 2", "Player 1") are worded by `Score:Computer` and `Score:Player`;
/// a name someone chose stays as it is.
fn shown_name(name: &str, labels: &crate::ui::labels::Labels) -> String {
    for (prefix, label) in [("Computer ", "Score:Computer"), ("Player ", "Score:Player")] {
        if let Some(n) = name.strip_prefix(prefix).filter(|n| n.parse::<u8>().is_ok()) {
            return labels.say(label, &[("n", n)]);
        }
    }
    name.to_string()
}

/// A score row per player: name (a computer's with its style), objects lost, enemy objects
/// destroyed, units and structures built, score.
fn rows(play: &Play, labels: &crate::ui::labels::Labels) -> Vec<Vec<String>> {
    let players = play.world().players();
    // A computer player is named with the style it drew, so a player learns what they
    // faced ("Hard computer · armour").
    let styles = play.game.session.styles();
    players
        .iter()
        .map(|p| {
            let destroyed = play.score.destroyed(p.id);
            let (lost, built) = (play.score.lost(p.id), play.score.built(p.id));
            let name = shown_name(&play.player_name(p.id), labels);
            let name = match styles.iter().find(|(q, _)| *q == p.id) {
                Some((_, style)) => {
                    let style = labels.word_or(&format!("Style:{style}"), style);
                    labels.say("Score:WithStyle", &[("name", &name), ("style", &style)])
                }
                None => name,
            };
            let score = (100 * destroyed as i64 + 20 * built as i64 - 25 * lost as i64).max(0);
            vec![name, lost.to_string(), destroyed.to_string(), built.to_string(), score.to_string()]
        })
        .collect()
}
