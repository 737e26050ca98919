//! A private Xvfb and the bits a window test needs around it: a child
//! process killed when the test ends, a wait with a deadline, a tool run
//! on the display. Shared by the window tests (tests/gui_xvfb.rs,
//! tests/windows_package.rs).

#![allow(dead_code)]

use std::io::BufRead;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Kills a child process of ours when the test ends, however it ends.
pub struct Reaper(pub Option<Child>);

impl Reaper {
    pub fn child(&mut self) -> &mut Child {
        self.0.as_mut().expect("running")
    }
}

impl Drop for Reaper {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Fails (never skips) when a tool the test needs is missing.
pub fn require_tool(name: &str, package: &str) {
    let found = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).any(|dir| dir.join(name).is_file()))
        .unwrap_or(false);
    assert!(
        found,
        "`{name}` is missing: this test needs it (Debian/Ubuntu: apt install {package})"
    );
}

/// Starts Xvfb on a display it picks itself (`-displayfd`: no race with
/// other X servers or parallel tests) and returns it with the display name.
pub fn start_xvfb(timeout: Duration) -> (Reaper, String) {
    let mut child = Command::new("Xvfb")
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            "1280x900x24",
            "-nolisten",
            "tcp",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start Xvfb (apt install xvfb)");
    let stdout = child.stdout.take().expect("piped");
    let reaper = Reaper(Some(child));
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx
        .recv_timeout(timeout)
        .expect("Xvfb did not report its display number");
    let number: u32 = line
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("Xvfb wrote '{line}' instead of a display number"));
    (reaper, format!(":{number}"))
}

/// Runs a tool (xdotool, import, ...) on `display`.
pub fn run(display: &str, program: &str, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .env("DISPLAY", display)
        .output()
        .unwrap_or_else(|e| panic!("run {program}: {e}"))
}

/// Polls `probe` until it gives a value; fails with `what` after `timeout`.
pub fn wait_for<T>(what: &str, timeout: Duration, mut probe: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(value) = probe() {
            return value;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The first visible window on `display` whose title matches `title`
/// (an xdotool regular expression), if there is one yet.
pub fn visible_window(display: &str, title: &str) -> Option<u32> {
    let out = run(
        display,
        "xdotool",
        &["search", "--onlyvisible", "--name", title],
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .and_then(|l| l.trim().parse().ok())
}
