//! Voice input measured: moves actually played (tests/data/selfplay.pgn
//! and tests/data/games), each said in the announcement words by an
//! espeak-ng voice (varied voices, speeds, pitches) with noise mixed in
//! (sox), recognised by `rochade listen`'s path (pocketsphinx with the
//! position's grammar). Prints accuracy per language and phrasing and the
//! median decode time, then how many recordings that should play nothing
//! (noise alone, room talk) were heard as a move or a command anyway;
//! docs/voice.md has the figures.
//!
//! Usage: `cargo bench --profile dev --bench voice_listen` (SAMPLES=n per
//! language and seed, default 30: 10 per phrasing; SEEDS=1,2,3,4,5 by
//! default: each seed draws other moves, voices, speeds, pitches and noise,
//! and the worst seed is printed beside the whole). Needs espeak-ng, sox,
//! libpocketsphinx3 and pocketsphinx-en-us (scripts/deps.sh,
//! ROCHADE_BENCH_PACKAGES). LANGS=de (or en) measures one language;
//! PRONUNCIATIONS=FILE tries pronunciations (assets/voice-input's format)
//! before the bundled ones, DECODER_OPTIONS="-lw 8;-lw 10" sets of
//! pocketsphinx options (each measured on the same recordings), to tune
//! them without a rebuild; SYNTH_CACHE=DIR keeps the recordings for the
//! next run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use rochade::chess::{GameRecord, Letters};
use rochade::pgn::{Games, ReadOptions};
use rochade::voice_input::{Listener, Model, wav};
use rochade::words::{Lang, Pack};
use rochade_core::voice_input::{Heard, Phrasing, say_move};
use shakmaty::san::SanPlus;

/// A small deterministic generator: the same moves, voices and noise each run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

fn games() -> Vec<GameRecord> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut files = vec![root.join("selfplay.pgn")];
    let mut more: Vec<PathBuf> = std::fs::read_dir(root.join("games"))
        .expect("tests/data/games")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    more.sort();
    files.extend(more);
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::File::open(&file).expect("pgn");
        let options = ReadOptions {
            start: None,
            lossy_text: false,
            letters: Letters::En,
        };
        out.extend(
            Games::new(std::io::BufReader::new(text), options)
                .filter_map(|g| g.record)
                .filter(|r| r.moves().len() > 4),
        );
    }
    out
}

fn run(program: &str, args: &[&str]) {
    let status = Command::new(program)
        .args(args)
        .status()
        .unwrap_or_else(|e| panic!("{program}: {e} (scripts/deps.sh installs it)"));
    assert!(status.success(), "{program} {args:?}");
}

/// `text` said by espeak-ng, made 16 kHz mono, with half a second of room
/// around it and noise of `noise` (sox's vol) over the whole.
fn synthesise(
    dir: &Path,
    voice: &str,
    speed: u32,
    pitch: u32,
    noise: (&str, f64),
    text: &str,
) -> Vec<i16> {
    let path = |name: &str| dir.join(name).to_str().expect("UTF-8").to_owned();
    let (raw, clean, hiss, mixed) = (
        path("raw.wav"),
        path("clean.wav"),
        path("noise.wav"),
        path("mixed.wav"),
    );
    let (speed, pitch) = (speed.to_string(), pitch.to_string());
    run(
        "espeak-ng",
        &["-v", voice, "-s", &speed, "-p", &pitch, "-w", &raw, text],
    );
    run(
        "sox",
        &[
            &raw, "-r", "16000", "-c", "1", "-b", "16", &clean, "pad", "0.5", "0.5",
        ],
    );
    let seconds = hound::WavReader::open(&clean).expect("clean").duration() as f64 / 16_000.0;
    let (colour, volume) = noise;
    sox_noise(&hiss, colour, volume, &format!("{seconds:.3}"), &[]);
    run("sox", &["-m", &clean, &hiss, &mixed]);
    wav::read_speech(Path::new(&mixed)).expect("mixed recording")
}

/// sox's noise `colour` at its volume `volume` for `seconds`, 16 kHz mono
/// (the same each run: `-R`), into `out`, with sox's effects `after`.
fn sox_noise(out: &str, colour: &str, volume: f64, seconds: &str, after: &[&str]) {
    let volume = format!("{volume}");
    let mut args = vec![
        "-R", "-n", "-r", "16000", "-c", "1", "-b", "16", out, "synth", seconds, colour, "vol",
        &volume,
    ];
    args.extend_from_slice(after);
    run("sox", &args);
}

/// `seconds` of noise `colour` at sox's volume `volume`, with half a
/// second of silence on each side: a bump, a fan, a rustle.
fn noise_alone(dir: &Path, colour: &str, volume: f64, seconds: f64) -> Vec<i16> {
    let out = dir.join("noise-alone.wav");
    let out_str = out.to_str().expect("UTF-8");
    let seconds = format!("{seconds:.2}");
    sox_noise(out_str, colour, volume, &seconds, &["pad", "0.5", "0.5"]);
    wav::read_speech(&out).expect("noise recording")
}

/// Words said near the board that are no move: a room's talk.
const CHATTER: [(Lang, &[&str]); 2] = [
    (
        Lang::De,
        &[
            "Guten Morgen",
            "Wie spät ist es",
            "Das ist ein schöner Tag",
            "Kaffee bitte",
            "Moment mal",
            "Wo ist der Schiedsrichter",
        ],
    ),
    (
        Lang::En,
        &[
            "Good morning",
            "What time is it",
            "Nice weather today",
            "Coffee please",
            "Just a moment",
            "Where is the arbiter",
        ],
    ),
];

/// A recording that should play nothing: noise alone, or talk that is no
/// move.
struct Nothing {
    seed: u64,
    pos: shakmaty::Chess,
    what: String,
    samples: Vec<i16>,
}

#[derive(Default)]
struct Tally {
    right: usize,
    total: usize,
}

/// One move said, as synthesised.
struct Said {
    seed: u64,
    phrasing: Phrasing,
    pos: shakmaty::Chess,
    mv: shakmaty::Move,
    text: String,
    /// The voice, speed, pitch and noise, for the misses printed.
    how: String,
    samples: Vec<i16>,
}

/// `synthesise`, kept in `cache` (SYNTH_CACHE=DIR) when given: the same
/// recordings decoded again with other settings without espeak-ng and sox.
fn synthesise_cached(
    cache: Option<&Path>,
    dir: &Path,
    (voice, speed, pitch, noise): (&str, u32, u32, (&str, f64)),
    text: &str,
) -> Vec<i16> {
    let Some(cache) = cache else {
        return synthesise(dir, voice, speed, pitch, noise, text);
    };
    let key = format!("{voice}|{speed}|{pitch}|{}|{}|{text}", noise.0, noise.1);
    // FNV-1a: a name that stays the same from run to run.
    let hash = key.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let file = cache.join(format!("{hash:016x}.raw"));
    if let Ok(bytes) = std::fs::read(&file) {
        return bytes
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect();
    }
    let samples = synthesise(dir, voice, speed, pitch, noise, text);
    let bytes: Vec<u8> = samples.iter().flat_map(|s| s.to_le_bytes()).collect();
    std::fs::create_dir_all(cache).expect("SYNTH_CACHE");
    std::fs::write(&file, bytes).expect("SYNTH_CACHE");
    samples
}

/// DECODER_OPTIONS="-lw 8 -wip 0.5;-lw 10": sets of pocketsphinx options
/// separated by semicolons, each measured on the same recordings (an empty
/// set: the product's settings).
fn option_sets() -> Vec<Vec<(String, String)>> {
    let Ok(text) = std::env::var("DECODER_OPTIONS") else {
        return vec![Vec::new()];
    };
    text.split(';')
        .map(|set| {
            let words: Vec<&str> = set.split_whitespace().collect();
            assert!(
                words.len().is_multiple_of(2),
                "DECODER_OPTIONS: name and value pairs"
            );
            words
                .chunks(2)
                .map(|pair| (pair[0].to_owned(), pair[1].to_owned()))
                .collect()
        })
        .collect()
}

fn main() {
    let per_language: usize = std::env::var("SAMPLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let games = games();
    let model = Model::find().expect("pocketsphinx-en-us");
    let dir = tempfile::tempdir().expect("temp dir");
    let cache = std::env::var_os("SYNTH_CACHE").map(PathBuf::from);
    let voices: [(Lang, &[&str]); 2] = [
        (Lang::De, &["de", "de+m3", "de+f2", "de+m7", "de+f4"]),
        (
            Lang::En,
            &["en", "en-us", "en+f3", "en-us+m3", "en+m7", "en-us+f2"],
        ),
    ];
    let noises = [
        ("whitenoise", 0.01),
        ("pinknoise", 0.03),
        ("brownnoise", 0.05),
        ("whitenoise", 0.03),
    ];
    let seeds: Vec<u64> = std::env::var("SEEDS")
        .unwrap_or_else(|_| "1,2,3,4,5".into())
        .split(',')
        .map(|s| {
            s.trim()
                .parse()
                .expect("SEEDS: numbers separated by commas")
        })
        .collect();
    // PRONUNCIATIONS=FILE: pronunciations tried before the bundled ones.
    let pronunciations = std::env::var_os("PRONUNCIATIONS")
        .map(|f| std::fs::read_to_string(f).expect("PRONUNCIATIONS: a readable file"));
    // LANGS=de measures one language only (tuning its dictionary).
    let langs = std::env::var("LANGS").unwrap_or_else(|_| "de,en".into());
    for (lang, lang_voices) in voices {
        if !langs.split(',').any(|l| l.trim() == lang.to_string()) {
            continue;
        }
        let pack = Pack::bundled(lang);
        let mut said = Vec::new();
        for &seed in &seeds {
            let mut rng = Lcg(0x5eed + lang as u64 + (seed << 8));
            for i in 0..per_language {
                let phrasing = [Phrasing::Short, Phrasing::Long, Phrasing::Letters][i % 3];
                let game = &games[rng.below(games.len())];
                let ply = rng.below(game.moves().len());
                let pos = game.position_before(ply);
                let mv = game.moves()[ply].mv;
                let text = say_move(pos, mv, &pack, phrasing);
                let voice = lang_voices[rng.below(lang_voices.len())];
                let speed = 130 + 10 * rng.below(8) as u32;
                let pitch = 30 + 5 * rng.below(9) as u32;
                let noise = noises[rng.below(noises.len())];
                let how = (voice, speed, pitch, noise);
                let samples = synthesise_cached(cache.as_deref(), dir.path(), how, &text);
                said.push(Said {
                    seed,
                    phrasing,
                    pos: pos.clone(),
                    mv,
                    how: format!(
                        "{voice}, speed {speed}, pitch {pitch}, {} {}",
                        noise.0, noise.1
                    ),
                    text,
                    samples,
                });
            }
        }
        // Per seed, 10 noises and 6 sentences of talk that must play
        // nothing (heard as a move or a command: a false accept).
        let mut nothing = Vec::new();
        let chatter = CHATTER.iter().find(|(l, _)| *l == lang).expect("chatter").1;
        for &seed in &seeds {
            let mut rng = Lcg(0xA015E + lang as u64 + (seed << 8));
            for _ in 0..10 {
                let game = &games[rng.below(games.len())];
                let pos = game.position_before(rng.below(game.moves().len())).clone();
                let colour = ["whitenoise", "pinknoise", "brownnoise"][rng.below(3)];
                let volume = [0.02, 0.05, 0.1, 0.2, 0.3][rng.below(5)];
                let seconds = 0.3 + 0.2 * rng.below(7) as f64;
                let samples = noise_alone(dir.path(), colour, volume, seconds);
                let what = format!("{colour} {volume} for {seconds:.1} s");
                nothing.push(Nothing {
                    seed,
                    pos,
                    what,
                    samples,
                });
            }
            for sentence in chatter.iter() {
                let game = &games[rng.below(games.len())];
                let pos = game.position_before(rng.below(game.moves().len())).clone();
                let voice = lang_voices[rng.below(lang_voices.len())];
                let speed = 130 + 10 * rng.below(8) as u32;
                let pitch = 30 + 5 * rng.below(9) as u32;
                let noise = noises[rng.below(noises.len())];
                let how = (voice, speed, pitch, noise);
                let samples = synthesise_cached(cache.as_deref(), dir.path(), how, sentence);
                nothing.push(Nothing {
                    seed,
                    pos,
                    what: format!("\"{sentence}\" ({voice})"),
                    samples,
                });
            }
        }
        for options in option_sets() {
            let mut listener = Listener::tuned(lang, &model, pronunciations.as_deref(), &options)
                .expect("listener");
            let label: Vec<String> = options.iter().map(|(n, v)| format!("{n} {v}")).collect();
            if !options.is_empty() {
                println!("voice_listen: {lang} with {}", label.join(" "));
            }
            measure(lang, &seeds, &said, &mut listener);
            measure_nothing(lang, &seeds, &nothing, &mut listener);
        }
    }
}

/// Recognises every recording in `said` and prints the tallies.
fn measure(lang: Lang, seeds: &[u64], said: &[Said], listener: &mut Listener) {
    let mut whole: BTreeMap<Phrasing, Tally> = BTreeMap::new();
    let mut ms: Vec<Duration> = Vec::new();
    // The worst seed per phrasing and over all phrasings (right, total, seed).
    let mut worst: BTreeMap<Option<Phrasing>, (usize, usize, u64)> = BTreeMap::new();
    for &seed in seeds {
        let mut tallies: BTreeMap<Phrasing, Tally> = BTreeMap::new();
        for one in said.iter().filter(|s| s.seed == seed) {
            let recognition = listener
                .listen(&one.pos, &one.samples)
                .expect("recognition");
            let right = recognition.heard == Some(Heard::Move(one.mv));
            let tally = tallies.entry(one.phrasing).or_default();
            tally.total += 1;
            tally.right += usize::from(right);
            ms.push(recognition.decoding);
            if !right {
                let san = SanPlus::from_move(one.pos.clone(), one.mv);
                println!(
                    "voice_listen: {lang} seed {seed} miss: {san} said \"{}\" ({}): heard {:?}",
                    one.text, one.how, recognition.text
                );
            }
        }
        let (mut right, mut total) = (0, 0);
        for (phrasing, t) in &tallies {
            println!(
                "voice_listen: {lang} seed {seed} {phrasing}: {}/{}",
                t.right, t.total
            );
            keep_worst(&mut worst, Some(*phrasing), t.right, t.total, seed);
            let w = whole.entry(*phrasing).or_default();
            w.right += t.right;
            w.total += t.total;
            right += t.right;
            total += t.total;
        }
        keep_worst(&mut worst, None, right, total, seed);
        println!("voice_listen: {lang} seed {seed} all: {right}/{total}");
    }
    let (mut right, mut total) = (0, 0);
    for (phrasing, t) in &whole {
        let (w_right, w_total, w_seed) = worst[&Some(*phrasing)];
        println!(
            "voice_listen: {lang} {phrasing}: {}/{} ({:.0}%), worst seed {w_seed}: {w_right}/{w_total}",
            t.right,
            t.total,
            100.0 * t.right as f64 / t.total as f64
        );
        right += t.right;
        total += t.total;
    }
    ms.sort();
    let (w_right, w_total, w_seed) = worst[&None];
    println!(
        "voice_listen: {lang} all: {right}/{total} ({:.0}%), worst seed {w_seed}: {w_right}/{w_total}; decode median {:.0} ms, worst {:.0} ms",
        100.0 * right as f64 / total as f64,
        ms[ms.len() / 2].as_secs_f64() * 1000.0,
        ms[ms.len() - 1].as_secs_f64() * 1000.0
    );
}

/// Recognises every recording that should play nothing and prints how
/// many were heard as a move or a command anyway, per seed.
fn measure_nothing(lang: Lang, seeds: &[u64], nothing: &[Nothing], listener: &mut Listener) {
    let mut worst = (0, 0, 0);
    let mut all = (0, 0);
    for &seed in seeds {
        let (mut accepted, mut total) = (0, 0);
        for one in nothing.iter().filter(|n| n.seed == seed) {
            let recognition = listener
                .listen(&one.pos, &one.samples)
                .expect("recognition");
            total += 1;
            if recognition.heard.is_some() {
                accepted += 1;
                println!(
                    "voice_listen: {lang} seed {seed} false accept: {} heard as {:?}",
                    one.what, recognition.text
                );
            }
        }
        if accepted >= worst.0 {
            worst = (accepted, total, seed);
        }
        all = (all.0 + accepted, all.1 + total);
    }
    println!(
        "voice_listen: {lang} nothing to hear (noise alone, talk): {}/{} heard as a move or command, worst seed {}: {}/{}",
        all.0, all.1, worst.2, worst.0, worst.1
    );
}

/// Keeps the seed with the lowest share right for `key`.
fn keep_worst(
    worst: &mut BTreeMap<Option<Phrasing>, (usize, usize, u64)>,
    key: Option<Phrasing>,
    right: usize,
    total: usize,
    seed: u64,
) {
    let entry = worst.entry(key).or_insert((right, total, seed));
    // right/total < entry.0/entry.1, without floating point.
    if right * entry.1 < entry.0 * total {
        *entry = (right, total, seed);
    }
}
