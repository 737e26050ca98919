//! The real `rochade` binary on a real (virtual) X server: it opens its
//! window, takes typed keys, saves the game after the move, asks before
//! closing a game in progress, and exits cleanly.
//!
//! Needs `Xvfb`, `xdotool` and ImageMagick's `import`/`identify` (Debian:
//! `xvfb xdotool imagemagick`) and Mesa's software OpenGL (`libgl1-mesa-dri
//! libglx-mesa0`). A missing tool FAILS the test; it never skips.
//! Screenshots are kept in `target/test-artifacts/`.

#![cfg(target_os = "linux")]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

#[path = "support/xvfb.rs"]
mod xvfb;
use xvfb::{Reaper, require_tool, run, wait_for};

use x11rb::protocol::xproto::{ClientMessageEvent, ConnectionExt, EventMask};

/// Generous: a debug build on a loaded 2-core machine with software GL.
const START_TIMEOUT: Duration = Duration::from_secs(90);
const STEP_TIMEOUT: Duration = Duration::from_secs(30);

fn artifacts_dir() -> PathBuf {
    // CARGO_TARGET_TMPDIR is <target>/tmp; artifacts go next to it.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target dir")
        .join("test-artifacts");
    std::fs::create_dir_all(&dir).expect("create target/test-artifacts");
    dir
}

fn exited(app: &mut Reaper) -> Option<ExitStatus> {
    app.child().try_wait().expect("try_wait")
}

/// Screenshot of the whole screen; asserts the picture is not blank.
fn screenshot(display: &str, path: &Path) {
    let out = run(
        display,
        "import",
        &["-window", "root", path.to_str().unwrap()],
    );
    assert!(
        out.status.success(),
        "import: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(
        display,
        "identify",
        &["-format", "%k", path.to_str().unwrap()],
    );
    let colours: u32 = String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .unwrap_or(0);
    assert!(
        colours > 8,
        "{} has {colours} colours: the window drew nothing",
        path.display()
    );
}

/// A hash of the picture's pixels (not of the file, whose metadata holds
/// the time it was taken).
fn pixels_hash(display: &str, path: &Path) -> String {
    let out = run(
        display,
        "identify",
        &["-format", "%#", path.to_str().unwrap()],
    );
    assert!(
        out.status.success(),
        "identify: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// Screenshot of the whole screen once the window has stopped changing
/// (two pictures in a row the same), instead of a guessed pause; returns
/// the picture's hash.
fn settled_screenshot(display: &str, path: &Path) -> String {
    let mut last: Option<String> = None;
    wait_for("the window to stop changing", STEP_TIMEOUT, || {
        screenshot(display, path);
        let hash = pixels_hash(display, path);
        if last.as_ref() == Some(&hash) {
            return Some(hash);
        }
        last = Some(hash);
        None
    })
}

/// What a window manager sends when the user clicks the close button.
fn request_close(display: &str, window: u32) {
    let (conn, _) = x11rb::connect(Some(display)).expect("connect to Xvfb");
    let atom = |name: &[u8]| conn.intern_atom(false, name).unwrap().reply().unwrap().atom;
    let protocols = atom(b"WM_PROTOCOLS");
    let delete = atom(b"WM_DELETE_WINDOW");
    let event = ClientMessageEvent::new(
        32,
        window,
        protocols,
        [delete, x11rb::CURRENT_TIME, 0, 0, 0],
    );
    // check(): a round trip, so the server has delivered it when we go on.
    conn.send_event(false, window, EventMask::NO_EVENT, event)
        .expect("send WM_DELETE_WINDOW")
        .check()
        .expect("WM_DELETE_WINDOW delivered");
}

fn read_to_string(path: &Path) -> String {
    let mut text = String::new();
    if let Ok(mut f) = std::fs::File::open(path) {
        let _ = f.read_to_string(&mut text);
    }
    text
}

#[test]
fn real_window_takes_keys_saves_and_closes_cleanly() {
    for (tool, package) in [
        ("Xvfb", "xvfb"),
        ("xdotool", "xdotool"),
        ("import", "imagemagick"),
        ("identify", "imagemagick"),
    ] {
        require_tool(tool, package);
    }
    let artifacts = artifacts_dir();
    let home = tempfile::tempdir().expect("temp dir");
    let config_dir = home.path().join("config");
    let data_dir = home.path().join("data");
    std::fs::create_dir_all(&config_dir).unwrap();
    // Through the settings file the app reads at start: no speech device
    // needed, English interface; the offer to let a screen reader speak is
    // answered (a developer's own Orca must not change the flow).
    std::fs::write(
        config_dir.join("settings.toml"),
        "interface_language = \"en\"\n[speech]\nbackend = \"silent\"\nscreen_reader_offered = true\n",
    )
    .unwrap();

    let (_xvfb, display) = xvfb::start_xvfb(STEP_TIMEOUT);
    let stderr_path = artifacts.join("gui_xvfb-stderr.txt");
    let spawned = Instant::now();
    let mut app = Reaper(Some(
        Command::new(env!("CARGO_BIN_EXE_rochade"))
            .env("DISPLAY", &display)
            .env_remove("WAYLAND_DISPLAY")
            .env("ROCHADE_CONFIG_DIR", &config_dir)
            .env("ROCHADE_DATA_DIR", &data_dir)
            .env("ROCHADE_TRACE_STARTUP", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&stderr_path).unwrap())
            .spawn()
            .expect("start rochade"),
    ));

    let window: u32 = wait_for("the Rochade window", START_TIMEOUT, || {
        if let Some(status) = exited(&mut app) {
            panic!(
                "rochade exited before its window appeared ({status}):\n{}",
                read_to_string(&stderr_path)
            );
        }
        // The title carries the game state: "Rochade – White to move".
        xvfb::visible_window(&display, "^Rochade( |$)")
    });
    let window_after = spawned.elapsed();
    // The first frame speaks the greeting; after it the window has content.
    let spoken_after = wait_for("the first spoken word", START_TIMEOUT, || {
        read_to_string(&stderr_path)
            .lines()
            .find(|l| l.contains("first spoken word"))
            .map(str::to_owned)
    });
    eprintln!(
        "window after {} ms; {spoken_after}",
        window_after.as_millis()
    );
    settled_screenshot(&display, &artifacts.join("gui_xvfb-start.png"));

    // Without a window manager nobody gives the window the keyboard.
    let w = window.to_string();
    let out = run(&display, "xdotool", &["windowfocus", "--sync", &w]);
    assert!(
        out.status.success(),
        "windowfocus: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The move input has the keyboard at start: type a move and play it.
    let out = run(&display, "xdotool", &["type", "--delay", "60", "e4"]);
    assert!(out.status.success());
    let out = run(&display, "xdotool", &["key", "Return"]);
    assert!(out.status.success());

    // The keys arrived if the game saved after the move holds 1. e4.
    let store = rochade::savegame::GameStore::new(&data_dir);
    let saved = wait_for("the saved game with 1. e4", STEP_TIMEOUT, || {
        let text = read_to_string(&store.current_path());
        rochade::savegame::from_pgn(&text)
            .ok()
            .filter(|g| !g.moves().is_empty())
    });
    let sans: Vec<String> = saved.moves().iter().map(|m| m.san_string()).collect();
    assert_eq!(sans, ["e4"], "{}", read_to_string(&store.current_path()));
    let after_e4 = settled_screenshot(&display, &artifacts.join("gui_xvfb-after-e4.png"));

    // Closing mid-game asks first: the question appears (the picture
    // changes) and the app must still be running.
    request_close(&display, window);
    let question = artifacts.join("gui_xvfb-close-question.png");
    wait_for("the close question on the screen", STEP_TIMEOUT, || {
        screenshot(&display, &question);
        (pixels_hash(&display, &question) != after_e4).then_some(())
    });
    settled_screenshot(&display, &question);
    assert!(
        exited(&mut app).is_none(),
        "the app closed a game in progress without asking"
    );

    // Yes: close. The game stays saved for resumption.
    let out = run(&display, "xdotool", &["key", "y"]);
    assert!(out.status.success());
    let status = wait_for("rochade to exit", STEP_TIMEOUT, || exited(&mut app));
    assert!(
        status.success(),
        "rochade exited with {status}:\n{}",
        read_to_string(&stderr_path)
    );
    let offered = store
        .unfinished_game()
        .expect("readable saved game")
        .expect("the unfinished game is offered at the next start");
    assert_eq!(offered.moves().len(), 1);
}
