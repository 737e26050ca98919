//! Is a screen reader running? (shell: D-Bus and /proc, in a thread of
//! its own so the window never waits for it.)
//!
//! When one runs and the app still speaks with its own voice, the app asks
//! once whether the screen reader should speak instead
//! ([`crate::session::Question::ScreenReaderMode`]), so that two voices
//! never talk over each other. Nobody asked for this question, so it never
//! takes the keyboard: it is said to the focused control and shown in the
//! side column ([`offer_panel`]), and answered by typing `yes` or `no` in
//! the move input (or with its buttons); every other key stays a move.

use std::sync::mpsc;

use super::RochadeApp;
use super::layout::big;
use super::text::UiText;
use crate::session::{Pending, Question};
use crate::speech::SpeechMode;
use crate::speech::screen_reader_api::DirectSpeech;
use crate::words::{Lang, Pack};

/// How long the keyboard must be idle before the screen-reader offer, once
/// something was typed: longer than a Braille reader takes to read a move,
/// so the offer does not push a move off the Braille line.
const OFFER_IDLE_MS: u64 = 5000;

/// How soon the offer is looked at again when the window or its controls
/// do not have the keyboard yet.
const OFFER_RETRY_MS: u64 = 500;

/// How long the window must have had the keyboard before the offer: the
/// screen reader first presents the window ("Move entry ..."), and
/// drops what it is told before it knows the window (Orca never said an
/// offer asked in the window's first second, and a player who waited
/// never heard it).
const OFFER_SETTLE_MS: u64 = 2000;

/// How long the desktop's answer over D-Bus may take: a stuck bus must not
/// keep the offer (and the keys handed to the screen reader) from coming.
#[cfg(target_os = "linux")]
const DBUS_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// A way to the screen reader, found once one runs.
pub enum Reach {
    /// Keys handed to it first (Orca 43, AT-SPI).
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    Keys(Box<super::atspi_keys::Registry>),
    /// Its own interface for words (NVDA's controller client, JAWS's API).
    #[cfg_attr(not(windows), allow(dead_code))]
    Direct(DirectSpeech),
}

/// The screen reader as the window knows it: the look-up, whether one
/// runs, the offer still unanswered, and the keys handed to it first.
#[derive(Default)]
pub struct ScreenReader {
    /// The look-up still running ([`super::options::AppOptions::screen_reader`]).
    probe: Option<mpsc::Receiver<bool>>,
    /// A screen reader was found; the offer waits for no other question.
    found: bool,
    /// Since when the window has had the keyboard (the app's clock, ms).
    focused_since: Option<u64>,
    /// A screen reader runs (or the look-up has not answered yet) and the
    /// offer has not been answered: it gets the app's words too (a Braille
    /// display shows the moves typed before the offer is answered).
    pub unanswered: bool,
    /// The ways to the screen reader found by the look-up, coming.
    pub reach_rx: Option<mpsc::Receiver<Reach>>,
    /// Keys go to the screen reader first ([`super::atspi_keys`]).
    keys: Option<(super::atspi_keys::KeyFilter, super::atspi_keys::Registry)>,
    /// The screen reader's own interface (NVDA's or JAWS's, on Windows):
    /// words go there rather than to the live region.
    pub direct: Option<DirectSpeech>,
    /// Said since the last frame, for the accessibility tree ([`super::a11y`]).
    pub pending: super::a11y::Pending,
}

impl ScreenReader {
    /// The look-up started at start-up, if any.
    pub fn new(probe: Option<mpsc::Receiver<bool>>, direct: Option<DirectSpeech>) -> ScreenReader {
        ScreenReader {
            probe,
            direct,
            ..ScreenReader::default()
        }
    }

    /// Hands the frame's keys to the screen reader first (Orca 43), once
    /// the connection is there; keys it used are taken out.
    pub fn forward_keys(&mut self, raw: &mut egui::RawInput) {
        if let Some(rx) = &self.reach_rx {
            match rx.try_recv() {
                Ok(Reach::Keys(registry)) => {
                    self.keys = Some((super::atspi_keys::KeyFilter::default(), *registry));
                }
                Ok(Reach::Direct(direct)) => self.direct = Some(direct),
                Err(mpsc::TryRecvError::Disconnected) => self.reach_rx = None,
                Err(mpsc::TryRecvError::Empty) => {}
            }
        }
        if let Some((filter, registry)) = &mut self.keys {
            filter.filter(&mut raw.events, registry);
        }
    }

    /// The screen reader's own interface was given up (hung or closed):
    /// what it was handed and never said goes the accessibility tree's way
    /// (a move as a move), and so does everything after it.
    pub(super) fn rescue_unsaid(&mut self) {
        let Some(direct) = &self.direct else { return };
        let now = std::time::Instant::now();
        if direct.usable(now) {
            return;
        }
        for (text, is_move) in direct.take_unsaid(now) {
            if is_move {
                self.pending.push_move(&text);
            } else {
                self.pending.push(&text);
            }
        }
        self.direct = None;
    }

    /// Takes the look-up's answer, once it came.
    fn poll_probe(&mut self) {
        if let Some(probe) = &self.probe {
            match probe.try_recv() {
                Ok(found) => {
                    self.found = found;
                    self.probe = None;
                }
                Err(mpsc::TryRecvError::Disconnected) => self.probe = None,
                Err(mpsc::TryRecvError::Empty) => {}
            }
        }
    }
}

impl RochadeApp {
    /// Takes the look-up's answer and asks, once no other question waits.
    pub(super) fn poll_screen_reader(&mut self, ctx: &egui::Context) {
        self.screen_reader.poll_probe();
        self.screen_reader.rescue_unsaid();
        // Asked once the window has the keyboard and a control in it has
        // the focus: the screen reader presents what is said to the focused
        // control, and drops what comes before it knows the window.
        let window_focused = ctx.input(|i| i.viewport().focused) != Some(false);
        let control_focused = ctx.memory(|m| m.focused()).is_some();
        let now = self.now_ms();
        if !window_focused {
            self.screen_reader.focused_since = None;
        } else if self.screen_reader.focused_since.is_none() {
            self.screen_reader.focused_since = Some(now);
        }
        // How long the screen reader still has to present the window.
        let settling = self
            .screen_reader
            .focused_since
            .map_or(OFFER_SETTLE_MS, |since| {
                (since + OFFER_SETTLE_MS).saturating_sub(now)
            });
        let settled = settling == 0;
        // Nobody asked for this question: asked once the window has had
        // the keyboard for OFFER_SETTLE_MS when nothing was typed yet,
        // otherwise once the move input is empty and the keyboard idle, so
        // it never interrupts a move being typed or read.
        let due = self
            .panels
            .move_input
            .last_key_ms
            .map_or(0, |at| at + OFFER_IDLE_MS);
        // Keys of this frame are typing too (the move input notes them
        // after this look): on a loaded machine a whole move and its Enter
        // come in one frame, and an offer asked in it was said over by the
        // move's announcement, and a screen reader never said it at all.
        let keys_now = ctx.input(|i| {
            i.events.iter().any(|e| {
                matches!(
                    e,
                    egui::Event::Key { pressed: true, .. } | egui::Event::Text(_)
                )
            })
        });
        let idle = !keys_now && self.panels.move_input.text.is_empty() && now >= due;
        // Until answered: another question may have replaced it (the
        // session asks one at a time), then it is asked again.
        let unasked = self.settings.speech.mode == SpeechMode::SelfVoicing
            && !self.settings.speech.screen_reader_offered;
        // While the look-up runs a screen reader may be there already: it
        // gets the words too, so a move typed the moment the window opens
        // reaches its Braille display.
        let looking = self.screen_reader.probe.is_some();
        self.screen_reader.unanswered = unasked && (self.screen_reader.found || looking);
        if !(unasked && self.screen_reader.found) || self.session.pending().is_some() {
            return;
        }
        // Whatever holds the offer back, the window wakes to look again:
        // no state may leave it waiting for a key that never comes (the
        // player listening to the last move, the keyboard untouched).
        if !idle {
            // Until the keyboard has been idle long enough; text left in
            // the move input is looked at again now and then.
            let wait = if due > now { due - now } else { OFFER_IDLE_MS };
            ctx.request_repaint_after(std::time::Duration::from_millis(wait.max(50)));
            return;
        }
        if settled && control_focused && self.panels.dialogs.modal.is_none() {
            let effects = self.session.offer_screen_reader_mode();
            self.apply_effects(effects);
        } else {
            let wait = OFFER_RETRY_MS.min(settling.max(50));
            ctx.request_repaint_after(std::time::Duration::from_millis(wait));
        }
    }

    /// The screen-reader offer waits for its answer (it holds no keyboard).
    pub(super) fn offer_open(&self) -> bool {
        matches!(self.question(), Some(Question::ScreenReaderMode))
    }

    /// A question that holds the keyboard (a dialog) waits: every one of
    /// the session's but the screen-reader offer, and the spoken move
    /// asked ([`RochadeApp::spoken_move_question`]).
    pub(super) fn dialog_question(&self) -> bool {
        self.session.pending().is_some() && !self.offer_open()
            || self.spoken_move_question().is_some()
    }

    /// Text typed in the move input that answers the open offer: `yes` or
    /// `no` in any language (the packs' `[input]` words); None for a move.
    pub(super) fn offer_answer(&self, typed: &str) -> Option<bool> {
        if !self.offer_open() {
            return None;
        }
        let typed = typed.trim().to_lowercase();
        let said = |key: &str| {
            Lang::ALL.iter().any(|&lang| {
                Pack::bundled(lang)
                    .input_aliases(key)
                    .any(|word| word.to_lowercase() == typed)
            })
        };
        if said("yes") {
            Some(true)
        } else if said("no") {
            Some(false)
        } else {
            None
        }
    }

    /// The answer to the offer: the screen reader speaks from now on, or
    /// the app keeps its voice; either way the question is not asked again.
    pub(super) fn screen_reader_answered(&mut self, confirmed: bool) {
        let mut settings = self.settings.clone();
        settings.speech.screen_reader_offered = true;
        if confirmed {
            settings.speech.mode = SpeechMode::ScreenReader;
        }
        self.apply_settings(settings);
    }
}

/// The open offer, in the side column: its words and two buttons (Tab
/// reaches them; the keyboard is not taken). Returns the answer clicked.
pub(super) fn offer_panel(
    ui: &mut egui::Ui,
    t: &UiText,
    pending: Option<&Pending>,
) -> Option<bool> {
    let pending = pending?;
    if !matches!(pending.question, Question::ScreenReaderMode) {
        return None;
    }
    let mut answer = None;
    egui::Frame::group(ui.style()).show(ui, |ui| {
        super::a11y::heading(ui, big(t.get("screen_reader_offer_title"), 20.0));
        ui.label(big(pending.text.spoken.as_str(), 18.0));
        ui.horizontal_wrapped(|ui| {
            if ui.button(big(t.get("screen_reader_yes"), 18.0)).clicked() {
                answer = Some(true);
            }
            if ui.button(big(t.get("screen_reader_no"), 18.0)).clicked() {
                answer = Some(false);
            }
        });
    });
    answer
}

/// Starts the look-up; the answer arrives on the first receiver (once)
/// and wakes the window. When a screen reader runs, the ways to reach it
/// follow on the second: the connection that hands it the window's keys
/// ([`super::atspi_keys`], Linux), NVDA's or JAWS's own interface
/// (Windows).
pub fn detect_in_background(wake: egui::Context) -> (mpsc::Receiver<bool>, mpsc::Receiver<Reach>) {
    let (tx, rx) = mpsc::channel();
    let (reach_tx, reach_rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("screen-reader-probe".into())
        .spawn(move || {
            let running = screen_reader_running();
            let _ = tx.send(running);
            wake.request_repaint();
            if running {
                for reach in ways_to_reach() {
                    let _ = reach_tx.send(reach);
                    wake.request_repaint();
                }
            }
        });
    if spawned.is_err() {
        // No thread: nothing is offered, which is what happened before.
        return (mpsc::channel().1, mpsc::channel().1);
    }
    (rx, reach_rx)
}

/// The ways to a screen reader that runs (called on the look-up's thread:
/// each may take a while).
fn ways_to_reach() -> Vec<Reach> {
    let mut found = Vec::new();
    #[cfg(target_os = "linux")]
    match super::atspi_keys::Registry::connect() {
        Ok(registry) => found.push(Reach::Keys(Box::new(registry))),
        Err(e) => eprintln!("rochade: screen reader keys not forwarded: {e}"),
    }
    #[cfg(windows)]
    {
        use crate::speech::screen_reader_api::{DirectSpeech, jaws, nvda};
        // NVDA's controller first; JAWS's API made on its own thread.
        if let Some(direct) =
            DirectSpeech::open(nvda::find).or_else(|| DirectSpeech::open(jaws::find))
        {
            found.push(Reach::Direct(direct));
        }
    }
    found
}

/// The desktop says a screen reader is enabled (`ScreenReaderEnabled` of
/// `org.a11y.Status`, set by GNOME's screen-reader switch), or a screen
/// reader of this user runs (Orca started by hand sets only `IsEnabled`,
/// which any accessibility client sets).
pub fn screen_reader_running() -> bool {
    #[cfg(target_os = "linux")]
    {
        // The process list first: it is local and answers in milliseconds,
        // so the answer is there before the window takes its first key.
        screen_reader_process() || desktop_says_enabled_within(DBUS_TIMEOUT)
    }
    #[cfg(windows)]
    {
        windows_screen_reader_flag()
    }
    #[cfg(not(any(target_os = "linux", windows)))]
    {
        false
    }
}

/// Windows' own "a screen reader is running" flag (`SPI_GETSCREENREADER`),
/// which NVDA, JAWS and Narrator set while they run, and which Windows
/// programs read to decide whether to adapt to one.
#[cfg(windows)]
pub fn windows_screen_reader_flag() -> bool {
    use windows_sys::Win32::UI::WindowsAndMessaging::{SPI_GETSCREENREADER, SystemParametersInfoW};
    let mut on: i32 = 0;
    // SAFETY: SPI_GETSCREENREADER writes one BOOL to the pointer given.
    let ok = unsafe { SystemParametersInfoW(SPI_GETSCREENREADER, 0, (&raw mut on).cast(), 0) };
    ok != 0 && on != 0
}

/// [`desktop_says_enabled`], given up after `timeout` (false: nothing
/// said). The thread asking is left to finish or hang on its own.
#[cfg(target_os = "linux")]
fn desktop_says_enabled_within(timeout: std::time::Duration) -> bool {
    let (tx, rx) = mpsc::channel();
    let asked = std::thread::Builder::new()
        .name("screen-reader-dbus".into())
        .spawn(move || {
            let _ = tx.send(desktop_says_enabled().unwrap_or(false));
        });
    asked.is_ok() && rx.recv_timeout(timeout).unwrap_or(false)
}

#[cfg(target_os = "linux")]
fn desktop_says_enabled() -> zbus::Result<bool> {
    zbus::block_on(async {
        let conn = zbus::Connection::session().await?;
        let proxy =
            zbus::Proxy::new(&conn, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Status").await?;
        proxy.get_property::<bool>("ScreenReaderEnabled").await
    })
}

/// Screen readers for Linux desktops, by program name.
#[cfg(target_os = "linux")]
const SCREEN_READERS: [&str; 3] = ["orca", "odilia", "fenrir"];

#[cfg(target_os = "linux")]
fn screen_reader_process() -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(me) = std::fs::metadata("/proc/self") else {
        return false;
    };
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries.flatten().any(|entry| {
        let ours = entry.metadata().is_ok_and(|m| m.uid() == me.uid());
        ours && std::fs::read(entry.path().join("cmdline"))
            .is_ok_and(|cmdline| names_a_screen_reader(&cmdline))
    })
}

/// Whether a process's command line (NUL-separated) runs a screen reader:
/// the program itself, or a script given to an interpreter
/// (`python3 /usr/bin/orca`).
#[cfg(target_os = "linux")]
fn names_a_screen_reader(cmdline: &[u8]) -> bool {
    cmdline
        .split(|b| *b == 0)
        .take(2)
        .filter_map(|arg| std::str::from_utf8(arg).ok())
        .map(|arg| arg.rsplit('/').next().unwrap_or(arg))
        .any(|name| SCREEN_READERS.contains(&name))
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn command_lines_of_screen_readers_are_recognised() {
        assert!(names_a_screen_reader(
            b"/usr/bin/python3\0/usr/bin/orca\0--replace\0"
        ));
        assert!(names_a_screen_reader(b"orca\0"));
        assert!(names_a_screen_reader(b"/usr/local/bin/odilia\0"));
        assert!(!names_a_screen_reader(b"/usr/bin/python3\0/tmp/orcas.py\0"));
        assert!(!names_a_screen_reader(b"vim\0notes\0orca\0"));
        assert!(!names_a_screen_reader(b""));
    }

    /// The offer panel alone: shown only for the offer, its buttons
    /// handing back the answer.
    #[test]
    fn the_offer_panel_shows_only_the_offer_and_hands_back_the_answer() {
        use crate::words::Utterance;
        use egui::accesskit::Role;
        use egui_kittest::kittest::Queryable;
        let t = UiText::bundled(Lang::En);
        let pending = |question| Pending {
            question,
            text: Utterance::from("Let the screen reader speak?"),
        };
        let mut h = egui_kittest::Harness::new_ui_state(
            move |ui, (asked, answer): &mut (Option<Pending>, Option<bool>)| {
                if let Some(a) = offer_panel(ui, &t, asked.as_ref()) {
                    *answer = Some(a);
                }
            },
            (Some(pending(Question::NewGame)), None),
        );
        h.run();
        assert!(h.query_by_label("Screen reader found").is_none());
        h.state_mut().0 = Some(pending(Question::ScreenReaderMode));
        h.run();
        assert!(h.query_by_label("Screen reader found").is_some());
        assert_eq!(h.state().1, None, "nothing answered yet");
        h.get_by_role_and_label(Role::Button, "Yes, my screen reader speaks")
            .click();
        h.run();
        assert_eq!(h.state().1, Some(true));
    }
}

#[cfg(all(test, windows))]
mod windows_tests {
    use super::*;

    /// What NVDA and JAWS do while they run (set Windows' screen-reader
    /// flag) is what Rochade looks for. Run under Wine by scripts/test-windows.
    #[test]
    fn the_windows_screen_reader_flag_is_what_is_looked_for() {
        use windows_sys::Win32::UI::WindowsAndMessaging::{
            SPI_SETSCREENREADER, SystemParametersInfoW,
        };
        let set = |on: bool| {
            // SAFETY: SPI_SETSCREENREADER takes the flag in uiParam.
            let ok = unsafe {
                SystemParametersInfoW(SPI_SETSCREENREADER, u32::from(on), std::ptr::null_mut(), 0)
            };
            assert_ne!(ok, 0, "SPI_SETSCREENREADER");
        };
        set(true);
        let found = screen_reader_running();
        set(false);
        assert!(found, "a screen reader's flag was not seen");
        assert!(!screen_reader_running(), "the flag cleared was still seen");
    }
}
