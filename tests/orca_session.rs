//! The real `rochade` binary with the real Orca screen reader (Debian's
//! Orca 43), headless: what Orca speaks (`SPEECH OUTPUT`) and puts on the
//! Braille display (`BRAILLE LINE`) is read from its debug log.
//!
//! `tests/support/orca-session.sh` starts the private desktop (Xvfb,
//! openbox, D-Bus, the AT-SPI bus, PulseAudio with a null sink, Orca);
//! keys go to the app with `xdotool`. Every wait is on a log line, never a
//! fixed sleep. A missing program FAILS the test (Debian: `apt install orca
//! at-spi2-core dbus-x11 python3-pyatspi xvfb xdotool openbox
//! speech-dispatcher speech-dispatcher-espeak-ng espeak-ng pulseaudio`; the
//! log is kept in `target/test-artifacts/orca-debug.log`).

#![cfg(target_os = "linux")]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

#[path = "support/lichess_server.rs"]
mod lichess_server;

/// The online part's token (the local server's; typed into the dialog).
const TOKEN: &str = "lip_OrcaTestToken0123456789";

const START_TIMEOUT: Duration = Duration::from_secs(120);
const STEP_TIMEOUT: Duration = Duration::from_secs(30);
/// How long Orca may be silent after a flat-review key before the walk is
/// taken to have reached the window's last line.
const FLAT_REVIEW_QUIET: Duration = Duration::from_secs(5);

/// Stops a process group of ours when the test ends, however it ends.
struct Reaper(Child);

impl Drop for Reaper {
    fn drop(&mut self) {
        // The session script stops what it started on TERM.
        let _ = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.0.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn artifacts_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target dir")
        .join("test-artifacts");
    std::fs::create_dir_all(&dir).expect("create target/test-artifacts");
    dir
}

fn wait_for<T>(what: &str, timeout: Duration, probe: impl FnMut() -> Option<T>) -> T {
    wait_or_explain(what, timeout, probe, String::new)
}

/// [`wait_for`], saying `explain()` too when it times out.
fn wait_or_explain<T>(
    what: &str,
    timeout: Duration,
    mut probe: impl FnMut() -> Option<T>,
    explain: impl FnOnce() -> String,
) -> T {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(value) = probe() {
            return value;
        }
        if Instant::now() >= deadline {
            panic!("timed out waiting for {what}\n{}", explain());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Orca's debug log, read from where the last check left off.
struct OrcaLog {
    path: PathBuf,
    seen: usize,
}

impl OrcaLog {
    fn text(&self) -> String {
        String::from_utf8_lossy(&std::fs::read(&self.path).unwrap_or_default()).into_owned()
    }

    /// What Orca spoke and brailled since the last mark.
    fn since_mark(&self) -> (Vec<String>, Vec<String>) {
        let text = self.text();
        let new = text.get(self.seen..).unwrap_or("");
        let mut speech = Vec::new();
        let mut braille = Vec::new();
        for line in new.lines() {
            if let Some(rest) = line.split_once("SPEECH OUTPUT: '").map(|x| x.1) {
                // SPEECH OUTPUT: 'words'{voice}
                // 'words'{voice} or 'words'[{voice}]
                let words = rest
                    .rsplit_once("'{")
                    .or_else(|| rest.rsplit_once("'[{"))
                    .map_or(rest, |x| x.0);
                speech.push(words.to_owned());
            } else if let Some(rest) = line.split_once("BRAILLE LINE:  '").map(|x| x.1) {
                braille.push(rest.rsplit_once('\'').map_or(rest, |x| x.0).to_owned());
            }
        }
        (speech, braille)
    }

    /// Waits until Orca has spoken and brailled `text`, then `hold` more
    /// with no key pressed, and checks that the Braille line still shows
    /// it (a deafblind player reads the move there). Returns how long it
    /// has been on the line at least.
    fn expect_held(&mut self, flow: &str, text: &str, hold: Duration) -> Duration {
        self.expect_unmarked(flow, text);
        let shown = Instant::now();
        while shown.elapsed() < hold {
            std::thread::sleep(Duration::from_millis(50));
        }
        let log = self.text();
        let new = log.get(self.seen..).unwrap_or("");
        let lines: Vec<(&str, &str)> = new
            .lines()
            .filter_map(|l| {
                let (time, rest) = l.split_once(" - BRAILLE LINE:  '")?;
                Some((time, rest.rsplit_once('\'').map_or(rest, |x| x.0)))
            })
            .collect();
        let Some(&(last_time, last)) = lines.last() else {
            panic!("{flow}: no Braille line")
        };
        let Some(&(first_time, _)) = lines.iter().rev().find(|(_, l)| l.contains(text)) else {
            panic!("{flow}: '{text}' never brailled")
        };
        if !last.contains(text) {
            std::fs::copy(&self.path, artifacts_dir().join("orca-debug.log")).ok();
            panic!(
                "{flow}: '{text}' left the Braille line at {last_time} (shown at {first_time}), \
                 replaced by '{last}'"
            );
        }
        let held = shown.elapsed();
        eprintln!(
            "{flow}: BRAILLE LINE '{last}' at {first_time}, still the line {held:?} later \
             (the log's last line is {:?} after it)",
            shown_at_age(&log, first_time)
        );
        self.mark();
        held
    }

    /// Like [`OrcaLog::expect`] with the same words spoken and brailled,
    /// without moving the mark.
    fn expect_unmarked(&mut self, flow: &str, text: &str) {
        let deadline = Instant::now() + STEP_TIMEOUT;
        loop {
            let (speech, braille) = self.since_mark();
            if speech.iter().any(|s| s.contains(text)) && braille.iter().any(|b| b.contains(text)) {
                eprintln!("{flow}: Orca said {speech:?}");
                return;
            }
            if Instant::now() > deadline {
                std::fs::copy(&self.path, artifacts_dir().join("orca-debug.log")).ok();
                panic!("{flow}: Orca did not speak and braille '{text}': {speech:?} {braille:?}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits up to `quiet` for Orca to speak or braille anything; returns
    /// what it spoke, or None when it stayed silent.
    fn expect_within(&mut self, flow: &str, quiet: Duration) -> Option<Vec<String>> {
        let deadline = Instant::now() + quiet;
        loop {
            let (speech, braille) = self.since_mark();
            if !(speech.is_empty() && braille.is_empty()) {
                eprintln!("{flow}: Orca said {speech:?}");
                self.mark();
                return Some(speech);
            }
            if Instant::now() > deadline {
                eprintln!("{flow}: Orca said nothing for {quiet:?}");
                return None;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn mark(&mut self) {
        self.seen = self.text().len();
    }

    /// Waits until Orca has spoken a line containing `spoken` and brailled
    /// one containing `brailled`; returns all it spoke since the mark.
    fn expect(&mut self, flow: &str, spoken: &str, brailled: &str) -> Vec<String> {
        let deadline = Instant::now() + STEP_TIMEOUT;
        let said = loop {
            let (speech, braille) = self.since_mark();
            if (spoken.is_empty() || speech.iter().any(|s| s.contains(spoken)))
                && (brailled.is_empty() || braille.iter().any(|b| b.contains(brailled)))
                && !(speech.is_empty() && braille.is_empty())
            {
                break speech;
            }
            if Instant::now() > deadline {
                std::fs::copy(&self.path, artifacts_dir().join("orca-debug.log")).ok();
                panic!(
                    "{flow}: Orca did not speak '{spoken}' and braille '{brailled}'; it spoke \
                     {speech:?} and brailled {braille:?} (log: target/test-artifacts/orca-debug.log)"
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        eprintln!("{flow}: Orca said {said:?}");
        self.mark();
        said
    }
}

/// How long before the log's last line a line stamped `time` was written
/// (Orca stamps each debug line "HH:MM:SS.micros - ").
fn shown_at_age(log: &str, time: &str) -> Duration {
    let stamp = |t: &str| -> Option<f64> {
        let mut parts = t.trim().split(':');
        let h: f64 = parts.next()?.parse().ok()?;
        let m: f64 = parts.next()?.parse().ok()?;
        let s: f64 = parts.next()?.parse().ok()?;
        Some(h * 3600.0 + m * 60.0 + s)
    };
    let last = log
        .lines()
        .rev()
        .find_map(|l| l.split_once(" - ").and_then(|(t, _)| stamp(t)));
    match (last, stamp(time)) {
        (Some(last), Some(then)) if last >= then => Duration::from_secs_f64(last - then),
        _ => Duration::ZERO,
    }
}

/// The log's last Braille line.
fn last_braille(log: &str) -> String {
    log.lines()
        .rev()
        .find_map(|l| l.split_once("BRAILLE LINE:  '").map(|x| x.1))
        .map(|rest| rest.rsplit_once('\'').map_or(rest, |x| x.0).to_owned())
        .unwrap_or_default()
}

/// Whether some Braille line of the log shows `text`.
fn braille_has(log: &str, text: &str) -> bool {
    log.lines()
        .any(|l| l.contains("BRAILLE LINE:") && l.contains(text))
}

struct Desktop {
    env: HashMap<String, String>,
}

impl Desktop {
    fn command(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.envs(&self.env).env_remove("WAYLAND_DISPLAY");
        c
    }

    fn xdotool(&self, args: &[&str]) -> String {
        let out = self
            .command("xdotool")
            .args(args)
            .output()
            .expect("run xdotool (apt install xdotool)");
        assert!(
            out.status.success(),
            "xdotool {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn key(&self, key: &str) {
        self.xdotool(&["key", "--clearmodifiers", key]);
    }

    fn type_move(&self, text: &str) {
        self.xdotool(&["type", "--delay", "40", text]);
        self.key("Return");
    }
}

/// Presses a key in the window and waits until Orca has spoken and
/// brailled what it should (see [`OrcaLog::expect`]).
fn step(desktop: &Desktop, log: &mut OrcaLog, key: &str, flow: &str, spoken: &str, brailled: &str) {
    desktop.key(key);
    log.expect(flow, spoken, brailled);
}

/// One Orca session at a time: each is a desktop of its own, but two at
/// once load the machine as the test runner's "alone" keeps from doing.
static ONE_SESSION: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Starts tests/support/orca-session.sh in `dir`: Xvfb, D-Bus, AT-SPI,
/// speech-dispatcher and Orca, with its debug log marked where it is.
fn start_orca_session(dir: &Path, artifacts: &Path) -> (Reaper, Desktop, OrcaLog) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/orca-session.sh");
    let session = Command::new("bash")
        .arg(&script)
        .arg(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(artifacts.join("orca-session.txt")).unwrap())
        .spawn()
        .expect("start tests/support/orca-session.sh");
    let mut session = Reaper(session);
    let env_path = dir.join("env");
    wait_for("the Orca session", START_TIMEOUT, || {
        if let Ok(Some(status)) = session.0.try_wait() {
            panic!(
                "the Orca session failed ({status}): {}",
                std::fs::read_to_string(artifacts.join("orca-session.txt")).unwrap_or_default()
            );
        }
        env_path.exists().then_some(())
    });
    let env: HashMap<String, String> = std::fs::read_to_string(&env_path)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    let desktop = Desktop { env };
    let mut log = OrcaLog {
        path: dir.join("orca-debug.log"),
        seen: 0,
    };
    log.mark();
    (session, desktop, log)
}

/// Starts Rochade on `desktop` with its settings in `config_dir`, and
/// gives its window the keyboard.
fn start_app(desktop: &Desktop, config_dir: &Path, data_dir: &Path, artifacts: &Path) -> Reaper {
    let app = desktop
        .command(env!("CARGO_BIN_EXE_rochade"))
        .env("ROCHADE_CONFIG_DIR", config_dir)
        .env("ROCHADE_DATA_DIR", data_dir)
        .env("ROCHADE_SECRET_STORE", "file")
        .env_remove("ROCHADE_LICHESS_TOKEN")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(artifacts.join("orca-app-stderr.txt")).unwrap())
        .spawn()
        .expect("start rochade");
    let app = Reaper(app);
    let window = wait_for("the Rochade window", START_TIMEOUT, || {
        let out = desktop
            .command("xdotool")
            .args(["search", "--onlyvisible", "--name", "^Rochade"])
            .output()
            .ok()?;
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .map(|l| l.trim().to_owned())
    });
    // On a loaded machine openbox may not have said yet that it can
    // activate windows (xdotool then refuses): asked again until it has.
    wait_for(
        "the window manager to activate the window",
        START_TIMEOUT,
        || {
            desktop
                .command("xdotool")
                .args(["windowactivate", "--sync", &window])
                .output()
                .ok()
                .filter(|out| out.status.success())
                .map(|_| ())
        },
    );
    app
}

/// A player who starts Rochade with Orca running and types nothing hears
/// the offer to let Orca speak, after Orca has said where the keyboard is
/// (asked the moment the window opened, Orca never said it).
#[test]
fn orca_says_the_offer_to_a_player_who_waits() {
    let _one = ONE_SESSION.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().expect("temp dir");
    let artifacts = artifacts_dir();
    let (_session, desktop, mut log) = start_orca_session(dir.path(), &artifacts);
    let config_dir = dir.path().join("config");
    std::fs::create_dir_all(&config_dir).unwrap();
    std::fs::write(
        config_dir.join("settings.toml"),
        "interface_language = \"en\"\n[speech]\nbackend = \"silent\"\n",
    )
    .unwrap();
    let _app = start_app(&desktop, &config_dir, &dir.path().join("data"), &artifacts);
    let offer = "A screen reader is running";
    log.expect_unmarked("the offer to a player who waits", offer);
    let (speech, _) = log.since_mark();
    let focus = speech.iter().position(|s| s.contains("Move entry"));
    let asked = speech.iter().position(|s| s.contains(offer));
    assert!(
        focus.is_some() && focus < asked,
        "Orca says where the keyboard is, then the offer: {speech:?}"
    );
}

#[test]
fn orca_speaks_and_brailles_moves_board_and_dialogs() {
    let _one = ONE_SESSION.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().expect("temp dir");
    let artifacts = artifacts_dir();
    let (_session, desktop, mut log) = start_orca_session(dir.path(), &artifacts);

    // German announcements (the default), English interface, the app's
    // own voice silent: everything heard comes from Orca. Moves are said
    // in German, every other message in English.
    let config_dir = dir.path().join("config");
    let data_dir = dir.path().join("data");
    std::fs::create_dir_all(&config_dir).unwrap();
    // The online part plays against a local server with the Lichess
    // Board API (White: a2a3, then the opponent's d7d5).
    let server = lichess_server::Server::start(
        TOKEN,
        lichess_server::Script {
            moves: ["a2a3", "d7d5", "b2b3", "c8f5"].map(String::from).to_vec(),
            account_white: true,
            ..Default::default()
        },
    );
    std::fs::write(
        config_dir.join("settings.toml"),
        format!(
            "interface_language = \"en\"\n[speech]\nbackend = \"silent\"\n\
             [online]\nserver = \"{}\"\nfind = \"ai\"\nai_level = 3\n",
            server.url()
        ),
    )
    .unwrap();
    // Start: the move input has the focus and Orca says so.
    let _app = start_app(&desktop, &config_dir, &data_dir, &artifacts);
    // Six moves typed at once after start, not waiting for anything: each
    // is spoken and brailled by Orca and still on the Braille line 1.5 s
    // later (it was replaced within 50 ms when the move input was
    // cleared). The screen-reader offer, asked at start or once the
    // keyboard is idle, takes none of them (it took every one when it was
    // a dialog holding the keyboard).
    for (typed, said) in [
        ("e4", "Eva vier"),
        ("e5", "Eva fünf"),
        ("Nf3", "Springer Felix drei"),
        ("Nc6", "Springer Cesar sechs"),
        ("Bb5", "Läufer Bella fünf"),
        ("a6", "Anna sechs"),
    ] {
        desktop.type_move(typed);
        log.expect_held(&format!("move {typed}"), said, Duration::from_millis(1500));
        // The move first on the line: a 40-cell display shows its start
        // (the offer said with the first move came before it).
        let line = last_braille(&log.text());
        assert!(
            line.starts_with(said),
            "move {typed}: the Braille line begins with the move: '{line}'"
        );
    }
    // Orca runs while the app would speak itself: the app offers to let
    // Orca speak (once), and Orca says and brailles the offer (at start or
    // now). "yes" typed in the move input accepts: from then on Orca alone
    // speaks, and the choice is saved.
    let offer = "A screen reader is running";
    wait_or_explain(
        "the screen-reader offer spoken and brailled",
        STEP_TIMEOUT,
        || {
            let all = log.text();
            let spoken = all
                .lines()
                .any(|l| l.contains("SPEECH OUTPUT:") && l.contains(offer));
            (spoken && braille_has(&all, offer)).then_some(())
        },
        // What the app showed Orca of the offer, and what it printed.
        || {
            let all = log.text();
            let seen: Vec<&str> = all.lines().filter(|l| l.contains(offer)).collect();
            format!(
                "Orca's log lines with the offer ({}):\n{}\nthe app's stderr:\n{}",
                seen.len(),
                seen.join("\n"),
                std::fs::read_to_string(artifacts.join("orca-app-stderr.txt")).unwrap_or_default()
            )
        },
    );
    log.mark();
    desktop.type_move("yes");
    log.expect(
        "screen reader mode",
        "Screen reader mode",
        "Screen reader mode",
    );
    wait_for("the speech mode saved", STEP_TIMEOUT, || {
        std::fs::read_to_string(config_dir.join("settings.toml"))
            .ok()
            .filter(|s| s.contains("mode = \"screen_reader\""))
    });
    // The keyboard is in the move input.
    step(
        &desktop,
        &mut log,
        "F7",
        "board",
        "Anna sechs: schwarzer Bauer",
        "Anna sechs: schwarzer Bauer",
    );
    step(
        &desktop,
        &mut log,
        "F7",
        "start: the move input",
        "Move entry",
        "Move",
    );

    // Orca's own keys work inside the window: Insert+T says the time. The
    // keys go to the AT-SPI registry first and Orca uses them; the T never
    // reaches the move input (the next move would fail with "te4").
    desktop.key("Insert+t");
    let said = log.expect("Orca's own key Insert+T (the time)", ":", "");
    assert!(
        said.iter().any(|s| {
            let digits: Vec<&str> = s.trim_end_matches('.').split(':').collect();
            digits.len() >= 2
                && digits
                    .iter()
                    .all(|d| d.trim().chars().any(|c| c.is_ascii_digit()))
        }),
        "Orca said the time: {said:?}"
    );

    // Flat review (Orca's keypad, Num Lock off): KP_Subtract enters it
    // and reaches Orca (it typed "-" into the move input); KP_9 walks the
    // window's lines, which include the last announcement and the
    // scoresheet (Orca found 1 object and read nothing before).
    step(
        &desktop,
        &mut log,
        "KP_Subtract",
        "flat review on",
        "Entering flat review",
        "Entering flat review",
    );
    let mut read = Vec::new();
    for _ in 0..60 {
        desktop.key("KP_Prior");
        // Orca says nothing on the window's last line: the walk ends there.
        match log.expect_within("flat review, next line", FLAT_REVIEW_QUIET) {
            Some(said) => read.extend(said),
            None => break,
        }
        if read.iter().any(|s| s.contains("3. Bb5 a6")) {
            break;
        }
    }
    assert!(
        read.iter()
            .any(|s| s.contains("Anna sechs") && !s.contains(':')),
        "flat review read the last announcement: {read:?}"
    );
    assert!(
        read.iter().any(|s| s.contains("1. e4 e5")) && read.iter().any(|s| s.contains("3. Bb5 a6")),
        "flat review read the scoresheet: {read:?}"
    );
    step(
        &desktop,
        &mut log,
        "KP_Subtract",
        "flat review off",
        "Leaving flat review",
        "",
    );
    // KP_Add (say all) goes to Orca and types nothing.
    desktop.key("KP_Add");
    wait_for("Orca to take KP_Add", STEP_TIMEOUT, || {
        log.text()
            .get(log.seen..)
            .unwrap_or("")
            .contains("CONSUME ATSPI_KEY_PRESSED_EVENT: 'KP_Add'")
            .then_some(())
    });
    log.mark();
    // An illegal move: the error is spoken and brailled, the text kept.
    desktop.type_move("Ke3");
    log.expect("illegal move", "Ke3", "Ke3");
    desktop.key("ctrl+a");
    desktop.key("BackSpace");

    // The board, square by square: F7 puts the focus on the cursor's cell
    // (the last move's square), arrows move it; Orca speaks and brailles
    // each cell it lands on.
    step(
        &desktop,
        &mut log,
        "F7",
        "board",
        "Anna sechs: schwarzer Bauer",
        "Anna sechs: schwarzer Bauer",
    );
    for (key, square) in [
        ("Up", "Anna sieben: leer"),
        ("Right", "Bella sieben: schwarzer Bauer"),
        ("Down", "Bella sechs: leer"),
        ("Down", "Bella fünf: weißer Läufer"),
    ] {
        desktop.key(key);
        let said = log.expect(&format!("board walk {key}"), square, square);
        assert!(
            said.iter().filter(|s| s.contains(square)).count() == 1,
            "{square} said once, not twice: {said:?}"
        );
        assert!(
            !said.iter().any(|s| s.contains("not selected")),
            "no selection chatter on a board cell: {said:?}"
        );
    }

    // Escape with a lifted piece puts it back, said and brailled, and the
    // board keeps the keyboard; Down and Enter then play nothing (the
    // scoresheet's newest row below is still 3. Bb5 a6).
    step(
        &desktop,
        &mut log,
        "Return",
        "pick up the bishop",
        "Läufer Bella fünf picked up",
        "Läufer Bella fünf picked up",
    );
    step(
        &desktop,
        &mut log,
        "Escape",
        "Escape puts it back",
        "Läufer Bella fünf put back",
        "Läufer Bella fünf put back",
    );
    step(
        &desktop,
        &mut log,
        "Down",
        "still on the board",
        "Bella vier: leer",
        "Bella vier: leer",
    );
    step(
        &desktop,
        &mut log,
        "Return",
        "Enter plays nothing",
        "Bella vier: leer",
        "Bella vier: leer",
    );

    // The scoresheet, line by line: back to the move input (F7), Tab past
    // Play to the newest row, Up to the older ones.
    step(
        &desktop,
        &mut log,
        "F7",
        "back to the move input",
        "Move",
        "Move",
    );
    step(&desktop, &mut log, "Tab", "play button", "Play", "Play");
    step(
        &desktop,
        &mut log,
        "Tab",
        "scoresheet",
        "3. Bb5 a6",
        "3. Bb5 a6",
    );
    step(
        &desktop,
        &mut log,
        "Up",
        "scoresheet up",
        "2. Nf3 Nc6",
        "2. Nf3 Nc6",
    );
    step(
        &desktop,
        &mut log,
        "Up",
        "scoresheet up",
        "1. e4 e5",
        "1. e4 e5",
    );

    // A clock request (F4) is answered through the focused row.
    desktop.key("F4");
    let said = log.expect("clock request", "White", "White");
    assert!(!said.is_empty());

    // Help (F1) opens, Escape closes it and the focus comes back to the
    // move input.
    step(
        &desktop,
        &mut log,
        "F1",
        "help",
        "F1: this help",
        "F1: this help",
    );
    // The help is a document read line by line.
    step(
        &desktop,
        &mut log,
        "Down",
        "help, next line",
        "F2: repeat the last announcement",
        "F2: repeat the last announcement",
    );
    step(
        &desktop,
        &mut log,
        "Escape",
        "help closed",
        "Move entry",
        "Move",
    );

    // Settings by keyboard alone, every value spoken: F8 puts the
    // keyboard on the first field; Tab, Down and Up change the
    // announcement language to English (each value said; the name
    // carries it on AT-SPI); Space opens the list and says its choices,
    // Escape closes only the list; Shift+Tab reaches Save, Enter saves, the
    // keyboard is back in the move input. Nine keys.
    let mut keys = 0;
    let mut press = |key: &str, flow: &str, spoken: &str, brailled: &str| {
        keys += 1;
        step(&desktop, &mut log, key, flow, spoken, brailled);
    };
    press(
        "F8",
        "settings",
        "Interface language: English",
        "Interface language: English",
    );
    press(
        "Tab",
        "settings: next field",
        "Announcement language: Deutsch",
        "Announcement language: Deutsch",
    );
    press("Up", "settings: Up changes the value", "English", "English");
    press(
        "space",
        "settings: the list opens and says its choices",
        "Português (Brasil), English, Deutsch",
        "",
    );
    press(
        "Escape",
        "settings: Escape closes the list",
        "Announcement language: English",
        "",
    );
    press(
        "shift+Tab",
        "settings: back",
        "Interface language",
        "Interface language",
    );
    press("shift+Tab", "settings: Cancel", "Cancel", "Cancel");
    press("shift+Tab", "settings: Save", "Save", "Save");
    press("Return", "settings saved", "Move", "Move");
    assert!(keys <= 10, "{keys} keys");
    wait_for("the announcement language saved", STEP_TIMEOUT, || {
        std::fs::read_to_string(config_dir.join("settings.toml"))
            .ok()
            .filter(|s| s.contains("language = \"en\""))
    });

    // A new game (Ctrl+N) mid-game asks first; the question is announced,
    // and Y starts the new game.
    step(&desktop, &mut log, "ctrl+n", "new game question", "?", "?");
    step(&desktop, &mut log, "y", "new game", "New game", "New game");

    // Against the computer (Stockfish): its reply is spoken and brailled
    // and stays on the Braille line too (moves are now in English, as
    // chosen in Settings above).
    step(&desktop, &mut log, "ctrl+shift+p", "computer on", "", "");
    desktop.type_move("e4");
    log.expect("move e4 against the computer", "Eva four", "Eva four");
    let reply = wait_for("the computer's reply", STEP_TIMEOUT, || {
        let (_, braille) = log.since_mark();
        braille
            .into_iter()
            .find(|b| !b.contains("frame") && !b.contains("Eva four") && !b.trim().is_empty())
    });
    log.expect_held("the computer's reply", &reply, Duration::from_millis(1500));

    // Online by keyboard alone: Ctrl+Shift+O opens the dialog on its first
    // field, every field says its label (and a choice its value); the
    // token is typed into a password field; Tab reaches Connect. The game
    // against the computer is exported first (nothing lost); the online
    // game is announced, our move and the opponent's reply (from the
    // server) are spoken and brailled, and the reply stays on the line.
    step(
        &desktop,
        &mut log,
        "ctrl+shift+o",
        "online dialog",
        "Find a game: Against Lichess AI",
        "Find a game: Against Lichess AI",
    );
    step(
        &desktop,
        &mut log,
        "Tab",
        "online: AI level",
        "AI level (1 to 8): 3",
        "AI level",
    );
    step(
        &desktop,
        &mut log,
        "Tab",
        "online: time control",
        "Time control",
        "Time control",
    );
    step(
        &desktop,
        &mut log,
        "Tab",
        "online: the token field",
        "Personal API token",
        "Personal API token",
    );
    desktop.xdotool(&["type", "--delay", "20", TOKEN]);
    step(
        &desktop,
        &mut log,
        "Tab",
        "online: the server",
        "Server address",
        "Server address",
    );
    // The confirmation before resigning or offering a draw: a check box,
    // said and brailled with its state.
    step(
        &desktop,
        &mut log,
        "Tab",
        "online: ask before resigning",
        "Ask before resigning or offering a draw check box checked",
        "Ask before resigning or offering a draw check box",
    );
    step(
        &desktop,
        &mut log,
        "Tab",
        "online: Connect",
        "Connect",
        "Connect",
    );
    desktop.key("Return");
    log.expect_unmarked("online: connected", "Connected as blindplayer");
    log.expect(
        "online: the game",
        "Online game against Sighted, rating 1622. You play White",
        "Online game against Sighted",
    );
    desktop.type_move("a3");
    log.expect_unmarked("online: our move", "Anna three");
    log.expect_held(
        "online: the opponent's reply",
        "David five",
        Duration::from_millis(1500),
    );
    assert_eq!(server.moves(), ["a2a3", "d7d5"]);
    let (speech, _) = log.since_mark();
    let all = log.text();
    assert!(
        !all.contains(TOKEN),
        "the token is never spoken or brailled"
    );
    let _ = speech;
    assert!(
        std::fs::read_dir(data_dir.join("exports"))
            .map(|d| d.count() > 0)
            .unwrap_or(false),
        "the game against the computer was exported before the online game"
    );

    std::fs::copy(&log.path, artifacts.join("orca-debug.log")).ok();
}
