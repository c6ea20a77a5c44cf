//! An online battle's link to the other machines: players who leave (removed at the frame the
//! host names, and said in the control bar), the host leaving (the battle ends), a stall (after
//! a second, "Waiting for <name>…" over the battle), a desync (the battle stops, a report is
//! written; the client shows "Out of sync"), and chat (Enter opens a line; lines show for a
//! few seconds).
//!
//! Must not: change the world (drops go through the stream, which every machine applies alike).

use std::time::Instant;

use glam::Vec2;

use crate::lockstep::transport::PeerId;
use crate::net::control::ControlTransport;
use crate::online::{CHAT_MAX, LinkEvent, MatchLink, OnlineError, Seats};
use crate::session::ResolvedSlot;
use crate::session::Session;
use crate::ui::draw::DrawCmd;
use crate::ui::{Key, Rect};

/// Seconds of waiting before the battle says for whom.
const WAIT_SHOWN: f32 = 1.0;
/// Seconds a chat line stays on screen.
const CHAT_SECONDS: f32 = 10.0;
/// Chat lines on screen at most.
const CHAT_LINES: usize = 5;

/// The online part of a battle: the match's control protocol (`MatchLink`) and what the
/// window shows of it.
pub struct OnlineLink {
    link: MatchLink,
    /// Each seat's slot number and player name (fixed for the match).
    names: Vec<(u8, String)>,
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
    /// Departures and returns not yet told to the player.
    news: Vec<News>,
    /// Why the host is gone for this machine, once it is.
    gone: Option<HostGone>,
}

/// Why a joiner's battle lost its host: the host left, this machine's own link to it dropped,
/// or the host turned this machine away (its reason, e.g. another copy of the game with the
/// same identity took the seat).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostGone {
    /// The host closed the game.
    Left,
    /// Nothing was heard from the host for longer than the idle timeout: this machine's link.
    LinkLost,
    /// The host refused this machine, and why.
    Refused(String),
}

impl OnlineLink {
    /// The link of machine `me` in a match of `slots`; the host's `seats` let a machine that
    /// drops come back. A desync report goes beside the settings.
    pub(super) fn new(me: PeerId, slots: &[ResolvedSlot], seats: Seats) -> OnlineLink {
        OnlineLink {
            link: MatchLink::new(me, slots, seats, true),
            names: slots.iter().map(|s| (s.slot, s.name.clone())).collect(),
            waiting_since: None,
            waiting_now: 0.0,
            report_dir: crate::game::settings::Settings::default_path()
                .ok()
                .and_then(|p| p.parent().map(std::path::Path::to_path_buf))
                .unwrap_or_else(std::env::temp_dir),
            report: None,
            typing: None,
            chat: Vec::new(),
            news: Vec::new(),
            gone: None,
        }
    }

    /// True once the machines were found to disagree: no more frames run.
    pub fn desynced(&self) -> bool {
        self.link.desync().is_some()
    }

    /// True once the battle cannot go on and is over: the machines disagree (and the
    /// report's exchange is done), or the host left and all it sent before leaving has run.
    pub fn stopped(&self) -> bool {
        self.host_left() || (self.desynced() && !self.link.exchanging())
    }

    /// The next frame is waited for, at battle second `now`.
    pub(super) fn waiting(&mut self, now: f32) {
        self.waiting_since.get_or_insert(now);
        self.waiting_now = now;
    }

    /// A frame ran: nothing is waited for.
    pub(super) fn ticked(&mut self) {
        self.waiting_since = None;
    }

    /// After `frame` ran with `hash`: kept for a desync report; the host tunes the run-ahead
    /// and feeds a returning machine its history.
    pub(super) fn ran<T: ControlTransport>(
        &mut self,
        session: &mut Session<T>,
        frame: crate::sim::Frame,
        hash: crate::sim::hash::StateHash,
    ) {
        self.link.ran(Instant::now(), session, frame, hash);
    }

    /// True while a chat line is being typed (keys go to it, not to the battle).
    pub fn chat_open(&self) -> bool {
        self.typing.is_some()
    }

    /// A key for the chat of the player called `name`: Enter opens a line or sends it,
    /// Escape closes it, Backspace erases. Returns whether the key was the chat's.
    pub(super) fn chat_key(&mut self, key: Key, name: &str, now: f32) -> bool {
        match (key, &mut self.typing) {
            (Key::Enter, None) => self.typing = Some(String::new()),
            (Key::Enter, Some(text)) => {
                let text = std::mem::take(text);
                self.typing = None;
                // Shown at once; the host tells everyone, a joiner the host, which passes it on.
                self.link.say(name, &text);
                self.take_events(now);
            }
            (Key::Escape, Some(_)) => self.typing = None,
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
        if let Some(text) = self.typing.as_mut()
            && text.chars().count() < CHAT_MAX
            && !c.is_control()
        {
            text.push(c);
        }
    }

    /// The chat over a battle on a `screen`: recent lines above the control bar, and the line
    /// being typed.
    pub(super) fn chat_overlay(&self, screen: Vec2, out: &mut Vec<DrawCmd>) {
        let mut lines: Vec<String> = self.chat.iter().map(|(l, _)| l.clone()).collect();
        if let Some(text) = &self.typing {
            lines.push(format!("Say: {text}_"));
        }
        let bottom = screen.y * 0.72;
        for (i, text) in lines.iter().rev().enumerate() {
            out.push(DrawCmd::Text {
                x: screen.x * 0.2,
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
        self.report.as_deref()
    }

    /// The frame the machines went out of sync on, if they did.
    pub fn desync_frame(&self) -> Option<u32> {
        self.link.desync().map(|d| d.frame.0)
    }

    /// Why the host is gone for this machine, once it is (see [`OnlineLink::host_left`]).
    pub fn host_gone(&self) -> Option<&HostGone> {
        self.gone.as_ref()
    }

    /// True when the host has left (and all it sent has run).
    pub fn host_left(&self) -> bool {
        self.link.host_gone() && self.waiting_since.is_some()
    }

    /// True after a second without the next frame: the stall is shown.
    pub(super) fn stall_shown(&self) -> bool {
        self.waiting_since.is_some_and(|since| self.waiting_now - since >= WAIT_SHOWN)
    }

    /// Seconds the battle has waited for the next frame (0 when it is not waiting).
    pub fn stalled_for(&self) -> f32 {
        self.waiting_since.map_or(0.0, |s| self.waiting_now - s)
    }

    /// True when this machine hosts the battle.
    pub fn hosting(&self) -> bool {
        self.link.hosting()
    }

    /// The host drops the players the battle is waiting for: each is removed at the first
    /// frame nobody has their data for, everyone is told (the lines returned), and their
    /// machine is disconnected (it may come back with the code).
    pub(super) fn drop_stalled<T: ControlTransport>(&mut self, session: &mut Session<T>, now: f32) -> Vec<News> {
        self.waiting_since = None;
        let dropped = self.link.drop_stalled(session);
        let mut lines: Vec<News> =
            dropped.into_iter().filter_map(|slot| self.name(slot)).map(|n| ("Online:WasDropped", n)).collect();
        lines.extend(self.update(session, now));
        lines
    }

    /// After the frames of one advance: moves the control protocol on (departures, returns,
    /// chat, the desync exchange — a step each advance: the window never waits). Returns the
    /// departures and returns to tell the player.
    pub(super) fn update<T: ControlTransport>(&mut self, session: &mut Session<T>, now: f32) -> Vec<News> {
        if let Err(e) = self.link.update(Instant::now(), session) {
            log::warn!("online: {e}");
            if let (None, OnlineError::Refused(why)) = (&self.gone, &e) {
                self.gone = Some(HostGone::Refused(why.clone()));
            }
            self.link.peer_left(session, PeerId(0));
        }
        if self.gone.is_none() && self.link.host_gone() {
            let lost = session.transport().link_lost();
            self.gone = Some(if lost { HostGone::LinkLost } else { HostGone::Left });
        }
        if let Some(x) = self.link.finished_exchange(Instant::now()) {
            match x.write(&self.report_dir) {
                Ok(path) => self.report = Some(path),
                Err(e) => log::warn!("the desync report was not written: {e}"),
            }
        }
        self.take_events(now);
        std::mem::take(&mut self.news)
    }

    /// The name of the player in `slot`.
    fn name(&self, slot: u8) -> Option<String> {
        self.names.iter().find(|(s, _)| *s == slot).map(|(_, n)| n.clone())
    }

    /// Takes what the link has to tell: chat lines over the battle, departures and returns as
    /// news for the alerts and the control bar.
    fn take_events(&mut self, now: f32) {
        while let Some(e) = self.link.poll_event() {
            let line = match e {
                LinkEvent::Chat(line) => {
                    self.chat.push((line, now));
                    continue;
                }
                // One who left through the menu surrendered; a seat whose machine merely
                // dropped can come back: its units hold, the game plays on.
                LinkEvent::Left { slot, returnable: true } => self.name(slot).map(|n| ("Online:Dropped", n)),
                LinkEvent::Left { slot, returnable: false } => self.name(slot).map(|n| ("Online:Left", n)),
                LinkEvent::Back { slot } => self.name(slot).map(|n| ("Online:Back", n)),
                LinkEvent::HostGone => None,
            };
            self.news.extend(line);
        }
        self.chat.retain(|(_, at)| now - at < CHAT_SECONDS);
        let excess = self.chat.len().saturating_sub(CHAT_LINES);
        self.chat.drain(..excess);
    }
}

/// A departure or return to tell the player: the string table's label for it and the
/// player's name (`{name}` in the entry).
pub(super) type News = (&'static str, String);

/// `text` ("Waiting for Ann…") over a battle on a `screen`, while a stall lasts.
pub(super) fn waiting_overlay(text: &str, screen: Vec2, out: &mut Vec<DrawCmd>) {
    let text = text.to_string();
    let (w, h) = (18.0 * text.chars().count() as f32 * 0.55 + 40.0, 44.0);
    let r = Rect::new((screen.x - w) / 2.0, screen.y * 0.3, w, h);
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
