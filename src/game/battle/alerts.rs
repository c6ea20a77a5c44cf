//! Alerts: what the local player should hear about, from the tick's events — a unit lost, the
//! base or army under attack, a structure finished, a unit ready, an order refused for money,
//! power running low. Each becomes a line with the game time in the alert window and, where it
//! has a place, a flashing ping on the radar; Space jumps the camera to the last place. Each
//! kind has its own quiet time, so a battle reads as "under attack" once, not a hundred times.
//!
//! Must not: change the world, or tell the player what their team cannot see (only events
//! about the local player's own objects and orders are used) — but for the base's watch: an
//! enemy group near the player's structures and heading in is announced under the fog too, as
//! a count and a place on the radar.

use crate::ui::labels::Labels;
use std::collections::VecDeque;

use glam::Vec2;

use crate::sim::command::RejectReason;
use crate::sim::event::GameEvent;
use crate::sim::{FRAMES_PER_SECOND, PlayerId, World};

use super::super::display::to_display;
use super::control_bar::describe;

/// Lines kept (the alert window shows the newest).
const KEPT: usize = 6;
/// Alerts kept in the match's log at most (the oldest go first).
const LOGGED: usize = 1000;
/// Seconds a line stays in the alert window, at least (each kind says how long).
pub const SHOWN_SECONDS: f32 = 8.0;
/// Seconds a radar ping flashes.
pub const PING_SECONDS: f32 = 4.0;
/// An attack this far (world units) from the last one reported is news again at once.
const ELSEWHERE: f32 = 600.0;

/// What an alert is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum AlertKind {
    /// A loss the player must never miss: the Command Post, a factory, the last builder.
    Critical,
    /// One of the player's units was destroyed.
    Lost,
    /// One of the player's structures was destroyed (each one told: they are few and dear).
    StructureLost,
    /// One of the player's objects was hit by an enemy.
    UnderAttack,
    /// A structure of the player's was finished.
    Completed,
    /// A structure of the player's was left unfinished: no builder works on it.
    Halted,
    /// A structure a builder had queued could not be started (its site blocked, the money
    /// short): dropped, nothing paid.
    NotBuilt,
    /// A gatherer of the player's has stood idle for a while.
    IdleWorker,
    /// A unit of the player's left its factory.
    Ready,
    /// An order was refused for want of money.
    NoMoney,
    /// The player's power fell below what it uses.
    LowPower,
    /// A group of enemy fighters the player's team sees is heading for one of its structures.
    Approaching,
    /// Someone paused or resumed the game, or changed its speed.
    Pace,
    /// A player left the game or was dropped.
    Players,
}

impl AlertKind {
    /// Seconds after an alert of this kind before the next one is shown.
    fn quiet_seconds(self) -> f32 {
        match self {
            AlertKind::Critical | AlertKind::StructureLost => 0.0,
            AlertKind::Lost => 8.0,
            AlertKind::UnderAttack => 20.0,
            AlertKind::Completed | AlertKind::Halted | AlertKind::NotBuilt => 0.0,
            AlertKind::IdleWorker => 30.0,
            AlertKind::Ready => 4.0,
            AlertKind::NoMoney => 6.0,
            AlertKind::LowPower => 20.0,
            AlertKind::Approaching => 45.0,
            AlertKind::Pace | AlertKind::Players => 0.0,
        }
    }
}

impl AlertKind {
    /// Seconds an alert of this kind stays in the alert window: losses and attacks longer,
    /// a critical loss longest.
    pub fn shown_seconds(self) -> f32 {
        match self {
            AlertKind::Critical => 30.0,
            AlertKind::Lost
            | AlertKind::StructureLost
            | AlertKind::UnderAttack
            | AlertKind::Players
            | AlertKind::Halted
            | AlertKind::NotBuilt => 15.0,
            AlertKind::LowPower | AlertKind::IdleWorker | AlertKind::Approaching => 12.0,
            AlertKind::Completed | AlertKind::Ready | AlertKind::NoMoney | AlertKind::Pace => SHOWN_SECONDS,
        }
    }
}

/// One alert.
#[derive(Clone, Debug, PartialEq)]
pub struct Alert {
    /// What about.
    pub kind: AlertKind,
    /// The line shown, without the time.
    pub text: String,
    /// Where, on the ground (display units), if it has a place.
    pub at: Option<Vec2>,
    /// Game seconds when it happened.
    pub clock: u32,
    /// The frame it was told after (a notice: its game second's first).
    pub frame: u32,
    /// Battle seconds when it was shown (for fading and flashing).
    pub shown: f32,
}

impl Alert {
    /// An alert told after `frame`, shown at battle time `shown`; its game second follows from
    /// the frame.
    pub fn told(kind: AlertKind, text: String, at: Option<Vec2>, frame: u32, shown: f32) -> Alert {
        Alert { kind, text, at, clock: frame / FRAMES_PER_SECOND, frame, shown }
    }

    /// The line with its game time: "3:07 Barracks ready".
    pub fn line(&self) -> String {
        format!("{} {}", self.line_time(), self.text)
    }

    /// Its game time as the lines show it: "3:07".
    pub fn line_time(&self) -> String {
        format!("{}:{:02}", self.clock / 60, self.clock % 60)
    }
}

/// The local player's recent alerts.
#[derive(Clone, Debug, Default)]
pub struct Alerts {
    recent: VecDeque<Alert>,
    /// Every alert of the match, oldest first (the log).
    log: VecDeque<Alert>,
    /// When each kind was last shown (battle seconds), and where an attack was.
    last: Vec<(AlertKind, f32, Option<Vec2>)>,
    /// The local player was low on power after the last frame.
    was_low: bool,
    /// Unfinished structures already told as left without a builder.
    halted: std::collections::BTreeSet<crate::sim::ids::ObjectId>,
    /// Gatherers standing idle: since when (game seconds), and whether told.
    idle: std::collections::BTreeMap<crate::sim::ids::ObjectId, (u32, bool)>,
}

/// Words an alert: its label in the string table, and the object it names.
type Say<'a> = dyn Fn(&str, crate::sim::TemplateId) -> String + 'a;

/// Game seconds a gatherer stands idle before the player is told.
const IDLE_TOLD_AFTER: u32 = 10;

/// Frames between looks for an enemy group heading for the base.
pub(super) const APPROACH_EVERY: u32 = 15;
/// A group in sight whose goal lies this near (display units) one of the player's structures
/// is heading for the base, however far away it still is: it is told when first seen.
const BASE_REACH: f32 = 400.0;
/// The base's watch: an enemy fighter this near one of the player's structures (display units)
/// and heading nearer is told even under the fog — three times the longest direct-fire
/// weapon's reach (220) and twice the artillery's (320): a scripted wave on foot across
/// Proving Grounds is announced 31 s before its first shot, where sight alone gave it 5 s.
const WATCH: f32 = 650.0;
/// Enemy fighters that make a group worth a warning.
const APPROACH_GROUP: usize = 3;

/// The enemy fighters heading for `local`'s base, when there are at least [`APPROACH_GROUP`]:
/// how many, and where they are (their middle). A fighter counts when its team sees it and its
/// goal lies within [`BASE_REACH`] of one of `local`'s structures, or when it is within
/// [`WATCH`] of one and its goal lies nearer to it than it is (seen or not: the base's watch).
pub(super) fn approaching(local: PlayerId, world: &World) -> Option<(usize, Vec2)> {
    let rules = world.rules();
    let team = world.players().get(local.index())?.team;
    let base: Vec<Vec2> =
        world.objects().filter(|o| o.owner == local && o.kind.blocks_ground()).map(|o| to_display(o.pos)).collect();
    let nearest = |p: Vec2| base.iter().map(|b| b.distance(p)).min_by(f32::total_cmp);
    let heading: Vec<Vec2> = world
        .objects()
        .filter(|o| world.relation(local, o.owner) == crate::sim::Relation::Enemy)
        .filter(|o| rules.template(o.template).is_mobile() && rules.template(o.template).is_armed())
        .filter_map(|o| {
            let (at, goal) = (to_display(o.pos), to_display(o.nav.goal?));
            let (from_at, from_goal) = (nearest(at)?, nearest(goal)?);
            let seen = || world.vision().sight_at(team, o.pos) == crate::sim::vision::Sight::Visible;
            let nearer = from_goal < from_at;
            let for_base = nearer && from_goal <= BASE_REACH && seen();
            let at_the_watch = nearer && from_at <= WATCH;
            (for_base || at_the_watch).then_some(at)
        })
        .collect();
    (heading.len() >= APPROACH_GROUP).then(|| (heading.len(), heading.iter().sum::<Vec2>() / heading.len() as f32))
}

impl Alerts {
    /// Turns the frame's events about `local` into alerts, worded from `labels` (the string
    /// table's `Alert:` entries) and shown at battle time `now`; `low` is whether `local` is
    /// short of power after the frame.
    pub fn note(
        &mut self,
        events: &[GameEvent],
        local: PlayerId,
        world: &World,
        (defs, labels): (&crate::defs::Definitions, &Labels),
        low: bool,
        now: f32,
    ) {
        let rules = world.rules();
        let clock = world.frame().0 / FRAMES_PER_SECOND;
        let say = |label: &str, t| labels.say(label, &[("name", defs.object_name(t))]);
        for e in events {
            let (kind, text, at) = match e {
                GameEvent::Killed { owner, template, at, .. } if *owner == local => {
                    let t = rules.template(*template);
                    let at = Some(to_display(*at));
                    // A structure that trains or builds, or the last unit that builds: never
                    // kept quiet.
                    let builders_left = world.objects().any(|o| {
                        o.owner == local && !o.kind.blocks_ground() && !rules.template(o.template).builds.is_empty()
                    });
                    if t.kind.blocks_ground() && !t.builds.is_empty() {
                        (AlertKind::Critical, say("Alert:FactoryLost", *template), at)
                    } else if !t.kind.blocks_ground() && !t.builds.is_empty() && !builders_left {
                        (AlertKind::Critical, say("Alert:LastBuilderLost", *template), at)
                    } else {
                        if t.kind.blocks_ground() {
                            (AlertKind::StructureLost, say("Alert:StructureLost", *template), at)
                        } else {
                            (AlertKind::Lost, say("Alert:UnitLost", *template), at)
                        }
                    }
                }
                GameEvent::UnderAttack { player, object, at } if *player == local => {
                    let base = world.object(*object).is_some_and(|o| o.kind.blocks_ground());
                    let label = if base { "Alert:BaseUnderAttack" } else { "Alert:UnitsUnderAttack" };
                    (AlertKind::UnderAttack, labels.say(label, &[]), Some(to_display(*at)))
                }
                GameEvent::StructureCompleted { owner, template, at, .. } if *owner == local => {
                    (AlertKind::Completed, say("Alert:ConstructionComplete", *template), Some(to_display(*at)))
                }
                GameEvent::UnitProduced { owner, template, at, .. } if *owner == local => {
                    (AlertKind::Ready, say("Alert:UnitReady", *template), Some(to_display(*at)))
                }
                GameEvent::QueuedBuildDropped { owner, template, at, reason, .. } if *owner == local => {
                    let why = describe(reason, defs, labels);
                    let text = labels.say("Alert:NotBuilt", &[("name", defs.object_name(*template)), ("why", &why)]);
                    (AlertKind::NotBuilt, text, Some(to_display(*at)))
                }
                // A queued structure's refusal is told above, with its name and place (command
                // ids count from 0, so the refusal itself cannot tell it apart).
                GameEvent::OrderRefused(r)
                    if r.player == local
                        && matches!(r.reason, RejectReason::NotEnoughMoney { .. })
                        && !events.iter().any(|d| {
                            matches!(d, GameEvent::QueuedBuildDropped { owner, reason, .. }
                                if *owner == r.player && *reason == r.reason)
                        }) =>
                {
                    (AlertKind::NoMoney, labels.say("Alert:NoMoney", &[]), None)
                }
                _ => continue,
            };
            self.push(Alert::told(kind, text, at, world.frame().0, now));
        }
        self.note_halted(local, world, &say, now);
        if world.frame().0.is_multiple_of(APPROACH_EVERY)
            && let Some((count, at)) = approaching(local, world)
        {
            let text = labels.say("Alert:EnemyApproaching", &[("count", &count.to_string())]);
            self.push(Alert::told(AlertKind::Approaching, text, Some(at), world.frame().0, now));
        }
        self.note_idle_gatherers(local, world, &say, clock, now);
        if low && !self.was_low {
            let text = labels.say("Alert:LowPower", &[]);
            self.push(Alert::told(AlertKind::LowPower, text, None, world.frame().0, now));
        }
        self.was_low = low;
    }

    /// Tells of each of `local`'s unfinished structures that no builder works on any more, once
    /// (again if one took it up and left it again).
    fn note_halted(&mut self, local: PlayerId, world: &World, say: &Say, now: f32) {
        let worked = |site| {
            world.objects().any(|b| b.owner == local && b.order == crate::sim::object::Order::Construct { site })
        };
        let sites: Vec<(crate::sim::ids::ObjectId, crate::sim::TemplateId, Vec2)> = world
            .objects()
            .filter(|o| o.owner == local && o.kind.blocks_ground() && !o.is_complete())
            .map(|o| (o.id, o.template, to_display(o.pos)))
            .collect();
        self.halted.retain(|id| sites.iter().any(|(s, _, _)| s == id));
        for (site, template, at) in sites {
            if worked(site) {
                self.halted.remove(&site);
            } else if self.halted.insert(site) {
                let text = say("Alert:Halted", template);
                self.push(Alert::told(AlertKind::Halted, text, Some(at), world.frame().0, now));
            }
        }
    }

    /// Tells of each of `local`'s gatherers that has stood idle for [`IDLE_TOLD_AFTER`] game
    /// seconds (money waits), once until it works again.
    fn note_idle_gatherers(&mut self, local: PlayerId, world: &World, say: &Say, clock: u32, now: f32) {
        let rules = world.rules();
        let idle: Vec<(crate::sim::ids::ObjectId, crate::sim::TemplateId, Vec2)> = world
            .objects()
            .filter(|o| o.owner == local && rules.template(o.template).gather.is_some())
            .filter(|o| o.order == crate::sim::object::Order::Idle && o.queue.is_empty() && o.is_complete())
            .map(|o| (o.id, o.template, to_display(o.pos)))
            .collect();
        self.idle.retain(|id, _| idle.iter().any(|(i, _, _)| i == id));
        for (id, template, at) in idle {
            let (since, told) = self.idle.entry(id).or_insert((clock, false));
            if !*told && clock.saturating_sub(*since) >= IDLE_TOLD_AFTER {
                *told = true;
                let text = say("Alert:IdleGatherer", template);
                self.push(Alert::told(AlertKind::IdleWorker, text, Some(at), world.frame().0, now));
            }
        }
    }

    /// Tells the player something that has no place on the map (a pause, a speed change), at
    /// game second `clock` and battle time `now`.
    pub fn notice(&mut self, kind: AlertKind, text: String, clock: u32, now: f32) {
        self.push(Alert::told(kind, text, None, clock * FRAMES_PER_SECOND, now));
    }

    /// Shows `alert` unless one of its kind was shown within its quiet time (an attack
    /// somewhere else is news at once).
    pub(super) fn push(&mut self, alert: Alert) {
        let quiet = alert.kind.quiet_seconds();
        let now = alert.shown;
        if let Some((_, when, where_)) = self.last.iter().find(|(k, _, _)| *k == alert.kind) {
            let elsewhere = match (alert.kind, where_, alert.at) {
                (AlertKind::UnderAttack, Some(a), Some(b)) => a.distance(b) > ELSEWHERE,
                _ => false,
            };
            if now - when < quiet && !elsewhere {
                return;
            }
        }
        self.last.retain(|(k, _, _)| *k != alert.kind);
        self.last.push((alert.kind, now, alert.at));
        self.log.push_back(alert.clone());
        if self.log.len() > LOGGED {
            self.log.pop_front();
        }
        self.recent.push_back(alert);
        while self.recent.len() > KEPT {
            self.recent.pop_front();
        }
    }

    /// After a replay's seek: the log of the alerts told up to `frame` (where the playback
    /// ran on from), then those `later` told while it ran on to the seek's target; no line on
    /// screen, and every kind free to be told again.
    pub fn rejoined(self, frame: u32, later: Alerts) -> Alerts {
        let mut log: VecDeque<Alert> = self.log.into_iter().filter(|a| a.frame <= frame).collect();
        log.extend(later.log);
        while log.len() > LOGGED {
            log.pop_front();
        }
        Alerts { log, was_low: later.was_low, halted: later.halted, idle: later.idle, ..Alerts::default() }
    }

    /// Every alert of the match, oldest first (the newest thousand).
    pub fn log(&self) -> impl DoubleEndedIterator<Item = &Alert> {
        self.log.iter()
    }

    /// Every alert kept, oldest first.
    pub fn recent(&self) -> impl Iterator<Item = &Alert> {
        self.recent.iter()
    }

    /// The lines still shown at battle time `now`, oldest first, at most `n`.
    pub fn lines(&self, now: f32, n: usize) -> Vec<String> {
        let shown: Vec<String> =
            self.recent.iter().filter(|a| now - a.shown < a.kind.shown_seconds()).map(Alert::line).collect();
        shown[shown.len().saturating_sub(n)..].to_vec()
    }

    /// Where the newest alert with a place happened.
    pub fn last_place(&self) -> Option<Vec2> {
        self.recent.iter().rev().find_map(|a| a.at)
    }

    /// Places that flash on the radar at battle time `now`, with seconds since each alert.
    pub fn pings(&self, now: f32) -> impl Iterator<Item = (Vec2, f32)> + '_ {
        self.recent.iter().filter_map(move |a| {
            let age = now - a.shown;
            a.at.filter(|_| a.kind != AlertKind::Ready && age < PING_SECONDS).map(|p| (p, age))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alert(kind: AlertKind, at: Option<Vec2>, shown: f32) -> Alert {
        Alert::told(kind, format!("{kind:?}"), at, shown as u32 * FRAMES_PER_SECOND, shown)
    }

    #[test]
    fn a_structure_lost_is_told_even_just_after_a_unit_or_another_structure() {
        let mut a = Alerts::default();
        a.push(alert(AlertKind::Lost, None, 1.0));
        a.push(alert(AlertKind::Lost, None, 1.5));
        a.push(alert(AlertKind::StructureLost, None, 2.0));
        a.push(alert(AlertKind::StructureLost, None, 2.5));
        let kinds: Vec<AlertKind> = a.log.iter().map(|x| x.kind).collect();
        assert_eq!(kinds, [AlertKind::Lost, AlertKind::StructureLost, AlertKind::StructureLost]);
    }

    #[test]
    fn each_kind_keeps_quiet_for_a_while_but_an_attack_elsewhere_is_news() {
        let mut a = Alerts::default();
        let here = Some(Vec2::new(100.0, 100.0));
        a.push(alert(AlertKind::UnderAttack, here, 10.0));
        a.push(alert(AlertKind::UnderAttack, Some(Vec2::new(150.0, 120.0)), 12.0));
        assert_eq!(a.recent().count(), 1, "the same fight is not reported twice");
        a.push(alert(AlertKind::Lost, here, 12.5));
        assert_eq!(a.recent().count(), 2, "another kind is news");
        a.push(alert(AlertKind::UnderAttack, Some(Vec2::new(2000.0, 100.0)), 13.0));
        assert_eq!(a.recent().count(), 3, "an attack far from the last is news at once");
        a.push(alert(AlertKind::UnderAttack, here, 13.0 + AlertKind::UnderAttack.quiet_seconds()));
        assert_eq!(a.recent().count(), 4, "after the quiet time, the first place again");
        for k in 0..10 {
            a.push(alert(AlertKind::Completed, None, 40.0 + k as f32));
        }
        assert_eq!(a.recent().count(), KEPT, "only the newest are kept");
        assert_eq!(a.log().count(), 14, "the log keeps every alert shown");
        // A critical loss is never kept quiet.
        a.push(alert(AlertKind::Critical, None, 60.0));
        a.push(alert(AlertKind::Critical, None, 60.5));
        assert_eq!(a.log().filter(|x| x.kind == AlertKind::Critical).count(), 2);
    }

    #[test]
    fn lines_fade_pings_flash_and_the_last_place_is_the_newest_with_one() {
        let mut a = Alerts::default();
        a.push(alert(AlertKind::Lost, Some(Vec2::new(5.0, 6.0)), 1.0));
        a.push(alert(AlertKind::NoMoney, None, 2.0));
        assert_eq!(a.lines(2.5, 3), ["0:01 Lost", "0:02 NoMoney"]);
        assert_eq!(a.lines(2.5, 1), ["0:02 NoMoney"]);
        assert_eq!(a.lines(2.0 + SHOWN_SECONDS + 0.1, 3), ["0:01 Lost"], "a loss stays longer than a refusal");
        assert_eq!(a.lines(1.0 + AlertKind::Lost.shown_seconds() + 0.1, 3), Vec::<String>::new());
        assert_eq!(a.last_place(), Some(Vec2::new(5.0, 6.0)));
        assert_eq!(a.pings(2.0).collect::<Vec<_>>(), [(Vec2::new(5.0, 6.0), 1.0)]);
        assert_eq!(a.pings(1.0 + PING_SECONDS).count(), 0, "the ping has stopped flashing");
    }
}
