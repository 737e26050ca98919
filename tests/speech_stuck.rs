//! A speech daemon that hangs (a module without audio, a daemon left by a
//! killed process): a socket that takes the connection and never answers,
//! handed to the real client library through `SPEECHD_ADDRESS`. Nothing
//! may wait for it for ever: `rochade say` and `rochade voices` end with an
//! error and a non-zero exit within seconds.
//!
//! And one that hangs mid-session: a fake speech-dispatcher that speaks
//! (answers SSIP, reports each message's begin and end) until the Nth
//! `SPEAK`, then never answers again. The move cut off is said by the clip
//! voice, whose sound goes through ALSA into a file (a `.asoundrc` in a
//! temporary HOME, as in tests/checks/audio_alsa.rs), and the terminal says what
//! happened.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rochade::speech::ClipStore;
use rochade::words::Lang;

#[path = "support/hermetic.rs"]
mod hermetic;

/// A speech-dispatcher socket that accepts every connection and never
/// says a word; kept open for the test's life.
fn stuck_daemon(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("speechd.sock");
    let listener = UnixListener::bind(&path).expect("bind a socket");
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().flatten() {
            held.push(stream); // read nothing, answer nothing
        }
    });
    path
}

fn run_against(socket: &std::path::Path, args: &[&str]) -> (std::process::Output, Duration) {
    let started = Instant::now();
    let out = hermetic::rochade()
        .args(args)
        .env(
            "SPEECHD_ADDRESS",
            format!("unix_socket:{}", socket.display()),
        )
        .output()
        .expect("rochade runs");
    (out, started.elapsed())
}

#[test]
fn a_speech_daemon_that_never_answers_ends_say_and_voices_with_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let socket = stuck_daemon(dir.path());

    let (out, took) = run_against(&socket, &["say", "--backend", "system", "Eva vier"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "say must fail: {stderr}");
    assert!(stderr.contains("did not answer"), "{stderr}");
    assert!(took < Duration::from_secs(20), "say took {took:?}");

    let (out, took) = run_against(&socket, &["voices"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "voices must fail: {stdout}");
    assert!(stdout.contains("did not answer"), "{stdout}");
    assert!(
        stdout.contains("Clip voices:"),
        "the clip voices are still listed: {stdout}"
    );
    assert!(took < Duration::from_secs(20), "voices took {took:?}");
}

/// What the fake daemon saw.
#[derive(Default)]
struct Seen {
    speaks: AtomicUsize,
    stuck: AtomicBool,
    clients: AtomicUsize,
}

/// A speech-dispatcher that answers every SSIP request, has a German and
/// an English voice, and reports each message begun and ended, until
/// `SPEAK` number `answered + 1`: from then on it never answers anyone.
fn daemon_that_hangs_after(dir: &Path, answered: usize) -> (PathBuf, Arc<Seen>) {
    let path = dir.join("speechd-mid.sock");
    let listener = UnixListener::bind(&path).expect("bind a socket");
    let seen = Arc::new(Seen::default());
    let shared = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let seen = shared.clone();
            let client = seen.clients.fetch_add(1, Ordering::SeqCst) + 1;
            std::thread::spawn(move || serve(stream, client, answered, &seen));
        }
    });
    (path, seen)
}

fn serve(stream: UnixStream, client: usize, answered: usize, seen: &Seen) {
    let mut out = stream.try_clone().unwrap();
    let mut lines = BufReader::new(stream).lines();
    let mut reply = |text: String| {
        if !seen.stuck.load(Ordering::SeqCst) {
            let _ = out.write_all(text.as_bytes());
        }
    };
    while let Some(Ok(line)) = lines.next() {
        let command = line.trim_end_matches('\r').to_ascii_uppercase();
        if command == "SPEAK" {
            let n = seen.speaks.fetch_add(1, Ordering::SeqCst) + 1;
            if n > answered {
                seen.stuck.store(true, Ordering::SeqCst);
            }
            reply("230 OK RECEIVING DATA\r\n".into());
            // The text, up to a line with a single dot.
            for data in lines.by_ref() {
                match data {
                    Ok(d) if d.trim_end_matches('\r') == "." => break,
                    Ok(_) => {}
                    Err(_) => return,
                }
            }
            let id = 100 + n;
            reply(format!(
                "225-{id}\r\n225 OK MESSAGE QUEUED\r\n\
                 701-{id}\r\n701-{client}\r\n701 BEGIN\r\n\
                 702-{id}\r\n702-{client}\r\n702 END\r\n"
            ));
        } else if command.starts_with("HISTORY GET CLIENT_ID") {
            reply(format!("245-{client}\r\n245 OK CLIENT ID SENT\r\n"));
        } else if command.starts_with("LIST SYNTHESIS_VOICES") {
            reply(
                "249-German\tde\tnone\r\n249-English\ten\tnone\r\n249 OK VOICE LIST SENT\r\n"
                    .into(),
            );
        } else if command.starts_with("QUIT") {
            reply("231 HAPPY HACKING\r\n".into());
            return;
        } else {
            reply("200 OK\r\n".into());
        }
    }
}

const RATE: u32 = 16_000;

/// After this a command counts as hung.
const HANG_LIMIT: Duration = Duration::from_secs(90);

/// `rochade ARGS` with speech-dispatcher at `socket` and ALSA writing into
/// `<dir>/<name>.raw` (16-bit mono 16 kHz); returns the output, the time
/// it took and the samples written.
fn run_with_sound(
    dir: &Path,
    name: &str,
    socket: &Path,
    args: &[&str],
    stdin: &str,
) -> (Output, Duration, Vec<f32>) {
    let home = dir.join(format!("home-{name}"));
    std::fs::create_dir_all(&home).unwrap();
    let raw = dir.join(format!("{name}.raw"));
    std::fs::write(
        home.join(".asoundrc"),
        format!(
            "pcm.!default {{\n  type plug\n  slave {{\n    pcm \"rochade_file\"\n    format S16_LE\n    rate {RATE}\n    channels 1\n  }}\n}}\n\
             pcm.rochade_file {{\n  type file\n  slave.pcm \"null\"\n  file \"{}\"\n  format \"raw\"\n}}\n",
            raw.display()
        ),
    )
    .unwrap();
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_rochade"))
        .args(args)
        .env("HOME", &home)
        .env("ROCHADE_CONFIG_DIR", home.join("config"))
        .env("ROCHADE_DATA_DIR", home.join("data"))
        .env_remove("PULSE_SERVER")
        .env(
            "SPEECHD_ADDRESS",
            format!("unix_socket:{}", socket.display()),
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rochade runs");
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(stdin.as_bytes()).unwrap();
    drop(pipe);
    // A command that hangs (as before the watchdog) is killed, and fails.
    let pid = child.id().to_string();
    let (done, wait) = std::sync::mpsc::channel::<()>();
    let killer = std::thread::spawn(move || {
        let hung = wait.recv_timeout(HANG_LIMIT).is_err();
        if hung {
            let _ = Command::new("kill").args(["-9", &pid]).status();
        }
        hung
    });
    let out = child.wait_with_output().unwrap();
    let took = started.elapsed();
    let _ = done.send(());
    assert!(
        !killer.join().unwrap(),
        "rochade {args:?} hung for {HANG_LIMIT:?} and was killed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&raw).unwrap_or_else(|e| {
        panic!(
            "ALSA wrote no file {} (is libasound2 installed?): {e}\n{}",
            raw.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let samples = bytes
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]) as f32 / 32768.0)
        .collect();
    (out, took, samples)
}

/// Milliseconds of sound (samples above a whisper).
fn sounding_ms(samples: &[f32]) -> u64 {
    let loud = samples.iter().filter(|s| s.abs() > 0.02).count();
    loud as u64 * 1000 / RATE as u64
}

/// How long the clip voice takes to say `text` in German.
fn clip_ms(text: &str) -> u64 {
    let (samples, missing) = ClipStore::new(Lang::De, None).render(text, RATE);
    assert!(missing.is_empty(), "no clip for {missing:?}");
    samples.len() as u64 * 1000 / RATE as u64
}

#[test]
fn say_goes_on_with_the_clip_voice_when_the_daemon_hangs_at_the_text() {
    let dir = tempfile::tempdir().unwrap();
    // Connecting and choosing the voice work; the text is never answered.
    let (socket, seen) = daemon_that_hangs_after(dir.path(), 0);
    let (out, took, samples) = run_with_sound(
        dir.path(),
        "say",
        &socket,
        &[
            "say",
            "--backend",
            "system",
            "--lang",
            "de",
            "Springer Felix drei",
        ],
        "",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(seen.stuck.load(Ordering::SeqCst), "{stderr}");
    assert!(
        stderr.contains("rochade: speaking with system speech (speech-dispatcher)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("did not answer a speak call within 4 s; the clip voice speaks instead"),
        "{stderr}"
    );
    assert!(!out.status.success(), "the system voice failed: {stderr}");
    // The words were said anyway, by the clip voice: the clips' sound
    // (less their quiet edges) reached the sound card.
    let heard = sounding_ms(&samples);
    let expected = clip_ms("Springer Felix drei");
    eprintln!("say: {took:?}; {heard} ms of sound for {expected} ms of clips\n{stderr}");
    assert!(
        heard * 10 >= expected * 5,
        "{heard} ms of sound, the clips take {expected} ms"
    );
    // A speak call may hang 4 s before the clip voice takes over.
    assert!(took < Duration::from_secs(30), "say took {took:?}");
}

#[test]
fn play_says_the_next_move_with_the_clip_voice_when_speech_hangs_mid_game() {
    let engine = rochade::engine::DEFAULT_ENGINE_PATH;
    assert!(
        Path::new(engine).exists(),
        "{engine} is missing: install Debian's stockfish (scripts/deps.sh)"
    );
    let dir = tempfile::tempdir().unwrap();
    // The greeting is said by speech-dispatcher; then it hangs at the
    // player's first move.
    let (socket, seen) = daemon_that_hangs_after(dir.path(), 1);
    let (out, took, samples) = run_with_sound(
        dir.path(),
        "play",
        &socket,
        &[
            "play",
            "--lang",
            "de",
            "--level",
            "1",
            "--seed",
            "5",
            "--pause-ms",
            "0",
        ],
        "e4\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(seen.stuck.load(Ordering::SeqCst), "{stderr}");
    assert!(
        stderr.contains(
            "rochade: speech: system speech (speech-dispatcher) did not answer a speak call within 4 s; the clip voice speaks instead"
        ),
        "{stderr}"
    );
    // And what to do about it, not only what happened.
    assert!(
        stderr.contains(
            "install speech-dispatcher and espeak-ng and check that the sound output works"
        ),
        "{stderr}"
    );
    // The game went on: the engine answered, and it was printed.
    let lines: Vec<&str> = stdout.lines().collect();
    let at = lines
        .iter()
        .position(|l| *l == "Eva vier")
        .unwrap_or_else(|| panic!("{stdout}"));
    let reply = lines.get(at + 1).unwrap_or_else(|| panic!("{stdout}"));
    // The clip voice said the move that was cut off, the engine's reply
    // and what happened; speech-dispatcher said only the greeting.
    let heard = sounding_ms(&samples);
    let expected = clip_ms("Eva vier") + clip_ms(reply);
    eprintln!("play: {took:?}; {heard} ms of sound for {expected} ms of clips\n{stdout}\n{stderr}");
    assert!(
        heard * 10 >= expected * 5,
        "{heard} ms of sound; the two moves take {expected} ms ({reply})"
    );
    assert!(took < Duration::from_secs(60), "play took {took:?}");
}

#[path = "gui_common/mod.rs"]
mod gui_common;

/// The app (in a headless `egui_kittest` harness) with a recording voice
/// that answers `answered` calls and then hangs, behind the given call
/// deadline.
fn window_with_stuck_voice(
    answered: usize,
    call: Duration,
) -> (
    gui_common::Gui,
    rochade::speech::RecordingLog,
    rochade::speech::SpeechHandle,
) {
    use rochade::speech::watchdog::Deadlines;
    use rochade::speech::{BackendChoice, RecordingLog, SpeechConfig, SpeechService};
    let log = RecordingLog::new().hanging_after(answered);
    let speech = SpeechService::spawn_with(
        SpeechConfig {
            backend: BackendChoice::Recording(log.clone()),
            lang: Lang::De,
            ..SpeechConfig::default()
        },
        Deadlines {
            call,
            ..Deadlines::default()
        },
    )
    .unwrap();
    let handle = speech.clone();
    let gui = gui_common::start_with(gui_common::settings(Lang::De), move |o| {
        o.speech = handle;
    });
    // The welcome is said before anything hangs.
    assert!(speech.wait_idle(Duration::from_secs(10)));
    (gui, log, speech)
}

#[test]
fn the_window_never_waits_on_a_voice_that_hangs() {
    // The first move's speak call never returns (no deadline in reach).
    let (mut gui, log, _speech) = window_with_stuck_voice(1, Duration::from_secs(3600));
    gui.type_move("e4");
    gui.type_move("e5");
    gui.type_move("Nf3");
    // Every move was announced by the window, which went on at once.
    let said = gui.app().spoken();
    assert!(
        said.ends_with(&[
            "Eva vier".to_owned(),
            "Eva fünf".to_owned(),
            "Springer Felix drei".to_owned()
        ]),
        "{said:?}"
    );
    assert_eq!(log.spoken().last().map(String::as_str), Some("Eva vier"));
    log.release();
}

#[test]
fn the_window_says_the_cut_move_with_the_next_voice_and_shows_why() {
    let (mut gui, log, speech) = window_with_stuck_voice(1, Duration::from_millis(300));
    gui.type_move("e4");
    gui.run_until("the note that the voice stopped", |g| {
        g.shows_part("The system voice stopped answering; the clip voice speaks instead")
    });
    assert!(speech.wait_idle(Duration::from_secs(10)));
    let notice = rochade::words::Pack::bundled(Lang::De)
        .say("speech_stopped")
        .spoken;
    assert_eq!(log.spoken_by_fallback(), ["Eva vier".to_owned(), notice]);
    // The next move goes to the new voice at once.
    gui.type_move("e5");
    assert!(speech.wait_idle(Duration::from_secs(10)));
    assert_eq!(log.spoken_by_fallback().last().unwrap(), "Eva fünf");
    log.release();
}
