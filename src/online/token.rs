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
/// then the file.
pub fn load() -> Option<Token> {
    if let Some(t) = std::env::var(TOKEN_ENV).ok().and_then(|t| Token::new(&t)) {
        return Some(t);
    }
    if let Some(t) = within(|| secret_store().and_then(|e| e.get_password().ok()))
        .flatten()
        .and_then(|t| Token::new(&t))
    {
        return Some(t);
    }
    let text = std::fs::read_to_string(token_file()?).ok()?;
    Token::new(&text)
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
}
