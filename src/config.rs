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

use std::io;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use shakmaty::{Color, Role};

use crate::announce::AnnounceForm;
use crate::board::{Format, TrackerConfig};
use crate::chess::{Letters, Tags};
use crate::clock::TimeControl;
use crate::session::{Earcon, Mode, SessionConfig};
use crate::speech::{BackendChoice, SpeechConfig, SpeechMode, VoiceSettings};
use crate::words::Lang;

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
}

impl Default for OnlineSettings {
    fn default() -> OnlineSettings {
        OnlineSettings {
            server: crate::online::DEFAULT_SERVER.into(),
            find: OnlineFind::default(),
            ai_level: 2,
            time_control: "10+5".into(),
            opponent: String::new(),
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

/// The result of [`Settings::load`]: always usable settings, and a message
/// for the user when the file could not be used as it was.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadOutcome {
    pub settings: Settings,
    /// What went wrong, which file, which line, and where the copy is.
    pub warning: Option<String>,
    /// The copy of a file that could not be read fully.
    pub kept_copy: Option<PathBuf>,
}

impl Settings {
    /// `<config dir>/settings.toml`; none when the platform has no home.
    pub fn path() -> Option<PathBuf> {
        crate::paths::config_dir().map(|d| d.join(FILE_NAME))
    }

    /// Loads the user's settings (see the module documentation).
    pub fn load() -> LoadOutcome {
        match Settings::path() {
            Some(path) => Settings::load_from(&path),
            None => LoadOutcome {
                settings: Settings::default(),
                warning: Some("No config folder on this system: settings will not be kept.".into()),
                kept_copy: None,
            },
        }
    }

    /// Loads settings from a file (see the module documentation).
    pub fn load_from(path: &Path) -> LoadOutcome {
        // Only a regular file of a sensible size (a FIFO or a link to a
        // device is refused at once, never waited on or read for ever).
        let bytes = match crate::read_capped::read_capped(path, crate::read_capped::SETTINGS_CAP) {
            Ok(bytes) => bytes,
            Err(e) if e.is_not_found() => {
                return LoadOutcome {
                    settings: Settings::default(),
                    warning: None,
                    kept_copy: None,
                };
            }
            Err(e) => {
                return LoadOutcome {
                    settings: Settings::default(),
                    warning: Some(format!(
                        "Could not read the settings file {}: {e}. Using the default settings; \
                         the file is left as it is.",
                        path.display()
                    )),
                    kept_copy: None,
                };
            }
        };
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                let (line, column) =
                    crate::text::line_column(e.as_bytes(), e.utf8_error().valid_up_to());
                let problem = format!("it is not UTF-8 text (line {line}, column {column})");
                return fall_back(path, Settings::default(), &problem);
            }
        };
        // Fast path: the whole file is fine.
        let first_error = match toml::from_str::<Settings>(&text) {
            Ok(settings) => {
                return LoadOutcome {
                    settings,
                    warning: None,
                    kept_copy: None,
                };
            }
            Err(e) => e,
        };
        let table = match text.parse::<toml::Table>() {
            Ok(table) => table,
            // A syntax error: nothing in the file can be trusted.
            Err(e) => return fall_back(path, Settings::default(), &describe_toml_error(&text, &e)),
        };
        let (settings, rejected) = salvage(&table);
        let problem = if rejected.is_empty() {
            // Not expected: every value alone was fine. Report what serde said.
            describe_toml_error(&text, &first_error)
        } else {
            let listed: Vec<String> = rejected
                .iter()
                .map(|r| match line_of_key(&text, &r.path) {
                    Some(line) => format!("line {line}: {}", r.text),
                    None => r.text.clone(),
                })
                .collect();
            format!(
                "these values were replaced by the defaults, all others were kept: {}",
                listed.join("; ")
            )
        };
        fall_back(path, settings, &problem)
    }

    /// Saves to `<config dir>/settings.toml` and returns the path.
    pub fn save(&self) -> io::Result<PathBuf> {
        let path = Settings::path().ok_or_else(|| {
            io::Error::new(io::ErrorKind::NotFound, "no config folder on this system")
        })?;
        self.save_to(&path)?;
        Ok(path)
    }

    /// Writes the file atomically: a crash leaves the old or the new file,
    /// never half of one.
    pub fn save_to(&self, path: &Path) -> io::Result<()> {
        let text = self.to_toml();
        crate::storage::write_atomically(path, text.as_bytes())
    }

    /// The settings as the TOML saved to disk.
    pub fn to_toml(&self) -> String {
        let body = toml::to_string_pretty(self).expect("settings always serialise to TOML");
        format!(
            "# Rochade settings. Edit with care; the app rewrites this file when\n\
             # settings change. Unknown values are reported and replaced by defaults.\n\n{body}"
        )
    }

    /// The time control of the next game (always valid: checked on load).
    pub fn time_control(&self) -> TimeControl {
        self.game
            .time_control
            .parse()
            .unwrap_or(TimeControl::Untimed)
    }

    /// The low-time warning thresholds in milliseconds, largest first.
    pub fn low_time_ms(&self) -> Vec<u64> {
        let mut ms: Vec<u64> = self
            .game
            .low_time_seconds
            .iter()
            .map(|s| s.saturating_mul(1000))
            .collect();
        ms.sort_unstable_by(|a, b| b.cmp(a));
        ms.dedup();
        ms
    }

    /// The configuration the session core runs with.
    pub fn session_config(&self) -> SessionConfig {
        SessionConfig {
            lang: self.speech.language,
            form: self.speech.form,
            letters: self.game.letters,
            mode: self.game.mode,
            blind_side: self.game.blind_side.color(),
            time_control: self.time_control(),
            low_time_ms: self.low_time_ms(),
            announce_touched: self.speech.announce_touched,
            speak_low_time: self.speech.speak_low_time,
            practice: crate::session::Practice {
                computer: self.engine.opponent,
                level: self.engine.level,
                pause_ms: self.engine.pause_ms,
            },
        }
    }

    /// Takes over what the session changed itself ([`Effect::ConfigChanged`](crate::session::Effect)):
    /// the mode, the player's colour and the practice opponent.
    pub fn keep_session_config(&mut self, config: &SessionConfig) {
        self.game.mode = config.mode;
        self.game.blind_side = Side::from_color(config.blind_side);
        self.engine.opponent = config.practice.computer;
        self.engine.level = config.practice.level;
        self.engine.pause_ms = config.practice.pause_ms;
    }

    /// How the speech service starts.
    pub fn speech_config(&self) -> SpeechConfig {
        let mut voice = VoiceSettings {
            rate: clamp_unit(self.speech.rate, 0.5),
            pitch: clamp_unit(self.speech.pitch, 0.5),
            volume: clamp_unit(self.speech.volume, 1.0),
            ..VoiceSettings::default()
        };
        if let Some(name) = self.speech.voice.as_ref().filter(|n| !n.trim().is_empty()) {
            voice.voices.insert(self.speech.language, name.clone());
        }
        SpeechConfig {
            backend: self.speech.backend.choice(),
            lang: self.speech.language,
            settings: voice,
            mode: self.speech.mode,
        }
    }

    /// The peg-board move tracker's timing. Tournament mode is strict
    /// (touch-move: a rook move is never held back for castling).
    pub fn tracker_config(&self) -> TrackerConfig {
        TrackerConfig {
            settle_ms: self.board.settle_ms,
            mismatch_ms: self.board.mismatch_ms,
            promote_to: self.board.promotion.role(),
            strict: self.game.mode == Mode::Tournament,
            ..TrackerConfig::default()
        }
    }

    /// Writes players, event, site, round, board number and time control
    /// into a game's PGN tags. Empty settings leave the tag as it was.
    pub fn apply_tags(&self, tags: &mut Tags) {
        let g = &self.game;
        for (value, tag) in [
            (&g.white, &mut tags.white),
            (&g.black, &mut tags.black),
            (&g.event, &mut tags.event),
            (&g.site, &mut tags.site),
            (&g.round, &mut tags.round),
        ] {
            if !value.trim().is_empty() {
                *tag = value.trim().to_owned();
            }
        }
        let control = self.time_control();
        tags.time_control = control.is_timed().then(|| control.to_string());
        if !g.board_number.trim().is_empty() {
            tags.extra.retain(|(name, _)| name != "Board");
            tags.extra
                .push(("Board".into(), g.board_number.trim().to_owned()));
        }
    }
}

fn clamp_unit(value: f32, fallback: f32) -> f32 {
    if value.is_finite() {
        value.clamp(0.0, 1.0)
    } else {
        fallback
    }
}

/// Keeps a copy of a file that could not be used fully and builds the
/// outcome with a message naming the file, the problem and the copy.
fn fall_back(path: &Path, settings: Settings, problem: &str) -> LoadOutcome {
    let kept = keep_copy(path);
    // Said and shown: never more than a short excerpt of the file.
    let problem = crate::text::excerpt(problem, 400);
    let mut warning = format!(
        "The settings file {} could not be used as it is: {problem}.",
        path.display()
    );
    match &kept {
        Ok(copy) => warning.push_str(&format!(" A copy of it was kept as {}.", copy.display())),
        Err(e) => warning.push_str(&format!(
            " Could not keep a copy of it ({e}); it will be replaced when settings are saved."
        )),
    }
    if settings == Settings::default() {
        warning.push_str(" The default settings are used.");
    }
    LoadOutcome {
        settings,
        warning: Some(warning),
        kept_copy: kept.ok(),
    }
}

/// Copies `path` to `<path>.bad-<UTC time>` (with a counter if that exists).
fn keep_copy(path: &Path) -> io::Result<PathBuf> {
    let stamp = crate::pgn::compact_stamp(jiff::Timestamp::now());
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| FILE_NAME.into());
    for n in 0..1000 {
        let suffix = if n == 0 {
            String::new()
        } else {
            format!("-{n}")
        };
        let copy = path.with_file_name(format!("{name}.bad-{stamp}{suffix}"));
        if copy.exists() {
            continue;
        }
        std::fs::copy(path, &copy)?;
        return Ok(copy);
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "too many kept copies",
    ))
}

/// "line 4, column 12: unknown language 'fr'".
fn describe_toml_error(text: &str, error: &toml::de::Error) -> String {
    let message = error.message().trim().trim_end_matches('.');
    match error.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            format!("line {line}, column {column}: {message}")
        }
        None => message.to_owned(),
    }
}

/// A value the settings did not accept.
struct Rejected {
    path: Vec<String>,
    /// `key.path = value: why`.
    text: String,
}

/// The line (1-based) where a key is set, for files written the usual way
/// (`[section]` headers and `key = value` lines).
fn line_of_key(text: &str, path: &[String]) -> Option<usize> {
    let (key, section) = path.split_last()?;
    let section = section.join(".");
    let mut current = String::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('[') {
            current = header.trim_end_matches(']').trim().to_owned();
            continue;
        }
        if let Some((k, _)) = line.split_once('=')
            && current == section
            && k.trim().trim_matches('"') == key
        {
            return Some(i + 1);
        }
    }
    None
}

/// Reads every value of `user` that the settings accept, one at a time on
/// top of the defaults, and lists the ones they do not.
fn salvage(user: &toml::Table) -> (Settings, Vec<Rejected>) {
    let mut accepted = match toml::Value::try_from(Settings::default()) {
        Ok(toml::Value::Table(t)) => t,
        _ => toml::Table::new(),
    };
    let mut leaves = Vec::new();
    collect_leaves(user, &mut Vec::new(), &mut leaves);
    let mut rejected = Vec::new();
    for (path, value) in leaves {
        let mut candidate = accepted.clone();
        insert_at(&mut candidate, &path, value.clone());
        match toml::Value::Table(candidate.clone()).try_into::<Settings>() {
            Ok(_) => accepted = candidate,
            Err(e) => rejected.push(Rejected {
                text: format!(
                    "{} = {}: {}",
                    path.join("."),
                    value,
                    e.message().trim().trim_end_matches('.')
                ),
                path,
            }),
        }
    }
    let settings = toml::Value::Table(accepted).try_into().unwrap_or_default();
    (settings, rejected)
}

fn collect_leaves<'a>(
    table: &'a toml::Table,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, &'a toml::Value)>,
) {
    for (key, value) in table {
        prefix.push(key.clone());
        match value {
            toml::Value::Table(inner) if !inner.is_empty() => collect_leaves(inner, prefix, out),
            _ => out.push((prefix.clone(), value)),
        }
        prefix.pop();
    }
}

fn insert_at(table: &mut toml::Table, path: &[String], value: toml::Value) {
    let (last, parents) = path.split_last().expect("a leaf has a key");
    let mut current = table;
    for key in parents {
        let entry = current
            .entry(key.clone())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        if !entry.is_table() {
            *entry = toml::Value::Table(toml::Table::new());
        }
        current = entry.as_table_mut().expect("made a table");
    }
    current.insert(last.clone(), value);
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
mod tests {
    use super::*;

    fn temp() -> tempfile::TempDir {
        tempfile::tempdir().expect("temp dir")
    }

    #[test]
    fn setting_names_are_their_codes() {
        assert_eq!(Theme::YellowOnBlack.code(), "yellow_on_black");
        assert_eq!(SpeechBackend::Clips.to_string(), "clips");
    }

    fn bad_copies(dir: &Path) -> Vec<PathBuf> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().contains(".bad-"))
            .collect()
    }

    fn changed() -> Settings {
        let mut s = Settings {
            interface_language: Lang::Pt,
            ..Settings::default()
        };
        s.speech.language = Lang::De;
        s.speech.form = AnnounceForm::Long;
        s.speech.backend = SpeechBackend::Silent;
        s.speech.voice = Some("German (Standard)".into());
        s.speech.rate = 0.75;
        s.speech.volume = 0.25;
        s.speech.pitch = 0.375;
        s.speech.announce_touched = false;
        s.earcons.set(Earcon::Touched, false);
        s.earcons.set(Earcon::LowTime, false);
        s.board.port = Some("/dev/ttyUSB0".into());
        s.board.format = Format::Sentio;
        s.board.baud = Some(57_600);
        s.board.settle_ms = 120;
        s.board.mismatch_ms = 3500;
        s.board.promotion = Promotion::Knight;
        s.game.mode = Mode::Tournament;
        s.game.blind_side = Side::Black;
        s.game.time_control = "40/5400+30:1800+30".into();
        s.game.low_time_seconds = vec![120, 30];
        s.game.letters = Letters::Pt;
        s.game.white = "Müller, Jörg".into();
        s.game.black = "Silva, João \"Joca\"".into();
        s.game.event = "Blind Open".into();
        s.game.site = "São Paulo".into();
        s.game.round = "3".into();
        s.game.board_number = "12".into();
        s.display.theme = Theme::YellowOnBlack;
        s.display.scale = 1.75;
        s.braille = BrailleSettings {
            legend: false,
            diagram: true,
            minimal: true,
            contracted: true,
        };
        s.engine.opponent = true;
        s.engine.level = crate::engine::Level::new(7).unwrap();
        s.engine.path = "/opt/engines/lc0".into();
        s.engine.pause_ms = 0;
        s
    }

    #[test]
    fn round_trip_keeps_every_value() {
        let dir = temp();
        let path = dir.path().join(FILE_NAME);
        let s = changed();
        s.save_to(&path).unwrap();
        let loaded = Settings::load_from(&path);
        assert_eq!(loaded.warning, None);
        assert_eq!(loaded.settings, s);
        assert!(bad_copies(dir.path()).is_empty());
        // Only the file itself remains: the temporary file was renamed.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn missing_file_gives_defaults_silently() {
        let dir = temp();
        let loaded = Settings::load_from(&dir.path().join(FILE_NAME));
        assert_eq!(loaded.settings, Settings::default());
        assert_eq!(loaded.warning, None);
        assert_eq!(loaded.kept_copy, None);
    }

    #[test]
    fn defaults_are_sensible() {
        let s = Settings::default();
        // The Braille export's defaults are `rochade export`'s.
        assert_eq!(
            s.braille.export_options(Letters::En, Lang::En),
            crate::export::ExportOptions::default()
        );
        assert_eq!(s.game.mode, Mode::Practice);
        assert_eq!(s.time_control(), TimeControl::Untimed);
        assert_eq!(s.low_time_ms(), crate::clock::DEFAULT_LOW_TIME_MS.to_vec());
        assert_eq!(s.board.baud(), 115_200);
        assert!(Earcon::ALL.iter().all(|&e| s.earcons.enabled(e)));
        assert_eq!(s.engine.path, "/usr/games/stockfish");
        assert_eq!(
            s.session_config().opponent(1),
            None,
            "no computer opponent unless chosen"
        );
        assert_eq!(
            s.session_config(),
            SessionConfig {
                lang: Lang::De,
                ..SessionConfig::default()
            }
        );
    }

    #[test]
    fn old_file_with_missing_keys_loads_without_warning() {
        let dir = temp();
        let path = dir.path().join(FILE_NAME);
        std::fs::write(
            &path,
            "interface_language = \"pt-BR\"\n[speech]\nlanguage = \"en\"\n[game]\nwhite = \"Ana\"\n",
        )
        .unwrap();
        let loaded = Settings::load_from(&path);
        assert_eq!(loaded.warning, None);
        let s = loaded.settings;
        assert_eq!(s.interface_language, Lang::Pt);
        assert_eq!(s.speech.language, Lang::En);
        assert_eq!(s.game.white, "Ana");
        assert_eq!(s.speech.form, AnnounceForm::Short);
        assert_eq!(s.board, BoardSettings::default());
        assert_eq!(s.display, DisplaySettings::default());
        assert!(bad_copies(dir.path()).is_empty());
    }

    #[test]
    fn unknown_keys_from_other_versions_are_ignored() {
        let dir = temp();
        let path = dir.path().join(FILE_NAME);
        std::fs::write(
            &path,
            "future_feature = 3\n[display]\nscale = 2.0\nglow = true\n",
        )
        .unwrap();
        let loaded = Settings::load_from(&path);
        assert_eq!(loaded.warning, None);
        assert_eq!(loaded.settings.display.scale, 2.0);
    }

    #[test]
    fn syntax_error_keeps_the_file_and_says_where() {
        let dir = temp();
        let path = dir.path().join(FILE_NAME);
        let text = "interface_language = \"de\"\n[speech]\nrate = 0.7\nvolume = = 1\n";
        std::fs::write(&path, text).unwrap();
        let loaded = Settings::load_from(&path);
        assert_eq!(loaded.settings, Settings::default());
        let warning = loaded.warning.expect("a warning");
        assert!(warning.contains(&path.display().to_string()), "{warning}");
        assert!(warning.contains("line 4"), "{warning}");
        let copies = bad_copies(dir.path());
        assert_eq!(copies.len(), 1);
        assert_eq!(loaded.kept_copy.as_ref(), Some(&copies[0]));
        assert!(
            warning.contains(&copies[0].display().to_string()),
            "{warning}"
        );
        assert_eq!(std::fs::read_to_string(&copies[0]).unwrap(), text);
        // Saving the defaults now does not lose what the user wrote.
        loaded.settings.save_to(&path).unwrap();
        assert_eq!(std::fs::read_to_string(&copies[0]).unwrap(), text);
        assert_eq!(Settings::load_from(&path).warning, None);
    }

    #[test]
    fn unknown_language_is_replaced_and_the_rest_kept() {
        let dir = temp();
        let path = dir.path().join(FILE_NAME);
        let text = "interface_language = \"fr\"\n\n[speech]\nlanguage = \"pt-BR\"\nform = \"long\"\n\n[game]\nwhite = \"Ana\"\ntime_control = \"90 minutes\"\nmode = \"tournament\"\n";
        std::fs::write(&path, text).unwrap();
        let loaded = Settings::load_from(&path);
        let s = &loaded.settings;
        assert_eq!(s.interface_language, Settings::default().interface_language);
        assert_eq!(s.speech.language, Lang::Pt);
        assert_eq!(s.speech.form, AnnounceForm::Long);
        assert_eq!(s.game.white, "Ana");
        assert_eq!(s.game.mode, Mode::Tournament);
        assert_eq!(
            s.game.time_control, "-",
            "an unreadable time control is dropped"
        );
        let warning = loaded.warning.expect("a warning");
        assert!(
            warning.contains("line 1: interface_language = \"fr\": unknown language 'fr'"),
            "{warning}"
        );
        assert!(
            warning.contains("line 9: game.time_control = \"90 minutes\""),
            "{warning}"
        );
        assert_eq!(bad_copies(dir.path()).len(), 1);
    }

    #[test]
    fn wrong_types_are_replaced_one_by_one() {
        let dir = temp();
        let path = dir.path().join(FILE_NAME);
        std::fs::write(
            &path,
            "[board]\nbaud = \"fast\"\nsettle_ms = 100\nformat = \"liboard\"\n[earcons]\ntouched = false\nillegal = 3\n",
        )
        .unwrap();
        let loaded = Settings::load_from(&path);
        let s = &loaded.settings;
        assert_eq!(s.board.baud, None);
        assert_eq!(s.board.baud(), 9600);
        assert_eq!(s.board.settle_ms, 100);
        assert!(!s.earcons.enabled(Earcon::Touched));
        assert!(s.earcons.enabled(Earcon::Illegal));
        let warning = loaded.warning.unwrap();
        assert!(
            warning.contains("board.baud") && warning.contains("earcons.illegal"),
            "{warning}"
        );
    }

    #[test]
    fn unreadable_bytes_are_kept() {
        let dir = temp();
        let path = dir.path().join(FILE_NAME);
        std::fs::write(&path, [0xff, 0xfe, b'x']).unwrap();
        let loaded = Settings::load_from(&path);
        assert!(loaded.warning.unwrap().contains("not UTF-8"));
        assert_eq!(
            std::fs::read(loaded.kept_copy.unwrap()).unwrap(),
            [0xff, 0xfe, b'x']
        );
    }

    #[test]
    fn session_speech_and_tracker_follow_the_settings() {
        let s = changed();
        let c = s.session_config();
        assert_eq!(c.lang, Lang::De);
        assert_eq!(c.form, AnnounceForm::Long);
        assert_eq!(c.letters, Letters::Pt);
        assert_eq!(c.mode, Mode::Tournament);
        assert_eq!(c.blind_side, Color::Black);
        assert_eq!(c.time_control.to_string(), "40/5400+30:1800+30");
        assert_eq!(c.low_time_ms, vec![120_000, 30_000]);
        assert!(!c.announce_touched);
        let speech = s.speech_config();
        assert!(matches!(speech.backend, BackendChoice::Silent));
        assert_eq!(speech.settings.rate, 0.75);
        assert_eq!(
            speech.settings.voices.get(&Lang::De).map(String::as_str),
            Some("German (Standard)")
        );
        let tracker = s.tracker_config();
        assert_eq!((tracker.settle_ms, tracker.mismatch_ms), (120, 3500));
        assert_eq!(tracker.promote_to, Role::Knight);
        assert!(tracker.strict);
        let mut tags = Tags::default();
        s.apply_tags(&mut tags);
        assert_eq!(tags.white, "Müller, Jörg");
        assert_eq!(tags.site, "São Paulo");
        assert_eq!(tags.time_control.as_deref(), Some("40/5400+30:1800+30"));
        assert_eq!(tags.extra, vec![("Board".to_string(), "12".to_string())]);
    }

    #[test]
    fn backend_names_match_the_command_line() {
        for b in SpeechBackend::ALL {
            assert_eq!(b.code().parse::<SpeechBackend>().unwrap(), b);
        }
        assert!("loud".parse::<SpeechBackend>().is_err());
    }

    #[test]
    fn save_creates_the_folder() {
        let dir = temp();
        let path = dir.path().join("a").join("b").join(FILE_NAME);
        Settings::default().save_to(&path).unwrap();
        assert!(Settings::load_from(&path).warning.is_none());
    }
}
