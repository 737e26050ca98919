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

    pub fn parse(lang: Lang, text: &str) -> Result<UiText, String> {
        // `toml::Table` keeps keys sorted unless `preserve_order` is on, so
        // the help order is read from the raw text.
        let file: UiFile = toml::from_str(text).map_err(|e| e.to_string())?;
        let mut help = Vec::new();
        let mut in_help = false;
        for line in text.lines() {
            let line = line.trim();
            if line.starts_with('[') {
                in_help = line == "[help]";
                continue;
            }
            if !in_help || line.starts_with('#') {
                continue;
            }
            if let Some((key, _)) = line.split_once('=') {
                let key = key.trim();
                if let Some(toml::Value::String(v)) = file.help.get(key) {
                    help.push((key.to_owned(), v.clone()));
                }
            }
        }
        if help.len() != file.help.len() {
            return Err("every [help] entry must be a one-line string".into());
        }
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
    fn missing_label_is_visible() {
        assert_eq!(
            UiText::bundled(Lang::En).get("no_such_label"),
            "[no_such_label]"
        );
        assert_eq!(UiText::bundled(Lang::De).get("board"), "Brett");
    }
}
