//! Tier 1: a PulseAudio server (or PipeWire's pulse server) over its native protocol, in pure
//! Rust. The connection is made on a helper thread and given up after the timeout (the
//! protocol's connect has none of its own); the server keeps about 30 ms queued, not its
//! default of seconds, so sounds follow the game closely.
//!
//! Must not: block the caller past the timeout.

use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use pulseaudio::protocol::stream::{BufferAttr, StreamFlags};
use pulseaudio::protocol::{self, ChannelMap, ChannelVolume, PlaybackStreamParams, SampleFormat, SampleSpec};
use pulseaudio::{AsPlaybackSource, Client, PlaybackStream};

use super::{SAMPLE_RATE, Slot, fill};

/// Bytes of one stereo f32 frame.
const FRAME_BYTES: u32 = 8;
/// Milliseconds the server keeps queued.
const TARGET_MS: u32 = 30;
/// The server asks for at least this many milliseconds at a time.
const REQUEST_MS: u32 = 10;

/// An open playback stream; dropping it ends the sound.
pub(super) struct PulseOut {
    slot: Slot,
    // Kept alive for as long as the game plays.
    _client: Client,
    _stream: PlaybackStream,
}

impl PulseOut {
    /// Connects to the server named by the environment and opens a stereo f32 stream.
    pub(super) fn open(socket: Option<PathBuf>, timeout: Duration) -> Result<PulseOut, String> {
        let slot = Slot::default();
        let (tx, rx) = mpsc::channel();
        let feed = slot.clone();
        let spawned = std::thread::Builder::new().name("pulse-connect".into()).spawn(move || {
            let _ = tx.send(connect(socket, feed));
        });
        if let Err(e) = spawned {
            return Err(format!("could not start a thread: {e}"));
        }
        match rx.recv_timeout(timeout) {
            Ok(Ok((client, stream))) => Ok(PulseOut { slot, _client: client, _stream: stream }),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(format!("no answer within {} ms", timeout.as_millis())),
        }
    }

    pub(super) fn slot(&self) -> Slot {
        self.slot.clone()
    }
}

fn connect(socket: Option<PathBuf>, slot: Slot) -> Result<(Client, PlaybackStream), String> {
    let client = match socket {
        None => Client::from_env(c"Ridgeline").map_err(|e| e.to_string())?,
        Some(path) => {
            let stream = UnixStream::connect(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let cookie = pulseaudio::cookie_path_from_env().and_then(|p| std::fs::read(p).ok());
            Client::new_unix(c"Ridgeline", stream, cookie).map_err(|e| e.to_string())?
        }
    };
    let bytes_per_ms = SAMPLE_RATE / 1000 * FRAME_BYTES;
    let params = PlaybackStreamParams {
        sample_spec: SampleSpec { format: SampleFormat::Float32Le, channels: 2, sample_rate: SAMPLE_RATE },
        channel_map: ChannelMap::stereo(),
        cvolume: Some(ChannelVolume::norm(2)),
        sink_name: Some(protocol::DEFAULT_SINK.to_owned()),
        buffer_attr: BufferAttr {
            max_length: u32::MAX,
            target_length: TARGET_MS * bytes_per_ms,
            pre_buffering: u32::MAX,
            minimum_request_length: REQUEST_MS * bytes_per_ms,
            fragment_size: u32::MAX,
        },
        flags: StreamFlags { adjust_latency: true, ..Default::default() },
        ..Default::default()
    };
    let mut scratch: Vec<f32> = Vec::new();
    let source = move |data: &mut [u8]| {
        let frames = data.len() / FRAME_BYTES as usize;
        scratch.resize(frames * 2, 0.0);
        fill(&slot, &mut scratch);
        for (chunk, s) in data.chunks_exact_mut(4).zip(&scratch) {
            chunk.copy_from_slice(&s.to_le_bytes());
        }
        // Always the whole request: a short count would read as the end of the stream.
        data.len()
    };
    let stream = pollster::block_on(client.create_playback_stream(params, source.as_playback_source()))
        .map_err(|e| format!("could not open a stream: {e}"))?;
    Ok((client, stream))
}
