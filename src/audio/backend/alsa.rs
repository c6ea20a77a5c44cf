//! Tier 2: ALSA, with `libasound.so.2` opened at run time (nothing to link at build time). A
//! thread of its own writes interleaved stereo f32 at 48 kHz in 10 ms blocks, recovers from
//! underruns, and keeps to the wall clock on devices that never block (ALSA's `null` and
//! `file` plugins), so a test can record exactly what was played.
//!
//! Must not: hold the device after the game lets it go, or keep writing after an error it
//! cannot recover from (the game goes on silent).

use std::ffi::{CStr, CString, c_char, c_int, c_long, c_uint, c_ulong, c_void};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use super::{SAMPLE_RATE, Slot, fill};

const SND_PCM_STREAM_PLAYBACK: c_int = 0;
const SND_PCM_FORMAT_FLOAT_LE: c_int = 14;
const SND_PCM_ACCESS_RW_INTERLEAVED: c_int = 3;
/// Frames written per block (10 ms).
const BLOCK: usize = 480;
/// Latency asked of the device, microseconds.
const LATENCY_US: c_uint = 40_000;
/// How far ahead of the wall clock a never-blocking device may be fed.
const AHEAD: Duration = Duration::from_millis(60);

type Open = unsafe extern "C" fn(*mut *mut c_void, *const c_char, c_int, c_int) -> c_int;
type SetParams = unsafe extern "C" fn(*mut c_void, c_int, c_int, c_uint, c_uint, c_int, c_uint) -> c_int;
type WriteI = unsafe extern "C" fn(*mut c_void, *const c_void, c_ulong) -> c_long;
type Recover = unsafe extern "C" fn(*mut c_void, c_int, c_int) -> c_int;
type Close = unsafe extern "C" fn(*mut c_void) -> c_int;
type StrError = unsafe extern "C" fn(c_int) -> *const c_char;

/// The library's functions we use, looked up once.
struct Api {
    open: Open,
    set_params: SetParams,
    writei: WriteI,
    recover: Recover,
    close: Close,
    strerror: StrError,
    // Kept loaded while the function pointers above are in use.
    _lib: libloading::Library,
}

impl Api {
    fn load() -> Result<Api, String> {
        // SAFETY: loading libasound runs its initialisers, which have no preconditions.
        let lib =
            unsafe { libloading::Library::new("libasound.so.2") }.map_err(|e| format!("no libasound.so.2 ({e})"))?;
        // SAFETY: each symbol is looked up with the signature alsa/pcm.h declares for it.
        unsafe {
            let open = *lib.get::<Open>(b"snd_pcm_open\0").map_err(|e| e.to_string())?;
            let set_params = *lib.get::<SetParams>(b"snd_pcm_set_params\0").map_err(|e| e.to_string())?;
            let writei = *lib.get::<WriteI>(b"snd_pcm_writei\0").map_err(|e| e.to_string())?;
            let recover = *lib.get::<Recover>(b"snd_pcm_recover\0").map_err(|e| e.to_string())?;
            let close = *lib.get::<Close>(b"snd_pcm_close\0").map_err(|e| e.to_string())?;
            let strerror = *lib.get::<StrError>(b"snd_strerror\0").map_err(|e| e.to_string())?;
            Ok(Api { open, set_params, writei, recover, close, strerror, _lib: lib })
        }
    }

    fn error(&self, code: c_int) -> String {
        // SAFETY: snd_strerror returns a static, NUL-terminated string for any code.
        let text = unsafe { (self.strerror)(code) };
        if text.is_null() {
            return format!("error {code}");
        }
        // SAFETY: checked non-null above; the string is static.
        unsafe { CStr::from_ptr(text) }.to_string_lossy().into_owned()
    }
}

/// An open device fed by its own thread; dropping it stops the thread and closes the device.
pub(super) struct AlsaOut {
    slot: Slot,
    stop: Arc<AtomicBool>,
}

impl AlsaOut {
    /// Opens `device` for stereo f32 at 48 kHz on a feeding thread.
    pub(super) fn open(device: &str, timeout: Duration) -> Result<AlsaOut, String> {
        let name = CString::new(device).map_err(|_| format!("bad device name {device:?}"))?;
        let slot = Slot::default();
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel();
        let (feed, halt) = (slot.clone(), stop.clone());
        let spawned = std::thread::Builder::new().name("alsa-out".into()).spawn(move || {
            let api = match Api::load() {
                Ok(api) => api,
                Err(e) => {
                    let _ = tx.send(Err(e));
                    return;
                }
            };
            let mut pcm: *mut c_void = std::ptr::null_mut();
            // SAFETY: pcm is a valid out-pointer and name a NUL-terminated string.
            let rc = unsafe { (api.open)(&mut pcm, name.as_ptr(), SND_PCM_STREAM_PLAYBACK, 0) };
            if rc < 0 || pcm.is_null() {
                let _ = tx.send(Err(format!("cannot open {:?}: {}", name, api.error(rc))));
                return;
            }
            // SAFETY: pcm was opened above.
            let rc = unsafe {
                (api.set_params)(
                    pcm,
                    SND_PCM_FORMAT_FLOAT_LE,
                    SND_PCM_ACCESS_RW_INTERLEAVED,
                    2,
                    SAMPLE_RATE,
                    1,
                    LATENCY_US,
                )
            };
            if rc < 0 {
                let _ = tx.send(Err(format!("cannot set stereo f32 at {SAMPLE_RATE} Hz: {}", api.error(rc))));
                // SAFETY: pcm is open and closed once.
                unsafe { (api.close)(pcm) };
                return;
            }
            let _ = tx.send(Ok(()));
            feed_device(&api, pcm, &feed, &halt);
            // SAFETY: pcm is open and closed once, after the last write.
            unsafe { (api.close)(pcm) };
        });
        if let Err(e) = spawned {
            return Err(format!("could not start a thread: {e}"));
        }
        match rx.recv_timeout(timeout) {
            Ok(Ok(())) => Ok(AlsaOut { slot, stop }),
            Ok(Err(e)) => Err(e),
            Err(_) => {
                stop.store(true, Ordering::Relaxed);
                Err(format!("no answer within {} ms", timeout.as_millis()))
            }
        }
    }

    pub(super) fn slot(&self) -> Slot {
        self.slot.clone()
    }
}

impl Drop for AlsaOut {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Writes blocks until told to stop or the device fails for good.
fn feed_device(api: &Api, pcm: *mut c_void, slot: &Slot, stop: &AtomicBool) {
    let mut block = vec![0.0f32; BLOCK * 2];
    let start = Instant::now();
    let mut written: u64 = 0;
    while !stop.load(Ordering::Relaxed) {
        fill(slot, &mut block);
        let mut offset = 0;
        while offset < BLOCK {
            let rest = &block[offset * 2..];
            // SAFETY: rest holds (BLOCK - offset) interleaved stereo frames.
            let n = unsafe { (api.writei)(pcm, rest.as_ptr().cast(), (BLOCK - offset) as c_ulong) };
            if n >= 0 {
                offset += n as usize;
                continue;
            }
            // SAFETY: pcm is open; recover handles underruns and suspends.
            let rc = unsafe { (api.recover)(pcm, n as c_int, 1) };
            if rc < 0 {
                log::warn!("sound stopped: ALSA could not recover ({})", api.error(rc));
                return;
            }
        }
        written += BLOCK as u64;
        // A device that never blocks is held to the wall clock.
        let played = Duration::from_micros(written * 1_000_000 / SAMPLE_RATE as u64);
        if let Some(ahead) = played.checked_sub(start.elapsed())
            && ahead > AHEAD
        {
            std::thread::sleep(ahead - AHEAD);
        }
    }
}
