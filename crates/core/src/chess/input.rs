//! Reading a move typed by a person: SAN (any case where unambiguous, in
//! English or the chosen piece letters), coordinates ("g1f3", "e7e8q"), or
//! the announcement words themselves ("springer felix drei", "s f3",
//! "bauer eva zwei eva vier", "kurze rochade").

use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingSide, Chess, File, Move, Position, Rank, Role, Square};

use super::Letters;
use crate::words::Pack;

/// Why typed text is not a move here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveInputError {
    /// Nothing that reads as a move.
    #[error("'{0}' is not a move")]
    Unreadable(String),
    /// Reads as a move, but it is not legal in this position.
    #[error("'{0}' is not legal here")]
    Illegal(String),
    /// Several legal moves fit; the text says which squares would help.
    #[error("'{0}' fits more than one move")]
    Ambiguous(String),
}

impl MoveInputError {
    pub fn text(&self) -> &str {
        match self {
            MoveInputError::Unreadable(t)
            | MoveInputError::Illegal(t)
            | MoveInputError::Ambiguous(t) => t,
        }
    }
}

/// The piece letters a typed move may use: the chosen set (the
/// scoresheet's) and the announcement language's; English letters for
/// what neither names. A letter the two sets give different pieces
/// (Portuguese R = Rei, English R = Rook; German B = Bauer, English B =
/// Bishop) is read both ways: one legal move is played, two are refused as
/// ambiguous, so a letter never silently means the other piece when both
/// could move there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceLetters {
    chosen: Letters,
    language: Letters,
}

impl PieceLetters {
    /// The chosen letters and those of the announcement language.
    pub fn new(chosen: Letters, announcement: crate::words::Lang) -> PieceLetters {
        use crate::words::Lang;
        let language = match announcement {
            Lang::De => Letters::De,
            Lang::Pt => Letters::Pt,
            Lang::En => Letters::En,
        };
        PieceLetters { chosen, language }
    }

    /// The pawn's letter where a set has one people type (German B for
    /// Bauer, Portuguese and English P); only the chosen set's counts, so
    /// German announcements never turn an English B (bishop) into a pawn.
    fn pawn_letter(letters: Letters) -> char {
        match letters {
            Letters::De => 'B',
            Letters::En | Letters::Pt => 'P',
        }
    }

    /// Every piece an upper-case letter can name here (pawns included),
    /// chosen set first; empty when it names none.
    pub fn meanings(self, letter: char) -> Vec<Role> {
        let pawn = |letters: Letters| (Self::pawn_letter(letters) == letter).then_some(Role::Pawn);
        let mut roles: Vec<Role> = Vec::new();
        for role in [
            self.chosen.role(letter),
            pawn(self.chosen),
            self.language.role(letter),
        ]
        .into_iter()
        .flatten()
        {
            if !roles.contains(&role) {
                roles.push(role);
            }
        }
        if roles.is_empty() {
            roles.extend(Letters::En.role(letter).or(pawn(Letters::En)));
        }
        roles
    }

    /// The English SAN readings of SAN typed in these letters: the piece
    /// letter (first) and the promotion piece (after `=`, or an upper-case
    /// letter after the rank) in each of their meanings; a pawn letter is
    /// dropped. Lower case letters elsewhere are files and stay.
    fn english_readings(self, san: &str) -> Vec<String> {
        let chars: Vec<char> = san.chars().collect();
        let mut readings = vec![String::new()];
        for (i, &c) in chars.iter().enumerate() {
            let promotion = i > 0
                && (chars[i - 1] == '='
                    || (chars[i - 1].is_ascii_digit() && c.is_ascii_uppercase()));
            let piece_letter = i == 0 && c.is_ascii_uppercase() && c != 'O';
            let options: Vec<String> = if promotion {
                let upper = c.to_ascii_uppercase();
                // "e8S" is read as "e8=S".
                let sign = if chars[i - 1] == '=' { "" } else { "=" };
                self.meanings(upper)
                    .into_iter()
                    .filter(|r| *r != Role::Pawn)
                    .map(|r| format!("{sign}{}", r.upper_char()))
                    .collect()
            } else if piece_letter {
                self.meanings(c)
                    .into_iter()
                    .map(|r| match r {
                        Role::Pawn => String::new(),
                        r => r.upper_char().to_string(),
                    })
                    .collect()
            } else {
                vec![c.to_string()]
            };
            if options.is_empty() && promotion {
                // No piece of these letters: no reading at all (German "B"
                // is a pawn, never an English bishop).
                return Vec::new();
            }
            if options.is_empty() {
                // Not a piece letter here: left as typed (the parse fails).
                readings.iter_mut().for_each(|r| r.push(c));
                continue;
            }
            readings = readings
                .iter()
                .flat_map(|r| options.iter().map(move |o| format!("{r}{o}")))
                .collect();
        }
        readings
    }
}

impl From<Letters> for PieceLetters {
    /// One set of letters (English fills what it does not name).
    fn from(letters: Letters) -> PieceLetters {
        PieceLetters {
            chosen: letters,
            language: letters,
        }
    }
}

/// Parses a typed move in the position. `packs` supply the words accepted
/// in phonetic input (pass every pack the user might speak).
pub fn parse_move(
    pos: &Chess,
    text: &str,
    letters: impl Into<PieceLetters>,
    packs: &[&Pack],
) -> Result<Move, MoveInputError> {
    let letters = letters.into();
    let trimmed = text.trim().trim_end_matches(['!', '?']);
    if trimmed.is_empty() {
        return Err(MoveInputError::Unreadable(text.to_owned()));
    }
    if let Some(result) = parse_coordinates(pos, trimmed) {
        return result.map_err(|()| MoveInputError::Illegal(text.to_owned()));
    }
    if let Some(result) = parse_san_any_case(pos, trimmed, letters) {
        return result;
    }
    parse_words(pos, trimmed, letters, packs)
}

fn parse_coordinates(pos: &Chess, text: &str) -> Option<Result<Move, ()>> {
    let lower = text.to_ascii_lowercase();
    let b = lower.as_bytes();
    let looks_uci = (b.len() == 4 || b.len() == 5)
        && matches!(b[0], b'a'..=b'h')
        && matches!(b[1], b'1'..=b'8')
        && matches!(b[2], b'a'..=b'h')
        && matches!(b[3], b'1'..=b'8');
    if !looks_uci {
        return None;
    }
    let uci: UciMove = lower.parse().ok()?;
    Some(uci.to_move(pos).map_err(|_| ()))
}

/// SAN as typed first, its piece letters read in every accepted set; only
/// when that reads as no legal move, with a lower-case first letter that
/// is no file upper-cased ("nf3" -> "Nf3", "sf3", "lc4"). A lower-case a
/// to h is always a file: "b4", "bxc4", "dxe5", "cf3" are never read as a
/// bishop's, a Dame's or a Cavalo's move. Two different legal moves in
/// one step are refused as ambiguous.
fn parse_san_any_case(
    pos: &Chess,
    text: &str,
    letters: PieceLetters,
) -> Option<Result<Move, MoveInputError>> {
    let text = text.replace('0', "O");
    let mut chars = text.chars();
    let first = chars.next()?;
    let upper: String = first.to_uppercase().chain(chars).collect();
    let mut second = Vec::new();
    if !matches!(first, 'a'..='h') {
        second = letters.english_readings(&upper);
    }
    // "o-o" and other all-lower-case castling.
    let bare = text.trim_end_matches(['+', '#']);
    if bare.eq_ignore_ascii_case("o-o") || bare.eq_ignore_ascii_case("o-o-o") {
        second.push(text.to_ascii_uppercase());
    }
    let steps: [Vec<String>; 2] = [letters.english_readings(&text), second];
    let mut parsed_any = false;
    for readings in &steps {
        let mut found: Vec<Move> = Vec::new();
        for reading in readings {
            if let Ok(san) = SanPlus::from_ascii(reading.as_bytes()) {
                parsed_any = true;
                if let Ok(m) = san.san.to_move(pos)
                    && !found.contains(&m)
                {
                    found.push(m);
                }
            }
        }
        match found.len() {
            0 => continue,
            1 => return Some(Ok(found[0])),
            _ => return Some(Err(MoveInputError::Ambiguous(text))),
        }
    }
    if parsed_any && looks_like_san(&text) {
        return Some(Err(MoveInputError::Illegal(text)));
    }
    None
}

fn looks_like_san(text: &str) -> bool {
    !text.contains(char::is_whitespace) && text.len() <= 8
}

/// What a single typed word can mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    Piece(Role),
    File(File),
    Rank(Rank),
    Square(Square),
    Captures,
    Castle(CastlingSide),
    /// Words to skip: "en passant", "check", "mate".
    Filler,
}

/// Lower case, German umlauts spelt out, Portuguese accents dropped: in
/// one pass (this runs for every word of every pack on each typed move).
fn normalise(word: &str) -> String {
    let mut out = String::with_capacity(word.len() + 2);
    for c in word.chars().flat_map(char::to_lowercase) {
        match c {
            'ä' => out.push_str("ae"),
            'ö' => out.push_str("oe"),
            'ü' => out.push_str("ue"),
            'ß' => out.push_str("ss"),
            'ã' | 'á' | 'â' => out.push('a'),
            'é' | 'ê' => out.push('e'),
            'í' => out.push('i'),
            'ó' | 'ô' | 'õ' => out.push('o'),
            'ú' => out.push('u'),
            'ç' => out.push('c'),
            c => out.push(c),
        }
    }
    out
}

/// A phrase of the packs: its normalised words, how many, and its meaning.
pub(crate) type Phrase = (String, usize, Part);

/// Each pack's phrases, made once and kept in the pack.
fn vocabulary<'a>(packs: &[&'a Pack]) -> Vec<&'a [Phrase]> {
    packs
        .iter()
        .map(|pack| pack.input_phrases.get_or_init(|| phrases(pack)).as_slice())
        .collect()
}

/// The phrase of the packs that `words` start with: the longest (so "kurze
/// rochade" wins over a single word), of equal ones the first in pack order.
fn phrase_at<'a>(words: &[String], vocab: &[&'a [Phrase]]) -> Option<&'a Phrase> {
    // Each pack's phrases are longest first.
    let longest = vocab.iter().filter_map(|p| p.first()).map(|p| p.1).max()?;
    for n in (1..=longest.min(words.len())).rev() {
        for list in vocab {
            for phrase in list.iter() {
                let found = phrase.1 == n
                    && match n {
                        1 => phrase.0 == words[0],
                        _ => phrase
                            .0
                            .split(' ')
                            .eq(words[..n].iter().map(String::as_str)),
                    };
                if found {
                    return Some(phrase);
                }
            }
        }
    }
    None
}

/// The phrases of one pack, longest first, else in pack order.
pub(crate) fn phrases(pack: &Pack) -> Vec<Phrase> {
    let mut v = Vec::new();
    let mut add = |w: &crate::words::Word, part: Part| {
        for form in [&w.written, &w.spoken] {
            let phrase = normalise(form);
            let n = phrase.split_whitespace().count();
            v.push((phrase, n, part));
        }
    };
    for i in 0..8 {
        add(pack.file(File::new(i)), Part::File(File::new(i)));
        add(pack.rank(Rank::new(i)), Part::Rank(Rank::new(i)));
    }
    for role in Role::ALL {
        add(pack.piece(role), Part::Piece(role));
    }
    add(&pack.term("captures"), Part::Captures);
    add(
        &pack.term("castle_short"),
        Part::Castle(CastlingSide::KingSide),
    );
    add(
        &pack.term("castle_long"),
        Part::Castle(CastlingSide::QueenSide),
    );
    for key in ["check", "mate", "en_passant"] {
        add(&pack.term(key), Part::Filler);
    }
    // Other ways people type castling ("castles short", "kleine Rochade",
    // "roque menor"), `|`-separated in the pack: data, not code.
    for (key, side) in [
        ("castle_short", CastlingSide::KingSide),
        ("castle_long", CastlingSide::QueenSide),
    ] {
        for alias in pack.input_aliases(key) {
            let phrase = normalise(alias);
            let n = phrase.split_whitespace().count();
            v.push((phrase, n, Part::Castle(side)));
        }
    }
    v.sort_by_key(|&(_, n, _)| std::cmp::Reverse(n));
    v
}

fn classify(words: &[String], letters: PieceLetters, vocab: &[&[Phrase]]) -> Result<Vec<Part>, ()> {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if let Some(&(_, n, part)) = phrase_at(&words[i..], vocab) {
            parts.push(part);
            i += n;
            continue;
        }
        let w = words[i].as_str();
        let part = match w {
            "x" | ":" => Part::Captures,
            "+" | "#" | "ep" | "e.p." => Part::Filler,
            "o-o" | "0-0" => Part::Castle(CastlingSide::KingSide),
            "o-o-o" | "0-0-0" => Part::Castle(CastlingSide::QueenSide),
            _ => {
                let b = w.as_bytes();
                if b.len() == 2 && matches!(b[0], b'a'..=b'h') && matches!(b[1], b'1'..=b'8') {
                    Part::Square(w.parse().map_err(|_| ())?)
                } else if b.len() == 1 && matches!(b[0], b'1'..=b'8') {
                    Part::Rank(Rank::new(u32::from(b[0] - b'1')))
                } else if b.len() == 1 {
                    // A single letter: a piece letter first (one that names
                    // a single piece in the accepted letters), otherwise a
                    // file.
                    let upper = w.to_ascii_uppercase().chars().next().unwrap_or(' ');
                    let meanings = letters.meanings(upper);
                    if let [role] = meanings[..]
                        && role != Role::Pawn
                        && parts.is_empty()
                    {
                        Part::Piece(role)
                    } else if matches!(b[0], b'a'..=b'h') {
                        Part::File(File::new(u32::from(b[0] - b'a')))
                    } else {
                        return Err(());
                    }
                } else {
                    return Err(());
                }
            }
        };
        parts.push(part);
        i += 1;
    }
    Ok(parts)
}

fn parse_words(
    pos: &Chess,
    text: &str,
    letters: PieceLetters,
    packs: &[&Pack],
) -> Result<Move, MoveInputError> {
    let unreadable = || MoveInputError::Unreadable(text.to_owned());
    let words: Vec<String> = normalise(text)
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    let parts = classify(&words, letters, &vocabulary(packs)).map_err(|()| unreadable())?;
    let legal = pos.legal_moves();

    if let Some(side) = parts.iter().find_map(|p| match p {
        Part::Castle(s) => Some(*s),
        _ => None,
    }) {
        return legal
            .iter()
            .find(|m| m.castling_side() == Some(side))
            .copied()
            .ok_or_else(|| MoveInputError::Illegal(text.to_owned()));
    }

    // Fold files followed by ranks into squares: "eva vier" -> e4.
    let mut squares: Vec<Square> = Vec::new();
    let mut lone_file = None;
    let mut lone_rank = None;
    let mut pieces: Vec<Role> = Vec::new();
    let mut k = 0;
    while k < parts.len() {
        match (parts[k], parts.get(k + 1)) {
            (Part::File(f), Some(Part::Rank(r))) => {
                squares.push(Square::from_coords(f, *r));
                k += 1;
            }
            (Part::Square(sq), _) => squares.push(sq),
            (Part::File(f), _) => lone_file = Some(f),
            (Part::Rank(r), _) => lone_rank = Some(r),
            (Part::Piece(role), _) => pieces.push(role),
            (Part::Captures | Part::Filler | Part::Castle(_), _) => {}
        }
        k += 1;
    }
    let Some(&to) = squares.last() else {
        return Err(unreadable());
    };
    let from = (squares.len() >= 2).then(|| squares[squares.len() - 2]);
    // The first piece word is the mover, unless it comes after the
    // destination (then it is the promotion piece).
    let role = if pieces.len() >= 2 {
        Some(pieces[0])
    } else {
        None
    }
    .or_else(|| {
        pieces
            .first()
            .copied()
            .filter(|_| !promotion_words_only(&parts))
    });
    let promotion = if pieces.len() >= 2 {
        Some(pieces[1])
    } else {
        pieces
            .first()
            .copied()
            .filter(|_| promotion_words_only(&parts))
    };

    let candidates: Vec<Move> = legal
        .iter()
        .filter(|m| m.to() == to)
        .filter(|m| {
            role.is_none_or(|r| m.role() == r)
                && (role.is_some() || m.role() == Role::Pawn || pieces.is_empty() && from.is_some())
        })
        .filter(|m| from.is_none_or(|f| m.from() == Some(f)))
        .filter(|m| lone_file.is_none_or(|f| m.from().is_some_and(|s| s.file() == f)))
        .filter(|m| lone_rank.is_none_or(|r| m.from().is_some_and(|s| s.rank() == r)))
        .filter(|m| match (m.promotion(), promotion) {
            (Some(p), Some(q)) => p == q,
            (None, Some(_)) => false,
            _ => true,
        })
        .copied()
        .collect();
    match candidates.as_slice() {
        [] => Err(MoveInputError::Illegal(text.to_owned())),
        [m] => Ok(*m),
        many if many.iter().all(|m| m.promotion().is_some()) => {
            // "e8" alone on the last rank: queen unless said otherwise.
            Ok(*many
                .iter()
                .find(|m| m.promotion() == Some(Role::Queen))
                .expect("queen promotion"))
        }
        _ => Err(MoveInputError::Ambiguous(text.to_owned())),
    }
}

/// True when the only piece word comes after a square: "eva acht dame".
fn promotion_words_only(parts: &[Part]) -> bool {
    let first_piece = parts.iter().position(|p| matches!(p, Part::Piece(_)));
    let first_square = parts
        .iter()
        .position(|p| matches!(p, Part::Square(_) | Part::File(_)));
    matches!((first_piece, first_square), (Some(p), Some(s)) if p > s)
}

#[cfg(test)]
mod castling_phrasings {
    use super::*;
    use crate::words::{Lang, Pack};
    use shakmaty::{Chess, Position};

    #[test]
    fn castling_is_understood_as_people_type_it() {
        let mut pos = Chess::default();
        for san in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"] {
            let mv = san
                .parse::<shakmaty::san::San>()
                .unwrap()
                .to_move(&pos)
                .unwrap();
            pos.play_unchecked(mv);
        }
        let packs = [
            Pack::bundled(Lang::En),
            Pack::bundled(Lang::De),
            Pack::bundled(Lang::Pt),
        ];
        for text in [
            "castles short",
            "Castle kingside",
            "O-O",
            "0-0",
            "kurze Rochade",
            "kleine Rochade",
            "roque pequeno",
            "roque menor",
        ] {
            let refs: Vec<&Pack> = packs.iter().collect();
            let mv = parse_move(&pos, text, Letters::En, &refs)
                .unwrap_or_else(|e| panic!("{text}: {e:?}"));
            assert!(
                matches!(mv, shakmaty::Move::Castle { .. }),
                "{text}: {mv:?}"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::Lang;

    fn packs() -> Vec<Pack> {
        Lang::ALL.iter().map(|&l| Pack::bundled(l)).collect()
    }

    fn parse(fen: Option<&str>, text: &str) -> Result<String, MoveInputError> {
        let pos: Chess = match fen {
            Some(f) => f
                .parse::<shakmaty::fen::Fen>()
                .unwrap()
                .into_position(shakmaty::CastlingMode::Standard)
                .unwrap(),
            None => Chess::default(),
        };
        let owned = packs();
        let refs: Vec<&Pack> = owned.iter().collect();
        parse_move(&pos, text, Letters::De, &refs)
            .map(|m| shakmaty::san::San::from_move(&pos, m).to_string())
    }

    #[test]
    fn reads_san_in_any_case_and_letters() {
        assert_eq!(parse(None, "Nf3").unwrap(), "Nf3");
        assert_eq!(parse(None, "nf3").unwrap(), "Nf3");
        assert_eq!(parse(None, "Sf3").unwrap(), "Nf3");
        assert_eq!(parse(None, "sf3").unwrap(), "Nf3");
        assert_eq!(parse(None, "e4").unwrap(), "e4");
        assert_eq!(parse(None, "E4").unwrap(), "e4");
    }

    #[test]
    fn reads_coordinates() {
        assert_eq!(parse(None, "g1f3").unwrap(), "Nf3");
        assert_eq!(
            parse(Some("8/4P3/8/8/8/8/k7/4K3 w - - 0 1"), "e7e8n").unwrap(),
            "e8=N"
        );
        assert!(matches!(
            parse(None, "e2e5"),
            Err(MoveInputError::Illegal(_))
        ));
    }

    #[test]
    fn reads_announcement_words() {
        assert_eq!(parse(None, "springer felix drei").unwrap(), "Nf3");
        assert_eq!(parse(None, "Springer Felix drei").unwrap(), "Nf3");
        assert_eq!(parse(None, "s f3").unwrap(), "Nf3");
        assert_eq!(parse(None, "eva vier").unwrap(), "e4");
        assert_eq!(parse(None, "bauer eva zwei eva vier").unwrap(), "e4");
        assert_eq!(parse(None, "cavalo felix tres").unwrap(), "Nf3");
        assert_eq!(parse(None, "knight felix three").unwrap(), "Nf3");
        assert_eq!(
            parse(None, "springer gustav eins felix drei").unwrap(),
            "Nf3"
        );
    }

    #[test]
    fn reads_castling_captures_and_promotion_words() {
        let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(parse(Some(castle), "kurze rochade").unwrap(), "O-O");
        assert_eq!(parse(Some(castle), "Lange Rochade").unwrap(), "O-O-O");
        assert_eq!(parse(Some(castle), "0-0").unwrap(), "O-O");
        let cap = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        assert_eq!(
            parse(Some(cap), "eva schlaegt david fuenf").unwrap(),
            "exd5"
        );
        assert_eq!(parse(Some(cap), "Eva schlägt David fünf").unwrap(), "exd5");
        let promo = "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1";
        assert_eq!(
            parse(Some(promo), "eva schlaegt david acht springer").unwrap(),
            "exd8=N"
        );
        assert_eq!(parse(Some(promo), "eva acht turm").unwrap(), "e8=R");
        assert_eq!(parse(Some(promo), "eva acht").unwrap(), "e8=Q");
    }

    #[test]
    fn errors_say_what_went_wrong() {
        assert!(matches!(
            parse(None, "hello world"),
            Err(MoveInputError::Unreadable(_))
        ));
        assert!(matches!(
            parse(None, "Nf4"),
            Err(MoveInputError::Illegal(_))
        ));
        assert!(matches!(
            parse(None, ""),
            Err(MoveInputError::Unreadable(_))
        ));
        let two_knights = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
        assert!(matches!(
            parse(Some(two_knights), "springer david zwei"),
            Err(MoveInputError::Ambiguous(_))
        ));
        assert_eq!(
            parse(Some(two_knights), "springer bella david zwei").unwrap(),
            "Nbd2"
        );
    }
}

#[cfg(test)]
mod piece_letters_of_each_language {
    use super::*;
    use crate::words::Lang;

    fn position(moves: &[&str]) -> Chess {
        let mut pos = Chess::default();
        for san in moves {
            let mv = san
                .parse::<shakmaty::san::San>()
                .unwrap()
                .to_move(&pos)
                .unwrap();
            pos.play_unchecked(mv);
        }
        pos
    }

    fn fen(fen: &str) -> Chess {
        fen.parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap()
    }

    /// The move `text` reads as, in English SAN, with the chosen letters
    /// and the announcement language.
    fn read(
        pos: &Chess,
        text: &str,
        chosen: Letters,
        lang: Lang,
    ) -> Result<String, MoveInputError> {
        parse_move(pos, text, PieceLetters::new(chosen, lang), &[])
            .map(|m| shakmaty::san::San::from_move(pos, m).to_string())
    }

    /// Each (position, typed, chosen letters, announcement language, the
    /// move in English SAN).
    fn expect_all(cases: &[(&Chess, &str, Letters, Lang, &str)]) {
        for &(pos, typed, chosen, lang, meant) in cases {
            assert_eq!(
                read(pos, typed, chosen, lang).as_deref(),
                Ok(meant),
                "{typed} with {chosen} letters and {lang:?} words"
            );
        }
    }

    #[test]
    fn german_announcements_accept_german_letters_with_english_ones() {
        use {Lang::De, Letters::En as EnL};
        let start = Chess::default();
        let open = position(&["e4", "e5"]);
        // A rook: T in German, R in English.
        let rooks = fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let promo = fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
        expect_all(&[
            (&start, "Sf3", EnL, De, "Nf3"),
            (&start, "sf3", EnL, De, "Nf3"),
            (&start, "Nf3", EnL, De, "Nf3"),
            (&start, "e4", EnL, De, "e4"),
            (&open, "Lc4", EnL, De, "Bc4"),
            (&open, "lc4", EnL, De, "Bc4"),
            (&open, "Bc4", EnL, De, "Bc4"),
            (&open, "Dh5", EnL, De, "Qh5"),
            (&open, "Qh5", EnL, De, "Qh5"),
            (&open, "Ke2", EnL, De, "Ke2"),
            // German letters chosen.
            (&open, "Lc4", Letters::De, De, "Bc4"),
            (&start, "Sf3", Letters::De, Lang::En, "Nf3"),
            (&rooks, "Td1", EnL, De, "Rd1"),
            (&rooks, "Rd1", EnL, De, "Rd1"),
            // Promotion to a Dame, a Springer.
            (&promo, "e8=D", EnL, De, "e8=Q"),
            (&promo, "e8S", EnL, De, "e8=N"),
            (&promo, "e8=s", EnL, De, "e8=N"),
        ]);
    }

    #[test]
    fn portuguese_announcements_accept_portuguese_letters() {
        use {Lang::Pt, Letters::En as EnL, Letters::Pt as PtL};
        let start = Chess::default();
        let open = position(&["e4", "e5"]);
        let rooks = fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let promo = fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
        expect_all(&[
            (&start, "Cf3", EnL, Pt, "Nf3"),
            (&start, "Cf3", PtL, Pt, "Nf3"),
            (&start, "Nf3", PtL, Pt, "Nf3"),
            (&open, "Bc4", EnL, Pt, "Bc4"),
            (&open, "Dh5", EnL, Pt, "Qh5"),
            // R is the king (Rei) with Portuguese letters chosen.
            (&open, "Re2", PtL, Pt, "Ke2"),
            (&rooks, "Td1", PtL, Pt, "Rd1"),
            (&rooks, "Td1", EnL, Pt, "Rd1"),
            // P: a pawn, when written.
            (&start, "Pe4", PtL, Pt, "e4"),
            (&promo, "e8=C", PtL, Pt, "e8=N"),
            (&promo, "e8=T", EnL, Pt, "e8=R"),
        ]);
    }

    #[test]
    fn a_lower_case_file_letter_is_a_file_never_a_piece() {
        // German D (Dame) and the d-file: dxe5 is the pawn, Dxe5 the queen.
        let both = fen("4k3/8/8/4p3/3P4/8/7Q/4K3 w - - 0 1");
        assert_eq!(read(&both, "dxe5", Letters::De, Lang::De).unwrap(), "dxe5");
        assert_eq!(read(&both, "Dxe5", Letters::De, Lang::De).unwrap(), "Qxe5");
        assert_eq!(read(&both, "Dxe5", Letters::En, Lang::De).unwrap(), "Qxe5");
        // Dd1: the queen goes to the d-file's first square.
        let queen = fen("4k3/8/8/8/8/8/8/K6Q w - - 0 1");
        assert_eq!(read(&queen, "Dd1", Letters::En, Lang::De).unwrap(), "Qd1");
        assert!(
            read(&queen, "dd1", Letters::En, Lang::De).is_err(),
            "dd1 is no queen move"
        );
        // Portuguese B (Bispo) and the b-file: b4 is the pawn; bxc4 the
        // pawn's capture, never the bishop's, even where only the bishop
        // could take.
        let start = Chess::default();
        assert_eq!(read(&start, "b4", Letters::Pt, Lang::Pt).unwrap(), "b4");
        let takes = fen("4k3/8/8/8/2p5/1P1B4/8/4K3 w - - 0 1");
        assert_eq!(read(&takes, "bxc4", Letters::Pt, Lang::Pt).unwrap(), "bxc4");
        assert_eq!(read(&takes, "Bxc4", Letters::Pt, Lang::Pt).unwrap(), "Bxc4");
        let no_pawn = fen("4k3/8/8/8/2p5/3B4/8/4K3 w - - 0 1");
        assert!(
            read(&no_pawn, "bxc4", Letters::En, Lang::En).is_err(),
            "bxc4 with no pawn on b3 is refused, not the bishop's capture"
        );
        // Portuguese C (Cavalo) and the c-file.
        assert_eq!(read(&start, "c4", Letters::En, Lang::Pt).unwrap(), "c4");
        assert!(read(&start, "cf3", Letters::En, Lang::Pt).is_err());
    }

    #[test]
    fn a_letter_naming_two_pieces_is_refused_when_both_could_move() {
        // English letters chosen, Portuguese announcements: R is a rook in
        // one and the king (Rei) in the other.
        let both = fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        // Ra1-d1 and Ke1-d1 both legal: refused, never guessed.
        assert!(matches!(
            read(&both, "Rd1", Letters::En, Lang::Pt),
            Err(MoveInputError::Ambiguous(_))
        ));
        // Only one of them legal: that one.
        assert_eq!(read(&both, "Rb1", Letters::En, Lang::Pt).unwrap(), "Rb1");
        assert_eq!(read(&both, "Re2", Letters::En, Lang::Pt).unwrap(), "Ke2");
        // With one set of letters, R names one piece.
        assert_eq!(read(&both, "Rd1", Letters::En, Lang::En).unwrap(), "Rd1");
        assert_eq!(read(&both, "Rd1", Letters::Pt, Lang::Pt).unwrap(), "Kd1");
        // German letters chosen: B is a pawn (Bauer); with English letters
        // chosen and German announcements, B stays the bishop.
        let open = position(&["e4", "e5"]);
        assert_eq!(read(&open, "Bc4", Letters::En, Lang::De).unwrap(), "Bc4");
        assert_eq!(read(&open, "Bd4", Letters::De, Lang::De).unwrap(), "d4");
        // German letters chosen, English announcements: B is the pawn and
        // the bishop; where both reach the square, refused.
        let italian = position(&["e4", "e5", "Nf3", "Nc6"]);
        assert!(matches!(
            read(&italian, "Bc4", Letters::De, Lang::En),
            Err(MoveInputError::Ambiguous(_))
        ));
        // No German piece is a B: a promotion to "B" is no bishop there.
        let promo = fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
        assert!(read(&promo, "e8=B", Letters::De, Lang::De).is_err());
        assert_eq!(read(&promo, "e8=L", Letters::De, Lang::De).unwrap(), "e8=B");
    }
}
