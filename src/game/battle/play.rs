//! The match as a battle runs it on this machine: the started match (session, stream,
//! transport, content), the player this machine plays or watches, the pace (pause and game
//! speed), a watched replay's end and kept states, the link to the other machines, and the
//! battle's clocks.
//!
//! Must not: hold what is drawn or what the HUD shows (the battle's other parts do), or change
//! the world except through the session's stream.

use crate::lockstep::{PaceChange, PaceMark};
use crate::online::Seats;
use crate::session::Replay;
use crate::session::Step;
use crate::session::replay::{CHECKPOINT_EVERY, ReplayOrigin};
use crate::sim::hash::StateHash;
use crate::sim::{Command, FRAMES_PER_SECOND, PlayerId, TickReport, World};
use crate::ui::Key;
use crate::ui::labels::Labels;

use super::online::OnlineLink;
use super::pace::Pace;
use super::replay::Watching;
use super::score::Score;
use super::{BattleError, FRAME};

/// The match part of a battle.
pub struct Play {
    /// The started match.
    pub(super) game: crate::session::start::LocalMatch,
    /// When watching a replay: its end.
    pub(super) watching: Option<Watching>,
    /// The player this machine plays (or watches).
    pub(super) local: PlayerId,
    /// Pause and game speed on this machine.
    pub(super) pace: Pace,
    /// Game seconds since the last logic frame ran.
    pub(super) since_tick: f32,
    /// Seconds since the battle began, as the battle saw them.
    pub(super) elapsed: f32,
    /// Seconds since the game ended.
    pub(super) ended_for: f32,
    /// The player clicked or pressed a key under the result's banner: on to the score.
    pub(super) result_skipped: bool,
    /// When (battle seconds) this machine last could not run every frame real time required.
    pub(super) behind_at: Option<f32>,
    /// The other machines, in an online battle.
    pub(super) online: Option<OnlineLink>,
    /// The player has given up and waits for the surrender to run.
    pub(super) surrendering: bool,
    /// The state hash every few hundred frames, for the replay.
    pub(super) checkpoints: Vec<(u32, String)>,
    /// Changes of pace already told to the player.
    pub(super) pace_told: usize,
    /// Where this game came from, when taken over from a replay.
    pub(super) origin: Option<crate::session::replay::ReplayOrigin>,
    /// Objects built, lost and destroyed so far, counted from every frame run (a seek included).
    pub(super) score: Score,
    /// Nobody plays from this machine: an observer (online, or the skirmish's Observer seat).
    pub(super) observing: bool,
}

impl Play {
    /// A skirmish's play of `game`, seen by `local`.
    pub fn new(game: crate::session::start::LocalMatch, local: PlayerId) -> Play {
        let players = game.session.world().players().len();
        Play {
            game,
            watching: None,
            local,
            pace: Pace::skirmish(),
            since_tick: 0.0,
            elapsed: 0.0,
            ended_for: 0.0,
            result_skipped: false,
            behind_at: None,
            online: None,
            surrendering: false,
            checkpoints: Vec::new(),
            pace_told: 0,
            origin: None,
            score: Score::new(players),
            observing: false,
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

    /// True when this battle is a replay being watched.
    pub fn is_replay(&self) -> bool {
        self.watching.is_some()
    }

    /// True when nobody plays from this machine: a watched replay, an online observer's seat,
    /// or a skirmish whose every seat is the computer's. A watcher gives no orders and chooses
    /// whose view it sees (everything, or one player's).
    pub fn watches(&self) -> bool {
        self.is_replay() || self.observing
    }

    /// True when this machine watches a live game (an observer, online or of a skirmish of
    /// computers): no replay's seek bar, the view selector alone.
    pub fn observes(&self) -> bool {
        self.observing && !self.is_replay()
    }

    /// The watched replay's position: the frame shown and its last frame.
    pub fn replay_position(&self) -> Option<(u32, u32)> {
        self.watching.as_ref().map(|w| (self.world().frame().0, w.frames()))
    }

    /// For a replay that has played to its end, or missed a checkpoint on the way: whether it
    /// passed through and reached the recorded states.
    pub fn replay_verdict(&self) -> Option<bool> {
        self.watching.as_ref()?.verdict(self.world())
    }

    /// The frame at which a watched replay stopped matching its recording, if it did.
    pub fn replay_failed_at(&self) -> Option<u32> {
        self.watching.as_ref().and_then(Watching::failed_at)
    }

    /// Where this game came from, when it was taken over from a replay.
    pub fn origin(&self) -> Option<&ReplayOrigin> {
        self.origin.as_ref()
    }

    /// The game so far as a replay (played back, it gives this very game).
    pub fn replay(&self) -> Replay {
        super::replay::record(&self.game, self.local, &self.checkpoints, self.origin.as_ref())
    }

    /// Saves this game into `path` at `saved_at` (seconds since 1970), with a thumbnail of
    /// the field; a watched replay or a game with other machines cannot be saved.
    pub fn save(
        &self,
        roots: &crate::content::ContentRoots,
        path: &std::path::Path,
        saved_at: u64,
    ) -> Result<(), crate::session::save::SaveError> {
        self.save_viewed(roots, path, saved_at, None)
    }

    /// [`Play::save`], keeping where the window looked (`view`) for the load to open there.
    pub fn save_viewed(
        &self,
        roots: &crate::content::ContentRoots,
        path: &std::path::Path,
        saved_at: u64,
        view: Option<crate::session::save::SavedView>,
    ) -> Result<(), crate::session::save::SaveError> {
        use crate::session::save::{Parts, Save, SaveError, Thumbnail};
        if self.is_replay() {
            return Err(SaveError::NotSaveable("a replay is watched, not played (Take over first)".into()));
        }
        if self.is_online() {
            return Err(SaveError::NotSaveable("it is played with other machines".into()));
        }
        let g = &self.game;
        let parts = Parts { setup: &g.setup, slots: &g.slots, content: &g.content, log: &g.log };
        let thumbnail = Thumbnail::of_game(parts, self.world(), Some(self.local), &crate::game::scene::PLAYER_COLORS);
        let mut save = Save::capture(roots, g, &self.checkpoints, saved_at, thumbnail)?;
        save.state.score = Some(self.score.saved());
        save.state.view = view;
        save.write(path)
    }

    /// Saves this game into the folder `dir` (made if missing) as `<map> <date>.rlsave`;
    /// the file written, or why not.
    pub fn save_into(
        &self,
        roots: &crate::content::ContentRoots,
        dir: &std::path::Path,
        saved_at: u64,
    ) -> Result<std::path::PathBuf, String> {
        self.save_into_viewed(roots, dir, saved_at, None)
    }

    /// [`Play::save_into`], keeping where the window looked (`view`).
    pub fn save_into_viewed(
        &self,
        roots: &crate::content::ContentRoots,
        dir: &std::path::Path,
        saved_at: u64,
        view: Option<crate::session::save::SavedView>,
    ) -> Result<std::path::PathBuf, String> {
        let stamp = crate::session::replay::utc_stamp(saved_at);
        let name = format!("{} {stamp}.{}", self.game.content.map.file.name, crate::session::save::EXTENSION);
        let path = dir.join(name);
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        self.save_viewed(roots, &path, saved_at, view).map_err(|e| e.to_string())?;
        Ok(path)
    }

    /// The match as it was set up (hashes filled in).
    pub fn setup(&self) -> &crate::session::MatchSetup {
        &self.game.setup
    }

    /// The match's definitions (names, upgrades).
    pub fn defs(&self) -> &crate::defs::Definitions {
        &self.game.content.defs
    }

    /// Seconds of play so far.
    pub fn clock(&self) -> u32 {
        self.world().frame().0 / FRAMES_PER_SECOND
    }

    /// The local player's money.
    pub fn money(&self) -> i64 {
        self.world().players().get(self.local.index()).map_or(0, |p| p.money)
    }

    /// Pause and game speed.
    pub fn pace(&self) -> &Pace {
        &self.pace
    }

    /// Pause and game speed, to change (dialogs hold the game).
    pub fn pace_mut(&mut self) -> &mut Pace {
        &mut self.pace
    }

    /// True when this battle is played with other machines.
    pub fn is_online(&self) -> bool {
        self.online.is_some()
    }

    /// The link to the other machines, in an online battle.
    pub fn online(&self) -> Option<&OnlineLink> {
        self.online.as_ref()
    }

    /// Makes this an online battle over the match's own transport; the host's `seats` let a
    /// machine that drops come back.
    pub fn set_online(&mut self, seats: Seats) {
        let me = crate::lockstep::Transport::me(self.game.session.transport());
        self.pace = Pace::online();
        self.online = Some(OnlineLink::new(me, &self.game.slots, seats));
    }

    /// Gives up: the surrender goes through the stream like any order, so every machine
    /// removes this player's forces on the same frame and the others can win. True once this
    /// machine has run it (the battle may then be left). A watcher has nothing to give up: it
    /// may leave at once, and the game goes on without it.
    pub fn surrender(&mut self) -> bool {
        if self.watches() {
            return true;
        }
        let gone = self.world().players().get(self.local.index()).is_none_or(|p| p.defeated);
        if !gone && !self.surrendering && !self.is_replay() {
            self.surrendering = true;
            self.submit(Command::Surrender);
        }
        gone || self.world().is_over()
    }

    /// Submits one of the local player's orders to the stream, now (nothing when nobody here
    /// plays).
    pub(super) fn submit(&mut self, command: Command) {
        let Some(seat) = self.game.human else { return };
        if let Err(e) = self.game.session.submit_local(seat.player, command) {
            log::warn!("an order was not sent: {e}");
        }
    }

    /// A key for the online chat (see [`OnlineLink::chat_key`]); false offline.
    pub fn chat_key(&mut self, key: Key) -> bool {
        let name = self.player_name(self.local);
        let now = self.elapsed;
        self.online.as_mut().is_some_and(|o| o.chat_key(key, &name, now))
    }

    /// A character typed into the open chat line.
    pub fn chat_char(&mut self, c: char) {
        if let Some(o) = &mut self.online {
            o.chat_char(c);
        }
    }

    /// After a second without the next frame: the names of the players it waits for.
    pub fn waiting_for(&self) -> Option<String> {
        if !self.online.as_ref().is_some_and(OnlineLink::stall_shown) {
            return None;
        }
        let stream = self.game.session.stream();
        let names: Vec<String> = stream.waiting_for().iter().map(|p| self.player_name(*p)).collect();
        (!names.is_empty()).then(|| names.join(", "))
    }

    /// The host drops the players the battle waits for (see [`OnlineLink::drop_stalled`]);
    /// returns what to tell the player.
    pub(super) fn drop_stalled(&mut self) -> Vec<super::online::News> {
        let now = self.elapsed;
        self.online.as_mut().map(|o| o.drop_stalled(&mut self.game.session, now)).unwrap_or_default()
    }

    /// Moves the online link on after an advance's exchange with the wire (see
    /// [`OnlineLink::update`]); returns what to tell the player.
    pub(super) fn update_online(&mut self) -> Vec<super::online::News> {
        let now = self.elapsed;
        self.online.as_mut().map(|o| o.update(&mut self.game.session, now)).unwrap_or_default()
    }

    /// A player's name as the match knows it ("Player 2" when it has none).
    pub fn player_name(&self, player: PlayerId) -> String {
        match self.game.slots.get(player.index()) {
            Some(slot) if !slot.name.is_empty() => slot.name.clone(),
            _ => format!("Player {}", player.0 + 1),
        }
    }

    /// P or Pause: a replay pauses here; otherwise the stream is asked to pause (or to resume
    /// the pause in force), which every machine applies alike. What the player must be told
    /// when nothing could be done (no pauses left).
    pub fn toggle_pause(&mut self) -> Result<Option<&'static str>, BattleError> {
        if !self.pace.follows_stream() {
            self.pace.toggle_pause();
            return Ok(None);
        }
        let stream = self.game.session.stream();
        let change = if stream.paused().is_some() {
            PaceChange::Resume
        } else if stream.pauses_left(self.local) == 0 {
            return Ok(Some("Pace:NoPausesLeft"));
        } else {
            PaceChange::Pause
        };
        self.submit_pace(change)?;
        Ok(None)
    }

    /// + : the next faster speed (a replay's own; a skirmish's through the stream).
    pub fn faster(&mut self) -> Result<(), BattleError> {
        if self.pace.faster() { self.speed_asked() } else { Ok(()) }
    }

    /// − : the next slower speed.
    pub fn slower(&mut self) -> Result<(), BattleError> {
        if self.pace.slower() { self.speed_asked() } else { Ok(()) }
    }

    fn speed_asked(&mut self) -> Result<(), BattleError> {
        if self.pace.follows_stream() && self.game.session.stream().pace_rules().speed {
            self.submit_pace(PaceChange::Speed(self.pace.wanted_percent()))?;
        }
        Ok(())
    }

    fn submit_pace(&mut self, change: PaceChange) -> Result<(), BattleError> {
        // A replay keeps its own pace; an online observer may not pace the players' game. A
        // skirmish of computers watched from this machine is paced here, as any skirmish.
        if self.is_replay() || (self.game.human.is_none() && self.online.is_some()) {
            return Ok(());
        }
        self.game.session.submit_pace(self.local, change)?;
        Ok(())
    }

    /// Mirrors the stream's pause and speed; returns the changes of pace not told yet.
    pub fn follow_stream_pace(&mut self) -> Vec<PaceMark> {
        let stream = self.game.session.stream();
        self.pace.follow(stream.paused().is_some(), stream.speed_percent());
        let marks: Vec<PaceMark> = stream.pace_log().get(self.pace_told..).unwrap_or_default().to_vec();
        self.pace_told += marks.len();
        marks
    }

    /// A line about a change of pace — who, and (online) how many pauses they have left — and
    /// the game second it happened at.
    pub fn pace_line(&self, mark: PaceMark, labels: &Labels) -> (String, u32) {
        let who = self.player_name(PlayerId(mark.player));
        let who = who.as_str();
        let text = match mark.change {
            PaceChange::Pause => {
                let left = self.game.session.stream().pauses_left(PlayerId(mark.player));
                if left == u32::MAX || self.is_replay() {
                    labels.say("Pace:Paused", &[("name", who)])
                } else {
                    labels.say("Pace:PausedLeft", &[("name", who), ("left", &left.to_string())])
                }
            }
            PaceChange::Resume => labels.say("Pace:Resumed", &[("name", who)]),
            PaceChange::Speed(percent) => {
                let speed = (f32::from(percent) / 100.0).to_string();
                labels.say("Pace:Speed", &[("name", who), ("speed", &speed)])
            }
        };
        (text, mark.frame / FRAMES_PER_SECOND)
    }

    /// What the top bar says of the pace: "Paused by Ann" online, "Paused", a machine falling
    /// behind, "2×", or nothing.
    pub fn pace_label(&self, labels: &Labels) -> String {
        match self.game.session.stream().paused() {
            Some((_, who)) if self.is_online() => labels.say("Pace:PausedBy", &[("name", &self.player_name(who))]),
            _ if self.falling_behind() && !self.pace.stopped() => labels.say("Pace:FallsBehind", &[]),
            _ => self.pace.label(labels),
        }
    }

    /// True for two seconds after this machine last could not run every frame real time
    /// required (the game then runs slower than the clock).
    pub fn falling_behind(&self) -> bool {
        self.behind_at.is_some_and(|at| self.elapsed - at < 2.0)
    }

    /// Runs the next logic frame if every machine's commands for it are in, and keeps what the
    /// replay and a desync report need of it: its number and report. None when a peer's data is
    /// late (game time stands still, and the frame runs as soon as it arrives: no time slot is
    /// lost, none is made up twice) or a player paused (nothing runs until someone resumes).
    pub fn step(&mut self) -> Result<Option<(u32, TickReport)>, BattleError> {
        match self.game.session.step()? {
            Step::Ticked { report, frame, hash } => {
                self.score.count(&report.events);
                self.checkpoint(frame.0, &hash);
                self.keep_snapshot(frame.0, hash);
                self.keep_replay_state();
                self.since_tick -= FRAME;
                if let Some(o) = &mut self.online {
                    o.ticked();
                }
                Ok(Some((frame.0, report)))
            }
            Step::Waiting => {
                self.since_tick = self.since_tick.min(FRAME);
                if let Some(o) = &mut self.online {
                    o.waiting(self.elapsed);
                }
                Ok(None)
            }
            Step::Paused => {
                self.since_tick = 0.0;
                Ok(None)
            }
        }
    }

    /// Exchanges messages once without running a frame: a drawn frame in which no logic frame
    /// is tried still hears its peers (while paused, a resume comes in this way).
    pub fn listen(&mut self) -> Result<(), BattleError> {
        if !self.is_replay() {
            self.game.session.pump()?;
        }
        Ok(())
    }

    /// Every [`CHECKPOINT_EVERY`] frames: the state hash kept for the replay this game makes,
    /// and checked against the one a watched replay recorded.
    fn checkpoint(&mut self, frame: u32, hash: &StateHash) {
        if !frame.is_multiple_of(CHECKPOINT_EVERY) {
            return;
        }
        let hex = format!("{:016x}", hash.total);
        if let Some(w) = &mut self.watching {
            w.check(frame, &hex);
        }
        self.checkpoints.push((frame, hex));
    }

    /// Tells the online link a frame ran (online battles only): kept for a desync report,
    /// the run-ahead tuned, a returning machine fed.
    fn keep_snapshot(&mut self, frame: u32, hash: crate::sim::hash::StateHash) {
        if let Some(o) = &mut self.online {
            o.ran(&mut self.game.session, crate::sim::Frame(frame), hash);
        }
    }

    /// While watching a replay: keeps the world as it is now for seeking back, now and then.
    fn keep_replay_state(&mut self) {
        if let Some(w) = &mut self.watching {
            w.keep(self.game.session.world(), &self.score);
        }
    }

    /// A watched replay moves to `frame` (at most its end): back to the nearest kept state at
    /// or before it, then the recorded commands run forward to it, exactly as they did, each
    /// frame run handed to `ran` (the world after it, its events, the definitions). The frame
    /// it ran on from; None, and nothing moves, when this is no replay or no kept state lies
    /// behind the frame.
    pub fn seek(
        &mut self,
        frame: u32,
        mut ran: impl FnMut(&crate::sim::World, &[crate::sim::event::GameEvent], &crate::defs::Definitions),
    ) -> Result<Option<u32>, BattleError> {
        let now = self.world().frame().0;
        let Some((target, state)) = self.watching.as_ref().and_then(|w| w.seek_from(frame, now)) else {
            return Ok(None);
        };
        if let Some((state, score)) = state {
            self.game.session.seek_playback(state);
            self.score = score;
        }
        let from = self.world().frame().0;
        while self.world().frame().0 < target {
            if let Step::Ticked { frame, hash, report } = self.game.session.step()? {
                self.score.count(&report.events);
                self.checkpoint(frame.0, &hash);
                self.keep_replay_state();
                ran(self.game.session.world(), &report.events, &self.game.content.defs);
            }
        }
        self.since_tick = 0.0;
        Ok(Some(from))
    }
}
