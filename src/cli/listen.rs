//! `rochade listen`: one recognition of a spoken move from a recording, for
//! tests, for tuning, and for users checking a recording of their voice.

use std::path::PathBuf;

use serde_json::json;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;

use super::{CliError, CliResult};
use crate::announce::{AnnounceForm, announce_move};
use crate::chess::GameRecord;
use crate::voice_input::{Listener, Model, Recognition, wav};
use crate::words::{Lang, Utterance};
use rochade_core::voice_input::Heard;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The recording: WAV, 16 kHz, 16-bit (mono, or stereo mixed to mono).
    #[arg(long, value_name = "FILE")]
    pub wav: PathBuf,
    /// The position the move is played in (the standard start position
    /// when not given).
    #[arg(long)]
    pub fen: Option<String>,
    /// The language the move is said in: de or en.
    #[arg(long, default_value = "de")]
    pub lang: Lang,
    /// One JSON line: {"event":"heard","uci","san","text","ms"} (or
    /// "command" for a command), or {"event":"not_understood","text",
    /// "speech","ms"} (speech: whether anything stood out from silence).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> CliResult {
    let position = match &args.fen {
        Some(fen) => GameRecord::from_fen(fen)
            .map_err(CliError::input)?
            .position()
            .clone(),
        None => shakmaty::Chess::default(),
    };
    if !matches!(args.lang, Lang::De | Lang::En) {
        return Err(CliError::input(format!(
            "voice input understands German and English only, not {}: use --lang de or --lang en",
            args.lang
        )));
    }
    let samples = wav::read_speech(&args.wav).map_err(CliError::input)?;
    let model = Model::find().map_err(CliError::failure)?;
    let mut listener = Listener::new(args.lang, &model).map_err(CliError::failure)?;
    let recognition = listener
        .listen(&position, &samples)
        .map_err(CliError::failure)?;
    let pack = super::load_pack(args.lang);
    println!(
        "{}",
        if args.json {
            as_json(&position, &recognition).to_string()
        } else {
            as_words(&pack, &position, &recognition)
        }
    );
    Ok(())
}

/// The JSON line of a recognition (also `play --voice --json`'s `heard`).
pub(super) fn as_json(position: &shakmaty::Chess, r: &Recognition) -> serde_json::Value {
    let ms = r.decoding.as_millis() as u64;
    match r.heard {
        Some(Heard::Move(mv)) => json!({
            "event": "heard",
            "uci": UciMove::from_standard(mv).to_string(),
            "san": SanPlus::from_move(position.clone(), mv).to_string(),
            "text": r.text,
            "ms": ms,
        }),
        Some(Heard::Command(command)) => json!({
            "event": "heard",
            "command": command.name(),
            "text": r.text,
            "ms": ms,
        }),
        None => json!({"event": "not_understood", "text": r.text, "speech": r.speech, "ms": ms}),
    }
}

/// The move as announced, the command in the pack's words, or "Move not
/// understood" with what was recognised.
fn as_words(pack: &crate::words::Pack, position: &shakmaty::Chess, r: &Recognition) -> String {
    let form = super::output::terminal_form();
    match r.heard {
        Some(Heard::Move(mv)) => format!(
            "{} ({})",
            announce_move(pack, position, mv, AnnounceForm::Short).get(form),
            SanPlus::from_move(position.clone(), mv)
        ),
        Some(Heard::Command(command)) => pack
            .input_aliases(command.input_key())
            .next()
            .unwrap_or(command.name())
            .to_owned(),
        None => {
            let text = r.text.clone().unwrap_or_default();
            let said = Utterance {
                written: text.clone(),
                spoken: text,
            };
            pack.phrase("unreadable_move", &[("move", said)])
                .get(form)
                .trim_end_matches([' ', ':'])
                .to_owned()
        }
    }
}
