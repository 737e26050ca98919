//! The player's own e-board inside the session, and both seats' lights,
//! in virtual time through [`Session::handle`]: the board reports whole
//! positions (as a Millennium or Chessnut board does), a person's hands
//! lift and set pieces with pauses between.

use shakmaty::{Bitboard, Board, Move, Position, Square};

use crate::board::HostCommand;
use crate::eboard::Message;
use crate::eboard::pieces::{Pieces, pieces_of_board};
use crate::session::BoardDetail;
use crate::session::board::BoardEvent;
use crate::session::link::LinkState;
use crate::session::{
    Command, Effect, Event, Notice, Priority, PuzzleCommand, Session, SessionConfig, Source,
};
use crate::words::{Lang, Pack};

/// Which seat the table's e-board sits in.
#[derive(Clone, Copy, PartialEq)]
enum Seat {
    Own,
    Sighted,
}

/// A session with one e-board connected in `seat`, and a clock the test
/// moves.
struct Table {
    base: crate::session::board::tests::Table,
    seat: Seat,
    /// What the e-board holds (board coordinates).
    pieces: Pieces,
}

impl std::ops::Deref for Table {
    type Target = crate::session::board::tests::Table;
    fn deref(&self) -> &Self::Target {
        &self.base
    }
}

impl std::ops::DerefMut for Table {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.base
    }
}

fn squares(list: &[Square]) -> Bitboard {
    list.iter().copied().collect()
}

impl Table {
    /// The player's own e-board connected, showing the start position.
    fn own() -> Table {
        Table::with(Seat::Own, SessionConfig::default(), None)
    }

    fn with(seat: Seat, config: SessionConfig, fen: Option<&str>) -> Table {
        let config = SessionConfig {
            lang: Lang::En,
            ..config
        };
        let mut session = Session::with_pack(config, Pack::bundled(Lang::En));
        if let Some(fen) = fen {
            session.set_start_fen(fen).expect("a legal FEN");
        }
        let board = session.record().position().board().clone();
        let mut t = Table {
            base: crate::session::board::tests::Table::with_session(session),
            seat,
            pieces: pieces_of_board(board),
        };
        t.event(BoardEvent::LinkUp { port: "pty".into() });
        t.show();
        t.effects.clear();
        t
    }

    fn event(&mut self, event: BoardEvent<Message>) {
        let event = match self.seat {
            Seat::Own => Event::EBoard(event),
            Seat::Sighted => Event::Sighted(event),
        };
        self.send(event);
    }

    /// The board reports what it holds (a full position), which then
    /// stands still for a while.
    fn report(&mut self) {
        self.event(BoardEvent::Message(Message::Position(Box::new(
            self.pieces,
        ))));
    }

    /// The board holds `board`, reported and standing still.
    fn show_board(&mut self, board: Board) {
        self.pieces = pieces_of_board(board);
        self.show();
    }

    fn show(&mut self) {
        self.report();
        self.wait(1000);
    }

    /// A hand lifts the piece on `from` (board coordinates) and sets it on
    /// `to` (a capture: the captured piece taken off first).
    fn hand(&mut self, from: Square, to: Square) {
        let piece = self.pieces[usize::from(from)].take();
        self.report();
        self.wait(150);
        self.pieces[usize::from(to)] = piece;
        self.report();
        self.wait(1000);
    }

    fn play(&mut self, uci: &str, source: Source) {
        let mv = self.mv(uci);
        self.send(Event::MovePlayed { mv, source });
    }

    fn mv(&self, uci: &str) -> Move {
        let uci: shakmaty::uci::UciMove = uci.parse().expect("a UCI move");
        uci.to_move(self.session.record().position())
            .expect("a legal move")
    }

    /// The squares the last lights command asked for, if one was sent.
    fn lights(&self) -> Option<Bitboard> {
        self.effects
            .iter()
            .rev()
            .find_map(|e| match (self.seat, e) {
                (Seat::Own, Effect::BoardCommand(HostCommand::Lights(bb)))
                | (Seat::Sighted, Effect::SightedBoardCommand(HostCommand::Lights(bb))) => {
                    Some(*bb)
                }
                _ => None,
            })
    }

    fn moves(&self) -> Vec<(String, Source)> {
        self.effects
            .iter()
            .filter_map(|e| match e {
                Effect::Notice(Notice::Move { san, source, .. }) => {
                    Some((san.to_string(), *source))
                }
                _ => None,
            })
            .collect()
    }

    fn spoken(&self) -> Vec<String> {
        self.effects
            .iter()
            .filter_map(|e| e.speech().map(|s| s.text.spoken.clone()))
            .collect()
    }

    fn record(&self) -> Vec<String> {
        self.session
            .record()
            .moves()
            .iter()
            .map(|m| m.san.to_string())
            .collect()
    }
}

#[test]
fn a_move_on_the_own_eboard_is_played_and_announced_and_a_reply_is_expected_there() {
    let mut t = Table::own();
    t.hand(Square::E2, Square::E4);
    assert_eq!(t.moves(), [("e4".to_string(), Source::EBoard)]);
    assert!(
        t.effects.iter().any(|e| matches!(
            e,
            Effect::Speak(s) if s.priority == Priority::Move && s.text.spoken == "Eva four"
        )),
        "{:?}",
        t.spoken()
    );
    // The reply comes from elsewhere (the engine): expected on the board,
    // guidance worded as the player's own board's, the peg-board's notice.
    t.effects.clear();
    t.play("e7e5", Source::Engine);
    t.wait(3000);
    let spoken = t.spoken();
    assert!(
        spoken
            .iter()
            .any(|s| s.contains("Eva seven") && s.contains("Eva five")),
        "{spoken:?}"
    );
    assert!(
        !spoken.iter().any(|s| s.starts_with("Sighted board")),
        "{spoken:?}"
    );
    assert!(
        t.effects
            .iter()
            .any(|e| matches!(e, Effect::Notice(Notice::Mismatch { .. })))
    );
    assert!(
        !t.effects
            .iter()
            .any(|e| matches!(e, Effect::SightedBoardCommand(_))),
        "commands go to the player's own board"
    );
    // Carried out on the board: in sync, no new move.
    t.effects.clear();
    t.hand(Square::E7, Square::E5);
    assert!(t.moves().is_empty(), "{:?}", t.moves());
    assert!(t.spoken().contains(&"Board matches".to_string()));
    assert_eq!(t.record(), ["e4", "e5"]);
    t.hand(Square::G1, Square::F3);
    assert_eq!(t.record(), ["e4", "e5", "Nf3"]);
}

#[test]
fn the_own_eboards_link_and_ident_are_said_and_noticed_as_the_peg_boards() {
    let mut t = Table::own();
    t.event(BoardEvent::Message(Message::Ident(
        "Millennium eONE".into(),
    )));
    t.event(BoardEvent::Message(Message::Ident(
        "Millennium eONE".into(),
    )));
    let idents: Vec<_> = t
        .effects
        .iter()
        .filter(|e| matches!(e, Effect::Notice(Notice::BoardInfo { text }) if text == "Millennium eONE"))
        .collect();
    assert_eq!(idents.len(), 1, "noticed once: {:?}", t.effects);
    t.effects.clear();
    t.event(BoardEvent::LinkLost {
        reason: "unplugged".into(),
    });
    assert_eq!(t.spoken(), ["Board connection lost"]);
    assert!(matches!(
        t.session.own_eboard().link,
        LinkState::Lost { .. }
    ));
    assert!(t.effects.iter().any(|e| matches!(
        e,
        Effect::Notice(Notice::Link {
            state: crate::session::LinkChange::Lost,
            ..
        })
    )));
    t.effects.clear();
    t.event(BoardEvent::LinkUp { port: "pty".into() });
    assert_eq!(t.spoken(), ["Board connected again"]);
    assert!(
        t.effects
            .contains(&Effect::BoardCommand(HostCommand::Snapshot)),
        "the whole board is asked for again"
    );
    // Asked, the player's board status is its e-board's.
    t.effects.clear();
    t.send(Event::Command(Command::BoardStatus));
    assert_eq!(t.spoken(), ["Your board: connected"]);
}

#[test]
fn a_model_the_link_cannot_drive_is_said_by_its_name() {
    let mut t = Table::own();
    t.event(BoardEvent::ModelUnsupported {
        name: "Chessnut Move".into(),
    });
    assert_eq!(
        t.spoken(),
        [
            "Found Chessnut Move: a model Rochade cannot drive. Still looking for a board \
          Rochade drives; to try this one anyway, give its address"
        ]
    );
}

#[test]
fn the_engines_reply_is_lit_on_its_squares_and_dark_once_made() {
    let mut t = Table::own();
    t.hand(Square::E2, Square::E4);
    assert_eq!(t.lights(), None, "nothing to show: no command sent");
    t.play("e7e5", Source::Engine);
    assert_eq!(t.lights(), Some(squares(&[Square::E7, Square::E5])));
    // The piece in the hand: the lights stay.
    t.effects.clear();
    t.pieces[usize::from(Square::E7)] = None;
    t.report();
    t.wait(5000);
    assert_eq!(t.lights(), None, "{:?}", t.effects);
    t.pieces[usize::from(Square::E5)] = Some(shakmaty::Piece::from_char('p').unwrap());
    t.report();
    t.wait(1000);
    assert_eq!(t.lights(), Some(Bitboard::EMPTY));
}

#[test]
fn a_wrong_move_lights_the_differing_squares_after_the_guidance_time() {
    let mut t = Table::own();
    // e2-e5 is no move.
    t.pieces[usize::from(Square::E2)] = None;
    t.pieces[usize::from(Square::E5)] = Some(shakmaty::Piece::from_char('P').unwrap());
    t.report();
    t.wait(1500);
    assert_eq!(t.lights(), None, "not before the guidance time");
    t.wait(1000);
    assert_eq!(t.lights(), Some(squares(&[Square::E2, Square::E5])));
    t.effects.clear();
    t.hand(Square::E5, Square::E2);
    assert_eq!(t.lights(), Some(Bitboard::EMPTY));
    assert!(t.record().is_empty());
}

#[test]
fn a_takeback_lights_the_way_back() {
    let mut t = Table::own();
    t.hand(Square::E2, Square::E4);
    t.hand(Square::E7, Square::E5);
    assert_eq!(t.record(), ["e4", "e5"]);
    t.effects.clear();
    t.send(Event::Command(Command::Takeback));
    t.send(Event::Command(Command::Confirm));
    assert_eq!(t.record(), ["e4"]);
    assert_eq!(t.lights(), Some(squares(&[Square::E7, Square::E5])));
    t.hand(Square::E5, Square::E7);
    assert_eq!(t.lights(), Some(Bitboard::EMPTY));
    assert_eq!(t.record(), ["e4"], "the way back is no move");
}

#[test]
fn castling_made_elsewhere_lights_the_kings_squares() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1";
    let mut t = Table::with(Seat::Own, SessionConfig::default(), Some(fen));
    t.play("e8c8", Source::Engine);
    assert_eq!(t.lights(), Some(squares(&[Square::E8, Square::C8])));
    // Made on the board, rook first.
    t.hand(Square::A8, Square::D8);
    t.hand(Square::E8, Square::C8);
    assert_eq!(t.lights(), Some(Bitboard::EMPTY));
    assert_eq!(t.record(), ["O-O-O"]);
}

#[test]
fn a_board_lying_the_other_way_round_is_lit_on_its_own_squares() {
    let mut t = Table::own();
    let mut turned = Board::default();
    turned.rotate_180();
    t.show_board(turned);
    t.effects.clear();
    t.play("e2e4", Source::Keyboard);
    // The board's own e2 and e4 are the game's d7 and d5.
    assert_eq!(t.lights(), Some(squares(&[Square::D7, Square::D5])));
    t.hand(Square::D7, Square::D5);
    assert_eq!(t.lights(), Some(Bitboard::EMPTY));
    assert_eq!(t.record(), ["e4"]);
}

#[test]
fn the_sighted_board_is_lit_with_the_move_made_elsewhere() {
    let mut t = Table::with(Seat::Sighted, SessionConfig::default(), None);
    t.play("g1f3", Source::PegBoard);
    assert_eq!(t.lights(), Some(squares(&[Square::G1, Square::F3])));
    assert!(
        !t.effects
            .iter()
            .any(|e| matches!(e, Effect::BoardCommand(HostCommand::Lights(_)))),
        "the sighted board's lights are its own"
    );
    t.hand(Square::G1, Square::F3);
    assert_eq!(t.lights(), Some(Bitboard::EMPTY));
    assert_eq!(t.record(), ["Nf3"]);
}

#[test]
fn a_wrong_puzzle_move_on_the_own_eboard_stands_until_the_board_is_put_back() {
    let fen = "6k1/8/8/8/8/1R6/R7/K7 b - - 0 1";
    let mut t = Table::with(Seat::Own, SessionConfig::default(), Some(fen));
    let text = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Themes,GameUrl\n\
                lad1,6k1/8/8/8/8/1R6/R7/K7 b - - 0 1,g8h8 a2a7 h8g8 b3b8,900,80,mate,https://lichess.org/x\n";
    let puzzle = crate::puzzle::PuzzleSet::parse(text).unwrap().puzzles()[0].clone();
    t.send(Event::Command(Command::Puzzle(PuzzleCommand::Start(
        Box::new(puzzle),
    ))));
    // The opponent's first move is lit and carried out.
    assert_eq!(t.lights(), Some(squares(&[Square::G8, Square::H8])));
    t.hand(Square::G8, Square::H8);
    assert_eq!(t.lights(), Some(Bitboard::EMPTY));
    t.effects.clear();
    // Rb3-b8+ is not the solution.
    t.hand(Square::B3, Square::B8);
    assert!(
        t.spoken().iter().any(|s| s.contains("wrong")),
        "{:?}",
        t.spoken()
    );
    assert_eq!(
        t.session.record().moves().len(),
        2,
        "on the record until put back"
    );
    t.hand(Square::B8, Square::B3);
    assert_eq!(t.session.record().moves().len(), 1);
    assert!(t.session.pending().is_none(), "no question asked");
    // The right move: the reply from the solution is lit.
    t.effects.clear();
    t.hand(Square::A2, Square::A7);
    assert_eq!(t.lights(), Some(squares(&[Square::H8, Square::G8])));
    t.hand(Square::H8, Square::G8);
    t.hand(Square::B3, Square::B8);
    assert_eq!(
        t.session.puzzle().unwrap().outcome,
        Some(false),
        "one wrong move"
    );
}

#[test]
fn calibration_steps_are_said_as_guidance_and_noticed_in_either_seat() {
    use crate::eboard::CalibrationStep;
    use crate::session::CalibrationState;
    let mut t = Table::own();
    t.event(BoardEvent::Message(Message::Calibration(
        CalibrationStep::SetUpStart,
    )));
    t.event(BoardEvent::Message(Message::Calibration(
        CalibrationStep::Done { spare_queens: 2 },
    )));
    let said: Vec<_> = t
        .effects
        .iter()
        .filter_map(|e| e.speech())
        .map(|s| (s.text.spoken.clone(), s.priority))
        .collect();
    assert_eq!(
        said,
        [
            (
                "Calibration: set up the starting position, spare queens too if you want them"
                    .to_string(),
                Priority::Guidance
            ),
            (
                "Calibration done, spare queens: 2".to_string(),
                Priority::Guidance
            )
        ]
    );
    assert!(t.effects.contains(&Effect::Notice(Notice::Calibration {
        step: CalibrationState::Done,
        detail: BoardDetail::Count(2),
        sighted: false,
    })));
    let mut t = Table::with(Seat::Sighted, SessionConfig::default(), None);
    t.event(BoardEvent::Message(Message::Calibration(
        CalibrationStep::UnknownPiece(Square::E4),
    )));
    assert_eq!(t.spoken(), ["Sighted board: Unknown piece on Eva four"]);
    assert!(t.effects.contains(&Effect::Notice(Notice::Calibration {
        step: CalibrationState::UnknownPiece,
        detail: BoardDetail::Square(Square::E4),
        sighted: true,
    })));
    let json = serde_json::to_string(&Notice::Calibration {
        step: CalibrationState::SetUpStart,
        detail: BoardDetail::None,
        sighted: false,
    })
    .unwrap();
    assert_eq!(
        json,
        r#"{"event":"calibration","step":"set_up_start","detail":"","sighted":false}"#
    );
}

#[test]
fn two_eboards_one_record_each_guided_and_lit_in_its_own_words() {
    // The player's own e-board and the sighted player's, both connected.
    let mut own = Table::own();
    own.send(Event::Sighted(BoardEvent::LinkUp { port: "dgt".into() }));
    let start = Box::new(pieces_of_board(Board::default()));
    own.send(Event::Sighted(BoardEvent::Message(Message::Position(
        start.clone(),
    ))));
    own.wait(1000);
    own.effects.clear();
    // The blind player moves on his board: expected and lit on the
    // sighted board, guided there as the sighted board's.
    own.hand(Square::E2, Square::E4);
    assert_eq!(own.moves(), [("e4".to_string(), Source::EBoard)]);
    assert!(
        own.effects
            .contains(&Effect::SightedBoardCommand(HostCommand::Lights(squares(
                &[Square::E2, Square::E4]
            ))))
    );
    own.wait(3000);
    assert!(
        own.spoken()
            .iter()
            .any(|s| s.starts_with("Sighted board: ") && s.contains("Eva four")),
        "{:?}",
        own.spoken()
    );
    // The sighted player makes it and replies e5 on his board: expected
    // and lit on the player's board, guided as "Your board".
    let mut sighted = *start;
    sighted[usize::from(Square::E2)] = None;
    sighted[usize::from(Square::E4)] = Some(shakmaty::Piece::from_char('P').unwrap());
    sighted[usize::from(Square::E7)] = None;
    sighted[usize::from(Square::E5)] = Some(shakmaty::Piece::from_char('p').unwrap());
    own.effects.clear();
    own.send(Event::Sighted(BoardEvent::Message(Message::Position(
        Box::new(sighted),
    ))));
    own.wait(3000);
    assert_eq!(own.record(), ["e4", "e5"]);
    assert!(
        own.effects
            .contains(&Effect::BoardCommand(HostCommand::Lights(squares(&[
                Square::E7,
                Square::E5
            ]))))
    );
    assert!(
        own.spoken()
            .iter()
            .any(|s| s.starts_with("Your board: ") && s.contains("Eva five")),
        "{:?}",
        own.spoken()
    );
    own.hand(Square::E7, Square::E5);
    assert_eq!(own.lights(), Some(Bitboard::EMPTY));
    assert_eq!(own.record(), ["e4", "e5"]);
}

/// The moves on the record, in UCI.
fn recorded(t: &Table) -> Vec<String> {
    t.session
        .record()
        .moves()
        .iter()
        .map(|m| m.mv.to_uci(shakmaty::CastlingMode::Standard).to_string())
        .collect()
}

fn noticed(t: &Table, notice: &Notice) -> usize {
    t.effects
        .iter()
        .filter(|e| **e == Effect::Notice(notice.clone()))
        .count()
}

#[test]
fn where_no_one_answers_the_start_position_after_a_game_starts_the_next_at_once() {
    let config = SessionConfig {
        questions_answered: false,
        ..SessionConfig::default()
    };
    let mut t = Table::with(Seat::Own, config, None);
    for _ in 0..3 {
        t.hand(Square::E2, Square::E4);
        t.hand(Square::E7, Square::E5);
        t.hand(Square::G1, Square::F3);
        assert_eq!(recorded(&t), ["e2e4", "e7e5", "g1f3"]);
        t.effects.clear();
        // Resigned by word; the pieces set back.
        t.show_board(Board::default());
        assert_eq!(noticed(&t, &Notice::NewGame), 1, "{:?}", t.effects);
        assert!(
            !t.effects
                .iter()
                .any(|e| matches!(e, Effect::Notice(Notice::Asked { .. }))),
            "nothing asked where no one answers"
        );
        assert!(t.effects.contains(&Effect::SaveGame));
        assert!(recorded(&t).is_empty());
    }
    t.hand(Square::D2, Square::D4);
    assert_eq!(recorded(&t), ["d2d4"]);
}

#[test]
fn where_someone_answers_the_next_game_is_asked_and_its_moves_kept_meanwhile() {
    let mut t = Table::own();
    t.hand(Square::E2, Square::E4);
    t.hand(Square::E7, Square::E5);
    t.effects.clear();
    t.show_board(Board::default());
    let asked = Notice::Asked {
        question: crate::session::QuestionKind::NewGame,
    };
    assert_eq!(noticed(&t, &asked), 1);
    // Moves made while the question waits: kept, not read against the
    // game on the record (no mismatch, nothing lit).
    t.hand(Square::D2, Square::D4);
    t.hand(Square::D7, Square::D5);
    t.wait(3000);
    assert_eq!(recorded(&t), ["e2e4", "e7e5"]);
    assert!(
        !t.effects
            .iter()
            .any(|e| matches!(e, Effect::Notice(Notice::Mismatch { .. }))),
        "{:?}",
        t.effects
    );
    t.send(Event::Command(Command::Confirm));
    assert_eq!(recorded(&t), ["d2d4", "d7d5"]);
    t.hand(Square::G1, Square::F3);
    assert_eq!(recorded(&t), ["d2d4", "d7d5", "g1f3"]);
}

#[test]
fn no_to_the_next_game_keeps_the_game_and_guides_the_board_back() {
    let mut t = Table::own();
    t.hand(Square::E2, Square::E4);
    t.hand(Square::E7, Square::E5);
    let game = t.session.record().position().board().clone();
    t.show_board(Board::default());
    t.hand(Square::D2, Square::D4);
    t.effects.clear();
    t.send(Event::Command(Command::Cancel));
    assert_eq!(recorded(&t), ["e2e4", "e7e5"]);
    t.wait(3000);
    assert!(
        t.effects
            .iter()
            .any(|e| matches!(e, Effect::Notice(Notice::Mismatch { .. }))),
        "the board differs from the game: guided"
    );
    t.show_board(game);
    t.hand(Square::G1, Square::F3);
    assert_eq!(recorded(&t), ["e2e4", "e7e5", "g1f3"]);
}

#[test]
fn a_turned_board_is_said_turned_once_not_at_every_game() {
    let config = SessionConfig {
        questions_answered: false,
        ..SessionConfig::default()
    };
    let mut t = Table::with(Seat::Own, config, None);
    let turn = |sq: Square| sq.flip_vertical().flip_horizontal();
    let mut turned_start = Board::default();
    turned_start.rotate_180();
    for _ in 0..3 {
        t.show_board(turned_start.clone());
        t.hand(turn(Square::E2), turn(Square::E4));
        t.hand(turn(Square::E7), turn(Square::E5));
        assert_eq!(recorded(&t), ["e2e4", "e7e5"]);
    }
    assert_eq!(noticed(&t, &Notice::Orientation { turned: true }), 1);
    assert_eq!(noticed(&t, &Notice::NewGame), 2);
    let said = t
        .effects
        .iter()
        .filter(
            |e| matches!(e, Effect::Speak(s) if s.text.written.starts_with("Board turned round")),
        )
        .count();
    assert_eq!(said, 1);
}

#[test]
fn a_fixed_orientation_is_said_of_a_board_in_use_only() {
    let turned = crate::board::TrackerConfig {
        orientation: crate::board::OrientationChoice::Turned,
        ..crate::board::TrackerConfig::default()
    };
    // No e-board: the window's settings reach the unused seat in silence.
    let mut s = Session::with_pack(SessionConfig::default(), Pack::bundled(Lang::En));
    let fx = s.handle(0, Event::Board(BoardEvent::Configure(turned.clone())));
    assert!(
        !fx.effects.iter().any(|e| matches!(
            e,
            Effect::Speak(_) | Effect::Notice(Notice::Orientation { .. })
        )),
        "{:?}",
        fx.effects
    );
    // The own e-board connected: said once, and read turned from then on.
    let mut t = Table::own();
    t.send(Event::Board(BoardEvent::Configure(turned.clone())));
    assert_eq!(noticed(&t, &Notice::Orientation { turned: true }), 1);
    t.send(Event::Board(BoardEvent::Configure(turned)));
    assert_eq!(noticed(&t, &Notice::Orientation { turned: true }), 1);
}
