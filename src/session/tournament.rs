//! `ridgeline tournament`: many seeded headless games between the same entries, every entry in
//! every slot (a rotation that repeats a line-up is played once), summed up as wins, draws,
//! game length, the army each side had left and when each computer entry's first attack set
//! out and with what (as the AI decided it, [`FirstWave`]).
//!
//! Each game is an ordinary local match (the same setup, stream and controllers as `sim`), so
//! a tournament measures the game players play. Games run on worker threads; results are
//! gathered by (seed, order), so the table does not depend on which thread finished first.
//! Must not: change any rule or AI setting for the games it plays.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Serialize;
use thiserror::Error;

use crate::ai::FirstWave;
use crate::content::ContentRoots;
use crate::sim::world::World;

use super::match_setup::{MatchSetup, SlotKind, SlotSetup};
use super::players::{PlayersSpec, SlotSpec};
use super::runner::run_session;
use super::script::CommandScript;
use super::start::{StartError, start_local};

/// What to play.
#[derive(Clone, Debug)]
pub struct TournamentSpec {
    /// Map name or folder.
    pub map: String,
    /// The entries, one per slot of the first order.
    pub entries: PlayersSpec,
    /// Seeds 1..=seeds are played.
    pub seeds: u32,
    /// A game still running after this many frames is a draw.
    pub frames: u32,
    /// Worker threads (at least one).
    pub threads: usize,
}

/// A tournament that could not be played.
#[derive(Debug, Error)]
pub enum TournamentError {
    /// Fewer than two entries, or one that cannot play headless.
    #[error("--players: {0}")]
    Entries(String),
    /// A game could not start or broke off.
    #[error("seed {seed}, order {order}: {source}")]
    Game {
        /// The game's seed.
        seed: u64,
        /// Its slot order (0 is the order given).
        order: usize,
        /// Why.
        #[source]
        source: StartError,
    },
}

/// One game of the tournament.
#[derive(Clone, Debug, Serialize)]
pub struct GameResult {
    /// The seed.
    pub seed: u64,
    /// The slot order: slot `s` played entry `(s + order) % entries`. A rotation that would
    /// seat the same line-up as an earlier one is not played (a mirror has order 0 only).
    pub order: usize,
    /// Frames played.
    pub frames: u32,
    /// The winning entry's name, or none for a draw.
    pub winner: Option<String>,
    /// Army value left to each entry at the end, in entry order.
    pub army_value: Vec<i64>,
    /// The style each computer entry drew this game (see `data/ai_styles.ron`), in entry
    /// order; none for other entries.
    pub styles: Vec<Option<String>>,
    /// What each entry's first attack set out with this game, in entry order; none for an
    /// entry that is not a computer player or never set out.
    pub first_wave: Vec<Option<FirstWave>>,
}

/// One entry's first attacks over the tournament, from the games in which it set out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FirstWaveSummary {
    /// Games in which its first attack set out.
    pub games: usize,
    /// The median frame it set out on.
    pub median_frame: u32,
    /// The earliest frame it set out on.
    pub earliest_frame: u32,
    /// The latest frame it set out on.
    pub latest_frame: u32,
    /// The median number of units in the wave.
    pub median_units: u32,
    /// The median worth of the wave (its units' summed prices).
    pub median_worth: i64,
}

/// The summed-up tournament; printed as the JSON line of `tournament --json`.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentReport {
    /// Games played.
    pub games: usize,
    /// Games won per entry name.
    pub wins: BTreeMap<String, usize>,
    /// Games without a winner when the frame cap came.
    pub draws: usize,
    /// Median game length in frames.
    pub median_frames: u32,
    /// Median army value left at the end per entry name.
    pub median_army_value: BTreeMap<String, i64>,
    /// Each entry's first attacks, per entry name (entries that never set out are left out).
    pub first_wave: BTreeMap<String, FirstWaveSummary>,
    /// Games won by the entry in each start slot (slot order), whoever played it.
    pub wins_by_slot: Vec<usize>,
    /// Every game, by seed then order.
    pub results: Vec<GameResult>,
}

/// The value of the units (not structures) `player` has at the end: what they cost.
pub fn army_value(world: &World, player: crate::sim::ids::PlayerId) -> i64 {
    world
        .objects()
        .filter(|o| o.owner == player && o.is_complete() && !o.kind.blocks_ground())
        .map(|o| world.rules().template(o.template).cost)
        .sum()
}

/// The entries' names: the entry as written, with its faction filled in where it was left to
/// the slot (entry `i` takes playable faction `i`, as `--players` does), and `#2`, `#3`, …
/// after a repeated name so each entry counts its own wins.
pub fn entry_names(entries: &PlayersSpec, playable: &[String]) -> Vec<SlotSpec> {
    entries
        .0
        .iter()
        .enumerate()
        .map(|(i, e)| SlotSpec {
            kind: e.kind,
            faction: e.faction.clone().or_else(|| (!playable.is_empty()).then(|| playable[i % playable.len()].clone())),
        })
        .collect()
}

fn display_names(entries: &[SlotSpec]) -> Vec<String> {
    let plain: Vec<String> = entries.iter().map(|e| PlayersSpec(vec![e.clone()]).to_string()).collect();
    plain
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let earlier = plain[..i].iter().filter(|n| *n == name).count();
            if earlier == 0 { name.clone() } else { format!("{name}#{}", earlier + 1) }
        })
        .collect()
}

/// Plays the tournament.
pub fn play(
    roots: &ContentRoots,
    spec: &TournamentSpec,
    playable: &[String],
) -> Result<TournamentReport, TournamentError> {
    if spec.entries.0.len() < 2 {
        return Err(TournamentError::Entries("a tournament needs at least two entries".into()));
    }
    if let Some(e) = spec.entries.0.iter().find(|e| matches!(e.kind, SlotKind::Remote | SlotKind::Scripted)) {
        return Err(TournamentError::Entries(format!(
            "{} cannot play in a tournament (ai:<difficulty> or idle)",
            PlayersSpec(vec![e.clone()])
        )));
    }
    let entries = entry_names(&spec.entries, playable);
    let names = display_names(&entries);
    let orders = distinct_orders(&entries);
    let jobs: Vec<(u64, usize)> =
        (1..=spec.seeds as u64).flat_map(|seed| orders.iter().map(move |&order| (seed, order))).collect();
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Result<GameResult, TournamentError>>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..spec.threads.max(1).min(jobs.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let Some(&(seed, order)) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) else { return };
                    let result = play_one(roots, spec, &entries, &names, seed, order);
                    let failed = result.is_err();
                    if let Ok(mut d) = done.lock() {
                        d.push(result);
                    }
                    if failed {
                        // Stop handing out games: the first failure is the answer.
                        next.store(jobs.len(), Ordering::Relaxed);
                        return;
                    }
                }
            });
        }
    });
    let mut results = Vec::with_capacity(jobs.len());
    for r in done.into_inner().unwrap_or_default() {
        results.push(r?);
    }
    results.sort_by_key(|r| (r.seed, r.order));
    Ok(summarize(&names, results))
}

/// The slot orders worth playing: a rotation that seats the same entries in the same slots as
/// an earlier one (every rotation of a mirror, `ai:hard@A,ai:hard@A`) would play the same game
/// again, so only the first of each line-up is played.
fn distinct_orders(entries: &[SlotSpec]) -> Vec<usize> {
    let n = entries.len();
    let line_up = |order: usize| (0..n).map(move |s| &entries[(s + order) % n]);
    (0..n).filter(|&order| (0..order).all(|earlier| !line_up(order).eq(line_up(earlier)))).collect()
}

/// One game: entry `(s + order) % n` in slot `s`.
fn play_one(
    roots: &ContentRoots,
    spec: &TournamentSpec,
    entries: &[SlotSpec],
    names: &[String],
    seed: u64,
    order: usize,
) -> Result<GameResult, TournamentError> {
    let n = entries.len();
    let slots = (0..n)
        .map(|s| {
            let e = &entries[(s + order) % n];
            SlotSetup { faction: e.faction.clone(), ..SlotSetup::new(e.kind) }
        })
        .collect();
    let setup = MatchSetup { map: spec.map.clone(), seed, slots, run_ahead: None, map_hash: None, content_hash: None };
    let fail = |source: StartError| TournamentError::Game { seed, order, source };
    let mut game = start_local(roots, &setup, &CommandScript::default()).map_err(fail)?;
    let (summary, _) =
        run_session(&mut game.session, spec.frames, &game.slots).map_err(|e| fail(StartError::Session(e)))?;
    let world = game.session.world();
    let entry_of_slot = |slot: u8| (slot as usize + order) % n;
    let mut army = vec![0; n];
    let mut styles = vec![None; n];
    let mut first_wave = vec![None; n];
    for s in &game.slots {
        let entry = entry_of_slot(s.slot);
        let player = summary.players.get(s.player.index());
        army[entry] = army_value(world, s.player);
        styles[entry] = player.and_then(|p| p.style.clone());
        first_wave[entry] = player.and_then(|p| p.first_wave);
    }
    Ok(GameResult {
        seed,
        order,
        frames: summary.frames,
        winner: summary.winner.map(|slot| names[entry_of_slot(slot)].clone()),
        army_value: army,
        styles,
        first_wave,
    })
}

fn median<T: Copy + Ord + Default>(mut v: Vec<T>) -> T {
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

/// Entry `i`'s first attacks over `results`; None if it never set out.
fn first_waves(results: &[GameResult], i: usize) -> Option<FirstWaveSummary> {
    let waves: Vec<FirstWave> = results.iter().filter_map(|r| r.first_wave.get(i).copied().flatten()).collect();
    let frames = || waves.iter().map(|w| w.frame);
    Some(FirstWaveSummary {
        games: waves.len(),
        median_frame: median(frames().collect()),
        earliest_frame: frames().min()?,
        latest_frame: frames().max()?,
        median_units: median(waves.iter().map(|w| w.units).collect()),
        median_worth: median(waves.iter().map(|w| w.worth).collect()),
    })
}

/// The report of `results` (sorted by seed and order) between `names`.
fn summarize(names: &[String], results: Vec<GameResult>) -> TournamentReport {
    let n = names.len();
    let mut wins: BTreeMap<String, usize> = names.iter().map(|name| (name.clone(), 0)).collect();
    let mut wins_by_slot = vec![0; n];
    for r in &results {
        if let Some(w) = &r.winner {
            *wins.entry(w.clone()).or_default() += 1;
            if let Some(entry) = names.iter().position(|name| name == w) {
                wins_by_slot[(entry + n - r.order % n) % n] += 1;
            }
        }
    }
    let median_army_value = names
        .iter()
        .enumerate()
        .map(|(i, name)| (name.clone(), median(results.iter().map(|r| r.army_value[i]).collect())))
        .collect();
    let first_wave =
        names.iter().enumerate().filter_map(|(i, name)| Some((name.clone(), first_waves(&results, i)?))).collect();
    TournamentReport {
        games: results.len(),
        draws: results.iter().filter(|r| r.winner.is_none()).count(),
        median_frames: median(results.iter().map(|r| r.frames).collect()),
        wins,
        median_army_value,
        first_wave,
        wins_by_slot,
        results,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(seed: u64, order: usize, frames: u32, winner: Option<&str>, army: [i64; 2]) -> GameResult {
        GameResult {
            seed,
            order,
            frames,
            winner: winner.map(str::to_string),
            army_value: army.to_vec(),
            styles: vec![None; 2],
            first_wave: vec![None; 2],
        }
    }

    #[test]
    fn wins_count_per_entry_and_per_slot() {
        let names = vec!["ai:easy@A".to_string(), "ai:hard@B".to_string()];
        // Seed 1: B wins from slot 2 (order 0), then from slot 1 (order 1); seed 2: a draw
        // and A winning from slot 2 (order 1 puts entry 0 in slot 2).
        let report = summarize(
            &names,
            vec![
                game(1, 0, 900, Some("ai:hard@B"), [0, 500]),
                game(1, 1, 1000, Some("ai:hard@B"), [100, 700]),
                game(2, 0, 3000, None, [300, 300]),
                game(2, 1, 1100, Some("ai:easy@A"), [900, 0]),
            ],
        );
        assert_eq!(report.games, 4);
        assert_eq!(report.draws, 1);
        assert_eq!(report.wins["ai:hard@B"], 2);
        assert_eq!(report.wins["ai:easy@A"], 1);
        assert_eq!(report.wins_by_slot, vec![1, 2]);
        // Lengths 900, 1000, 1100, 3000: the upper median.
        assert_eq!(report.median_frames, 1100);
        assert_eq!(report.median_army_value["ai:easy@A"], 300);
        assert_eq!(report.median_army_value["ai:hard@B"], 500);
    }

    #[test]
    fn first_waves_are_summed_up_per_entry_over_the_games_in_which_they_set_out() {
        let names = vec!["idle@A".to_string(), "ai:hard@B".to_string()];
        let wave = |frame, units, worth| Some(FirstWave { frame, units, worth });
        let mut games = vec![
            game(1, 0, 20_000, Some("ai:hard@B"), [0, 500]),
            game(1, 1, 20_000, Some("ai:hard@B"), [0, 500]),
            game(2, 0, 20_000, Some("ai:hard@B"), [0, 500]),
            game(2, 1, 3_000, None, [0, 500]),
        ];
        games[0].first_wave[1] = wave(9_000, 20, 8_000);
        games[1].first_wave[1] = wave(10_800, 24, 9_600);
        games[2].first_wave[1] = wave(9_600, 18, 7_000);
        // Game 4 ended before it set out: it counts for nothing here.
        let report = summarize(&names, games);
        assert!(!report.first_wave.contains_key("idle@A"), "an entry that never attacked is left out");
        let hard = report.first_wave["ai:hard@B"];
        assert_eq!(
            hard,
            FirstWaveSummary {
                games: 3,
                median_frame: 9_600,
                earliest_frame: 9_000,
                latest_frame: 10_800,
                median_units: 20,
                median_worth: 8_000,
            }
        );
    }

    #[test]
    fn a_rotation_that_seats_the_same_line_up_again_is_played_once() {
        let orders = |players: &str| {
            let spec: PlayersSpec = players.parse().unwrap();
            distinct_orders(&entry_names(&spec, &["A".to_string(), "B".to_string()]))
        };
        assert_eq!(orders("ai:hard@A,ai:hard@A"), vec![0], "a mirror is one game a seed");
        assert_eq!(orders("ai:hard@A,ai:hard@B"), vec![0, 1]);
        assert_eq!(orders("ai:hard,ai:hard"), vec![0, 1], "factions filled in differ");
        assert_eq!(orders("ai:easy@A,ai:hard@A,ai:easy@A,ai:hard@A"), vec![0, 1]);
        assert_eq!(orders("ai:easy@A,ai:easy@A,ai:hard@A"), vec![0, 1, 2]);
    }

    #[test]
    fn repeated_entries_get_their_own_names_and_factions_fill_in() {
        let spec: PlayersSpec = "ai:hard,ai:hard,ai:hard@B".parse().unwrap();
        let entries = entry_names(&spec, &["A".to_string(), "B".to_string()]);
        assert_eq!(display_names(&entries), vec!["ai:hard@A", "ai:hard@B", "ai:hard@B#2"]);
    }
}
