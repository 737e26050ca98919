//! Reading and writing `settings.toml`: a file this version cannot read
//! whole is salvaged value by value, reported, and copied aside first
//! (see the module above).

use std::io;
use std::path::{Path, PathBuf};

use super::{FILE_NAME, Settings};

/// The result of [`Settings::load`]: always usable settings, and a message
/// for the user when the file could not be used as it was.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadOutcome {
    pub settings: Settings,
    /// What went wrong, which file, which line, and where the copy is.
    pub warning: Option<String>,
    /// The copy of a file that could not be read fully.
    pub kept_copy: Option<PathBuf>,
}

impl Settings {
    /// `<config dir>/settings.toml`; none when the platform has no home.
    pub fn path() -> Option<PathBuf> {
        crate::paths::config_dir().map(|d| d.join(FILE_NAME))
    }

    /// Loads the user's settings (see the module documentation).
    pub fn load() -> LoadOutcome {
        match Settings::path() {
            Some(path) => Settings::load_from(&path),
            None => LoadOutcome {
                settings: Settings::default(),
                warning: Some("No config folder on this system: settings will not be kept.".into()),
                kept_copy: None,
            },
        }
    }

    /// Loads settings from a file (see the module documentation).
    pub fn load_from(path: &Path) -> LoadOutcome {
        // Only a regular file of a sensible size (a FIFO or a link to a
        // device is refused at once, never waited on or read for ever).
        let bytes = match crate::read_capped::read_capped(path, crate::read_capped::SETTINGS_CAP) {
            Ok(bytes) => bytes,
            Err(e) if e.is_not_found() => {
                return LoadOutcome {
                    settings: Settings::default(),
                    warning: None,
                    kept_copy: None,
                };
            }
            Err(e) => {
                return LoadOutcome {
                    settings: Settings::default(),
                    warning: Some(format!(
                        "Could not read the settings file {}: {e}. Using the default settings; \
                         the file is left as it is.",
                        path.display()
                    )),
                    kept_copy: None,
                };
            }
        };
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                let (line, column) =
                    crate::text::line_column(e.as_bytes(), e.utf8_error().valid_up_to());
                let problem = format!("it is not UTF-8 text (line {line}, column {column})");
                return fall_back(path, Settings::default(), &problem);
            }
        };
        // Fast path: the whole file is fine.
        let first_error = match toml::from_str::<Settings>(&text) {
            Ok(settings) => {
                return LoadOutcome {
                    settings,
                    warning: None,
                    kept_copy: None,
                };
            }
            Err(e) => e,
        };
        let table = match text.parse::<toml::Table>() {
            Ok(table) => table,
            // A syntax error: nothing in the file can be trusted.
            Err(e) => return fall_back(path, Settings::default(), &describe_toml_error(&text, &e)),
        };
        let (settings, rejected) = salvage(&table);
        let problem = if rejected.is_empty() {
            // Not expected: every value alone was fine. Report what serde said.
            describe_toml_error(&text, &first_error)
        } else {
            let listed: Vec<String> = rejected
                .iter()
                .map(|r| match line_of_key(&text, &r.path) {
                    Some(line) => format!("line {line}: {}", r.text),
                    None => r.text.clone(),
                })
                .collect();
            format!(
                "these values were replaced by the defaults, all others were kept: {}",
                listed.join("; ")
            )
        };
        fall_back(path, settings, &problem)
    }

    /// Saves to `<config dir>/settings.toml` and returns the path.
    pub fn save(&self) -> io::Result<PathBuf> {
        let path = Settings::path().ok_or_else(|| {
            io::Error::new(io::ErrorKind::NotFound, "no config folder on this system")
        })?;
        self.save_to(&path)?;
        Ok(path)
    }

    /// Writes the file atomically: a crash leaves the old or the new file,
    /// never half of one.
    pub fn save_to(&self, path: &Path) -> io::Result<()> {
        let text = self.to_toml();
        crate::storage::write_atomically(path, text.as_bytes())
    }

    /// The settings as the TOML saved to disk.
    pub fn to_toml(&self) -> String {
        let body = toml::to_string_pretty(self).expect("settings always serialise to TOML");
        format!(
            "# Rochade settings. Edit with care; the app rewrites this file when\n\
             # settings change. Unknown values are reported and replaced by defaults.\n\n{body}"
        )
    }
}

/// Keeps a copy of a file that could not be used fully and builds the
/// outcome with a message naming the file, the problem and the copy.
fn fall_back(path: &Path, settings: Settings, problem: &str) -> LoadOutcome {
    let kept = keep_copy(path);
    // Said and shown: never more than a short excerpt of the file.
    let problem = crate::text::excerpt(problem, 400);
    let mut warning = format!(
        "The settings file {} could not be used as it is: {problem}.",
        path.display()
    );
    match &kept {
        Ok(copy) => warning.push_str(&format!(" A copy of it was kept as {}.", copy.display())),
        Err(e) => warning.push_str(&format!(
            " Could not keep a copy of it ({e}); it will be replaced when settings are saved."
        )),
    }
    if settings == Settings::default() {
        warning.push_str(" The default settings are used.");
    }
    LoadOutcome {
        settings,
        warning: Some(warning),
        kept_copy: kept.ok(),
    }
}

/// Copies `path` to `<path>.bad-<UTC time>` (with a counter if that exists).
fn keep_copy(path: &Path) -> io::Result<PathBuf> {
    let stamp = crate::pgn::compact_stamp(jiff::Timestamp::now());
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| FILE_NAME.into());
    for n in 0..1000 {
        let suffix = if n == 0 {
            String::new()
        } else {
            format!("-{n}")
        };
        let copy = path.with_file_name(format!("{name}.bad-{stamp}{suffix}"));
        if copy.exists() {
            continue;
        }
        std::fs::copy(path, &copy)?;
        return Ok(copy);
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "too many kept copies",
    ))
}

/// "line 4, column 12: unknown language 'fr'".
fn describe_toml_error(text: &str, error: &toml::de::Error) -> String {
    let message = error.message().trim().trim_end_matches('.');
    match error.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            format!("line {line}, column {column}: {message}")
        }
        None => message.to_owned(),
    }
}

/// A value the settings did not accept.
struct Rejected {
    path: Vec<String>,
    /// `key.path = value: why`.
    text: String,
}

/// The line (1-based) where a key is set, for files written the usual way
/// (`[section]` headers and `key = value` lines).
fn line_of_key(text: &str, path: &[String]) -> Option<usize> {
    let (key, section) = path.split_last()?;
    let section = section.join(".");
    let mut current = String::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('[') {
            current = header.trim_end_matches(']').trim().to_owned();
            continue;
        }
        if let Some((k, _)) = line.split_once('=')
            && current == section
            && k.trim().trim_matches('"') == key
        {
            return Some(i + 1);
        }
    }
    None
}

/// Reads every value of `user` that the settings accept, one at a time on
/// top of the defaults, and lists the ones they do not.
fn salvage(user: &toml::Table) -> (Settings, Vec<Rejected>) {
    let mut accepted = match toml::Value::try_from(Settings::default()) {
        Ok(toml::Value::Table(t)) => t,
        _ => toml::Table::new(),
    };
    let mut leaves = Vec::new();
    collect_leaves(user, &mut Vec::new(), &mut leaves);
    let mut rejected = Vec::new();
    for (path, value) in leaves {
        let mut candidate = accepted.clone();
        insert_at(&mut candidate, &path, value.clone());
        match toml::Value::Table(candidate.clone()).try_into::<Settings>() {
            Ok(_) => accepted = candidate,
            Err(e) => rejected.push(Rejected {
                text: format!(
                    "{} = {}: {}",
                    path.join("."),
                    value,
                    e.message().trim().trim_end_matches('.')
                ),
                path,
            }),
        }
    }
    let settings = toml::Value::Table(accepted).try_into().unwrap_or_default();
    (settings, rejected)
}

fn collect_leaves<'a>(
    table: &'a toml::Table,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, &'a toml::Value)>,
) {
    for (key, value) in table {
        prefix.push(key.clone());
        match value {
            toml::Value::Table(inner) if !inner.is_empty() => collect_leaves(inner, prefix, out),
            _ => out.push((prefix.clone(), value)),
        }
        prefix.pop();
    }
}

fn insert_at(table: &mut toml::Table, path: &[String], value: toml::Value) {
    let (last, parents) = path.split_last().expect("a leaf has a key");
    let mut current = table;
    for key in parents {
        let entry = current
            .entry(key.clone())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        if !entry.is_table() {
            *entry = toml::Value::Table(toml::Table::new());
        }
        current = entry.as_table_mut().expect("made a table");
    }
    current.insert(last.clone(), value);
}
