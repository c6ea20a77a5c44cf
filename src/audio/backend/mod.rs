//! kira's output, through backends of our own so no system library is needed to build: tried
//! in order, PulseAudio's native protocol (also served by PipeWire), ALSA loaded at run time,
//! and — where neither answers — no output at all, said once in the log. A capture backend
//! hands the renderer to the caller instead, for tests and offline rendering.
//!
//! Must not: block the game for long (each tier gives up within its timeout), or panic when a
//! device is missing or fails mid-game.

mod alsa;
mod capture;
mod pulse;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use kira::backend::{Backend, Renderer};

pub use capture::Capture;

/// The sample rate every tier asks its device for.
pub const SAMPLE_RATE: u32 = 48_000;

/// A way to reach the speakers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    /// A PulseAudio (or PipeWire-pulse) server, over its native protocol.
    Pulse,
    /// ALSA's `libasound.so.2`, opened at run time.
    Alsa,
}

impl std::fmt::Display for Tier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Tier::Pulse => "PulseAudio",
            Tier::Alsa => "ALSA",
        })
    }
}

/// Which output to open.
#[derive(Clone, Debug)]
pub enum OutputSettings {
    /// The first of these tiers that opens.
    Device {
        /// Tried in order.
        tiers: Vec<Tier>,
        /// The ALSA device name (`default`, `null`, `file:'out.raw',raw`...).
        alsa_device: String,
        /// How long a tier may take to answer.
        timeout: Duration,
        /// The PulseAudio socket; `None` finds it as every Pulse client does (`PULSE_SERVER`,
        /// `XDG_RUNTIME_DIR`).
        pulse_socket: Option<std::path::PathBuf>,
    },
    /// No device: the caller renders through the [`Capture`].
    Capture(Capture),
}

/// The ALSA device `RIDGELINE_ALSA_DEVICE` names: "default" when it is unset, and (with a
/// warning) when it is empty or not text.
fn alsa_device(var: Result<String, std::env::VarError>) -> String {
    match var {
        Ok(d) if !d.trim().is_empty() => d,
        Err(std::env::VarError::NotPresent) => "default".into(),
        _ => {
            log::warn!("RIDGELINE_ALSA_DEVICE is empty or not text: using ALSA's default device");
            "default".into()
        }
    }
}

impl Default for OutputSettings {
    /// PulseAudio, then ALSA's default device, each given a second.
    fn default() -> Self {
        OutputSettings::Device {
            tiers: vec![Tier::Pulse, Tier::Alsa],
            alsa_device: alsa_device(std::env::var("RIDGELINE_ALSA_DEVICE")),
            timeout: Duration::from_secs(1),
            pulse_socket: None,
        }
    }
}

/// Why no output opened: each tier tried and what it said.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no sound output ({})", .0.iter().map(|(t, why)| format!("{t}: {why}")).collect::<Vec<_>>().join("; "))]
pub struct OutputError(pub Vec<(Tier, String)>);

/// The renderer, once kira hands it over; filled by whichever thread feeds the device.
pub(crate) type Slot = Arc<Mutex<Option<Renderer>>>;

/// Fills `out` (interleaved stereo) from the renderer in `slot`, or with silence before it
/// arrives.
pub(crate) fn fill(slot: &Slot, out: &mut [f32]) {
    match slot.lock() {
        Ok(mut guard) => match guard.as_mut() {
            Some(r) => {
                r.on_start_processing();
                r.process(out, 2);
            }
            None => out.fill(0.0),
        },
        Err(_) => out.fill(0.0),
    }
}

enum Active {
    Pulse(pulse::PulseOut),
    Alsa(alsa::AlsaOut),
    Capture(Capture),
}

/// kira's backend: one of the tiers, or a capture.
pub struct Output {
    active: Active,
}

impl Output {
    /// Which tier plays, or `None` for a capture.
    pub fn tier(&self) -> Option<Tier> {
        match self.active {
            Active::Pulse(_) => Some(Tier::Pulse),
            Active::Alsa(_) => Some(Tier::Alsa),
            Active::Capture(_) => None,
        }
    }
}

impl Backend for Output {
    type Settings = OutputSettings;
    type Error = OutputError;

    fn setup(settings: OutputSettings, _internal_buffer_size: usize) -> Result<(Self, u32), OutputError> {
        let (tiers, device, timeout) = match settings {
            OutputSettings::Capture(c) => return Ok((Output { active: Active::Capture(c) }, SAMPLE_RATE)),
            OutputSettings::Device { tiers, alsa_device, timeout, pulse_socket } => {
                (tiers, (alsa_device, pulse_socket), timeout)
            }
        };
        let (device, socket) = device;
        let mut reasons = Vec::new();
        for tier in tiers {
            let opened = match tier {
                Tier::Pulse => pulse::PulseOut::open(socket.clone(), timeout).map(Active::Pulse),
                Tier::Alsa => alsa::AlsaOut::open(&device, timeout).map(Active::Alsa),
            };
            match opened {
                Ok(active) => return Ok((Output { active }, SAMPLE_RATE)),
                Err(why) => reasons.push((tier, why)),
            }
        }
        Err(OutputError(reasons))
    }

    fn start(&mut self, renderer: Renderer) -> Result<(), OutputError> {
        let slot = match &self.active {
            Active::Pulse(p) => p.slot(),
            Active::Alsa(a) => a.slot(),
            Active::Capture(c) => c.slot(),
        };
        if let Ok(mut guard) = slot.lock() {
            *guard = Some(renderer);
        }
        Ok(())
    }
}
