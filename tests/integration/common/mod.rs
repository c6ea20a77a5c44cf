//! Shared helpers for the integration tests: the shipped content, the opening script, and
//! worlds built from them.
#![allow(dead_code)]

pub mod markdown;
pub mod procs;
pub mod rust_source;

use std::path::{Path, PathBuf};

use ridgeline::content::ContentRoots;
use ridgeline::defs::Definitions;
use ridgeline::session::{CommandScript, Controller, PlayersSpec};
use ridgeline::sim::World;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Content roots at the repository.
/// The game's binary as a command to run, from the game's root.
pub fn ridgeline() -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_ridgeline"));
    c.current_dir(root());
    c
}

/// The content roots of the game in this repository.
pub fn roots() -> ContentRoots {
    ContentRoots::new(vec![root()])
}

/// The shipped definitions.
pub fn defs() -> Definitions {
    Definitions::load(&roots()).expect("shipped data loads")
}

/// The opening script.
pub fn opening() -> CommandScript {
    let path = root().join("tests/data/opening.commands.ron");
    CommandScript::load(&path).expect("opening script loads")
}

/// The playable faction names.
pub fn playable() -> Vec<String> {
    defs().rules.factions.iter().filter(|f| f.playable).map(|f| f.name.clone()).collect()
}

/// A fresh world for the opening on proving_grounds, and controllers for the given spec,
/// prepared the way every match starts.
pub fn opening_game(spec: &str, seed: u64) -> (World, Vec<Box<dyn Controller>>) {
    let spec: PlayersSpec = spec.parse().expect("spec");
    let setup = spec.to_match_setup("proving_grounds", seed, &playable());
    let prepared = ridgeline::session::start::prepare(&roots(), &setup, &opening(), 0).expect("match prepares");
    (prepared.world, prepared.controllers)
}

/// A temporary directory unique to a test. The first call of a run also removes what earlier
/// runs left (the folders of test processes no longer running), so a test that keeps its
/// folder for a look after a failure does not leave it for ever.
pub fn temp_dir(name: &str) -> PathBuf {
    static SWEEP: std::sync::Once = std::sync::Once::new();
    SWEEP.call_once(sweep_earlier_runs);
    let dir = std::env::temp_dir().join(format!("ridgeline-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Removes `ridgeline-test-<pid>-…` folders in the temporary folder whose process is gone.
fn sweep_earlier_runs() {
    let me = std::process::id();
    // Without /proc a live process cannot be told from a gone one: leave everything.
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = name.strip_prefix("ridgeline-test-").and_then(|r| r.split('-').next()) else { continue };
        let Ok(pid) = pid.parse::<u32>() else { continue };
        if pid != me && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// Reads a file to a string.
pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("read")
}

/// The shipped rule files, each named `data/<file>` (so errors read as a modder sees them).
pub fn shipped_rules() -> ridgeline::defs::RuleSources {
    let read = |f: &str| ridgeline::defs::Source::from_text(format!("data/{f}"), read(&root().join("data").join(f)));
    ridgeline::defs::RuleSources {
        objects: read("objects.ron"),
        weapons: read("weapons.ron"),
        armor: read("armor.ron"),
        factions: read("factions.ron"),
        upgrades: read("upgrades.ron"),
    }
}

/// A left click in the middle of the shell's window `name` (moved to, pressed, let go), as a
/// player's would be.
pub fn click(s: &mut ridgeline::game::shell::Shell, name: &str) {
    use ridgeline::ui::{Input, MouseButton};
    let r = s.ui.window(s.find(name).unwrap_or_else(|| panic!("no window {name}"))).unwrap().rect;
    let (x, y) = (r.x + r.w / 2.0, r.y + r.h / 2.0);
    s.handle(Input::MouseMove { x, y });
    s.handle(Input::MouseDown { x, y, button: MouseButton::Left });
    s.handle(Input::MouseUp { x, y, button: MouseButton::Left });
}

/// The window size the battle tests draw for.
pub const SCREEN: glam::Vec2 = glam::Vec2::new(1280.0, 720.0);

/// A skirmish on Proving Grounds as the setup screen makes it: the tester (Coalition) against
/// a Normal computer (Dominion), seed 2.
pub fn skirmish() -> ridgeline::game::battle::Battle {
    use ridgeline::game::shell::{SkirmishConfig, SlotChoice};
    let mut cfg = SkirmishConfig::default();
    cfg.slots[1].who = SlotChoice::Computer(1);
    let factions = ["Coalition".to_string(), "Dominion".to_string()];
    let setup = cfg.to_match_setup("proving_grounds", 2, &factions, "Tester", 1);
    ridgeline::game::battle::Battle::start(&roots(), &setup, SCREEN).expect("battle starts")
}

/// Lets `seconds` pass in drawn frames of a 60th of a second.
pub fn run_for(b: &mut ridgeline::game::battle::Battle, seconds: f32) {
    for _ in 0..(seconds * 60.0) as u32 {
        b.advance(1.0 / 60.0).unwrap();
    }
}
