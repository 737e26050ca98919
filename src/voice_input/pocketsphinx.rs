//! A small binding of the few pocketsphinx functions voice input needs
//! (the 0.8+5prealpha API Debian ships: libpocketsphinx.so.3, which brings
//! libsphinxbase.so.3 with `cmd_ln_*`), loaded at run time so that Rochade
//! starts on a machine without it. Signatures as in
//! /usr/include/pocketsphinx/pocketsphinx.h, ps_search.h and
//! sphinxbase/cmd_ln.h.

use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::ptr::NonNull;

use libloading::Library;

/// The library's file name (its soname).
pub const LIBRARY: &str = "libpocketsphinx.so.3";

type CmdLnParseR =
    unsafe extern "C" fn(*mut c_void, *const c_void, i32, *mut *mut c_char, i32) -> *mut c_void;
type CmdLnFreeR = unsafe extern "C" fn(*mut c_void) -> c_int;
type PsArgs = unsafe extern "C" fn() -> *const c_void;
type PsInit = unsafe extern "C" fn(*mut c_void) -> *mut c_void;
type PsFree = unsafe extern "C" fn(*mut c_void) -> c_int;
type PsSetJsgfString = unsafe extern "C" fn(*mut c_void, *const c_char, *const c_char) -> c_int;
type PsSetSearch = unsafe extern "C" fn(*mut c_void, *const c_char) -> c_int;
type PsStartUtt = unsafe extern "C" fn(*mut c_void) -> c_int;
type PsProcessRaw = unsafe extern "C" fn(*mut c_void, *const i16, usize, c_int, c_int) -> c_int;
type PsEndUtt = unsafe extern "C" fn(*mut c_void) -> c_int;
type PsGetHyp = unsafe extern "C" fn(*mut c_void, *mut i32) -> *const c_char;

/// The functions, copied out of the library: valid while `Decoder::_library`
/// is loaded, which outlives every call (it is dropped last).
struct Functions {
    cmd_ln_parse_r: CmdLnParseR,
    cmd_ln_free_r: CmdLnFreeR,
    ps_args: PsArgs,
    ps_init: PsInit,
    ps_free: PsFree,
    ps_set_jsgf_string: PsSetJsgfString,
    ps_set_search: PsSetSearch,
    ps_start_utt: PsStartUtt,
    ps_process_raw: PsProcessRaw,
    ps_end_utt: PsEndUtt,
    ps_get_hyp: PsGetHyp,
}

/// Why the decoder cannot be made or cannot decode.
#[derive(Debug, thiserror::Error)]
pub enum BindingError {
    #[error("{0}")]
    Load(String),
    #[error("pocketsphinx {0} failed")]
    Call(&'static str),
}

/// One pocketsphinx decoder, set up from command-line style options.
pub struct Decoder {
    functions: Functions,
    decoder: NonNull<c_void>,
    // Dropped after `Drop::drop` freed the decoder: the functions stay
    // loaded for every call.
    _library: Library,
}

impl Decoder {
    /// Loads the library and makes a decoder from `options` (pairs such as
    /// `-hmm DIR`, `-dict FILE`).
    pub fn new(options: &[(&str, &str)]) -> Result<Decoder, BindingError> {
        // SAFETY: loading runs the library's initialisers; libpocketsphinx
        // and libsphinxbase have none that touch the process beyond their
        // own globals.
        let library =
            unsafe { Library::new(LIBRARY) }.map_err(|e| BindingError::Load(e.to_string()))?;
        macro_rules! function {
            ($name:literal, $ty:ty) => {{
                // SAFETY: `$ty` is the C declaration of this symbol in the
                // headers of the 0.8+5prealpha API, the only one with the
                // soname LIBRARY; the pointer is used only while `library`
                // is loaded (it moves into the Decoder with it).
                let symbol: libloading::Symbol<$ty> =
                    unsafe { library.get($name) }.map_err(|e| BindingError::Load(e.to_string()))?;
                *symbol
            }};
        }
        let functions = Functions {
            cmd_ln_parse_r: function!(b"cmd_ln_parse_r\0", CmdLnParseR),
            cmd_ln_free_r: function!(b"cmd_ln_free_r\0", CmdLnFreeR),
            ps_args: function!(b"ps_args\0", PsArgs),
            ps_init: function!(b"ps_init\0", PsInit),
            ps_free: function!(b"ps_free\0", PsFree),
            ps_set_jsgf_string: function!(b"ps_set_jsgf_string\0", PsSetJsgfString),
            ps_set_search: function!(b"ps_set_search\0", PsSetSearch),
            ps_start_utt: function!(b"ps_start_utt\0", PsStartUtt),
            ps_process_raw: function!(b"ps_process_raw\0", PsProcessRaw),
            ps_end_utt: function!(b"ps_end_utt\0", PsEndUtt),
            ps_get_hyp: function!(b"ps_get_hyp\0", PsGetHyp),
        };
        let strings: Vec<CString> = options
            .iter()
            .flat_map(|(k, v)| [*k, *v])
            .map(|s| {
                CString::new(s).map_err(|_| BindingError::Load(format!("option with a NUL: {s}")))
            })
            .collect::<Result<_, _>>()?;
        let mut argv: Vec<*mut c_char> = strings.iter().map(|s| s.as_ptr().cast_mut()).collect();
        // SAFETY: ps_args takes nothing and returns a pointer to the
        // library's static table of option definitions.
        let definitions = unsafe { (functions.ps_args)() };
        // SAFETY: argv holds argc pointers to NUL-terminated strings that
        // live (in `strings`) through the call; cmd_ln_parse_r copies them
        // and never writes through them; strict = 1 refuses unknown options.
        let config = unsafe {
            (functions.cmd_ln_parse_r)(
                std::ptr::null_mut(),
                definitions,
                argv.len() as i32,
                argv.as_mut_ptr(),
                1,
            )
        };
        if config.is_null() {
            return Err(BindingError::Call("cmd_ln_parse_r"));
        }
        // SAFETY: `config` came from cmd_ln_parse_r just now; ps_init keeps
        // its own reference (cmd_ln_retain), so ours is released below
        // whether or not it succeeds.
        let decoder = unsafe { (functions.ps_init)(config) };
        // SAFETY: releases the one reference cmd_ln_parse_r gave us.
        unsafe { (functions.cmd_ln_free_r)(config) };
        let decoder = NonNull::new(decoder).ok_or(BindingError::Call("ps_init"))?;
        Ok(Decoder {
            functions,
            decoder,
            _library: library,
        })
    }

    /// Makes `jsgf` (a JSGF grammar) the search for the next utterance.
    pub fn set_grammar(&mut self, jsgf: &str) -> Result<(), BindingError> {
        let name = c"said";
        let grammar = CString::new(jsgf).map_err(|_| BindingError::Call("ps_set_jsgf_string"))?;
        // SAFETY: the decoder is live (freed only in Drop); both strings are
        // NUL-terminated and live through the call, which copies what it
        // keeps. A search of the same name is replaced.
        let status = unsafe {
            (self.functions.ps_set_jsgf_string)(
                self.decoder.as_ptr(),
                name.as_ptr(),
                grammar.as_ptr(),
            )
        };
        if status < 0 {
            return Err(BindingError::Call("ps_set_jsgf_string"));
        }
        // SAFETY: as above; makes the search just added the current one (the
        // one it replaced is freed, so it must not stay current).
        let status =
            unsafe { (self.functions.ps_set_search)(self.decoder.as_ptr(), name.as_ptr()) };
        if status < 0 {
            return Err(BindingError::Call("ps_set_search"));
        }
        Ok(())
    }

    /// Decodes one whole utterance (16 kHz mono samples) with the current
    /// grammar: the words heard, or `None` when nothing in it fits.
    pub fn decode(&mut self, samples: &[i16]) -> Result<Option<String>, BindingError> {
        let ps = self.decoder.as_ptr();
        // SAFETY: the decoder is live and has a search (set_grammar).
        if unsafe { (self.functions.ps_start_utt)(ps) } < 0 {
            return Err(BindingError::Call("ps_start_utt"));
        }
        // SAFETY: `samples` is a live slice of samples.len() i16; the call
        // reads it only during the call. full_utt = 1: the whole utterance.
        let frames =
            unsafe { (self.functions.ps_process_raw)(ps, samples.as_ptr(), samples.len(), 0, 1) };
        // SAFETY: ends the utterance started above (also after an error,
        // so the decoder is ready for the next).
        let ended = unsafe { (self.functions.ps_end_utt)(ps) };
        if frames < 0 {
            return Err(BindingError::Call("ps_process_raw"));
        }
        if ended < 0 {
            return Err(BindingError::Call("ps_end_utt"));
        }
        let mut score = 0i32;
        // SAFETY: the hypothesis is a string owned by the decoder, valid
        // until the next call into it; it is copied before then. NULL means
        // no hypothesis.
        let hyp = unsafe { (self.functions.ps_get_hyp)(ps, &mut score) };
        if hyp.is_null() {
            return Ok(None);
        }
        // SAFETY: non-NULL, NUL-terminated, owned by the live decoder.
        let text = unsafe { CStr::from_ptr(hyp) }
            .to_string_lossy()
            .trim()
            .to_owned();
        Ok((!text.is_empty()).then_some(text))
    }
}

impl Drop for Decoder {
    fn drop(&mut self) {
        // SAFETY: the decoder came from ps_init and is freed once, here,
        // while the library is still loaded (`_library` drops after this).
        unsafe { (self.functions.ps_free)(self.decoder.as_ptr()) };
    }
}
