//! Settings: what the user chose in the settings dialog, kept as TOML in
//! `settings.toml` in the platform config folder ([`crate::paths::config_dir`])
//! and restored at start.
//!
//! Loading never fails. A missing file gives the defaults. A file this
//! version cannot read (a syntax error, or a value it does not know, such as
//! an unknown language) keeps every value that *can* be read, falls back to
//! the defaults for the rest, says so in [`LoadOutcome::warning`] (naming the
//! file and the line), and copies the file to `settings.toml.bad-<time>`
//! first, so the next save cannot destroy what the user wrote. Every struct
//! is `#[serde(default)]`, so a file from an older version with fewer keys
//! loads without a word.

use std::str::FromStr;

use serde::{Deserialize, Serialize};
use shakmaty::{Color, Role};

use crate::announce::AnnounceForm;
use crate::board::{Format, TrackerConfig};
use crate::chess::Letters;
use crate::clock::TimeControl;
use crate::session::{Earcon, Mode};
use crate::speech::{BackendChoice, SpeechMode, VoiceSettings};
use crate::words::Lang;

mod boards;
mod load;
mod to_core;

pub use boards::{AUTO_PORT, BoardChoice, BoardOrientation, is_auto};
pub use load::LoadOutcome;

/// The settings file's name inside the config folder.
pub const FILE_NAME: &str = "settings.toml";

/// Everything the settings dialog stores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Language of menus, labels and help (pt-BR, en, de).
    #[serde(with = "lang_code")]
    pub interface_language: Lang,
    pub speech: SpeechSettings,
    /// Which short sounds play.
    pub earcons: Earcons,
    pub board: BoardSettings,
    pub game: GameSettings,
    pub display: DisplaySettings,
    /// How the Braille scoresheet is exported (Ctrl+E).
    pub braille: BrailleSettings,
    /// Practice against a computer opponent.
    pub engine: EngineSettings,
    /// Online play (Lichess Board API); the token is never here.
    pub online: OnlineSettings,
}

/// Announcements and the voice that speaks them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SpeechSettings {
    /// Language of the announcements (may differ from the interface: a
    /// Brazilian player may want the German words of Appendix E).
    #[serde(with = "lang_code")]
    pub language: Lang,
    /// Short ("Springer f3") or long ("Springer g1 f3") form.
    pub form: AnnounceForm,
    pub backend: SpeechBackend,
    /// Who speaks: the app's voice, the screen reader, or both. Applies at
    /// once.
    pub mode: SpeechMode,
    /// A system voice name; none picks the best voice for the language.
    pub voice: Option<String>,
    /// 0.0 ..= 1.0, 0.5 is the engine's normal rate.
    pub rate: f32,
    /// 0.0 ..= 1.0.
    pub volume: f32,
    /// 0.0 ..= 1.0, 0.5 is the engine's normal pitch.
    pub pitch: f32,
    /// Say which piece was lifted from the peg-board.
    pub announce_touched: bool,
    /// Speak low-time warnings (the earcon sounds either way).
    pub speak_low_time: bool,
    /// The app has asked once whether a running screen reader should
    /// speak instead (asked again never, whatever the answer).
    pub screen_reader_offered: bool,
    /// Moves and commands said into the microphone (the window).
    pub voice_input: VoiceInputMode,
    /// A move heard is asked first ("Springer f3? Yes or no").
    pub confirm_spoken_moves: bool,
}

/// When the window listens to the microphone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VoiceInputMode {
    /// The microphone stays closed.
    #[default]
    Off,
    /// Heard only while Ctrl+Space is held.
    PushToTalk,
    /// Always, except while Rochade speaks; a pause ends an utterance.
    Continuous,
}

impl VoiceInputMode {
    pub const ALL: [VoiceInputMode; 3] = [
        VoiceInputMode::Off,
        VoiceInputMode::PushToTalk,
        VoiceInputMode::Continuous,
    ];

    /// The key of its words in the interface texts (`voice_input_<code>`).
    pub fn code(self) -> &'static str {
        match self {
            VoiceInputMode::Off => "off",
            VoiceInputMode::PushToTalk => "push_to_talk",
            VoiceInputMode::Continuous => "continuous",
        }
    }
}

impl Default for SpeechSettings {
    fn default() -> SpeechSettings {
        let voice = VoiceSettings::default();
        SpeechSettings {
            language: Lang::De,
            form: AnnounceForm::Short,
            backend: SpeechBackend::Auto,
            mode: SpeechMode::SelfVoicing,
            voice: None,
            rate: voice.rate,
            volume: voice.volume,
            pitch: voice.pitch,
            announce_touched: true,
            speak_low_time: true,
            screen_reader_offered: false,
            voice_input: VoiceInputMode::Off,
            confirm_spoken_moves: false,
        }
    }
}

/// Which speech backend to use (the stored form of
/// [`crate::speech::BackendChoice`], without the test-only recorder).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[derive(strum::Display, strum::IntoStaticStr)]
#[strum(serialize_all = "lowercase")]
#[derive(strum::EnumCount, strum::VariantArray)]
pub enum SpeechBackend {
    /// System speech if it has a voice for the language, else the clips.
    #[default]
    Auto,
    /// speech-dispatcher / SAPI / AVSpeech.
    System,
    /// The recorded clip voice shipped with the app.
    Clips,
    /// No speech at all (a screen reader or Braille display reads the
    /// live region instead).
    Silent,
}

impl SpeechBackend {
    /// Every variant, in declaration order (derived, so none is left out).
    pub const ALL: [SpeechBackend; <SpeechBackend as strum::EnumCount>::COUNT] =
        *<SpeechBackend as strum::VariantArray>::VARIANTS
            .first_chunk()
            .expect("every variant");

    pub fn code(self) -> &'static str {
        self.into()
    }

    pub fn choice(self) -> BackendChoice {
        match self {
            SpeechBackend::Auto => BackendChoice::Auto,
            SpeechBackend::System => BackendChoice::System,
            SpeechBackend::Clips => BackendChoice::Clips,
            SpeechBackend::Silent => BackendChoice::Silent,
        }
    }
}

impl FromStr for SpeechBackend {
    type Err = crate::speech::UnknownBackend;
    fn from_str(s: &str) -> Result<SpeechBackend, Self::Err> {
        // One spelling list for the command line and the settings file.
        match s.parse::<BackendChoice>()? {
            BackendChoice::System => Ok(SpeechBackend::System),
            BackendChoice::Clips => Ok(SpeechBackend::Clips),
            BackendChoice::Silent => Ok(SpeechBackend::Silent),
            _ => Ok(SpeechBackend::Auto),
        }
    }
}

/// One switch per earcon ([`Earcon::ALL`]); all on by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Earcons {
    pub touched: bool,
    pub move_accepted: bool,
    pub illegal: bool,
    pub mismatch: bool,
    pub in_sync: bool,
    pub link_lost: bool,
    pub link_restored: bool,
    pub low_time: bool,
    pub flag_fall: bool,
}

impl Default for Earcons {
    fn default() -> Earcons {
        Earcons {
            touched: true,
            move_accepted: true,
            illegal: true,
            mismatch: true,
            in_sync: true,
            link_lost: true,
            link_restored: true,
            low_time: true,
            flag_fall: true,
        }
    }
}

impl Earcons {
    fn slot(&mut self, earcon: Earcon) -> &mut bool {
        match earcon {
            Earcon::Touched => &mut self.touched,
            Earcon::MoveAccepted => &mut self.move_accepted,
            Earcon::Illegal => &mut self.illegal,
            Earcon::Mismatch => &mut self.mismatch,
            Earcon::InSync => &mut self.in_sync,
            Earcon::LinkLost => &mut self.link_lost,
            Earcon::LinkRestored => &mut self.link_restored,
            Earcon::LowTime => &mut self.low_time,
            Earcon::FlagFall => &mut self.flag_fall,
        }
    }

    /// Whether this earcon should sound.
    pub fn enabled(&self, earcon: Earcon) -> bool {
        *self.clone().slot(earcon)
    }

    pub fn set(&mut self, earcon: Earcon, on: bool) {
        *self.slot(earcon) = on;
    }
}

/// The peg-board link.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BoardSettings {
    /// Serial port ("/dev/ttyUSB0", "COM3"); none means no board (or the
    /// simulated board).
    pub port: Option<String>,
    pub format: Format,
    /// Baud rate; none uses the format's own ([`Format::default_baud`]).
    pub baud: Option<u32>,
    /// A board state must last this long before it counts (glitch filter).
    pub settle_ms: u64,
    /// How long a board that matches no legal move waits before guidance.
    pub mismatch_ms: u64,
    /// The piece a pawn promotes to when the player does not show one.
    pub promotion: Promotion,
    /// The sighted player's e-board (a DGT board) port; none means the
    /// sighted player's moves are typed.
    pub sighted_port: Option<String>,
    /// The player's own board (at `port`); none, as in files from before
    /// the choice: the peg-board in `format` ([`BoardSettings::my_board`]).
    pub mine: Option<BoardChoice>,
    /// The opponent's board (at `sighted_port`); none, as in files from
    /// before the choice: a DGT board when `sighted_port` is set.
    pub opponent: Option<BoardChoice>,
    /// Which way round the player's own e-board lies (a board that knows
    /// its pieces).
    pub orientation: BoardOrientation,
}

impl Default for BoardSettings {
    fn default() -> BoardSettings {
        let tracker = TrackerConfig::default();
        BoardSettings {
            port: None,
            format: Format::Peg,
            baud: None,
            settle_ms: tracker.settle_ms,
            mismatch_ms: tracker.mismatch_ms,
            promotion: Promotion::Queen,
            sighted_port: None,
            mine: None,
            opponent: None,
            orientation: BoardOrientation::Auto,
        }
    }
}

impl BoardSettings {
    /// The baud rate to open the port with.
    pub fn baud(&self) -> u32 {
        self.baud.unwrap_or_else(|| self.format.default_baud())
    }
}

/// A promotion piece.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[derive(strum::EnumCount, strum::VariantArray)]
pub enum Promotion {
    #[default]
    Queen,
    Rook,
    Bishop,
    Knight,
}

impl Promotion {
    /// Every variant, in declaration order (derived, so none is left out).
    pub const ALL: [Promotion; <Promotion as strum::EnumCount>::COUNT] =
        *<Promotion as strum::VariantArray>::VARIANTS
            .first_chunk()
            .expect("every variant");

    pub fn role(self) -> Role {
        match self {
            Promotion::Queen => Role::Queen,
            Promotion::Rook => Role::Rook,
            Promotion::Bishop => Role::Bishop,
            Promotion::Knight => Role::Knight,
        }
    }
}

/// A side of the board, as stored in the settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    #[default]
    White,
    Black,
}

impl Side {
    pub fn color(self) -> Color {
        match self {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }

    pub fn from_color(color: Color) -> Side {
        match color {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

/// How the next game is played and what goes on its scoresheet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GameSettings {
    pub mode: Mode,
    /// The visually impaired player's colour (his board is the peg-board).
    pub blind_side: Side,
    /// PGN `TimeControl` ("5400+30", "40/7200:1800+30", "-" for none).
    /// Checked when the file is read: a value the clock cannot run is
    /// reported and replaced by the default.
    #[serde(deserialize_with = "valid_time_control")]
    pub time_control: String,
    /// Low-time warnings, in seconds left.
    pub low_time_seconds: Vec<u64>,
    /// Piece letters on the scoresheet and for typed moves.
    pub letters: Letters,
    pub white: String,
    pub black: String,
    pub event: String,
    pub site: String,
    pub round: String,
    /// The board number in a team or a tournament hall.
    pub board_number: String,
    /// The Lichess broadcast round the game is pushed to after every move
    /// (its id or address; empty: none).
    pub broadcast_round: String,
    /// The folder of the last game opened for review (empty: none yet).
    pub review_folder: String,
}

impl Default for GameSettings {
    fn default() -> GameSettings {
        GameSettings {
            mode: Mode::Practice,
            blind_side: Side::White,
            time_control: "-".into(),
            low_time_seconds: crate::clock::DEFAULT_LOW_TIME_MS
                .iter()
                .map(|ms| ms / 1000)
                .collect(),
            letters: Letters::En,
            white: String::new(),
            black: String::new(),
            event: String::new(),
            site: String::new(),
            round: String::new(),
            board_number: String::new(),
            broadcast_round: String::new(),
            review_folder: String::new(),
        }
    }
}

/// The Braille scoresheet's options (the same as `rochade export`'s).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct BrailleSettings {
    /// A first page listing the signs used.
    pub legend: bool,
    /// A diagram of a set-up starting position, besides its piece list.
    pub diagram: bool,
    /// Minimal coding: no capture or check signs (a player's own score).
    pub minimal: bool,
    /// Contracted literary Braille in the header.
    pub contracted: bool,
}

impl Default for BrailleSettings {
    fn default() -> BrailleSettings {
        BrailleSettings {
            legend: true,
            diagram: false,
            minimal: false,
            contracted: false,
        }
    }
}

impl BrailleSettings {
    /// These choices as export options, with the sheet's letters and language.
    pub fn export_options(self, letters: Letters, lang: Lang) -> crate::export::ExportOptions {
        crate::export::ExportOptions {
            letters,
            lang,
            grade: if self.contracted {
                crate::export::Grade::Contracted
            } else {
                crate::export::Grade::Uncontracted
            },
            coding: if self.minimal {
                crate::braille::Coding::Minimal
            } else {
                crate::braille::Coding::Full
            },
            legend: self.legend,
            diagram: self.diagram,
            ..crate::export::ExportOptions::default()
        }
    }
}

/// Practice against a computer opponent (a UCI engine, see
/// `docs/practice.md`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EngineSettings {
    /// In practice mode the computer plays the colour the player does not.
    pub opponent: bool,
    pub level: crate::engine::Level,
    /// The UCI engine program.
    pub path: String,
    /// The computer's move is never played sooner than this after the
    /// player's move, in milliseconds (0: at once).
    pub pause_ms: u64,
}

/// How a game online is found, as last chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OnlineFind {
    /// Against Lichess's AI at [`OnlineSettings::ai_level`].
    #[default]
    Ai,
    /// A casual game with anyone, at [`OnlineSettings::time_control`].
    Seek,
    /// A challenge to [`OnlineSettings::opponent`].
    Challenge,
    /// Wait for a challenge (said, answered yes or no) or a game started
    /// elsewhere.
    Wait,
}

/// Online play (`docs/online.md`). The token lives in the system's secret
/// store (or a file only the user reads), never in the settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct OnlineSettings {
    /// The server's address: any server with the Lichess Board API.
    pub server: String,
    pub find: OnlineFind,
    /// Lichess AI level, 1-8.
    pub ai_level: u8,
    /// `MINUTES+INCREMENT` for seeks, challenges and AI games.
    pub time_control: String,
    /// The player to challenge.
    pub opponent: String,
    /// Ask "Resign? Yes or no" (and the same for a draw offer) before
    /// sending it.
    pub confirm: bool,
}

impl Default for OnlineSettings {
    fn default() -> OnlineSettings {
        OnlineSettings {
            server: crate::online::DEFAULT_SERVER.into(),
            find: OnlineFind::default(),
            ai_level: 2,
            time_control: "10+5".into(),
            opponent: String::new(),
            confirm: true,
        }
    }
}

impl Default for EngineSettings {
    fn default() -> EngineSettings {
        EngineSettings {
            opponent: false,
            level: crate::engine::Level::default(),
            path: crate::engine::DEFAULT_ENGINE_PATH.into(),
            pause_ms: 800,
        }
    }
}

/// How the window looks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DisplaySettings {
    pub theme: Theme,
    /// UI zoom factor (1.0 = the system's size).
    pub scale: f32,
    /// Pieces as letters in discs instead of Staunton shapes.
    pub letter_discs: bool,
    /// Each square's name written large on the board.
    pub big_coordinates: bool,
}

impl Default for DisplaySettings {
    fn default() -> DisplaySettings {
        DisplaySettings {
            theme: Theme::DarkHighContrast,
            scale: 1.0,
            letter_discs: false,
            big_coordinates: false,
        }
    }
}

impl DisplaySettings {
    /// The zoom factor, kept in a range that still fits a window.
    pub fn scale(&self) -> f32 {
        if self.scale.is_finite() {
            self.scale.clamp(MIN_SCALE, MAX_SCALE)
        } else {
            1.0
        }
    }
}

pub const MIN_SCALE: f32 = 0.5;
pub const MAX_SCALE: f32 = 4.0;

/// Colour themes, each named for what it shows; all have high contrast
/// (text 7:1, board graphics 3:1; see `app::palette`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[derive(strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
#[derive(strum::EnumCount, strum::VariantArray)]
pub enum Theme {
    /// White on black ("White on black" in the settings).
    #[default]
    DarkHighContrast,
    /// Black on white ("Black on white").
    LightHighContrast,
    /// Yellow on black, which many low-vision readers prefer.
    YellowOnBlack,
}

impl Theme {
    /// Every variant, in declaration order (derived, so none is left out).
    pub const ALL: [Theme; <Theme as strum::EnumCount>::COUNT] =
        *<Theme as strum::VariantArray>::VARIANTS
            .first_chunk()
            .expect("every variant");

    pub fn code(self) -> &'static str {
        self.into()
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            interface_language: Lang::En,
            speech: SpeechSettings::default(),
            earcons: Earcons::default(),
            board: BoardSettings::default(),
            game: GameSettings::default(),
            display: DisplaySettings::default(),
            braille: BrailleSettings::default(),
            engine: EngineSettings::default(),
            online: OnlineSettings::default(),
        }
    }
}

fn valid_time_control<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let text = String::deserialize(d)?;
    let text = text.trim();
    let text = if text.is_empty() { "-" } else { text };
    text.parse::<TimeControl>()
        .map_err(serde::de::Error::custom)?;
    Ok(text.to_owned())
}

/// Languages as their codes ("de", "pt", "en"); any spelling
/// [`Lang::from_str`] knows ("pt-BR", "Deutsch") is read.
mod lang_code {
    use super::Lang;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(lang: &Lang, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(lang.code())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Lang, D::Error> {
        let text = String::deserialize(d)?;
        text.trim().parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests;
