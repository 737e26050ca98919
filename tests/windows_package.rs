//! The Windows package (`scripts/build-windows`), unpacked and run under
//! Wine, against the Linux build of the same source: `--help`, the
//! announcements of real games and the Braille and text exports byte for
//! byte, and the window taking a typed move and saving it in the user's
//! data folder (`%APPDATA%\Rochade\data`).
//!
//! Run by `scripts/test-windows` (part of `scripts/test`), which builds the
//! package, unpacks it, makes the Wine prefix and sets
//! `ROCHADE_WINDOWS_PACKAGE` (the folder holding `rochade.exe`) and
//! `WINEPREFIX`. Without them the tests fail; plain `cargo test` leaves them
//! out (they are `#[ignore]`d: a Windows build takes minutes).

#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

#[path = "support/xvfb.rs"]
mod xvfb;
use xvfb::{Reaper, require_tool, run, wait_for};

/// Wine starts slowly (its services, a software-rendered window).
const START_TIMEOUT: Duration = Duration::from_secs(180);
const STEP_TIMEOUT: Duration = Duration::from_secs(60);

fn package() -> PathBuf {
    let dir = std::env::var_os("ROCHADE_WINDOWS_PACKAGE")
        .map(PathBuf::from)
        .expect("ROCHADE_WINDOWS_PACKAGE is not set: run scripts/test-windows");
    assert!(
        dir.join("rochade.exe").is_file(),
        "no rochade.exe in {}",
        dir.display()
    );
    dir
}

fn wine_prefix() -> PathBuf {
    std::env::var_os("WINEPREFIX")
        .map(PathBuf::from)
        .expect("WINEPREFIX is not set: run scripts/test-windows")
}

/// A Unix path as a Windows program under Wine sees it (drive Z: is /).
fn windows_path(path: &Path) -> String {
    let absolute = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    format!("Z:{}", absolute.display()).replace('/', "\\")
}

fn wine(args: &[&str]) -> Command {
    let mut cmd = Command::new("wine");
    cmd.arg(package().join("rochade.exe"))
        .args(args)
        .env("WINEDEBUG", "-all")
        .env_remove("DISPLAY")
        .env_remove("ROCHADE_CONFIG_DIR")
        .env_remove("ROCHADE_DATA_DIR")
        .stdin(Stdio::null());
    cmd
}

fn linux(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rochade"));
    cmd.args(args).stdin(Stdio::null());
    cmd
}

fn output(mut cmd: Command, what: &str) -> Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn games() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/games");
    let mut games: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/data/games")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    games.sort();
    assert!(games.len() >= 3, "too few games in {}", dir.display());
    games
}

#[test]
#[ignore = "needs the Windows package under Wine: scripts/test-windows runs it"]
fn the_zip_holds_what_the_exe_loads_beside_it() {
    let dir = package();
    for file in [
        "nvdaControllerClient64.dll",
        "LICENSE-NVDA.txt",
        "LICENSE",
        "share/liblouis/tables/de-de-g0.utb",
        "docs/windows.md",
    ] {
        assert!(dir.join(file).is_file(), "{file} is not in the zip");
    }
    // The DLL is a 64-bit Windows library exporting NVDA's four functions.
    let dll = std::fs::read(dir.join("nvdaControllerClient64.dll")).unwrap();
    assert_eq!(&dll[..2], b"MZ");
    for name in [
        "nvdaController_speakText",
        "nvdaController_brailleMessage",
        "nvdaController_cancelSpeech",
        "nvdaController_testIfRunning",
    ] {
        assert!(
            dll.windows(name.len()).any(|w| w == name.as_bytes()),
            "{name} is not exported"
        );
    }
}

#[test]
#[ignore = "needs the Windows package under Wine: scripts/test-windows runs it"]
fn the_exe_lists_the_same_commands_as_the_linux_build() {
    let windows = output(wine(&["--help"]), "rochade.exe --help");
    let ours = output(linux(&["--help"]), "rochade --help");
    let text = String::from_utf8_lossy(&windows.stdout);
    for command in ["announce", "track", "export", "play", "online", "puzzle"] {
        assert!(text.contains(command), "{command} missing:\n{text}");
    }
    assert_eq!(text, String::from_utf8_lossy(&ours.stdout));
}

#[test]
#[ignore = "needs the Windows package under Wine: scripts/test-windows runs it"]
fn real_games_are_announced_exactly_as_on_linux() {
    let mut runs = Vec::new();
    for game in games() {
        for lang in ["de", "en", "pt"] {
            for form in ["short", "long"] {
                runs.push((game.clone(), lang, form));
            }
        }
    }
    in_parallel(&runs, |(game, lang, form)| {
        let args = ["announce", "--lang", lang, "--form", form, "--spoken"];
        let win_game = windows_path(game);
        let linux_game = game.display().to_string();
        let windows = output(
            wine(&[&args[..], &[win_game.as_str()]].concat()),
            "rochade.exe announce",
        );
        let ours = output(
            linux(&[&args[..], &[linux_game.as_str()]].concat()),
            "rochade announce",
        );
        assert!(!ours.stdout.is_empty());
        assert_eq!(
            String::from_utf8_lossy(&windows.stdout),
            String::from_utf8_lossy(&ours.stdout),
            "{} {lang} {form}",
            game.display()
        );
    });
}

/// Runs `check` on every item, a few at a time: each Wine run spends a
/// second or more starting up, mostly waiting on the Wine server, and the
/// runs are independent (their own output files). A failing item fails the
/// test (its panic is printed, the others still finish).
fn in_parallel<T: Sync>(items: &[T], check: impl Fn(&T) + Sync) {
    const AT_A_TIME: usize = 4;
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..AT_A_TIME {
            scope.spawn(|| {
                while let Some(item) =
                    items.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                {
                    check(item);
                }
            });
        }
    });
}

/// Every export of every game against the Linux build's. The Windows build
/// links liblouis 3.7 (the newest source on a registry: scripts/build-windows)
/// where Debian 12 has 3.24: the English and Portuguese headers' literary
/// Braille, the moves (Rochade's own tables), PGN and text are the same bytes;
/// German literary Braille differs in a few header lines (3.7 puts a capital
/// sign before a word in capitals, "FRA", and contracts some words
/// otherwise), which is checked to stay that small (docs/windows.md).
#[test]
#[ignore = "needs the Windows package under Wine: scripts/test-windows runs it"]
fn exports_are_byte_for_byte_those_of_the_linux_build() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let out = tempfile::tempdir().expect("temp dir");
    let mut runs = Vec::new();
    for game in games() {
        for format in ["brf", "pef", "unicode", "pgn", "text"] {
            for (lang, letters) in [("de", "de"), ("en", "en"), ("pt", "pt")] {
                let braille = matches!(format, "brf" | "pef" | "unicode");
                // Only Braille has grades.
                for &contracted in if braille {
                    &[false, true][..]
                } else {
                    &[false][..]
                } {
                    runs.push((game.clone(), format, lang, letters, contracted));
                }
            }
        }
    }
    let (same, german_lines_apart) = (AtomicUsize::new(0), AtomicUsize::new(0));
    in_parallel(&runs, |&(ref game, format, lang, letters, contracted)| {
        let braille = matches!(format, "brf" | "pef" | "unicode");
        let name = format!(
            "{}-{format}-{lang}-{letters}-{contracted}",
            game.file_stem().unwrap().to_string_lossy()
        );
        let linux_file = out.path().join(format!("{name}.linux"));
        let win_file = out.path().join(format!("{name}.win"));
        let mut args = vec!["export", "--to", format, "--lang", lang];
        args.extend(["--letters", letters]);
        if contracted {
            args.push("--contracted");
        }
        let wf = windows_path(&win_file.with_extension("")) + ".win";
        let wg = windows_path(game);
        let (lf, lg) = (linux_file.display().to_string(), game.display().to_string());
        output(
            wine(&[&args[..], &["-o", wf.as_str(), wg.as_str()]].concat()),
            "rochade.exe export",
        );
        output(
            linux(&[&args[..], &["-o", lf.as_str(), lg.as_str()]].concat()),
            "rochade export",
        );
        let w = std::fs::read(&win_file).expect("the Windows export");
        let l = std::fs::read(&linux_file).expect("the Linux export");
        assert!(!l.is_empty());
        if w == l {
            same.fetch_add(1, Ordering::Relaxed);
            return;
        }
        assert!(
            braille && lang == "de",
            "{name}: the Windows export differs"
        );
        let (w, l) = (String::from_utf8_lossy(&w), String::from_utf8_lossy(&l));
        assert_eq!(w.lines().count(), l.lines().count(), "{name}: lines");
        let apart = w.lines().zip(l.lines()).filter(|(a, b)| a != b).count();
        assert!(apart <= 3, "{name}: {apart} lines differ");
        german_lines_apart.fetch_add(apart, Ordering::Relaxed);
    });
    let (same, german_lines_apart) = (same.into_inner(), german_lines_apart.into_inner());
    eprintln!("{same} exports the same bytes; German Braille: {german_lines_apart} lines apart");
    assert!(same >= 70, "only {same} exports are the same bytes");
}

/// The window under Wine (on Xvfb): it opens, takes a typed move, and the
/// game saved after it is in `%APPDATA%\Rochade\data` of the Wine user.
#[test]
#[ignore = "needs the Windows package under Wine: scripts/test-windows runs it"]
fn the_window_takes_a_typed_move_and_saves_it_in_the_users_data_folder() {
    for (tool, package) in [("Xvfb", "xvfb"), ("xdotool", "xdotool"), ("wine", "wine")] {
        require_tool(tool, package);
    }
    // Wine names the user's folder after the Unix account ($USER may be
    // unset in CI): the one folder beside Public.
    let users = wine_prefix().join("drive_c/users");
    let user = std::fs::read_dir(&users)
        .expect("the Wine prefix's users")
        .map(|e| e.expect("entry").path())
        .find(|p| p.file_name().is_some_and(|n| n != "Public"))
        .expect("a Wine user folder");
    let roaming = user.join("AppData/Roaming");
    let rochade = roaming.join("Rochade");
    let _ = std::fs::remove_dir_all(&rochade);
    std::fs::create_dir_all(rochade.join("config")).unwrap();
    // No speech device under Wine; English words; the screen-reader offer
    // answered, as tests/gui_xvfb.rs does on Linux.
    std::fs::write(
        rochade.join("config/settings.toml"),
        "interface_language = \"en\"\n[speech]\nbackend = \"silent\"\nscreen_reader_offered = true\n",
    )
    .unwrap();

    let (_xvfb, display) = xvfb::start_xvfb(STEP_TIMEOUT);
    let stderr_path = std::env::temp_dir().join(format!("rochade-wine-{}.txt", std::process::id()));
    let mut app = Reaper(Some(
        wine(&[])
            .env("DISPLAY", &display)
            .env("ROCHADE_TRACE_STARTUP", "1")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&stderr_path).unwrap())
            .spawn()
            .expect("start wine rochade.exe"),
    ));
    let stderr = || std::fs::read_to_string(&stderr_path).unwrap_or_default();
    let window: u32 = wait_for("the Rochade window", START_TIMEOUT, || {
        if let Some(status) = app.child().try_wait().expect("try_wait") {
            panic!(
                "rochade.exe exited before its window appeared ({status}):\n{}",
                stderr()
            );
        }
        // The title carries the game state: "Rochade – White to move".
        xvfb::visible_window(&display, "^Rochade( |$)")
    });
    wait_for("the first spoken word", START_TIMEOUT, || {
        stderr().contains("first spoken word").then_some(())
    });
    let w = window.to_string();
    let out = run(&display, "xdotool", &["windowfocus", "--sync", &w]);
    assert!(
        out.status.success(),
        "windowfocus: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    wait_for("the keyboard focus on the window", STEP_TIMEOUT, || {
        let out = run(&display, "xdotool", &["getwindowfocus"]);
        (String::from_utf8_lossy(&out.stdout).trim() == w).then_some(())
    });
    assert!(
        run(&display, "xdotool", &["type", "--delay", "80", "e4"])
            .status
            .success()
    );
    assert!(
        run(&display, "xdotool", &["key", "Return"])
            .status
            .success()
    );

    let data = rochade.join("data");
    let store = rochade::savegame::GameStore::new(&data);
    let saved = wait_for("the saved game with 1. e4", STEP_TIMEOUT, || {
        let text = std::fs::read_to_string(store.current_path()).ok()?;
        rochade::savegame::from_pgn(&text)
            .ok()
            .filter(|g| !g.moves().is_empty())
    });
    let sans: Vec<String> = saved.moves().iter().map(|m| m.san_string()).collect();
    assert_eq!(sans, ["e4"], "saved in {}", data.display());
    assert!(
        !roaming.join("Rochade/rochade").exists(),
        "the folder is doubled (Rochade\\rochade)"
    );
}
