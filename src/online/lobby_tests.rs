//! The lobby table's tests: seats, names, teams and colours, changes and the rule for when a
//! game may start.

use super::*;

fn table() -> LobbyTable {
    let mut t = LobbyTable::new("crossroads", 4, "Ava", 2);
    t.seat(PeerId(1), "Ben").unwrap();
    t
}

#[test]
fn joiners_take_open_slots_in_order_until_full() {
    let mut t = table();
    assert_eq!(t.seat(PeerId(2), "Cy"), Ok(2));
    t.apply(HOST, &LobbyChange::Seat(3, Seat::Closed)).unwrap();
    assert_eq!(t.seat(PeerId(3), "Di"), Err(LobbyError::Full));
    assert_eq!(t.leave(PeerId(1)).as_deref(), Some("Ben"));
    assert_eq!(t.seat(PeerId(3), "Di"), Ok(1));
}

#[test]
fn only_the_host_sets_slots_and_players_choose_only_their_own_faction_and_colour() {
    let mut t = table();
    assert_eq!(t.apply(PeerId(1), &LobbyChange::Seat(2, Seat::Closed)), Err(LobbyError::HostOnly));
    assert_eq!(t.apply(PeerId(1), &LobbyChange::Money(0)), Err(LobbyError::HostOnly));
    assert_eq!(t.apply(PeerId(1), &LobbyChange::Team(1, 2)), Err(LobbyError::HostOnly));
    assert_eq!(t.apply(PeerId(1), &LobbyChange::Faction(0, 1)), Err(LobbyError::NotYours));
    assert_eq!(t.apply(HOST, &LobbyChange::Faction(1, 0)), Err(LobbyError::NotYours));
    assert_eq!(t.apply(PeerId(1), &LobbyChange::Faction(1, 0)), Ok(None));
    assert_eq!(t.roster().slots[1].faction, 0);
    // The host chooses for a computer.
    t.apply(HOST, &LobbyChange::Seat(2, Seat::Ai(3))).unwrap();
    assert_eq!(t.apply(HOST, &LobbyChange::Faction(2, 1)), Ok(None));
    assert_eq!(t.apply(HOST, &LobbyChange::Seat(0, Seat::Closed)), Err(LobbyError::HostSlot));
}

#[test]
fn replacing_a_player_removes_them_and_opens_nothing_else() {
    let mut t = table();
    assert_eq!(t.apply(HOST, &LobbyChange::Seat(1, Seat::Open)), Ok(Some(PeerId(1))));
    assert_eq!(t.roster().slots[1].seat, Seat::Open);
    assert_eq!(t.roster().slots[1].name, "");
    assert_eq!(t.slot_of(PeerId(1)), None);
}

#[test]
fn a_joiner_with_a_name_already_in_the_lobby_is_numbered() {
    let mut t = LobbyTable::new("compass_rose", 8, "Commander", 2);
    assert_eq!(t.seat(PeerId(1), "Commander"), Ok(1));
    assert_eq!(t.seat(PeerId(2), "Commander"), Ok(2));
    let long = "A".repeat(40);
    t.seat(PeerId(3), &long).unwrap();
    t.seat(PeerId(4), &long).unwrap();
    let names: Vec<&str> = t.roster().slots.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(&names[..3], ["Commander", "Commander 2", "Commander 3"]);
    assert_eq!(names[3], "A".repeat(32), "cut to 32 characters");
    assert_eq!(names[4], format!("{} 2", "A".repeat(30)), "numbered within 32 characters");
    // A name freed by a leaver is free again.
    t.leave(PeerId(1));
    assert_eq!(t.seat(PeerId(5), "Commander"), Ok(1));
    assert_eq!(t.roster().slots[1].name, "Commander 2");
}

#[test]
fn colours_are_unique_among_those_in_the_game() {
    let mut t = table();
    let ben = t.roster().slots[1].colour;
    assert_eq!(t.apply(HOST, &LobbyChange::Colour(0, ben)), Err(LobbyError::ColourTaken(COLOURS[ben as usize])));
    // An open slot's colour is free to take.
    let open = t.roster().slots[2].colour;
    assert_eq!(t.apply(HOST, &LobbyChange::Colour(0, open)), Ok(None));
    // The next joiner there gets a free colour instead.
    t.seat(PeerId(2), "Cy").unwrap();
    let colours: Vec<u8> = t.roster().slots[..3].iter().map(|s| s.colour).collect();
    assert!(colours[2] != colours[0] && colours[2] != colours[1], "{colours:?}");
    assert_eq!(t.apply(HOST, &LobbyChange::Colour(0, 9)), Err(LobbyError::NoSuchChoice("colour 9".into())));
}

#[test]
fn changes_unready_everyone_and_the_start_waits_for_them() {
    let mut t = table();
    assert_eq!(t.ready_to_start(), Err(LobbyError::NotReady("Ben".into())));
    t.set_ready(PeerId(1), true);
    assert_eq!(t.ready_to_start(), Ok(()));
    t.apply(HOST, &LobbyChange::Money(3)).unwrap();
    assert!(!t.roster().slots[1].ready);
    t.set_ready(PeerId(1), true);
    t.apply(HOST, &LobbyChange::Team(0, 2)).unwrap();
    t.apply(HOST, &LobbyChange::Team(1, 2)).unwrap();
    t.set_ready(PeerId(1), true);
    assert_eq!(t.ready_to_start(), Err(LobbyError::OneTeam));
}

#[test]
fn the_start_needs_two_sides_and_leaves_open_slots_empty() {
    let mut t = LobbyTable::new("crossroads", 3, "Ava", 2);
    t.apply(HOST, &LobbyChange::Seat(1, Seat::Closed)).unwrap();
    assert_eq!(t.ready_to_start(), Err(LobbyError::TooFew));
    t.apply(HOST, &LobbyChange::Seat(1, Seat::Ai(0))).unwrap();
    assert_eq!(t.ready_to_start(), Ok(()));
    let setup = t.to_match_setup(&["Coalition".to_string()], 1);
    assert_eq!(setup.slots[2].kind, SlotKind::Closed);
}

#[test]
fn a_smaller_map_keeps_the_players_and_refuses_when_they_do_not_fit() {
    let mut t = table();
    t.seat(PeerId(2), "Cy").unwrap();
    t.apply(HOST, &LobbyChange::Seat(3, Seat::Ai(1))).unwrap();
    let small = LobbyChange::Map { folder: "duel".into(), start_positions: 2 };
    assert_eq!(t.apply(HOST, &small), Err(LobbyError::MapTooSmall { players: 4, room: 2 }));
    t.apply(HOST, &LobbyChange::Seat(1, Seat::Open)).unwrap();
    t.apply(HOST, &LobbyChange::Seat(2, Seat::Closed)).unwrap();
    t.apply(HOST, &small).unwrap();
    let seats: Vec<Seat> = t.roster().slots.iter().map(|s| s.seat).collect();
    assert_eq!(seats, [Seat::Player(HOST), Seat::Ai(1)]);
    assert_eq!(t.roster().map, "duel");
    t.apply(HOST, &LobbyChange::Map { folder: "big".into(), start_positions: 4 }).unwrap();
    assert_eq!(t.roster().slots.len(), 4);
    assert_eq!(t.roster().slots[3].seat, Seat::Open);
}

#[test]
fn an_observer_keeps_the_seat_plays_no_side_and_is_asked_to_be_ready() {
    let mut t = table();
    t.apply(HOST, &LobbyChange::Seat(2, Seat::Ai(1))).unwrap();
    // Ben watches instead of playing; only Ben or the host may switch him.
    t.seat(PeerId(2), "Cy").unwrap();
    assert_eq!(t.apply(PeerId(2), &LobbyChange::Seat(1, Seat::Observer(PeerId(1)))), Err(LobbyError::HostOnly));
    assert_eq!(t.apply(PeerId(1), &LobbyChange::Seat(1, Seat::Observer(PeerId(1)))), Ok(None));
    assert_eq!(t.slot_of(PeerId(1)), Some(1));
    let not_his = LobbyChange::Seat(2, Seat::Observer(PeerId(1)));
    assert_eq!(t.apply(HOST, &not_his), Err(LobbyError::NoSuchChoice("an observer".into())));
    t.set_ready(PeerId(2), true);
    assert_eq!(t.ready_to_start(), Err(LobbyError::NotReady("Ben".into())), "an observer says ready too");
    t.set_ready(PeerId(1), true);
    assert_eq!(t.ready_to_start(), Ok(()));
    // The setup leaves his row out: the host, the computer and Cy take the first starts.
    let s = t.to_match_setup(&["Coalition".to_string()], 1);
    let kinds: Vec<(SlotKind, Option<u8>)> = s.slots.iter().map(|s| (s.kind, s.machine)).collect();
    assert_eq!(
        kinds,
        [
            (SlotKind::Human, Some(0)),
            (SlotKind::Ai { difficulty: Difficulty::Normal }, None),
            (SlotKind::Remote, Some(2)),
        ]
    );
    // He plays again; a second copy of him keeps him watching.
    assert_eq!(t.hand_over(PeerId(1), PeerId(5)), Some(1));
    assert_eq!(t.roster().slots[1].seat, Seat::Observer(PeerId(5)));
    assert_eq!(t.apply(HOST, &LobbyChange::Seat(1, Seat::Player(PeerId(5)))), Ok(None));
    assert_eq!(t.roster().slots[1].seat, Seat::Player(PeerId(5)));
    // Two sides are still needed without him.
    assert_eq!(t.leave(PeerId(5)).as_deref(), Some("Ben"));
}

#[test]
fn the_setup_names_machines_computers_teams_and_money() {
    let mut t = table();
    t.apply(HOST, &LobbyChange::Seat(2, Seat::Ai(2))).unwrap();
    t.apply(HOST, &LobbyChange::Seat(3, Seat::Closed)).unwrap();
    t.apply(HOST, &LobbyChange::Team(0, 1)).unwrap();
    t.apply(HOST, &LobbyChange::Team(2, 1)).unwrap();
    t.apply(HOST, &LobbyChange::Money(2)).unwrap();
    let factions = ["Coalition".to_string(), "Dominion".to_string()];
    let s = t.to_match_setup(&factions, 7);
    let kinds: Vec<(SlotKind, Option<u8>, Option<u8>)> = s.slots.iter().map(|s| (s.kind, s.machine, s.team)).collect();
    assert_eq!(
        kinds,
        [
            (SlotKind::Human, Some(0), Some(1)),
            (SlotKind::Remote, Some(1), Some(2)),
            (SlotKind::Ai { difficulty: Difficulty::Hard }, None, Some(1)),
            (SlotKind::Closed, None, Some(3)),
        ]
    );
    assert_eq!(s.slots[1].name.as_deref(), Some("Ben"));
    assert_eq!(s.slots[1].faction.as_deref(), Some("Dominion"));
    assert!(s.slots.iter().all(|s| s.money == Some(20_000)));
    assert_eq!((s.map.as_str(), s.seed), ("crossroads", 7));
}
