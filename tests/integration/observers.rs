//! Observers over the in-memory hub: a machine with no players of its own runs the whole game
//! from the players' confirmed frames, gives no orders, and is never waited for. One that stops
//! reading for ten seconds' worth of frames stalls no player and then catches up to the same
//! hash log; one that joins at frame 5,000 runs the history and ends with the players' log; a
//! command it forges is refused naming it. A skirmish whose player watches (the Observer seat)
//! while computers play runs to its end. Frame counts stand for time: no clock is read. Over
//! real QUIC on loopback (127.0.0.1, bounded processes): an observer there before the start and
//! one joining the running game both end with the players' hash log.

use crate::common;
use crate::common::procs::{finish, finish_in_sync, host, join, last_json, read, wait_for, wait_for_frame};

use std::time::Duration;

use glam::Vec2;
use ridgeline::game::battle::Battle;
use ridgeline::game::shell::{SkirmishConfig, SlotChoice};
use ridgeline::lockstep::{Message, PeerId, Transport};
use ridgeline::net::wire::WireMessage;
use ridgeline::net::{ControlTransport, MemoryEndpoint, hub};
use ridgeline::online::{Catcher, history};
use ridgeline::session::start::{LocalMatch, prepare};
use ridgeline::session::{MatchSetup, SlotKind, SlotSetup, Step};
use ridgeline::sim::command::{Command, StampedCommand};
use ridgeline::sim::{CommandId, Frame, PlayerId};

/// Frames in ten seconds of game time.
const TEN_SECONDS: u32 = 300;

/// Two scripted players, on machines 0 and 1, playing the opening; machine 2 watches.
fn two_players() -> MatchSetup {
    let on = |machine| SlotSetup { machine: Some(machine), ..SlotSetup::new(SlotKind::Scripted) };
    MatchSetup {
        map: "proving_grounds".into(),
        seed: 7,
        slots: vec![on(0), on(1)],
        run_ahead: None,
        map_hash: None,
        content_hash: None,
    }
}

fn on_machine(setup: &MatchSetup, machine: u8, end: MemoryEndpoint) -> LocalMatch {
    let p = prepare(&common::roots(), setup, &common::opening(), machine).expect("prepares");
    let end: Box<dyn ControlTransport> = Box::new(end);
    p.into_match(end)
}

/// Steps both players until each has run `to` frames; every step a player makes either runs a
/// frame or waits for the other (bounded, so a stall fails the test instead of hanging it).
fn players_to(a: &mut LocalMatch, b: &mut LocalMatch, to: u32) {
    for _ in 0..(to * 8).max(1_000) {
        let (fa, fb) = (a.session.world().frame().0, b.session.world().frame().0);
        if fa >= to && fb >= to {
            return;
        }
        if fa < to {
            a.session.step().expect("player a steps");
        }
        if fb < to {
            b.session.step().expect("player b steps");
        }
    }
    panic!("the players stalled at frames {} and {}", a.session.world().frame().0, b.session.world().frame().0);
}

/// Steps the observer until it has run `to` frames; returns how many of its steps waited.
fn watch_to(o: &mut LocalMatch, to: u32) -> u32 {
    let mut waited = 0;
    for _ in 0..(to * 8).max(1_000) {
        if o.session.world().frame().0 >= to {
            return waited;
        }
        match o.session.step().expect("the observer steps") {
            Step::Ticked { .. } => {}
            Step::Waiting | Step::Paused => waited += 1,
        }
    }
    panic!("the observer stalled at frame {}: {:?}", o.session.world().frame().0, o.session.stream().errors());
}

#[test]
fn an_observer_that_stops_reading_for_ten_seconds_stalls_no_player_and_catches_up() {
    let setup = two_players();
    let mut ends = hub(3);
    let mut o = on_machine(&setup, 2, ends.pop().unwrap());
    let mut b = on_machine(&setup, 1, ends.pop().unwrap());
    let mut a = on_machine(&setup, 0, ends.pop().unwrap());
    assert!(o.session.stream().is_watching() && o.human.is_none() && o.session.controllers().is_empty());
    assert!(!a.session.stream().is_watching());
    players_to(&mut a, &mut b, 60);
    watch_to(&mut o, 60);
    // The observer reads nothing while the players play on for ten seconds and more.
    let stop = o.session.world().frame().0;
    players_to(&mut a, &mut b, stop + TEN_SECONDS + 200);
    assert_eq!(o.session.world().frame().0, stop, "the observer ran nothing meanwhile");
    // It reads again: what is past its window waits in order, and it runs frames as fast as
    // they are ready, never waiting, until it is where the players are.
    o.session.pump().unwrap();
    assert!(o.session.backlog() > 0, "messages past the observer's window were held, not refused");
    let end = a.session.world().frame().0;
    assert_eq!(watch_to(&mut o, end), 0, "everything it needed had come");
    assert_eq!(o.session.backlog(), 0);
    assert!(o.session.stream().errors().is_empty(), "{:?}", o.session.stream().errors());
    assert!(o.session.stream().desync().is_none());
    assert_eq!(o.session.stream().hash_log(), &a.session.stream().hash_log()[..end as usize]);
    assert_eq!(a.session.stream().hash_log(), b.session.stream().hash_log());
    // It compared the players' hashes with its own and sent none of its own.
    a.session.pump().unwrap();
    assert_eq!(a.session.violations().refused(PeerId(2)), 0);
}

#[test]
fn an_observers_command_is_refused_by_the_players_naming_it() {
    let setup = two_players();
    let mut ends = hub(3);
    let mut o = on_machine(&setup, 2, ends.pop().unwrap());
    let mut b = on_machine(&setup, 1, ends.pop().unwrap());
    let mut a = on_machine(&setup, 0, ends.pop().unwrap());
    // Its own stream stamps nothing: it has no player.
    let refused = o.session.submit_local(PlayerId(0), Command::Stop).unwrap_err();
    assert!(refused.to_string().contains("player 0"), "{refused}");
    // A forged one, sent past the stream, is refused by each player and counted against it.
    let forged = StampedCommand { frame: Frame(20), player: PlayerId(0), id: CommandId(900), command: Command::Stop };
    o.session.transport_mut().send(&Message::Command(forged)).unwrap();
    players_to(&mut a, &mut b, 120);
    watch_to(&mut o, 120);
    assert_eq!(b.session.violations().refused(PeerId(2)), 1);
    assert_eq!(a.session.violations().refused(PeerId(2)), 1);
    let said = format!("{:?}", a.session.violations());
    assert!(said.contains("spoke for player 0, which it does not own (frame 20)"), "{said}");
    assert!(!a.log.borrow().iter().any(|e| e.frame == 20 && e.command == Command::Stop && e.player == 0));
    assert_eq!(o.session.stream().hash_log(), a.session.stream().hash_log());
}

#[test]
fn an_observer_joining_at_frame_5000_runs_the_history_and_ends_with_the_players_hash_log() {
    let setup = two_players();
    let mut ends = hub(3);
    let mut o_end = ends.pop().unwrap();
    let mut b = on_machine(&setup, 1, ends.pop().unwrap());
    let mut a = on_machine(&setup, 0, ends.pop().unwrap());
    players_to(&mut a, &mut b, 5_000);
    // The observer connects now: nothing sent before reached it.
    while o_end.receive().unwrap().is_some() {}
    while o_end.take_control().is_some() {}
    // As the host does for a machine coming back: it goes live far enough ahead that every
    // message for its live frames is sent after it connected, and the history covers the rest.
    let run_ahead = a.session.stream().run_ahead();
    let live = Frame(a.session.world().frame().0 + 2 * run_ahead + 15);
    players_to(&mut a, &mut b, live.0);
    let hashes = a.session.stream().hash_log().to_vec();
    let checkpoints: Vec<(Frame, u64)> = hashes.iter().filter(|(f, _)| f.0 % 300 == 0).copied().collect();
    let mut catcher = Catcher::new(prepare(&common::roots(), &setup, &common::opening(), 2).unwrap());
    for m in history(&a.log.borrow(), live, checkpoints) {
        let WireMessage::History { through, commands, checkpoints } = m else { panic!("{m:?}") };
        catcher.take(through, commands, checkpoints).unwrap();
    }
    catcher.run().expect("every checkpoint agrees");
    // A way in that missed the first stretch is refused, not run on from a wrong state.
    let mut missed = Catcher::new(prepare(&common::roots(), &setup, &common::opening(), 2).unwrap());
    let later: Vec<_> = a.log.borrow().iter().filter(|e| e.frame >= 300).cloned().collect();
    let Some(WireMessage::History { through, commands, .. }) = history(&later, live, Vec::new()).pop() else {
        panic!("a history")
    };
    assert!(missed.take(through, commands, Vec::new()).is_err());
    assert!(catcher.caught_up() && catcher.frame() == live);
    let (prepared, prelude) = catcher.finish();
    let end: Box<dyn ControlTransport> = Box::new(o_end);
    let mut o = prepared.into_rejoined_match(end, run_ahead);
    // The players went on meanwhile; the observer catches up and keeps up.
    players_to(&mut a, &mut b, live.0 + 400);
    watch_to(&mut o, live.0 + 400);
    let mut seen: Vec<(Frame, u64)> = prelude.iter().map(|&(f, h)| (Frame(f), h)).collect();
    seen.extend_from_slice(o.session.stream().hash_log());
    assert_eq!(seen.len(), live.0 as usize + 400);
    assert_eq!(seen, a.session.stream().hash_log()[..seen.len()]);
    assert!(o.session.stream().desync().is_none() && o.session.stream().errors().is_empty());
}

#[test]
fn a_skirmish_of_computers_watched_from_the_observer_seat_runs_to_its_end() {
    // The skirmish setup: the player's row set to Observer, a brutal and an easy computer below
    // it, on a map with two starts (the observer's row takes none).
    let mut cfg = SkirmishConfig::default();
    cfg.slots[0].who = SlotChoice::Observer;
    cfg.slots[1].who = SlotChoice::Computer(3);
    cfg.slots[2].who = SlotChoice::Computer(0);
    assert!(cfg.fits(2, 2) && !cfg.fits(3, 2), "the observer's row leaves room for two computers");
    assert_eq!((cfg.open_slots(), cfg.local_seats()), (2, 1));
    let setup = cfg.to_match_setup("proving_grounds", 2, &common::playable(), "Ava", 3);
    assert_eq!(setup.slots.len(), 2);
    assert!(setup.slots.iter().all(|s| matches!(s.kind, SlotKind::Ai { .. })), "{:?}", setup.slots);
    let mut battle = Battle::start(&common::roots(), &setup, Vec2::new(640.0, 360.0)).unwrap();
    assert!(battle.play().watches() && battle.play().observes());
    assert_eq!(battle.view_label(), "Everything");
    assert!(battle.look().commands().is_empty(), "an observer has no command buttons");
    // The view selector: each player's view in turn, then everything again.
    battle.cycle_view();
    assert!(!battle.sees_everything());
    battle.cycle_view();
    battle.cycle_view();
    assert_eq!(battle.view_label(), "Everything");
    while battle.play_mut().pace_mut().faster() {}
    for _ in 0..5_000 {
        if battle.play().finished() {
            break;
        }
        battle.advance(1.0).unwrap();
    }
    assert!(battle.play().finished(), "still running at frame {}", battle.world().frame().0);
    let winner = battle.world().winner().expect("one computer won");
    let (outcome, _) = battle.summary();
    assert!(outcome.contains(&battle.play().player_name(winner)), "{outcome}");
}

#[test]
fn observers_over_quic_before_the_start_and_into_the_running_game_end_with_the_players_hash_log() {
    let dir = common::temp_dir("observers-quic");
    let (early, late) = (dir.join("early"), dir.join("late"));
    for d in [&early, &late] {
        std::fs::create_dir_all(d).unwrap();
    }
    // Paced: 450 frames are 15 s. The host waits for its one remote player.
    let (mut h, code) =
        host(&["--map", "crossroads", "--players", "ai:normal,remote", "--frames", "450", "--seed", "5"], &dir);
    // An observer before the start takes no slot: the host still waits for Ben.
    let mut first = join(&code, &["--watch"], &early);
    wait_for(&dir.join("host.err"), "watches", Duration::from_secs(30));
    let mut ben = join(&code, &["--controller", "ai:hard"], &dir);
    // Another joins the running game at its third second: the history, then live.
    wait_for_frame(&dir.join("host.err"), 90, Duration::from_secs(60));
    let mut second = join(&code, &["--watch"], &late);
    let players = finish_in_sync(&mut h, &mut ben, &dir, Duration::from_secs(90), 450);
    for (p, d) in [(&mut first, &early), (&mut second, &late)] {
        assert_eq!(finish(p, Duration::from_secs(60)), Some(0), "{}", read(d.join("join.err")));
        assert!(read(d.join("join.log")) == players, "an observer's hash log differs from the players'");
        assert_eq!(last_json(&d.join("join.out"))["desync"], serde_json::Value::Null);
    }
    let hosted = last_json(&dir.join("host.out"));
    assert_eq!(hosted["left"], serde_json::json!([]), "observers leaving is nobody leaving: {hosted}");
}

#[test]
fn the_windows_watch_button_joins_a_running_online_game_and_keeps_up_with_it() {
    use ridgeline::game::online_lobby::{OnlineLobby, Outcome};
    use ridgeline::game::shell::LobbyState;
    use ridgeline::net::nat::Reach;
    use ridgeline::net::wire::Seat;
    use ridgeline::online::Identity;
    use ridgeline::online::lobby::LobbyChange;
    let roots = common::roots();
    let screen = Vec2::new(640.0, 360.0);
    // Ava hosts on loopback against a computer and plays two seconds.
    let bind = "127.0.0.1:0".parse().unwrap();
    let mut lobby = OnlineLobby::host(&roots, bind, "Ava", "proving_grounds", 2, Reach::default()).unwrap();
    let code = lobby.code().unwrap().to_string();
    let mut shown = LobbyState::default();
    lobby.change(&LobbyChange::Seat(1, Seat::Ai(1)), &mut shown).unwrap();
    let Ok(Outcome::Started(game, seats)) = lobby.start(&roots) else { panic!("the host starts") };
    let mut ava = Battle::from_match(&roots, *game, screen).unwrap();
    ava.play_mut().set_online(seats);
    let step = |b: &mut Battle| b.advance(1.0 / 30.0 + 1e-4).unwrap();
    for _ in 0..60 {
        step(&mut ava);
    }
    // Cid presses Watch with her code: his lobby catches up with the running game.
    let mut watching = OnlineLobby::watch(&roots, &code, "Cid", &Identity::fresh().unwrap()).unwrap();
    let mut cid_shown = LobbyState::default();
    let mut guard = 0;
    let game = loop {
        guard += 1;
        assert!(guard < 10_000, "never started: {:?}", cid_shown.chat());
        step(&mut ava);
        match watching.poll(&roots, &mut cid_shown) {
            Outcome::Waiting => std::thread::sleep(Duration::from_millis(2)),
            Outcome::Started(game, _) => break game,
            Outcome::Closed(why) => panic!("closed: {why:?}"),
        }
    };
    assert!(cid_shown.chat().iter().any(|l| l.contains("catching up to watch")), "{:?}", cid_shown.chat());
    let mut cid = Battle::from_match(&roots, *game, screen).unwrap();
    cid.play_mut().set_online(ridgeline::online::Seats::default());
    cid.observe();
    assert!(cid.play().observes() && cid.sees_everything() && cid.look().commands().is_empty());
    assert!(cid.world().frame().0 > 60, "it starts where the game is");
    // Ava never waits for him; he keeps up and sees her game's very state.
    for _ in 0..200 {
        step(&mut ava);
        step(&mut cid);
        assert_eq!(ava.play().waiting_for(), None);
        std::thread::sleep(Duration::from_millis(1));
    }
    for _ in 0..10_000 {
        if cid.world().frame() >= ava.world().frame() {
            break;
        }
        step(&mut cid);
        std::thread::sleep(Duration::from_millis(1));
    }
    while ava.world().frame() < cid.world().frame() {
        step(&mut ava);
    }
    assert_eq!(cid.world().frame(), ava.world().frame());
    assert_eq!(cid.world().state_hash(), ava.world().state_hash());
    assert_eq!(cid.play().online().and_then(|o| o.desync_frame()), None);
}

/// A skirmish watched from the Observer row: a normal and an easy computer on Proving Grounds.
fn watched_normal_and_easy() -> Battle {
    let mut cfg = SkirmishConfig::default();
    cfg.slots[0].who = SlotChoice::Observer;
    cfg.slots[1].who = SlotChoice::Computer(1);
    cfg.slots[2].who = SlotChoice::Computer(0);
    let setup = cfg.to_match_setup("proving_grounds", 2, &common::playable(), "Ava", 3);
    Battle::start(&common::roots(), &setup, Vec2::new(640.0, 360.0)).unwrap()
}

/// Watching a skirmish of computers, the pause and speed keys work as in any skirmish: the
/// game stops after P and runs again after a second P, and + raises the stream's speed.
#[test]
fn watching_computers_in_a_skirmish_the_pause_and_speed_keys_work() {
    use ridgeline::game::keys::KeyCommand;
    let mut battle = watched_normal_and_easy();
    assert!(battle.play().observes());
    common::run_for(&mut battle, 1.0);
    let speed = battle.play().pace().speed();
    battle.controls().give(KeyCommand::Faster);
    common::run_for(&mut battle, 1.0);
    assert!(battle.play().pace().speed() > speed, "+ made the game faster");
    battle.controls().give(KeyCommand::Pause);
    common::run_for(&mut battle, 1.0);
    let paused_at = battle.world().frame().0;
    common::run_for(&mut battle, 2.0);
    assert_eq!(battle.world().frame().0, paused_at, "P paused the game");
    battle.controls().give(KeyCommand::Pause);
    common::run_for(&mut battle, 1.0);
    assert!(battle.world().frame().0 > paused_at, "a second P resumed it");
}

/// A watcher choosing a player's view is shown that player's base: the camera goes to the
/// home of the player chosen, each in turn.
#[test]
fn choosing_a_players_view_takes_the_camera_to_their_base() {
    let mut battle = watched_normal_and_easy();
    common::run_for(&mut battle, 0.5);
    // Each player's first structure (its headquarters), where the world has it.
    let post = |b: &Battle, p: u8| -> Vec2 {
        let world = b.world();
        let o = world
            .objects()
            .find(|o| o.owner == ridgeline::sim::PlayerId(p) && !world.rules().template(o.template).is_mobile())
            .expect("a headquarters");
        ridgeline::game::scene::to_display(o.pos)
    };
    let (first, second) = (post(&battle, 0), post(&battle, 1));
    let at = |b: &Battle| {
        let t = b.picture().camera().target;
        Vec2::new(t.x, t.y)
    };
    battle.cycle_view(); // the first player's view
    assert!(at(&battle).distance(first) < at(&battle).distance(second) / 3.0, "over the first base");
    battle.cycle_view(); // the second's
    assert!(at(&battle).distance(second) < at(&battle).distance(first) / 3.0, "over the second base");
}
