//! An AI plan: the numbers that make an easy AI easy and a brutal one brutal, in simulation
//! units (frames, fixed-point world units), built from `data/ai.ron` by `ai_plans.rs`; the AI reads it.
//!
//! Must not: hold behaviour; the plan is data the AI reads.

use super::ai_style::AiStyle;
use super::ai_tuning::AiTuning;
use crate::sim::fixed::Fixed;

/// How one difficulty plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AiPlan {
    /// The difficulty's name (easy, normal, hard, brutal).
    pub name: String,
    /// Frames between decisions.
    pub think_frames: u32,
    /// Frame of the first attack; until then the army guards the base.
    pub first_attack_frame: u32,
    /// Frames the first attack may come later, drawn from the game's seed by each AI: which of
    /// two equal AIs sets out first changes from game to game instead of following the slots.
    pub first_attack_spread: u32,
    /// Share of the army (percent) sent to attack; the rest guards the base.
    pub attack_share_percent: u32,
    /// Most units one attack sends (0: no cap); the rest stay home and guard.
    pub wave_size: u32,
    /// The most its army may be worth (summed prices) at the start of the game (0: no cap); the
    /// cap grows by [`AiPlan::army_cap_per_minute`] every minute of game time, so an easy army
    /// grows at a learner's pace instead of as fast as its money allows. Worth, not a count, so
    /// a faction of dear units and one of cheap units are held back alike.
    pub army_cap: i64,
    /// Worth the army cap grows by each minute of game time.
    pub army_cap_per_minute: i64,
    /// What each unit counts toward the cap beyond its price.
    pub army_cap_unit: i64,
    /// The most money it banks (0: no limit): with more, its working gatherers walk home and
    /// rest, and they go back to work once the money has dropped below half of it, so a plan
    /// whose army is held back gathers only what that army can spend.
    pub bank_limit: i64,
    /// Whether its attacks leave unarmed units (builders, gatherers) alone: they march on
    /// armed units and structures only, so a new player's dozer is not hunted first.
    pub spare_workers: bool,
    /// Whether a far attack marches as one group (the quick wait for the slow a step ahead of
    /// the group's centre) instead of strung out along the road, as a new player's does.
    pub march_together: bool,
    /// Whether, while it attacks with an army worth twice the enemy army it knows, it also
    /// trains against the enemy structures it knows (so an army of riflemen does not chip at
    /// a gun-armed headquarters for ever).
    pub siege: bool,
    /// The attackers' worth (summed prices) must reach this percent of the enemy army's
    /// before they set out (0: attack regardless).
    pub attack_advantage_percent: u32,
    /// Enemies this close to the base bring the whole army home.
    pub defend_radius: Fixed,
    /// Whether attackers pick the weakest enemy near them instead of attack-moving.
    pub focus_fire: bool,
    /// Frames after which an unchanged attack order is given again (regrouping stragglers).
    pub reissue_frames: u32,
    /// The worth (summed prices) its attackers must reach before the first attack; each attack
    /// that has to fall back raises the next one's by a quarter.
    pub first_wave: i64,
    /// Units it keeps queued at each factory (one: the factory waits for its next decision).
    pub queue: u32,
    /// Gatherers it keeps working (it trains more until it has this many).
    pub gatherers: u32,
    /// Unit factories it raises, taking turns among the kinds its builder can make.
    pub factories: u32,
    /// Defensive structures it raises once its factories stand.
    pub defences: u32,
    /// An attack falls back when the attackers' worth drops below this percent of the enemy
    /// army in sight around them (0: it fights on).
    pub retreat_below_percent: u32,
    /// Whether it raises a supply depot by a fresh supply source once its gatherers' trips
    /// grow long or their source runs low.
    pub expand: bool,
    /// Whether it raises its faction's tech structure (which unlocks the top unit).
    pub tech: bool,
    /// Upgrades it researches, in the order its tech structure lists them.
    pub upgrades: u32,
    /// Whether it repairs its damaged structures.
    pub repair: bool,
    /// The styles it draws one from at the start of a game (none: it plays the counters
    /// straight).
    pub styles: Vec<AiStyle>,
    /// How far (percent) it follows the style it drew: 100 all the way, less keeps it closer
    /// to what the counters say.
    pub follow_style: u32,
    /// The numbers every difficulty shares (`data/ai.ron`'s `tuning` block).
    pub tuning: AiTuning,
}

impl AiPlan {
    /// The most its army may be worth at `frame` (None: no cap).
    pub fn army_cap_at(&self, frame: u32) -> Option<i64> {
        let minutes = i64::from(frame / (60 * crate::sim::ids::FRAMES_PER_SECOND));
        (self.army_cap > 0).then(|| self.army_cap + self.army_cap_per_minute * minutes)
    }
}
