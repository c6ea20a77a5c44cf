//! Alerts for a watched game's "Everything" view: a spectator follows every player at once, so
//! each alert names whose units or base it is about ("Blue's units are under attack"), and only
//! what a spectator follows is told — attacks, waves on their way to a base, a factory lost.
//! One player's routine news (a unit ready, a structure finished, money, power, idle gatherers,
//! single losses) stays silent: told for everyone it would bury the fights.
//!
//! Must not: change the world, or speak as one of the players ("Our units…").

use crate::sim::event::GameEvent;
use crate::sim::{FRAMES_PER_SECOND, PlayerId, World};
use crate::ui::labels::Labels;

use super::super::display::to_display;
use super::alerts::{APPROACH_EVERY, Alert, AlertKind, Alerts, approaching};

impl Alerts {
    /// Turns the frame's events about every player into a spectator's alerts, each naming its
    /// player (`name`), worded from `labels` and shown at battle time `now`.
    pub fn note_everyone(
        &mut self,
        events: &[GameEvent],
        world: &World,
        (defs, labels): (&crate::defs::Definitions, &Labels),
        name: &dyn Fn(PlayerId) -> String,
        now: f32,
    ) {
        let rules = world.rules();
        let clock = world.frame().0 / FRAMES_PER_SECOND;
        for e in events {
            let (kind, text, at) = match e {
                GameEvent::Killed { owner, template, at, .. }
                    if rules.template(*template).kind.blocks_ground()
                        && !rules.template(*template).builds.is_empty() =>
                {
                    let args = [("player", name(*owner)), ("name", defs.object_name(*template).to_string())];
                    (AlertKind::Critical, say(labels, "Alert:SeenFactoryLost", &args), to_display(*at))
                }
                GameEvent::UnderAttack { player, object, at } => {
                    let base = world.object(*object).is_some_and(|o| o.kind.blocks_ground());
                    let label = if base { "Alert:SeenBaseUnderAttack" } else { "Alert:SeenUnitsUnderAttack" };
                    (AlertKind::UnderAttack, say(labels, label, &[("player", name(*player))]), to_display(*at))
                }
                _ => continue,
            };
            self.push(Alert { kind, text, at: Some(at), clock, shown: now });
        }
        if world.frame().0.is_multiple_of(APPROACH_EVERY) {
            for p in 0..world.players().len() {
                let player = PlayerId(p as u8);
                if let Some((count, at)) = approaching(player, world) {
                    let args = [("player", name(player)), ("count", count.to_string())];
                    let text = say(labels, "Alert:SeenEnemyApproaching", &args);
                    self.push(Alert { kind: AlertKind::Approaching, text, at: Some(at), clock, shown: now });
                }
            }
        }
    }
}

/// `label` worded with owned arguments.
fn say(labels: &Labels, label: &str, args: &[(&str, String)]) -> String {
    let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
    labels.say(label, &args)
}
