//! Interface texts (labels, menus, the F1 help) in the three interface
//! languages, read from `assets/ui/<lang>.toml`, bundled into the binary.
//! Spoken answers do not live here: they come from the speech packs.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::words::Lang;

#[derive(Deserialize)]
struct UiFile {
    labels: BTreeMap<String, String>,
    help: toml::Table,
}

/// An interface text file that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum UiTextError {
    #[error(transparent)]
    Toml(#[from] toml::de::Error),
    #[error("[help] {0}: must be a string")]
    NotAString(String),
}

/// The interface texts of one language.
#[derive(Clone, Debug)]
pub struct UiText {
    pub lang: Lang,
    labels: BTreeMap<String, String>,
    /// Help lines in file order: (command id, text).
    help: Vec<(String, String)>,
}

fn source(lang: Lang) -> &'static str {
    match lang {
        Lang::De => include_str!("../../assets/ui/de.toml"),
        Lang::Pt => include_str!("../../assets/ui/pt.toml"),
        Lang::En => include_str!("../../assets/ui/en.toml"),
    }
}

impl UiText {
    /// The bundled texts. The files are part of the binary and checked by a
    /// unit test, so a parse failure is a build defect.
    pub fn bundled(lang: Lang) -> UiText {
        UiText::parse(lang, source(lang))
            .unwrap_or_else(|e| panic!("assets/ui/{}.toml: {e}", lang.code()))
    }

    pub fn parse(lang: Lang, text: &str) -> Result<UiText, UiTextError> {
        // `toml::Table` keeps the file's order (the `preserve_order` feature).
        let file: UiFile = toml::from_str(text)?;
        let help = file
            .help
            .into_iter()
            .map(|(key, value)| match value {
                toml::Value::String(v) => Ok((key, v)),
                _ => Err(UiTextError::NotAString(key)),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(UiText {
            lang,
            labels: file.labels,
            help,
        })
    }

    /// A label; a missing key shows as `[key]` so it is noticed, never blank.
    pub fn get(&self, key: &str) -> String {
        self.labels
            .get(key)
            .cloned()
            .unwrap_or_else(|| format!("[{key}]"))
    }

    pub fn label_keys(&self) -> impl Iterator<Item = &str> {
        self.labels.keys().map(String::as_str)
    }

    /// The F1 help lines, in order.
    pub fn help(&self) -> &[(String, String)] {
        &self.help
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_has_the_same_keys_and_help_lines() {
        let en = UiText::bundled(Lang::En);
        for lang in Lang::ALL {
            let t = UiText::bundled(lang);
            assert_eq!(
                t.label_keys().collect::<Vec<_>>(),
                en.label_keys().collect::<Vec<_>>(),
                "{lang}"
            );
            let ids = |t: &UiText| t.help().iter().map(|(k, _)| k.clone()).collect::<Vec<_>>();
            assert_eq!(ids(&t), ids(&en), "{lang}: help lines");
            assert!(t.help().iter().all(|(_, v)| !v.trim().is_empty()));
        }
    }

    #[test]
    fn help_lines_keep_the_order_of_the_file() {
        let t = UiText::parse(
            Lang::En,
            "[labels]\n[help]\nzeta = \"Z first\"\nalpha = \"A second\"\n",
        )
        .unwrap();
        assert_eq!(
            t.help(),
            [
                ("zeta".to_owned(), "Z first".to_owned()),
                ("alpha".to_owned(), "A second".to_owned())
            ]
        );
        assert!(UiText::parse(Lang::En, "[labels]\n[help]\nx = 1\n").is_err());
    }

    #[test]
    fn missing_label_is_visible() {
        assert_eq!(
            UiText::bundled(Lang::En).get("no_such_label"),
            "[no_such_label]"
        );
        assert_eq!(UiText::bundled(Lang::De).get("board"), "Brett");
    }
}
