//! Offscreen screenshots through the very passes the window uses: a battlefield (a map played
//! for some frames, seen through the game camera), a shell screen (populated by its init
//! callback) or any layout file, or a layout over a battlefield, at any size.

use std::path::Path;

use image::RgbaImage;
use thiserror::Error;

use crate::content::ContentRoots;
use crate::defs::Definitions;
use crate::render::offscreen::{FORMAT, Offscreen};
use crate::render::{Gpu, UiPass, WorldPass};
use crate::session::{CommandScript, PlayersSpec, SlotKind, start_local};
use crate::sim::FRAMES_PER_SECOND;
use crate::ui::draw::DrawCmd;
use crate::ui::wnd::parse;
use crate::ui::{Input, MouseButton};

use super::battle::Battle;
use super::camera::Camera;
use super::frame::{self, Sight};
use super::hud;
use super::shell::{Screen, Shell};

/// Why a screenshot could not be taken.
#[derive(Debug, Error)]
pub enum ScreenshotError {
    /// The setup, a layout or the interface's images are not what a picture needs.
    #[error("{0}")]
    Content(String),
    /// The definitions are broken (every problem listed).
    #[error(transparent)]
    Definitions(#[from] crate::defs::DefsErrors),
    /// The players spec is wrong.
    #[error(transparent)]
    Players(#[from] crate::session::players::SpecError),
    /// The map could not be found or read.
    #[error(transparent)]
    Map(#[from] crate::map::MapError),
    /// The match could not start.
    #[error(transparent)]
    Start(#[from] crate::session::StartError),
    /// The battle could not be shown or run.
    #[error(transparent)]
    Battle(#[from] super::battle::BattleError),
    /// The shell (the windows drawn over the picture) could not start.
    #[error(transparent)]
    Shell(#[from] super::shell::ShellError),
    /// A file could not be read.
    #[error(transparent)]
    File(#[from] crate::content::FileError),
    /// A layout does not parse.
    #[error(transparent)]
    Layout(#[from] crate::ui::wnd::WndError),
    /// No GPU device.
    #[error(transparent)]
    Gpu(#[from] crate::render::GpuError),
    /// Reading the image back failed.
    #[error(transparent)]
    Readback(#[from] crate::render::offscreen::ReadbackError),
}

/// What a battlefield screenshot shows.
#[derive(Clone, Debug)]
pub struct WorldShot {
    /// Map name or folder.
    pub map: String,
    /// Players spec as for `sim`; none means idle in every slot.
    pub players: Option<String>,
    /// Frames to play first.
    pub frames: u32,
    /// Game seed.
    pub seed: u64,
    /// Where the camera looks; none means over the first start position.
    pub camera: Option<ShotCamera>,
    /// Image size.
    pub size: (u32, u32),
    /// Commands for `scripted` players (as `sim --commands`).
    pub script: CommandScript,
    /// Templates whose objects of player 1 are shown selected (the HUD's panel and control
    /// bar follow); empty: nothing selected.
    pub select: Vec<String>,
    /// With the HUD: a window to put the cursor over, resting until its tooltip shows.
    pub hover: Option<String>,
    /// With the HUD: the layout editor on over it, with this window selected ("": none).
    pub edit: Option<String>,
    /// Graphics quality (the scene's resolution, shadows, particles), as Options sets it.
    pub quality: crate::render::Quality,
    /// The interface's language (a string-table code, as Options sets it; empty: the game's
    /// own texts): the HUD, the names of units and structures.
    pub language: String,
    /// Seen by an observer (where no slot is a person's), with the view selector; `None`
    /// shows the first player's view as a tool does.
    pub observer: Option<ObserverView>,
}

/// What an observer's screenshot shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObserverView {
    /// Everything, no shroud.
    Everything,
    /// One player's view.
    Player(crate::sim::PlayerId),
}

impl WorldShot {
    /// A picture of `map` as it starts, idle players everywhere, at 1280×720 over the first
    /// start position; set the other fields with struct update syntax.
    pub fn new(map: &str) -> WorldShot {
        WorldShot {
            map: map.to_string(),
            players: None,
            frames: 0,
            seed: 1,
            camera: None,
            size: (1280, 720),
            script: CommandScript::default(),
            select: Vec::new(),
            hover: None,
            edit: None,
            quality: crate::render::Quality::High,
            observer: None,
            language: String::new(),
        }
    }
}

/// Where a battlefield screenshot's camera looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ShotCamera {
    /// At a ground point (x, y in cells) with a zoom (1 is the game's default).
    At(f32, f32, f32),
    /// At the biggest fight of the last frame that player 1 sees (where the most objects
    /// firing, and what they fire at, stand close together), centred between the sides so
    /// both are in view, with a zoom; where the battle put it, at that zoom, when player 1
    /// sees none.
    Fight(f32),
}

/// How near (world units) two firing objects count as one fight.
const FIGHT_REACH: f32 = 200.0;

/// One object in a fight: a shooter or what it shoots at.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Fighter {
    /// Its object number (one object counts once however many shoot at it).
    id: u64,
    /// Where it stands (display units).
    at: glam::Vec2,
    /// Whose it is.
    side: u8,
    /// Whether player 1 sees it now.
    seen: bool,
}

/// The centre of the biggest fight player 1 sees among `shots` (each a shooter and its
/// target): the shooters within [`FIGHT_REACH`] of the one with the most such neighbours,
/// with their targets, preferring groups with more of them in player 1's sight; the centre is
/// the mean of each side's mean place, so the camera stands between the sides (not over the
/// side with more men). `None` when nobody fires or player 1 sees no fight (a picture of
/// nothing but the fog is never wanted).
fn fight_centre(shots: &[(Fighter, Fighter)]) -> Option<glam::Vec2> {
    let group = |a: glam::Vec2| {
        let mut out: Vec<Fighter> = Vec::new();
        for (shooter, target) in shots.iter().filter(|(s, _)| s.at.distance(a) <= FIGHT_REACH) {
            for f in [shooter, target] {
                if !out.iter().any(|o| o.id == f.id) {
                    out.push(*f);
                }
            }
        }
        out
    };
    let score = |g: &[Fighter]| (g.iter().filter(|f| f.seen).count(), g.len());
    let best = shots.iter().map(|(s, _)| group(s.at)).max_by_key(|g| score(g))?;
    if !best.iter().any(|f| f.seen) {
        return None;
    }
    let mut sides: Vec<u8> = best.iter().map(|f| f.side).collect();
    sides.sort_unstable();
    sides.dedup();
    let mean_of = |side: u8| {
        let of: Vec<glam::Vec2> = best.iter().filter(|f| f.side == side).map(|f| f.at).collect();
        of.iter().copied().sum::<glam::Vec2>() / of.len() as f32
    };
    Some(sides.iter().map(|&s| mean_of(s)).sum::<glam::Vec2>() / sides.len() as f32)
}

/// What is drawn over a battlefield screenshot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlay<'a> {
    /// The world alone.
    None,
    /// What a player sees in a battle: tracers, health bars and the in-game top bar.
    Hud,
    /// Any layout.
    Layout(&'a Path),
}

/// A battle as `shot` describes it, watched as player 1 and played for its frames, with the
/// camera placed; and a shell for drawing its windows.
pub fn battle_for(roots: &ContentRoots, shot: &WorldShot) -> Result<(Battle, Shell), ScreenshotError> {
    let defs = Definitions::load(roots)?;
    let playable = defs.playable_factions();
    let setup = match &shot.players {
        Some(text) => text.parse::<PlayersSpec>()?.to_match_setup(&shot.map, shot.seed, &playable),
        // Idle in every start position of the map.
        None => {
            let starts = crate::map::Map::find_and_load(roots, &shot.map)?.file.players as usize;
            let spec =
                PlayersSpec(vec![crate::session::players::SlotSpec { kind: SlotKind::Idle, faction: None }; starts]);
            spec.to_match_setup(&shot.map, shot.seed, &playable)
        }
    };
    let game = start_local(roots, &setup, &shot.script)?;
    let screen = glam::Vec2::new(shot.size.0 as f32, shot.size.1 as f32);
    // Watched as player 1; nobody gives orders through this view.
    let mut battle = Battle::from_match(roots, game, screen)?;
    battle.set_effects_quality(shot.quality);
    if let Some(view) = shot.observer {
        battle.observe();
        battle.set_view(match view {
            ObserverView::Everything => None,
            ObserverView::Player(p) => Some(p),
        });
    }
    // One logic frame per step; the last one is drawn as it is (no interpolation).
    let step = 1.0 / FRAMES_PER_SECOND as f32 + 1e-4;
    while battle.world().frame().0 < shot.frames && !battle.world().is_over() {
        battle.advance(step)?;
    }
    if !shot.select.is_empty() {
        let world = battle.world();
        let chosen: Vec<_> = world
            .objects()
            .filter(|o| o.owner == battle.local() && shot.select.contains(&world.rules().template(o.template).name))
            .map(|o| o.id)
            .collect();
        battle.controls().show_selected(chosen);
    }
    place_camera(&mut battle, shot);
    let settings = std::env::temp_dir().join("ridgeline-screenshot-settings.ron");
    let mut shell = tool_shell(roots, (screen.x, screen.y), settings)?;
    shell.stage().use_language(&shot.language);
    if let Some(labels) = shell.ui.labels() {
        battle.set_labels(labels);
    }
    Ok((battle, shell))
}

/// Places the camera where `shot` asks (none: where the battle put it).
fn place_camera(battle: &mut Battle, shot: &WorldShot) {
    let place = match shot.camera {
        Some(ShotCamera::At(x, y, zoom)) => {
            Some((glam::Vec2::new(x, y) * battle.scene.map.file.cell_size as f32, zoom))
        }
        Some(ShotCamera::Fight(zoom)) => {
            let (world, look) = (battle.world(), battle.look());
            let fighter = |o: &crate::sim::object::Object| Fighter {
                id: o.id.to_bits(),
                at: super::display::to_display(o.pos),
                side: o.owner.0,
                seen: look.sees(o.id),
            };
            let shots: Vec<(Fighter, Fighter)> = world
                .objects()
                .filter_map(|o| o.target.and_then(|t| world.object(t)).map(|t| (fighter(o), fighter(t))))
                .collect();
            // Where player 1 sees no fight, the battle's own view, still at the zoom asked.
            let home = battle.picture().camera().target.truncate();
            Some((fight_centre(&shots).unwrap_or(home), zoom))
        }
        None => None,
    };
    if let Some((at, zoom)) = place {
        let camera = Camera { zoom, ..Camera::looking_at(at.extend(battle.scene.height(at))) };
        battle.controls().set_camera(camera);
    }
}

/// Plays `shot.frames` frames of a game on `shot.map` and renders the battlefield, with
/// `overlay` drawn over it.
pub fn world(roots: &ContentRoots, shot: &WorldShot, overlay: Overlay) -> Result<RgbaImage, ScreenshotError> {
    let (mut battle, mut shell) = battle_for(roots, shot)?;
    shell.prefs.settings.graphics = shot.quality;
    if overlay == Overlay::Hud {
        // As in the window: the camera may bring the map's near edge above the HUD's windows.
        shell.open(Screen::InGame);
        let covered = hud::covered_bottom(&shell, battle.picture().screen().y);
        battle.controls().set_covered_bottom(covered);
        place_camera(&mut battle, shot);
    }
    render_battle(&battle, &mut shell, shot.size, overlay, (shot.hover.as_deref(), shot.edit.as_deref()))
}

/// Renders `battle` as it stands into a `size` picture, with `overlay` over it (the HUD with
/// the cursor resting on window `hover`, if named, and the layout editor on over it with the
/// window `edit` selected, if given; "" selects none).
pub fn render_battle(
    battle: &Battle,
    shell: &mut Shell,
    size: (u32, u32),
    overlay: Overlay,
    (hover, edit): (Option<&str>, Option<&str>),
) -> Result<RgbaImage, ScreenshotError> {
    let gpu = Gpu::headless()?;
    let target = Offscreen::new(&gpu, size);
    let mut pass = WorldPass::new(&gpu.device, &gpu.queue, FORMAT, &battle.scene.statics());
    pass.set_quality(shell.prefs.settings.graphics);
    // A player's view (the HUD) is under the shroud; tool views show everything.
    let sight = if overlay == Overlay::Hud { Sight::Player } else { Sight::Everything };
    let instances = frame::instances(battle, sight);
    frame::draw_world(&gpu, &mut pass, &target.view, size, battle, sight, 0.0, &instances);
    let over = match overlay {
        Overlay::None => return Ok(target.read(&gpu)?),
        Overlay::Hud => {
            shell.open(Screen::InGame);
            hud::sync(shell, battle);
            if let Some(name) = hover {
                rest_on(shell, name)?;
            }
            if let Some(name) = edit
                && !shell.edit_with(Some(name).filter(|n| !n.is_empty()))
            {
                return Err(ScreenshotError::Content(format!("the editor has no window named {name}")));
            }
            Some(battle)
        }
        Overlay::Layout(path) => {
            // Over a battlefield the layout shows alone (not over the main menu).
            shell.close_screens();
            open_layout(shell, path)?;
            None
        }
    };
    draw_ui(&gpu, shell, &target, frame::ui_commands(shell, over, false), None)?;
    Ok(target.read(&gpu)?)
}

/// A shell for a screenshot: a broken layout is left out (and said in the log) rather than
/// stopping pictures of everything else.
fn tool_shell(
    roots: &ContentRoots,
    screen: (f32, f32),
    settings: std::path::PathBuf,
) -> Result<Shell, ScreenshotError> {
    let (shell, problems) = Shell::new_lenient(roots, screen, settings)?;
    for p in &problems {
        log::warn!("left out: {p}");
    }
    Ok(shell)
}

/// Opens a shell screen by its layout, or creates any other layout.
fn open_layout(shell: &mut Shell, layout: &Path) -> Result<(), ScreenshotError> {
    let file_name = layout.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    // A bare name is the game's (or a mod's) layout; a path that exists is that very file.
    let given = layout.components().count() > 1 || layout.is_file();
    let own = |rel: String| shell.content.roots.find(rel).and_then(|p| p.canonicalize().ok());
    let is_the_games = !given || layout.canonicalize().ok() == own(format!("ui/{file_name}"));
    let screen = Screen::for_layout(&file_name);
    if let (Some(s), true) = (screen, is_the_games) {
        if !shell.has_layout(s.layout()) {
            return Err(ScreenshotError::Content(format!("the layout {file_name} has problems (see ui-check)")));
        }
        shell.open(s);
        return Ok(());
    }
    // A bare name may be a screen a mod brings: opened as `open:` would.
    let stem = file_name.strip_suffix(".wnd").unwrap_or(&file_name);
    if !given && screen.is_none() && shell.run_action(&format!("open:{stem}")) {
        return Ok(());
    }
    let text = crate::content::read_text(layout)?;
    let file = parse(&layout.display().to_string(), &text)?;
    match screen {
        Some(s) => {
            shell.use_layout(&file_name, file);
            shell.open(s);
        }
        None => {
            shell.ui.create_layout(&file_name, &file);
        }
    }
    Ok(())
}

/// Draws `cmds` (a frame's UI, see [`frame::ui_commands`]) into a target, cleared to `clear`
/// first if given.
fn draw_ui(
    gpu: &Gpu,
    shell: &Shell,
    target: &Offscreen,
    cmds: Vec<DrawCmd>,
    clear: Option<wgpu::Color>,
) -> Result<(), ScreenshotError> {
    let atlas = load_atlas(shell)?;
    let mut pass =
        UiPass::new(&gpu.device, &gpu.queue, FORMAT, &atlas, shell.content.images.clone(), shell.content.fonts.clone());
    for (name, img) in &shell.content.dynamic_images {
        pass.set_image(&gpu.device, &gpu.queue, name, img);
    }
    pass.render(&gpu.device, &gpu.queue, &target.view, target.size, &cmds, clear);
    Ok(())
}

/// Renders a layout at `size`. `hover` names a window to put the cursor over; `edit` turns
/// the layout editor on over the screen with that window selected ("" selects none).
pub fn ui(
    roots: &ContentRoots,
    layout: &Path,
    size: (u32, u32),
    hover_edit: (Option<&str>, Option<&str>),
) -> Result<RgbaImage, ScreenshotError> {
    ui_in_language(roots, layout, size, hover_edit, "")
}

/// [`ui`] with the interface in `language` (a string-table code; empty: the game's own texts).
pub fn ui_in_language(
    roots: &ContentRoots,
    layout: &Path,
    size: (u32, u32),
    (hover, edit): (Option<&str>, Option<&str>),
    language: &str,
) -> Result<RgbaImage, ScreenshotError> {
    let screen = (size.0 as f32, size.1 as f32);
    let settings = std::env::temp_dir().join("ridgeline-screenshot-settings.ron");
    let mut shell = tool_shell(roots, screen, settings)?;
    shell.stage().use_language(language);
    open_layout(&mut shell, layout)?;
    if let Some(name) = hover {
        let (id, (x, y)) = rest_on(&mut shell, name)?;
        if shell.ui.window(id).is_some_and(|w| matches!(w.gadget, crate::ui::Gadget::ComboBox { .. })) {
            shell.handle(Input::MouseDown { x, y, button: MouseButton::Left });
        }
    }
    if let Some(name) = edit
        && !shell.edit_with(Some(name).filter(|n| !n.is_empty()))
    {
        return Err(ScreenshotError::Content(format!("the editor has no window named {name}")));
    }
    render_shell(&shell, size)
}

/// Puts the cursor on the middle of the window `name` and rests there long enough for its
/// tooltip to show; the window and the point.
fn rest_on(shell: &mut Shell, name: &str) -> Result<(crate::ui::WindowId, (f32, f32)), ScreenshotError> {
    let id = shell.find(name).ok_or_else(|| ScreenshotError::Content(format!("no window named {name}")))?;
    let r = shell.ui.window(id).map(|w| w.rect).unwrap_or_default();
    let (x, y) = (r.x + r.w / 2.0, r.y + r.h / 2.0);
    shell.handle(Input::MouseMove { x, y });
    shell.ui.advance(10_000);
    Ok((id, (x, y)))
}

/// Draws the shell's current UI offscreen.
pub fn render_shell(shell: &Shell, size: (u32, u32)) -> Result<RgbaImage, ScreenshotError> {
    let gpu = Gpu::headless()?;
    let target = Offscreen::new(&gpu, size);
    draw_ui(&gpu, shell, &target, frame::ui_commands(shell, None, false), Some(wgpu::Color::BLACK))?;
    Ok(target.read(&gpu)?)
}

/// The UI atlas the renderer draws from: the game's atlas (through the content roots, so a mod
/// may replace it) with every extra image set's atlas stacked under it; each file must have the
/// size its image set declares.
pub fn load_atlas(shell: &Shell) -> Result<RgbaImage, ScreenshotError> {
    let set = &shell.content.images;
    let mut atlas = RgbaImage::new(set.size.0.max(1), set.size.1.max(1));
    for part in &set.parts {
        let img = crate::content::open_image(&part.path)?.into_rgba8();
        if img.dimensions() != part.size {
            let (w, h) = img.dimensions();
            return Err(ScreenshotError::Content(format!(
                "{}: {w}×{h}, but its image set says {}×{}",
                part.path.display(),
                part.size.0,
                part.size.1
            )));
        }
        image::imageops::replace(&mut atlas, &img, 0, i64::from(part.y));
    }
    Ok(atlas)
}

#[cfg(test)]
mod tests {
    use super::{Fighter, ShotCamera, WorldShot, battle_for, fight_centre, place_camera};
    use crate::content::ContentRoots;
    use glam::Vec2;

    fn at(id: u64, x: f32, y: f32, side: u8, seen: bool) -> Fighter {
        Fighter { id, at: Vec2::new(x, y), side, seen }
    }

    #[test]
    fn the_fight_camera_stands_between_the_sides_of_the_biggest_fight() {
        assert_eq!(fight_centre(&[]), None);
        // Far off, one shooter of side 0 at one of side 1. Close together, four riflemen of
        // side 0 (around x 100) fire at two tanks of side 1 (x 260), one tank fires back.
        let far = (at(1, 2000.0, 0.0, 0, true), at(2, 2100.0, 0.0, 1, true));
        let tank_a = at(20, 260.0, 90.0, 1, true);
        let tank_b = at(21, 260.0, 110.0, 1, true);
        let men: Vec<Fighter> = (0..4).map(|k| at(10 + k, 100.0, 70.0 + 20.0 * k as f32, 0, true)).collect();
        let mut shots = vec![far];
        shots.extend(men.iter().map(|&m| (m, if m.id % 2 == 0 { tank_a } else { tank_b })));
        shots.push((tank_a, men[0]));
        // Between the riflemen's mean (100, 100) and the tanks' (260, 100), not over the
        // riflemen, who outnumber the tanks (the mean of all six would be x 153).
        assert_eq!(fight_centre(&shots), Some(Vec2::new(180.0, 100.0)));
    }

    #[test]
    fn the_fight_camera_prefers_a_fight_player_one_sees_and_never_frames_only_fog() {
        // A big fight in the fog (player 1 sees none of it) and a small one in sight.
        let mut shots: Vec<(Fighter, Fighter)> = (0..6)
            .map(|k| (at(k, 1000.0 + k as f32 * 10.0, 0.0, 2, false), at(100 + k, 1000.0, 80.0, 3, false)))
            .collect();
        shots.push((at(50, 0.0, 0.0, 0, true), at(51, 100.0, 0.0, 1, true)));
        assert_eq!(fight_centre(&shots), Some(Vec2::new(50.0, 0.0)));
        // With only the fight in the fog: no fight to frame.
        shots.pop();
        assert_eq!(fight_centre(&shots), None);
    }

    #[test]
    fn with_no_fight_in_sight_the_fight_camera_stays_over_the_base_at_the_zoom_asked() {
        // Frame 0: nobody fires, so there is no fight to frame.
        let roots = ContentRoots::new(vec![std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))]);
        let plain = WorldShot::new("proving_grounds");
        let home = battle_for(&roots, &plain).unwrap().0.picture().camera().target;
        let shot = WorldShot { camera: Some(ShotCamera::Fight(2.5)), ..plain };
        let (mut battle, _shell) = battle_for(&roots, &shot).unwrap();
        place_camera(&mut battle, &shot);
        let camera = battle.picture().camera();
        assert_eq!(camera.zoom, 2.5);
        assert!(camera.target.truncate().distance(home.truncate()) < 1.0, "{:?} moved from {home:?}", camera.target);
    }
}
