//! Piece letters per language for algebraic notation (Appendix C allows the
//! player's own language's letters).

use serde::{Deserialize, Serialize};
use shakmaty::Role;

/// Which letters name the pieces in SAN.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[derive(strum::Display, strum::EnumString, strum::IntoStaticStr)]
#[strum(ascii_case_insensitive, parse_err_ty = UnknownLetters, parse_err_fn = unknown_letters)]
#[derive(strum::EnumCount, strum::VariantArray)]
pub enum Letters {
    /// K Q R B N.
    #[default]
    #[strum(to_string = "en", serialize = "uk", serialize = "english")]
    En,
    /// K D T L S (Koenig, Dame, Turm, Laeufer, Springer).
    #[strum(to_string = "de", serialize = "german")]
    De,
    /// R D T B C (Rei, Dama, Torre, Bispo, Cavalo).
    #[strum(to_string = "pt", serialize = "pt-br", serialize = "portuguese")]
    Pt,
}

/// A name of piece letters that names none (the name, in lower case).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown piece letters '{0}' (use en, de or pt)")]
pub struct UnknownLetters(pub String);

fn unknown_letters(s: &str) -> UnknownLetters {
    UnknownLetters(s.to_ascii_lowercase())
}

impl Letters {
    /// Every variant, in declaration order (derived, so none is left out).
    pub const ALL: [Letters; <Letters as strum::EnumCount>::COUNT] =
        *<Letters as strum::VariantArray>::VARIANTS
            .first_chunk()
            .expect("every variant");

    pub fn code(self) -> &'static str {
        self.into()
    }

    /// The letter for a piece; pawns have none in SAN.
    pub fn letter(self, role: Role) -> Option<char> {
        let [k, q, r, b, n] = match self {
            Letters::En => ['K', 'Q', 'R', 'B', 'N'],
            Letters::De => ['K', 'D', 'T', 'L', 'S'],
            Letters::Pt => ['R', 'D', 'T', 'B', 'C'],
        };
        match role {
            Role::King => Some(k),
            Role::Queen => Some(q),
            Role::Rook => Some(r),
            Role::Bishop => Some(b),
            Role::Knight => Some(n),
            Role::Pawn => None,
        }
    }

    /// The piece an upper-case letter names in these letters.
    pub fn role(self, letter: char) -> Option<Role> {
        [
            Role::King,
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
        ]
        .into_iter()
        .find(|&role| self.letter(role) == Some(letter))
    }

    /// Rewrites English SAN ("Nxf7+", "e8=Q", "O-O") into these letters.
    /// Upper-case letters in SAN are always piece letters (files are lower
    /// case, castling is written with the letter O), so a per-character map
    /// is exact.
    pub fn localise_san(self, san: &str) -> String {
        if self == Letters::En {
            return san.to_owned();
        }
        san.chars()
            .map(|c| match c {
                'O' => 'O',
                c if c.is_ascii_uppercase() => Letters::En
                    .role(c)
                    .and_then(|role| self.letter(role))
                    .unwrap_or(c),
                c => c,
            })
            .collect()
    }

    /// Rewrites SAN in these letters into English SAN, for parsing.
    pub fn to_english_san(self, san: &str) -> String {
        if self == Letters::En {
            return san.to_owned();
        }
        san.chars()
            .map(|c| match c {
                'O' => 'O',
                c if c.is_ascii_uppercase() => {
                    self.role(c).map(|role| role.upper_char()).unwrap_or(c)
                }
                c => c,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn localises_every_piece_letter() {
        assert_eq!(Letters::De.localise_san("Nxf7+"), "Sxf7+");
        assert_eq!(Letters::De.localise_san("Bb5"), "Lb5");
        assert_eq!(Letters::De.localise_san("e8=Q#"), "e8=D#");
        assert_eq!(Letters::Pt.localise_san("Kxe2"), "Rxe2");
        assert_eq!(Letters::Pt.localise_san("Rd1"), "Td1");
        assert_eq!(Letters::Pt.localise_san("Nc3"), "Cc3");
        assert_eq!(Letters::Pt.localise_san("O-O-O"), "O-O-O");
        assert_eq!(Letters::En.localise_san("Qh4e1"), "Qh4e1");
    }

    #[test]
    fn round_trips_through_english() {
        for letters in Letters::ALL {
            for san in ["Nbd7", "R1e2", "Qh4e1", "exd8=N+", "O-O", "Kxh2", "Bxc6#"] {
                assert_eq!(
                    letters.to_english_san(&letters.localise_san(san)),
                    san,
                    "{letters}"
                );
            }
        }
    }
}
