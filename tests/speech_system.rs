//! The real system speech backend against a real speech-dispatcher with
//! espeak-ng. There is no sound card on CI, so the test starts its own
//! speech-dispatcher with a private configuration: ALSA output into the
//! ALSA `file` plugin (over the `null` device), defined in a `.asoundrc` in
//! a temporary HOME, and a private socket. The written audio file proves
//! that speech was synthesised and played.
//!
//! This test FAILS (it does not skip) when speech-dispatcher, its espeak-ng
//! module or a German voice is missing: install `speech-dispatcher` and
//! `speech-dispatcher-espeak-ng` (Debian/Ubuntu).

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rochade::session::{Priority, Speech};
use rochade::speech::{Finished, SpeechBackend, SystemSpeech, VoiceMatch};
use rochade::words::{Lang, Utterance};

struct Daemon {
    child: Child,
    _dir: tempfile::TempDir,
    audio: PathBuf,
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn find_module_dir() -> PathBuf {
    for dir in [
        "/usr/lib/speech-dispatcher-modules",
        "/usr/lib/x86_64-linux-gnu/speech-dispatcher-modules",
        "/usr/lib/aarch64-linux-gnu/speech-dispatcher-modules",
        "/usr/libexec/speech-dispatcher-modules",
    ] {
        if Path::new(dir).join("sd_espeak-ng").exists() {
            return PathBuf::from(dir);
        }
    }
    panic!(
        "speech-dispatcher's espeak-ng module (sd_espeak-ng) is not installed: apt-get install speech-dispatcher speech-dispatcher-espeak-ng"
    );
}

fn start_daemon() -> Daemon {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let home = root.join("home");
    let conf = root.join("conf");
    std::fs::create_dir_all(conf.join("modules")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let audio = root.join("speech.raw");
    let modules = find_module_dir();
    std::fs::write(
        home.join(".asoundrc"),
        format!("pcm.!default {{\n  type file\n  slave.pcm \"null\"\n  file \"{}\"\n  format \"raw\"\n}}\n", audio.display()),
    )
    .unwrap();
    let espeak_conf = Path::new("/etc/speech-dispatcher/modules/espeak-ng.conf");
    let module_conf = std::fs::read_to_string(espeak_conf).unwrap_or_default();
    std::fs::write(conf.join("modules/espeak-ng.conf"), module_conf).unwrap();
    std::fs::write(
        conf.join("speechd.conf"),
        format!(
            "AudioOutputMethod \"alsa\"\nAudioALSADevice \"default\"\nAddModule \"espeak-ng\" \"{}\" \"espeak-ng.conf\"\nDefaultModule espeak-ng\nDefaultLanguage \"de\"\nLogDir \"{}\"\n",
            modules.join("sd_espeak-ng").display(),
            root.display()
        ),
    )
    .unwrap();
    let socket = root.join("speechd.sock");
    let child = Command::new("speech-dispatcher")
        .args(["-s", "-t", "0", "-C"])
        .arg(&conf)
        .arg("-S")
        .arg(&socket)
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_RUNTIME_DIR", root)
        .spawn()
        .expect("speech-dispatcher is not installed: apt-get install speech-dispatcher speech-dispatcher-espeak-ng");
    let deadline = Instant::now() + Duration::from_secs(15);
    while !socket.exists() {
        assert!(
            Instant::now() < deadline,
            "speech-dispatcher did not create its socket within 15 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // Only this test's thread runs now; the tts crate reads the address
    // from the environment when it connects.
    unsafe {
        std::env::set_var(
            "SPEECHD_ADDRESS",
            format!("unix_socket:{}", socket.display()),
        );
    }
    Daemon {
        child,
        _dir: dir,
        audio,
    }
}

fn audio_len(path: &Path) -> u64 {
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

#[test]
fn system_speech_initialises_lists_voices_finds_german_speaks_and_stops() {
    let daemon = start_daemon();
    let (tx, rx) = mpsc::channel();
    let mut system =
        SystemSpeech::new(Finished::from_sender(tx)).expect("connect to speech-dispatcher");
    assert!(
        system.name().contains("speech-dispatcher"),
        "{}",
        system.name()
    );

    let voices = system.voices();
    assert!(
        voices.len() > 10,
        "espeak-ng offers many voices, got {}",
        voices.len()
    );
    let (german, how) = system.voice_for(Lang::De).expect("a German voice");
    assert_eq!(german.primary_language(), "de", "{german:?}");
    assert_ne!(how, VoiceMatch::Override);

    // Speak a move; the end is reported through the backend's callback.
    let speech = |text: &str| Speech {
        text: Utterance {
            written: text.into(),
            spoken: text.into(),
        },
        lang: Lang::De,
        priority: Priority::Move,
    };
    system
        .speak(1, &speech("Springer schlägt Eva fünf"))
        .expect("speak");
    let end = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("speech-dispatcher reports the end of the utterance");
    assert!(format!("{end:?}").contains("Finished(1)"), "{end:?}");
    let after_first = audio_len(&daemon.audio);
    assert!(
        after_first > 16_000,
        "speech reached the audio device ({after_first} bytes)"
    );

    // A long text, stopped soon after it starts: the engine reports it
    // ended (cut off) long before it could have finished.
    let long =
        "Weiß: eine Stunde neunundzwanzig Minuten übrig, zwölf Minuten verbraucht. ".repeat(8);
    let started = Instant::now();
    system.speak(2, &speech(&long)).expect("speak long text");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !system.is_speaking() {
        assert!(
            Instant::now() < deadline,
            "the engine never reported speaking"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    system.stop().expect("stop");
    let end = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("the stopped utterance is reported as ended");
    assert!(format!("{end:?}").contains("Finished(2)"), "{end:?}");
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "stop took {:?}: the text was not cut off",
        started.elapsed()
    );
    std::thread::sleep(Duration::from_millis(200));
    assert!(!system.is_speaking());
    assert!(
        audio_len(&daemon.audio) > after_first,
        "the second utterance was played in part"
    );
}
