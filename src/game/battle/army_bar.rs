//! The control bar for units: an army's buttons (Stop, Guard, Attack-move, Scatter and the
//! formation switch as `data/command_sets.ron` lists them, on the player's keys for them: S, G,
//! A, D and F by default), and for a
//! selection mixing builders with fighters the union of what applies: the army's buttons plus
//! Build, which turns the bar to the builder's build menu (with Back), the way Generals keeps a
//! command set's sub-menu.
//!
//! Must not: re-derive a game rule (the formation switch is read from the units, what a builder
//! builds from the control bar's own build menu) or draw.

use crate::sim::object::Object;

use super::super::keys::{KeyCommand, SLOTS};
use super::control_bar::{Action, CommandButton, Seen};

/// What an army command's button does and its name in the string table (`Bar:{name}`), the
/// selection's formation switch standing `formation_on`; none for a command that is not the
/// army's.
pub(super) fn army_action(command: KeyCommand, formation_on: bool) -> Option<(Action, &'static str)> {
    Some(match command {
        KeyCommand::Stop => (Action::Stop, "Stop"),
        KeyCommand::Guard => (Action::Guard, "Guard"),
        KeyCommand::AttackMove => (Action::AttackMove, "AttackMove"),
        KeyCommand::Scatter => (Action::Scatter, "Scatter"),
        KeyCommand::Formation if formation_on => (Action::Formation(false), "FormationOn"),
        KeyCommand::Formation => (Action::Formation(true), "FormationOff"),
        _ => return None,
    })
}

impl Seen<'_> {
    /// The local player's selected mobile units.
    fn my_units(&self) -> impl Iterator<Item = &Object> + '_ {
        let world = self.world;
        self.selection
            .iter()
            .filter_map(|id| world.object(*id))
            .filter(|o| o.owner == self.local && world.rules().template(o.template).is_mobile())
    }

    /// Whether the selection keeps formation: every selected unit's switch is on (the
    /// default). The formation button and the F key switch it to the other state.
    pub(super) fn formation_on(&self) -> bool {
        self.my_units().all(|o| !o.loose)
    }

    /// True when the selection holds a builder and units that are not workers: the bar shows
    /// the union ([`Seen::mixed_buttons`]).
    pub(super) fn is_mixed(&self) -> bool {
        let rules = self.world.rules();
        let builder = self.my_units().any(|o| !rules.template(o.template).builds.is_empty());
        builder && self.my_units().any(|o| !rules.template(o.template).is_worker())
    }

    /// An army's buttons, as the command sets in data list them (Stop, Guard, Attack-move,
    /// Scatter and the formation switch, its label saying which way it stands), on the
    /// player's keys for them; none without a unit of the player's.
    pub(super) fn unit_buttons(&self) -> Vec<CommandButton> {
        if self.my_units().next().is_none() {
            return Vec::new();
        }
        let on = self.formation_on();
        self.army
            .iter()
            .filter_map(|&command| army_action(command, on).map(|(action, name)| self.plain(action, name, command)))
            .collect()
    }

    /// A mixed selection's buttons: the army's, then Build (the builder's menu behind it); with
    /// that menu open, the builder's build buttons and Back.
    pub(super) fn mixed_buttons(&self, builder_menu: Vec<CommandButton>) -> Vec<CommandButton> {
        if self.build_menu {
            let mut buttons = builder_menu;
            buttons.push(self.plain(Action::BuildMenu(false), "Back", KeyCommand::BuildMenu));
            // A menu of every button slot leaves Back to Escape.
            buttons.truncate(SLOTS as usize);
            return buttons;
        }
        let mut buttons = self.unit_buttons();
        buttons.push(self.plain(Action::BuildMenu(true), "BuildMenu", KeyCommand::BuildMenu));
        buttons
    }

    /// A button that is always usable, worded from the string table's `Bar:{name}` and
    /// `Bar:{name}Tip`, on the player's key for `command`, its tooltip led by that key.
    fn plain(&self, action: Action, name: &str, command: KeyCommand) -> CommandButton {
        let tooltip = self.labels.say(&format!("Bar:{name}Tip"), &[]);
        let key = self.keys.chord(command);
        CommandButton {
            label: self.labels.say(&format!("Bar:{name}"), &[]),
            action,
            available: true,
            refusal: None,
            tooltip: key.map_or(tooltip.clone(), |k| format!("[{k}] {tooltip}")),
            icon: None,
            key,
        }
    }
}
