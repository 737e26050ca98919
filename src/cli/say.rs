//! `rochade say` and `rochade voices`.

use std::time::Duration;

use super::{CliError, CliResult};
use crate::audio::{AudioOut, EarconSettings, earcon_duration_ms};
use crate::session::Earcon;
use crate::speech::{BackendChoice, SpeechBackend, SystemSpeech, clips, speak_all_blocking};
use crate::words::{Lang, Utterance};

#[derive(clap::Args, Debug)]
pub struct SayArgs {
    /// Language of the text: de, pt or en.
    #[arg(long, default_value = "de")]
    pub lang: Lang,
    /// auto (system speech if it has a voice for the language, else the
    /// clip voice), system, clips or silent.
    #[arg(long, default_value = "auto")]
    pub backend: BackendChoice,
    /// A system voice name (see `rochade voices`) instead of the automatic choice.
    #[arg(long)]
    pub voice: Option<String>,
    /// Play earcons (touched, move-accepted, illegal, mismatch, in-sync,
    /// link-lost, link-restored, low-time, flag-fall) before any text.
    #[arg(long, value_name = "NAME", value_delimiter = ',')]
    pub earcon: Vec<String>,
    /// Print the clip voice's vocabulary for --lang (clip name, tab, spoken
    /// word) and exit; scripts/make-voice-clips uses it.
    #[arg(long, hide = true)]
    pub list_vocabulary: bool,
    /// What to say.
    pub text: Vec<String>,
}

#[derive(clap::Args, Debug)]
pub struct VoicesArgs {}

fn parse_earcon(name: &str) -> Result<Earcon, CliError> {
    let key: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    Earcon::ALL
        .into_iter()
        .find(|e| format!("{e:?}").to_ascii_lowercase() == key)
        .ok_or_else(|| CliError::input(format!("unknown earcon '{name}'")))
}

pub fn run_say(args: SayArgs) -> CliResult {
    if args.list_vocabulary {
        let pack = super::load_pack(args.lang);
        for (name, spoken) in clips::vocabulary(&pack) {
            println!("{name}\t{spoken}");
        }
        return Ok(());
    }
    let earcons = args
        .earcon
        .iter()
        .map(|n| parse_earcon(n))
        .collect::<Result<Vec<_>, _>>()?;
    if earcons.is_empty() && args.text.is_empty() {
        return Err(CliError::input(
            "nothing to say: give a TEXT or --earcon NAME",
        ));
    }
    if !earcons.is_empty() {
        let out = AudioOut::open().map_err(|e| CliError::failure(e.to_string()))?;
        let settings = EarconSettings::default();
        for e in earcons {
            out.play_earcon(e, &settings);
            let ms = earcon_duration_ms(e) as u64;
            if !out.wait_idle(Duration::from_millis(ms + 5000)) {
                return Err(CliError::failure(
                    "the audio output did not play the earcon",
                ));
            }
            // A pause so consecutive earcons stay apart.
            std::thread::sleep(Duration::from_millis(150));
        }
    }
    if args.text.is_empty() {
        return Ok(());
    }
    let text = args.text.join(" ");
    let utterance = Utterance {
        written: text.clone(),
        spoken: text,
    };
    if let Some(voice) = &args.voice {
        let mut settings = crate::speech::VoiceSettings::default();
        settings.voices.insert(args.lang, voice.clone());
        return say_with_settings(args.lang, utterance, args.backend, settings);
    }
    speak_all_blocking(args.lang, &[utterance], args.backend).map_err(CliError::failure)
}

fn say_with_settings(
    lang: Lang,
    text: Utterance,
    backend: BackendChoice,
    settings: crate::speech::VoiceSettings,
) -> CliResult {
    use crate::session::{Priority, Speech};
    use crate::speech::{SpeechConfig, SpeechService};
    let handle = SpeechService::spawn(SpeechConfig {
        backend,
        lang,
        settings,
        mode: crate::speech::SpeechMode::SelfVoicing,
    })
    .map_err(|e| CliError::failure(e.to_string()))?;
    eprintln!("rochade: speaking with {}", handle.backend_name());
    for note in handle.backend_notes() {
        eprintln!("rochade: {note}");
    }
    // A voice that never reports the end (a speech module without audio)
    // is replaced by the clip voice after 10 s plus 150 ms a character;
    // the command never waits longer than that allows.
    let limit = crate::speech::service::say_budget(text.spoken.chars().count());
    handle.speak(Speech {
        text,
        lang,
        priority: Priority::Move,
    });
    let done = handle.wait_idle(limit);
    let skipped = handle.take_skipped_words();
    if !skipped.is_empty() {
        eprintln!("rochade: no voice clip for: {}", skipped.join(", "));
    }
    let errors = handle.take_errors();
    if !errors.is_empty() {
        return Err(CliError::failure(errors.join("; ")));
    }
    if !done {
        return Err(CliError::failure(format!(
            "the voice did not finish speaking within {} s (a speech module without audio output?); try --backend clip",
            limit.as_secs()
        )));
    }
    Ok(())
}

pub fn run_voices(_args: VoicesArgs) -> CliResult {
    println!("System voices:");
    // Asked on a thread of its own: a speech daemon that hangs is reported
    // after a while, never waited on for ever.
    let (lines_tx, lines_rx) = std::sync::mpsc::channel();
    let _ = std::thread::Builder::new()
        .name("voices".into())
        .spawn(move || {
            let (tx, _rx) = std::sync::mpsc::channel();
            let mut lines = Vec::new();
            match SystemSpeech::new(crate::speech::Finished::from_sender(tx)) {
                Ok(mut system) => {
                    lines.push(format!("  engine: {}", system.name()));
                    for lang in Lang::ALL {
                        lines.push(match system.voice_for(lang) {
                            Some((v, _)) => {
                                format!("  {lang}: {} ({}) would be chosen", v.name, v.language)
                            }
                            None => format!("  {lang}: no voice (the clip voice is used)"),
                        });
                    }
                    for v in system.voices() {
                        lines.push(format!("  {}\t{}", v.language, v.name));
                    }
                }
                Err(e) => lines.push(format!("  none: {e}")),
            }
            let _ = lines_tx.send(lines);
        });
    let hung = match lines_rx.recv_timeout(crate::speech::service::START_TIMEOUT) {
        Ok(lines) => {
            for line in lines {
                println!("{line}");
            }
            false
        }
        Err(_) => {
            println!(
                "  none: the speech system did not answer within {} s",
                crate::speech::service::START_TIMEOUT.as_secs()
            );
            true
        }
    };
    println!("Clip voices:");
    for lang in Lang::ALL {
        let pack = super::load_pack(lang);
        let mut store = clips::ClipStore::for_lang(lang);
        let (have, total) = store.coverage(&pack);
        let user = clips::user_clip_dir(lang)
            .map(|d| d.display().to_string())
            .unwrap_or_default();
        println!("  {lang}: {have} of {total} words have a clip (your recordings: {user})");
    }
    if hung {
        return Err(CliError::failure(
            "the speech system (speech-dispatcher) does not answer",
        ));
    }
    Ok(())
}
