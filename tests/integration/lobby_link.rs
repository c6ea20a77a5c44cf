//! The lobby's control protocol (`LobbyLink`) over the in-memory hub, with simulated time:
//! seating and refusals said on both sides, the table sent on every change and once a second,
//! a Ready cleared by the host's change said why, removal, chat named by the host, and the
//! start reaching the joiner; one connection takes one seat, and the same player from another
//! copy of the game takes the seat over, the first copy told why.

use std::time::{Duration, Instant};

use ridgeline::lockstep::PeerId;
use ridgeline::lockstep::transport::TransportEvent;
use ridgeline::net::wire::{ALREADY_SEATED, FileDigest, Hello, PROTOCOL, Seat, WireMessage};
use ridgeline::net::{ControlTransport, MemoryEndpoint, hub};
use ridgeline::online::lobby::LobbyChange;
use ridgeline::online::{BUILD, LobbyEvent, LobbyLink, LobbyRefusal, Outgoing, READY_CLEARED};

fn files(digest: u64) -> Vec<FileDigest> {
    vec![FileDigest { name: "data/weapons.ron".into(), digest }]
}

fn hello(name: &str, digest: u64) -> WireMessage {
    WireMessage::Hello(Hello {
        protocol: PROTOCOL,
        build: BUILD.to_string(),
        name: name.into(),
        files: files(digest),
        // Each player's own identity.
        seat: [name.as_bytes()[0]; 32],
        watch: false,
    })
}

/// One machine of the lobby: its link, its end of the hub, what it showed.
struct Side {
    link: LobbyLink,
    end: MemoryEndpoint,
    shown: Vec<LobbyEvent>,
}

impl Side {
    /// Moves what arrived into the link and what the link says onto the hub, at `now`.
    fn pump(&mut self, now: Instant) {
        // What a peer said before it left comes first.
        while let Some((from, m)) = self.end.take_control() {
            self.link.handle(now, from, m);
        }
        while let Some(e) = self.end.take_peer_event() {
            if let TransportEvent::Left(p) = e {
                self.link.peer_left(now, p, None);
            }
        }
        self.link.tick(now);
        while let Some(o) = self.link.poll_outgoing() {
            match o {
                Outgoing::Send { to, messages } => {
                    let _ = self.end.send_control(to, &messages);
                }
                Outgoing::Kick(peer) => self.end.kick(peer),
            }
        }
        while let Some(e) = self.link.poll_event() {
            self.shown.push(e);
        }
    }

    fn lines(&self) -> Vec<String> {
        self.shown
            .iter()
            .filter_map(|e| match e {
                LobbyEvent::Line(l) => Some(l.clone()),
                _ => None,
            })
            .collect()
    }

    fn closed(&self) -> Option<&str> {
        self.shown.iter().find_map(|e| match e {
            LobbyEvent::Closed(why) => Some(why.as_str()),
            _ => None,
        })
    }
}

/// The host (a two-start map) and `joiners` more machines, each having sent its hello with
/// data digest `digests[i]`.
fn lobby(digests: &[u64]) -> (Side, Vec<Side>, Instant) {
    let mut ends = hub(digests.len() + 1);
    let names = ["Ben", "Cid", "Dee"];
    let joiners: Vec<Side> = ends
        .drain(1..)
        .zip(digests)
        .enumerate()
        .map(|(i, (mut end, &d))| {
            end.send_control(None, &[hello(names[i], d)]).unwrap();
            Side { link: LobbyLink::joiner(names[i]), end, shown: Vec::new() }
        })
        .collect();
    let host_end = ends.pop().unwrap();
    let host =
        Side { link: LobbyLink::host("Ava", "proving_grounds", 2, 2, files(7)), end: host_end, shown: Vec::new() };
    (host, joiners, Instant::now())
}

/// Pumps everyone a few rounds, 10 ms of simulated time each.
fn settle(host: &mut Side, joiners: &mut [Side], clock: &mut Instant) {
    for _ in 0..4 {
        *clock += Duration::from_millis(10);
        host.pump(*clock);
        for j in joiners.iter_mut() {
            j.pump(*clock);
        }
    }
}

#[test]
fn joiners_are_seated_or_refused_with_the_reason_on_both_sides() {
    // Ben matches; Cid's weapons differ; Dee finds the game full (two starts).
    let (mut host, mut joiners, mut clock) = lobby(&[7, 8, 7]);
    settle(&mut host, &mut joiners, &mut clock);
    assert_eq!(host.link.roster().slots[1].seat, Seat::Player(PeerId(1)));
    assert_eq!(host.link.roster().slots[1].name, "Ben");
    assert_eq!(joiners[0].link.me(), Some(PeerId(1)));
    assert_eq!(joiners[0].link.roster(), host.link.roster(), "Ben sees the host's table");
    assert!(joiners[0].closed().is_none());
    let cid = joiners[1].closed().expect("Cid is refused");
    assert_eq!(cid, "these files differ from the host's: data/weapons.ron");
    assert_eq!(joiners[2].closed(), Some("the game is full"));
    let lines = host.lines();
    assert!(lines.contains(&"Ben joined.".to_string()), "{lines:?}");
    assert!(lines.contains(&format!("Cid could not join: {cid}")), "{lines:?}");
    assert!(lines.contains(&"Dee could not join: the game is full".to_string()), "{lines:?}");
}

#[test]
fn the_table_goes_out_on_each_change_and_once_a_second() {
    let (mut host, mut joiners, mut clock) = lobby(&[7]);
    settle(&mut host, &mut joiners, &mut clock);
    let due = host.link.poll_timeout().expect("the host sends the table again");
    let tables = |s: &Side| s.shown.iter().filter(|e| matches!(e, LobbyEvent::Table { .. })).count();
    let before = tables(&joiners[0]);
    // Just before it is due nothing goes out; at the second it does.
    host.pump(due - Duration::from_millis(1));
    joiners[0].pump(due);
    assert_eq!(tables(&joiners[0]), before);
    host.pump(due);
    joiners[0].pump(due);
    assert_eq!(tables(&joiners[0]), before + 1);
    assert_eq!(host.link.poll_timeout(), Some(due + Duration::from_secs(1)));
}

#[test]
fn a_change_by_the_host_clears_ready_and_says_why() {
    let (mut host, mut joiners, mut clock) = lobby(&[7]);
    settle(&mut host, &mut joiners, &mut clock);
    assert!(
        host.link.setup(&["A".into(), "B".into()], 1).unwrap_err().to_string().contains("Ben"),
        "Ben is not ready yet"
    );
    joiners[0].link.set_ready(clock, true);
    settle(&mut host, &mut joiners, &mut clock);
    assert!(host.link.roster().slots[1].ready && joiners[0].link.ready());
    host.link.change(clock, &LobbyChange::Money(2)).unwrap();
    settle(&mut host, &mut joiners, &mut clock);
    assert!(!joiners[0].link.ready());
    assert!(joiners[0].lines().contains(&READY_CLEARED.to_string()), "{:?}", joiners[0].lines());
}

#[test]
fn a_joiner_changes_only_its_own_choices_and_chat_is_named_by_the_host() {
    let (mut host, mut joiners, mut clock) = lobby(&[7]);
    settle(&mut host, &mut joiners, &mut clock);
    joiners[0].link.change(clock, &LobbyChange::Faction(1, 1)).unwrap();
    let refused = joiners[0].link.change(clock, &LobbyChange::Money(1));
    assert_eq!(refused, Err(LobbyRefusal::HostOnly));
    assert_eq!(refused.unwrap_err().to_string(), "Only the host can change that.");
    // A forged sender name is replaced by the seat's.
    joiners[0].end.send_control(None, &[WireMessage::Chat { from: "Mallory".into(), text: "hi".into() }]).unwrap();
    settle(&mut host, &mut joiners, &mut clock);
    assert_eq!(host.link.roster().slots[1].faction, 1);
    assert!(host.lines().contains(&"Ben: hi".to_string()), "{:?}", host.lines());
    host.link.chat("welcome");
    settle(&mut host, &mut joiners, &mut clock);
    assert!(joiners[0].lines().contains(&"Ava: welcome".to_string()), "{:?}", joiners[0].lines());
}

#[test]
fn a_removed_player_is_told_and_the_start_reaches_the_joiner() {
    let (mut host, mut joiners, mut clock) = lobby(&[7, 7]);
    // Only Ben fits; Cid is refused. The host then gives Ben's slot to the computer.
    settle(&mut host, &mut joiners, &mut clock);
    host.link.change(clock, &LobbyChange::Seat(1, Seat::Ai(0))).unwrap();
    settle(&mut host, &mut joiners, &mut clock);
    assert_eq!(joiners[0].closed(), Some("The host removed you from the game."));
    assert!(host.lines().contains(&"Ben was removed from the game.".to_string()), "{:?}", host.lines());
    assert!(host.link.setup(&["A".into(), "B".into()], 1).is_ok(), "the host and a computer may start");
}

#[test]
fn the_joiner_hears_the_start_and_a_lost_host_closes_the_lobby() {
    let (mut host, mut joiners, mut clock) = lobby(&[7]);
    settle(&mut host, &mut joiners, &mut clock);
    let start = ridgeline::net::wire::Start { setup: "()".into(), map_files: vec![], unpaced: false, frames: 9 };
    host.end.send_control(None, &[WireMessage::Start(start.clone())]).unwrap();
    settle(&mut host, &mut joiners, &mut clock);
    assert!(joiners[0].shown.contains(&LobbyEvent::Start(start)), "{:?}", joiners[0].shown);
    // Another lobby: the host goes away before starting.
    let (host, mut joiners, mut clock) = lobby(&[7]);
    drop(host);
    clock += Duration::from_millis(10);
    joiners[0].pump(clock);
    assert_eq!(joiners[0].closed(), Some("Could not reach the host: no answer"), "never welcomed");
}

/// The host of a three-start lobby and two machines whose hellos are `hellos`.
fn three_starts(hellos: [WireMessage; 2]) -> (Side, Vec<Side>, Instant) {
    let mut ends = hub(3);
    let joiners: Vec<Side> = ends
        .drain(1..)
        .zip(hellos)
        .map(|(mut end, h)| {
            end.send_control(None, &[h]).unwrap();
            Side { link: LobbyLink::joiner("Ben"), end, shown: Vec::new() }
        })
        .collect();
    let host_end = ends.pop().unwrap();
    let host = Side { link: LobbyLink::host("Ava", "four_corners", 3, 2, files(7)), end: host_end, shown: Vec::new() };
    (host, joiners, Instant::now())
}

fn players(side: &Side) -> Vec<PeerId> {
    side.link
        .roster()
        .slots
        .iter()
        .filter_map(|s| match s.seat {
            Seat::Player(p) => Some(p),
            _ => None,
        })
        .collect()
}

#[test]
fn a_second_hello_on_one_connection_is_refused_and_takes_no_seat() {
    let (mut host, mut joiners, mut clock) = three_starts([hello("Ben", 7), hello("Cid", 7)]);
    settle(&mut host, &mut joiners, &mut clock);
    assert_eq!(players(&host), [PeerId(0), PeerId(1), PeerId(2)]);
    // Ben's connection greets again, under another name and identity: no second seat.
    joiners[0].end.send_control(None, &[hello("Dee", 7)]).unwrap();
    settle(&mut host, &mut joiners, &mut clock);
    assert_eq!(joiners[0].closed(), Some(ALREADY_SEATED), "told why");
    assert_eq!(players(&host), [PeerId(0), PeerId(1), PeerId(2)], "one connection, one seat");
    assert_eq!(host.link.roster().slots[1].name, "Ben", "the first seat stands");
}

#[test]
fn the_same_player_from_another_copy_takes_the_seat_and_the_first_is_told_why() {
    let (mut host, mut joiners, mut clock) = three_starts([hello("Ben", 7), hello("Ben", 7)]);
    settle(&mut host, &mut joiners, &mut clock);
    assert_eq!(players(&host), [PeerId(0), PeerId(2)], "one seat for one player: {:?}", host.link.roster());
    assert_eq!(joiners[0].closed(), Some("Another copy of the game with your identity took your seat."));
    assert_eq!(joiners[1].link.me(), Some(PeerId(2)));
    assert!(joiners[1].closed().is_none());
    assert_eq!(host.link.tokens().keys().copied().collect::<Vec<_>>(), [2], "the token moved with the seat");
    assert!(host.lines().iter().any(|l| l == "Ben came back from another copy of the game."), "{:?}", host.lines());
}

#[test]
fn a_joiner_whose_own_link_dropped_is_told_so_not_that_the_host_closed_the_game() {
    let (mut host, mut joiners, mut clock) = lobby(&[7]);
    settle(&mut host, &mut joiners, &mut clock);
    assert_eq!(joiners[0].link.me(), Some(PeerId(1)));
    let lost = ridgeline::net::quic::io::LINK_LOST;
    joiners[0].link.peer_left(clock, PeerId(0), Some(lost));
    joiners[0].pump(clock);
    assert_eq!(joiners[0].closed(), Some("Your connection to the host was lost."));
    // The host closing is still said as such.
    let (mut host, mut joiners, mut clock) = lobby(&[7]);
    settle(&mut host, &mut joiners, &mut clock);
    joiners[0].link.peer_left(clock, PeerId(0), Some("closed by peer: the host closed the game"));
    joiners[0].pump(clock);
    assert_eq!(joiners[0].closed(), Some("The host closed the game."));
}

#[test]
fn a_joiner_asking_to_watch_is_seated_as_an_observer_and_switches_from_its_own_machine() {
    let mut ends = hub(3);
    let WireMessage::Hello(mut watching) = hello("Cid", 7) else { panic!("a hello") };
    watching.watch = true;
    let mut sides: Vec<Side> = Vec::new();
    for (mut end, (name, greeting)) in
        ends.drain(1..).zip([("Ben", hello("Ben", 7)), ("Cid", WireMessage::Hello(watching))])
    {
        end.send_control(None, &[greeting]).unwrap();
        sides.push(Side { link: LobbyLink::joiner(name), end, shown: Vec::new() });
    }
    let host_end = ends.pop().unwrap();
    let mut host =
        Side { link: LobbyLink::host("Ava", "four_corners", 4, 2, files(7)), end: host_end, shown: Vec::new() };
    let mut clock = Instant::now();
    settle(&mut host, &mut sides, &mut clock);
    let seats = |s: &Side| s.link.roster().slots.iter().map(|s| s.seat).collect::<Vec<_>>();
    assert_eq!(seats(&host)[..3], [Seat::Player(PeerId(0)), Seat::Player(PeerId(1)), Seat::Observer(PeerId(2))]);
    assert_eq!(sides[1].link.me(), Some(PeerId(2)));
    // Cid plays after all, then watches again: his own machine asks, the host's table says so.
    for (seat, shown) in
        [(Seat::Player(PeerId(2)), Seat::Player(PeerId(2))), (Seat::Observer(PeerId(2)), Seat::Observer(PeerId(2)))]
    {
        sides[1].link.change(clock, &LobbyChange::Seat(2, seat)).unwrap();
        settle(&mut host, &mut sides, &mut clock);
        assert_eq!(seats(&host)[2], shown);
        assert_eq!(seats(&sides[1]), seats(&host));
    }
    // Ben cannot switch Cid.
    let not_his = LobbyChange::Seat(2, Seat::Player(PeerId(2)));
    assert!(sides[0].link.change(clock, &not_his).is_err());
    // An observer says Ready like a player; the setup leaves his row out.
    for s in sides.iter_mut() {
        s.link.set_ready(clock, true);
    }
    settle(&mut host, &mut sides, &mut clock);
    let setup = host.link.setup(&["Coalition".to_string(), "Dominion".to_string()], 5).expect("ready to start");
    let machines: Vec<Option<u8>> = setup.slots.iter().map(|s| s.machine).collect();
    assert_eq!(machines, [Some(0), Some(1), None], "Cid's machine has no slot: it watches");
}

#[test]
fn everyone_at_the_table_hears_who_joined_left_watches_and_changed_team() {
    let (mut host, mut joiners, mut clock) = three_starts([hello("Ben", 7), hello("Cid", 7)]);
    settle(&mut host, &mut joiners, &mut clock);
    let has = |s: &Side, line: &str| s.lines().iter().any(|l| l == line);
    // Ben was seated first: he hears of Cid; Cid is not told of himself.
    assert!(has(&joiners[0], "Cid joined."), "{:?}", joiners[0].lines());
    assert!(!has(&joiners[1], "Cid joined."), "{:?}", joiners[1].lines());
    // Cid turns to watching, from his own machine: all three hear it.
    joiners[1].link.change(clock, &LobbyChange::Seat(2, Seat::Observer(PeerId(2)))).unwrap();
    settle(&mut host, &mut joiners, &mut clock);
    for side in [&host, &joiners[0], &joiners[1]] {
        assert!(has(side, "Cid will watch the game."), "{:?}", side.lines());
    }
    // The host puts Ben on team 2.
    host.link.change(clock, &LobbyChange::Team(1, 2)).unwrap();
    settle(&mut host, &mut joiners, &mut clock);
    assert!(has(&joiners[0], "Ben is on team 2.") && has(&joiners[1], "Ben is on team 2."));
    // Ben's machine goes: Cid hears he left.
    host.link.peer_left(clock, PeerId(1), None);
    settle(&mut host, &mut joiners, &mut clock);
    assert!(has(&joiners[1], "Ben left."), "{:?}", joiners[1].lines());
}
