//! `ridgeline render-audio`: the sound of a replay or a headless game rendered offline through
//! the game's mixer, heard from a camera following the largest fight, as a WAV.
//!
//! Must not: open a sound device.

use std::path::PathBuf;

use anyhow::{Result, bail};
use ridgeline::audio::backend::SAMPLE_RATE;
use ridgeline::content::ContentRoots;
use ridgeline::game::offline_audio::{RenderSpec, levels, render_match, write_wav};
use ridgeline::session::{CommandScript, PlayersSpec, Replay, start_local};

use super::args::{frames_arg, playable_factions};

/// `render-audio`'s arguments.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("game").required(true).args(["replay", "map"])))]
pub struct RenderAudioArgs {
    /// A saved replay.
    #[arg(long, conflicts_with_all = ["map", "players", "seed"])]
    replay: Option<PathBuf>,
    /// Map name (under maps/) or folder.
    #[arg(long, requires = "players")]
    map: Option<String>,
    /// Players, as for `sim`.
    #[arg(long, requires = "map")]
    players: Option<String>,
    /// Frames to run (with --map; a replay runs to its end).
    #[arg(long, value_parser = frames_arg)]
    frames: Option<u32>,
    /// Game seed.
    #[arg(long)]
    seed: Option<u64>,
    /// First frame heard.
    #[arg(long, default_value_t = 0)]
    from: u32,
    /// Last frame heard.
    #[arg(long)]
    to: Option<u32>,
    /// With the soundtrack.
    #[arg(long)]
    music: bool,
    /// Output WAV.
    #[arg(long)]
    out: PathBuf,
}

/// Runs `render-audio`.
pub fn run(roots: &ContentRoots, args: RenderAudioArgs) -> Result<()> {
    let (mut game, end, recorded) = match (&args.replay, &args.map, &args.players) {
        (Some(path), _, _) => {
            let replay = Replay::load(path)?;
            let mut game = start_local(roots, &replay.setup.for_playback(), &CommandScript::default())?;
            game.session.play_back(&replay.commands);
            (game, replay.frames, Some((path.clone(), replay.final_hash.clone())))
        }
        (None, Some(map), Some(players)) => {
            let spec: PlayersSpec = players.parse()?;
            let setup = spec.to_match_setup(map, args.seed.unwrap_or(1), &playable_factions(roots)?);
            let Some(frames) = args.frames else { bail!("--frames is needed with --map") };
            (start_local(roots, &setup, &CommandScript::default())?, frames, None)
        }
        _ => bail!("give --replay <file>, or --map and --players"),
    };
    let spec = RenderSpec { from: args.from, to: args.to.unwrap_or(end).min(end), music: args.music };
    // The samples are held in memory: a length past the limit is refused before any is made.
    let max = ridgeline::content::limits::MAX_RENDERED_SECONDS;
    let seconds = spec.to.saturating_sub(spec.from) / ridgeline::sim::FRAMES_PER_SECOND;
    if seconds > max {
        bail!(
            "{seconds} s of sound asked for; render-audio renders at most {max} s at once (the limit): give --from and --to"
        );
    }
    let samples = render_match(roots, &mut game, spec)?;
    // A replay that plays back otherwise than it was recorded (other content, another version)
    // is the sound of another game: refused, not rendered silently.
    if let Some((path, hash)) = recorded {
        let world = game.session.world();
        let played = format!("{:016x}", world.state_hash().total);
        let diverged = world.is_over() && world.frame().0 < end;
        if (world.frame().0 >= end && played != hash) || diverged {
            bail!(
                "{}: the replay does not play back as recorded (final state {played}, recorded {}): other content or another version; no WAV written",
                path.display(),
                hash.chars().take(64).collect::<String>()
            );
        } else if world.frame().0 < end {
            eprintln!(
                "note: rendered to frame {} of {end}; the replay's final state (checked at its end) was not reached",
                world.frame().0
            );
        }
    }
    write_wav(&args.out, &samples)?;
    let second = levels(&samples, SAMPLE_RATE as usize);
    let loud = second.iter().filter(|(_, rms)| *rms > 0.01).count();
    let peak = second.iter().fold(0.0f32, |m, (p, _)| m.max(*p));
    println!(
        "wrote {} ({:.1} s, {} of its seconds with sound, peak {:.2})",
        args.out.display(),
        samples.len() as f32 / 2.0 / SAMPLE_RATE as f32,
        loud,
        peak
    );
    Ok(())
}
