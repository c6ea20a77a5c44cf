//! An online battle's link to the other machines: players who leave (removed at the frame the
//! host names, and said in the control bar), the host leaving (the battle ends), a stall (after
//! a second, "Waiting for <name>…" over the battle), a desync (the battle stops, a report is
//! written; the client shows "Out of sync"), and chat (Enter opens a line; lines show for a
//! few seconds).
//!
//! Must not: change the world (drops go through the stream, which every machine applies alike).

use std::time::Instant;

use crate::net::control::ControlTransport;
use crate::session::Session;
use crate::session::online::{CHAT_MAX, LinkEvent, MatchLink, Seats};
use crate::sim::Command;
use crate::ui::draw::DrawCmd;
use crate::ui::{Key, Rect};

use super::Battle;

/// Seconds of waiting before the battle says for whom.
const WAIT_SHOWN: f32 = 1.0;
/// Seconds a chat line stays on screen.
const CHAT_SECONDS: f32 = 10.0;
/// Chat lines on screen at most.
const CHAT_LINES: usize = 5;

/// The online part of a battle: the match's control protocol (`MatchLink`) and what the
/// window shows of it.
pub(super) struct OnlineLink {
    link: MatchLink,
    /// Since when (battle seconds) the next frame has been waited for.
    waiting_since: Option<f32>,
    /// Battle seconds of the last wait seen.
    waiting_now: f32,
    /// Where a desync report goes, and the one written.
    report_dir: std::path::PathBuf,
    report: Option<String>,
    /// The chat line being typed, while one is open.
    typing: Option<String>,
    /// Recent chat lines, with when they arrived (battle seconds).
    chat: Vec<(String, f32)>,
}

impl OnlineLink {
    /// True once the machines were found to disagree: no more frames run.
    pub fn desynced(&self) -> bool {
        self.link.desync().is_some()
    }

    /// True once the battle cannot go on and is over: the machines disagree (and the
    /// report's exchange is done), or the host left and all it sent before leaving has run.
    pub fn stopped(&self) -> bool {
        (self.link.host_gone() && self.waiting_since.is_some()) || (self.desynced() && !self.link.exchanging())
    }

    pub fn waiting(&mut self, now: f32) {
        self.waiting_since.get_or_insert(now);
        self.waiting_now = now;
    }

    pub fn ticked(&mut self) {
        self.waiting_since = None;
    }

    /// After `frame` ran with `hash`: kept for a desync report; the host tunes the run-ahead
    /// and feeds a returning machine its history.
    pub fn ran<T: ControlTransport>(
        &mut self,
        session: &mut Session<T>,
        frame: crate::sim::Frame,
        hash: crate::sim::hash::StateHash,
    ) {
        self.link.ran(Instant::now(), session, frame, hash);
    }
}

impl Battle {
    /// True when this battle is played with other machines.
    pub fn is_online(&self) -> bool {
        self.play.is_online()
    }

    /// Gives up: the surrender goes through the stream like any order, so every machine
    /// removes this player's forces on the same frame and the others can win. True once this
    /// machine has run it (the battle may then be left).
    pub fn surrender(&mut self) -> bool {
        let gone = self.world().players().get(self.play.local.index()).is_none_or(|p| p.defeated);
        if !gone && !self.play.surrendering && !self.is_replay() {
            self.play.surrendering = true;
            self.send(Command::Surrender);
        }
        gone || self.world().is_over()
    }

    /// Makes this an online battle over the match's own transport; the host's `seats` let a
    /// machine that drops come back.
    pub fn set_online(&mut self, seats: Seats) {
        let me = crate::lockstep::Transport::me(self.play.game.session.transport());
        self.play.pace = super::pace::Pace::online();
        self.play.online = Some(OnlineLink {
            link: MatchLink::new(me, &self.play.game.slots, seats, true),
            waiting_since: None,
            waiting_now: 0.0,
            report_dir: crate::game::settings::Settings::default_path()
                .parent()
                .map(std::path::Path::to_path_buf)
                .unwrap_or_default(),
            report: None,
            typing: None,
            chat: Vec::new(),
        });
    }

    /// True while a chat line is being typed (keys go to it, not to the battle).
    pub fn chat_open(&self) -> bool {
        self.play.online.as_ref().is_some_and(|o| o.typing.is_some())
    }

    /// A key for the chat: Enter opens a line (online only) or sends it, Escape closes it,
    /// Backspace erases. Returns whether the key was the chat's.
    pub fn chat_key(&mut self, key: Key) -> bool {
        let name = self.play.game.slots.get(self.play.local.index()).map_or_else(String::new, |s| s.name.clone());
        let Some(o) = &mut self.play.online else { return false };
        match (key, &mut o.typing) {
            (Key::Enter, None) => o.typing = Some(String::new()),
            (Key::Enter, Some(text)) => {
                let text = std::mem::take(text);
                o.typing = None;
                // Shown at once; the host tells everyone, a joiner the host, which passes it on.
                o.link.say(&name, &text);
                self.tell_link_events();
            }
            (Key::Escape, Some(_)) => o.typing = None,
            (Key::Backspace, Some(text)) => {
                text.pop();
            }
            (_, Some(_)) => {}
            _ => return false,
        }
        true
    }

    /// A character typed into the open chat line.
    pub fn chat_char(&mut self, c: char) {
        if let Some(text) = self.play.online.as_mut().and_then(|o| o.typing.as_mut())
            && text.chars().count() < CHAT_MAX
            && !c.is_control()
        {
            text.push(c);
        }
    }

    /// The chat over the battle: recent lines above the control bar, and the line being typed.
    pub(super) fn chat_overlay(&self, out: &mut Vec<DrawCmd>) {
        let Some(o) = &self.play.online else { return };
        let mut lines: Vec<String> = o.chat.iter().map(|(l, _)| l.clone()).collect();
        if let Some(text) = &o.typing {
            lines.push(format!("Say: {text}_"));
        }
        let bottom = self.pic.view.screen.y * 0.72;
        for (i, text) in lines.iter().rev().enumerate() {
            out.push(DrawCmd::Text {
                x: self.pic.view.screen.x * 0.2,
                y: bottom - 22.0 * (i as f32 + 1.0),
                text: text.clone(),
                px: 16.0,
                bold: false,
                color: [240, 235, 215, 255],
                shadow: Some([0, 0, 0, 255]),
            });
        }
    }

    /// The desync report this machine wrote, if the battle went out of sync.
    pub fn desync_report(&self) -> Option<&str> {
        self.play.online.as_ref().and_then(|o| o.report.as_deref())
    }

    /// The frame the machines went out of sync on, if they did.
    pub fn desync_frame(&self) -> Option<u32> {
        self.play.online.as_ref().and_then(|o| o.link.desync()).map(|d| d.frame.0)
    }

    /// True when the host has left an online battle (and all it sent has run).
    pub fn host_left(&self) -> bool {
        self.play.online.as_ref().is_some_and(|o| o.link.host_gone() && o.waiting_since.is_some())
    }

    /// After a second without the next frame: the names of the players it waits for.
    pub fn waiting_for(&self) -> Option<String> {
        let o = self.play.online.as_ref()?;
        let since = o.waiting_since?;
        if o.waiting_now - since < WAIT_SHOWN {
            return None;
        }
        let names: Vec<String> = self
            .play
            .game
            .session
            .stream()
            .waiting_for()
            .iter()
            .filter_map(|p| self.play.game.slots.get(p.index()).map(|s| s.name.clone()))
            .collect();
        (!names.is_empty()).then(|| names.join(", "))
    }

    /// Seconds the battle has waited for the next frame (0 when it is not waiting).
    pub fn stalled_for(&self) -> f32 {
        self.play.online.as_ref().and_then(|o| o.waiting_since.map(|s| o.waiting_now - s)).unwrap_or(0.0)
    }

    /// True when this machine hosts an online battle.
    pub fn hosting(&self) -> bool {
        self.play.online.as_ref().is_some_and(|o| o.link.hosting())
    }

    /// The host drops the players the battle is waiting for: each is removed at the first
    /// frame nobody has their data for, everyone is told, and their machine is disconnected
    /// (it may come back with the code).
    pub fn drop_stalled(&mut self) {
        let Some(o) = &mut self.play.online else { return };
        o.waiting_since = None;
        let dropped = o.link.drop_stalled(&mut self.play.game.session);
        for slot in dropped {
            let Some(name) = self.play.game.slots.iter().find(|s| s.slot == slot).map(|s| s.name.clone()) else {
                continue;
            };
            self.tell_players(format!("{name} was dropped."));
        }
        self.check_online();
    }

    /// A player left or was dropped: said in the alerts (and the log) and on the control bar.
    fn tell_players(&mut self, line: String) {
        let (clock, now) = (self.clock(), self.play.elapsed);
        self.hud.alerts.notice(super::alerts::AlertKind::Players, line.clone(), clock, now);
        self.hud.control_bar.say(line, now);
    }

    /// After the frames of one advance: moves the control protocol on (departures, returns,
    /// chat, the desync exchange — a step each advance: the window never waits) and tells the
    /// players what happened.
    pub(super) fn check_online(&mut self) {
        let Some(o) = &mut self.play.online else { return };
        if let Err(e) = o.link.pump(Instant::now(), &mut self.play.game.session) {
            log::warn!("online: {e}");
            o.link.peer_left(&mut self.play.game.session, crate::lockstep::transport::PeerId(0));
        }
        if let Some(x) = o.link.finished_exchange(Instant::now()) {
            match x.write(&o.report_dir) {
                Ok(path) => o.report = Some(path),
                Err(e) => log::warn!("the desync report was not written: {e}"),
            }
        }
        self.tell_link_events();
    }

    /// Shows what the link has to tell: chat lines over the battle, departures and returns in
    /// the alerts and on the control bar.
    fn tell_link_events(&mut self) {
        let now = self.play.elapsed;
        let Some(o) = &mut self.play.online else { return };
        let mut lines: Vec<String> = Vec::new();
        let slots = &self.play.game.slots;
        let name = |slot: u8| slots.iter().find(|s| s.slot == slot).map(|s| s.name.clone());
        while let Some(e) = o.link.poll_event() {
            match e {
                LinkEvent::Chat(line) => o.chat.push((line, now)),
                // One who left through the menu surrendered; a seat whose machine merely
                // dropped can come back: its units hold, the game plays on.
                LinkEvent::Left { slot, returnable: true } => lines.extend(
                    name(slot).map(|n| format!("{n} dropped; their units hold. They can rejoin with the code.")),
                ),
                LinkEvent::Left { slot, returnable: false } => {
                    lines.extend(name(slot).map(|n| format!("{n} left the game.")))
                }
                LinkEvent::Back { slot } => lines.extend(name(slot).map(|n| format!("{n} is back."))),
                LinkEvent::HostGone => {}
            }
        }
        o.chat.retain(|(_, at)| now - at < CHAT_SECONDS);
        let excess = o.chat.len().saturating_sub(CHAT_LINES);
        o.chat.drain(..excess);
        for line in lines {
            self.tell_players(line);
        }
    }

    /// "Waiting for …" over the battle, while a stall lasts.
    pub(super) fn waiting_overlay(&self, out: &mut Vec<DrawCmd>) {
        let Some(names) = self.waiting_for() else { return };
        let text = format!("Waiting for {names}…");
        let (w, h) = (18.0 * text.chars().count() as f32 * 0.55 + 40.0, 44.0);
        let r = Rect::new((self.pic.view.screen.x - w) / 2.0, self.pic.view.screen.y * 0.3, w, h);
        out.push(DrawCmd::Fill { rect: r, color: [12, 14, 16, 220] });
        out.push(DrawCmd::Frame { rect: r, color: [200, 170, 90, 255], width: 1.0 });
        out.push(DrawCmd::Text {
            x: r.x + 20.0,
            y: r.y + 11.0,
            text,
            px: 18.0,
            bold: true,
            color: [240, 230, 200, 255],
            shadow: Some([0, 0, 0, 255]),
        });
    }
}
