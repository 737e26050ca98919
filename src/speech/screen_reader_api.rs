//! Words handed to the screen reader through its own programming interface
//! (NVDA's controller client on Windows), rather than through the
//! accessibility tree's live region.
//!
//! Why: a live region is "polite"; NVDA reads it after whatever it is
//! saying, so a move could come late. Through the controller a move
//! cancels NVDA's speech and is said at once, and it goes to the Braille
//! display as a message; other words queue behind it.
//!
//! Every call into the screen reader is a call into another process (NVDA
//! answers over RPC), so the calls run on a thread of their own: the
//! window never waits for them. When a call has not returned within
//! [`CALL_TIMEOUT`], or one failed (NVDA was closed), the interface is
//! given up and the words go the accessibility-tree way again, those it
//! was handed and never said first ([`DirectSpeech::take_unsaid`]), so no
//! move is said to nobody.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long one call into the screen reader may take before it is given
/// up for the rest of the session.
pub const CALL_TIMEOUT: Duration = Duration::from_millis(1500);

/// A screen reader's own interface: what NVDA's controller client and
/// JAWS's API offer. Used only on the thread it was made on (JAWS's is a
/// COM object of that thread).
pub trait ScreenReaderApi: 'static {
    /// Says `text`; `interrupt`: what the screen reader was saying stops
    /// first. False: the screen reader did not take it.
    fn speak(&mut self, text: &str, interrupt: bool) -> bool;
    /// Shows `text` on the Braille display as a message. False: not taken.
    fn braille(&mut self, text: &str) -> bool;
}

/// What was asked of the screen reader, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Request {
    /// A move: said at once (interrupting) and brailled.
    Move(String),
    /// Any other words: said after what is being said, and brailled.
    Words(String),
}

/// Whether the interface can still be used: a pure record of the worker's
/// last call, the time passed in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Health {
    /// A call began at this time and has not returned yet.
    pub busy_since: Option<Instant>,
    /// A call failed or overran: the interface is given up.
    pub given_up: bool,
    /// The words handed over and not yet said (or cut off by a later
    /// move), oldest first, with whether each is a move: what the caller
    /// says another way when the interface is given up.
    pub unsaid: std::collections::VecDeque<(String, bool)>,
}

impl Health {
    /// The interface takes more words at `now`.
    pub fn usable(&self, now: Instant) -> bool {
        !self.given_up
            && self
                .busy_since
                .is_none_or(|since| now.duration_since(since) < CALL_TIMEOUT)
    }
}

/// The screen reader's interface on a thread of its own.
pub struct DirectSpeech {
    requests: mpsc::Sender<Request>,
    health: Arc<Mutex<Health>>,
}

impl DirectSpeech {
    /// Starts the thread that calls `api`. None if no thread could start.
    pub fn start(api: impl ScreenReaderApi + Send) -> Option<DirectSpeech> {
        DirectSpeech::open(move || Some(api))
    }

    /// Starts the thread, which makes the interface with `make` (on that
    /// thread, where it is then used) and calls it. None when `make` finds
    /// no screen reader, or does not answer within [`CALL_TIMEOUT`]; the
    /// caller waits that long at most.
    pub fn open<A: ScreenReaderApi>(
        make: impl FnOnce() -> Option<A> + Send + 'static,
    ) -> Option<DirectSpeech> {
        let (tx, rx) = mpsc::channel::<Request>();
        let (ready_tx, ready_rx) = mpsc::channel::<bool>();
        let health = Arc::new(Mutex::new(Health::default()));
        let worker_health = Arc::clone(&health);
        std::thread::Builder::new()
            .name("screen-reader-api".into())
            .spawn(move || {
                let Some(api) = make() else {
                    let _ = ready_tx.send(false);
                    return;
                };
                let _ = ready_tx.send(true);
                run(api, &rx, &worker_health);
            })
            .ok()?;
        match ready_rx.recv_timeout(CALL_TIMEOUT) {
            Ok(true) => Some(DirectSpeech {
                requests: tx,
                health,
            }),
            _ => None,
        }
    }

    /// Hands `text` to the screen reader (`is_move`: at once, cutting off
    /// what it says). False: the interface is given up, and the caller
    /// says the words another way.
    pub fn say(&self, text: &str, is_move: bool, now: Instant) -> bool {
        if !self.usable(now) {
            return false;
        }
        let request = if is_move {
            Request::Move(text.to_owned())
        } else {
            Request::Words(text.to_owned())
        };
        self.lock().unsaid.push_back((text.to_owned(), is_move));
        if self.requests.send(request).is_err() {
            self.lock().unsaid.pop_back();
            return false;
        }
        true
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Health> {
        self.health.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Once the interface is given up: the words it was handed and never
    /// said (a move among them first of all), for the caller to say
    /// another way. Empty while it works.
    pub fn take_unsaid(&self, now: Instant) -> Vec<(String, bool)> {
        if self.usable(now) {
            return Vec::new();
        }
        self.lock().unsaid.drain(..).collect()
    }

    /// The interface still takes words at `now` (it may have been given
    /// up since the last words: then they are said another way too).
    pub fn usable(&self, now: Instant) -> bool {
        let mut health = self.health.lock().unwrap_or_else(|e| e.into_inner());
        if !health.usable(now) {
            health.given_up = true;
        }
        health.usable(now)
    }
}

fn run(mut api: impl ScreenReaderApi, rx: &mpsc::Receiver<Request>, health: &Mutex<Health>) {
    let set = |f: &dyn Fn(&mut Health)| f(&mut health.lock().unwrap_or_else(|e| e.into_inner()));
    while let Ok(request) = rx.recv() {
        // A move waiting behind older words goes first: they are dropped
        // (the move cuts them off anyway).
        let mut batch = vec![request];
        batch.extend(rx.try_iter());
        if let Some(last_move) = batch.iter().rposition(|r| matches!(r, Request::Move(_))) {
            batch.drain(..last_move);
            // Cut off by the move: not said, and not to be said later.
            set(&|h| {
                h.unsaid.drain(..last_move.min(h.unsaid.len()));
            });
        }
        for request in batch {
            set(&|h| h.busy_since = Some(Instant::now()));
            let ok = match &request {
                Request::Move(text) => {
                    let said = api.speak(text, true);
                    api.braille(text) || said
                }
                Request::Words(text) => {
                    let said = api.speak(text, false);
                    api.braille(text) || said
                }
            };
            set(&|h| {
                h.busy_since = None;
                if ok {
                    h.unsaid.pop_front();
                } else {
                    h.given_up = true;
                }
            });
            if !ok {
                return;
            }
        }
    }
}

/// NVDA's controller client (`nvdaControllerClient64.dll`, shipped beside
/// `rochade.exe`), loaded at run time so Rochade starts without it.
#[cfg(windows)]
pub mod nvda {
    use std::ffi::c_void;
    use std::path::{Path, PathBuf};

    use windows_sys::Win32::System::LibraryLoader::{GetProcAddress, LoadLibraryW};
    use windows_sys::Win32::UI::WindowsAndMessaging::FindWindowW;

    type NoArg = unsafe extern "system" fn() -> u32;
    type Text = unsafe extern "system" fn(*const u16) -> u32;

    /// The DLL's file name.
    pub const DLL: &str = "nvdaControllerClient64.dll";

    /// The controller's four functions.
    pub struct Nvda {
        speak_text: Text,
        braille_message: Text,
        cancel_speech: NoArg,
        test_if_running: NoArg,
    }

    // SAFETY: the functions are plain exported C functions of a DLL that
    // stays loaded for the life of the process (never freed).
    unsafe impl Send for Nvda {}

    fn wide(text: &str) -> Vec<u16> {
        text.encode_utf16().chain(std::iter::once(0)).collect()
    }

    /// Where the DLL is looked for: `ROCHADE_NVDA_CONTROLLER` (a test's
    /// copy), else beside the program.
    pub fn dll_path() -> PathBuf {
        if let Some(path) = std::env::var_os("ROCHADE_NVDA_CONTROLLER") {
            return PathBuf::from(path);
        }
        std::env::current_exe()
            .ok()
            .and_then(|exe| exe.parent().map(|dir| dir.join(DLL)))
            .unwrap_or_else(|| PathBuf::from(DLL))
    }

    impl Nvda {
        /// Loads the controller from `path`.
        pub fn load(path: &Path) -> Result<Nvda, String> {
            let wpath: Vec<u16> = path
                .as_os_str()
                .to_string_lossy()
                .encode_utf16()
                .chain(std::iter::once(0))
                .collect();
            // SAFETY: a NUL-terminated wide path.
            let module = unsafe { LoadLibraryW(wpath.as_ptr()) };
            if module.is_null() {
                return Err(format!("{} could not be loaded", path.display()));
            }
            let find = |name: &[u8]| -> Result<*const c_void, String> {
                // SAFETY: a loaded module and a NUL-terminated name.
                unsafe { GetProcAddress(module, name.as_ptr()) }
                    .map(|f| f as *const c_void)
                    .ok_or_else(|| {
                        format!(
                            "{} has no {}",
                            path.display(),
                            String::from_utf8_lossy(&name[..name.len() - 1])
                        )
                    })
            };
            // SAFETY: the controller's documented signatures
            // (nvdaController.h: error_status_t, wchar_t strings).
            unsafe {
                Ok(Nvda {
                    speak_text: std::mem::transmute::<*const c_void, Text>(find(
                        b"nvdaController_speakText\0",
                    )?),
                    braille_message: std::mem::transmute::<*const c_void, Text>(find(
                        b"nvdaController_brailleMessage\0",
                    )?),
                    cancel_speech: std::mem::transmute::<*const c_void, NoArg>(find(
                        b"nvdaController_cancelSpeech\0",
                    )?),
                    test_if_running: std::mem::transmute::<*const c_void, NoArg>(find(
                        b"nvdaController_testIfRunning\0",
                    )?),
                })
            }
        }

        /// NVDA runs: its main window is there, and the controller
        /// answers (0 is RPC's "no error"). The window is looked for first,
        /// as Tolk does: the controller alone said "running" under Wine
        /// with no NVDA at all, and other screen readers answer in NVDA's
        /// name.
        pub fn running(&self) -> bool {
            let class = wide("wxWindowClassNR");
            let title = wide("NVDA");
            // SAFETY: two NUL-terminated wide strings.
            let window = unsafe { FindWindowW(class.as_ptr(), title.as_ptr()) };
            // SAFETY: no arguments.
            !window.is_null() && unsafe { (self.test_if_running)() == 0 }
        }
    }

    impl super::ScreenReaderApi for Nvda {
        fn speak(&mut self, text: &str, interrupt: bool) -> bool {
            // SAFETY: no arguments; a NUL-terminated wide string.
            unsafe {
                if interrupt && (self.cancel_speech)() != 0 {
                    return false;
                }
                (self.speak_text)(wide(text).as_ptr()) == 0
            }
        }

        fn braille(&mut self, text: &str) -> bool {
            // SAFETY: a NUL-terminated wide string.
            unsafe { (self.braille_message)(wide(text).as_ptr()) == 0 }
        }
    }

    /// NVDA's controller, when the DLL loads and NVDA runs and answers.
    pub fn find() -> Option<Nvda> {
        let nvda = Nvda::load(&dll_path()).ok()?;
        nvda.running().then_some(nvda)
    }
}

/// JAWS's API (`FreedomSci.JawsApi`, a COM object JAWS registers), as the
/// Tolk library calls it: `SayString` to speak, `StopSpeech`, and the JAWS
/// script function `BrailleString` for the Braille display.
#[cfg(windows)]
pub mod jaws {
    use std::ffi::c_void;

    use windows_sys::Win32::Foundation::{SysAllocString, SysFreeString};
    use windows_sys::Win32::System::Com::{
        CLSCTX_INPROC_SERVER, COINIT_APARTMENTTHREADED, CoCreateInstance, CoInitializeEx,
    };
    use windows_sys::Win32::UI::WindowsAndMessaging::FindWindowW;
    use windows_sys::core::GUID;

    const CLSID_JAWS_API: GUID = GUID::from_u128(0xCCE5B1E5_B2ED_45D5_B09F_8EC54B75ABF4);
    const IID_IJAWS_API: GUID = GUID::from_u128(0x123DEDB4_2CF6_429C_A2AB_CC809E5516CE);
    const VARIANT_TRUE: i16 = -1;

    type Bstr = *const u16;

    /// `IJawsApi`'s table: IUnknown, IDispatch, then its own methods in
    /// the order of JAWS's `fsapi.h`.
    #[repr(C)]
    struct Vtbl {
        query_interface: usize,
        add_ref: usize,
        release: unsafe extern "system" fn(*mut c_void) -> u32,
        get_type_info_count: usize,
        get_type_info: usize,
        get_ids_of_names: usize,
        invoke: usize,
        run_script: usize,
        say_string: unsafe extern "system" fn(*mut c_void, Bstr, i16, *mut i16) -> i32,
        stop_speech: unsafe extern "system" fn(*mut c_void) -> i32,
        enable: usize,
        disable: usize,
        run_function: unsafe extern "system" fn(*mut c_void, Bstr, *mut i16) -> i32,
    }

    /// The JAWS API object of this thread.
    pub struct Jaws {
        this: *mut c_void,
    }

    fn wide(text: &str) -> Vec<u16> {
        text.encode_utf16().chain(std::iter::once(0)).collect()
    }

    /// A BSTR for one call, freed after it.
    fn with_bstr<T>(text: &str, f: impl FnOnce(Bstr) -> T) -> T {
        let w = wide(text);
        // SAFETY: a NUL-terminated wide string; the BSTR is freed below.
        let bstr = unsafe { SysAllocString(w.as_ptr()) };
        let out = f(bstr);
        // SAFETY: allocated above (null is allowed).
        unsafe { SysFreeString(bstr) };
        out
    }

    /// JAWS runs: its window ("JFWUI2") is there.
    pub fn running() -> bool {
        let class = wide("JFWUI2");
        // SAFETY: a NUL-terminated wide class name, no title.
        !unsafe { FindWindowW(class.as_ptr(), std::ptr::null()) }.is_null()
    }

    impl Jaws {
        fn vtbl(&self) -> &Vtbl {
            // SAFETY: a live COM object's first field is its table.
            unsafe { &**(self.this as *mut *const Vtbl) }
        }
    }

    impl Drop for Jaws {
        fn drop(&mut self) {
            // SAFETY: the reference CoCreateInstance gave us.
            unsafe { (self.vtbl().release)(self.this) };
        }
    }

    /// JAWS's API object, made on this thread (COM initialised here),
    /// when JAWS runs and has registered it.
    pub fn find() -> Option<Jaws> {
        if !running() {
            return None;
        }
        // SAFETY: COM for this thread (a second call only counts up).
        unsafe { CoInitializeEx(std::ptr::null(), COINIT_APARTMENTTHREADED as u32) };
        let mut this: *mut c_void = std::ptr::null_mut();
        // SAFETY: JAWS's documented class and interface.
        let hr = unsafe {
            CoCreateInstance(
                &CLSID_JAWS_API,
                std::ptr::null_mut(),
                CLSCTX_INPROC_SERVER,
                &IID_IJAWS_API,
                &mut this,
            )
        };
        (hr >= 0 && !this.is_null()).then_some(Jaws { this })
    }

    impl super::ScreenReaderApi for Jaws {
        fn speak(&mut self, text: &str, interrupt: bool) -> bool {
            let flush = if interrupt { VARIANT_TRUE } else { 0 };
            let mut ok: i16 = 0;
            let say = self.vtbl().say_string;
            // SAFETY: the object and a BSTR alive for the call.
            let hr = with_bstr(text, |b| unsafe { say(self.this, b, flush, &mut ok) });
            hr >= 0 && ok == VARIANT_TRUE
        }

        fn braille(&mut self, text: &str) -> bool {
            // The text inside a JAWS script call: its quotes made single.
            let call = format!("BrailleString(\"{}\")", text.replace('"', "'"));
            let mut ok: i16 = 0;
            let run = self.vtbl().run_function;
            // SAFETY: the object and a BSTR alive for the call.
            let hr = with_bstr(&call, |b| unsafe { run(self.this, b, &mut ok) });
            hr >= 0 && ok == VARIANT_TRUE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// A screen reader that records what it was given; it can be made to
    /// hang in a call or to refuse.
    #[derive(Clone, Default)]
    struct Recorder {
        said: Arc<Mutex<Vec<(String, bool)>>>,
        brailled: Arc<Mutex<Vec<String>>>,
        hang: Arc<AtomicBool>,
        refuse: Arc<AtomicBool>,
        release: Arc<(Mutex<bool>, std::sync::Condvar)>,
    }

    impl Recorder {
        /// A screen reader whose next call hangs until [`Recorder::release`].
        fn hanging() -> Recorder {
            let reader = Recorder::default();
            reader.hang.store(true, Ordering::SeqCst);
            reader
        }

        fn release(&self) {
            let (lock, cv) = &*self.release;
            *lock.lock().unwrap() = true;
            cv.notify_all();
        }
    }

    /// Waits until `direct`'s thread is inside a call (`inside`) or out.
    fn wait_busy(direct: &DirectSpeech, inside: bool) {
        wait_until("the call begun or returned", || {
            direct.health.lock().unwrap().busy_since.is_some() == inside
        });
    }

    impl ScreenReaderApi for Recorder {
        fn speak(&mut self, text: &str, interrupt: bool) -> bool {
            if self.hang.load(Ordering::SeqCst) {
                let (lock, cv) = &*self.release;
                let mut released = lock.lock().unwrap();
                while !*released {
                    released = cv.wait(released).unwrap();
                }
            }
            if self.refuse.load(Ordering::SeqCst) {
                return false;
            }
            self.said.lock().unwrap().push((text.to_owned(), interrupt));
            true
        }

        fn braille(&mut self, text: &str) -> bool {
            if self.refuse.load(Ordering::SeqCst) {
                return false;
            }
            self.brailled.lock().unwrap().push(text.to_owned());
            true
        }
    }

    /// Waits for the interface's thread, without sleeping.
    fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !done() {
            assert!(Instant::now() < deadline, "waited for {what}");
            std::thread::yield_now();
        }
    }

    #[test]
    fn a_move_interrupts_and_is_brailled_other_words_queue() {
        let reader = Recorder::default();
        let direct = DirectSpeech::start(reader.clone()).unwrap();
        let now = Instant::now();
        assert!(direct.say("Eva vier", true, now));
        wait_until("the move", || reader.said.lock().unwrap().len() == 1);
        assert!(direct.say("Your clock: 5 minutes", false, now));
        wait_until("the words", || reader.said.lock().unwrap().len() == 2);
        assert_eq!(
            *reader.said.lock().unwrap(),
            [
                ("Eva vier".to_owned(), true),
                ("Your clock: 5 minutes".to_owned(), false)
            ]
        );
        assert_eq!(
            *reader.brailled.lock().unwrap(),
            ["Eva vier", "Your clock: 5 minutes"]
        );
    }

    /// NVDA hangs in a call: after the timeout the words are refused (and
    /// go the other way); the window never waited.
    #[test]
    fn a_hanging_screen_reader_is_given_up_after_the_timeout() {
        let reader = Recorder::hanging();
        let direct = DirectSpeech::start(reader.clone()).unwrap();
        let start = Instant::now();
        assert!(direct.say("Eva vier", true, start));
        wait_busy(&direct, true);
        let begun = direct.health.lock().unwrap().busy_since.unwrap();
        // Virtual time: the window asks at these instants.
        assert!(direct.usable(begun + CALL_TIMEOUT / 2));
        assert!(!direct.say("Eva fuenf", true, begun + CALL_TIMEOUT));
        // The move handed over and never said comes back to be said
        // another way; the refused one was never taken.
        assert_eq!(
            direct.take_unsaid(begun + CALL_TIMEOUT),
            [("Eva vier".to_owned(), true)]
        );
        // Given up for good, even if the call returns later.
        reader.release();
        wait_busy(&direct, false);
        assert!(!direct.say("Springer Felix drei", true, Instant::now()));
        assert!(start.elapsed() < CALL_TIMEOUT, "nobody waited");
    }

    /// NVDA was closed: the call fails, the interface is given up.
    #[test]
    fn a_refused_call_gives_the_interface_up() {
        let reader = Recorder::default();
        reader.refuse.store(true, Ordering::SeqCst);
        let direct = DirectSpeech::start(reader.clone()).unwrap();
        assert!(direct.say("Eva vier", true, Instant::now()));
        wait_until("given up", || direct.health.lock().unwrap().given_up);
        assert!(!direct.say("Eva fuenf", true, Instant::now()));
        assert_eq!(
            direct.take_unsaid(Instant::now()),
            [("Eva vier".to_owned(), true)]
        );
    }

    #[test]
    fn a_move_waiting_behind_words_drops_them() {
        let reader = Recorder::hanging();
        let direct = DirectSpeech::start(reader.clone()).unwrap();
        let now = Instant::now();
        assert!(direct.say("first", false, now));
        wait_busy(&direct, true);
        for words in ["clock", "hint"] {
            assert!(direct.say(words, false, now));
        }
        assert!(direct.say("Eva vier", true, now));
        assert!(direct.say("after the move", false, now));
        reader.hang.store(false, Ordering::SeqCst);
        reader.release();
        wait_until("all said", || reader.said.lock().unwrap().len() == 3);
        let said: Vec<String> = reader
            .said
            .lock()
            .unwrap()
            .iter()
            .map(|s| s.0.clone())
            .collect();
        assert_eq!(said, ["first", "Eva vier", "after the move"]);
        wait_until("all done", || {
            direct.health.lock().unwrap().unsaid.is_empty()
        });
        assert!(direct.take_unsaid(Instant::now()).is_empty(), "it works");
    }
}

#[cfg(all(test, windows))]
mod windows_tests {
    /// The controller DLL shipped in the zip loads, its four functions are
    /// found, and with no NVDA running (Wine) it says so at once rather
    /// than hanging. Run under Wine by scripts/test-windows, which points
    /// `ROCHADE_NVDA_CONTROLLER` at the unpacked zip's copy.
    #[test]
    fn the_shipped_nvda_controller_loads_and_finds_no_nvda() {
        let Some(path) = std::env::var_os("ROCHADE_NVDA_CONTROLLER") else {
            panic!("ROCHADE_NVDA_CONTROLLER is not set (scripts/test-windows sets it)");
        };
        // On a thread: a call that hung would otherwise hang the test run.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let nvda = super::nvda::Nvda::load(std::path::Path::new(&path));
            let _ = tx.send(nvda.map(|nvda| (nvda.running(), super::nvda::find().is_some())));
        });
        let answer = rx
            .recv_timeout(super::CALL_TIMEOUT * 4)
            .expect("NVDA's controller answered in time");
        assert_eq!(answer, Ok((false, false)), "loaded, and no NVDA runs here");
    }

    /// No JAWS under Wine: it is not found, at once, and nothing breaks.
    #[test]
    fn without_jaws_none_is_found() {
        assert!(!super::jaws::running());
        let started = std::time::Instant::now();
        assert!(super::DirectSpeech::open(super::jaws::find).is_none());
        assert!(started.elapsed() < super::CALL_TIMEOUT);
    }
}
