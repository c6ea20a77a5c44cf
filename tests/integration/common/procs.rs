//! Game processes for the online tests: `host`, `join` and `relay` started from the built
//! binary on loopback, each killed when dropped, and what they leave behind read back.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A child process killed when dropped, whatever the test's outcome.
pub struct Proc(pub Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The game binary with quiet logs, but for the headless online run's progress ("frame 60
/// ran", once a second) and the handshake's seating, which tests wait on.
pub fn ridgeline() -> Command {
    let mut c = super::ridgeline();
    c.env("RUST_LOG", "warn,ridgeline::online::run=info,ridgeline::online::handshake=info");
    c
}

/// Waits until the file `path` (a process's stderr) holds `needle`, at most `limit`: what a
/// test waits on to place a kill or a late join, instead of a fixed sleep.
pub fn wait_for(path: &Path, needle: &str, limit: Duration) {
    let until = Instant::now() + limit;
    while !std::fs::read_to_string(path).is_ok_and(|t| t.contains(needle)) {
        assert!(Instant::now() < until, "no {needle:?} in {} within {limit:?}:\n{}", path.display(), read(path.into()));
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits until the process whose stderr is `path` has run `frame` (a multiple of 30).
pub fn wait_for_frame(path: &Path, frame: u32, limit: Duration) {
    wait_for(path, &format!("frame {frame} ran"), limit);
}

/// Starts `host` with `args` on a free loopback port; returns it and its join code.
pub fn host(args: &[&str], dir: &Path) -> (Proc, String) {
    let mut child = ridgeline()
        .arg("host")
        .args(args)
        .args(["--bind", "127.0.0.1:0", "--json", "--hash-log"])
        .arg(dir.join("host.log"))
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(dir.join("host.err")).unwrap())
        .spawn()
        .expect("host starts");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let code = line.trim().strip_prefix("join-code: ").unwrap_or_else(|| panic!("no join code: {line:?}")).to_string();
    // The rest of the host's output goes to a file, read when it ends.
    let rest = dir.join("host.out");
    std::thread::spawn(move || {
        let mut text = String::new();
        for l in out.lines().map_while(Result::ok) {
            text.push_str(&l);
            text.push('\n');
        }
        let _ = std::fs::write(rest, text);
    });
    (Proc(child), code)
}

pub fn join(code: &str, args: &[&str], dir: &Path) -> Proc {
    let child = ridgeline()
        .arg("join")
        .arg(code)
        .args(args)
        .args(["--json", "--hash-log"])
        .arg(dir.join("join.log"))
        .stdout(std::fs::File::create(dir.join("join.out")).unwrap())
        .stderr(std::fs::File::create(dir.join("join.err")).unwrap())
        .spawn()
        .expect("join starts");
    Proc(child)
}

/// Waits for the joiner (at most `limit`) and then the host to end cleanly, and checks that
/// both kept the same hash log of `frames` frames; returns the host's log.
pub fn finish_in_sync(h: &mut Proc, j: &mut Proc, dir: &Path, limit: Duration, frames: usize) -> String {
    assert_eq!(finish(j, limit), Some(0), "{}", read(dir.join("join.err")));
    assert_eq!(finish(h, Duration::from_secs(30)), Some(0), "{}", read(dir.join("host.err")));
    let (hl, jl) = (read(dir.join("host.log")), read(dir.join("join.log")));
    assert_eq!(hl.lines().count(), frames);
    assert!(hl == jl, "the two machines' hash logs differ");
    hl
}

/// Waits for a process to end (at most `limit`); its exit code.
pub fn finish(p: &mut Proc, limit: Duration) -> Option<i32> {
    let until = Instant::now() + limit;
    while Instant::now() < until {
        if let Ok(Some(status)) = p.0.try_wait() {
            return status.code();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    None
}

pub fn last_json(path: &Path) -> serde_json::Value {
    // The host's output file is written by a reader thread when its pipe closes.
    for _ in 0..100 {
        if let Some(line) = std::fs::read_to_string(path).ok().and_then(|t| t.lines().last().map(str::to_string))
            && let Ok(v) = serde_json::from_str(&line)
        {
            return v;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("no JSON line in {}", path.display());
}

/// A process's resident memory in kB, from its /proc status (0 once it is gone).
pub fn resident_kb(pid: u32) -> u64 {
    let status = read(PathBuf::from(format!("/proc/{pid}/status")));
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap_or_default();
    line.split_whitespace().nth(1).and_then(|kb| kb.parse().ok()).unwrap_or(0)
}

pub fn read(path: PathBuf) -> String {
    std::fs::read_to_string(&path).unwrap_or_default()
}

/// Starts `ridgeline relay` on a free loopback port; returns it and its address.
pub fn relay() -> (Proc, String) {
    relay_on("127.0.0.1:0")
}

/// Starts `ridgeline relay` on `bind` (a loopback address); returns it and its address.
pub fn relay_on(bind: &str) -> (Proc, String) {
    let mut child = ridgeline()
        .args(["relay", "--bind", bind])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("relay starts");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let addr = line.trim().strip_prefix("relay: ").unwrap_or_else(|| panic!("no relay line: {line:?}")).to_string();
    // Keep reading so the relay never blocks on a full pipe.
    std::thread::spawn(move || for _ in out.lines() {});
    (Proc(child), addr)
}

/// `ridgeline <args>` under issue 58's bounds: a 3 GB address space and 20 s (exit 124 past
/// that); its exit code and what it printed. `RIDGELINE_BIN` names another binary to try (the
/// start commit's, to see a test fail before its fix).
pub fn run_bounded(args: &[&str]) -> (i32, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 3000000; exec timeout 20 \"$0\" \"$@\"")
        .arg(std::env::var("RIDGELINE_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_ridgeline").into()))
        .args(args)
        .env("RIDGELINE_HOME", super::root())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}
