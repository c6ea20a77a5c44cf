//! The message stream as a state machine: stamping, readiness by declared counts,
//! deterministic ordering whatever the arrival order, duplicates, and refusing bad data.

use ridgeline::lockstep::{Message, Stream, StreamConfig, StreamError};
use ridgeline::sim::{Command, Frame, PlayerId, Point};

fn stream(local: &[u8], players: &[u8]) -> Stream {
    Stream::new(StreamConfig {
        players: players.iter().map(|p| PlayerId(*p)).collect(),
        local: local.iter().map(|p| PlayerId(*p)).collect(),
        run_ahead: 2,
        pace: Default::default(),
    })
}

fn mv(x: i32) -> Command {
    Command::Move { to: Point { x, y: 0 } }
}

fn drain(s: &mut Stream) -> Vec<Message> {
    std::iter::from_fn(|| s.poll_outgoing()).collect()
}

#[test]
fn commands_are_stamped_run_ahead_frames_later_with_rising_ids() {
    let mut s = stream(&[0], &[0]);
    let a = s.submit(PlayerId(0), mv(1)).unwrap();
    let b = s.submit(PlayerId(0), Command::Stop).unwrap();
    assert_eq!(a.frame, Frame(2));
    assert_eq!((a.id.0, b.id.0), (0, 1));
    assert!(matches!(s.submit(PlayerId(1), Command::Stop), Err(StreamError::NotLocal(_))));
    // Frames 0 and 1 need nothing; frame 2 holds both commands, Move (kind 1) before Stop (kind 4).
    assert_eq!(s.take_ready().unwrap().1.len(), 0);
    assert_eq!(s.take_ready().unwrap().1.len(), 0);
    let (f, cmds) = s.take_ready().unwrap();
    assert_eq!(f, Frame(2));
    assert_eq!(cmds, vec![a, b]);
}

#[test]
fn a_frame_waits_for_every_players_count_and_commands() {
    let mut a = stream(&[0], &[0, 1]);
    let mut b = stream(&[1], &[0, 1]);
    // Frames before the run-ahead run at once on both.
    for _ in 0..2 {
        assert!(a.take_ready().is_some());
        assert!(b.take_ready().is_some());
    }
    b.submit(PlayerId(1), mv(5)).unwrap(); // stamped for frame 4 on b
    // a closed frame 2 and 3 for itself, but knows nothing of player 1's frame 2 yet.
    assert!(a.take_ready().is_none());
    assert_eq!(a.waiting_for(), vec![PlayerId(1)]);
    for m in drain(&mut b) {
        a.receive(m).unwrap();
    }
    for m in drain(&mut a) {
        b.receive(m).unwrap();
    }
    // Both have now closed frames 2 and 3 for each other.
    assert!(a.take_ready().is_some());
    assert!(b.take_ready().is_some());
    assert!(a.take_ready().is_some());
    assert!(b.take_ready().is_some());
    // Frame 4 on a: the command arrived but not b's count yet (b has not executed frame 2+... )
    for m in drain(&mut b) {
        a.receive(m).unwrap();
    }
    for m in drain(&mut a) {
        b.receive(m).unwrap();
    }
    let (fa, ca) = a.take_ready().unwrap();
    let (fb, cb) = b.take_ready().unwrap();
    assert_eq!((fa, fb), (Frame(4), Frame(4)));
    assert_eq!(ca, cb);
    assert_eq!(ca.len(), 1);
}

#[test]
fn order_does_not_depend_on_arrival_order_and_duplicates_are_dropped() {
    // Two senders, each with several commands for frame 2; two receivers get them in opposite
    // orders (and one gets everything twice).
    let mut p0 = stream(&[0], &[0, 1, 2]);
    let mut p1 = stream(&[1], &[0, 1, 2]);
    p0.submit(PlayerId(0), Command::Stop).unwrap();
    p0.submit(PlayerId(0), mv(1)).unwrap();
    p1.submit(PlayerId(1), mv(2)).unwrap();
    p1.submit(PlayerId(1), Command::Select { objects: vec![], add: false }).unwrap();
    // Close frames 0..=2 on the senders so their counts for frame 2 go out.
    for _ in 0..1 {
        p0.take_ready();
        p1.take_ready();
    }
    let m0 = drain(&mut p0);
    let m1 = drain(&mut p1);
    let mut r1 = stream(&[2], &[0, 1, 2]);
    let mut r2 = stream(&[2], &[0, 1, 2]);
    for m in m0.iter().chain(&m1) {
        r1.receive(m.clone()).unwrap();
    }
    for m in m1.iter().rev().chain(m0.iter().rev()).chain(m0.iter()) {
        r2.receive(m.clone()).unwrap();
    }
    let take = |r: &mut Stream| -> Vec<_> {
        let mut out = Vec::new();
        for _ in 0..3 {
            if let Some((_, c)) = r.take_ready() {
                out.extend(c);
            }
        }
        out
    };
    let (c1, c2) = (take(&mut r1), take(&mut r2));
    assert_eq!(c1.len(), 4, "{c1:?}");
    assert_eq!(c1, c2);
    let keys: Vec<_> = c1.iter().map(|c| (c.command.kind(), c.player.0)).collect();
    // Each player's commands keep the order they were given in: player 0 stopped, then moved
    // (the move is the last word), player 1 moved, then changed its selection (the move goes
    // to the selection it was given to). So the second of each starts a second round, and
    // each round runs by kind.
    assert_eq!(keys, vec![(1, 1), (4, 0), (0, 1), (1, 0)]);
}

/// Orders given while the frames stand still (a pause, a network stall) are all stamped for
/// one frame: two groups each sent their own way there still go their own way.
#[test]
fn two_groups_ordered_while_the_frames_stand_still_each_go_where_they_were_sent() {
    let (mut w, _) = crate::common::opening_game("idle@Coalition,idle@Coalition", 4);
    let mine = |w: &ridgeline::sim::World, name: &str| -> Vec<ridgeline::sim::ObjectId> {
        let t = w.rules().template_id(name).expect("shipped template");
        w.objects().filter(|o| o.owner == PlayerId(0) && o.template == t).map(|o| o.id).collect()
    };
    let (riflemen, scouts) = (mine(&w, "Rifleman"), mine(&w, "Scout"));
    assert!(!riflemen.is_empty() && !scouts.is_empty());
    let mut s = stream(&[0], &[0]);
    let (east, west) = (Point { x: 900, y: 600 }, Point { x: 300, y: 600 });
    let given = [
        Command::Select { objects: riflemen.clone(), add: false },
        Command::Move { to: east },
        Command::Select { objects: scouts.clone(), add: false },
        Command::AttackMove { to: west },
        Command::Stop,
        Command::Move { to: west },
    ];
    let frames: Vec<Frame> = given.iter().map(|c| s.submit(PlayerId(0), c.clone()).unwrap().frame).collect();
    assert!(frames.iter().all(|f| *f == frames[0]), "one frame for all: {frames:?}");
    while w.frame() <= frames[0] {
        let (_, commands) = s.take_ready().expect("a local game is always ready");
        let report = w.tick(&commands);
        assert!(report.rejections.is_empty(), "{:?}", report.rejections);
    }
    let goal = |id| w.object(id).unwrap().nav.goal;
    let (east, west) = (east.to_vec2(), west.to_vec2());
    let near = |g: Option<ridgeline::sim::vector::Vec2>, p: ridgeline::sim::vector::Vec2| {
        g.is_some_and(|g| (g - p).length() < ridgeline::sim::fixed::Fixed::from_int(100))
    };
    for id in &riflemen {
        assert!(near(goal(*id), east), "rifleman {id:?} heads for {:?}, not east", goal(*id));
    }
    for id in &scouts {
        // Attack-move, stop, then move: the move was the last word.
        let o = w.object(*id).unwrap();
        assert!(near(o.nav.goal, west), "scout {id:?} heads for {:?}, not west", o.nav.goal);
        assert!(matches!(o.order, ridgeline::sim::object::Order::Move { .. }), "scout {id:?}: {:?}", o.order);
    }
}

#[test]
fn bad_data_is_refused_with_player_and_frame() {
    let mut a = stream(&[0], &[0, 1]);
    let mut b = stream(&[1], &[0, 1]);
    // Spoofing a's own player.
    let own = Message::FrameCount { player: PlayerId(0), frame: Frame(5), count: 0 };
    assert_eq!(a.receive(own), Err(StreamError::Spoofed { player: PlayerId(0), frame: Frame(5) }));
    // A player not in the game.
    let stranger = Message::FrameCount { player: PlayerId(9), frame: Frame(5), count: 0 };
    assert!(matches!(a.receive(stranger), Err(StreamError::UnknownPlayer { .. })));
    // Two different counts for one frame.
    a.receive(Message::FrameCount { player: PlayerId(1), frame: Frame(5), count: 1 }).unwrap();
    assert_eq!(
        a.receive(Message::FrameCount { player: PlayerId(1), frame: Frame(5), count: 2 }),
        Err(StreamError::Inconsistent { player: PlayerId(1), frame: Frame(5) })
    );
    // Data for a frame already executed.
    a.take_ready().unwrap();
    let c = b.submit(PlayerId(1), Command::Stop).unwrap();
    let mut late = c.clone();
    late.frame = Frame(0);
    assert_eq!(a.receive(Message::Command(late)), Err(StreamError::Late { player: PlayerId(1), frame: Frame(0) }));
    assert_eq!(a.errors().len(), 4, "every refusal is kept: {:?}", a.errors());
    // What was accepted before is still there: the valid command arrives and counts.
    a.receive(Message::Command(c)).unwrap();
}

/// Frames as one machine executed them.
type Executed = Vec<(Frame, Vec<ridgeline::sim::StampedCommand>)>;

/// Runs two streams (players 0 and 1) in lockstep for `frames` frames, delivering every
/// message at once; each submits a move on frames listed in `orders`; the run-ahead changes
/// as `changes` say (the same on both). Returns each side's executed (frame, commands).
fn lockstep_with_changes(frames: u32, orders: &[u32], changes: &[(u32, u32)]) -> (Executed, Executed) {
    let mut a = stream(&[0], &[0, 1]);
    let mut b = stream(&[1], &[0, 1]);
    for &(at, v) in changes {
        a.schedule_run_ahead(Frame(at), v).unwrap();
        b.schedule_run_ahead(Frame(at), v).unwrap();
    }
    let (mut ra, mut rb) = (Vec::new(), Vec::new());
    // The last frame each side gave its orders on (once per frame, like a controller).
    let mut thought: [Option<u32>; 2] = [None, None];
    let mut guard = 0;
    while (ra.len() as u32) < frames || (rb.len() as u32) < frames {
        guard += 1;
        assert!(guard < 10_000, "stalled at {} / {}", ra.len(), rb.len());
        for (s, out, p) in [(&mut a, &mut ra, 0usize), (&mut b, &mut rb, 1usize)] {
            if (out.len() as u32) >= frames {
                continue;
            }
            let now = s.next_frame().0;
            if thought[p] != Some(now) {
                thought[p] = Some(now);
                if orders.contains(&now) {
                    s.submit(PlayerId(p as u8), mv(now as i32)).unwrap();
                }
            }
            if let Some(ready) = s.take_ready() {
                out.push(ready);
            }
        }
        for m in drain(&mut a) {
            b.receive(m).unwrap();
        }
        for m in drain(&mut b) {
            a.receive(m).unwrap();
        }
    }
    (ra, rb)
}

#[test]
fn the_run_ahead_grows_and_shrinks_at_agreed_frames_and_both_sides_stay_alike() {
    let orders: Vec<u32> = (0..120).step_by(3).collect();
    let (a, b) = lockstep_with_changes(120, &orders, &[(20, 6), (50, 2), (80, 9), (100, 1)]);
    assert_eq!(a, b, "both machines execute the same commands on the same frames");
    let executed: Vec<&ridgeline::sim::StampedCommand> = a.iter().flat_map(|(_, c)| c).collect();
    // Every order given executed exactly once on each machine's behalf (both players order on
    // the same frames), except the last few, still scheduled past the end.
    let issued_late = orders.iter().filter(|&&o| o + 9 >= 120).count();
    assert!(executed.len() >= 2 * (orders.len() - issued_late), "{} executed", executed.len());
    assert!(executed.len() <= 2 * orders.len());
    for c in &executed {
        let Command::Move { to } = &c.command else { panic!() };
        assert!(c.frame.0 > to.x as u32, "an order never runs on the frame it was given");
    }
    // While the run-ahead is 6, orders wait 6 frames; once it is 2, they wait 2 (after the
    // frames already promised have passed).
    let delay = |issued: i32| {
        executed
            .iter()
            .find(|c| matches!(c.command, Command::Move { to } if to.x == issued))
            .map(|c| c.frame.0 as i32 - issued)
    };
    assert_eq!(delay(30), Some(6));
    assert_eq!(delay(66), Some(2));
    assert_eq!(delay(90), Some(9));
}

#[test]
fn a_change_for_a_frame_already_run_is_refused() {
    let mut s = stream(&[0], &[0]);
    for _ in 0..5 {
        s.take_ready().unwrap();
    }
    assert!(s.schedule_run_ahead(Frame(3), 4).is_err());
    assert!(s.schedule_run_ahead(Frame(5), 4).is_ok());
}

#[test]
fn a_dropped_player_comes_back_at_an_agreed_frame_and_both_run_the_same_commands() {
    let mut a = stream(&[0], &[0, 1]);
    let mut b = stream(&[1], &[0, 1]);
    for _ in 0..6 {
        for m in drain(&mut b) {
            a.receive(m).unwrap();
        }
        for m in drain(&mut a) {
            b.receive(m).unwrap();
        }
        assert!(a.take_ready().is_some() && b.take_ready().is_some());
    }
    // b's machine is gone: a plays on without player 1 from the first frame it has no count
    // of theirs for (b closed up to 7; a heard up to 6).
    drop(b);
    let from = a.declared_through(PlayerId(1)).unwrap().next();
    assert_eq!(from, Frame(7));
    a.drop_player(PlayerId(1), from);
    assert_eq!(a.dropped_from(PlayerId(1)), Some(Frame(7)));
    let mut sent_by_a = Vec::new();
    while a.next_frame() < Frame(12) {
        assert!(a.take_ready().is_some(), "nobody waits for a dropped player");
        sent_by_a.extend(drain(&mut a));
    }
    // It comes back: live from frame 18, its data needed again from 18 + run-ahead.
    assert!(a.readmit(PlayerId(1), Frame(20)));
    assert_eq!(a.dropped_from(PlayerId(1)), None, "back, not left");
    let mut b = Stream::rejoining(
        StreamConfig {
            players: vec![PlayerId(0), PlayerId(1)],
            local: vec![PlayerId(1)],
            run_ahead: 2,
            pace: Default::default(),
        },
        Frame(18),
    );
    while a.next_frame() < Frame(20) {
        assert!(a.take_ready().is_some());
        sent_by_a.extend(drain(&mut a));
    }
    assert!(a.take_ready().is_none(), "frame 20 waits for the player who came back");
    assert_eq!(a.waiting_for(), vec![PlayerId(1)]);
    // b hears everything a sent, old frames too: those before 18 are let go without complaint.
    for m in sent_by_a.drain(..) {
        b.receive(m).unwrap();
    }
    assert!(b.errors().is_empty());
    let order = b.submit(PlayerId(1), mv(9)).unwrap();
    assert_eq!(order.frame, Frame(20));
    let (f18, _) = b.take_ready().expect("frame 18: a's counts are in, b's own are implicit");
    assert_eq!(f18, Frame(18));
    assert!(b.take_ready().is_some());
    for m in drain(&mut b) {
        a.receive(m).unwrap();
    }
    let (fa, ca) = a.take_ready().unwrap();
    for m in drain(&mut a) {
        b.receive(m).unwrap();
    }
    let (fb, cb) = b.take_ready().unwrap();
    assert_eq!((fa, fb), (Frame(20), Frame(20)));
    assert_eq!(ca, vec![order.clone()]);
    assert_eq!(cb, ca);
    // Dropped again later: a new departure.
    a.drop_player(PlayerId(1), Frame(30));
    assert_eq!(a.dropped_from(PlayerId(1)), Some(Frame(30)));
}
