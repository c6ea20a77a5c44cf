//! The control bar's model: the buttons for the selection (build or train, each greyed when
//! the simulation would refuse it now, for the reason it would give), the line under them
//! (a refused order for a few seconds, else the queue or construction progress), and what a
//! clicked button does (the battle sends it: `input.rs`).
//!
//! Must not: re-derive a game rule (it asks the simulation's queries) or draw (the shell
//! shows the labels).

use crate::defs::Definitions;
use crate::sim::command::{Blocker, RejectReason};
use crate::sim::event::GameEvent;
use crate::sim::ids::{ObjectId, TemplateId, UpgradeId};
use crate::sim::object::Object;
use crate::sim::{FRAMES_PER_SECOND, PlayerId, World};
use crate::ui::labels::Labels;

use super::super::button_view::ButtonView;
use super::super::images::ImageKey;
use super::super::keys::{Chord, KeyCommand, KeyMap};

/// Units one click queues with Shift held.
pub(super) const SHIFT_QUEUES: usize = 5;
/// Seconds a refused order's reason stays in the control bar.
const NOTICE_SECONDS: f32 = 3.0;

/// What a control-bar button does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Queue a unit at a structure.
    Produce {
        /// The structure.
        factory: ObjectId,
        /// The unit.
        template: TemplateId,
    },
    /// Choose where a selected builder puts a structure.
    Place(TemplateId),
    /// Start researching an upgrade at a structure.
    Research {
        /// The structure.
        structure: ObjectId,
        /// The upgrade.
        upgrade: UpgradeId,
    },
    /// Switch a structure's repair on or off.
    Repair(ObjectId),
    /// Switch a structure's power off or on.
    PowerDown(ObjectId),
    /// Sell a structure.
    Sell(ObjectId),
    /// Send the nearest builder back to an unfinished structure.
    Resume(ObjectId),
    /// The selected units stop (and forget their queues).
    Stop,
    /// The selected units guard where they stand.
    Guard,
    /// The next click on the ground (or the radar) attack-moves the selected units there.
    AttackMove,
    /// The selected units spread out from their centre.
    Scatter,
    /// Switch the selected units' formation on (true) or off.
    Formation(bool),
    /// Open (true) or close a mixed selection's build menu (its builder's buttons).
    BuildMenu(bool),
}

/// One control-bar button for the current selection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandButton {
    /// Its text: name and price.
    pub label: String,
    /// What it does.
    pub action: Action,
    /// False while the simulation would refuse it (the button greys out).
    pub available: bool,
    /// Why it would be refused, if it would.
    pub refusal: Option<RejectReason>,
    /// What the tooltip says: price, time, power, and why it is greyed out.
    pub tooltip: String,
    /// The picture of what it makes or raises, if it makes something.
    pub icon: Option<String>,
    /// Its key (the army's buttons their own, the rest their slot's: Q–Y then Z–N by
    /// default); none where no key reaches it.
    pub key: Option<Chord>,
}

/// The control bar's own state: the last refusal shown.
#[derive(Clone, Debug, Default)]
pub(super) struct ControlBar {
    /// The last refusal of one of the local player's orders, and when (battle seconds).
    notice: Option<(String, f32)>,
}

impl ControlBar {
    /// Shows a line in the control bar for a few seconds.
    pub fn say(&mut self, text: String, now: f32) {
        self.notice = Some((text, now));
    }

    /// Keeps the last of the frame's refusals of `local`'s orders, in the player's words.
    pub fn note_refusals(
        &mut self,
        events: &[GameEvent],
        local: PlayerId,
        (defs, labels): (&Definitions, &Labels),
        now: f32,
    ) {
        let last = events.iter().rev().find_map(|e| match e {
            GameEvent::OrderRefused(r) if r.player == local => Some(&r.reason),
            _ => None,
        });
        if let Some(reason) = last {
            self.notice = Some((describe(reason, defs, labels), now));
        }
    }
}

impl CommandButton {
    /// What the shell's control bar shows of it.
    pub fn view(self) -> ButtonView {
        ButtonView {
            label: self.label,
            usable: self.available,
            tooltip: self.tooltip,
            icon: self.icon,
            key: self.key.map_or_else(String::new, |k| k.to_string()),
        }
    }
}

/// What the control bar reads: the world, the names, whose bar it is and what is selected.
pub(super) struct Seen<'a> {
    /// The world as of the last executed frame.
    pub world: &'a World,
    /// The string table its texts are worded from.
    pub labels: &'a Labels,
    /// Which key gives which command (the buttons show theirs).
    pub keys: &'a KeyMap,
    /// The army's buttons, in order (the command sets in data).
    pub army: &'a [crate::game::keys::KeyCommand],
    /// Names and descriptions.
    pub defs: &'a Definitions,
    /// Whose control bar it is.
    pub local: PlayerId,
    /// What that player has selected.
    pub selection: &'a [ObjectId],
    /// A mixed selection's build menu is open (Build was pressed for this selection).
    pub build_menu: bool,
}

impl<'a> Seen<'a> {
    /// The selected object whose buttons the control bar shows: the first (by id) of the local
    /// player's that can build or produce something, else its first structure.
    fn subject(&self) -> Option<&'a Object> {
        let world = self.world;
        let mine = || self.selection.iter().filter_map(|id| world.object(*id)).filter(|o| o.owner == self.local);
        mine()
            .find(|o| !world.rules().template(o.template).builds.is_empty())
            .or_else(|| mine().find(|o| o.kind == crate::sim::rules::ObjectKind::Structure))
    }

    /// An unfinished structure's one button: Resume, which sends the nearest builder of it
    /// back (greyed while one is at work on it, or when none is left).
    fn site_buttons(&self, site: &crate::sim::object::Object) -> Vec<CommandButton> {
        let world = self.world;
        let rules = world.rules();
        let builders: Vec<_> = world
            .objects()
            .filter(|b| b.owner == self.local && rules.template(b.template).is_mobile())
            .filter(|b| rules.template(b.template).builds.contains(&site.template))
            .collect();
        let at_work = builders.iter().any(|b| b.order == crate::sim::object::Order::Construct { site: site.id });
        let say = |label: &str| self.labels.say(label, &[]);
        let (available, tooltip) = match (builders.is_empty(), at_work) {
            (true, _) => (false, say("Bar:ResumeNoBuilder")),
            (false, true) => (false, say("Bar:ResumeAtWork")),
            (false, false) => (true, say("Bar:ResumeTip")),
        };
        let mut buttons = vec![CommandButton {
            label: say("Bar:Resume"),
            action: Action::Resume(site.id),
            available,
            refusal: None,
            tooltip,
            icon: None,
            key: None,
        }];
        self.key_slots(&mut buttons);
        buttons
    }

    /// The control bar's buttons for the current selection: an army's ([`Seen::unit_buttons`]),
    /// a mixed one's ([`Seen::mixed_buttons`]), else its subject's.
    pub fn buttons(&self) -> Vec<CommandButton> {
        let Some(o) = self.subject() else { return self.unit_buttons() };
        if !o.kind.blocks_ground() && self.is_mixed() {
            let menu = if self.build_menu { self.subject_buttons(o) } else { Vec::new() };
            return self.mixed_buttons(menu);
        }
        self.subject_buttons(o)
    }

    /// The buttons of the selected object the bar is about: what it builds or produces, then a
    /// structure's own and Sell, on the key grid.
    fn subject_buttons(&self, o: &Object) -> Vec<CommandButton> {
        let world = self.world;
        let rules = world.rules();
        let structure = o.kind.blocks_ground();
        if structure && !o.is_complete() {
            return self.site_buttons(o);
        }
        let (defs, labels) = (self.defs, self.labels);
        let mut buttons: Vec<CommandButton> = rules
            .template(o.template)
            .builds
            .iter()
            .map(|&template| {
                let t = rules.template(template);
                let (action, verdict) = if structure {
                    (Action::Produce { factory: o.id, template }, world.can_produce(self.local, o.id, template))
                } else {
                    (Action::Place(template), world.can_build(self.local, o.id, template))
                };
                let secs = t.build_frames.div_ceil(FRAMES_PER_SECOND);
                let power = match t.power {
                    p if p > 0 => labels.say("Bar:MakesPower", &[("power", &p.to_string())]),
                    p if p < 0 => labels.say("Bar:UsesPower", &[("power", &(-p).to_string())]),
                    _ => String::new(),
                };
                let about = defs.object_descriptions.get(template.0 as usize);
                let about = about.filter(|d| !d.is_empty()).map_or(String::new(), |d| format!(" {d}"));
                let name = defs.object_name(template);
                let price = labels.say(
                    "Bar:BuildTip",
                    &[("name", name), ("cost", &t.cost.to_string()), ("secs", &secs.to_string()), ("power", &power)],
                );
                let mut tooltip = format!("{price}{about}{}", good_against(rules, template, labels));
                if let Err(why) = &verdict {
                    // Tooltips are one line.
                    tooltip = format!("{tooltip} {}", describe(why, defs, labels));
                }
                CommandButton {
                    label: format!("{name}\n${}", t.cost),
                    action,
                    available: verdict.is_ok(),
                    refusal: verdict.err(),
                    tooltip,
                    icon: Some(ImageKey::icon(&t.name).name()),
                    key: None,
                }
            })
            .collect();
        if structure {
            buttons.extend(self.structure_buttons(o));
        }
        // A finished structure can be sold, last on the bar.
        if let Ok(refund) = world.can_sell(self.local, o.id) {
            let refund = refund.to_string();
            let refund = [("refund", refund.as_str())];
            buttons.push(CommandButton {
                label: labels.say("Bar:Sell", &refund),
                action: Action::Sell(o.id),
                available: true,
                refusal: None,
                tooltip: labels.say("Bar:SellTip", &refund),
                icon: None,
                key: None,
            });
        }
        self.key_slots(&mut buttons);
        buttons
    }

    /// Gives each button its slot's key (the first slot's key to the first button), shown
    /// first in its tooltip.
    fn key_slots(&self, buttons: &mut [CommandButton]) {
        for (i, b) in buttons.iter_mut().enumerate() {
            let key = u8::try_from(i + 1).ok().and_then(|n| self.keys.chord(KeyCommand::Slot(n)));
            if let Some(key) = key {
                b.tooltip = format!("[{key}] {}", b.tooltip);
            }
            b.key = key;
        }
    }

    /// A finished structure's own buttons after what it produces: its upgrades to research,
    /// the repair switch while damaged or mending, and the power switch if it uses power.
    fn structure_buttons(&self, o: &Object) -> Vec<CommandButton> {
        let world = self.world;
        let rules = world.rules();
        let (defs, labels) = (self.defs, self.labels);
        let mut buttons = Vec::new();
        for &upgrade in &rules.template(o.template).researches {
            let u = rules.upgrade(upgrade);
            let about = defs.upgrade_descriptions.get(upgrade.0 as usize).map_or("", String::as_str);
            let name = defs.upgrade_name(upgrade);
            let secs = u.research_frames.div_ceil(FRAMES_PER_SECOND);
            let verdict = world.can_research(self.local, o.id, upgrade);
            let done = world.has_upgrade(self.local, upgrade);
            let (cost, secs) = (u.cost.to_string(), secs.to_string());
            let args = [("name", name), ("cost", cost.as_str()), ("secs", secs.as_str())];
            let mut tooltip = format!("{} {about}", labels.say("Bar:ResearchTip", &args));
            if done {
                tooltip = format!("{} {about}", labels.say("Bar:Researched", &args));
            } else if let Err(why) = &verdict {
                tooltip = format!("{tooltip} {}", describe(why, defs, labels));
            }
            buttons.push(CommandButton {
                label: if done { labels.say("Bar:ResearchDone", &args) } else { format!("{name}\n${}", u.cost) },
                action: Action::Research { structure: o.id, upgrade },
                available: verdict.is_ok(),
                refusal: verdict.err(),
                tooltip,
                icon: None,
                key: None,
            });
        }
        let t = rules.template(o.template);
        if o.repairing || world.can_repair(self.local, o.id).is_ok() {
            let faction = rules.factions.get(t.faction as usize);
            let full = faction.map_or(0, |f| t.cost * f.upkeep.repair_cost as i64 / 100);
            let missing = (t.max_health - o.health).max(0) as i64;
            let left = full * missing / t.max_health.max(1) as i64;
            let left = left.to_string();
            let args = [("left", left.as_str())];
            let (label, tooltip) = if o.repairing {
                (labels.say("Bar:StopRepair", &args), labels.say("Bar:StopRepairTip", &args))
            } else {
                (labels.say("Bar:Repair", &args), labels.say("Bar:RepairTip", &args))
            };
            buttons.push(CommandButton {
                label,
                action: Action::Repair(o.id),
                available: true,
                refusal: None,
                tooltip,
                icon: None,
                key: None,
            });
        }
        if let Ok(down) = world.can_power_down(self.local, o.id) {
            let power = (-t.power).to_string();
            let args = [("power", power.as_str())];
            let (label, tooltip) = if down {
                (labels.say("Bar:PowerOff", &args), labels.say("Bar:PowerOffTip", &args))
            } else {
                (labels.say("Bar:PowerOn", &args), labels.say("Bar:PowerOnTip", &args))
            };
            buttons.push(CommandButton {
                label,
                action: Action::PowerDown(o.id),
                available: true,
                refusal: None,
                tooltip,
                icon: None,
                key: None,
            });
        }
        buttons
    }

    /// The control bar's second line: a refused order for a few seconds, else the subject's
    /// queue or construction progress.
    pub fn line(&self, bar: &ControlBar, now: f32) -> String {
        if let Some((text, at)) = &bar.notice
            && now - at < NOTICE_SECONDS
        {
            return text.clone();
        }
        let world = self.world;
        let defs = self.defs;
        let Some(o) = self.subject() else { return String::new() };
        let queue = world.factories().queue(o.id);
        // Construction and power first; research while nothing is queued.
        if (o.construction.is_some() || o.powered_down || queue.is_empty())
            && let Some(work) = super::status::work_status(world, defs, self.labels, o)
        {
            return work;
        }
        if queue.is_empty() {
            let builds = !world.rules().template(o.template).builds.is_empty();
            return match (o.kind.blocks_ground(), builds) {
                (true, _) => self.labels.say("Bar:Ready", &[]),
                // A builder is told what its buttons are for; an army has nothing to choose.
                (false, true) => self.labels.say("Bar:ChooseStructure", &[]),
                (false, false) => String::new(),
            };
        }
        let items: Vec<String> = queue
            .iter()
            .enumerate()
            .map(|(i, j)| {
                let name = defs.object_name(j.template);
                if i == 0 { format!("{name} ({}s)", j.remaining.div_ceil(FRAMES_PER_SECOND)) } else { name.to_string() }
            })
            .collect();
        self.labels.say("Bar:Building", &[("items", &items.join(", "))])
    }
}

/// " Good against …" for an armed template (the armour classes its weapon does best against,
/// in words), else nothing.
fn good_against(rules: &crate::sim::rules::Rules, template: TemplateId, labels: &Labels) -> String {
    let names: Vec<String> = rules
        .strong_against(template)
        .into_iter()
        .filter_map(|a| rules.armors.get(a.0 as usize))
        .map(|a| plural_words(&a.name))
        .collect();
    if names.is_empty() {
        String::new()
    } else {
        format!(" {}", labels.say("Bar:GoodAgainst", &[("kinds", &names.join(", "))]))
    }
}

/// An armour class's name as words: "LightVehicle" → "light vehicles"; "Infantry" and
/// "Aircraft" stay.
fn plural_words(name: &str) -> String {
    let mut words = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            words.push(' ');
        }
        words.extend(c.to_lowercase());
    }
    // Words whose plural is the same.
    if words.ends_with("infantry") || words.ends_with("aircraft") { words } else { format!("{words}s") }
}

/// Why an order was refused, in the player's words (names as players read them, not numbers),
/// from the string table's `Refused:` entries.
pub(super) fn describe(reason: &RejectReason, defs: &Definitions, labels: &Labels) -> String {
    let name = |t: TemplateId| {
        if (t.0 as usize) < defs.rules.templates.len() { defs.object_name(t).to_string() } else { "that".to_string() }
    };
    let say = |label: &str, args: &[(&str, &str)]| labels.say(&format!("Refused:{label}"), args);
    match reason {
        RejectReason::NotEnoughMoney { cost, money } => {
            say("NotEnoughMoney", &[("cost", &cost.to_string()), ("money", &money.to_string())])
        }
        RejectReason::MissingPrerequisite(t) => say("MissingPrerequisite", &[("name", &name(*t))]),
        RejectReason::QueueFull(_) => say("QueueFull", &[]),
        RejectReason::NotReady(_) => say("NotReady", &[]),
        RejectReason::BadPlacement(_, blocker) => {
            let why = match blocker {
                Blocker::Ground => "BlockedByGround",
                Blocker::Structure => "BlockedByStructure",
                Blocker::Unit => "BlockedByUnit",
            };
            say("BadPlacement", &[("why", &say(why, &[]))])
        }
        RejectReason::CannotBuild(_, t) => say("CannotBuild", &[("name", &name(*t))]),
        RejectReason::NothingQueued(_) => say("NothingQueued", &[]),
        RejectReason::NotVisible(_) => say("NotVisible", &[]),
        RejectReason::AlreadyResearched(_) => say("AlreadyResearched", &[]),
        RejectReason::PoweredDown(_) => say("PoweredDown", &[]),
        RejectReason::NotDamaged(_) => say("NotDamaged", &[]),
        RejectReason::CannotResearch(..) => say("CannotResearch", &[]),
        other => say("Other", &[("reason", &other.to_string())]),
    }
}
