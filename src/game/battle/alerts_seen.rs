//! Alerts for a watched game's "Everything" view: a spectator follows every player at once, so
//! each alert names whose units or base it is about ("Blue's units are under attack"), and only
//! what a spectator follows is told — attacks, waves on their way to a base, a factory lost.
//! One player's routine news (a unit ready, a structure finished, money, power, idle gatherers,
//! single losses) stays silent: told for everyone it would bury the fights. And the alerts of
//! the frames a replay's seek runs over, told as the view shown would have told them, so the
//! log stays whole.
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
            self.push(Alert::told(kind, text, Some(at), world.frame().0, now));
        }
        if world.frame().0.is_multiple_of(APPROACH_EVERY) {
            for p in 0..world.players().len() {
                let player = PlayerId(p as u8);
                if let Some((count, at)) = approaching(player, world) {
                    let args = [("player", name(player)), ("count", count.to_string())];
                    let text = say(labels, "Alert:SeenEnemyApproaching", &args);
                    self.push(Alert::told(AlertKind::Approaching, text, Some(at), world.frame().0, now));
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

/// The alerts told while a replay's seek runs over frames, for the view shown (one player's,
/// or everything); their battle time is the game time, so each kind keeps quiet as long as it
/// would at normal speed.
pub(super) struct Rerun {
    /// What was told.
    pub alerts: Alerts,
    local: PlayerId,
    see_all: bool,
    names: Vec<String>,
    labels: crate::ui::labels::SharedLabels,
}

impl Rerun {
    /// For the view of `local` (or everything), the players named `names`, worded from `labels`.
    pub fn new(local: PlayerId, see_all: bool, names: Vec<String>, labels: crate::ui::labels::SharedLabels) -> Rerun {
        Rerun { alerts: Alerts::default(), local, see_all, names, labels }
    }

    /// One frame run: the world after it and its events.
    pub fn note(&mut self, world: &World, events: &[GameEvent], defs: &crate::defs::Definitions) {
        let now = world.frame().0 as f32 / FRAMES_PER_SECOND as f32;
        let labels = self.labels.as_ref();
        if self.see_all {
            let names = &self.names;
            let name = |p: PlayerId| names.get(p.index()).cloned().unwrap_or_default();
            self.alerts.note_everyone(events, world, (defs, labels), &name, now);
        } else {
            let low = world.power(self.local).low();
            self.alerts.note(events, self.local, world, (defs, labels), low, now);
        }
    }
}
