//! The match as a battle runs it on this machine: the started match (session, stream,
//! transport, content), the player this machine plays or watches, the pace (pause and game
//! speed), a watched replay's end and kept states, the link to the other machines, and the
//! battle's clocks.
//!
//! Must not: hold what is drawn or what the HUD shows (the battle's other parts do), or change
//! the world except through the session's stream.

use crate::lockstep::Transport;
use crate::session::Match;
use crate::sim::{PlayerId, World};

use super::online::OnlineLink;
use super::pace::Pace;
use super::replay::Watching;

/// The match part of a battle.
pub(super) struct Play {
    /// The started match.
    pub game: Match<Box<dyn Transport>>,
    /// When watching a replay: its end.
    pub watching: Option<Watching>,
    /// The player this machine plays (or watches).
    pub local: PlayerId,
    /// Pause and game speed on this machine.
    pub pace: Pace,
    /// Game seconds since the last logic frame ran.
    pub since_tick: f32,
    /// Seconds since the battle began, as the battle saw them.
    pub elapsed: f32,
    /// Seconds since the game ended.
    pub ended_for: f32,
    /// The other machines, in an online battle.
    pub online: Option<OnlineLink>,
    /// The player has given up and waits for the surrender to run.
    pub surrendering: bool,
    /// The state hash every few hundred frames, for the replay.
    pub checkpoints: Vec<(u32, String)>,
    /// Changes of pace already told to the player.
    pub pace_told: usize,
    /// Where this game came from, when taken over from a replay.
    pub origin: Option<crate::session::replay::ReplayOrigin>,
}

impl Play {
    /// A skirmish's play of `game`, seen by `local`.
    pub fn new(game: Match<Box<dyn Transport>>, local: PlayerId) -> Play {
        Play {
            game,
            watching: None,
            local,
            pace: Pace::skirmish(),
            since_tick: 0.0,
            elapsed: 0.0,
            ended_for: 0.0,
            online: None,
            surrendering: false,
            checkpoints: Vec::new(),
            pace_told: 0,
            origin: None,
        }
    }

    /// The world as of the last executed frame.
    pub fn world(&self) -> &World {
        self.game.session.world()
    }

    /// True once the game is over, a watched replay has reached its recorded end, or the
    /// online link has stopped.
    pub fn finished(&self) -> bool {
        let frame = self.world().frame().0;
        self.world().is_over()
            || self.watching.as_ref().is_some_and(|w| w.done(frame))
            || self.online.as_ref().is_some_and(OnlineLink::stopped)
    }
}
