//! Orca's own keys inside the window: key presses handed to the AT-SPI
//! registry (shell: D-Bus), as GTK's atk-bridge does.
//!
//! Orca 43 (Debian 12) learns of key presses in an application only when
//! the toolkit hands each one to the registry
//! (`org.a11y.atspi.DeviceEventController.NotifyListenersSync`) and obeys
//! the answer: a key Orca used (its modifier Insert, Insert+T, flat review,
//! Ctrl to stop speech) is "consumed" and must not reach the application.
//! winit and AccessKit do not do this, so without it Orca's commands are
//! dead inside the window. Newer Orca versions grab their keys themselves;
//! for them the registry answers "not consumed" and nothing changes.
//!
//! egui gives no X key codes, only keys by position and by meaning, so
//! [`x11_key`] translates them (US layout positions, the X server's evdev
//! key codes). egui does not tell the keypad's Enter from the main Enter,
//! so Orca's KP_Enter command ("Where am I") arrives as Return; with Num
//! Lock off, the keypad's other keys arrive as the navigation keys they
//! stand for and are sent as KP_ keys.

use std::collections::{HashMap, HashSet, VecDeque};
#[cfg(target_os = "linux")]
use std::time::{Duration, Instant};

use egui::{Event, Key, Modifiers};

#[cfg(target_os = "linux")]
/// How long a key may wait for the screen reader's answer before the app
/// takes it anyway (atk-bridge waits similarly; Orca answers in a few ms).
const ANSWER_TIMEOUT: Duration = Duration::from_millis(300);

/// One key as X names it: what the registry and Orca expect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct X11Key {
    pub keysym: u32,
    /// The X key code (evdev code + 8), by the key's position.
    pub keycode: u32,
    /// The keysym's name ("Insert", "KP_Home") or the character typed.
    pub name: String,
    /// Whether the key types a character.
    pub is_text: bool,
}

/// X's modifier mask for egui's modifiers (Shift, Control, Mod1 = Alt).
pub fn x11_modifiers(m: Modifiers) -> u32 {
    u32::from(m.shift) | (u32::from(m.ctrl) << 2) | (u32::from(m.alt) << 3)
}

/// The X key for an egui key event: `key` by meaning, `physical` by
/// position (None: the same). None for keys X has no name for here.
pub fn x11_key(key: Key, physical: Option<Key>, shift: bool) -> Option<X11Key> {
    let physical = physical.unwrap_or(key);
    let named = |keysym: u32, keycode: u32, name: &str| X11Key {
        keysym,
        keycode,
        name: name.to_owned(),
        is_text: false,
    };
    // The keypad with Num Lock off: a digit's position, a navigation meaning.
    if let Some(digit) = digit_value(physical)
        && digit_value(key).is_none()
    {
        let (keysym, keycode, name) = match digit {
            7 => (0xff95, 79, "KP_Home"),
            8 => (0xff97, 80, "KP_Up"),
            9 => (0xff9a, 81, "KP_Prior"),
            4 => (0xff96, 83, "KP_Left"),
            5 => (0xff9d, 84, "KP_Begin"),
            6 => (0xff98, 85, "KP_Right"),
            1 => (0xff9c, 87, "KP_End"),
            2 => (0xff99, 88, "KP_Down"),
            3 => (0xff9b, 89, "KP_Next"),
            _ => (0xff9e, 90, "KP_Insert"),
        };
        return Some(named(keysym, keycode, name));
    }
    if let Some(d) = digit_value(key) {
        let keycode = if d == 0 { 19 } else { 9 + d };
        let c = char::from(b'0' + d as u8);
        return Some(text_key(c, keycode));
    }
    if let Some(keycode) = letter_keycode(physical)
        && let Some(letter) = key.name().chars().next().filter(|_| key.name().len() == 1)
    {
        let c = if shift {
            letter.to_ascii_uppercase()
        } else {
            letter.to_ascii_lowercase()
        };
        return Some(text_key(c, keycode));
    }
    let function = [
        Key::F1,
        Key::F2,
        Key::F3,
        Key::F4,
        Key::F5,
        Key::F6,
        Key::F7,
        Key::F8,
        Key::F9,
        Key::F10,
        Key::F11,
        Key::F12,
    ];
    if let Some(i) = function.iter().position(|f| *f == key) {
        let keycode = [67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 95, 96][i];
        return Some(named(0xffbe + i as u32, keycode, &format!("F{}", i + 1)));
    }
    let (keysym, keycode, name) = match key {
        Key::Enter => (0xff0d, 36, "Return"),
        Key::Escape => (0xff1b, 9, "Escape"),
        Key::Tab => (0xff09, 23, "Tab"),
        Key::Backspace => (0xff08, 22, "BackSpace"),
        Key::Insert => (0xff63, 118, "Insert"),
        Key::Delete => (0xffff, 119, "Delete"),
        Key::Home => (0xff50, 110, "Home"),
        Key::End => (0xff57, 115, "End"),
        Key::PageUp => (0xff55, 112, "Prior"),
        Key::PageDown => (0xff56, 117, "Next"),
        Key::ArrowLeft => (0xff51, 113, "Left"),
        Key::ArrowUp => (0xff52, 111, "Up"),
        Key::ArrowRight => (0xff53, 114, "Right"),
        Key::ArrowDown => (0xff54, 116, "Down"),
        Key::Space => return Some(text_key(' ', 65)),
        Key::Minus => return Some(text_key('-', 20)),
        // egui names the keypad's plus by its position alone (the main
        // keyboard's plus is Shift and the equals key).
        Key::Plus if physical == Key::Plus => (0xffab, 86, "KP_Add"),
        Key::Plus => return Some(text_key('+', 21)),
        Key::Period => return Some(text_key('.', 60)),
        Key::Comma => return Some(text_key(',', 59)),
        Key::Slash => return Some(text_key('/', 61)),
        _ => return None,
    };
    Some(named(keysym, keycode, name))
}

/// Keys egui names alike on the main keyboard and the keypad, by their X
/// key codes: (main, keypad, the keypad key's keysym and name).
const KEYPAD_TWINS: [(u32, u32, u32, &str); 3] = [
    (20, 82, 0xffad, "KP_Subtract"),
    (36, 104, 0xff8d, "KP_Enter"),
    (61, 106, 0xffaf, "KP_Divide"),
];

/// The keypad twin of a main key, when the X server says the press came
/// from the keypad (`true_codes`: the key codes pressed, oldest first;
/// those up to the match are used up).
fn keypad_twin(x: &X11Key, true_codes: &mut VecDeque<u32>) -> Option<X11Key> {
    let &(main, keypad, keysym, name) = KEYPAD_TWINS.iter().find(|t| t.0 == x.keycode)?;
    let at = true_codes.iter().position(|c| *c == main || *c == keypad)?;
    let code = true_codes[at];
    true_codes.drain(..=at);
    (code == keypad).then(|| X11Key {
        keysym,
        keycode: keypad,
        name: name.to_owned(),
        is_text: false,
    })
}

fn text_key(c: char, keycode: u32) -> X11Key {
    X11Key {
        keysym: u32::from(c),
        keycode,
        name: c.to_string(),
        is_text: true,
    }
}

fn digit_value(key: Key) -> Option<u32> {
    super::keys::DIGIT_KEYS
        .iter()
        .position(|d| *d == key)
        .map(|i| i as u32)
}

/// X key codes of the letters by their position on a US keyboard.
fn letter_keycode(key: Key) -> Option<u32> {
    let name = key.name();
    let letter = name
        .chars()
        .next()
        .filter(|c| name.len() == 1 && c.is_ascii_alphabetic())?;
    const ROWS: [(&str, u32); 3] = [("QWERTYUIOP", 24), ("ASDFGHJKL", 38), ("ZXCVBNM", 52)];
    ROWS.iter().find_map(|(row, first)| {
        row.find(letter.to_ascii_uppercase())
            .map(|i| first + i as u32)
    })
}

/// One key event for the registry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyReport {
    pub pressed: bool,
    pub key: X11Key,
    pub modifiers: u32,
}

/// Where key reports go: the registry, which answers whether a screen
/// reader used the key.
pub trait KeySink {
    fn report(&mut self, report: &KeyReport) -> bool;

    /// Appends the true X key codes of the presses since the last call
    /// (the keypad's twins of minus, slash and Enter); nothing where the
    /// platform cannot tell.
    fn true_keycodes(&mut self, _into: &mut VecDeque<u32>) {}
}

/// Hands every key of a frame to the sink before egui sees it and takes
/// out what the screen reader used (pure: the sink does the I/O).
#[derive(Default)]
pub struct KeyFilter {
    /// Keys whose press the screen reader used: their release is its too.
    consumed: HashSet<Key>,
    /// Shift, Control and Alt as last reported.
    modifiers: Modifiers,
    /// True X key codes pressed and not yet matched to egui's keys.
    true_codes: VecDeque<u32>,
    /// The X key each held key's press was reported as (its release is
    /// reported the same: a keypad minus is released as KP_Subtract).
    held: HashMap<Key, X11Key>,
}

impl KeyFilter {
    pub fn filter(&mut self, events: &mut Vec<Event>, sink: &mut dyn KeySink) {
        let mut drop_text = false;
        let twin_pressed = events.iter().any(|e| {
            matches!(e, Event::Key { key, pressed: true, repeat: false, .. }
                if matches!(key, Key::Minus | Key::Enter | Key::Slash))
        });
        if twin_pressed {
            sink.true_keycodes(&mut self.true_codes);
        }
        events.retain(|event| match event {
            Event::Key {
                key,
                physical_key,
                pressed,
                repeat,
                modifiers,
            } => {
                let Some(mut x) = x11_key(*key, *physical_key, modifiers.shift) else {
                    drop_text = false;
                    return true;
                };
                if *pressed && !*repeat {
                    if let Some(twin) = keypad_twin(&x, &mut self.true_codes) {
                        x = twin;
                    }
                    self.held.insert(*key, x.clone());
                } else if let Some(held) = self.held.get(key) {
                    x = held.clone();
                    if !*pressed {
                        self.held.remove(key);
                    }
                }
                let used = sink.report(&KeyReport {
                    pressed: *pressed,
                    key: x,
                    modifiers: x11_modifiers(*modifiers),
                });
                let used = if *pressed {
                    if used {
                        self.consumed.insert(*key);
                    }
                    used
                } else {
                    self.consumed.remove(key) || used
                };
                // The character a used key would type goes with it.
                drop_text = used && *pressed;
                !used
            }
            Event::Text(_) if drop_text => {
                drop_text = false;
                false
            }
            Event::ModifiersChanged(modifiers) => {
                self.modifiers_changed(*modifiers, sink);
                true
            }
            _ => true,
        });
    }

    /// Shift, Control and Alt pressed or released: egui has no key events
    /// for them, but Orca needs Control's press to stop speech.
    fn modifiers_changed(&mut self, modifiers: Modifiers, sink: &mut dyn KeySink) {
        for (down, was, keysym, keycode, name, bit) in [
            (
                modifiers.ctrl,
                self.modifiers.ctrl,
                0xffe3,
                37,
                "Control_L",
                4,
            ),
            (
                modifiers.shift,
                self.modifiers.shift,
                0xffe1,
                50,
                "Shift_L",
                1,
            ),
            (modifiers.alt, self.modifiers.alt, 0xffe9, 64, "Alt_L", 8),
        ] {
            if down != was {
                // X reports the state before the event: a modifier's own
                // bit is set on its release, not on its press.
                let others = x11_modifiers(modifiers) & !bit;
                sink.report(&KeyReport {
                    pressed: down,
                    key: X11Key {
                        keysym,
                        keycode,
                        name: name.to_owned(),
                        is_text: false,
                    },
                    modifiers: if down { others } else { others | bit },
                });
            }
        }
        self.modifiers = modifiers;
    }
}

/// Other platforms' screen readers see the keys themselves: there is no
/// registry to hand them to (no value of this type exists).
#[cfg(not(target_os = "linux"))]
pub enum Registry {}

#[cfg(not(target_os = "linux"))]
impl KeySink for Registry {
    fn report(&mut self, _: &KeyReport) -> bool {
        match *self {}
    }
}

/// The AT-SPI registry on the accessibility bus.
#[cfg(target_os = "linux")]
pub struct Registry {
    conn: zbus::Connection,
    start: Instant,
    /// The true key codes, where the window is on an X display.
    raw_keys: Option<super::x11_raw_keys::RawKeys>,
}

#[cfg(target_os = "linux")]
impl Registry {
    /// Connects to the accessibility bus (its address from the session
    /// bus's `org.a11y.Bus`).
    pub fn connect() -> zbus::Result<Registry> {
        zbus::block_on(async {
            let session = zbus::Connection::session().await?;
            let reply = session
                .call_method(
                    Some("org.a11y.Bus"),
                    "/org/a11y/bus",
                    Some("org.a11y.Bus"),
                    "GetAddress",
                    &(),
                )
                .await?;
            let address: String = reply.body().deserialize()?;
            let conn = zbus::connection::Builder::address(address.as_str())?
                .method_timeout(ANSWER_TIMEOUT)
                .build()
                .await?;
            Ok(Registry {
                conn,
                start: Instant::now(),
                raw_keys: super::x11_raw_keys::RawKeys::connect(),
            })
        })
    }
}

#[cfg(target_os = "linux")]
impl KeySink for Registry {
    fn report(&mut self, r: &KeyReport) -> bool {
        // (uinnisb): type, keysym, key code, modifiers, time, string, is
        // text. The registry of at-spi2-core 2.46 reads key code and
        // modifiers as 16-bit numbers (its introspection data says 32) and
        // refuses anything else as invalid arguments.
        let event = (
            u32::from(!r.pressed),
            r.key.keysym as i32,
            r.key.keycode as i16,
            r.modifiers as i16,
            self.start.elapsed().as_millis() as i32,
            r.key.name.as_str(),
            r.key.is_text,
        );
        let answer = zbus::block_on(self.conn.call_method(
            Some("org.a11y.atspi.Registry"),
            "/org/a11y/atspi/registry/deviceeventcontroller",
            Some("org.a11y.atspi.DeviceEventController"),
            "NotifyListenersSync",
            &(event,),
        ));
        answer
            .ok()
            .and_then(|m| m.body().deserialize::<bool>().ok())
            .unwrap_or(false)
    }

    fn true_keycodes(&mut self, into: &mut VecDeque<u32>) {
        if let Some(raw) = &mut self.raw_keys {
            raw.presses(into);
        }
    }
}

#[cfg(test)]
mod tests;
