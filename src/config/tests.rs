use super::*;
use std::path::{Path, PathBuf};

use crate::chess::Tags;
use crate::session::SessionConfig;

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
    #[cfg(not(windows))]
    assert_eq!(s.engine.path, "/usr/games/stockfish");
    #[cfg(windows)]
    assert_eq!(s.engine.path, "stockfish.exe");
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
