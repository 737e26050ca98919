//! The peg-board inside the session: the tracker follows the scoresheet
//! (moves entered elsewhere, takebacks, refused moves), driven with events
//! in virtual time through [`Session::handle`].

use shakmaty::{Chess, Color, Position, Square};

use crate::board::PegMessage;
use crate::session::board::BoardEvent;
use crate::session::{
    Command, Effect, Event, Notice, Priority, Session, SessionConfig, Source, Speech,
};
use crate::words::{Lang, Pack};

/// A session with a peg-board attached, and a clock the test moves (also
/// the base of the two-board tests in `sighted_tests`).
pub(in crate::session) struct Table {
    pub session: Session,
    pub now: u64,
    pub effects: Vec<Effect>,
}

fn occupancy(pos: &Chess) -> u64 {
    u64::from(pos.board().occupied())
}

fn bit(sq: Square) -> u64 {
    1 << u32::from(sq)
}

impl Table {
    /// Connected, with the board showing the start position.
    fn new() -> Table {
        let config = SessionConfig {
            lang: Lang::En,
            ..SessionConfig::default()
        };
        let mut table = Table::with_session(Session::with_pack(config, Pack::bundled(Lang::En)));
        table.send(Event::Board(BoardEvent::LinkUp { port: "pty".into() }));
        table.board(occupancy(&Chess::default()));
        table.take();
        table
    }

    /// Around a session, at time 0, nothing connected.
    pub fn with_session(session: Session) -> Table {
        Table {
            session,
            now: 0,
            effects: Vec::new(),
        }
    }

    pub fn send(&mut self, event: Event) {
        let fx = self.session.handle(self.now, event);
        self.effects.extend(fx);
    }

    /// Lets `ms` pass, sending a tick at every deadline on the way.
    pub fn wait(&mut self, ms: u64) {
        let until = self.now + ms;
        while let Some(due) = self.session.next_deadline().filter(|&d| d <= until) {
            self.now = due.max(self.now);
            self.send(Event::Tick);
        }
        self.now = until;
    }

    /// The board reports this occupancy, which then stays for a while.
    pub fn board(&mut self, mask: u64) {
        self.send(Event::Board(BoardEvent::Message(PegMessage::Snapshot(
            mask,
        ))));
        self.wait(300);
    }

    /// A peg lifted from one square and put on another.
    pub fn peg_move(&mut self, from: Square, to: Square) {
        let mask = self.session.board_state().last_mask.expect("a snapshot").0;
        self.board(mask & !bit(from));
        self.board(mask & !bit(from) | bit(to));
    }

    fn type_move(&mut self, san: &str) {
        self.send(Event::MoveEntered {
            text: san.into(),
            source: Source::Keyboard,
        });
    }

    fn command(&mut self, cmd: Command) {
        self.send(Event::Command(cmd));
    }

    fn take(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    fn sans(&self) -> Vec<String> {
        self.session
            .record()
            .moves()
            .iter()
            .map(|m| m.san_string())
            .collect()
    }
}

fn notices(effects: &[Effect]) -> Vec<&Notice> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Notice(n) => Some(n),
            _ => None,
        })
        .collect()
}

/// What was said (written form).
use crate::session::tests::spoken as said;

fn has(effects: &[Effect], wanted: &Notice) -> bool {
    notices(effects).contains(&wanted)
}

fn moves_from(effects: &[Effect]) -> Vec<(String, Source)> {
    notices(effects)
        .into_iter()
        .filter_map(|n| match n {
            Notice::Move { san, source, .. } => Some((san.to_string(), *source)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_move_entered_elsewhere_is_expected_on_the_board_and_not_played_twice() {
    let mut t = Table::new();
    t.type_move("e4");
    t.wait(3000);
    let fx = t.take();
    assert_eq!(moves_from(&fx), [("e4".to_owned(), Source::Keyboard)]);
    // The player copies the move onto his peg-board: the boards agree
    // again, and the move is not taken as a second one.
    t.peg_move(Square::E2, Square::E4);
    let fx = t.take();
    assert!(has(&fx, &Notice::InSync), "{:?}", notices(&fx));
    assert!(moves_from(&fx).is_empty(), "{:?}", notices(&fx));
    assert_eq!(t.sans(), ["e4"]);
    // The reply on the peg-board is the next move of the same game.
    t.peg_move(Square::E7, Square::E5);
    let fx = t.take();
    assert_eq!(moves_from(&fx), [("e5".to_owned(), Source::PegBoard)]);
    assert_eq!(said(&fx).last().map(String::as_str), Some("Eva five"));
    assert_eq!(t.sans(), ["e4", "e5"]);
}

#[test]
fn pieces_put_back_on_the_board_ask_for_a_takeback_that_the_board_then_follows() {
    let mut t = Table::new();
    t.peg_move(Square::E2, Square::E4);
    t.peg_move(Square::E7, Square::E5);
    assert_eq!(t.sans(), ["e4", "e5"]);
    t.take();
    // The pawn goes back: that asks to take the move back, nothing more.
    t.peg_move(Square::E5, Square::E7);
    let fx = t.take();
    assert!(has(&fx, &Notice::TakebackRequested), "{:?}", notices(&fx));
    assert_eq!(said(&fx), ["Take back Eva five? Yes or no"]);
    assert_eq!(t.sans(), ["e4", "e5"], "not taken back before confirmation");
    t.command(Command::Confirm);
    t.wait(3000);
    let fx = t.take();
    assert_eq!(t.sans(), ["e4"]);
    assert!(said(&fx).contains(&"Taken back: Eva five".to_owned()));
    // The board already shows the position: no guidance follows.
    assert!(
        !notices(&fx)
            .iter()
            .any(|n| matches!(n, Notice::Mismatch { .. })),
        "{:?}",
        notices(&fx)
    );
    // Black plays another move from there.
    t.peg_move(Square::D7, Square::D5);
    assert_eq!(t.sans(), ["e4", "d5"]);
}

#[test]
fn a_move_the_session_refuses_is_withdrawn_from_the_board_tracker() {
    let mut t = Table::new();
    t.peg_move(Square::E2, Square::E4);
    t.command(Command::Resign(Color::Black));
    assert_eq!(t.session.record().result_str(), "1-0");
    t.take();
    // After the game is over a move on the board is refused: the result is
    // said again, the scoresheet keeps its one move.
    t.peg_move(Square::E7, Square::E5);
    t.wait(3000);
    let fx = t.take();
    assert!(fx.contains(&Effect::Sound(super::Earcon::Illegal)));
    assert!(said(&fx).contains(&"Game over: White wins, Resignation".to_owned()));
    assert!(moves_from(&fx).is_empty());
    assert_eq!(t.sans(), ["e4"]);
    // The refused move is not replayed by later events, and putting the
    // pawn back works (this used to loop and then panic in reconcile).
    t.peg_move(Square::E5, Square::E7);
    t.wait(3000);
    let fx = t.take();
    assert!(moves_from(&fx).is_empty(), "{:?}", notices(&fx));
    assert!(
        !said(&fx).iter().any(|s| s.starts_with("Game over")),
        "the refusal is not repeated: {:?}",
        said(&fx)
    );
    assert_eq!(t.sans(), ["e4"]);
}

#[test]
fn touched_pieces_are_spoken_only_when_the_setting_says_so() {
    for announce in [true, false] {
        let mut t = Table::new();
        t.send(Event::ConfigChanged(SessionConfig {
            lang: Lang::En,
            announce_touched: announce,
            ..SessionConfig::default()
        }));
        let start = occupancy(&Chess::default());
        t.board(start & !bit(Square::G1));
        let fx = t.take();
        assert!(has(
            &fx,
            &Notice::Touched {
                square: Square::G1,
                piece: shakmaty::Piece {
                    color: shakmaty::Color::White,
                    role: shakmaty::Role::Knight
                }
            }
        ));
        assert_eq!(!said(&fx).is_empty(), announce, "{:?}", said(&fx));
    }
}

#[test]
fn a_promotion_corrected_before_the_reply_is_recorded_and_announced() {
    let mut t = Table::new();
    t.session
        .set_start_fen("r6k/1P6/8/8/8/8/6p1/4K3 w - - 0 1")
        .unwrap();
    let pos = t.session.record().position().clone();
    t.board(occupancy(&pos));
    t.take();
    t.peg_move(Square::B7, Square::B8);
    // The opponent starts at once: the default queen is played.
    let mask = t.session.board_state().last_mask.unwrap().0;
    t.board(mask & !bit(Square::H8));
    assert_eq!(t.sans(), ["b8=Q+"]);
    t.take();
    t.send(Event::Board(BoardEvent::PromotionChoice(
        shakmaty::Role::Knight,
    )));
    let fx = t.take();
    assert_eq!(t.sans(), ["b8=N"], "the record follows the correction");
    assert!(
        said(&fx).iter().any(|s| s.starts_with("Correction:")),
        "{:?}",
        said(&fx)
    );
    // The reply is expected from the corrected position.
    t.board(mask & !bit(Square::H8) | bit(Square::H7));
    assert_eq!(t.sans(), ["b8=N", "Kh7"]);
}

/// The moves e4 d5 Nc3 f5 on the peg-board, after which White's e-pawn can
/// take on d5 or on f5; returns the position.
fn two_captures_for_the_e_pawn(t: &mut Table) -> Chess {
    use Square::*;
    for (from, to) in [(E2, E4), (D7, D5), (B1, C3), (F7, F5)] {
        t.peg_move(from, to);
    }
    assert_eq!(t.sans(), ["e4", "d5", "Nc3", "f5"]);
    t.session.record().position().clone()
}

/// The board shows exd5, made while the session could not see it, then
/// Black hesitates: his f-pawn is in his hand, then put back. In occupancy
/// that is also exf5 with its whole evidence: nothing may be recorded.
fn f_pawn_hesitation_after_unseen_exd5(t: &mut Table, before: &Chess) {
    use Square::*;
    let after_exd5 = occupancy(before) & !bit(E4);
    t.board(after_exd5 & !bit(F5));
    t.board(after_exd5);
    t.wait(3000);
    let fx = t.take();
    assert_eq!(
        t.sans(),
        ["e4", "d5", "Nc3", "f5"],
        "no guess between exd5 and exf5: {:?}",
        notices(&fx)
    );
}

#[test]
fn a_lost_link_then_the_opponent_hesitating_never_records_a_wrong_move() {
    use Square::*;
    let mut t = Table::new();
    let before = two_captures_for_the_e_pawn(&mut t);
    t.send(Event::Board(BoardEvent::LinkLost {
        reason: "unplugged".into(),
    }));
    t.wait(5000);
    t.take();
    // While the link is down White plays exd5; the board comes back.
    t.send(Event::Board(BoardEvent::LinkUp { port: "pty".into() }));
    f_pawn_hesitation_after_unseen_exd5(&mut t, &before);
    // Black replies: exd5 Nf6 and exf5 Nf6 both explain the board, so
    // nothing is recorded; the board is reported as differing instead.
    t.peg_move(G8, F6);
    t.wait(3000);
    let fx = t.take();
    let sans = t.sans();
    assert!(
        !sans.iter().any(|s| s == "exf5"),
        "a wrong move recorded: {sans:?}"
    );
    assert_eq!(sans, ["e4", "d5", "Nc3", "f5"], "{:?}", notices(&fx));
    assert!(
        notices(&fx)
            .iter()
            .any(|n| matches!(n, Notice::Mismatch { .. })),
        "guidance instead of a guess: {:?}",
        notices(&fx)
    );
}

#[test]
fn the_engine_move_is_expected_on_the_peg_board_with_guidance_until_it_is_there() {
    use crate::engine::{Ask, EngineAnswer, EngineEvent, Level};
    let mut t = Table::new();
    t.session.set_opponent(Some(crate::session::Opponent {
        color: Color::Black,
        level: Level::new(3).unwrap(),
        pause_ms: 800,
        seed: 1,
    }));
    t.peg_move(Square::E2, Square::E4);
    let fx = t.take();
    assert_eq!(moves_from(&fx), [("e4".to_owned(), Source::PegBoard)]);
    let request = fx
        .iter()
        .find_map(|e| match e {
            Effect::AskEngine(r) => Some(r.clone()),
            _ => None,
        })
        .expect("the engine is asked for its move");
    assert_eq!(request.ask, Ask::Move);
    assert_eq!(request.moves.len(), 1);
    // The engine thread answers e7e5 (the core sees plain data).
    t.send(Event::Engine(EngineEvent::Answer(EngineAnswer {
        id: request.id,
        ask: Ask::Move,
        best: Some("e7e5".parse().unwrap()),
        lines: Vec::new(),
    })));
    assert_eq!(t.sans(), ["e4"], "held until the pause is over");
    t.wait(10_000);
    let fx = t.take();
    assert_eq!(moves_from(&fx), [("e5".to_owned(), Source::Engine)]);
    assert!(
        said(&fx).contains(&"Eva five".to_owned()),
        "{:?}",
        said(&fx)
    );
    // The peg-board still shows the pawn on e7: asked, the guidance names
    // both squares (as for a sighted opponent's move).
    t.send(Event::Board(BoardEvent::RepeatGuidance));
    let fx = t.take();
    let guidance = said(&fx);
    assert!(
        guidance
            .iter()
            .any(|s| s.contains("Eva seven") && s.contains("Eva five")),
        "{guidance:?}"
    );
    // A wrong move on the board is explained after the mismatch time.
    t.peg_move(Square::D7, Square::D5);
    t.wait(10_000);
    let fx = t.take();
    assert!(moves_from(&fx).is_empty(), "{:?}", notices(&fx));
    assert!(
        notices(&fx)
            .iter()
            .any(|n| matches!(n, Notice::Mismatch { .. })),
        "{:?}",
        notices(&fx)
    );
    t.peg_move(Square::D5, Square::D7);
    // The player makes the engine's move on his board: in sync, no
    // second move, and no new request to the engine.
    t.peg_move(Square::E7, Square::E5);
    let fx = t.take();
    assert!(has(&fx, &Notice::InSync), "{:?}", notices(&fx));
    assert!(moves_from(&fx).is_empty());
    assert!(!fx.iter().any(|e| matches!(e, Effect::AskEngine(_))));
    // His next move is his own again.
    t.peg_move(Square::G1, Square::F3);
    let fx = t.take();
    assert_eq!(moves_from(&fx), [("Nf3".to_owned(), Source::PegBoard)]);
    assert!(fx.iter().any(|e| matches!(e, Effect::AskEngine(_))));
}

#[test]
fn two_typed_moves_the_board_has_not_followed_get_one_short_guidance_sentence() {
    let mut t = Table::new();
    t.type_move("e4");
    t.type_move("e5");
    t.take();
    t.wait(10_000);
    let fx = t.take();
    let guidance: Vec<&Speech> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Speak(s) if s.priority == Priority::Guidance => Some(s),
            _ => None,
        })
        .collect();
    assert_eq!(guidance.len(), 1, "said once: {fx:?}");
    assert_eq!(
        guidance[0].text.spoken,
        "Pawn from Eva two to Eva four, Pawn from Eva seven to Eva five"
    );
}

#[test]
fn dropped_lines_then_the_opponent_hesitating_never_records_a_wrong_move() {
    let mut t = Table::new();
    let before = two_captures_for_the_e_pawn(&mut t);
    // White plays exd5 but its three lines arrive with bad checksums, one
    // for each step of the hand: the link stays up, the states are not
    // seen.
    t.send(Event::Board(BoardEvent::LinesDropped { count: 1 }));
    let fx = t.take();
    for _ in 0..2 {
        t.wait(300);
        t.send(Event::Board(BoardEvent::LinesDropped { count: 1 }));
    }
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::BoardCommand(crate::board::HostCommand::Snapshot))),
        "the board is asked for its state again: {fx:?}"
    );
    f_pawn_hesitation_after_unseen_exd5(&mut t, &before);
}

/// What was said as guidance.
fn guidance_said(fx: &[Effect]) -> Vec<String> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Speak(s) if s.priority == Priority::Guidance => Some(s.text.spoken.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn after_a_retrace_the_peg_board_is_guided_back_without_asking() {
    let mut t = Table::new();
    for (from, to) in [
        (Square::E2, Square::E4),
        (Square::E7, Square::E5),
        (Square::G1, Square::F3),
        (Square::B8, Square::C6),
    ] {
        t.peg_move(from, to);
    }
    assert_eq!(t.sans(), ["e4", "e5", "Nf3", "Nc6"]);
    // The sighted player's scoresheet has 2. Nc3: the arbiter goes back
    // to the last move both agree on (after 1... e5).
    t.command(Command::CompareScoresheet("1. e4 e5 2. Nc3 Nc6".into()));
    t.command(Command::Confirm);
    assert_eq!(t.sans(), ["e4", "e5"]);
    t.take();
    // The peg-board still shows 2. Nf3 Nc6: the player is told, unasked,
    // after the guidance time.
    t.wait(10_000);
    let fx = t.take();
    let guidance = guidance_said(&fx);
    assert_eq!(guidance.len(), 1, "one guidance sentence: {fx:?}");
    assert!(
        guidance[0].contains("Gustav one") && guidance[0].contains("Felix three"),
        "names the squares to put right: {guidance:?}"
    );
}

#[test]
fn a_link_closed_in_the_settings_is_not_connected_and_says_nothing() {
    let mut t = Table::new();
    t.send(Event::Board(BoardEvent::LinkClosed));
    let fx = t.take();
    assert!(said(&fx).is_empty(), "nothing said: {fx:?}");
    assert_eq!(
        t.session.board_state().link,
        crate::session::board::LinkState::NotConnected
    );
    // The new port's link comes up as a first connection, not a restored one.
    t.send(Event::Board(BoardEvent::LinkUp { port: "new".into() }));
    let fx = t.take();
    assert!(
        said(&fx).is_empty(),
        "a first connection is not announced: {fx:?}"
    );
    assert!(has(
        &fx,
        &Notice::Link {
            state: crate::session::LinkChange::Connected,
            detail: crate::session::BoardDetail::Text("new".into())
        }
    ));
}

#[test]
fn a_board_closed_with_a_piece_lifted_is_forgotten_marks_and_guidance_alike() {
    // Issue 51: the simulated board switched off with the knight lifted
    // from g1 still counted: "!" on the board view and, after e4 typed,
    // "Knight Gustav one missing".
    use Square::*;
    let mut t = Table::new();
    let start = occupancy(t.session.record().position());
    t.board(start & !bit(G1));
    t.send(Event::Board(BoardEvent::LinkClosed));
    let game = t.session.record().position().clone();
    assert_eq!(
        t.session.board_state().difference(&game).0,
        0,
        "nothing marked"
    );
    t.take();
    t.type_move("e4");
    t.wait(10_000);
    let fx = t.take();
    assert!(guidance_said(&fx).is_empty(), "no guidance: {fx:?}");
    assert!(!said(&fx).iter().any(|s| s.contains("missing")), "{fx:?}");
    // A board that comes up again is read afresh.
    t.send(Event::Board(BoardEvent::LinkUp { port: "new".into() }));
    t.board(occupancy(t.session.record().position()));
    t.wait(10_000);
    let fx = t.take();
    assert!(
        !said(&fx).iter().any(|s| s.contains("missing")),
        "the board agrees: {fx:?}"
    );
}

#[test]
fn an_illegal_move_on_the_peg_board_is_said_as_illegal_before_any_guidance() {
    use Square::*;
    let mut t = Table::new();
    t.peg_move(E2, E4);
    t.peg_move(E7, E5);
    t.take();
    // The knight from g1 to g3: no move of the game.
    let before = occupancy(t.session.record().position());
    t.board(before & !bit(G1));
    t.board(before & !bit(G1) | bit(G3));
    t.wait(5000);
    let fx = t.take();
    let guidance = guidance_said(&fx);
    assert_eq!(guidance.len(), 1, "{fx:?}");
    assert!(
        guidance[0].starts_with("Illegal move: Knight Gustav one Gustav three, "),
        "{guidance:?}"
    );
    assert_eq!(t.sans(), ["e4", "e5"], "nothing recorded");
}

#[test]
fn a_stuck_sensor_is_said_by_name_and_moves_elsewhere_are_still_recognised() {
    use Square::*;
    let mut t = Table::new();
    // h3 reads occupied from the start, though nothing stands there.
    let start = occupancy(t.session.record().position());
    let stuck = bit(H3);
    t.board(start | stuck);
    t.wait(3000);
    let mut said_all = said(&t.take());
    for (from, to) in [(E2, E4), (E7, E5), (G1, F3)] {
        let before = occupancy(t.session.record().position()) | stuck;
        t.board(before & !bit(from));
        t.board(before & !bit(from) | bit(to));
        t.wait(3000);
        said_all.extend(said(&t.take()));
    }
    assert_eq!(t.sans(), ["e4", "e5", "Nf3"], "{said_all:?}");
    let stuck_said: Vec<&String> = said_all
        .iter()
        .filter(|s| s.contains("Hector three") && s.contains("always reports occupied"))
        .collect();
    assert_eq!(stuck_said.len(), 1, "said once, by name: {said_all:?}");
    // The sensor works again: said, and trusted again.
    let now = occupancy(t.session.record().position());
    t.board(now);
    t.wait(500);
    let fx = said(&t.take());
    assert!(
        fx.iter()
            .any(|s| s.contains("Hector three") && s.contains("correctly again")),
        "{fx:?}"
    );
}

/// A short game on the peg-board, then the start position set up: the
/// effects from the set-up on.
fn game_then_set_back(t: &mut Table) -> Vec<Effect> {
    t.peg_move(Square::E2, Square::E4);
    t.peg_move(Square::E7, Square::E5);
    t.peg_move(Square::G1, Square::F3);
    assert_eq!(t.sans(), ["e4", "e5", "Nf3"]);
    t.take();
    // Pieces off, one at a time, then the start's set.
    t.board(
        occupancy(&Chess::default()) & !bit(Square::E2) & !bit(Square::E7) & !bit(Square::G1)
            | bit(Square::E4)
            | bit(Square::E5),
    );
    t.board(occupancy(&Chess::default()) & !bit(Square::E2) & !bit(Square::E7) & !bit(Square::G1));
    t.board(occupancy(&Chess::default()));
    t.wait(10_000);
    t.take()
}

#[test]
fn the_start_set_up_after_a_game_starts_the_next_game_where_no_one_answers() {
    let config = SessionConfig {
        lang: Lang::En,
        questions_answered: false,
        ..SessionConfig::default()
    };
    let mut t = Table::with_session(Session::with_pack(config, Pack::bundled(Lang::En)));
    t.send(Event::Board(BoardEvent::LinkUp { port: "pty".into() }));
    t.board(occupancy(&Chess::default()));
    let fx = game_then_set_back(&mut t);
    assert!(has(&fx, &Notice::NewGame), "{fx:?}");
    assert!(
        !said(&fx).iter().any(|s| s.contains('?')),
        "{:?}",
        said(&fx)
    );
    assert!(t.sans().is_empty());
    // The next game's first move is read from the start.
    t.peg_move(Square::D2, Square::D4);
    assert_eq!(t.sans(), ["d4"]);
}

#[test]
fn the_start_set_up_after_a_game_is_asked_about_where_someone_answers() {
    let mut t = Table::new();
    let fx = game_then_set_back(&mut t);
    assert!(!has(&fx, &Notice::NewGame), "{fx:?}");
    assert!(
        said(&fx).contains(&"Start a new game? Yes or no".to_owned()),
        "{:?}",
        said(&fx)
    );
    assert_eq!(t.sans(), ["e4", "e5", "Nf3"], "kept until the answer");
}
