//! The personal API token (scope `board:play`): from `ROCHADE_LICHESS_TOKEN`
//! (scripts, tests), from the platform's secret store (Secret Service on
//! Linux, Keychain, Credential Manager: the `keyring` crate) or, where
//! there is none, from a file only the user can read
//! (`<config folder>/lichess-token`, mode 0600). `ROCHADE_SECRET_STORE=file`
//! uses the file only. Never in the settings, a log, an error text or an
//! export: [`Token`]'s `Debug` and `Display` print `***`.

use std::io::Write;
use std::path::PathBuf;

/// The environment variable that overrides the stored token.
pub const TOKEN_ENV: &str = "ROCHADE_LICHESS_TOKEN";

/// A secret token. Its text is only read by [`Token::secret`].
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// A token as pasted (surrounding blanks removed). None if empty or
    /// holding characters a token never has.
    pub fn new(text: &str) -> Option<Token> {
        let t = text.trim();
        let ok = !t.is_empty() && t.len() <= 200 && t.chars().all(|c| c.is_ascii_graphic());
        ok.then(|| Token(t.to_owned()))
    }

    /// The token's text, for the `Authorization` header only.
    pub fn secret(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(***)")
    }
}

impl std::fmt::Display for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("***")
    }
}

/// Forces the file instead of the secret store (`file`).
pub const STORE_ENV: &str = "ROCHADE_SECRET_STORE";

/// Where a stored token went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stored {
    SecretStore,
    File(PathBuf),
}

/// The entry in the platform's secret store, unless the file is forced.
fn secret_store() -> Option<keyring::Entry> {
    if std::env::var(STORE_ENV).is_ok_and(|v| v == "file") {
        return None;
    }
    keyring::Entry::new("rochade", "lichess-token").ok()
}

/// How long the secret store may take to answer: a stuck keyring daemon
/// must not hang the app or the terminal; after this the file is used.
pub const SECRET_STORE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// `f` on a thread of its own, its answer if it comes in time.
fn within<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("secret-store".into())
        .spawn(move || {
            let _ = tx.send(f());
        })
        .ok()?;
    rx.recv_timeout(SECRET_STORE_TIMEOUT).ok()
}

/// Where the token file lives.
pub fn token_file() -> Option<PathBuf> {
    crate::paths::config_dir().map(|d| d.join("lichess-token"))
}

/// The token: the environment variable first, then the secret store,
/// then the file. A token file others could read is narrowed to the user
/// (0600) and that is said on stderr ([`load_noting`] hands it to the
/// caller instead).
pub fn load() -> Option<Token> {
    load_noting(&mut |note| eprintln!("rochade: {note}"))
}

/// [`load`], handing what was done to the token file to `note` (to be said
/// and shown).
pub fn load_noting(note: &mut dyn FnMut(TokenFileNote)) -> Option<Token> {
    if let Some(t) = std::env::var(TOKEN_ENV).ok().and_then(|t| Token::new(&t)) {
        return Some(t);
    }
    if let Some(t) = within(|| secret_store().and_then(|e| e.get_password().ok()))
        .flatten()
        .and_then(|t| Token::new(&t))
    {
        return Some(t);
    }
    read_token_file(&token_file()?, note)
}

/// What was done to a token file that other users could read (its mode,
/// e.g. 0666 or 0644, copied or unpacked so).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenFileNote {
    /// It is now readable by the user only (0600).
    Narrowed { path: PathBuf, mode: u32 },
    /// It could not be changed: the user must.
    StillOpen {
        path: PathBuf,
        mode: u32,
        error: String,
    },
}

impl std::fmt::Display for TokenFileNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TokenFileNote::Narrowed { path, mode } => write!(
                f,
                "the token file {} could be read by other users (mode {mode:03o}); \
                 it is now readable by you only (0600)",
                path.display()
            ),
            TokenFileNote::StillOpen { path, mode, error } => write!(
                f,
                "the token file {shown} can be read by other users (mode {mode:03o}) and could \
                 not be changed ({error}); make it readable by you only: chmod 600 {shown}",
                shown = path.display()
            ),
        }
    }
}

/// The token in the file at `path` (a token is one short line: the file
/// is read only if it is a regular file of at most a small size); a file
/// others could read is narrowed first, and `note` hears of it.
fn read_token_file(path: &std::path::Path, note: &mut dyn FnMut(TokenFileNote)) -> Option<Token> {
    let text = crate::read_capped::read_text_capped(path, crate::read_capped::SMALL_CAP).ok()?;
    if let Some(fixed) = narrow_token_file(path) {
        note(fixed);
    }
    Token::new(&text)
}

/// A token file that other users could read is made readable by the user
/// only (0600); what was done, or why it could not be.
#[cfg(unix)]
fn narrow_token_file(path: &std::path::Path) -> Option<TokenFileNote> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path).ok()?.permissions().mode() & 0o777;
    if mode & 0o077 == 0 {
        return None;
    }
    let path = path.to_path_buf();
    Some(
        match std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)) {
            Ok(()) => TokenFileNote::Narrowed { path, mode },
            Err(e) => TokenFileNote::StillOpen {
                path,
                mode,
                error: e.to_string(),
            },
        },
    )
}

#[cfg(not(unix))]
fn narrow_token_file(_path: &std::path::Path) -> Option<TokenFileNote> {
    // The file inherits the user's profile folder's access rules.
    None
}

/// Stores the token in the secret store, or where there is none in the
/// file, readable by the user only.
pub fn store(token: &Token) -> std::io::Result<Stored> {
    let secret = token.secret().to_owned();
    let saved = within(move || secret_store().is_some_and(|e| e.set_password(&secret).is_ok()));
    if saved == Some(true) {
        // No second copy in a file.
        if let Some(path) = token_file() {
            let _ = std::fs::remove_file(path);
        }
        return Ok(Stored::SecretStore);
    }
    store_file(token).map(Stored::File)
}

fn store_file(token: &Token) -> std::io::Result<PathBuf> {
    let path = token_file()
        .ok_or_else(|| std::io::Error::other("no configuration folder for the token"))?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("tmp");
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(&tmp)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    file.write_all(token.secret().as_bytes())?;
    file.sync_all()?;
    std::fs::rename(&tmp, &path)?;
    Ok(path)
}

/// Removes the stored token (forget it), from the secret store and the file.
pub fn forget() -> std::io::Result<()> {
    within(|| secret_store().map(|e| e.delete_credential()));
    match token_file() {
        Some(path) => match std::fs::remove_file(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        },
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_never_prints() {
        let t = Token::new("  lip_secret123\n").unwrap();
        assert_eq!(t.secret(), "lip_secret123");
        assert_eq!(format!("{t:?} {t}"), "Token(***) ***");
        assert!(Token::new("").is_none());
        assert!(Token::new("a b").is_none());
    }

    #[cfg(unix)]
    #[test]
    fn a_token_file_others_can_read_is_narrowed_and_said() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lichess-token");
        std::fs::write(&path, "lip_secret123\n").unwrap();
        let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        for wide in [0o666, 0o644, 0o640, 0o604] {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(wide)).unwrap();
            let mut notes = Vec::new();
            let token = read_token_file(&path, &mut |n| notes.push(n.to_string()));
            assert_eq!(token.unwrap().secret(), "lip_secret123");
            assert_eq!(mode(&path), 0o600, "{wide:o}");
            assert_eq!(notes.len(), 1, "{notes:?}");
            assert!(
                notes[0].contains(&format!("mode {wide:03o}"))
                    && notes[0].contains("readable by you only (0600)")
                    && !notes[0].contains("lip_secret"),
                "{notes:?}"
            );
        }
        // The user's own file: nothing to say.
        let mut notes = Vec::new();
        assert!(read_token_file(&path, &mut |n| notes.push(n.to_string())).is_some());
        assert!(notes.is_empty(), "{notes:?}");
    }
}
