//! `rochade watch`: follows one game of a live broadcast round (Lichess
//! broadcasts) move by move, in the FIDE phonetics: spoken unless
//! `--quiet`, printed as text or, with `--json`, one event a line. Lines
//! typed meanwhile ask: `boards`, `board N` (follow it), `last N`,
//! `clock`, `standings`, `quit` (in German and Portuguese too).

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::json;

use super::terminal_voice::TerminalVoice;
use super::{CliError, CliResult};
use crate::announce::AnnounceForm;
use crate::broadcast::{Ask, Pick, Watch, WatchEffect};
use crate::online::broadcast::{
    Followed, RoundFollower, RoundMsg, RoundTiming, effect_words, round_id_from, round_path,
    spawn_round_stream,
};
use crate::online::broadcast_standings::{STANDINGS_TIMEOUT, fetch_standings};
use crate::session::{Priority, Speech};
use crate::words::{Lang, Utterance};

#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("which").required(true).args(["board", "player"])))]
pub struct Args {
    /// The broadcast round's id (the 8 characters after the round's name in
    /// its address) or its whole address, or `-` to read a round's PGN
    /// stream from stdin.
    pub round: String,
    /// The server (Lichess, or one with the same API).
    #[arg(long, default_value = crate::online::DEFAULT_SERVER)]
    pub server: String,
    /// Follow the game on this board (from 1, in the round's order).
    #[arg(long)]
    pub board: Option<usize>,
    /// Follow the game of this player (a name or part of it).
    #[arg(long)]
    pub player: Option<String>,
    /// One JSON event a line instead of text.
    #[arg(long)]
    pub json: bool,
    /// Print only; do not speak.
    #[arg(long)]
    pub quiet: bool,
    /// Language of the announcements.
    #[arg(long, default_value = "de")]
    pub lang: Lang,
    /// Short (piece + destination) or long (piece + from + to) form.
    #[arg(long, default_value = "short")]
    pub form: AnnounceForm,
    /// No byte for this long and the connection is made again (ms).
    #[arg(long, default_value_t = 300_000, hide = true)]
    pub silence_ms: u64,
    /// First wait before connecting again (ms).
    #[arg(long, default_value_t = 1000, hide = true)]
    pub backoff_ms: u64,
}

pub fn run(args: Args) -> CliResult {
    let pick = match (args.board, &args.player) {
        (Some(0), _) => return Err(CliError::input("--board counts from 1")),
        (Some(n), _) => Pick::Board(n),
        (None, Some(name)) if !name.trim().is_empty() => Pick::Player(name.clone()),
        _ => return Err(CliError::input("--player needs a name")),
    };
    let pack = super::load_pack(args.lang);
    let form = super::output::terminal_form();
    let voice = TerminalVoice::start(args.quiet, args.lang);
    let mut watch = Watch::new(pick, args.form);
    let mut out = Output {
        json: args.json,
        form,
        voice: &voice,
        lang: args.lang,
    };
    let result = if args.round == "-" {
        follow_stdin(&pack, &mut watch, &mut out)
    } else {
        follow_server(&args, &pack, &mut watch, &mut out)
    };
    voice.finish();
    result?;
    if watch.followed().is_none() {
        let boards: Vec<String> = watch
            .boards()
            .iter()
            .map(|b| format!("{}: {}", b.number, b.players()))
            .collect();
        return Err(CliError::input(if boards.is_empty() {
            "the round sent no game".to_owned()
        } else {
            format!(
                "the game asked for is not in the round; its boards: {}",
                boards.join("; ")
            )
        }));
    }
    Ok(())
}

/// Where the watch's words go.
struct Output<'a> {
    json: bool,
    form: crate::words::Form,
    voice: &'a TerminalVoice,
    lang: Lang,
}

impl Output<'_> {
    fn line(&self, value: serde_json::Value, text: &str) -> std::io::Result<()> {
        let mut stdout = std::io::stdout().lock();
        if self.json {
            writeln!(stdout, "{value}")?;
        } else {
            writeln!(stdout, "{text}")?;
        }
        stdout.flush()
    }

    fn say(&self, text: &Utterance, priority: Priority) {
        self.voice.speak(Speech {
            text: text.clone(),
            lang: self.lang,
            priority,
        });
    }

    fn effect(&self, effect: &WatchEffect) -> std::io::Result<()> {
        let (words, priority) = effect_words(effect);
        self.say(words, priority);
        match effect {
            WatchEffect::Found {
                board,
                white,
                black,
                plies,
                text,
            } => {
                self.line(
                    json!({"event": "found", "board": board, "white": white, "black": black, "plies": plies, "text": text.get(self.form)}),
                    text.get(self.form),
                )
            }
            WatchEffect::Move {
                board,
                ply,
                san,
                text,
            } => {
                self.line(
                    json!({"event": "move", "board": board, "ply": ply, "san": san, "text": text.get(self.form)}),
                    text.get(self.form),
                )
            }
            WatchEffect::Correction { board, ply, text } => {
                self.line(
                    json!({"event": "correction", "board": board, "ply": ply, "text": text.get(self.form)}),
                    text.get(self.form),
                )
            }
            WatchEffect::Answer { text } => {
                self.line(
                    json!({"event": "answer", "text": text.get(self.form)}),
                    text.get(self.form),
                )
            }
            WatchEffect::Result {
                board,
                result,
                text,
            } => {
                self.line(
                    json!({"event": "result", "board": board, "result": result, "text": text.get(self.form)}),
                    text.get(self.form),
                )
            }
        }
    }

    /// The standings asked for (or why they could not be fetched).
    fn standings(
        &self,
        pack: &crate::words::Pack,
        result: Result<Vec<crate::broadcast::Standing>, crate::online::ApiError>,
    ) -> std::io::Result<()> {
        let (players, text) = match result {
            Ok(list) => {
                let players: Vec<serde_json::Value> = list
                    .iter()
                    .map(|s| json!({"rank": s.rank, "name": s.name, "score": s.score, "played": s.played}))
                    .collect();
                (players, crate::broadcast::standings_words(pack, &list))
            }
            Err(e) => {
                let reason = Utterance::from(e.to_string());
                (
                    Vec::new(),
                    pack.phrase("broadcast_standings_failed", &[("reason", reason)]),
                )
            }
        };
        self.say(&text, Priority::Answer);
        self.line(
            json!({"event": "standings", "players": players, "text": text.get(self.form)}),
            text.get(self.form),
        )
    }

    /// A line about the connection: on stderr, never mixed into the moves.
    fn note(&self, value: serde_json::Value, text: &str) {
        if self.json {
            let _ = self.line(value, "");
        } else {
            eprintln!("rochade: {text}");
        }
    }
}

/// Says and prints what the round's stream brought; true when the
/// watch is over (the followed game's result came, or the round ended).
fn followed(
    all: Vec<Followed>,
    round: &str,
    watch: &Watch,
    out: &mut Output,
) -> Result<bool, CliError> {
    for followed in all {
        match followed {
            Followed::Effect(effect) => out.effect(&effect)?,
            Followed::TooLong => out.note(
                json!({"event": "unreadable", "reason": "a game too long"}),
                "a game in the stream was far too long and was skipped",
            ),
            Followed::Unreadable(e) => out.note(
                json!({"event": "unreadable", "reason": e}),
                &format!("a game in the stream could not be read ({e}); skipped"),
            ),
            Followed::Back => out.note(json!({"event": "back"}), "connected again"),
            Followed::Dropped(reason) => out.note(
                json!({"event": "dropped", "reason": reason}),
                &format!("{reason}; connecting again"),
            ),
            Followed::Ended => {
                out.note(json!({"event": "ended"}), "the round's stream has ended");
                return Ok(true);
            }
            Followed::NotFound => {
                return Err(CliError::input(format!(
                    "the server has no broadcast round '{round}'"
                )));
            }
        }
    }
    Ok(watch.is_over())
}

fn follow_stdin(pack: &crate::words::Pack, watch: &mut Watch, out: &mut Output) -> CliResult {
    use std::io::BufRead;
    let mut follower = RoundFollower::new();
    for line in std::io::stdin().lock().lines() {
        let all = follower.line(&line?, pack, watch);
        if followed(all, "-", watch, out)? {
            break;
        }
    }
    Ok(())
}

fn follow_server(
    args: &Args,
    pack: &crate::words::Pack,
    watch: &mut Watch,
    out: &mut Output,
) -> CliResult {
    let path = round_id_from(&args.round)
        .and_then(|id| round_path(&id))
        .ok_or_else(|| {
            CliError::input(format!(
                "'{}' is no broadcast round id (letters and digits, as in the round's address)",
                args.round
            ))
        })?;
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = std::sync::mpsc::channel::<Incoming>();
    let timing = RoundTiming {
        silence: Duration::from_millis(args.silence_ms.max(1)),
        backoff: Duration::from_millis(args.backoff_ms.max(1)),
        ..RoundTiming::default()
    };
    spawn_round_stream(
        &args.server,
        &path,
        timing,
        stop.clone(),
        tx.clone(),
        Incoming::Round,
    )?;
    super::spawn_stdin_lines(tx.clone(), Incoming::Typed, Incoming::TypedEnd);
    struct StopOnDrop(Arc<AtomicBool>);
    impl Drop for StopOnDrop {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Relaxed);
        }
    }
    let _stop = StopOnDrop(stop);
    let mut follower = RoundFollower::new();
    for incoming in rx {
        let msg = match incoming {
            Incoming::Round(msg) => msg,
            Incoming::TypedEnd => continue,
            Incoming::Standings(result) => {
                out.standings(pack, result)?;
                continue;
            }
            Incoming::Typed(line) => {
                match typed(&line) {
                    Some(Typed::Ask(ask)) => {
                        for effect in watch.ask(pack, ask) {
                            out.effect(&effect)?;
                        }
                    }
                    Some(Typed::Standings) => {
                        let round = round_id_from(&args.round).unwrap_or_default();
                        let (server, tx) = (args.server.clone(), tx.clone());
                        std::thread::spawn(move || {
                            let result = fetch_standings(&server, &round, STANDINGS_TIMEOUT);
                            let _ = tx.send(Incoming::Standings(result));
                        });
                    }
                    Some(Typed::Quit) => return Ok(()),
                    None if line.trim().is_empty() => {}
                    None => {
                        let text = pack
                            .phrase("unreadable_move", &[("move", Utterance::from(line.trim()))]);
                        out.effect(&WatchEffect::Answer { text })?;
                    }
                }
                continue;
            }
        };
        let all = follower.message(msg, pack, watch);
        if followed(all, &args.round, watch, out)? {
            return Ok(());
        }
    }
    Ok(())
}

/// What the round's thread and the keyboard send.
enum Incoming {
    Round(RoundMsg),
    Typed(String),
    TypedEnd,
    /// The standings asked for, fetched on a thread of their own.
    Standings(Result<Vec<crate::broadcast::Standing>, crate::online::ApiError>),
}

/// A typed line's meaning.
#[derive(Debug, PartialEq, Eq)]
enum Typed {
    Ask(Ask),
    Standings,
    Quit,
}

/// `boards`, `board 3`, `last 3`, `clock`, `standings`, `quit`, in English, German or
/// Portuguese; None for anything else.
fn typed(line: &str) -> Option<Typed> {
    let line = line.trim().to_lowercase();
    let mut words = line.split_whitespace();
    let word = words.next()?;
    let number = words.next().and_then(|n| n.parse::<usize>().ok());
    if words.next().is_some() {
        return None;
    }
    match (word, number) {
        ("boards" | "bretter" | "tabuleiros", None) => Some(Typed::Ask(Ask::Boards)),
        ("board" | "brett" | "tabuleiro", Some(n)) => Some(Typed::Ask(Ask::Follow(n))),
        ("last" | "letzter" | "ultimo" | "último", Some(n)) => Some(Typed::Ask(Ask::Last(n))),
        ("clock" | "uhr" | "relogio" | "relógio", None) => Some(Typed::Ask(Ask::Clock)),
        ("standings" | "tabelle" | "classificacao" | "classificação", None) => {
            Some(Typed::Standings)
        }
        ("quit" | "ende" | "sair", None) => Some(Typed::Quit),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_lines_ask_in_three_languages() {
        assert_eq!(typed("boards"), Some(Typed::Ask(Ask::Boards)));
        assert_eq!(typed(" Brett 3 "), Some(Typed::Ask(Ask::Follow(3))));
        assert_eq!(typed("último 2"), Some(Typed::Ask(Ask::Last(2))));
        assert_eq!(typed("Uhr"), Some(Typed::Ask(Ask::Clock)));
        assert_eq!(typed("sair"), Some(Typed::Quit));
        assert_eq!(typed("Tabelle"), Some(Typed::Standings));
        for bad in ["board", "board x", "boards 2", "clock 1 2", "", "e4"] {
            assert_eq!(typed(bad), None, "{bad}");
        }
    }
}
