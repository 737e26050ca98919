//! Which full-position e-board is on the line.

/// A full-position e-board, by make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// DGT e-board (serial, USB or Bluetooth classic).
    Dgt,
    /// Millennium ChessLink (eONE, Exclusive, Supreme Tournament 55; USB
    /// serial).
    Millennium,
    /// Certabo (USB serial, an RFID chip in every piece).
    Certabo,
    /// Chessnut Air, Air+, Pro or Go (Bluetooth LE).
    Chessnut,
    /// DGT Pegasus (Bluetooth LE): a sensor under each square, no piece
    /// recognition; followed as an occupancy board.
    Pegasus,
}

/// A board name that is no e-board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownKind(pub String);

impl std::fmt::Display for UnknownKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown e-board {:?}", self.0)
    }
}

impl std::error::Error for UnknownKind {}

impl Kind {
    /// Every kind, in the order the settings list them.
    pub const ALL: [Kind; 5] = [
        Kind::Dgt,
        Kind::Millennium,
        Kind::Certabo,
        Kind::Chessnut,
        Kind::Pegasus,
    ];

    /// A board that tells only which squares are occupied (the Pegasus):
    /// followed by the peg-board's tracker, not the recognizer.
    pub fn occupancy_only(self) -> bool {
        matches!(self, Kind::Pegasus)
    }

    /// The name on the command line and in a board log's header.
    pub fn code(self) -> &'static str {
        match self {
            Kind::Dgt => "dgt",
            Kind::Millennium => "millennium",
            Kind::Certabo => "certabo",
            Kind::Chessnut => "chessnut",
            Kind::Pegasus => "pegasus",
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

impl std::str::FromStr for Kind {
    type Err = UnknownKind;

    fn from_str(s: &str) -> Result<Kind, UnknownKind> {
        Kind::ALL
            .into_iter()
            .find(|k| k.code().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownKind(s.to_owned()))
    }
}
