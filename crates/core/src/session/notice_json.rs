//! How a [`super::Notice`]'s typed fields are written in logs and JSON:
//! squares as "e4", pieces as "white pawn", sides as "white", moves as
//! their UCI string ("e2e4"). The words are those `rochade track` always
//! printed, so a program reading it reads the same lines.

use serde::Serializer;
use serde::ser::SerializeSeq;
use shakmaty::{CastlingMode, Color, Move, Piece, Square};

pub(super) fn square<S: Serializer>(square: &Square, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(square)
}

pub(super) fn squares<S: Serializer>(squares: &[Square], s: S) -> Result<S::Ok, S::Error> {
    let mut seq = s.serialize_seq(Some(squares.len()))?;
    for sq in squares {
        seq.serialize_element(&sq.to_string())?;
    }
    seq.end()
}

/// A value as its `Display` words (a result "1-0", a move "e2e4").
pub(super) fn display<S: Serializer, T: std::fmt::Display>(
    value: &T,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

/// A list as the `Display` words of its items (moves `["e2e4","e7e5"]`).
pub(super) fn displays<S: Serializer, T: std::fmt::Display>(
    values: &[T],
    s: S,
) -> Result<S::Ok, S::Error> {
    let mut seq = s.serialize_seq(Some(values.len()))?;
    for value in values {
        seq.serialize_element(&value.to_string())?;
    }
    seq.end()
}

pub(super) fn uci<S: Serializer>(mv: &Move, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&mv.to_uci(CastlingMode::Standard))
}

pub(super) fn ucis<S: Serializer>(moves: &[Move], s: S) -> Result<S::Ok, S::Error> {
    let mut seq = s.serialize_seq(Some(moves.len()))?;
    for mv in moves {
        seq.serialize_element(&mv.to_uci(CastlingMode::Standard).to_string())?;
    }
    seq.end()
}

/// "white" or "black".
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

pub(super) fn color<S: Serializer>(color: &Color, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(color_name(*color))
}

/// "white pawn", "black king".
pub(super) fn piece<S: Serializer>(piece: &Piece, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&format_args!(
        "{} {}",
        color_name(piece.color),
        crate::words::role_key(piece.role)
    ))
}

#[cfg(test)]
mod tests {
    use shakmaty::{Chess, Color, Piece, Position, Role, Square};

    use crate::session::{BoardDetail, EngineChange, LinkChange, Notice, SightedState};

    fn json(notice: &Notice) -> String {
        serde_json::to_string(notice).unwrap()
    }

    /// The lines `rochade track` printed when these fields were strings.
    #[test]
    fn typed_fields_are_written_as_the_words_they_always_were() {
        let pawn = Piece {
            color: Color::White,
            role: Role::Pawn,
        };
        assert_eq!(
            json(&Notice::Touched {
                square: Square::E2,
                piece: pawn
            }),
            r#"{"event":"touched","square":"e2","piece":"white pawn"}"#
        );
        assert_eq!(
            json(&Notice::TouchMove {
                square: Square::G8,
                piece: Piece {
                    color: Color::Black,
                    role: Role::Knight
                }
            }),
            r#"{"event":"touch_move","square":"g8","piece":"black knight"}"#
        );
        assert_eq!(
            json(&Notice::Mismatch {
                missing: vec![Square::E2],
                extra: vec![Square::E4, Square::H8]
            }),
            r#"{"event":"mismatch","missing":["e2"],"extra":["e4","h8"]}"#
        );
        assert_eq!(
            json(&Notice::Link {
                state: LinkChange::LinesDropped,
                detail: BoardDetail::Count(2)
            }),
            r#"{"event":"link","state":"lines_dropped","detail":"2"}"#
        );
        assert_eq!(
            json(&Notice::SightedBoard {
                state: SightedState::InSync,
                detail: BoardDetail::None
            }),
            r#"{"event":"sighted_board","state":"in_sync","detail":""}"#
        );
        assert_eq!(
            json(&Notice::SightedBoard {
                state: LinkChange::Restored.into(),
                detail: BoardDetail::Text("/dev/pts/3".into())
            }),
            r#"{"event":"sighted_board","state":"restored","detail":"/dev/pts/3"}"#
        );
        assert_eq!(
            json(&Notice::Engine {
                state: EngineChange::Failed,
                detail: "gone".into()
            }),
            r#"{"event":"engine","state":"failed","detail":"gone"}"#
        );
        assert_eq!(
            json(&Notice::DrawOffer { side: Color::Black }),
            r#"{"event":"draw_offer","side":"black"}"#
        );
        let e4 = Chess::default()
            .legal_moves()
            .into_iter()
            .find(|m| m.to() == Square::E4)
            .unwrap();
        assert_eq!(
            json(&Notice::PromotionDefaulted { mv: e4 }),
            r#"{"event":"promotion_defaulted","uci":"e2e4"}"#
        );
        assert_eq!(
            json(&Notice::Resynchronised { moves: vec![e4] }),
            r#"{"event":"resynchronised","moves":["e2e4"]}"#
        );
        assert_eq!(
            json(&Notice::SensorSuspect {
                square: Square::E2,
                mv: e4
            }),
            r#"{"event":"sensor_suspect","square":"e2","uci":"e2e4"}"#
        );
        assert_eq!(
            json(&Notice::SensorStuck {
                square: Square::A3,
                occupied: true,
                text: "t".into()
            }),
            r#"{"event":"sensor_stuck","square":"a3","occupied":true,"text":"t"}"#
        );
    }

    /// The notices typed since issue 47, written as their words were.
    #[test]
    fn results_moves_and_positions_are_written_as_words() {
        use crate::chess::EndReason;
        use shakmaty::KnownOutcome;
        assert_eq!(
            json(&Notice::GameOver {
                result: KnownOutcome::Draw,
                reason: EndReason::Stalemate
            }),
            r#"{"event":"game_over","result":"1/2-1/2","reason":"stalemate"}"#
        );
        let uci = |m: &str| m.parse::<shakmaty::uci::UciMove>().unwrap();
        assert_eq!(
            json(&Notice::PuzzleWrong { uci: uci("e1g1") }),
            r#"{"event":"puzzle_wrong","uci":"e1g1"}"#
        );
        let detail = |d: BoardDetail| d.to_string();
        assert_eq!(
            detail(BoardDetail::Squares {
                missing: vec![Square::E2],
                extra: vec![Square::E4, Square::H8]
            }),
            "missing e2; extra e4 h8"
        );
        assert_eq!(detail(BoardDetail::Turned(true)), "turned");
        assert_eq!(detail(BoardDetail::Turned(false)), "straight");
        assert_eq!(detail(BoardDetail::Again), "again");
        assert_eq!(detail(BoardDetail::Square(Square::E4)), "e4");
        assert_eq!(
            json(&Notice::PuzzleDone {
                id: "x1".into(),
                solved: true,
                line: vec![uci("e7e8q"), uci("g8h8")],
                rating: 1500
            }),
            r#"{"event":"puzzle_done","id":"x1","solved":true,"line":["e7e8q","g8h8"],"rating":1500}"#
        );
        let san = |m: &str| m.parse::<shakmaty::san::SanPlus>().unwrap();
        assert_eq!(
            json(&Notice::Takeback { san: san("Nf3+") }),
            r#"{"event":"takeback","san":"Nf3+"}"#
        );
        assert_eq!(
            json(&Notice::Retraced {
                ply: 2,
                removed: vec![san("O-O"), san("exd8=Q#")]
            }),
            r#"{"event":"retraced","ply":2,"removed":["O-O","exd8=Q#"]}"#
        );
        let fen = |f: &str| Box::new(f.parse::<shakmaty::fen::Fen>().unwrap());
        assert_eq!(
            json(&Notice::PuzzleStart {
                id: "x1".into(),
                start_fen: fen("6k1/8/8/8/8/1R6/R7/K7 b - - 0 1"),
                fen: fen("7k/8/8/8/8/1R6/R7/K7 w - - 1 2"),
                rating: 900,
                themes: vec!["mate".into()]
            }),
            r#"{"event":"puzzle_start","id":"x1","start_fen":"6k1/8/8/8/8/1R6/R7/K7 b - - 0 1","fen":"7k/8/8/8/8/1R6/R7/K7 w - - 1 2","rating":900,"themes":["mate"]}"#
        );
    }
}
