//! The game's mixer on kira: one track per category (effects, voice, interface, music) under a
//! master volume, sounds played by name from the bank with their variant and pitch picked on
//! the client's own random source, at most `max` copies of a name and [`MAX_VOICES`] in all
//! (a sound of higher priority takes the place of the lowest), and the soundtrack's layers.
//!
//! Must not: read the simulation or decide what is heard (the cue and music modules do), or
//! draw from the game's random source (the simulation's).

use std::collections::BTreeMap;
use std::time::Duration;

use kira::sound::PlaybackState;
use kira::sound::static_sound::{StaticSoundData, StaticSoundHandle};
use kira::track::{TrackBuilder, TrackHandle};
use kira::{AudioManager, AudioManagerSettings, Decibels, Panning, PlaybackRate, Tween};

use super::backend::{Capture, Output, OutputError, OutputSettings, Tier};
use super::bank::Bank;
use super::ear::Placement;
use super::limiter::LimiterBuilder;
use super::synth::Noise;
use crate::defs::Category;
use kira::effect::compressor::CompressorBuilder;

/// Most sounds playing at once, music aside.
pub const MAX_VOICES: usize = 48;
/// How quickly volume changes take effect.
const VOLUME_TWEEN: Duration = Duration::from_millis(60);
/// How long the soundtrack takes to cross-fade between moods.
const MUSIC_FADE: Duration = Duration::from_millis(1500);

/// The four volumes of the options screen, in percent (0–100).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Volumes {
    /// Everything.
    pub master: u8,
    /// Weapons, explosions and the interface.
    pub effects: u8,
    /// Acknowledgements and announcements.
    pub voice: u8,
    /// The soundtrack.
    pub music: u8,
}

impl Default for Volumes {
    fn default() -> Self {
        Volumes { master: 80, effects: 80, voice: 80, music: 60 }
    }
}

/// Percent to kira's decibels (0 is silence).
pub fn decibels(percent: f32) -> Decibels {
    if percent <= 0.0 {
        Decibels::SILENCE
    } else {
        Decibels((20.0 * (percent / 100.0).log10()).max(Decibels::SILENCE.0))
    }
}

/// The slider a category follows: the interface with the effects.
fn category_volume(v: Volumes, c: Category) -> u8 {
    match c {
        Category::Effects | Category::Ui => v.effects,
        Category::Voice => v.voice,
        Category::Music => v.music,
    }
}

/// The soundtrack's state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mood {
    /// No music.
    Off,
    /// The menu theme.
    Menu,
    /// Battle music; `intensity` (0–1) brings in the second layer.
    Battle {
        /// How much fighting is heard.
        intensity: f32,
    },
}

/// A playing sound the mixer keeps count of.
struct Voice {
    handle: StaticSoundHandle,
    priority: u8,
}

/// The soundtrack's loops (made from the score) and their handles while playing.
#[derive(Default)]
struct Soundtrack {
    menu: Option<StaticSoundData>,
    calm: Option<StaticSoundData>,
    intense: Option<StaticSoundData>,
    playing_menu: Option<StaticSoundHandle>,
    playing_calm: Option<StaticSoundHandle>,
    playing_intense: Option<StaticSoundHandle>,
    mood: Option<Mood>,
}

/// The game's mixer.
pub struct Mixer {
    manager: AudioManager<Output>,
    tracks: Vec<TrackHandle>,
    bank: Bank,
    playing: BTreeMap<String, Vec<Voice>>,
    noise: Noise,
    volumes: Volumes,
    paused: bool,
    music: Soundtrack,
    capture: Option<Capture>,
}

impl Mixer {
    /// Opens an output (the first tier that answers, or a capture) and a track per category.
    pub fn open(settings: OutputSettings, bank: Bank, volumes: Volumes, seed: u64) -> Result<Mixer, OutputError> {
        let capture = match &settings {
            OutputSettings::Capture(c) => Some(c.clone()),
            OutputSettings::Device { .. } => None,
        };
        // The master bus evens out a loud battle, then the limiter keeps peaks off full scale.
        let main = kira::track::MainTrackBuilder::new()
            .volume(decibels(volumes.master as f32))
            .with_effect(
                CompressorBuilder::new()
                    .threshold(-12.0)
                    .ratio(4.0)
                    .attack_duration(Duration::from_millis(5))
                    .release_duration(Duration::from_millis(200)),
            )
            .with_effect(LimiterBuilder);
        let mut manager = AudioManager::<Output>::new(AudioManagerSettings {
            backend_settings: settings,
            main_track_builder: main,
            ..Default::default()
        })?;
        let mut tracks = Vec::new();
        for c in Category::ALL {
            let volume = decibels(category_volume(volumes, c) as f32);
            match manager.add_sub_track(TrackBuilder::new().sound_capacity(256).volume(volume)) {
                Ok(t) => tracks.push(t),
                Err(e) => return Err(OutputError(vec![(Tier::Pulse, format!("no mixer track: {e}"))])),
            }
        }
        let mixer = Mixer {
            manager,
            tracks,
            bank,
            playing: BTreeMap::new(),
            noise: Noise::new(seed),
            volumes,
            paused: false,
            music: Soundtrack::default(),
            capture,
        };
        Ok(mixer)
    }

    /// The tier playing (None for a capture).
    pub fn tier(&mut self) -> Option<Tier> {
        self.manager.backend_mut().tier()
    }

    /// The capture, when the mixer was opened on one.
    pub fn capture(&self) -> Option<&Capture> {
        self.capture.as_ref()
    }

    /// Applies the options' volumes (smoothly, at once).
    pub fn set_volumes(&mut self, v: Volumes) {
        self.volumes = v;
        let tween = Tween { duration: VOLUME_TWEEN, ..Default::default() };
        self.manager.main_track().set_volume(decibels(v.master as f32), tween);
        for c in Category::ALL {
            if let Some(t) = self.tracks.get_mut(c.index()) {
                t.set_volume(decibels(category_volume(v, c) as f32), tween);
            }
        }
    }

    /// The volumes in effect.
    pub fn volumes(&self) -> Volumes {
        self.volumes
    }

    /// Holds every sound where it is (the window was minimised), or lets them go on.
    pub fn set_paused(&mut self, paused: bool) {
        if paused == self.paused {
            return;
        }
        self.paused = paused;
        let tween = Tween { duration: VOLUME_TWEEN, ..Default::default() };
        for t in &mut self.tracks {
            if paused { t.pause(tween) } else { t.resume(tween) }
        }
    }

    /// True while held by [`Mixer::set_paused`].
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// How many copies of `name` are playing.
    pub fn playing(&mut self, name: &str) -> usize {
        self.prune();
        self.playing.get(name).map_or(0, Vec::len)
    }

    /// Sounds playing, music aside.
    pub fn voices(&mut self) -> usize {
        self.prune();
        self.playing.values().map(Vec::len).sum()
    }

    fn prune(&mut self) {
        for v in self.playing.values_mut() {
            v.retain(|v| v.handle.state() != PlaybackState::Stopped);
        }
        self.playing.retain(|_, v| !v.is_empty());
    }

    /// Plays the sound called `name` placed as given; false when it is unknown, at its cap,
    /// crowded out by sounds of higher priority, or silent where it is.
    pub fn play(&mut self, name: &str, at: Placement) -> bool {
        if self.paused || at.gain <= 0.0 {
            return false;
        }
        let Some(sound) = self.bank.get(name) else { return false };
        if sound.variants.is_empty() {
            return false;
        }
        let (def, count) = (&sound.def, sound.variants.len());
        let (max, priority, category, volume, pitch) = (def.max, def.priority, def.category, def.volume, def.pitch);
        if let Some(v) = self.playing.get_mut(name) {
            v.retain(|v| v.handle.state() != PlaybackState::Stopped);
            if v.len() >= max as usize {
                return false;
            }
        }
        if self.playing.values().map(Vec::len).sum::<usize>() >= MAX_VOICES {
            self.prune();
            if self.playing.values().map(Vec::len).sum::<usize>() >= MAX_VOICES && !self.make_room(priority) {
                return false;
            }
        }
        let pick = (self.noise.next_u64() % count as u64) as usize;
        let rate = 1.0 + self.noise.white() as f64 * pitch as f64 / 100.0;
        let Some(sound) = self.bank.get(name) else { return false };
        let data = sound.variants[pick]
            .volume(decibels(volume as f32 * at.gain))
            .panning(Panning(at.pan.clamp(-1.0, 1.0)))
            .playback_rate(PlaybackRate(rate));
        let Some(track) = self.tracks.get_mut(category.index()) else { return false };
        match track.play(data) {
            Ok(handle) => {
                log::trace!("playing {name} (variant {pick}, rate {rate:.3}, pan {:.2}, gain {:.2})", at.pan, at.gain);
                self.playing.entry(name.to_string()).or_default().push(Voice { handle, priority });
                true
            }
            Err(e) => {
                log::debug!("sound {name} not played: {e}");
                false
            }
        }
    }

    /// Stops the oldest of the lowest-priority sounds, if it is below `priority`.
    fn make_room(&mut self, priority: u8) -> bool {
        let lowest = self.playing.iter().flat_map(|(n, v)| v.iter().map(move |v| (v.priority, n.clone()))).min();
        match lowest {
            Some((p, name)) if p < priority => {
                if let Some(v) = self.playing.get_mut(&name)
                    && !v.is_empty()
                {
                    let mut oldest = v.remove(0);
                    oldest.handle.stop(Tween { duration: Duration::from_millis(20), ..Default::default() });
                }
                true
            }
            _ => false,
        }
    }

    /// Gives the soundtrack its loops (menu theme, battle's calm and intense layers).
    pub fn set_tunes(&mut self, menu: StaticSoundData, calm: StaticSoundData, intense: StaticSoundData) {
        self.music.menu = Some(menu.loop_region(..));
        self.music.calm = Some(calm.loop_region(..));
        self.music.intense = Some(intense.loop_region(..));
    }

    /// Sets the soundtrack's mood: the menu theme, the battle's layers (the second faded in by
    /// intensity) or nothing; changes cross-fade.
    pub fn set_mood(&mut self, mood: Mood) {
        let fade = Tween { duration: MUSIC_FADE, ..Default::default() };
        let was = self.music.mood;
        self.music.mood = Some(mood);
        let track = Category::Music.index();
        let kind = |m: Option<Mood>| m.map(|m| std::mem::discriminant(&m));
        if kind(was) != kind(Some(mood)) {
            for h in [&mut self.music.playing_menu, &mut self.music.playing_calm, &mut self.music.playing_intense] {
                if let Some(mut h) = h.take() {
                    h.stop(fade);
                }
            }
            match mood {
                Mood::Off => {}
                Mood::Menu => {
                    if let (Some(data), Some(t)) = (self.music.menu.clone(), self.tracks.get_mut(track)) {
                        self.music.playing_menu = t.play(data.fade_in_tween(fade)).ok();
                    }
                }
                Mood::Battle { .. } => {
                    if let (Some(calm), Some(intense), Some(t)) =
                        (self.music.calm.clone(), self.music.intense.clone(), self.tracks.get_mut(track))
                    {
                        self.music.playing_calm = t.play(calm.fade_in_tween(fade)).ok();
                        self.music.playing_intense = t.play(intense.volume(Decibels::SILENCE)).ok();
                    }
                }
            }
        }
        if let Mood::Battle { intensity } = mood
            && let Some(h) = &mut self.music.playing_intense
        {
            h.set_volume(decibels(intensity.clamp(0.0, 1.0) * 100.0), fade);
        }
    }
}
