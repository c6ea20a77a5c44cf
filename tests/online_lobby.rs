//! The window's online lobby, two machines in one process over loopback QUIC: the joiner is
//! welcomed and sees the roster, chat goes both ways, the host cannot start until the joiner
//! is ready, and then both hold the same started match; a joiner with other data is refused
//! naming the file, and the host's lobby says so.

mod common;

use std::time::{Duration, Instant};

use ridgeline::game::online_lobby::{OnlineLobby, Outcome};
use ridgeline::game::shell::lobby::LobbyState;

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

/// Ava hosts on loopback and Ben joins with her code; returns both lobbies once each shows
/// two players, and what each shows.
fn met() -> (OnlineLobby, OnlineLobby, (LobbyState, LobbyState)) {
    let roots = common::roots();
    let mut host = OnlineLobby::host(&roots, "127.0.0.1:0".parse().unwrap(), "Ava", "proving_grounds").unwrap();
    let code = host.code().unwrap().to_string();
    let mut join = OnlineLobby::join(&roots, &code, "Ben").unwrap();
    let mut shown = (LobbyState::default(), LobbyState::default());
    poll_until(&mut host, &mut join, &mut shown, |s| s.1.players.len() == 2);
    (host, join, shown)
}

#[test]
fn two_players_meet_chat_ready_up_and_start_the_same_match() {
    let roots = common::roots();
    let (mut host, mut join, mut shown) = met();
    assert_eq!(shown.1.players[0].0, "Ava");
    assert_eq!(shown.1.players[1].0, "Ben");
    assert_eq!(shown.1.map, "proving_grounds");
    assert!(shown.0.chat.iter().any(|l| l == "Ben joined."), "{:?}", shown.0.chat);
    join.chat("gl hf", &mut shown.1);
    poll_until(&mut host, &mut join, &mut shown, |s| s.0.chat.iter().any(|l| l == "Ben: gl hf"));
    host.chat("you too", &mut shown.0);
    poll_until(&mut host, &mut join, &mut shown, |s| s.1.chat.iter().any(|l| l == "Ava: you too"));
    // Not ready: the host cannot start.
    let early = host.start(&roots).err().expect("refused");
    assert_eq!(early, "Ben is not ready.");
    join.set_ready(true);
    poll_until(&mut host, &mut join, &mut shown, |s| s.0.players.get(1).is_some_and(|p| p.2 == "Ready"));
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
    let roots = common::roots();
    let dir = common::temp_dir("lobby-mismatch");
    std::fs::create_dir_all(dir.join("data")).unwrap();
    let weapons = std::fs::read_to_string(common::root().join("data/weapons.ron")).unwrap();
    std::fs::write(dir.join("data/weapons.ron"), format!("{weapons}\n// a balance mod\n")).unwrap();
    let modded = ridgeline::content::ContentRoots::new(vec![dir, common::root()]);
    let mut host = OnlineLobby::host(&roots, "127.0.0.1:0".parse().unwrap(), "Ava", "proving_grounds").unwrap();
    let code = host.code().unwrap().to_string();
    let mut join = OnlineLobby::join(&modded, &code, "Ben").unwrap();
    let mut shown = (LobbyState::default(), LobbyState::default());
    let (_, closed) = poll_until(&mut host, &mut join, &mut shown, |_| false);
    let Some(Outcome::Closed(reason)) = closed else { panic!("the joiner is refused") };
    assert!(reason.contains("data/weapons.ron"), "{reason}");
    poll_until(&mut host, &mut join, &mut shown, |s| s.0.chat.iter().any(|l| l.contains("data/weapons.ron")));
}

#[test]
fn a_join_code_with_another_certificate_is_refused_without_freezing_the_window() {
    let roots = common::roots();
    let mut host = OnlineLobby::host(&roots, "127.0.0.1:0".parse().unwrap(), "Ava", "proving_grounds").unwrap();
    // The right address, but a certificate fingerprint that is not the host's: someone in the
    // middle would look like this.
    let mut code = host.code().unwrap();
    code.fingerprint[0] ^= 0xff;
    // Joining returns at once; the refusal arrives while the lobby is polled.
    let mut join = OnlineLobby::join(&roots, &code.to_string(), "Mallory").unwrap();
    let mut shown = (LobbyState::default(), LobbyState::default());
    let (_, closed) = poll_until(&mut host, &mut join, &mut shown, |_| false);
    let Some(Outcome::Closed(reason)) = closed else { panic!("the joiner gives up") };
    assert!(reason.starts_with("Could not reach the host"), "{reason}");
    assert!(reason.contains("certificate"), "the reason names the certificate: {reason}");
    assert_eq!(shown.0.players.len(), 1, "nobody joined the host");
}

type Joined =
    (Box<ridgeline::session::Match<Box<dyn ridgeline::lockstep::Transport>>>, ridgeline::net::quic::SharedQuic);

/// Two lobbies met and started: the host's battle, and the joiner's match with its transport.
fn started() -> (ridgeline::game::battle::Battle, Joined) {
    let roots = common::roots();
    let (mut host, mut join, mut shown) = met();
    join.set_ready(true);
    poll_until(&mut host, &mut join, &mut shown, |s| s.0.players.get(1).is_some_and(|p| p.2 == "Ready"));
    let Ok(Outcome::Started(host_game, net)) = host.start(&roots) else { panic!("the host starts") };
    let (_, joined) = poll_until(&mut host, &mut join, &mut shown, |_| false);
    let Some(Outcome::Started(join_game, join_net)) = joined else { panic!("the joiner starts") };
    let mut battle =
        ridgeline::game::battle::Battle::from_match(&roots, *host_game, glam::Vec2::new(640.0, 360.0)).unwrap();
    battle.set_online(net);
    (battle, (join_game, join_net))
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
    assert!(b.hosting());
    assert!(b.stalled_for() >= 10.0, "waited {}", b.stalled_for());
    assert_eq!(b.waiting_for().as_deref(), Some("Ben"));
    b.drop_stalled();
    for _ in 0..30 {
        b.advance(1.0 / 30.0 + 1e-4).unwrap();
    }
    assert!(b.world().frame().0 >= stuck + 25, "the host plays on: frame {}", b.world().frame().0);
    assert_eq!(b.waiting_for(), None);
    assert!(b.queue_text().starts_with("Ben "), "the control bar says what became of Ben: {}", b.queue_text());
}

#[test]
fn players_chat_during_an_online_battle() {
    let (mut host, (join_game, join_net)) = started();
    let mut join =
        ridgeline::game::battle::Battle::from_match(&common::roots(), *join_game, glam::Vec2::new(640.0, 360.0))
            .unwrap();
    join.set_online(join_net);
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
    assert!(host.chat_key(ridgeline::ui::Key::Enter));
    for c in "gl hf".chars() {
        host.chat_char(c);
    }
    assert!(texts(&host).contains(&"Say: gl hf_".to_string()), "{:?}", texts(&host));
    assert!(host.chat_key(ridgeline::ui::Key::Enter));
    assert!(!host.chat_open());
    assert!(texts(&host).contains(&"Ava: gl hf".to_string()), "{:?}", texts(&host));
    // Both battles run; the line reaches the joiner, and the joiner's answer reaches the host.
    for _ in 0..30 {
        host.advance(1.0 / 30.0 + 1e-4).unwrap();
        join.advance(1.0 / 30.0 + 1e-4).unwrap();
        // Real time for the lines to travel over loopback.
        std::thread::sleep(std::time::Duration::from_millis(3));
    }
    assert!(texts(&join).contains(&"Ava: gl hf".to_string()), "{:?}", texts(&join));
    join.chat_key(ridgeline::ui::Key::Enter);
    for c in "you too".chars() {
        join.chat_char(c);
    }
    join.chat_key(ridgeline::ui::Key::Enter);
    for _ in 0..30 {
        host.advance(1.0 / 30.0 + 1e-4).unwrap();
        join.advance(1.0 / 30.0 + 1e-4).unwrap();
        // Real time for the lines to travel over loopback.
        std::thread::sleep(std::time::Duration::from_millis(3));
    }
    assert!(texts(&host).contains(&"Ben: you too".to_string()), "{:?}", texts(&host));
    assert!(host.world().frame().0 > 40 && join.world().frame().0 > 40);
    // Escape closes an open line without sending it.
    assert!(host.chat_key(ridgeline::ui::Key::Enter));
    host.chat_char('x');
    assert!(host.chat_key(ridgeline::ui::Key::Escape));
    assert!(!texts(&host).iter().any(|t| t.contains("Ava: x")));
}
