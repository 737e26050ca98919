//! `rochade online --voice` end to end: espeak-ng says moves and words
//! into WAVs, and `--voice-wav` feeds them through the same path as the
//! microphone (20 ms buffers at the pace of speech, the utterance cutter,
//! the recogniser on its thread) into a game on the local server that
//! speaks the Lichess Board API (tests/support/lichess_server.rs). What
//! reaches the server is what counts: a move heard is sent as a typed one
//! is, noise sends nothing, a move heard on the opponent's turn is refused.

use crate::lichess_server;
use crate::online_client;
use crate::spoken_wav;

use std::path::PathBuf;

use lichess_server::{Script, Server};
use online_client::Client;
use serde_json::Value;
use spoken_wav::{noise, speak};

const TOKEN: &str = "lip_VoiceToken0123456789abcdef";

/// `rochade online --voice` against `server` (an `--ai` game) with these
/// recordings said in turn and `extra` arguments.
fn start(server: &Server, recordings: &[PathBuf], extra: &[&str]) -> Client {
    let mut args = vec!["--ai", "3", "--voice"];
    args.extend_from_slice(extra);
    for wav in recordings {
        args.extend(["--voice-wav", wav.to_str().expect("UTF-8 path")]);
    }
    Client::start(server, TOKEN, 200, &args)
}

/// Events until one for which `last` holds (included).
fn events_until(client: &mut Client, last: impl Fn(&Value) -> bool) -> Vec<Value> {
    let mut events = Vec::new();
    loop {
        let (_, event) = client.next().unwrap_or_else(|e| panic!("{e}"));
        let done = last(&event);
        events.push(event);
        if done {
            return events;
        }
    }
}

/// What voice input heard, in order (`heard` and `not_understood`).
fn heard(events: &[Value]) -> Vec<&Value> {
    events
        .iter()
        .filter(|e| e["event"] == "heard" || e["event"] == "not_understood")
        .collect()
}

fn said(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .filter(|e| e["event"] == "say")
        .filter_map(|e| e["text"].as_str())
        .collect()
}

/// The moves the client posted to the server (UCI).
fn moves_posted(server: &Server) -> Vec<String> {
    server
        .requests()
        .iter()
        .filter(|(method, path, _)| method == "POST" && path.contains("/move/"))
        .filter_map(|(_, path, _)| path.rsplit('/').next().map(str::to_owned))
        .collect()
}

#[test]
fn a_move_said_reaches_the_server_noise_and_hint_send_nothing_and_the_opponents_turn_refuses() {
    let dir = tempfile::tempdir().expect("dir");
    let e4 = speak(dir.path(), "e4", "en-us", "Eva four");
    let noise = noise(dir.path());
    let hint = speak(dir.path(), "hint", "en-us", "hint");
    // Black's move, said while Black (the opponent) is to move.
    let e5 = speak(dir.path(), "e5", "en-us", "Eva five");
    // The opponent never answers e4: it stays his turn.
    let script = Script {
        moves: vec!["e2e4".into()],
        account_white: true,
        ..Script::default()
    };
    let server = Server::start(TOKEN, script);
    let mut client = start(&server, &[e4, noise, hint, e5], &[]);
    let events = events_until(&mut client, |e| e["event"] == "error");
    let heard = heard(&events);
    assert_eq!(heard.len(), 4, "{}", client.transcript());
    assert_eq!(heard[0]["uci"], "e2e4", "{}", heard[0]);
    assert_eq!(heard[1]["event"], "not_understood", "{}", heard[1]);
    assert_eq!(heard[2]["command"], "hint", "{}", heard[2]);
    assert_eq!(heard[3]["uci"], "e7e5", "{}", heard[3]);
    let error = events.last().expect("the refusal");
    assert_eq!(error["reason"], "not your turn", "{error}");
    let says = said(&events);
    assert!(
        says.iter().any(|s| s.starts_with("Voice input on")),
        "{says:?}"
    );
    assert!(says.contains(&"Not understood"), "{says:?}");
    // No computer help against a person.
    assert!(says.contains(&"Not in online games"), "{says:?}");
    // e4 was sent as a typed move is; the noise and e5 sent nothing.
    assert_eq!(moves_posted(&server), ["e2e4"]);
    assert_eq!(server.moves(), ["e2e4"]);
    let (code, transcript) = client.finish();
    assert_eq!(code, 0, "{transcript}");
}

#[test]
fn with_confirm_a_heard_move_is_asked_and_a_draw_said_is_offered_after_yes() {
    let dir = tempfile::tempdir().expect("dir");
    let e4 = speak(dir.path(), "e4", "en-us", "Eva four");
    let no = speak(dir.path(), "no", "en-us", "no");
    let yes = speak(dir.path(), "yes", "en-us", "yes");
    let draw = speak(dir.path(), "draw", "en-us", "draw");
    let script = Script {
        moves: vec!["e2e4".into(), "e7e5".into()],
        account_white: true,
        ..Script::default()
    };
    let server = Server::start(TOKEN, script);
    let recordings = [e4.clone(), no, e4, yes.clone(), draw, yes];
    let mut client = start(&server, &recordings, &["--voice-confirm"]);
    let events = events_until(&mut client, |e| {
        e["event"] == "offer_declined" || e["event"] == "error"
    });
    let says = said(&events);
    let asked: Vec<usize> = (0..says.len())
        .filter(|&i| says[i] == "Eva four? Yes or no")
        .collect();
    assert_eq!(asked.len(), 2, "{says:?}");
    // "no" dropped the first; "yes" sent the second.
    assert_eq!(says[asked[0] + 1], "Not played", "{says:?}");
    assert_eq!(moves_posted(&server), ["e2e4"]);
    // "draw" said is asked as typed, and "yes" offers it.
    assert!(says.contains(&"Offer a draw? Yes or no"), "{says:?}");
    let draws: Vec<String> = server
        .requests()
        .iter()
        .filter(|(_, path, _)| path.contains("/draw/"))
        .map(|(_, path, _)| path.clone())
        .collect();
    assert_eq!(draws.len(), 1, "{draws:?}");
    assert!(draws[0].ends_with("/draw/yes"), "{draws:?}");
    let (code, transcript) = client.finish();
    assert_eq!(code, 0, "{transcript}");
}
