//! The window's online lobby, two machines in one process over loopback QUIC: the joiner is
//! welcomed and sees the roster, chat goes both ways, the host cannot start until the joiner
//! is ready, and then both hold the same started match; a joiner with other data is refused
//! naming the file, and the host's lobby says so.

use crate::common;

use std::time::{Duration, Instant};

use ridgeline::game::online_lobby::{OnlineLobby, Outcome, READY_CLEARED, Said};
use ridgeline::game::shell::LobbyState;
use ridgeline::net::nat::{PathKind, Reach};
use ridgeline::net::wire::Seat;
use ridgeline::online::Identity;

/// Polls both lobbies until `done` holds (at most ten seconds); the outcomes that were not
/// `Waiting` are returned.
fn poll_until(
    host: &mut OnlineLobby,
    join: &mut OnlineLobby,
    shown: &mut (LobbyState, LobbyState),
    done: impl Fn(&(LobbyState, LobbyState)) -> bool,
) -> (Option<Outcome>, Option<Outcome>) {
    let roots = common::roots();
    let until = Instant::now() + Duration::from_secs(10);
    while Instant::now() < until {
        let a = host.poll(&roots, &mut shown.0);
        let b = join.poll(&roots, &mut shown.1);
        let (a, b) = ((!matches!(a, Outcome::Waiting)).then_some(a), (!matches!(b, Outcome::Waiting)).then_some(b));
        if a.is_some() || b.is_some() || done(shown) {
            return (a, b);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("the lobbies never got there: {shown:?}");
}

/// Players seated in what a lobby shows.
fn seated(shown: &LobbyState) -> usize {
    shown.roster.slots.iter().filter(|s| matches!(s.seat, Seat::Player(_))).count()
}

/// Ava hosts a two-player game on Proving Grounds on loopback.
fn ava_hosts() -> OnlineLobby {
    OnlineLobby::host(&common::roots(), "127.0.0.1:0".parse().unwrap(), "Ava", "proving_grounds", 2, Reach::default())
        .unwrap()
}

/// Ava hosts on loopback and Ben joins with her code; returns both lobbies once each shows
/// two players, and what each shows.
fn met() -> (OnlineLobby, OnlineLobby, (LobbyState, LobbyState)) {
    met_as(&Identity::fresh().unwrap())
}

/// [`met`], Ben joining as `ben`.
fn met_as(ben: &Identity) -> (OnlineLobby, OnlineLobby, (LobbyState, LobbyState)) {
    let roots = common::roots();
    let mut host = ava_hosts();
    let code = host.code().unwrap().to_string();
    let mut join = OnlineLobby::join(&roots, &code, "Ben", ben).unwrap();
    let mut shown = (LobbyState::default(), LobbyState::default());
    poll_until(&mut host, &mut join, &mut shown, |s| seated(&s.1) == 2);
    (host, join, shown)
}

#[test]
fn through_a_relay_the_lobby_shows_each_player_s_path_and_ping() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let roots = common::roots();
    let socket = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let relay = socket.local_addr().unwrap();
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let serving = {
        let stop = stop.clone();
        let state = ridgeline::relay::Relay::new(Default::default(), [5; 32], Instant::now());
        std::thread::spawn(move || ridgeline::relay::serve(&socket, state, &stop, |_, _| {}))
    };
    let reach = Reach { relay: Some(relay), punch: true };
    // As the window hosts: at once, the code arriving with a later poll once the relay has
    // given a room (the window never waits on the relay).
    let mut host =
        OnlineLobby::host_in_background(&roots, "127.0.0.1:0".parse().unwrap(), "Ava", "proving_grounds", 2, reach)
            .unwrap();
    let mut host_shown = LobbyState::default();
    let until = Instant::now() + Duration::from_secs(10);
    let code = loop {
        assert!(Instant::now() < until, "no room from the relay");
        assert!(matches!(host.poll(&roots, &mut host_shown), Outcome::Waiting));
        if let Some(code) = host.take_new_code() {
            break code.to_string();
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    assert!(host.take_new_code().is_none(), "the new code is given once");
    assert_eq!(host.code().map(|c| c.to_string()), Some(code.clone()));
    assert!(code.starts_with(&format!("rl1@{relay}/")), "{code}");
    let mut join = OnlineLobby::join(&roots, &code, "Ben", &Identity::fresh().unwrap()).unwrap();
    let mut shown = (LobbyState::default(), LobbyState::default());
    // Loopback lets the punches through: Ben's row soon says direct, on both machines.
    poll_until(&mut host, &mut join, &mut shown, |s| {
        s.1.roster.slots.get(1).is_some_and(|b| b.path == PathKind::Direct && matches!(b.seat, Seat::Player(_)))
    });
    assert_eq!(shown.0.roster.slots[1].path, PathKind::Direct);
    assert_eq!(shown.0.roster.slots[1].name, "Ben");
    drop((host, join));
    stop.store(true, Ordering::Relaxed);
    serving.join().unwrap().unwrap();
}

#[test]
fn two_players_meet_chat_ready_up_and_start_the_same_match() {
    let roots = common::roots();
    let (mut host, mut join, mut shown) = met();
    assert_eq!(shown.1.roster.slots[0].name, "Ava");
    assert_eq!(shown.1.roster.slots[1].name, "Ben");
    assert_eq!(shown.1.roster.map, "proving_grounds");
    assert!(shown.0.chat().iter().any(|l| l == "Ben joined."), "{:?}", shown.0.chat());
    join.chat("gl hf", &mut shown.1);
    poll_until(&mut host, &mut join, &mut shown, |s| s.0.chat().iter().any(|l| l == "Ben: gl hf"));
    host.chat("you too", &mut shown.0);
    poll_until(&mut host, &mut join, &mut shown, |s| s.1.chat().iter().any(|l| l == "Ava: you too"));
    // Not ready: the host cannot start.
    let early = host.start(&roots).err().expect("refused");
    assert_eq!(early.to_string(), "Ben is not ready.");
    join.set_ready(true);
    poll_until(&mut host, &mut join, &mut shown, |s| s.0.roster.slots[1].ready);
    let Ok(Outcome::Started(host_game, _)) = host.start(&roots) else { panic!("the host starts") };
    let (_, joined) = poll_until(&mut host, &mut join, &mut shown, |_| false);
    let Some(Outcome::Started(join_game, _)) = joined else { panic!("the joiner starts") };
    // One setup on both machines; each plays its own slot (the host's copy says Remote there).
    let mut theirs = join_game.setup.clone();
    theirs.slots[1].kind = ridgeline::session::SlotKind::Remote;
    assert_eq!(host_game.setup, theirs, "both machines play one setup");
    assert_eq!(host_game.session.world().state_hash(), join_game.session.world().state_hash());
    let names: Vec<_> = host_game.slots.iter().map(|s| (s.name.as_str(), s.machine)).collect();
    assert_eq!(names, [("Ava", 0), ("Ben", 1)]);
    assert_eq!(host_game.human.as_ref().map(|h| h.player.0), Some(0));
    assert_eq!(join_game.human.as_ref().map(|h| h.player.0), Some(1));
}

#[test]
fn a_joiner_with_other_data_is_refused_and_both_say_which_file() {
    let dir = common::temp_dir("lobby-mismatch");
    std::fs::create_dir_all(dir.join("data")).unwrap();
    let weapons = std::fs::read_to_string(common::root().join("data/weapons.ron")).unwrap();
    std::fs::write(dir.join("data/weapons.ron"), format!("{weapons}\n// a balance mod\n")).unwrap();
    let modded = ridgeline::content::ContentRoots::new(vec![dir, common::root()]);
    let mut host = ava_hosts();
    let code = host.code().unwrap().to_string();
    let mut join = OnlineLobby::join(&modded, &code, "Ben", &Identity::fresh().unwrap()).unwrap();
    let mut shown = (LobbyState::default(), LobbyState::default());
    let (_, closed) = poll_until(&mut host, &mut join, &mut shown, |_| false);
    let Some(Outcome::Closed(Said { detail: reason, .. })) = closed else { panic!("the joiner is refused") };
    assert!(reason.contains("data/weapons.ron"), "{reason}");
    poll_until(&mut host, &mut join, &mut shown, |s| s.0.chat().iter().any(|l| l.contains("data/weapons.ron")));
}

#[test]
fn a_join_code_with_another_certificate_is_refused_without_freezing_the_window() {
    let roots = common::roots();
    let mut host = ava_hosts();
    // The right address, but a certificate fingerprint that is not the host's: someone in the
    // middle would look like this.
    let mut code = host.code().unwrap();
    code.fingerprint[0] ^= 0xff;
    // Joining returns at once; the refusal arrives while the lobby is polled.
    let mut join = OnlineLobby::join(&roots, &code.to_string(), "Mallory", &Identity::fresh().unwrap()).unwrap();
    let mut shown = (LobbyState::default(), LobbyState::default());
    let (_, closed) = poll_until(&mut host, &mut join, &mut shown, |_| false);
    let Some(Outcome::Closed(Said { detail: reason, .. })) = closed else { panic!("the joiner gives up") };
    assert!(reason.starts_with("Could not reach the host"), "{reason}");
    assert!(reason.contains("certificate"), "the reason names the certificate: {reason}");
    assert_eq!(seated(&shown.0), 1, "nobody joined the host");
}

type Joined = Box<ridgeline::session::start::LocalMatch>;

/// Two lobbies met and started: the host's battle, and the joiner's match with its transport.
fn started() -> (ridgeline::game::battle::Battle, Joined) {
    let (battle, joined, _) = started_as(&Identity::fresh().unwrap());
    (battle, joined)
}

/// [`started`], Ben joining as `ben`; the join code too.
fn started_as(ben: &Identity) -> (ridgeline::game::battle::Battle, Joined, String) {
    let roots = common::roots();
    let (mut host, mut join, mut shown) = met_as(ben);
    let code = host.code().unwrap().to_string();
    join.set_ready(true);
    poll_until(&mut host, &mut join, &mut shown, |s| s.0.roster.slots[1].ready);
    let Ok(Outcome::Started(host_game, seats)) = host.start(&roots) else { panic!("the host starts") };
    let (_, joined) = poll_until(&mut host, &mut join, &mut shown, |_| false);
    let Some(Outcome::Started(join_game, _)) = joined else { panic!("the joiner starts") };
    let mut battle =
        ridgeline::game::battle::Battle::from_match(&roots, *host_game, glam::Vec2::new(640.0, 360.0)).unwrap();
    battle.play_mut().set_online(seats);
    (battle, join_game, code)
}

/// The joiner's battle over its own transport.
fn battle_of(game: Joined) -> ridgeline::game::battle::Battle {
    let mut b =
        ridgeline::game::battle::Battle::from_match(&common::roots(), *game, glam::Vec2::new(640.0, 360.0)).unwrap();
    b.play_mut().set_online(ridgeline::online::Seats::default());
    b
}

#[test]
fn the_host_drops_a_player_it_waits_for_and_plays_on() {
    let (mut b, _silent) = started();
    // The joiner's machine says nothing more: after the first frames the host waits.
    for _ in 0..60 {
        b.advance(0.25).unwrap();
    }
    let stuck = b.world().frame().0;
    assert!(stuck <= 4, "game time stands still while waiting: frame {stuck}");
    assert!(b.play().online().is_some_and(|o| o.hosting()));
    assert!(
        b.play().online().map_or(0.0, |o| o.stalled_for()) >= 10.0,
        "waited {}",
        b.play().online().map_or(0.0, |o| o.stalled_for())
    );
    assert_eq!(b.play().waiting_for().as_deref(), Some("Ben"));
    b.drop_stalled();
    for _ in 0..30 {
        b.advance(1.0 / 30.0 + 1e-4).unwrap();
    }
    assert!(b.world().frame().0 >= stuck + 25, "the host plays on: frame {}", b.world().frame().0);
    assert_eq!(b.play().waiting_for(), None);
    assert!(b.queue_text().starts_with("Ben "), "the control bar says what became of Ben: {}", b.queue_text());
    assert!(b.alert_lines().iter().any(|l| l.ends_with("Ben was dropped.")), "{:?}", b.alert_lines());
}

#[test]
fn players_chat_during_an_online_battle() {
    let (mut host, joined) = started();
    let mut join = battle_of(joined);
    let texts = |b: &ridgeline::game::battle::Battle| -> Vec<String> {
        b.overlay()
            .into_iter()
            .filter_map(|c| match c {
                ridgeline::ui::draw::DrawCmd::Text { text, .. } => Some(text),
                _ => None,
            })
            .collect()
    };
    // Enter opens a line on the host; typing shows; Enter sends.
    assert!(host.play_mut().chat_key(ridgeline::ui::Key::Enter));
    for c in "gl hf".chars() {
        host.play_mut().chat_char(c);
    }
    assert!(texts(&host).contains(&"Say: gl hf_".to_string()), "{:?}", texts(&host));
    assert!(host.play_mut().chat_key(ridgeline::ui::Key::Enter));
    assert!(!host.play().online().is_some_and(|o| o.chat_open()));
    assert!(texts(&host).contains(&"Ava: gl hf".to_string()), "{:?}", texts(&host));
    // Both battles run; the line reaches the joiner, and the joiner's answer reaches the host.
    for _ in 0..30 {
        host.advance(1.0 / 30.0 + 1e-4).unwrap();
        join.advance(1.0 / 30.0 + 1e-4).unwrap();
        // Real time for the lines to travel over loopback.
        std::thread::sleep(std::time::Duration::from_millis(3));
    }
    assert!(texts(&join).contains(&"Ava: gl hf".to_string()), "{:?}", texts(&join));
    join.play_mut().chat_key(ridgeline::ui::Key::Enter);
    for c in "you too".chars() {
        join.play_mut().chat_char(c);
    }
    join.play_mut().chat_key(ridgeline::ui::Key::Enter);
    for _ in 0..30 {
        host.advance(1.0 / 30.0 + 1e-4).unwrap();
        join.advance(1.0 / 30.0 + 1e-4).unwrap();
        // Real time for the lines to travel over loopback.
        std::thread::sleep(std::time::Duration::from_millis(3));
    }
    assert!(texts(&host).contains(&"Ben: you too".to_string()), "{:?}", texts(&host));
    assert!(host.world().frame().0 > 40 && join.world().frame().0 > 40);
    // Escape closes an open line without sending it.
    assert!(host.play_mut().chat_key(ridgeline::ui::Key::Enter));
    host.play_mut().chat_char('x');
    assert!(host.play_mut().chat_key(ridgeline::ui::Key::Escape));
    assert!(!texts(&host).iter().any(|t| t.contains("Ava: x")));
}

#[test]
fn the_host_sets_slots_teams_and_money_and_each_player_chooses_their_own_side() {
    use ridgeline::online::lobby::LobbyChange;
    use ridgeline::session::{Difficulty, SlotKind};
    let roots = common::roots();
    let mut host =
        OnlineLobby::host(&roots, "127.0.0.1:0".parse().unwrap(), "Ava", "four_corners", 4, Reach::default()).unwrap();
    let code = host.code().unwrap().to_string();
    let mut join = OnlineLobby::join(&roots, &code, "Ben", &Identity::fresh().unwrap()).unwrap();
    let mut shown = (LobbyState::hosting(0, String::new()), LobbyState::default());
    poll_until(&mut host, &mut join, &mut shown, |s| seated(&s.1) == 2);
    assert_eq!(shown.1.roster.slots.len(), 4, "a slot per start position");
    // The host: a hard computer in slot 3, slot 4 closed, Ava and the computer on team 1,
    // $20,000.
    for c in [
        LobbyChange::Seat(2, Seat::Ai(2)),
        LobbyChange::Seat(3, Seat::Closed),
        LobbyChange::Team(0, 1),
        LobbyChange::Team(2, 1),
        LobbyChange::Money(2),
    ] {
        host.change(&c, &mut shown.0).unwrap();
    }
    // A joiner cannot set slots; the refusal is in words and nothing is sent.
    assert_eq!(
        join.change(&LobbyChange::Seat(2, Seat::Open), &mut shown.1),
        Err(Said::quoted("Only the host can change that."))
    );
    poll_until(&mut host, &mut join, &mut shown, |s| s.1.roster.slots[2].seat == Seat::Ai(2) && s.1.roster.money == 2);
    // Ben switches to Ava's faction (two players may share one) and asks for her colour: the
    // faction is taken, the colour refused with a line in his chat.
    let ava_colour = shown.1.roster.slots[0].colour;
    let other_faction = shown.1.roster.slots[0].faction;
    assert_ne!(shown.1.roster.slots[1].faction, other_faction, "factions go in turn");
    join.change(&LobbyChange::Faction(1, other_faction), &mut shown.1).unwrap();
    poll_until(&mut host, &mut join, &mut shown, |s| s.1.roster.slots[1].faction == other_faction);
    join.change(&LobbyChange::Colour(1, ava_colour), &mut shown.1).unwrap();
    poll_until(&mut host, &mut join, &mut shown, |s| {
        s.1.chat().iter().any(|l| l.ends_with("is taken by another player"))
    });
    assert_ne!(shown.0.roster.slots[1].colour, ava_colour);
    let purple = 5;
    join.change(&LobbyChange::Colour(1, purple), &mut shown.1).unwrap();
    poll_until(&mut host, &mut join, &mut shown, |s| s.0.roster.slots[1].colour == purple);
    // Ready; then the host changes the money and Ben must say so again.
    join.set_ready(true);
    poll_until(&mut host, &mut join, &mut shown, |s| s.0.roster.slots[1].ready);
    host.change(&LobbyChange::Money(3), &mut shown.0).unwrap();
    poll_until(&mut host, &mut join, &mut shown, |s| !s.1.ready && s.1.roster.money == 3);
    assert!(shown.1.chat().iter().any(|l| l == READY_CLEARED), "Ben is told why: {:?}", shown.1.chat());
    assert_eq!(host.start(&roots).err().map(|e| e.to_string()).as_deref(), Some("Ben is not ready."));
    join.set_ready(true);
    poll_until(&mut host, &mut join, &mut shown, |s| s.0.roster.slots[1].ready);
    let Ok(Outcome::Started(host_game, _)) = host.start(&roots) else { panic!("the host starts") };
    let (_, joined) = poll_until(&mut host, &mut join, &mut shown, |_| false);
    let Some(Outcome::Started(join_game, _)) = joined else { panic!("the joiner starts") };
    let slots: Vec<_> =
        host_game.setup.slots.iter().map(|s| (s.kind, s.team, s.money, s.colour.clone(), s.machine)).collect();
    assert_eq!(
        slots,
        [
            (SlotKind::Human, Some(1), Some(50_000), Some("Blue".to_string()), Some(0)),
            (SlotKind::Remote, Some(2), Some(50_000), Some("Purple".to_string()), Some(1)),
            (SlotKind::Ai { difficulty: Difficulty::Hard }, Some(1), Some(50_000), Some("Green".to_string()), None),
            (SlotKind::Closed, Some(3), Some(50_000), Some("Yellow".to_string()), None),
        ]
    );
    assert_eq!(host_game.setup.slots[0].faction, host_game.setup.slots[1].faction, "Ben took Ava's side");
    assert_eq!(host_game.session.world().state_hash(), join_game.session.world().state_hash());
}

#[test]
fn the_host_removes_a_player_and_their_slot_opens() {
    use ridgeline::online::lobby::LobbyChange;
    let (mut host, mut join, mut shown) = met();
    host.change(&LobbyChange::Seat(1, Seat::Open), &mut shown.0).unwrap();
    let (_, closed) = poll_until(&mut host, &mut join, &mut shown, |_| false);
    let Some(Outcome::Closed(Said { detail: reason, .. })) = closed else { panic!("the joiner is told") };
    assert_eq!(reason, "The host removed you from the game.");
    assert!(shown.0.chat().iter().any(|l| l == "Ben was removed from the game."), "{:?}", shown.0.chat());
    assert_eq!(shown.0.roster.slots[1].seat, Seat::Open);
    assert_eq!(seated(&shown.0), 1);
}

#[test]
fn a_player_who_leaves_an_online_battle_surrenders_and_the_other_wins() {
    let (mut host, joined) = started();
    let mut join = battle_of(joined);
    assert!(join.play().is_online() && host.play().is_online());
    for _ in 0..10 {
        host.advance(1.0 / 30.0 + 1e-4).unwrap();
        join.advance(1.0 / 30.0 + 1e-4).unwrap();
    }
    // Ben gives up: not at once, but once the surrender has run on his machine.
    assert!(!join.play_mut().surrender(), "the surrender still has to run");
    let mut done = false;
    for _ in 0..300 {
        host.advance(1.0 / 30.0 + 1e-4).unwrap();
        join.advance(1.0 / 30.0 + 1e-4).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(2));
        done = join.play_mut().surrender();
        if done && host.world().is_over() {
            break;
        }
    }
    assert!(done, "the surrender ran on the joiner's machine");
    assert!(host.world().is_over(), "the host's game is over");
    assert_eq!(host.world().winner(), Some(host.local()), "and Ava won");
    assert_eq!(host.world().objects().filter(|o| o.owner == join.local()).count(), 0, "Ben's forces are gone");
    // Ben's window closes the battle: Ava is told he left.
    drop(join);
    let mut told = String::new();
    for _ in 0..200 {
        host.advance(1.0 / 30.0 + 1e-4).unwrap();
        told = host.queue_text();
        if told.contains("left") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(told, "Ben left the game.");
    assert!(host.alert_lines().iter().any(|l| l.ends_with("Ben left the game.")), "{:?}", host.alert_lines());
}

/// Steps both battles a drawn frame at a time until `done` holds (at most `frames` times).
fn both_until(
    a: &mut ridgeline::game::battle::Battle,
    b: &mut ridgeline::game::battle::Battle,
    frames: usize,
    done: impl Fn(&ridgeline::game::battle::Battle, &ridgeline::game::battle::Battle) -> bool,
) -> bool {
    for _ in 0..frames {
        a.advance(1.0 / 30.0 + 1e-4).unwrap();
        b.advance(1.0 / 30.0 + 1e-4).unwrap();
        if done(a, b) {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    false
}

#[test]
fn either_player_resumes_the_other_s_pause_and_both_play_on() {
    let (mut host, joined) = started();
    let mut join = battle_of(joined);
    assert!(both_until(&mut host, &mut join, 300, |h, j| h.world().frame().0 >= 10 && j.world().frame().0 >= 10));
    // Ava pauses; both machines stop after the same frame.
    host.controls().hotkey('p', false);
    assert!(
        both_until(&mut host, &mut join, 300, |h, j| h.play().pace().paused() && j.play().pace().paused()),
        "both paused"
    );
    let stopped = host.world().frame().0;
    assert_eq!(join.world().frame().0, stopped);
    // Ben resumes it: Ava's machine, which called the pause, must take the resume too.
    join.controls().hotkey('p', false);
    assert!(
        both_until(&mut host, &mut join, 600, |h, j| h.world().frame().0 >= stopped + 30
            && j.world().frame().0 >= stopped + 30),
        "both play on after Ben's resume: host at {}, joiner at {}",
        host.world().frame().0,
        join.world().frame().0
    );
    assert!(!host.play().pace().paused() && !join.play().pace().paused());
    // And the other way round: Ben pauses, Ava resumes.
    join.controls().hotkey('p', false);
    assert!(
        both_until(&mut host, &mut join, 300, |h, j| h.play().pace().paused() && j.play().pace().paused()),
        "both paused"
    );
    let stopped = join.world().frame().0;
    host.controls().hotkey('p', false);
    assert!(
        both_until(&mut host, &mut join, 600, |h, j| h.world().frame().0 >= stopped + 30
            && j.world().frame().0 >= stopped + 30),
        "both play on after Ava's resume"
    );
    assert_eq!(host.play().waiting_for(), None, "nobody was taken for a dropped player");
}

#[test]
fn a_player_whose_game_closed_joins_again_with_the_code_and_gets_the_seat_back() {
    let roots = common::roots();
    let ben = Identity::fresh().unwrap();
    let (mut host, joined, code) = started_as(&ben);
    let mut join = battle_of(joined);
    let step = |b: &mut ridgeline::game::battle::Battle| b.advance(1.0 / 30.0 + 1e-4).unwrap();
    for _ in 0..40 {
        step(&mut host);
        step(&mut join);
        std::thread::sleep(Duration::from_millis(2));
    }
    // Ben's game closes: the host plays on, and says he can come back.
    drop(join);
    let until = Instant::now() + Duration::from_secs(10);
    while !host.alert_lines().iter().any(|l| l.contains("Ben dropped")) {
        assert!(Instant::now() < until, "{:?}", host.alert_lines());
        step(&mut host);
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(
        host.alert_lines().iter().any(|l| l.ends_with("Ben dropped; their units hold. They can rejoin with the code.")),
        "{:?}",
        host.alert_lines()
    );
    let dropped_at = host.world().frame().0;
    // Ben opens the game again and joins with the same code: his lobby catches up and starts
    // the running match at the frame the host names.
    let mut lobby = OnlineLobby::join(&roots, &code, "Ben", &ben).unwrap();
    let mut shown = LobbyState::default();
    let until = Instant::now() + Duration::from_secs(20);
    let back = loop {
        assert!(Instant::now() < until, "never back: {:?}", shown.chat());
        step(&mut host);
        match lobby.poll(&roots, &mut shown) {
            Outcome::Waiting => {}
            Outcome::Started(game, _) => break game,
            Outcome::Closed(why) => panic!("closed: {why:?}"),
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    assert!(shown.chat().iter().any(|l| l.contains("taking your seat back")), "{:?}", shown.chat());
    let mut ben_again = battle_of(back);
    assert!(ben_again.world().frame().0 > dropped_at, "it starts where the game is, not at the start");
    for _ in 0..90 {
        step(&mut host);
        step(&mut ben_again);
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(host.alert_lines().iter().any(|l| l.ends_with("Ben is back.")), "{:?}", host.alert_lines());
    assert_eq!(host.play().waiting_for(), None);
    assert_eq!(
        (host.play().online().and_then(|o| o.desync_frame()), ben_again.play().online().and_then(|o| o.desync_frame())),
        (None, None)
    );
    // Both at one frame: one state.
    let until = Instant::now() + Duration::from_secs(10);
    while host.world().frame() != ben_again.world().frame() {
        assert!(Instant::now() < until);
        if host.world().frame() < ben_again.world().frame() {
            step(&mut host);
        } else {
            step(&mut ben_again);
        }
    }
    assert_eq!(host.world().state_hash(), ben_again.world().state_hash());
}

/// A joiner whose client was tampered with sends a chat line of a megabyte (the game's own
/// sends 120 characters at most): the host drops that batch as malformed — nothing of it
/// shows, nothing breaks — and the same joiner's next line arrives as usual.
#[test]
fn a_megabyte_chat_line_from_a_joiner_is_dropped_and_the_next_line_arrives() {
    use ridgeline::net::control::ControlTransport;
    use ridgeline::net::quic::QuicTransport;
    use ridgeline::net::wire::WireMessage;
    let roots = common::roots();
    let mut host = ava_hosts();
    let code = host.code().unwrap().to_string();
    let parsed = code.parse().unwrap();
    let hello = ridgeline::online::hello(&roots, "Ben", &Identity::fresh().unwrap(), &parsed).unwrap();
    let mut ben = QuicTransport::join(&parsed, Reach::default(), &hello).unwrap();
    let mut shown = LobbyState::default();
    let wait = |host: &mut OnlineLobby, shown: &mut LobbyState, line: &str| {
        let until = Instant::now() + Duration::from_secs(10);
        while !shown.chat().iter().any(|l| l == line) {
            assert!(Instant::now() < until, "never showed {line:?}: {:?}", shown.chat());
            host.poll(&roots, shown);
            std::thread::sleep(Duration::from_millis(5));
        }
    };
    wait(&mut host, &mut shown, "Ben joined.");
    let huge = "x".repeat(1_000_000);
    ben.send_control(None, &[WireMessage::Chat { from: "Ben".into(), text: huge }]).unwrap();
    ben.send_control(None, &[WireMessage::Chat { from: "Ben".into(), text: "gl hf".into() }]).unwrap();
    wait(&mut host, &mut shown, "Ben: gl hf");
    assert!(shown.chat().iter().all(|l| l.len() < 200), "no megabyte line shown: {} lines", shown.chat().len());
    assert_eq!(seated(&shown), 2, "Ben is still seated");
    assert_eq!(host.net_stats().malformed, 1, "the megabyte batch reached the host and was dropped there");
}

/// Three hundred connections that never become players — each refusing the host's certificate
/// — leave the lobby open: a friend who comes after them is seated. (Every attempt used to
/// take one of the host's 254 peer numbers for good.)
#[test]
fn connections_that_never_become_players_leave_the_lobby_open() {
    use ridgeline::net::quic::QuicTransport;
    let roots = common::roots();
    let mut host = ava_hosts();
    let mut shown = LobbyState::default();
    let mut wrong = host.code().unwrap();
    wrong.fingerprint[0] ^= 0xff;
    let hello = ridgeline::online::hello(&roots, "Mallory", &Identity::fresh().unwrap(), &wrong).unwrap();
    for i in 0..300 {
        assert!(QuicTransport::join(&wrong, Reach::default(), &hello).is_err(), "attempt {i} was let in");
        if i % 20 == 0 {
            host.poll(&roots, &mut shown);
        }
    }
    let code = host.code().unwrap().to_string();
    let mut join = OnlineLobby::join(&roots, &code, "Ben", &Identity::fresh().unwrap()).unwrap();
    let mut both = (shown, LobbyState::default());
    let (hosted, joined) = poll_until(&mut host, &mut join, &mut both, |s| seated(&s.1) == 2);
    if let Some(Outcome::Closed(why)) = joined {
        panic!("the friend was turned away: {why:?}");
    }
    assert!(hosted.is_none() && joined.is_none(), "the lobby goes on");
    assert!(both.0.chat().iter().any(|l| l == "Ben joined."), "{:?}", both.0.chat());
}

/// Connections from one machine that finish their handshake and then say nothing (half-open,
/// holding the host's attention) are let in sixteen at a time, the rest refused at once; a
/// friend from another address joins meanwhile, and the host drops the silent ones after ten
/// seconds.
#[test]
fn half_open_connections_from_one_machine_leave_room_for_a_friend_and_are_dropped() {
    use ridgeline::net::quic::io::{MAX_PENDING_PER_ADDRESS, STREAM_WITHIN};
    let roots = common::roots();
    let mut host = ava_hosts();
    let code = host.code().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let (endpoint, held, refused) = runtime.block_on(async {
        // Another loopback address: the flood comes from a machine of its own.
        let mut endpoint = quinn::Endpoint::client("127.0.0.2:0".parse().unwrap()).unwrap();
        endpoint.set_default_client_config(ridgeline::net::quic::tls::client_config(code.fingerprint).unwrap());
        let (mut held, mut refused) = (Vec::new(), 0);
        for _ in 0..MAX_PENDING_PER_ADDRESS + 4 {
            match endpoint.connect(code.addr(), "ridgeline").unwrap().await {
                Ok(c) => held.push(c), // the handshake is done; no stream is ever opened
                Err(e) => {
                    assert!(e.to_string().contains("refused"), "turned away at once: {e}");
                    refused += 1;
                }
            }
        }
        (endpoint, held, refused)
    });
    assert_eq!((held.len(), refused), (MAX_PENDING_PER_ADDRESS, 4));
    let mut join = OnlineLobby::join(&roots, &code.to_string(), "Ben", &Identity::fresh().unwrap()).unwrap();
    let mut shown = (LobbyState::default(), LobbyState::default());
    let (_, joined) = poll_until(&mut host, &mut join, &mut shown, |s| seated(&s.1) == 2);
    assert!(joined.is_none(), "the friend is seated while the silent ones are held");
    // From the friend's own address filled up the same way, the next joiner is told the host
    // is busy, in words.
    let (mine, also_held) = runtime.block_on(async {
        let mut endpoint = quinn::Endpoint::client("127.0.0.1:0".parse().unwrap()).unwrap();
        endpoint.set_default_client_config(ridgeline::net::quic::tls::client_config(code.fingerprint).unwrap());
        let mut held = Vec::new();
        for _ in 0..MAX_PENDING_PER_ADDRESS {
            held.push(endpoint.connect(code.addr(), "ridgeline").unwrap().await.expect("room for these"));
        }
        (endpoint, held)
    });
    let hello = ridgeline::online::hello(&roots, "Cy", &Identity::fresh().unwrap(), &code).unwrap();
    let busy = ridgeline::net::quic::QuicTransport::join(&code, Reach::default(), &hello).unwrap_err().to_string();
    assert!(busy.contains("busy") && busy.contains("try again"), "{busy}");
    drop((mine, also_held));
    // The host drops each silent one once its time to open a stream has passed.
    runtime.block_on(async {
        for c in &held {
            let closed = tokio::time::timeout(STREAM_WITHIN + std::time::Duration::from_secs(5), c.closed()).await;
            assert!(closed.is_ok(), "a silent connection was held past {STREAM_WITHIN:?}");
        }
    });
    drop(endpoint);
}
