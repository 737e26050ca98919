use super::*;

/// A tone standing for speech: 300 Hz at `amplitude`.
fn tone(ms: u64, amplitude: f64) -> Vec<i16> {
    let n = (ms * 16) as usize;
    (0..n)
        .map(|i| (amplitude * (i as f64 * 300.0 * std::f64::consts::TAU / 16_000.0).sin()) as i16)
        .collect()
}

/// Deterministic hiss: a small linear congruential generator.
fn hiss(ms: u64, amplitude: i32, seed: u32) -> Vec<i16> {
    let mut x: u32 = seed;
    (0..(ms * 16) as usize)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            ((x >> 16) as i32 % (2 * amplitude + 1) - amplitude) as i16
        })
        .collect()
}

fn silence(ms: u64) -> Vec<i16> {
    vec![0; (ms * 16) as usize]
}

fn mixed(a: &[i16], b: &[i16]) -> Vec<i16> {
    a.iter().zip(b).map(|(x, y)| x.saturating_add(*y)).collect()
}

/// Feeds `samples` in 20 ms buffers as a sound card would, the clock
/// running from `*now`; every utterance that comes out.
fn feed(cutter: &mut Cutter, samples: &[i16], now: &mut u64) -> Vec<Utterance> {
    let mut out = Vec::new();
    for buffer in samples.chunks(320) {
        *now += buffer.len() as u64 / 16;
        out.extend(cutter.handle(CutterEvent::Audio {
            samples: buffer,
            at_ms: *now,
        }));
    }
    out
}

#[test]
fn silence_and_steady_noise_give_nothing() {
    let mut now = 0;
    let mut cutter = Cutter::new(Mode::Continuous);
    assert!(feed(&mut cutter, &silence(10_000), &mut now).is_empty());
    let mut cutter = Cutter::new(Mode::Continuous);
    assert!(feed(&mut cutter, &hiss(10_000, 300, 7), &mut now).is_empty());
    let floor = cutter.noise_floor().expect("a floor");
    assert!((100.0..200.0).contains(&floor), "{floor}");
}

#[test]
fn a_tone_burst_between_silences_is_one_utterance_with_its_margins() {
    let mut now = 0;
    let mut cutter = Cutter::new(Mode::Continuous);
    let mut audio = silence(1_000);
    audio.extend(tone(800, 6_000.0));
    audio.extend(silence(2_000));
    let out = feed(&mut cutter, &audio, &mut now);
    assert_eq!(out.len(), 1, "{out:?}");
    let said = &out[0];
    assert!(!said.cut_at_cap);
    // 300 ms before the burst (less the 2 frames that started it), the
    // burst, and the 600 ms of quiet that ended it.
    let ms = said.samples.len() / 16;
    assert!((1_650..=1_720).contains(&ms), "{ms} ms");
    assert!(said.samples.iter().any(|&s| s > 5_000));
}

#[test]
fn speech_in_room_noise_is_found_and_ends_after_the_pause() {
    let mut now = 0;
    let mut cutter = Cutter::new(Mode::Continuous);
    let mut audio = hiss(2_000, 300, 1);
    audio.extend(mixed(&tone(700, 3_000.0), &hiss(700, 300, 2)));
    // A pause shorter than the end of an utterance: still one utterance.
    audio.extend(hiss(400, 300, 3));
    audio.extend(mixed(&tone(500, 3_000.0), &hiss(500, 300, 4)));
    audio.extend(hiss(2_000, 300, 5));
    let out = feed(&mut cutter, &audio, &mut now);
    assert_eq!(out.len(), 1, "{}", out.len());
    let ms = out[0].samples.len() / 16;
    assert!((2_400..=2_500).contains(&ms), "{ms} ms");
}

#[test]
fn a_click_is_not_speech() {
    let mut now = 0;
    let mut cutter = Cutter::new(Mode::Continuous);
    let mut audio = silence(500);
    audio.extend(tone(60, 20_000.0));
    audio.extend(silence(1_500));
    assert!(feed(&mut cutter, &audio, &mut now).is_empty());
}

#[test]
fn endless_talk_is_cut_at_the_cap_and_a_new_steady_noise_becomes_the_floor() {
    let mut now = 0;
    let mut cutter = Cutter::new(Mode::Continuous);
    let mut audio = silence(500);
    // A fan switched on, loud, and left on.
    audio.extend(hiss(12_000, 3_000, 9));
    let out = feed(&mut cutter, &audio, &mut now);
    assert_eq!(out.len(), 1, "{}", out.len());
    assert!(out[0].cut_at_cap);
    assert_eq!(out[0].samples.len(), 5 * 16_000);
    // After the cap the fan is the room's level, and a word over it is heard.
    let mut word = mixed(&tone(600, 12_000.0), &hiss(600, 3_000, 10));
    word.extend(hiss(1_000, 3_000, 11));
    let out = feed(&mut cutter, &word, &mut now);
    assert_eq!(out.len(), 1, "{}", out.len());
    assert!(!out[0].cut_at_cap);
}

#[test]
fn nothing_is_heard_while_rochade_speaks_nor_just_after() {
    let mut now = 1_000;
    let mut cutter = Cutter::new(Mode::Continuous);
    feed(&mut cutter, &silence(500), &mut now);
    cutter.handle(CutterEvent::SpeakingStarted { at_ms: now });
    // Rochade's own voice through the microphone: "Springer f3".
    let mut own_voice = tone(1_500, 8_000.0);
    own_voice.extend(silence(1_000));
    assert!(feed(&mut cutter, &own_voice, &mut now).is_empty());
    cutter.handle(CutterEvent::SpeakingStopped { at_ms: now });
    // Its echo in the tail.
    assert!(cutter.muted(now + MUTE_TAIL_MS - 10));
    let echo = tone(200, 8_000.0);
    assert!(feed(&mut cutter, &echo, &mut now).is_empty());
    let mut quiet = silence(200);
    quiet.extend(silence(1_000));
    assert!(feed(&mut cutter, &quiet, &mut now).is_empty());
    // Then the player: heard.
    let mut player = tone(700, 6_000.0);
    player.extend(silence(1_000));
    assert_eq!(feed(&mut cutter, &player, &mut now).len(), 1);
}

#[test]
fn speech_cut_into_by_rochade_is_dropped_not_finished_later() {
    let mut now = 0;
    let mut cutter = Cutter::new(Mode::Continuous);
    feed(&mut cutter, &silence(500), &mut now);
    assert!(feed(&mut cutter, &tone(400, 6_000.0), &mut now).is_empty());
    cutter.handle(CutterEvent::SpeakingStarted { at_ms: now });
    cutter.handle(CutterEvent::SpeakingStopped { at_ms: now + 500 });
    now += 1_000;
    assert!(feed(&mut cutter, &silence(2_000), &mut now).is_empty());
}

#[test]
fn push_to_talk_gives_what_was_heard_between_key_down_and_up() {
    let mut now = 0;
    let mut cutter = Cutter::new(Mode::PushToTalk);
    // Before the key: not heard, however loud.
    assert!(feed(&mut cutter, &tone(1_000, 8_000.0), &mut now).is_empty());
    cutter.handle(CutterEvent::KeyDown { at_ms: now });
    let mut said = silence(100);
    said.extend(tone(500, 2_000.0));
    // No pause ends it: only the key does.
    said.extend(silence(1_500));
    assert!(feed(&mut cutter, &said, &mut now).is_empty());
    let out = cutter
        .handle(CutterEvent::KeyUp { at_ms: now })
        .expect("an utterance");
    assert_eq!(out.samples, said);
    // Key up again, or up without down: nothing.
    assert_eq!(cutter.handle(CutterEvent::KeyUp { at_ms: now }), None);
    assert!(feed(&mut cutter, &tone(500, 8_000.0), &mut now).is_empty());
    // The key in continuous mode means nothing.
    let mut continuous = Cutter::new(Mode::Continuous);
    continuous.handle(CutterEvent::KeyDown { at_ms: 0 });
    assert_eq!(continuous.handle(CutterEvent::KeyUp { at_ms: 0 }), None);
}

#[test]
fn push_to_talk_is_deaf_while_rochade_speaks_and_capped() {
    let mut now = 0;
    let mut cutter = Cutter::new(Mode::PushToTalk);
    cutter.handle(CutterEvent::KeyDown { at_ms: now });
    cutter.handle(CutterEvent::SpeakingStarted { at_ms: now });
    feed(&mut cutter, &tone(1_000, 8_000.0), &mut now);
    cutter.handle(CutterEvent::SpeakingStopped { at_ms: now });
    feed(&mut cutter, &tone(MUTE_TAIL_MS, 8_000.0), &mut now);
    let player = tone(400, 3_000.0);
    feed(&mut cutter, &player, &mut now);
    let out = cutter
        .handle(CutterEvent::KeyUp { at_ms: now })
        .expect("the player's words");
    assert_eq!(out.samples, player);
    // A key held down and forgotten: 5 s, then nothing more.
    cutter.handle(CutterEvent::KeyDown { at_ms: now });
    let out = feed(&mut cutter, &tone(7_000, 3_000.0), &mut now);
    assert_eq!(out.len(), 1);
    assert!(out[0].cut_at_cap);
    assert_eq!(out[0].samples.len(), 80_000);
    assert_eq!(cutter.handle(CutterEvent::KeyUp { at_ms: now }), None);
}
