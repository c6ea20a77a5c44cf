//! What the battle says of an object, shared by the selection panel, the health bars, the
//! control bar and the veterancy floaters: its full health and the share left, the bar's
//! colour, its rank's name, and a structure's work in words.
//!
//! Must not: decide anything the simulation decides (it reads the world's own numbers).

use crate::sim::FRAMES_PER_SECOND;
use crate::sim::World;
use crate::sim::object::Object;
use crate::ui::labels::Labels;

/// The rank names, from the first.
pub const RANKS: [&str; 3] = ["Veteran", "Elite", "Heroic"];

/// An object's full health (with its rank's bonus) and the share of it left (0–1).
pub fn health_of(world: &World, o: &Object) -> (i32, f32) {
    let rules = world.rules();
    let (_, health_percent) = rules.rank_bonus(o.template, rules.rank(o.template, o.xp));
    let max = (rules.template(o.template).max_health as i64 * health_percent as i64 / 100).max(1) as i32;
    (max, (o.health.max(0) as f32 / max as f32).clamp(0.0, 1.0))
}

/// A health bar's colour: green, then yellow below 60 %, red below 30 %.
pub fn health_color(frac: f32) -> [u8; 4] {
    if frac > 0.6 {
        [70, 220, 70, 255]
    } else if frac > 0.3 {
        [230, 200, 50, 255]
    } else {
        [230, 60, 40, 255]
    }
}

/// A structure's own work in words, if any: still under construction, powered off, or
/// researching (the panel and the control bar's line both say it).
pub fn work_status(world: &World, defs: &crate::defs::Definitions, labels: &Labels, o: &Object) -> Option<String> {
    let rules = world.rules();
    if let Some(left) = o.construction {
        let total = rules.template(o.template).build_frames.max(1);
        let percent = (100 * (total - left.min(total)) / total).to_string();
        return Some(labels.say("Status:UnderConstruction", &[("percent", &percent)]));
    }
    if o.powered_down {
        return Some(labels.say("Status:PoweredOff", &[]));
    }
    let job = world.research().job(o.id)?;
    let secs = job.remaining.div_ceil(FRAMES_PER_SECOND).to_string();
    Some(labels.say("Status:Researching", &[("name", defs.upgrade_name(job.upgrade)), ("secs", &secs)]))
}
