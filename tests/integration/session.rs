//! Matches across machines over the in-memory transport: each machine runs the slots its
//! setup gives it; a peer may speak only for its own players; and a battle whose peer is late
//! stands still, then runs the next frame as soon as the data is in.

use crate::common;

use glam::Vec2;
use ridgeline::game::battle::Battle;
use ridgeline::lockstep::{Message, PeerId, Transport};
use ridgeline::net::hub;
use ridgeline::session::start::{LocalMatch, prepare};
use ridgeline::session::{MatchSetup, SlotKind, SlotSetup, Step};
use ridgeline::sim::{Frame, PlayerId};

/// Two scripted slots, one on each of machines 0 and 1, playing the opening.
fn two_machines(first: SlotKind) -> MatchSetup {
    let on = |kind, machine| SlotSetup { machine: Some(machine), ..SlotSetup::new(kind) };
    MatchSetup {
        map: "proving_grounds".into(),
        seed: 7,
        slots: vec![on(first, 0), on(SlotKind::Scripted, 1)],
        run_ahead: None,
        map_hash: None,
        content_hash: None,
    }
}

fn on_machine(setup: &MatchSetup, machine: u8, end: ridgeline::net::MemoryEndpoint) -> LocalMatch {
    let p = prepare(&common::roots(), setup, &common::opening(), machine).expect("prepares");
    let end: Box<dyn ridgeline::net::ControlTransport> = Box::new(end);
    p.into_match(end)
}

#[test]
fn each_machine_runs_its_own_slots_and_a_peer_cannot_speak_for_another() {
    let setup = two_machines(SlotKind::Scripted);
    let mut ends = hub(3);
    let mut intruder = ends.pop().unwrap();
    let mut b = on_machine(&setup, 1, ends.pop().unwrap());
    let mut a = on_machine(&setup, 0, ends.pop().unwrap());
    assert_eq!(a.session.stream().waiting_for(), Vec::<PlayerId>::new(), "nothing is due yet");
    // Peer 2 owns no player, yet claims player 0 has no commands for frame 5.
    let lie = Message::FrameCount { player: PlayerId(0), frame: Frame(5), count: 0 };
    intruder.send_to(PeerId(1), &lie).unwrap();
    let mut guard = 0;
    while (a.session.world().frame().0 < 600 || b.session.world().frame().0 < 600) && guard < 20_000 {
        guard += 1;
        if a.session.world().frame().0 < 600 {
            a.session.step().unwrap();
        }
        if b.session.world().frame().0 < 600 {
            b.session.step().unwrap();
        }
    }
    a.session.pump().unwrap();
    b.session.pump().unwrap();
    assert_eq!(b.session.violations().refused(PeerId(2)), 1, "the lie was refused and counted");
    assert_eq!(b.session.violations().refused(PeerId(0)), 0);
    assert!(!b.session.violations().is_cut(PeerId(2)), "one lie is within the budget");
    assert_eq!(a.session.violations().refused(PeerId(1)), 0);
    // The two machines played one game.
    assert_eq!(a.session.stream().hash_log(), b.session.stream().hash_log());
    assert_eq!(a.session.stream().hash_log().len(), 600);
    assert!(a.session.stream().desync().is_none());
    // Each machine ran its own slot's script, and both executed the same commands: everyone's.
    assert_eq!(*a.log.borrow(), *b.log.borrow());
    assert!(a.log.borrow().iter().any(|e| e.player == 0) && a.log.borrow().iter().any(|e| e.player == 1));
}

#[test]
fn peers_arriving_and_leaving_are_reported() {
    let setup = two_machines(SlotKind::Scripted);
    let mut ends = hub(2);
    let b_end = ends.pop().unwrap();
    let mut a = on_machine(&setup, 0, ends.pop().unwrap());
    a.session.pump().unwrap();
    assert_eq!(a.session.take_peer_events(), [ridgeline::session::peer::PeerEvent::Connected(PeerId(1))]);
    drop(b_end);
    a.session.pump().unwrap();
    assert_eq!(a.session.take_peer_events(), [ridgeline::session::peer::PeerEvent::Left(PeerId(1))]);
}

#[test]
fn a_battle_waits_for_a_late_peer_then_runs_the_next_frame_at_once() {
    let setup = two_machines(SlotKind::Human);
    let mut ends = hub(2);
    let mut b = on_machine(&setup, 1, ends.pop().unwrap());
    let a = on_machine(&setup, 0, ends.pop().unwrap());
    let mut battle = Battle::from_match(&common::roots(), a, Vec2::new(640.0, 360.0)).unwrap();
    // Two seconds pass while the other machine says nothing: only the frames everyone's data
    // is already in for (the run-ahead) can run.
    for _ in 0..60 {
        battle.advance(1.0 / 30.0).unwrap();
    }
    let stalled = battle.world().frame().0;
    assert!(stalled <= 3, "game time stood still: frame {stalled}");
    // The late peer catches up (it is 60 frames ahead in wall time, not in game time).
    for _ in 0..1_000 {
        if b.session.world().frame().0 >= stalled + 3 {
            break;
        }
        assert!(matches!(b.session.step().unwrap(), Step::Ticked { .. } | Step::Waiting));
    }
    assert_eq!(b.session.world().frame().0, stalled + 3, "the late peer caught up");
    b.session.pump().unwrap();
    // The very next drawn frame runs one logic frame, without waiting a frame's time, and
    // without rushing through the stalled seconds.
    battle.advance(0.001).unwrap();
    assert_eq!(battle.world().frame().0, stalled + 1);
}

#[test]
fn a_joiners_replay_holds_every_machines_orders_and_plays_back_the_game() {
    let setup = two_machines(SlotKind::Scripted);
    let mut ends = hub(2);
    let mut b = on_machine(&setup, 1, ends.pop().unwrap());
    let mut a = on_machine(&setup, 0, ends.pop().unwrap());
    for _ in 0..20_000 {
        if a.session.world().frame().0 >= 900 && b.session.world().frame().0 >= 900 {
            break;
        }
        if a.session.world().frame().0 < 900 {
            a.session.step().unwrap();
        }
        if b.session.world().frame().0 < 900 {
            b.session.step().unwrap();
        }
    }
    let log = b.log.borrow().clone();
    assert!(log.iter().any(|e| e.player == 0) && log.iter().any(|e| e.player == 1), "both players' orders");
    let replay = ridgeline::session::Replay {
        version: ridgeline::session::replay::REPLAY_VERSION,
        setup: b.setup.clone(),
        local: 1,
        frames: 900,
        final_hash: format!("{:016x}", b.session.world().state_hash().total),
        commands: log,
        checkpoints: vec![],
        pace: vec![],
        origin: None,
        winner: None,
    };
    let mut watched = Battle::watch(&common::roots(), &replay, "test.ron", Vec2::new(640.0, 360.0)).unwrap();
    while watched.play().replay_verdict().is_none() {
        watched.advance(1.0 / 30.0 + 1e-4).unwrap();
    }
    assert_eq!(watched.play().replay_verdict(), Some(true));
    assert_eq!(watched.world().state_hash(), a.session.world().state_hash());
}

/// Steps both machines until each has run `frame` frames or both stand paused.
fn run_both(a: &mut LocalMatch, b: &mut LocalMatch, frame: u32) {
    for _ in 0..20_000 {
        let mut moved = false;
        for m in [&mut *a, &mut *b] {
            if m.session.world().frame().0 < frame {
                moved |= matches!(m.session.step().unwrap(), Step::Ticked { .. } | Step::Waiting);
            }
        }
        if !moved {
            return;
        }
    }
}

#[test]
fn a_pause_stops_every_machine_after_the_same_frame_anyone_resumes_and_each_has_three() {
    use ridgeline::lockstep::{PaceChange, PaceMark};
    let setup = two_machines(SlotKind::Scripted);
    let mut ends = hub(2);
    let mut b = on_machine(&setup, 1, ends.pop().unwrap());
    let mut a = on_machine(&setup, 0, ends.pop().unwrap());
    run_both(&mut a, &mut b, 100);
    let at = a.session.submit_pace(PlayerId(0), PaceChange::Pause).unwrap();
    assert!(at.0 > 100, "stamped for a frame still to come: {at}");
    run_both(&mut a, &mut b, 1_000);
    for m in [&a, &b] {
        assert_eq!(m.session.world().frame().0, at.0 + 1, "both stop after the pause's frame");
        assert_eq!(m.session.stream().paused(), Some((at, PlayerId(0))));
        assert_eq!(m.session.stream().pauses_left(PlayerId(0)), 2);
    }
    assert_eq!(b.session.step().unwrap(), Step::Paused);
    // The other player resumes, and both go on.
    b.session.submit_pace(PlayerId(1), PaceChange::Resume).unwrap();
    run_both(&mut a, &mut b, 300);
    assert_eq!((a.session.world().frame().0, b.session.world().frame().0), (300, 300));
    // Three more pauses: two count, the last is ignored on both machines.
    let mut stamped = Vec::new();
    for k in 1..=3u32 {
        let f = a.session.submit_pace(PlayerId(0), PaceChange::Pause).unwrap();
        stamped.push(f);
        run_both(&mut a, &mut b, 300 + 100 * k);
        if a.session.stream().paused().is_some() {
            assert_eq!(a.session.world().frame().0, f.0 + 1);
            a.session.submit_pace(PlayerId(0), PaceChange::Resume).unwrap();
            run_both(&mut a, &mut b, 300 + 100 * k);
        }
    }
    assert_eq!(
        (a.session.world().frame().0, b.session.world().frame().0),
        (600, 600),
        "the last pause stopped nothing"
    );
    let pause = |frame: Frame| PaceMark { frame: frame.0, player: 0, change: PaceChange::Pause };
    let pauses: Vec<PaceMark> =
        a.session.stream().pace_log().iter().filter(|m| m.change == PaceChange::Pause).copied().collect();
    assert_eq!(pauses, vec![pause(at), pause(stamped[0]), pause(stamped[1])]);
    assert_eq!(a.session.stream().pace_log(), b.session.stream().pace_log(), "both machines saw the same");
    assert_eq!(b.session.stream().pauses_left(PlayerId(0)), 0);
    assert_eq!(a.session.stream().hash_log(), b.session.stream().hash_log());
}

/// A hub end that counts the session's exchanges with it: each exchange flushes once (one
/// batch of lockstep messages) and reads until nothing is left.
struct Counted {
    end: ridgeline::net::MemoryEndpoint,
    flushes: std::sync::Arc<std::sync::atomic::AtomicU32>,
}

impl Transport for Counted {
    fn me(&self) -> PeerId {
        self.end.me()
    }
    fn send(&mut self, message: &Message) -> Result<(), ridgeline::lockstep::transport::TransportError> {
        self.end.send(message)
    }
    fn send_to(
        &mut self,
        peer: PeerId,
        message: &Message,
    ) -> Result<(), ridgeline::lockstep::transport::TransportError> {
        self.end.send_to(peer, message)
    }
    fn flush(&mut self) -> Result<(), ridgeline::lockstep::transport::TransportError> {
        self.flushes.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.end.flush()
    }
    fn receive(
        &mut self,
    ) -> Result<Option<ridgeline::lockstep::transport::TransportEvent>, ridgeline::lockstep::transport::TransportError>
    {
        self.end.receive()
    }
}

impl ridgeline::net::ControlTransport for Counted {
    fn send_control(
        &mut self,
        to: Option<PeerId>,
        messages: &[ridgeline::net::wire::WireMessage],
    ) -> Result<(), ridgeline::lockstep::transport::TransportError> {
        self.end.send_control(to, messages)
    }
    fn take_control(&mut self) -> Option<(PeerId, ridgeline::net::wire::WireMessage)> {
        self.end.take_control()
    }
    fn kick(&mut self, peer: PeerId) {
        self.end.kick(peer)
    }
}

#[test]
fn the_wire_is_exchanged_once_a_logic_frame_and_once_a_drawn_frame_that_runs_none() {
    use ridgeline::net::ControlTransport;
    use std::sync::atomic::Ordering;
    let setup = two_machines(SlotKind::Human);
    let mut ends = hub(2);
    let mut b = on_machine(&setup, 1, ends.pop().unwrap());
    let flushes = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
    let end: Box<dyn ControlTransport> = Box::new(Counted { end: ends.pop().unwrap(), flushes: flushes.clone() });
    let p = prepare(&common::roots(), &setup, &common::opening(), 0).expect("prepares");
    let mut battle = Battle::from_match(&common::roots(), p.into_match(end), Vec2::new(640.0, 360.0)).unwrap();
    let mut tried = 0;
    // Drawn frames at 60 a second over logic frames at 30: every other drawn frame tries one.
    for drawn in 0..120 {
        // The other machine runs as far ahead as it may, so no frame waits for it.
        for _ in 0..10 {
            b.session.step().unwrap();
        }
        let (before, exchanges) = (battle.world().frame().0, flushes.load(Ordering::Relaxed));
        battle.advance(1.0 / 60.0).unwrap();
        let ran = battle.world().frame().0 - before;
        assert!(ran <= 1, "at most one logic frame falls due in a 60th of a second");
        assert_eq!(flushes.load(Ordering::Relaxed) - exchanges, 1, "one exchange in drawn frame {drawn}");
        tried += ran;
    }
    assert!((58..=60).contains(&tried), "{tried} logic frames ran in two seconds");
    // A drawn frame that catches up three logic frames (a ninth of a second) exchanges once for each.
    for _ in 0..10 {
        b.session.step().unwrap();
    }
    let (before, exchanges) = (battle.world().frame().0, flushes.load(Ordering::Relaxed));
    battle.advance(0.11).unwrap();
    let ran = battle.world().frame().0 - before;
    assert!(ran >= 3, "a ninth of a second runs three frames, ran {ran}");
    assert_eq!(flushes.load(Ordering::Relaxed) - exchanges, ran, "one exchange per logic frame run");
}

/// Two machines running as fast as they go, each run of ready frames exchanging once
/// (`batch_exchanges`) and sending what it held back when it stops: the same game, frame for
/// frame, as exchanging after every frame, in at most half the exchanges.
#[test]
fn unpaced_machines_that_batch_their_exchanges_play_the_same_game_in_fewer() {
    use ridgeline::net::ControlTransport;
    use std::sync::atomic::Ordering;
    let setup = two_machines(SlotKind::Scripted);
    let run = |batch: u32| {
        let mut ends = hub(2);
        let mut b = on_machine(&setup, 1, ends.pop().unwrap());
        let flushes = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
        let end: Box<dyn ControlTransport> = Box::new(Counted { end: ends.pop().unwrap(), flushes: flushes.clone() });
        let mut a = prepare(&common::roots(), &setup, &common::opening(), 0).expect("prepares").into_match(end);
        a.session.batch_exchanges(batch);
        b.session.batch_exchanges(batch);
        // Each machine in turn runs every frame it can, as an unpaced machine does, and sends
        // what it held back once it has run its 400 frames (the other may still need it).
        for _ in 0..5_000 {
            let mut left = 0;
            for m in [&mut a, &mut b] {
                while m.session.world().frame().0 < 400 && matches!(m.session.step().unwrap(), Step::Ticked { .. }) {}
                if m.session.world().frame().0 == 400 {
                    m.session.send_unsent().unwrap();
                } else {
                    left += 1;
                }
            }
            if left == 0 {
                break;
            }
        }
        assert_eq!((a.session.world().frame(), b.session.world().frame()), (Frame(400), Frame(400)));
        assert_eq!(a.session.stream().hash_log(), b.session.stream().hash_log(), "the machines agree");
        (a.session.stream().hash_log().to_vec(), flushes.load(Ordering::Relaxed))
    };
    let (every, each_frame) = run(1);
    let (batched, fewer) = run(15);
    assert_eq!(every.len(), 400);
    assert_eq!(batched, every, "batching changes when messages leave, not the game");
    assert!(each_frame >= 400, "{each_frame} exchanges for 400 frames, one a frame");
    assert!(fewer * 2 <= each_frame, "{fewer} batched exchanges against {each_frame}");
}
