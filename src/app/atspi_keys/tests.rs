use super::*;

#[test]
fn keys_get_their_x_names_and_codes() {
    let k = |key, physical, shift| x11_key(key, physical, shift).unwrap();
    assert_eq!(
        k(Key::Insert, None, false),
        X11Key {
            keysym: 0xff63,
            keycode: 118,
            name: "Insert".into(),
            is_text: false
        }
    );
    let t = k(Key::T, None, false);
    assert_eq!(
        (t.keysym, t.keycode, t.name.as_str(), t.is_text),
        (0x74, 28, "t", true)
    );
    assert_eq!(k(Key::T, None, true).name, "T");
    assert_eq!(k(Key::A, None, false).keycode, 38);
    assert_eq!(k(Key::M, None, false).keycode, 58);
    assert_eq!(k(Key::Num1, None, false).keycode, 10);
    assert_eq!(k(Key::Num0, None, false).keycode, 19);
    assert_eq!(k(Key::F1, None, false).name, "F1");
    assert_eq!(k(Key::F12, None, false).keycode, 96);
    // Keypad 8 with Num Lock off: position 8, meaning Up.
    assert_eq!(k(Key::ArrowUp, Some(Key::Num8), false).name, "KP_Up");
    assert_eq!(k(Key::Insert, Some(Key::Num0), false).name, "KP_Insert");
    assert_eq!(k(Key::ArrowUp, None, false).name, "Up");
    assert_eq!(x11_modifiers(Modifiers::CTRL | Modifiers::SHIFT), 5);
}

/// A screen reader that uses Insert (its modifier) and Insert+T.
#[derive(Default)]
struct FakeOrca {
    seen: Vec<KeyReport>,
    modifier_down: bool,
}

impl KeySink for FakeOrca {
    fn report(&mut self, r: &KeyReport) -> bool {
        self.seen.push(r.clone());
        if r.key.name == "Insert" {
            self.modifier_down = r.pressed;
            return true;
        }
        self.modifier_down
    }
}

fn key(key: Key, pressed: bool) -> Event {
    Event::Key {
        key,
        physical_key: None,
        pressed,
        repeat: false,
        modifiers: Modifiers::NONE,
    }
}

#[test]
fn keys_the_screen_reader_uses_never_reach_the_app_and_others_do() {
    let mut filter = KeyFilter::default();
    let mut orca = FakeOrca::default();
    let mut events = vec![
        key(Key::Insert, true),
        key(Key::T, true),
        Event::Text("t".into()),
        key(Key::T, false),
        key(Key::Insert, false),
        key(Key::E, true),
        Event::Text("e".into()),
        key(Key::E, false),
    ];
    filter.filter(&mut events, &mut orca);
    assert_eq!(
        events,
        vec![
            key(Key::E, true),
            Event::Text("e".into()),
            key(Key::E, false)
        ]
    );
    assert_eq!(orca.seen.len(), 6, "every key went to the screen reader");
    assert!(orca.seen[1].pressed && orca.seen[1].key.name == "t");
}

/// A screen reader that uses the keypad's plus and minus (Orca's "say
/// all" and flat review) and sees the true key codes.
struct KeypadOrca {
    seen: Vec<String>,
    codes: Vec<u32>,
}

impl KeySink for KeypadOrca {
    fn report(&mut self, r: &KeyReport) -> bool {
        self.seen.push(format!(
            "{}{}",
            if r.pressed { "+" } else { "-" },
            r.key.name
        ));
        r.key.name.starts_with("KP_")
    }

    fn true_keycodes(&mut self, into: &mut VecDeque<u32>) {
        into.extend(self.codes.drain(..));
    }
}

fn key_at(key: Key, physical: Key, pressed: bool) -> Event {
    Event::Key {
        key,
        physical_key: Some(physical),
        pressed,
        repeat: false,
        modifiers: Modifiers::NONE,
    }
}

/// The keypad's plus and minus reach the screen reader as KP_Add and
/// KP_Subtract and type nothing; the main minus types "-" (it typed
/// "+-" into the move input and Orca never heard the keys).
#[test]
fn keypad_keys_go_to_the_screen_reader_by_their_true_names() {
    let mut filter = KeyFilter::default();
    // X says: keypad minus (82), then the main minus (20).
    let mut orca = KeypadOrca {
        seen: Vec::new(),
        codes: vec![82, 20],
    };
    let mut events = vec![
        key_at(Key::Plus, Key::Plus, true),
        Event::Text("+".into()),
        key_at(Key::Plus, Key::Plus, false),
        key_at(Key::Minus, Key::Minus, true),
        Event::Text("-".into()),
        key_at(Key::Minus, Key::Minus, false),
        key_at(Key::Minus, Key::Minus, true),
        Event::Text("-".into()),
        key_at(Key::Minus, Key::Minus, false),
    ];
    filter.filter(&mut events, &mut orca);
    assert_eq!(
        orca.seen,
        [
            "+KP_Add",
            "-KP_Add",
            "+KP_Subtract",
            "-KP_Subtract",
            "+-",
            "--"
        ]
    );
    assert_eq!(
        events,
        vec![
            key_at(Key::Minus, Key::Minus, true),
            Event::Text("-".into()),
            key_at(Key::Minus, Key::Minus, false),
        ],
        "only the main minus types"
    );
    // The main keyboard's plus (Shift and equals) is text.
    let plus = x11_key(Key::Plus, Some(Key::Equals), true).unwrap();
    assert_eq!((plus.name.as_str(), plus.is_text), ("+", true));
}

#[test]
fn control_alone_is_reported_from_the_modifier_state() {
    let mut filter = KeyFilter::default();
    let mut orca = FakeOrca::default();
    let mut events = vec![
        Event::ModifiersChanged(Modifiers::CTRL),
        Event::ModifiersChanged(Modifiers::CTRL),
        Event::ModifiersChanged(Modifiers::NONE),
    ];
    filter.filter(&mut events, &mut orca);
    assert_eq!(events.len(), 3, "the app still sees the modifiers");
    let said: Vec<_> = orca
        .seen
        .iter()
        .map(|r| (r.key.name.as_str(), r.pressed, r.modifiers))
        .collect();
    assert_eq!(said, [("Control_L", true, 0), ("Control_L", false, 4)]);
}
