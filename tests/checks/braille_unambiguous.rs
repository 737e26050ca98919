//! No ambiguity by construction: in every letter set and both codings, no
//! two legal moves of a position are written with the same cells.
//!
//! Positions: every position of the real games under `tests/data` (with 59
//! master games of The Week in Chess 1599 in `tests/data/braille`), and
//! positions from random legal play with a fixed seed (xorshift), which
//! reaches promotions, under-promotions, en passant and many-piece
//! disambiguations far more often than real games do.

use std::collections::HashMap;
use std::path::Path;

use rochade::braille::{ChessCode, Coding, move_cells, to_unicode_line};
use rochade::chess::Letters;
use rochade::export::read_pgn;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Position};

/// Games of random legal play and their length limit.
const RANDOM_GAMES: usize = 60;
const MAX_PLIES: usize = 200;

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn real_positions() -> Vec<Chess> {
    let mut positions = Vec::new();
    for dir in [
        "tests/data/games",
        "tests/data/export",
        "tests/data/braille",
    ] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "pgn") {
                let text = std::fs::read_to_string(&path).unwrap();
                let games = text.matches("[Event ").count();
                for game in 0..games {
                    let record = read_pgn(&text, game).unwrap();
                    for i in 0..=record.moves().len() {
                        positions.push(if i < record.moves().len() {
                            record.position_before(i).clone()
                        } else {
                            record.position().clone()
                        });
                    }
                }
            }
        }
    }
    positions
}

fn random_positions() -> Vec<Chess> {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut positions = Vec::new();
    for _ in 0..RANDOM_GAMES {
        let mut pos = Chess::default();
        for _ in 0..MAX_PLIES {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            positions.push(pos.clone());
            let mv = moves[(rng.next() % moves.len() as u64) as usize];
            pos.play_unchecked(mv);
        }
    }
    positions
}

#[test]
fn no_two_legal_moves_share_their_cells() {
    let real = real_positions();
    let random = random_positions();
    let positions: Vec<&Chess> = real.iter().chain(&random).collect();
    assert!(
        real.len() > 4_000 && random.len() > 5_000,
        "{} {}",
        real.len(),
        random.len()
    );
    let codes: Vec<(Letters, ChessCode)> = Letters::ALL
        .into_iter()
        .map(|l| (l, ChessCode::bundled(l)))
        .collect();
    let mut checked: HashMap<(Letters, Coding), usize> = HashMap::new();
    let mut kinds = [0usize; 3]; // promotions, en passant, piece captures with a file-letter piece
    for pos in &positions {
        let moves = pos.legal_moves();
        let sans: Vec<SanPlus> = moves
            .iter()
            .map(|&m| SanPlus::from_move((*pos).clone(), m))
            .collect();
        kinds[0] += moves.iter().filter(|m| m.is_promotion()).count();
        kinds[1] += moves.iter().filter(|m| m.is_en_passant()).count();
        kinds[2] += moves
            .iter()
            .filter(|m| m.is_capture() && m.role() != shakmaty::Role::Pawn)
            .count();
        for (letters, code) in &codes {
            for coding in [Coding::Full, Coding::Minimal] {
                let mut seen: HashMap<Vec<u8>, &SanPlus> = HashMap::with_capacity(sans.len());
                for (san, mv) in sans.iter().zip(moves.iter()) {
                    let mut cells = Vec::new();
                    move_cells(code, san, mv.is_en_passant(), coding, &mut cells);
                    if let Some(other) = seen.insert(cells.clone(), san) {
                        panic!(
                            "{letters} {coding:?}: {other} and {san} are both {} in {}",
                            to_unicode_line(&cells),
                            shakmaty::fen::Fen::from_position(*pos, shakmaty::EnPassantMode::Legal)
                        );
                    }
                }
                *checked.entry((*letters, coding)).or_default() += sans.len();
            }
        }
    }
    let mut report: Vec<_> = checked.iter().collect();
    report.sort_by_key(|((l, c), _)| (l.code(), format!("{c:?}")));
    for ((letters, coding), n) in report {
        println!(
            "{letters} {coding:?}: {n} legal moves in {} positions ({} real, {} random), no two alike",
            positions.len(),
            real.len(),
            random.len()
        );
    }
    println!(
        "among them {} promotions, {} en passant captures, {} piece captures",
        kinds[0], kinds[1], kinds[2]
    );
    assert!(kinds.iter().all(|&k| k > 40), "{kinds:?}");
}

/// The check above can fail: without the indicator, German D and
/// Portuguese B, C, D collide with the files, as before issue 15.
#[test]
fn without_the_indicator_moves_collide() {
    for letters in [Letters::De, Letters::Pt] {
        let mut code = ChessCode::bundled(letters);
        for piece in &mut code.pieces {
            if piece.starts_with(&code.indicator) && !code.indicator.is_empty() {
                piece.drain(..code.indicator.len());
            }
        }
        // White: queen h2 and pawn d4 can both take on e5.
        let pos: Chess = "k7/8/8/4p3/3P4/8/7Q/4K3 w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        let mut seen = HashMap::new();
        let mut collided = false;
        for mv in pos.legal_moves() {
            let san = SanPlus::from_move(pos.clone(), mv);
            let mut cells = Vec::new();
            move_cells(&code, &san, false, Coding::Full, &mut cells);
            collided |= seen.insert(cells, san).is_some();
        }
        assert!(
            collided,
            "{letters}: Dxe5 and dxe5 alike without the indicator"
        );
    }
}
