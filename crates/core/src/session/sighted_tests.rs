//! Two boards, one record: the blind player's peg-board and the sighted
//! player's DGT board inside one session, in virtual time through
//! [`Session::handle`].

use shakmaty::{Chess, Move, Position, Square};

use crate::dgt::Message;
use crate::eboard::pieces::{Pieces, pieces_of_board};
use crate::session::board::{BoardEvent, LinkState};
use crate::session::{
    Command, Effect, Event, Notice, Priority, Session, SessionConfig, SightedState, Source,
};
use crate::words::{Lang, Pack};

/// The peg-board tests' table with the sighted player's DGT board beside it.
struct Table {
    base: crate::session::board::tests::Table,
    /// What the sighted board holds.
    dgt: Pieces,
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

impl Table {
    /// Both boards connected and showing the start position.
    fn new() -> Table {
        let config = SessionConfig {
            lang: Lang::En,
            mode: crate::session::Mode::Tournament,
            // The sighted player has White.
            blind_side: shakmaty::Color::Black,
            ..SessionConfig::default()
        };
        let mut t = Table {
            base: crate::session::board::tests::Table::with_session(Session::with_pack(
                config,
                Pack::bundled(Lang::En),
            )),
            dgt: pieces_of_board(shakmaty::Board::default()),
        };
        t.send(Event::Board(BoardEvent::LinkUp { port: "peg".into() }));
        t.send(Event::Sighted(BoardEvent::LinkUp { port: "dgt".into() }));
        t.board(u64::from(Chess::default().board().occupied()));
        t.dump();
        t.wait(1000);
        t.effects.clear();
        t
    }

    fn dump(&mut self) {
        let m = Message::BoardDump(self.dgt);
        self.send(Event::Sighted(BoardEvent::Message(m.into())));
    }

    fn dgt_set(&mut self, sq: Square, piece: Option<char>) {
        let piece = piece.map(|c| shakmaty::Piece::from_char(c).expect("piece"));
        self.dgt[usize::from(sq)] = piece;
        let m = Message::FieldUpdate { square: sq, piece };
        self.send(Event::Sighted(BoardEvent::Message(m.into())));
    }

    /// A move made by hand on the sighted board (a capture: the captured
    /// piece replaced), then the board settles and answers the dump request.
    fn dgt_move(&mut self, from: Square, to: Square) {
        let p = self.dgt[usize::from(from)].expect("a piece").char();
        self.dgt_set(from, None);
        self.wait(100);
        self.dgt_set(to, Some(p));
        self.wait(400);
        // The session asked for a dump when the updates settled: answer it.
        if self
            .effects
            .iter()
            .any(|e| matches!(e, Effect::SightedBoardCommand(_)))
        {
            self.dump();
        }
        self.wait(600);
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
            .filter_map(|e| match e {
                Effect::Speak(s) => Some(s.text.spoken.clone()),
                _ => None,
            })
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
fn a_move_on_the_sighted_board_is_announced_and_expected_on_the_peg_board() {
    let mut t = Table::new();
    t.dgt_move(Square::E2, Square::E4);
    assert_eq!(t.moves(), [("e4".to_string(), Source::EBoard)]);
    let spoken = t.spoken();
    assert!(
        t.effects.iter().any(|e| matches!(
            e,
            Effect::Speak(s) if s.priority == Priority::Move && s.text.spoken == "Eva four"
        )),
        "{spoken:?}"
    );
    // The blind player copies it wrongly: guidance names his board.
    t.effects.clear();
    t.peg_move(Square::D2, Square::D4);
    t.wait(3000);
    assert!(
        t.spoken()
            .iter()
            .any(|s| s.starts_with("Your board: ") && s.contains("Eva four")),
        "{:?}",
        t.spoken()
    );
    t.peg_move(Square::D4, Square::D2);
    t.effects.clear();
    t.peg_move(Square::E2, Square::E4);
    assert!(t.moves().is_empty(), "the peg-board follows, no new move");
    assert_eq!(t.record(), ["e4"]);
}

#[test]
fn a_move_on_the_peg_board_is_expected_on_the_sighted_board() {
    let mut t = Table::new();
    t.dgt_move(Square::E2, Square::E4);
    t.peg_move(Square::E2, Square::E4);
    t.effects.clear();
    // The blind player answers on his peg-board.
    t.peg_move(Square::E7, Square::E5);
    assert_eq!(t.moves(), [("e5".to_string(), Source::PegBoard)]);
    t.effects.clear();
    t.wait(3000);
    assert!(
        t.spoken()
            .contains(&"Sighted board: Pawn from Eva seven to Eva five".to_string()),
        "{:?}",
        t.spoken()
    );
    assert!(t.effects.iter().any(|e| matches!(
        e,
        Effect::Notice(Notice::SightedBoard {
            state: SightedState::Mismatch,
            ..
        })
    )));
    // The assistant carries it out on the sighted board: in sync, no move.
    t.effects.clear();
    t.dgt_move(Square::E7, Square::E5);
    assert!(t.moves().is_empty(), "{:?}", t.moves());
    assert!(
        t.spoken()
            .contains(&"Sighted board: Board matches".to_string()),
        "{:?}",
        t.spoken()
    );
    assert_eq!(t.record(), ["e4", "e5"]);
    // The sighted player replies: the game goes on from the sighted board.
    t.dgt_move(Square::G1, Square::F3);
    assert_eq!(t.record(), ["e4", "e5", "Nf3"]);
}

#[test]
fn the_clock_switches_once_for_castling_begun_with_the_rook() {
    let mut t = Table::new();
    let config = SessionConfig {
        time_control: "15+10".parse().expect("time control"),
        ..t.session.config().clone()
    };
    t.send(Event::ConfigChanged(config));
    t.send(Event::Command(Command::NewGame));
    for (from, to) in [
        (Square::E2, Square::E4),
        (Square::E7, Square::E5),
        (Square::G1, Square::F3),
        (Square::B8, Square::C6),
        (Square::F1, Square::C4),
        (Square::F8, Square::C5),
    ] {
        t.dgt_move(from, to);
    }
    assert_eq!(t.record().len(), 6);
    let black_before = t
        .session
        .clock()
        .remaining(shakmaty::Color::Black, t.now)
        .expect("timed");
    t.effects.clear();
    t.dgt_move(Square::H1, Square::F1);
    t.dgt_move(Square::E1, Square::G1);
    assert_eq!(t.record(), ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"]);
    assert!(
        t.spoken().iter().any(|s| s.starts_with("Corrected")),
        "{:?}",
        t.spoken()
    );
    assert!(matches!(
        t.session.record().last_move().map(|m| m.mv),
        Some(Move::Castle { .. })
    ));
    // Black's clock runs (it was pressed once, by the rook move), White's
    // does not.
    assert_eq!(t.session.clock().running(), Some(shakmaty::Color::Black));
    assert!(
        t.session
            .clock()
            .remaining(shakmaty::Color::Black, t.now)
            .expect("timed")
            < black_before
    );
}

#[test]
fn a_takeback_on_the_sighted_board_asks_and_link_troubles_are_said_as_the_sighted_boards() {
    let mut t = Table::new();
    t.dgt_move(Square::E2, Square::E4);
    t.wait(3000);
    t.effects.clear();
    t.dgt_move(Square::E4, Square::E2);
    assert!(
        t.effects
            .iter()
            .any(|e| matches!(e, Effect::Notice(Notice::Asked { .. })))
    );
    t.send(Event::Command(Command::Confirm));
    assert!(t.record().is_empty());

    t.effects.clear();
    t.send(Event::Sighted(BoardEvent::LinkLost {
        reason: "unplugged".into(),
    }));
    assert!(t.spoken().contains(&"Sighted board link lost".to_string()));
    assert!(matches!(
        t.session.sighted_board().link,
        LinkState::Lost { .. }
    ));
    // The peg-board's link is untouched.
    assert!(matches!(
        t.session.board_state().link,
        LinkState::Connected { .. }
    ));
    t.send(Event::Sighted(BoardEvent::LinkUp { port: "dgt".into() }));
    assert!(
        t.spoken()
            .contains(&"Sighted board connected again".to_string())
    );
    assert!(
        t.effects
            .iter()
            .any(|e| matches!(e, Effect::SightedBoardCommand(_))),
        "the whole board is asked for again"
    );
}

#[test]
fn both_boards_and_the_dgt_clock_are_said_on_request() {
    use crate::dgt::protocol::{ClockReading, ClockSide};
    let mut t = Table::new();
    t.send(Event::Command(Command::BoardStatus));
    assert_eq!(
        t.spoken(),
        ["Your board: connected. Sighted board: connected"]
    );
    t.effects.clear();
    let reading = ClockReading {
        left: ClockSide {
            hours: 1,
            minutes: 29,
            seconds: 58,
            flag: false,
        },
        right: ClockSide {
            minutes: 5,
            seconds: 7,
            ..ClockSide::default()
        },
        status: 0x01,
    };
    let m = Message::Clock(reading);
    t.send(Event::Sighted(BoardEvent::Message(m.into())));
    t.send(Event::Sighted(BoardEvent::LinkLost {
        reason: "unplugged".into(),
    }));
    t.effects.clear();
    t.send(Event::Command(Command::BoardStatus));
    assert_eq!(
        t.spoken(),
        [
            "Your board: connected. Sighted board: link lost. Sighted board: Clock: left 1 hour \
          29 minutes 58 seconds, right 5 minutes 7 seconds"
        ]
    );
    // Asked for guidance, each board answers for itself.
    t.effects.clear();
    t.send(Event::Board(BoardEvent::RepeatGuidance));
    t.send(Event::Sighted(BoardEvent::RepeatGuidance));
    assert_eq!(
        t.spoken(),
        ["Your board: Board matches", "Sighted board: Board matches"]
    );
}

#[test]
fn a_retrace_guides_both_boards_back_and_neither_replays_the_moves() {
    let mut t = Table::new();
    t.dgt_move(Square::E2, Square::E4);
    t.peg_move(Square::E2, Square::E4);
    t.peg_move(Square::E7, Square::E5);
    t.dgt_move(Square::E7, Square::E5);
    t.dgt_move(Square::G1, Square::F3);
    t.peg_move(Square::G1, Square::F3);
    t.wait(3000);
    assert_eq!(t.record(), ["e4", "e5", "Nf3"]);
    t.effects.clear();
    t.send(Event::Command(Command::CompareScoresheet(
        "1. e4 e5 2. Nc3".into(),
    )));
    t.send(Event::Command(Command::Confirm));
    assert_eq!(t.record(), ["e4", "e5"]);
    t.wait(5000);
    assert_eq!(
        t.record(),
        ["e4", "e5"],
        "no board plays Nf3 again: {:?}",
        t.spoken()
    );
    let spoken = t.spoken();
    assert!(
        spoken.iter().any(|s| s.starts_with("Sighted board: ")),
        "{spoken:?}"
    );
    // The peg-board's tracker waits quietly for the player to put his
    // board back (as after any takeback); asked, it names the difference.
    t.effects.clear();
    t.send(Event::Board(BoardEvent::RepeatGuidance));
    let asked = t.spoken();
    assert!(
        asked.len() == 1
            && asked[0].starts_with("Your board: ")
            && asked[0] != "Your board: Board matches",
        "{asked:?}"
    );
    // The boards are put back: in sync, and the game goes on with Nc3.
    t.dgt_move(Square::F3, Square::G1);
    t.peg_move(Square::F3, Square::G1);
    t.dgt_move(Square::B1, Square::C3);
    assert_eq!(t.record(), ["e4", "e5", "Nc3"]);
}

#[test]
fn every_board_event_reaches_the_sighted_board_through_the_shared_link() {
    let mut t = Table::new();
    // Dropped lines: said as the sighted board's, the board asked once.
    t.send(Event::Sighted(BoardEvent::LinesDropped { count: 2 }));
    let asked = t
        .effects
        .iter()
        .filter(|e| matches!(e, Effect::SightedBoardCommand(_)))
        .count();
    assert_eq!(asked, 1, "{:?}", t.effects);
    assert!(t.effects.iter().any(|e| matches!(
        e,
        Effect::Notice(Notice::SightedBoard { state: SightedState::LinesDropped, detail })
            if *detail == crate::session::BoardDetail::Count(2)
    )));
    assert!(
        !t.effects
            .iter()
            .any(|e| matches!(e, Effect::BoardCommand(_))),
        "the peg-board is not asked"
    );
    // The guidance time is the one setting both boards share.
    t.send(Event::Sighted(BoardEvent::Configure(
        crate::board::TrackerConfig {
            mismatch_ms: 700,
            ..Default::default()
        },
    )));
    let cfg = t.session.sighted_board().recognizer().config().clone();
    assert_eq!(cfg.guidance_ms, 700);
    assert_eq!(cfg.settle_ms, 300, "the DGT board keeps its settle time");
    // A promotion choice waits for nothing on a board that knows its pieces.
    t.effects.clear();
    t.send(Event::Sighted(BoardEvent::PromotionChoice(
        shakmaty::Role::Knight,
    )));
    assert!(t.spoken().is_empty());
    // Closing the link: not connected, nothing said.
    t.send(Event::Sighted(BoardEvent::LinkClosed));
    assert_eq!(t.session.sighted_board().link, LinkState::NotConnected);
    assert!(t.spoken().is_empty());
}
