//! Who runs a QUIC transport's network: its current-thread tokio runtime (quinn, the socket,
//! the tasks of `io.rs`) is driven by one thread at a time — the network thread, or the game
//! thread while it waits on the network or flushes a frame. A game thread that waits (a
//! headless or unpaced game, the lobby's handshake, `bench net`) takes the runtime over and
//! runs its own connection: a frame goes out and an answer comes in with no hand-off between
//! threads. The network thread steps back while the game thread drove within [`SLICE`], and
//! runs the network itself whenever the game thread is away for longer (rendering, loading, a
//! window that never waits), so the connection is always served within [`SLICE`].
//!
//! Must not: decide anything about the connection (it only decides which thread runs it), or
//! leave the runtime undriven for longer than [`SLICE`] while its work is not finished.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

/// How long the network thread leaves the runtime to a game thread that drove it last: past
/// this without the game thread, the network thread takes over (what waits in the socket
/// meanwhile is served at most this late).
pub const SLICE: Duration = Duration::from_millis(2);

/// A transport's runtime and who drives it.
#[derive(Debug)]
pub struct Drive {
    runtime: tokio::runtime::Runtime,
    /// When the game thread last drove (nanoseconds after `epoch`; 0: not lately).
    game_at: AtomicU64,
    /// The game thread is driving (or waiting to) now.
    game_driving: AtomicBool,
    /// The network thread holds the runtime.
    net_holds: AtomicBool,
    epoch: Instant,
    /// When the game thread last took a turn (as `game_at`).
    turned_at: AtomicU64,
    /// The game thread wants the runtime back from the network thread.
    wanted: Notify,
    /// The transport's work is done (the network thread may end).
    done: Arc<Done>,
}

/// Set by the task that ran a transport's work when it ends.
#[derive(Debug, Default)]
struct Done {
    flag: AtomicBool,
    note: Notify,
}

/// Marks the work done when dropped.
struct DoneOnDrop(Arc<Done>);

impl Drop for DoneOnDrop {
    fn drop(&mut self) {
        self.0.flag.store(true, Ordering::Release);
        self.0.note.notify_one();
    }
}

impl Drive {
    /// A drive for a new current-thread runtime.
    pub fn new() -> std::io::Result<Drive> {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        Ok(Drive {
            runtime,
            game_at: AtomicU64::new(0),
            game_driving: AtomicBool::new(false),
            turned_at: AtomicU64::new(0),
            net_holds: AtomicBool::new(false),
            epoch: Instant::now(),
            wanted: Notify::new(),
            done: Arc::default(),
        })
    }

    /// Starts `work` on the runtime; when it ends, the network thread's [`Drive::serve`] does.
    pub fn start(&self, work: impl Future<Output = ()> + Send + 'static) {
        let done = DoneOnDrop(self.done.clone());
        self.runtime.spawn(async move {
            // Dropped when the work ends, panics or is dropped with the runtime.
            let _done = done;
            work.await;
        });
    }

    /// The network thread's loop: runs the runtime whenever the game thread has not driven it
    /// within [`SLICE`], hands it over when the game thread asks, and returns once the work
    /// has ended.
    pub fn serve(&self) {
        while !self.done.flag.load(Ordering::Acquire) {
            if let Some(rest) = self.game_recently() {
                std::thread::park_timeout(rest);
                continue;
            }
            self.net_holds.store(true, Ordering::SeqCst);
            self.runtime.block_on(async {
                tokio::select! {
                    _ = self.wanted.notified() => {}
                    _ = self.done.note.notified() => {}
                }
            });
            self.net_holds.store(false, Ordering::SeqCst);
        }
    }

    /// How much longer the network thread should leave the runtime to the game thread, if it
    /// drove lately or is driving now.
    fn game_recently(&self) -> Option<Duration> {
        if self.game_driving.load(Ordering::SeqCst) {
            return Some(SLICE);
        }
        let at = self.game_at.load(Ordering::SeqCst);
        if at == 0 {
            return None;
        }
        let since = self.epoch.elapsed().saturating_sub(Duration::from_nanos(at));
        SLICE.checked_sub(since).filter(|rest| !rest.is_zero())
    }

    /// Runs `future` to its end on the calling (game) thread, taking the runtime over from the
    /// network thread if it holds it: the network is driven here meanwhile.
    pub fn wait_on<F: Future>(&self, future: F) -> F::Output {
        self.game_driving.store(true, Ordering::SeqCst);
        if self.net_holds.load(Ordering::SeqCst) {
            self.wanted.notify_one();
        }
        let out = self.runtime.block_on(future);
        self.left_by_game();
        out
    }

    /// Runs what is ready on the runtime (a frame just queued goes out, what arrived is read),
    /// on the calling (game) thread — unless the network thread holds the runtime, which then
    /// does it (it is taken back only from a game flushing frames faster than one a [`SLICE`]).
    pub fn turn(&self) {
        let now = self.now();
        let last = self.turned_at.swap(now, Ordering::SeqCst);
        if self.net_holds.load(Ordering::SeqCst) {
            // Frames flushed less than a slice apart (a game running as fast as it can, not one
            // drawn at the screen's pace): this thread should run the network, from its next
            // turn on.
            if last != 0 && now.saturating_sub(last) < SLICE.as_nanos() as u64 {
                self.wanted.notify_one();
            }
            return;
        }
        self.game_driving.store(true, Ordering::SeqCst);
        self.runtime.block_on(async {
            // Each yield runs the ready tasks and polls the socket once: the first sends what
            // was queued and sees what arrived, the second reads it through to the inbox.
            tokio::task::yield_now().await;
            tokio::task::yield_now().await;
        });
        self.left_by_game();
    }

    /// Nanoseconds since `epoch` (never 0, which means "never").
    fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_nanos()).unwrap_or(u64::MAX).max(1)
    }

    fn left_by_game(&self) {
        self.game_at.store(self.now(), Ordering::SeqCst);
        self.game_driving.store(false, Ordering::SeqCst);
    }

    /// The game thread is done with the runtime (the transport is going): the network thread
    /// takes over at once.
    pub fn let_go(&self) {
        self.game_at.store(0, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::sync::mpsc;

    /// A drive whose work echoes each number it gets, plus one, until its input closes; the
    /// network thread serving it.
    fn echo() -> (Arc<Drive>, mpsc::UnboundedSender<u32>, mpsc::UnboundedReceiver<u32>, std::thread::JoinHandle<()>) {
        let drive = Arc::new(Drive::new().unwrap());
        let (in_tx, mut in_rx) = mpsc::unbounded_channel::<u32>();
        let (out_tx, out_rx) = mpsc::unbounded_channel();
        drive.start(async move {
            while let Some(n) = in_rx.recv().await {
                // A timer too: only a driven runtime fires it.
                tokio::time::sleep(Duration::from_micros(50)).await;
                let _ = out_tx.send(n + 1);
            }
        });
        let serving = drive.clone();
        let thread = std::thread::Builder::new().name("drive-test".into()).spawn(move || serving.serve()).unwrap();
        (drive, in_tx, out_rx, thread)
    }

    /// Waits (without driving) for the echo of one number.
    fn echoed_elsewhere(out: &mut mpsc::UnboundedReceiver<u32>) -> Option<u32> {
        let until = Instant::now() + Duration::from_secs(20);
        while Instant::now() < until {
            if let Ok(n) = out.try_recv() {
                return Some(n);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        None
    }

    #[test]
    fn the_network_thread_runs_the_work_when_the_game_thread_never_does() {
        let (drive, input, mut out, thread) = echo();
        input.send(1).unwrap();
        assert_eq!(echoed_elsewhere(&mut out), Some(2));
        drop(input);
        thread.join().unwrap();
        assert!(drive.done.flag.load(Ordering::Acquire), "the work ended and the thread with it");
    }

    #[test]
    fn the_game_thread_runs_the_work_while_it_waits_and_hands_it_back_when_it_stops() {
        let (drive, input, mut out, thread) = echo();
        for n in 0..200 {
            input.send(n).unwrap();
            // Alternately: waiting on the answer, and a turn then waiting.
            if n % 2 == 0 {
                drive.turn();
            }
            let got = drive.wait_on(async { tokio::time::timeout(Duration::from_secs(20), out.recv()).await });
            assert_eq!(got, Ok(Some(n + 1)));
        }
        // The game thread stops driving: the network thread serves the work again.
        input.send(7).unwrap();
        assert_eq!(echoed_elsewhere(&mut out), Some(8));
        // A turn while the network thread holds the runtime returns at once.
        drive.turn();
        drive.let_go();
        drop(input);
        thread.join().unwrap();
    }

    #[test]
    fn the_network_thread_ends_when_the_work_panics() {
        let drive = Arc::new(Drive::new().unwrap());
        drive.start(async { panic!("the work broke") });
        let serving = drive.clone();
        let thread = std::thread::Builder::new().name("drive-test".into()).spawn(move || serving.serve()).unwrap();
        thread.join().unwrap();
    }
}
