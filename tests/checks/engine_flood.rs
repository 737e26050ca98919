//! Engines that flood their output: a fake engine (a shell script this
//! test writes into a temporary folder) that answers the UCI handshake and
//! then floods `info` lines, one that writes a line without end, and
//! `/usr/bin/yes` (which never speaks UCI and writes `y` lines as fast as
//! it can). Each is stopped as [`EngineError::Flooded`] within seconds and
//! said in words; `review` and `play` end with a clear error, their memory
//! bounded (they took 2 to 2.8 GB in seconds).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rochade::engine::driver::{Driver, Time};
use rochade::engine::{CommandLog, Engine, EngineError, EngineService, Level};
use rochade::session::{Effect, Event, Opponent, Session, SessionConfig, Source};
use rochade::words::{Lang, Pack};
use shakmaty::Color;

use crate::cli;
use crate::hermetic;

/// The UCI handshake, then `flood` (shell) on `go`.
fn script(flood: &str) -> String {
    format!(
        "#!/bin/sh\n\
         while read -r cmd rest; do\n\
         case \"$cmd\" in\n\
         uci) echo 'id name Flood'; echo uciok;;\n\
         isready) echo readyok;;\n\
         go) {flood};;\n\
         quit) exit 0;;\n\
         esac\n\
         done\n"
    )
}

/// `info` lines as fast as the shell writes them.
const INFO_FLOOD: &str = "while :; do echo 'info depth 1 score cp 13 pv e2e4'; done";
/// One line that never ends.
const ENDLESS_LINE: &str = "printf 'info string '; yes x | tr -d '\\n'";

/// Writes `text` as an executable file in a fresh folder. Written by
/// another process: a file this process held open for writing could be
/// inherited by a child another test forks meanwhile, and starting it
/// would then fail ("text file busy").
fn executable(name: &str, text: &str) -> PathBuf {
    let path = hermetic::private_dir("engine").join(name);
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg("cat > \"$1\" && chmod 755 \"$1\"")
        .arg("sh")
        .arg(&path)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("sh");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success());
    path
}

fn info_flood() -> PathBuf {
    executable("info-flood", &script(INFO_FLOOD))
}

fn endless_line() -> PathBuf {
    executable("endless-line", &script(ENDLESS_LINE))
}

fn yes() -> PathBuf {
    let path = PathBuf::from("/usr/bin/yes");
    assert!(path.exists(), "/usr/bin/yes is missing");
    path
}

/// Starts `program` and asks it for a move: the error, and how long it took.
fn search_with(program: &Path) -> (Result<(), EngineError>, Duration) {
    let started = Instant::now();
    let result = Engine::start(program, CommandLog::default()).and_then(|mut engine| {
        let plan = Level::analysis(engine.options(), 500, Some(10));
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        engine.search(fen, &[], &plan).map(|_| ())
    });
    (result, started.elapsed())
}

#[test]
fn each_flooding_engine_is_stopped_as_flooded_within_seconds() {
    for program in [info_flood(), endless_line(), yes()] {
        let (result, took) = search_with(&program);
        assert_eq!(result, Err(EngineError::Flooded), "{}", program.display());
        // Hung would take the 10 s slack at the least.
        assert!(
            took < Duration::from_secs(5),
            "{}: {took:?}",
            program.display()
        );
    }
}

#[test]
fn a_flooding_opponent_is_said_in_words_in_each_language() {
    for (lang, words) in [
        (Lang::En, "far too much output"),
        (Lang::De, "viel zu viel aus"),
        (Lang::Pt, "saída demais"),
    ] {
        let mut session = Session::with_pack(
            SessionConfig {
                lang,
                ..SessionConfig::default()
            },
            Pack::bundled(lang),
        );
        session.set_opponent(Some(Opponent {
            color: Color::Black,
            level: Level::new(3).unwrap(),
            pause_ms: 0,
            seed: 1,
        }));
        let mut d = Driver::new(session, EngineService::spawn(yes()), Time::Virtual(0));
        let spoken = |fx: &[Effect]| -> Vec<String> {
            let speech = fx.iter().filter_map(Effect::speech);
            speech.map(|s| s.text.spoken.clone()).collect()
        };
        let mut said = spoken(&d.handle(Event::MoveEntered {
            text: "e4".into(),
            source: Source::Keyboard,
        }));
        assert!(d.settle(|_, fx| said.extend(spoken(&fx))));
        assert!(said.iter().any(|s| s.contains(words)), "{lang:?}: {said:?}");
        assert!(d.engine.flooded());
        assert_eq!(d.session.record().moves().len(), 1, "the game is kept");
    }
}

/// The largest resident set of any child this process waited for (and of
/// their children they waited for), in bytes.
fn children_peak_rss() -> u64 {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the struct it is given.
    let usage = unsafe {
        assert_eq!(
            libc::getrusage(libc::RUSAGE_CHILDREN, usage.as_mut_ptr()),
            0
        );
        usage.assume_init()
    };
    // Linux gives kilobytes.
    usage.ru_maxrss as u64 * 1024
}

const PLANTED: &str = "tests/data/review/morphy_opera_planted_blunder.pgn";

#[test]
fn review_with_a_flooding_engine_ends_with_an_error_in_bounded_memory() {
    for program in [info_flood(), endless_line(), yes()] {
        let started = Instant::now();
        let out = cli::run_rochade(
            &[
                "review",
                "--quiet",
                "--side",
                "white",
                "--lang",
                "en",
                "--engine",
                program.to_str().unwrap(),
                PLANTED,
            ],
            b"",
        );
        let took = started.elapsed();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}: {stderr}",
            program.display()
        );
        assert!(
            stderr.contains("No review: the program writes far too much output and was stopped"),
            "{stderr}"
        );
        assert!(took < Duration::from_secs(40), "{took:?}");
    }
    let peak = children_peak_rss();
    assert!(peak < 300 << 20, "peak {} MB", peak >> 20);
}

#[test]
fn play_with_a_flooding_engine_ends_with_an_error() {
    for program in [info_flood(), yes()] {
        let out = cli::run_rochade(
            &[
                "play",
                "--quiet",
                "--lang",
                "en",
                "--engine",
                program.to_str().unwrap(),
            ],
            b"e4\nd4\n",
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
        assert!(
            stdout.contains("the program writes far too much output"),
            "{stdout}"
        );
        assert!(
            stderr.contains("The game ends: the computer opponent writes far too much output"),
            "{stderr}"
        );
    }
}
