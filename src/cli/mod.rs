//! The command line's room: the argument tree, one file per command, and the argument groups
//! they share (`args.rs`). `main.rs` only parses, sets up logging and maps the result to an exit
//! code; DESIGN.md's command-line contract is what each command here answers to.
//!
//! Must not: hold game logic (each command calls the library and prints what it returns).

mod args;
mod bench;
mod data_check;
mod gallery;
mod gen_art;
mod host;
mod join;
mod map_check;
mod map_gen;
mod mod_new;
mod online;
mod relay;
mod render_audio;
mod screenshot;
mod sim;
mod tournament;
mod ui_check;
mod ui_import;

use std::path::PathBuf;

use anyhow::Result;
use clap::{Parser, Subcommand};
use ridgeline::content::ContentRoots;

/// The whole command line.
#[derive(Parser)]
#[command(name = "ridgeline", version, about = "A lockstep real-time strategy game")]
pub struct Cli {
    /// A mod folder whose data/, ui/ and maps/ override the game's (may repeat; first wins).
    #[arg(long = "mod", global = true, value_name = "DIR", value_parser = args::mod_folder)]
    mods: Vec<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

/// One command.
#[derive(Subcommand)]
enum Command {
    /// Open the game at the main menu (the default).
    Play,
    /// Run a game headless and report its hash.
    Sim(sim::SimArgs),
    /// Host a headless online game: prints `join-code: <code>`, waits for a joiner per
    /// `remote` slot, then plays like `sim`.
    Host(host::HostArgs),
    /// Join a hosted game and play the slot the host gives this machine.
    Join(join::JoinArgs),
    /// Run the rendezvous-and-relay service that lets friends behind home NATs meet with just
    /// a code (`host --relay <this address>`): prints `relay: <ip:port>`, runs until killed.
    Relay(relay::RelayArgs),
    /// Play seeded headless games between AI entries, each entry in every slot, and print who
    /// won, draws, game length and the army left.
    Tournament(tournament::TournamentArgs),
    /// Check everything in data/ and maps/ (with --mod, the mod's changes with the game's):
    /// rules, sounds, model kits, AI plans, the score, road types, terrain classes and maps.
    DataCheck,
    /// Validate a map and print its statistics.
    MapCheck(map_check::MapCheckArgs),
    /// Regenerate a map's heightmap and terrain classes from its terrain.ron.
    MapGen(map_gen::MapGenArgs),
    /// Regenerate the project's generated art (data/roads.png, ui/ui.png and ui/images.ron).
    GenArt,
    /// Regenerate the project's synthesised sounds (data/sounds/*.wav).
    GenSounds,
    /// Render the sound of a saved or headless game offline through the game's mixer, heard
    /// from a camera that follows the largest fight, as a 48 kHz stereo 16-bit WAV.
    RenderAudio(render_audio::RenderAudioArgs),
    /// Render offscreen to a PNG through the game's own renderer: a map's battlefield after some
    /// frames, an interface layout, or a layout over a battlefield.
    Screenshot(screenshot::ScreenshotArgs),
    /// Render the review gallery: every unit and structure of each faction, damage stages,
    /// construction, units in motion, a base and a battle, as PNGs in a folder.
    Gallery(gallery::GalleryArgs),
    /// Parse layouts and bind their callbacks, images and fonts (all of ui/*.wnd by default).
    UiCheck(ui_check::UiCheckArgs),
    /// Write a layout through the canonical layout writer (the one the layout editor uses).
    UiFmt(ui_check::UiFmtArgs),
    /// Turn another game's mapped images (Generals-style INI and textures) into a mod's atlas.
    UiImport(ui_import::UiImportArgs),
    /// Make and manage mods.
    Mod {
        /// What to do.
        #[command(subcommand)]
        what: mod_new::ModCommand,
    },
    /// Print measured figures as JSON.
    Bench {
        /// What to measure.
        #[command(subcommand)]
        what: bench::BenchKind,
    },
}

impl Cli {
    /// True when the command only measures (the one thing a build without the hash's upkeep
    /// may run).
    pub fn only_measures(&self) -> bool {
        matches!(self.command, Some(Command::Bench { .. }))
    }

    /// Runs the command (the game's main menu without one).
    pub fn run(self) -> Result<()> {
        let mut roots = ContentRoots::discover()?;
        for m in self.mods.iter().rev() {
            roots = roots.with_mod(m.clone());
        }
        let command = self.command.unwrap_or(Command::Play);
        // The checks report a broken mod themselves, and the window sets it aside with a
        // notice; any other command refuses it rather than run without it, silently.
        let reports_mods =
            matches!(command, Command::Play | Command::DataCheck | Command::UiCheck(_) | Command::Mod { .. });
        if !self.mods.is_empty() && !reports_mods {
            let problems = ridgeline::content::mod_info::problems(&roots);
            if !problems.is_empty() {
                anyhow::bail!("a mod given with --mod cannot be used:\n  {}", problems.join("\n  "));
            }
        }
        match command {
            Command::Play => {
                let settings = ridgeline::game::settings::Settings::default_path().map_err(anyhow::Error::msg)?;
                ridgeline::game::app::run(roots, settings)?;
                Ok(())
            }
            Command::Sim(a) => sim::run(&roots, a),
            Command::Host(a) => host::run(&roots, a),
            Command::Join(a) => join::run(&roots, a),
            Command::Relay(a) => relay::run(a),
            Command::Tournament(a) => tournament::run(&roots, a),
            Command::DataCheck => data_check::run(&roots),
            Command::MapCheck(a) => map_check::run(&roots, a),
            Command::MapGen(a) => map_gen::run(&roots, a),
            Command::GenArt => gen_art::art(&roots),
            Command::GenSounds => gen_art::sounds(&roots),
            Command::RenderAudio(a) => render_audio::run(&roots, a),
            Command::Screenshot(a) => screenshot::run(&roots, a),
            Command::Gallery(a) => gallery::run(&roots, a),
            Command::UiCheck(a) => ui_check::check(&roots, a),
            Command::UiFmt(a) => ui_check::fmt(a),
            Command::UiImport(a) => ui_import::run(a),
            Command::Mod { what } => mod_new::run(&roots, what),
            Command::Bench { what } => bench::run(&roots, what),
        }
    }
}
