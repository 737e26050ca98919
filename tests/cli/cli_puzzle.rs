//! `rochade puzzle` end to end: the real binary, moves and words on stdin,
//! one JSON object per line on stdout, answered line by line as a player
//! would (the test reads each puzzle before it types). Positions are
//! checked with python-chess (fails loudly without it).

use crate::board_sim;
use crate::hermetic;
use crate::millennium_hands;
use crate::millennium_pty;
use crate::move_event;
use crate::puzzle_moves;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use rochade::puzzle::{Puzzle, PuzzleSet};
use serde_json::Value;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

struct Run {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Lines read by a thread of their own, so a missing event fails
    /// the test after a while instead of hanging it.
    lines: Receiver<String>,
    seen: Vec<Value>,
}

/// How long an event may take (real time: the binary answers at once; a
/// peg-board move takes its settle window).
const EVENT_TIMEOUT: Duration = Duration::from_secs(30);

impl Run {
    fn start(data: &Path, args: &[&str]) -> Run {
        let mut child = hermetic::rochade()
            .env("ROCHADE_DATA_DIR", data)
            .arg("puzzle")
            .args(["--json", "--quiet"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("rochade runs");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Run {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    fn type_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Reads events up to the first one named `event`; panics at the end
    /// of output.
    fn until(&mut self, event: &str) -> Value {
        loop {
            let line = self
                .lines
                .recv_timeout(EVENT_TIMEOUT)
                .unwrap_or_else(|e| panic!("no {event} event ({e}); got {:#?}", self.seen));
            let value: Value =
                serde_json::from_str(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
            self.seen.push(value.clone());
            if value["event"] == event {
                return value;
            }
        }
    }

    /// Closes stdin, waits for the end; the events after the last read.
    fn finish(mut self) -> (Vec<Value>, String) {
        drop(self.stdin.take());
        let mut rest = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(EVENT_TIMEOUT) {
            rest.push(serde_json::from_str(&line).unwrap_or_else(|e| panic!("{line}: {e}")));
        }
        let out = self.child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        (rest, String::from_utf8_lossy(&out.stderr).into_owned())
    }

    fn since(&self, i: usize) -> &[Value] {
        &self.seen[i..]
    }
}

fn shipped(id: &str) -> Puzzle {
    PuzzleSet::bundled()
        .get(id)
        .unwrap_or_else(|| panic!("{id} is not in the shipped set"))
        .clone()
}

/// The player's moves of the solution (every second move, from the second).
fn player_moves(p: &Puzzle) -> Vec<String> {
    p.moves_uci().into_iter().skip(1).step_by(2).collect()
}

/// A wrong move in the position the player solves from.
fn a_wrong_move(p: &Puzzle) -> String {
    let line = p.line().unwrap();
    let (pos, right) = &line[1];
    uci(&puzzle_moves::quiet_wrong_move(pos, right))
}

/// python-chess's verdict on each FEN: "ok" or what is wrong.
fn python_chess_verdicts(fens: &[String]) -> Vec<String> {
    let script = r#"
import chess, sys
for fen in sys.stdin.read().splitlines():
    b = chess.Board(fen)
    print('ok' if b.is_valid() and not b.is_game_over() else repr(b.status()))
"#;
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs (with python-chess: scripts/deps.sh)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(fens.join("\n").as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "python3 with python-chess failed (pip install chess, scripts/deps.sh)"
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn shipped_puzzles_give_legal_positions_after_the_opponents_move() {
    let data = hermetic::private_dir("puzzle-data");
    let mut run = Run::start(&data, &["--count", "6", "--seed", "5", "--rating", "1400"]);
    let mut fens = Vec::new();
    let mut ids = Vec::new();
    for _ in 0..6 {
        let start = run.seen.len();
        let puzzle = run.until("puzzle");
        let p = shipped(puzzle["id"].as_str().unwrap());
        ids.push(p.id.clone());
        assert_eq!(puzzle["rating"], p.rating);
        assert_eq!(puzzle["themes"], serde_json::json!(p.themes));
        // The FEN is the shipped one, the opponent's first move legal in
        // it; the position to solve is the one after that move.
        let mut pos: Chess = p.start().unwrap();
        let fen_of = |pos: &Chess| {
            shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
        };
        assert_eq!(puzzle["fen"].as_str().unwrap(), fen_of(&pos));
        let first: UciMove = p.moves[0];
        pos.play_unchecked(first.to_move(&pos).unwrap());
        let fen = puzzle["solve_fen"].as_str().unwrap().to_owned();
        assert_eq!(fen, fen_of(&pos));
        fens.push(fen);
        let first_move = run.until("move");
        move_event::assert_move_keys(&first_move);
        assert_eq!(first_move["by"], "opponent");
        assert_eq!(first_move["uci"], p.moves[0].to_string());
        assert!((1000..=1800).contains(&p.rating), "{}", p.rating);
        run.type_line("skip");
        let failed = run.until("failed");
        assert_eq!(failed["id"], p.id);
        assert!(run.since(start).iter().any(|e| {
            e["event"] == "say"
                && e["text"]
                    .as_str()
                    .unwrap()
                    .starts_with("Nicht geloest. Loesung:")
        }));
    }
    let (rest, _) = run.finish();
    let end = rest
        .iter()
        .find(|e| e["event"] == "end")
        .expect("an end event");
    assert_eq!(
        (end["puzzles"].as_u64(), end["failed"].as_u64()),
        (Some(6), Some(6))
    );
    assert!(
        python_chess_verdicts(&fens).iter().all(|v| v == "ok"),
        "{fens:?}"
    );
    // Six different puzzles.
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 6, "{ids:?}");
    let progress = std::fs::read_to_string(data.join("puzzles.toml")).unwrap();
    assert!(progress.contains("failed = 6"), "{progress}");
}

#[test]
fn a_wrong_move_is_answered_and_the_puzzle_goes_on_to_its_end() {
    let data = hermetic::private_dir("puzzle-data");
    let mut run = Run::start(
        &data,
        &[
            "--count", "2", "--seed", "11", "--theme", "mateIn2", "--lang", "en",
        ],
    );
    // The first puzzle: a wrong move, then the solution.
    let puzzle = run.until("puzzle");
    let p = shipped(puzzle["id"].as_str().unwrap());
    assert!(p.has_theme("mateIn2"));
    let wrong = a_wrong_move(&p);
    run.until("move");
    let start = run.seen.len();
    run.type_line(&wrong);
    let answer = run.until("wrong");
    assert_eq!(answer["uci"], wrong);
    assert!(
        !run.since(start).iter().any(|e| e["event"] == "move"),
        "a wrong move is not played: {:#?}",
        run.since(start)
    );
    run.type_line("hint");
    let hint = run.until("say");
    assert!(
        hint["text"].as_str().unwrap().starts_with("Hint: "),
        "{hint}"
    );
    let moves = player_moves(&p);
    for (i, mv) in moves.iter().enumerate() {
        run.type_line(mv);
        let played = run.until("move");
        move_event::assert_move_keys(&played);
        assert_eq!(
            (played["by"].as_str(), played["uci"].as_str()),
            (Some("player"), Some(mv.as_str()))
        );
        if i + 1 < moves.len() {
            let reply = run.until("move");
            assert_eq!(reply["by"], "opponent");
            assert_eq!(reply["uci"], p.moves_uci()[2 * i + 2]);
        }
    }
    // Finished after a wrong move: failed, and the line is said.
    assert_eq!(run.until("failed")["id"], p.id);
    // The second puzzle, solved without a slip.
    let puzzle = run.until("puzzle");
    let q = shipped(puzzle["id"].as_str().unwrap());
    assert_ne!(q.id, p.id);
    for mv in player_moves(&q) {
        run.type_line(&mv);
    }
    assert_eq!(run.until("solved")["id"], q.id);
    let (rest, _) = run.finish();
    let end = rest.iter().find(|e| e["event"] == "end").expect("end");
    assert_eq!(
        (end["solved"].as_u64(), end["failed"].as_u64()),
        (Some(1), Some(1))
    );
    let progress = std::fs::read_to_string(data.join("puzzles.toml")).unwrap();
    assert!(
        progress.contains("solved = 1") && progress.contains("failed = 1"),
        "{progress}"
    );
    assert!(
        progress.contains(&p.id) && progress.contains(&q.id),
        "{progress}"
    );
}

#[test]
fn a_progress_file_that_cannot_be_written_is_said_and_the_puzzles_go_on() {
    let data = hermetic::private_dir("puzzle-data");
    // A folder where the file goes: every write fails, as on a full disk.
    std::fs::create_dir_all(data.join("puzzles.toml")).unwrap();
    let mut run = Run::start(&data, &["--count", "2", "--seed", "3", "--lang", "en"]);
    run.until("puzzle");
    run.type_line("skip");
    // Saved before the result is said: the failed save comes first.
    let failed = run.until("progress_failed");
    assert!(
        failed["reason"].as_str().unwrap().contains("puzzles.toml"),
        "{failed}"
    );
    let said = run.until("say");
    assert!(
        said["text"]
            .as_str()
            .unwrap()
            .starts_with("Your puzzle progress was not saved"),
        "{said}"
    );
    run.until("failed");
    // The next puzzle comes all the same.
    run.until("puzzle");
    run.type_line("skip");
    run.until("failed");
    let (rest, stderr) = run.finish();
    assert!(rest.iter().any(|e| e["event"] == "end"), "{rest:#?}");
    assert_eq!(
        stderr.matches("was not saved").count(),
        1,
        "said once: {stderr}"
    );
}

#[test]
fn an_unknown_theme_is_refused_with_the_themes() {
    let out = hermetic::rochade()
        .args(["puzzle", "--theme", "noSuchTheme", "--quiet"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("noSuchTheme") && err.contains("mateIn2") && err.contains("fork"),
        "{err}"
    );
}

#[test]
fn help_lists_the_puzzle_commands_and_the_start_says_how() {
    let data = hermetic::private_dir("puzzle-data");
    let mut run = Run::start(&data, &["--count", "1", "--seed", "5", "--lang", "en"]);
    let first = run.until("say");
    assert_eq!(first["text"], "Type help for the commands");
    run.until("puzzle");
    run.type_line("help");
    let help = loop {
        let said = run.until("say");
        let text = said["text"].as_str().unwrap().to_owned();
        if text.starts_with("Type a move") {
            break text;
        }
    };
    for command in ["hint", "position", "rank", "file", "skip", "repeat", "quit"] {
        assert!(help.contains(command), "{command} missing: {help}");
    }
    assert!(
        !run.seen.iter().any(|e| e["event"] == "error"),
        "help is no move: {:?}",
        run.seen
    );
    run.type_line("quit");
    run.finish();
}

#[test]
fn a_board_port_that_does_not_exist_is_refused_at_once() {
    let out = hermetic::rochade()
        .args(["puzzle", "--quiet", "--board", "/dev/no-such-board"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/dev/no-such-board: no such port"), "{err}");
    assert!(out.stdout.is_empty(), "no puzzle offered");
}

/// Waits for a `say` event with exactly this text.
fn until_said(run: &mut Run, text: &str) {
    loop {
        let said = run.until("say");
        if said["text"] == text {
            return;
        }
    }
}

fn uci(mv: &Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}

/// The first puzzle offered whose moves are all plain (no castling,
/// promotion or en passant: a hand moves one piece), the others skipped.
fn first_plain_puzzle(run: &mut Run) -> Puzzle {
    loop {
        let puzzle = run.until("puzzle");
        let p = shipped(puzzle["id"].as_str().unwrap());
        if p.line()
            .unwrap()
            .iter()
            .all(|(_, mv)| puzzle_moves::plain(mv))
        {
            return p;
        }
        run.type_line("skip");
        run.until("failed");
    }
}

#[test]
fn on_the_peg_board_the_position_is_guided_and_the_moves_are_read_from_it() {
    let mut sim = board_sim::Sim::start(&[]);
    let data = hermetic::private_dir("puzzle-data");
    let device = sim.device.clone();
    let mut run = Run::start(
        &data,
        &[
            "--board", &device, "--count", "20", "--seed", "4", "--lang", "en",
        ],
    );
    let p = first_plain_puzzle(&mut run);
    let line = p.line().unwrap();
    // The board still shows the start: the guidance says what differs;
    // the player sets the position up and the board matches.
    let solving = {
        let (mut pos, first) = line[0].clone();
        pos.play_unchecked(first);
        shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal).to_string()
    };
    sim.say(&format!("setup {solving}"));
    until_said(&mut run, "Board matches");
    // A wrong move on the board: said, not recorded; guided back.
    let (pos, right) = &line[1];
    let wrong = puzzle_moves::quiet_wrong_move(pos, right);
    sim.say(&format!("move {}", uci(&wrong)));
    let answer = run.until("wrong");
    assert_eq!(answer["uci"], uci(&wrong));
    let back = format!("{}{}", wrong.to(), wrong.from().unwrap());
    let mark = run.seen.len();
    sim.say(&format!("move {back}"));
    // The solution from the board; each reply copied as guided.
    for i in (1..line.len()).step_by(2) {
        sim.say(&format!("move {}", uci(&line[i].1)));
        let played = run.until("move");
        assert_eq!(played["by"], "player");
        assert_eq!(played["source"], "peg_board");
        assert_eq!(played["uci"], uci(&line[i].1));
        if let Some((_, reply)) = line.get(i + 1) {
            let answered = run.until("move");
            assert_eq!(
                (answered["by"].as_str(), answered["uci"].as_str()),
                (Some("opponent"), Some(uci(reply).as_str()))
            );
            sim.say(&format!("move {}", uci(reply)));
            until_said(&mut run, "Board matches");
        }
    }
    assert_eq!(
        run.until("failed")["id"],
        p.id,
        "failed: a wrong move came first"
    );
    assert!(
        !run.since(mark).iter().any(|e| e["text"]
            .as_str()
            .is_some_and(|t| t.contains("Board fault"))),
        "putting the wrong move back is no fault: {:#?}",
        run.since(mark)
    );
    run.type_line("quit");
    let (rest, _) = run.finish();
    assert!(rest.iter().any(|e| e["event"] == "end"), "{rest:#?}");
    sim.quit();
}

/// Puzzles solved one after the other on the Millennium board.
const PUZZLES_ON_THE_BOARD: usize = 5;

/// `--format millennium`: the player's own board is a Millennium
/// ChessLink (its emulator on a real pseudo-terminal). Set up by hand
/// square by square, it lights the opponent's first move; the solution
/// made on it is read as the player's moves, each reply is lit and goes
/// dark once made, and the puzzle is solved; five puzzles in a row, each
/// set up from where the last ended.
#[test]
fn on_a_millennium_board_the_replies_are_lit_and_the_solution_read_from_it() {
    use millennium_hands::{make, squares, until_lit};
    let board = millennium_pty::MillenniumPty::start();
    let data = hermetic::private_dir("puzzle-millennium");
    let device = board.device.clone();
    let mut run = Run::start(
        &data,
        &[
            "--board",
            &device,
            "--format",
            "millennium",
            "--count",
            "20",
            "--seed",
            "4",
            "--lang",
            "en",
        ],
    );
    for _ in 0..PUZZLES_ON_THE_BOARD {
        let p = first_plain_puzzle(&mut run);
        let line = p.line().unwrap();
        // The board stands where the last puzzle ended (first: the start
        // position): the puzzle's is set up by hand, one square after the
        // other, as a player would.
        let (start, first) = &line[0];
        assert_eq!(run.until("move")["uci"], uci(first), "the opponent's first");
        for sq in shakmaty::Square::ALL {
            if board.pieces()[usize::from(sq)] != start.board().piece_at(sq) {
                board.set(sq, start.board().piece_at(sq));
            }
        }
        until_lit(&board, squares(first), "the opponent's first move");
        make(&board, start, first);
        until_lit(&board, shakmaty::Bitboard::EMPTY, "the first move made");
        for i in (1..line.len()).step_by(2) {
            let (pos, mv) = &line[i];
            make(&board, pos, mv);
            let played = run.until("move");
            assert_eq!(
                (&played["by"], &played["source"], &played["uci"]),
                (&"player".into(), &"e_board".into(), &uci(mv).into()),
                "{:#?}",
                run.seen
            );
            if let Some((pos, reply)) = line.get(i + 1) {
                let answered = run.until("move");
                assert_eq!(
                    (answered["by"].as_str(), answered["uci"].as_str()),
                    (Some("opponent"), Some(uci(reply).as_str()))
                );
                until_lit(&board, squares(reply), "the reply to make");
                make(&board, pos, reply);
                until_lit(&board, shakmaty::Bitboard::EMPTY, "the reply made");
            }
        }
        assert_eq!(run.until("solved")["id"], p.id, "{:#?}", run.seen);
    }
    run.type_line("quit");
    let (rest, _) = run.finish();
    assert!(rest.iter().any(|e| e["event"] == "end"), "{rest:#?}");
}

/// `--format pegasus --board auto`: a Bluetooth LE board that cannot be
/// reached (no Bluetooth stack here, or no such board near) is said lost,
/// never waited for in silence, and the puzzle is solved by typing.
#[test]
fn a_bluetooth_board_out_of_reach_is_said_lost_and_typed_moves_solve() {
    let data = hermetic::private_dir("puzzle-bluetooth");
    let mut run = Run::start(
        &data,
        &[
            "--board", "auto", "--format", "pegasus", "--count", "1", "--seed", "11", "--theme",
            "mateIn2", "--lang", "en",
        ],
    );
    let puzzle = run.until("puzzle");
    let p = shipped(puzzle["id"].as_str().unwrap());
    until_said(&mut run, "Board connection lost");
    for mv in player_moves(&p) {
        run.type_line(&mv);
    }
    assert_eq!(run.until("solved")["id"], p.id, "{:#?}", run.seen);
    let (rest, _) = run.finish();
    assert!(rest.iter().any(|e| e["event"] == "end"), "{rest:#?}");
}

/// `scripts/check-puzzles` (python-chess and the real Stockfish) passes a
/// good row and names the bad ones: an illegal move, a mate puzzle that
/// ends without mate, a solution Stockfish does not play.
#[test]
fn the_puzzle_checker_names_the_rows_that_fail() {
    let dir = hermetic::private_dir("check-puzzles");
    let csv = dir.join("puzzles.csv");
    std::fs::write(
        &csv,
        "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n\
good1,6k1/8/8/8/8/1R6/R7/K7 b - - 0 1,g8h8 a2a7 h8g8 b3b8,900,80,90,100,mate mateIn2 endgame,https://lichess.org/x,\n\
illegal,6k1/8/8/8/8/1R6/R7/K7 b - - 0 1,g8h8 a2a9 h8g8 b3b8,900,80,90,100,mate mateIn2 endgame,https://lichess.org/x,\n\
nomate,6k1/8/8/8/8/1R6/R7/K7 b - - 0 1,g8h8 a2a7 h8g8 b3b7,900,80,90,100,mate mateIn2 endgame,https://lichess.org/x,\n\
blunder,6k1/8/8/8/8/1R6/R7/K7 b - - 0 1,g8h8 a2a3,900,80,90,100,advantage endgame,https://lichess.org/x,\n",
    )
    .unwrap();
    let out = Command::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/check-puzzles"
    ))
    .args(["--depth", "8"])
    .arg(&csv)
    .output()
    .expect("scripts/check-puzzles runs (python3, python-chess, stockfish: scripts/deps.sh)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("4 puzzles at depth 8: 1 pass, 3 fail (2 by the rules, 1 by Stockfish)"),
        "{stdout}"
    );
    for (id, why) in [
        ("illegal", "move 2"),
        ("nomate", "mate puzzle not ending in mate"),
        ("blunder", "Stockfish"),
    ] {
        assert!(
            stderr.contains(&format!("{id}: ")) && stderr.contains(why),
            "{id}: {stderr}"
        );
    }
    assert!(!stderr.contains("good1:"), "{stderr}");
}
