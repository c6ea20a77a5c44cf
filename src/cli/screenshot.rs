//! `ridgeline screenshot`: render offscreen to a PNG through the game's own renderer: a map's
//! battlefield after some frames, an interface layout, or a layout over a battlefield.
//!
//! Must not: open a window.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use ridgeline::content::ContentRoots;
use ridgeline::game::screenshot::{self, ObserverView, Overlay, ShotCamera, WorldShot};

use super::args::{load_script, parse_camera, parse_size, resolve_layout, screenshot_frames_arg};

/// `screenshot`'s arguments.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("what").required(true).multiple(true).args(["map", "ui"])))]
pub struct ScreenshotArgs {
    /// Map to show (name under maps/ or folder).
    #[arg(long)]
    map: Option<String>,
    /// The layout to show (a shell screen's layout opens that screen); with --map also
    /// `hud` (what a player sees: tracers, health bars, the top bar) or `none`.
    #[arg(long)]
    ui: Option<PathBuf>,
    /// Frames to play before the picture (with --map).
    #[arg(long, default_value_t = 0, value_parser = screenshot_frames_arg)]
    frames: u32,
    /// Players, as for `sim` (default: idle in every slot of the map).
    #[arg(long)]
    players: Option<String>,
    /// RON script of frame-stamped commands for scripted players (as for `sim`).
    #[arg(long, requires = "players")]
    commands: Option<PathBuf>,
    /// Game seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Camera as x,y,zoom: the ground point at the centre in cells, and the zoom (1 is the
    /// game's default; larger is closer); or `fight` (`fight,ZOOM`): over the biggest fight
    /// of the last frame that player 1 sees, centred between its sides. Default: over player
    /// 1's start (also when player 1 sees no fight, then at the zoom asked).
    #[arg(long, value_parser = parse_camera)]
    camera: Option<ShotCamera>,
    /// Output PNG.
    #[arg(long)]
    out: PathBuf,
    /// Size as WxH.
    #[arg(long, default_value = "1280x720", value_parser = parse_size)]
    size: (u32, u32),
    /// Put the cursor over this window (full name, e.g. MainMenu.wnd:ButtonSkirmish; with
    /// --map and --ui hud, a battle window such as InGame.wnd:ButtonCommand3).
    #[arg(long)]
    hover: Option<String>,
    /// With --map: show player 1's objects of these templates selected (comma-separated).
    #[arg(long, value_delimiter = ',')]
    select: Vec<String>,
    /// Show the layout editor (F10) over the screen, with this window selected (full name;
    /// "" selects none).
    #[arg(long)]
    edit: Option<String>,
    /// With --map: graphics quality, as Options sets it: low (half resolution, no shadows, a
    /// third of the particles), medium or high
    #[arg(long, default_value = "high")]
    quality: ridgeline::render::Quality,
    /// The interface's language: the code of a `ui/strings.<code>.ron` (as Options → Language
    /// chooses); the HUD and the names of units and structures are shown in it.
    #[arg(long, default_value = "")]
    language: String,
    /// With --map and no person playing (computers, idle or scripted slots): show it as an
    /// observer sees it, with the view selector: `all` (everything) or a player's number (1 is
    /// the first).
    #[arg(long, value_parser = parse_observer)]
    observer: Option<ObserverView>,
}

/// `--observer`: `all` or a player's number from 1.
fn parse_observer(s: &str) -> Result<ObserverView, String> {
    if s == "all" {
        return Ok(ObserverView::Everything);
    }
    match s.parse::<u8>() {
        Ok(n) if n >= 1 => Ok(ObserverView::Player(ridgeline::sim::PlayerId(n - 1))),
        _ => Err(format!("{s}: expected all or a player's number (1 is the first)")),
    }
}

/// Runs `screenshot`.
pub fn run(roots: &ContentRoots, args: ScreenshotArgs) -> Result<()> {
    if args.map.is_none() && (args.commands.is_some() || !args.select.is_empty() || args.players.is_some()) {
        bail!("--commands, --players and --select act on a battle: give --map too");
    }
    let languages = ridgeline::ui::labels::Labels::languages(roots);
    if !args.language.is_empty() && !languages.iter().any(|l| l.code == args.language) {
        let known: Vec<&str> = languages.iter().map(|l| l.code.as_str()).collect();
        bail!(
            "--language {}: no ui/strings.{}.ron in the game or its mods (there are: {})",
            args.language,
            args.language,
            if known.is_empty() { "none".to_string() } else { known.join(", ") }
        );
    }
    let hud = args.ui.as_ref().is_some_and(|u| u.as_os_str() == "hud");
    let layout =
        args.ui.filter(|u| u.as_os_str() != "none" && u.as_os_str() != "hud").map(|ui| resolve_layout(roots, &ui));
    let img = match args.map {
        Some(map) => {
            let slots = args.players.as_deref().map_or(0, |p| p.split(',').count());
            let script = load_script(args.commands.as_deref(), slots)?;
            let shot = WorldShot {
                map,
                players: args.players,
                frames: args.frames,
                seed: args.seed,
                camera: args.camera,
                size: args.size,
                script,
                select: args.select,
                hover: args.hover,
                edit: args.edit,
                quality: args.quality,
                observer: args.observer,
                language: args.language.clone(),
            };
            let overlay = match (&layout, hud) {
                (Some(path), _) => Overlay::Layout(path),
                (None, true) => Overlay::Hud,
                (None, false) => Overlay::None,
            };
            screenshot::world(roots, &shot, overlay)?
        }
        None => match layout {
            Some(ui) => {
                let hover_edit = (args.hover.as_deref(), args.edit.as_deref());
                screenshot::ui_in_language(roots, &ui, args.size, hover_edit, &args.language)?
            }
            None => bail!("--ui none shows nothing without --map"),
        },
    };
    save_png(&img, &args.out)
}

/// Writes a screenshot and says so.
fn save_png(img: &image::RgbaImage, out: &Path) -> Result<()> {
    ridgeline::content::write_image(out, img)?;
    println!("wrote {} ({}x{})", out.display(), img.width(), img.height());
    Ok(())
}
