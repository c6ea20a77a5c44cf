//! Sound: the shipped sound data holds together, the mixer (heard through a capture backend)
//! turns a battle's events into placed, capped, volume-scaled sound, the generated files
//! regenerate byte for byte, `render-audio` renders a game, and the device tiers fail over to
//! silence without a hang.

use crate::common;

use std::time::{Duration, Instant};

use ridgeline::audio::cues::{Cues, names};
use ridgeline::audio::mixer::MAX_VOICES;
use ridgeline::audio::{Capture, Ear, Mixer, OutputSettings, Placement, Tier, Volumes, open_mixer};
use ridgeline::defs::{Definitions, SoundTable};
use ridgeline::sim::event::GameEvent;
use ridgeline::sim::ids::WeaponId;
use ridgeline::sim::{ObjectId, Vec2};

const FULL: Volumes = Volumes { master: 100, effects: 100, voice: 100, music: 100 };

fn mixer(volumes: Volumes) -> (Mixer, Capture) {
    let capture = Capture::new();
    let m = open_mixer(&common::roots(), OutputSettings::Capture(capture.clone()), volumes, 7).unwrap();
    (m, capture)
}

fn rms(s: &[f32]) -> f32 {
    (s.iter().map(|x| x * x).sum::<f32>() / s.len().max(1) as f32).sqrt()
}

/// Root mean square of each channel: (left, right).
fn channels(s: &[f32]) -> (f32, f32) {
    let left: Vec<f32> = s.iter().step_by(2).copied().collect();
    let right: Vec<f32> = s.iter().skip(1).step_by(2).copied().collect();
    (rms(&left), rms(&right))
}

fn rifle(defs: &Definitions) -> WeaponId {
    WeaponId(defs.rules.weapons.iter().position(|w| w.name == "Rifle").unwrap() as u16)
}

fn shot(weapon: WeaponId, x: i64, y: i64) -> GameEvent {
    let id = ObjectId { index: 1, generation: 0 };
    GameEvent::WeaponFired {
        shooter: id,
        weapon,
        from: Vec2::from_int(x, y),
        target: id,
        at: Vec2::from_int(x + 50, y),
    }
}

/// Plays what `events` sound like, heard from an ear over (500, 500), and renders `seconds`.
fn hear(m: &mut Mixer, capture: &Capture, defs: &Definitions, events: &[GameEvent], seconds: f32) -> Vec<f32> {
    let ear = Ear::new([500.0, 500.0], 200.0);
    for h in Cues::default().note(defs, events, 100, None, &ear, |_| true) {
        m.play(&h.name, h.at);
    }
    capture.render((48_000.0 * seconds) as usize)
}

#[test]
fn the_shipped_sound_data_is_whole() {
    let roots = common::roots();
    let table = SoundTable::load(&roots).unwrap();
    let defs = common::defs();
    table.check(&defs.sound_refs).unwrap();
    for name in names::ALL {
        assert!(table.get(name).is_some(), "data/sounds.ron lacks {name}, which the game plays");
    }
    // Every weapon has a shot and every unit a voice.
    for (i, w) in defs.rules.weapons.iter().enumerate() {
        assert!(defs.weapon_sounds[i].fire.is_some(), "weapon {} is silent", w.name);
    }
    for (i, t) in defs.rules.templates.iter().enumerate() {
        if t.is_mobile() {
            let s = &defs.object_sounds[i];
            assert!(s.select.is_some() && s.order.is_some() && s.death.is_some(), "{} lacks sounds", t.name);
        }
    }
    ridgeline::audio::bank::Bank::load(&table, &roots).unwrap();
    ridgeline::audio::music::Score::load(&roots).unwrap();
}

#[test]
fn a_missing_sound_is_refused_with_the_objects_line() {
    let mut src = common::shipped_rules();
    src.weapons.text = src.weapons.text.replacen("sound: \"RifleShot\"", "sound: \"RifelShot\"", 1);
    let defs = Definitions::from_sources(&src).unwrap();
    let table = SoundTable::load(&common::roots()).unwrap();
    let e = table.check(&defs.sound_refs).unwrap_err().to_string();
    let line = src.weapons.text.lines().position(|l| l.contains("RifelShot")).unwrap() + 1;
    assert!(e.contains(&format!("weapons.ron:{line}")) && e.contains("Rifle") && e.contains("RifelShot"), "{e}");
}

#[test]
fn regenerating_the_sounds_gives_the_files_checked_in() {
    let dir = common::root().join("data/sounds");
    for (name, bytes) in ridgeline::art::sounds::generate() {
        let shipped = std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("data/sounds/{name}: {e}"));
        assert!(shipped == bytes, "data/sounds/{name} differs from what gen-sounds makes: run `ridgeline gen-sounds`");
    }
}

#[test]
fn a_fired_weapon_is_heard_and_silence_is_silent() {
    let defs = common::defs();
    let (mut m, capture) = mixer(FULL);
    let before = capture.render(4_800);
    assert_eq!(rms(&before), 0.0, "nothing plays before anything happens");
    let after = hear(&mut m, &capture, &defs, &[shot(rifle(&defs), 500, 500)], 0.2);
    assert!(rms(&after) > 0.01, "a rifle shot in view is heard (rms {})", rms(&after));
    assert_eq!(m.playing("RifleShot"), 1);
    // Out of range: nothing.
    let (mut m, capture) = mixer(FULL);
    let far = hear(&mut m, &capture, &defs, &[shot(rifle(&defs), 5_000, 500)], 0.2);
    assert_eq!(rms(&far), 0.0);
}

#[test]
fn a_shot_left_of_the_camera_is_in_the_left_channel() {
    let defs = common::defs();
    let (mut m, capture) = mixer(FULL);
    let (l, r) = channels(&hear(&mut m, &capture, &defs, &[shot(rifle(&defs), 340, 500)], 0.2));
    assert!(l > 2.0 * r && r > 0.0, "left {l}, right {r}");
    let (mut m, capture) = mixer(FULL);
    let (l, r) = channels(&hear(&mut m, &capture, &defs, &[shot(rifle(&defs), 660, 500)], 0.2));
    assert!(r > 2.0 * l && l > 0.0, "left {l}, right {r}");
}

#[test]
fn the_volume_sliders_scale_the_output() {
    let defs = common::defs();
    let level = |v: Volumes| {
        let (mut m, capture) = mixer(v);
        rms(&hear(&mut m, &capture, &defs, &[shot(rifle(&defs), 500, 500)], 0.2))
    };
    let full = level(FULL);
    let half_effects = level(Volumes { effects: 50, ..FULL });
    let half_master = level(Volumes { master: 50, ..FULL });
    let no_effects = level(Volumes { effects: 0, ..FULL });
    let no_voice = level(Volumes { voice: 0, ..FULL });
    assert!(half_effects < 0.7 * full && half_effects > 0.2 * full, "{half_effects} of {full}");
    assert!(half_master < 0.7 * full && half_master > 0.2 * full, "{half_master} of {full}");
    assert!(no_effects < 0.002 * full.max(1e-3), "effects at 0 leave {no_effects}");
    assert_eq!(no_voice, full, "a shot is not on the voice slider");
    // Changing the volume while playing takes effect at once (after its short fade).
    let (mut m, capture) = mixer(FULL);
    hear(&mut m, &capture, &defs, &[shot(rifle(&defs), 500, 500)], 0.0);
    m.set_volumes(Volumes { master: 0, ..FULL });
    capture.render(4_800);
    assert!(rms(&capture.render(2_400)) < 1e-4);
}

#[test]
fn three_hundred_shots_in_one_frame_keep_to_the_cap_and_never_clip() {
    let defs = common::defs();
    let (mut m, capture) = mixer(FULL);
    let cap = SoundTable::load(&common::roots()).unwrap().get("RifleShot").unwrap().max as usize;
    let events: Vec<GameEvent> = (0..300).map(|i| shot(rifle(&defs), 400 + i % 200, 500)).collect();
    hear(&mut m, &capture, &defs, &events, 0.0);
    assert_eq!(m.playing("RifleShot"), cap);
    let out = capture.render(14_400);
    let peak = out.iter().fold(0.0f32, |a, s| a.max(s.abs()));
    assert!(peak < 0.99 && peak > 0.05, "peak {peak}");
    assert!(m.voices() <= MAX_VOICES);
}

#[test]
fn announcements_are_for_the_local_player_and_under_attack_waits_between_alarms() {
    let defs = common::defs();
    let ear = Ear::new([0.0, 0.0], 200.0);
    let me = ridgeline::sim::PlayerId(0);
    let other = ridgeline::sim::PlayerId(1);
    let id = ObjectId { index: 3, generation: 0 };
    let attacked = |p| GameEvent::UnderAttack { player: p, object: id, at: Vec2::from_int(0, 0) };
    let mut cues = Cues::default();
    let heard = |h: Vec<ridgeline::audio::cues::Heard>| h.into_iter().map(|h| h.name).collect::<Vec<_>>();
    assert_eq!(heard(cues.note(&defs, &[attacked(me)], 10, Some(me), &ear, |_| true)), vec![names::UNDER_ATTACK]);
    assert!(heard(cues.note(&defs, &[attacked(me)], 100, Some(me), &ear, |_| true)).is_empty(), "too soon again");
    assert!(heard(cues.note(&defs, &[attacked(other)], 400, Some(me), &ear, |_| true)).is_empty(), "not mine");
    assert_eq!(heard(cues.note(&defs, &[attacked(me)], 400, Some(me), &ear, |_| true)), vec![names::UNDER_ATTACK]);
    // A shot under the shroud is not heard.
    let hidden = cues.note(&defs, &[shot(rifle(&defs), 0, 0)], 401, Some(me), &ear, |_| false);
    assert!(hidden.is_empty());
    let flat = cues.note(&defs, &[shot(rifle(&defs), 0, 0)], 402, Some(me), &ear, |_| true);
    assert_eq!(flat.len(), 1);
    assert_eq!(flat[0].at, Placement { pan: 0.0, gain: 1.0 });
}

#[test]
fn no_device_means_silence_and_every_tier_says_why() {
    let settings = OutputSettings::Device {
        tiers: vec![Tier::Pulse, Tier::Alsa],
        alsa_device: "ridgeline_no_such_device".into(),
        timeout: Duration::from_secs(2),
        pulse_socket: Some(common::temp_dir("no-pulse").join("native")),
    };
    let err = match open_mixer(&common::roots(), settings, FULL, 1) {
        Ok(_) => panic!("an output opened where there is none"),
        Err(e) => e.to_string(),
    };
    assert!(err.contains("PulseAudio") && err.contains("ALSA"), "{err}");
    // Each tier refused with its own reason rather than being given up on (the test does not
    // time anything: a tier that hung would say "no answer").
    assert!(!err.contains("no answer"), "{err}");
    // And the game's own entry point goes on silent.
    let mut audio = ridgeline::audio::Audio::silent();
    audio.play(names::CLICK, Placement::FLAT);
    assert!(audio.mixer().is_none());
}

#[test]
fn alsa_plays_into_a_file_where_libasound_is_present() {
    let dir = common::temp_dir("alsa-file");
    let raw = dir.join("out.raw");
    let settings = OutputSettings::Device {
        tiers: vec![Tier::Alsa],
        alsa_device: format!("file:'{}',raw", raw.display()),
        timeout: Duration::from_secs(3),
        pulse_socket: None,
    };
    // Only a system without libasound at all may not play; where the library is, ALSA's file
    // PCM must open.
    let libasound = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"]
        .iter()
        .any(|d| std::path::Path::new(d).join("libasound.so.2").exists());
    let mut m = match open_mixer(&common::roots(), settings, FULL, 1) {
        Ok(m) => m,
        Err(e) => {
            let why = e.to_string();
            assert!(!libasound, "libasound.so.2 is installed, yet ALSA's file output failed: {why}");
            println!("skipped: this system has no libasound.so.2 ({why})");
            return;
        }
    };
    assert_eq!(m.tier(), Some(Tier::Alsa));
    assert!(m.play(names::UNIT_READY, Placement::FLAT));
    // The device is fed in real time: wait for the announcement to be written (bounded).
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut loud = 0.0f32;
    while Instant::now() < deadline && loud < 0.05 {
        std::thread::sleep(Duration::from_millis(100));
        let bytes = std::fs::read(&raw).unwrap_or_default();
        let samples: Vec<f32> = bytes.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        loud = samples.iter().fold(0.0, |a, s| a.max(s.abs()));
    }
    drop(m);
    assert!(loud > 0.05, "the file holds what was played (peak {loud})");
}

/// Runs `ridgeline render-audio` and reads the WAV back as (left, right) pairs.
fn render_audio(args: &[&str], name: &str) -> Vec<(i16, i16)> {
    let out = common::temp_dir(name).join("battle.wav");
    let status = common::ridgeline().args(["render-audio", "--out"]).arg(&out).args(args).output().unwrap();
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    let reader = hound::WavReader::open(&out).unwrap();
    assert_eq!((reader.spec().channels, reader.spec().sample_rate, reader.spec().bits_per_sample), (2, 48_000, 16));
    let s: Vec<i16> = reader.into_samples::<i16>().map(Result::unwrap).collect();
    s.chunks_exact(2).map(|c| (c[0], c[1])).collect()
}

/// Root mean square of each second, 0–1.
fn seconds(s: &[(i16, i16)]) -> Vec<f32> {
    s.chunks(48_000)
        .map(|c| {
            (c.iter().map(|&(l, r)| (l as f32).powi(2) + (r as f32).powi(2)).sum::<f32>() / (2 * c.len()) as f32).sqrt()
                / 32_768.0
        })
        .collect()
}

#[test]
fn render_audio_hears_a_fight_keeps_quiet_when_nothing_happens_and_never_clips() {
    let quiet =
        render_audio(&["--map", "proving_grounds", "--players", "idle,idle", "--frames", "300"], "render-quiet");
    assert_eq!(quiet.len(), 300 * 1_600, "ten seconds at 48 kHz");
    assert!(quiet.iter().all(|&(l, r)| l.unsigned_abs() < 30 && r.unsigned_abs() < 30), "an idle game is silent");
    // Two brutal AIs meet on Proving Grounds at about frame 9,700 (their first wave sets out
    // after five minutes and marches as one group, so the fight starts all at once).
    let fight = render_audio(
        &[
            "--map",
            "proving_grounds",
            "--players",
            "ai:brutal,ai:brutal",
            "--frames",
            "10100",
            "--from",
            "9560",
            "--seed",
            "1",
        ],
        "render-fight",
    );
    assert_eq!(fight.len(), 540 * 1_600);
    let levels = seconds(&fight);
    assert!(levels.iter().any(|&l| l > 0.05), "the fight is heard: {levels:?}");
    assert!(levels[0] < 0.01, "before the armies meet it is quiet: {levels:?}");
    assert!(fight.iter().all(|&(l, r)| l.abs() < 32_700 && r.abs() < 32_700), "no sample reaches full scale");
}

#[test]
fn pausing_holds_the_sound_and_resuming_lets_it_go_on() {
    let defs = common::defs();
    let (mut m, capture) = mixer(FULL);
    hear(&mut m, &capture, &defs, &[shot(rifle(&defs), 500, 500)], 0.01);
    m.set_paused(true);
    capture.render(4_800); // the short fade out
    assert!(rms(&capture.render(2_400)) < 1e-4, "held while minimised");
    assert!(!m.play("RifleShot", Placement::FLAT), "nothing new starts while held");
    m.set_paused(false);
    capture.render(960);
    assert!(rms(&capture.render(2_400)) > 1e-3, "the shot goes on where it was held");
}

#[test]
fn heavy_hits_land_loudly_and_refused_orders_buzz_for_their_player_only() {
    let defs = common::defs();
    let ear = Ear::new([0.0, 0.0], 200.0);
    let me = ridgeline::sim::PlayerId(0);
    let id = ObjectId { index: 3, generation: 0 };
    let hit = |damage| GameEvent::Hit { target: id, attacker: id, damage, at: Vec2::from_int(10, 0) };
    let refused = |player, reason| {
        GameEvent::OrderRefused(ridgeline::sim::Rejection {
            frame: ridgeline::sim::Frame(5),
            player,
            id: ridgeline::sim::CommandId(1),
            reason,
        })
    };
    let mut cues = Cues::default();
    let mut names_of = |events: &[GameEvent]| {
        cues.note(&defs, events, 10, Some(me), &ear, |_| true).into_iter().map(|h| h.name).collect::<Vec<_>>()
    };
    assert_eq!(names_of(&[hit(60)]), vec![names::IMPACT]);
    assert!(names_of(&[hit(8)]).is_empty(), "a bullet is heard as its shot, not its hit");
    let poor = ridgeline::sim::RejectReason::NotEnoughMoney { cost: 500, money: 20 };
    assert_eq!(names_of(&[refused(me, poor.clone())]), vec![names::INSUFFICIENT_FUNDS]);
    assert!(names_of(&[refused(ridgeline::sim::PlayerId(1), poor)]).is_empty());
    let blocked = ridgeline::sim::RejectReason::QueueFull(id);
    assert_eq!(names_of(&[refused(me, blocked)]), vec![names::REFUSED]);
}

#[test]
fn ui_check_refuses_a_layout_naming_a_sound_the_table_lacks() {
    let bindings = ridgeline::game::shell::load_bindings(&common::roots()).unwrap();
    let layout = |sound: &str| {
        format!(
            "WINDOW\n WINDOWTYPE = PUSHBUTTON;\n SCREENRECT = UPPERLEFT: 0 0, BOTTOMRIGHT: 10 10, CREATIONRESOLUTION: 800 600;\n NAME = \"T.wnd:B\";\n CLICKSOUND = \"{sound}\";\nEND\n"
        )
    };
    let ok = ridgeline::ui::check::check("T.wnd", &layout("Sold"), Some(&bindings));
    assert!(ok.problems.is_empty(), "{:?}", ok.problems);
    let silent = ridgeline::ui::check::check("T.wnd", &layout("[None]"), Some(&bindings));
    assert!(silent.problems.is_empty());
    let bad = ridgeline::ui::check::check("T.wnd", &layout("Sould"), Some(&bindings));
    let text = bad.problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n");
    assert!(text.contains("T.wnd:5:2:") && text.contains("CLICKSOUND") && text.contains("Sould"), "{text}");
}

#[test]
fn a_mod_naming_a_sound_that_is_not_there_is_refused_at_load() {
    let dir = common::temp_dir("mod-bad-sound");
    std::fs::create_dir_all(dir.join("data")).unwrap();
    let weapons = common::read(&common::root().join("data/weapons.ron")).replacen("\"Cannon\"", "\"Canon\"", 1);
    std::fs::write(dir.join("data/weapons.ron"), &weapons).unwrap();
    let roots = common::roots().with_mod(dir.clone());
    let e = Definitions::load(&roots).unwrap_err().to_string();
    let line = weapons.lines().position(|l| l.contains("\"Canon\"")).unwrap() + 1;
    assert!(e.contains(&format!("weapons.ron:{line}")) && e.contains("\"Canon\""), "{e}");
}
