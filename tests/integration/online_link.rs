//! The in-match control protocol (`MatchLink`) over the in-memory hub, with simulated time:
//! no sockets, no sleeps, no real clock. Late joiners are refused at once, leaving is told to
//! everyone at one agreed frame, chat is named by the host, the host leaving ends the game
//! for the joiners, and a machine that dropped comes back through the history and plays on
//! with the same hashes; a seated machine's second hello is refused "already seated", and the
//! same player from another connection takes the seat over while the first is told why. The
//! session is the one reader of the wire; the link takes its control messages from it.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::common;

use ridgeline::lockstep::{PeerId, Transport};
use ridgeline::net::wire::{ALREADY_SEATED, Hello, PROTOCOL, TAKEN_OVER, WireMessage};
use ridgeline::net::{ControlTransport, MemoryEndpoint, hub};
use ridgeline::online::{LATE_JOINER, LinkEvent, MatchLink, Return, Seats, start_hosted, start_joined};
use ridgeline::session::start::prepare;
use ridgeline::session::{CommandScript, Difficulty, Match, MatchSetup, SlotKind, SlotSetup, Step};

const NAMES: [&str; 3] = ["Ava", "Ben", "Cid"];

/// One slot per machine, named, an easy computer playing each machine's own.
fn setup(machines: u8) -> MatchSetup {
    let slot = |m: u8| SlotSetup {
        machine: Some(m),
        name: Some(NAMES[m as usize].to_string()),
        ..SlotSetup::new(if m == 0 { SlotKind::Ai { difficulty: Difficulty::Easy } } else { SlotKind::Remote })
    };
    MatchSetup {
        map: "four_corners".into(),
        seed: 3,
        slots: (0..machines).map(slot).collect(),
        run_ahead: None,
        map_hash: None,
        content_hash: None,
    }
}

/// One machine: its match over the hub, its link, what it ran and what it was told.
pub(crate) struct Machine {
    pub(crate) game: Match<MemoryEndpoint>,
    pub(crate) link: MatchLink,
    pub(crate) log: BTreeMap<u32, u64>,
    pub(crate) events: Vec<LinkEvent>,
}

impl Machine {
    fn new(game: Match<MemoryEndpoint>, seats: Seats) -> Machine {
        let me = game.session.transport().me();
        let link = MatchLink::new(me, &game.slots, seats, false);
        Machine { game, link, log: BTreeMap::new(), events: Vec::new() }
    }

    /// One step of the session at simulated time `now`, then the link's pump.
    pub(crate) fn step(&mut self, now: Instant) {
        if let Step::Ticked { frame, hash, .. } = self.game.session.step().unwrap() {
            self.log.insert(frame.0, hash.total);
            self.link.ran(now, &mut self.game.session, frame, hash);
        }
        self.link.update(now, &mut self.game.session).unwrap();
        while let Some(e) = self.link.poll_event() {
            self.events.push(e);
        }
    }

    pub(crate) fn frame(&self) -> u32 {
        self.game.session.world().frame().0
    }
}

/// Machines prepared from `setup(n)`, each with an easy computer in its own slot.
pub(crate) fn machines(n: u8) -> (Vec<Machine>, Vec<MemoryEndpoint>) {
    let mut ends = hub(n as usize + 1);
    let stranger = ends.pop().unwrap();
    let script = CommandScript::default();
    let ms = ends
        .into_iter()
        .enumerate()
        .map(|(k, end)| {
            let mut s = setup(n);
            s.slots[k].kind = SlotKind::Ai { difficulty: Difficulty::Easy };
            Machine::new(prepare(&common::roots(), &s, &script, k as u8).unwrap().into_match(end), Seats::default())
        })
        .collect();
    (ms, vec![stranger])
}

/// Steps every machine until each has run `frame`, in simulated time.
fn run_to(ms: &mut [Machine], frame: u32, clock: &mut Instant) {
    let mut guard = 0;
    while ms.iter().any(|m| m.frame() < frame) {
        guard += 1;
        assert!(guard < 100_000, "stuck at frames {:?}", ms.iter().map(Machine::frame).collect::<Vec<_>>());
        *clock += Duration::from_millis(33);
        for m in ms.iter_mut().filter(|m| m.frame() < frame) {
            m.step(*clock);
        }
    }
}

fn hello(seat: [u8; 32]) -> WireMessage {
    WireMessage::Hello(Hello {
        protocol: PROTOCOL,
        build: String::new(),
        name: "Zed".into(),
        files: vec![],
        seat,
        watch: false,
    })
}

/// Every frame both logs hold agrees.
pub(crate) fn agree(a: &BTreeMap<u32, u64>, b: &BTreeMap<u32, u64>) -> usize {
    let common: Vec<u32> = a.keys().filter(|f| b.contains_key(f)).copied().collect();
    for f in &common {
        assert_eq!(a[f], b[f], "frame {f} differs");
    }
    common.len()
}

#[test]
fn a_late_joiner_is_refused_at_once_and_the_game_goes_on() {
    let (mut ms, mut strangers) = machines(2);
    let mut clock = Instant::now();
    run_to(&mut ms, 40, &mut clock);
    let stranger = &mut strangers[0];
    stranger.send_control(None, &[hello([9; 32])]).unwrap();
    run_to(&mut ms, 60, &mut clock);
    let answers: Vec<(PeerId, WireMessage)> = std::iter::from_fn(|| stranger.take_control()).collect();
    assert_eq!(answers, [(PeerId(0), WireMessage::Refused { reason: LATE_JOINER.to_string() })]);
    assert!(ms.iter().all(|m| m.events.is_empty()), "nobody was told of a stranger");
    assert_eq!(agree(&ms[0].log, &ms[1].log), 60);
}

#[test]
fn leaving_is_told_to_everyone_and_removed_at_one_frame() {
    let (mut ms, _) = machines(3);
    let mut clock = Instant::now();
    run_to(&mut ms, 50, &mut clock);
    // Cid's machine says goodbye and closes.
    let mut cid = ms.pop().unwrap();
    cid.link.bye();
    cid.link.update(clock, &mut cid.game.session).unwrap();
    drop(cid);
    run_to(&mut ms, 200, &mut clock);
    for m in &ms {
        assert!(m.events.contains(&LinkEvent::Left { slot: 2, returnable: false }), "{:?}", m.events);
    }
    let player = ms[0].game.slots[2].player;
    let at = ms[0].game.session.stream().dropped_from(player).expect("the host dropped Cid");
    assert_eq!(ms[1].game.session.stream().dropped_from(player), Some(at), "one frame on every machine");
    assert_eq!(agree(&ms[0].log, &ms[1].log), 200);
}

#[test]
fn the_host_names_who_chats_and_passes_it_on() {
    let (mut ms, _) = machines(3);
    let mut clock = Instant::now();
    run_to(&mut ms, 10, &mut clock);
    // Ben's machine claims another name; the host names the line by Ben's seat.
    ms[1].link.say("Mallory", "gl hf");
    ms[0].link.say("Ava", "you too");
    run_to(&mut ms, 20, &mut clock);
    let chat = |m: &Machine| -> Vec<String> {
        m.events
            .iter()
            .filter_map(|e| match e {
                LinkEvent::Chat(l) => Some(l.clone()),
                _ => None,
            })
            .collect()
    };
    assert_eq!(chat(&ms[0]), ["Ava: you too", "Ben: gl hf"]);
    assert_eq!(chat(&ms[1]), ["Mallory: gl hf", "Ava: you too"], "its own line as typed, then the host's");
    // The host's own line went out first; Ben's came through the host a step later.
    assert_eq!(chat(&ms[2]), ["Ava: you too", "Ben: gl hf"]);
}

#[test]
fn the_session_reads_the_wire_once_and_the_link_takes_control_messages_from_it() {
    let (mut ms, _) = machines(2);
    let mut clock = Instant::now();
    run_to(&mut ms, 10, &mut clock);
    ms[0].link.say("Ava", "one reader");
    ms[0].step(clock);
    // The joiner's session reads everything that arrived: the lockstep data goes to its stream,
    // the chat is kept for the link; nothing is left on the transport for a second reader.
    ms[1].game.session.pump().unwrap();
    assert!(ms[1].game.session.transport_mut().take_control().is_none(), "the session took the chat off the wire");
    assert!(ms[1].game.session.transport_mut().receive().unwrap().is_none(), "and the lockstep data");
    let ben = &mut ms[1];
    ben.link.update(clock, &mut ben.game.session).unwrap();
    let chat: Vec<LinkEvent> = std::iter::from_fn(|| ben.link.poll_event()).collect();
    assert_eq!(chat, [LinkEvent::Chat("Ava: one reader".into())]);
}

#[test]
fn the_host_leaving_ends_the_game_for_the_joiners() {
    let (mut ms, _) = machines(2);
    let mut clock = Instant::now();
    run_to(&mut ms, 30, &mut clock);
    let host = ms.remove(0);
    drop(host);
    for _ in 0..200 {
        clock += Duration::from_millis(33);
        ms[0].step(clock);
    }
    assert!(ms[0].link.host_gone());
    assert_eq!(ms[0].events, [LinkEvent::Left { slot: 0, returnable: false }, LinkEvent::HostGone]);
    assert!(ms[0].frame() < 60, "no frame runs without the host's data: {}", ms[0].frame());
}

#[test]
fn a_dropped_machine_comes_back_through_the_history_with_the_same_hashes() {
    let roots = common::roots();
    let script = CommandScript::default();
    let mut ends = hub(3);
    let mut again = ends.pop().unwrap();
    let ben_end = ends.pop().unwrap();
    let mut host_end = ends.pop().unwrap();
    let base = setup(2);
    let ben_token = [7u8; 32];
    // The host starts the match (the start goes to every endpoint) with Ben's seat token.
    let (prepared, start) = start_hosted(&roots, &base, &script, &mut host_end, false, u32::MAX).unwrap();
    let host_game = prepared.into_match(host_end);
    let seats = Seats::new(start.clone(), BTreeMap::from([(1, ben_token)]), host_game.log.clone(), "Ava");
    let mut host = Machine::new(host_game, seats);
    let mut ben_end = ben_end;
    let easy = SlotKind::Ai { difficulty: Difficulty::Easy };
    let ben_game = start_joined(&roots, &mut ben_end, PeerId(1), &start, easy, &script).unwrap().into_match(ben_end);
    let mut ms = vec![host, Machine::new(ben_game, Seats::default())];
    let mut clock = Instant::now();
    run_to(&mut ms, 150, &mut clock);
    let ben_log = ms.pop().unwrap().log;
    host = ms.pop().unwrap();
    // Ben's machine is gone (its endpoint closed): his units hold, the host plays on alone.
    for _ in 0..200 {
        clock += Duration::from_millis(33);
        host.step(clock);
    }
    assert!(host.events.contains(&LinkEvent::Left { slot: 1, returnable: true }), "{:?}", host.events);
    let gone_at = host.frame();
    assert!(gone_at > 300, "the host played on: frame {gone_at}");
    // Ben comes back on a new connection: what that endpoint heard before is not his.
    while again.receive().unwrap().is_some() {}
    while again.take_control().is_some() {}
    again.send_control(None, &[hello(ben_token)]).unwrap();
    let mut way: Option<Return> = None;
    let mut guard = 0;
    let back = loop {
        guard += 1;
        assert!(guard < 20_000, "never back");
        clock += Duration::from_millis(33);
        host.step(clock);
        while let Some((from, m)) = again.take_control() {
            match (&mut way, m) {
                (None, WireMessage::Rejoin { start, machine, owners }) => {
                    assert_eq!(machine, 1);
                    let prepared = start_joined(&roots, &mut again, PeerId(machine), &start, easy, &script).unwrap();
                    way = Some(Return::new(prepared, machine, &owners));
                }
                (Some(w), m) => w.handle(from, m).unwrap(),
                (None, _) => {}
            }
        }
        if let Some(w) = &mut way {
            if let Some(m) = w.poll().unwrap() {
                again.send_control(Some(PeerId(0)), &[m]).unwrap();
            }
            if w.ready() {
                break way.take().unwrap();
            }
        }
    };
    let (game, prelude) = back.into_match(again);
    let mut ben = Machine::new(game, Seats::default());
    ben.log.extend(prelude);
    let mut ms = vec![host, ben];
    let live = ms[1].frame();
    run_to(&mut ms, live + 300, &mut clock);
    assert!(ms[0].events.contains(&LinkEvent::Back { slot: 1 }), "{:?}", ms[0].events);
    // The returning machine ran every frame from the history and agrees on each.
    assert!(agree(&ms[0].log, &ms[1].log) as u32 >= live + 300, "every frame, history and live");
    assert_eq!(agree(&ben_log, &ms[1].log), 150, "the same game as before the drop");
    let player = ms[0].game.slots[1].player;
    assert_eq!(ms[0].game.session.owner(player), Some(PeerId(2)), "the new connection speaks for Ben");
    // Ben's computer plays again: its orders after the return ran on the host too.
    let orders = ms[0].game.log.borrow().iter().filter(|e| e.player == player.0 && e.frame > live).count();
    assert!(orders > 0, "Ben's side gave no orders after coming back");
}

#[test]
fn a_second_hello_is_refused_and_the_same_player_elsewhere_takes_the_seat_telling_the_first() {
    let roots = common::roots();
    let script = CommandScript::default();
    let mut ends = hub(3);
    let mut again = ends.pop().unwrap();
    let ben_end = ends.pop().unwrap();
    let mut host_end = ends.pop().unwrap();
    let ben_token = [7u8; 32];
    let (prepared, start) = start_hosted(&roots, &setup(2), &script, &mut host_end, false, u32::MAX).unwrap();
    let host_game = prepared.into_match(host_end);
    let seats = Seats::new(start.clone(), BTreeMap::from([(1, ben_token)]), host_game.log.clone(), "Ava");
    let mut ben_end = ben_end;
    let easy = SlotKind::Ai { difficulty: Difficulty::Easy };
    let ben_game = start_joined(&roots, &mut ben_end, PeerId(1), &start, easy, &script).unwrap().into_match(ben_end);
    let mut ms = vec![Machine::new(host_game, seats), Machine::new(ben_game, Seats::default())];
    let mut clock = Instant::now();
    run_to(&mut ms, 60, &mut clock);
    let player = ms[0].game.slots[1].player;
    // Ben's own connection greets again: refused, and nothing changes.
    ms[1].game.session.transport_mut().send_control(None, &[hello(ben_token)]).unwrap();
    let heard = refusals_after_five_host_steps(&mut ms, &mut clock);
    assert_eq!(heard, [WireMessage::Refused { reason: ALREADY_SEATED.to_string() }]);
    assert_eq!(ms[0].game.session.stream().dropped_from(player), None, "Ben plays on");
    assert!(ms[0].events.is_empty(), "{:?}", ms[0].events);
    run_to(&mut ms, 90, &mut clock);
    // The same player from another connection (a second copy of the game): the seat goes to
    // it, and the first copy is told why before it is closed.
    while again.take_control().is_some() {}
    again.send_control(None, &[hello(ben_token)]).unwrap();
    let told = refusals_after_five_host_steps(&mut ms, &mut clock);
    assert_eq!(told, [WireMessage::Refused { reason: TAKEN_OVER.to_string() }]);
    let answers: Vec<WireMessage> = std::iter::from_fn(|| again.take_control()).map(|(_, m)| m).collect();
    assert!(answers.iter().any(|m| matches!(m, WireMessage::Welcome { peer: PeerId(2), .. })), "{answers:?}");
    assert!(answers.iter().any(|m| matches!(m, WireMessage::Rejoin { machine: 1, .. })), "{answers:?}");
}

/// Runs the host (machine 0) five steps, then the refusals machine 1 has been told.
fn refusals_after_five_host_steps(ms: &mut [Machine], clock: &mut Instant) -> Vec<WireMessage> {
    for _ in 0..5 {
        *clock += Duration::from_millis(33);
        ms[0].step(*clock);
    }
    std::iter::from_fn(|| ms[1].game.session.transport_mut().take_control())
        .map(|(_, m)| m)
        .filter(|m| matches!(m, WireMessage::Refused { .. }))
        .collect()
}
