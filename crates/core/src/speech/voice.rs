//! Choosing a system voice for a language: a pure function from the list of
//! voices the engine offers, the language, the language pack's preferred
//! BCP 47 tag and the user's override.

use crate::words::Lang;

/// A system voice as the engine lists it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct VoiceInfo {
    /// Engine identifier, used to select the voice.
    pub id: String,
    /// Human-readable name ("German", "Microsoft Katja").
    pub name: String,
    /// BCP 47 language tag ("de", "de-DE", "pt-BR").
    pub language: String,
}

impl VoiceInfo {
    pub fn primary_language(&self) -> String {
        primary_subtag(&self.language)
    }
}

fn primary_subtag(tag: &str) -> String {
    tag.split(['-', '_'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
}

fn same_tag(a: &str, b: &str) -> bool {
    a.replace('_', "-")
        .eq_ignore_ascii_case(&b.replace('_', "-"))
}

/// Why a voice was chosen, for "speaking with ..." messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoiceMatch {
    /// The user named it.
    Override,
    /// Language and region match the pack's tag ("pt-BR").
    Exact,
    /// Same language, other or no region ("de" for "de-DE").
    Language,
}

/// Picks the voice to speak `lang` with.
///
/// 1. An override naming an existing voice (by name or id, ignoring case)
///    wins, whatever its language: the user knows best.
/// 2. Otherwise a voice whose tag equals `preferred_tag` ("de-DE").
/// 3. Otherwise a voice of the same language ("de", "de-AT").
///
/// Among equals, a plain voice beats a variant ("German" over
/// "German+Adam", as espeak-ng lists them), then the engine's order.
/// `None` means the engine has no voice for the language: use the clip
/// voice instead.
pub fn choose_voice<'a>(
    voices: &'a [VoiceInfo],
    lang: Lang,
    preferred_tag: &str,
    override_name: Option<&str>,
) -> Option<(&'a VoiceInfo, VoiceMatch)> {
    let wanted = override_name.map(str::trim).filter(|w| !w.is_empty());
    if let Some(v) = wanted.and_then(|wanted| {
        voices
            .iter()
            .find(|v| v.name.eq_ignore_ascii_case(wanted) || v.id.eq_ignore_ascii_case(wanted))
    }) {
        return Some((v, VoiceMatch::Override));
    }
    let primary = lang.code();
    let is_variant = |v: &VoiceInfo| v.name.contains('+') || v.id.contains('+');
    let rank = |v: &VoiceInfo| -> Option<(u8, VoiceMatch)> {
        if same_tag(&v.language, preferred_tag) {
            Some((if is_variant(v) { 1 } else { 0 }, VoiceMatch::Exact))
        } else if v.primary_language() == primary {
            Some((if is_variant(v) { 3 } else { 2 }, VoiceMatch::Language))
        } else {
            None
        }
    };
    voices
        .iter()
        .filter_map(|v| rank(v).map(|(r, m)| (r, v, m)))
        .min_by_key(|(r, _, _)| *r)
        .map(|(_, v, m)| (v, m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(name: &str, language: &str) -> VoiceInfo {
        VoiceInfo {
            id: name.to_lowercase(),
            name: name.into(),
            language: language.into(),
        }
    }

    fn list() -> Vec<VoiceInfo> {
        vec![
            v("English (Great Britain)", "en-GB"),
            v("German+Adam", "de"),
            v("Portuguese (Portugal)", "pt"),
            v("German", "de"),
            v("Portuguese (Brazil)", "pt-BR"),
            v("Portuguese (Brazil)+Klatt", "pt-BR"),
            v("Hedda", "de-DE"),
        ]
    }

    #[test]
    fn exact_region_beats_bare_language() {
        let voices = list();
        let (pt, m) = choose_voice(&voices, Lang::Pt, "pt-BR", None).unwrap();
        assert_eq!(pt.name, "Portuguese (Brazil)");
        assert_eq!(m, VoiceMatch::Exact);
        let (de, _) = choose_voice(&voices, Lang::De, "de-DE", None).unwrap();
        assert_eq!(de.name, "Hedda");
    }

    #[test]
    fn plain_voice_beats_variant_and_language_alone_is_enough() {
        let voices: Vec<_> = list().into_iter().filter(|v| v.name != "Hedda").collect();
        let (de, m) = choose_voice(&voices, Lang::De, "de-DE", None).unwrap();
        assert_eq!(de.name, "German");
        assert_eq!(m, VoiceMatch::Language);
        let (en, _) = choose_voice(&voices, Lang::En, "en-US", None).unwrap();
        assert_eq!(en.name, "English (Great Britain)");
    }

    #[test]
    fn no_voice_for_the_language_means_none() {
        let voices = vec![v("English", "en-US"), v("Portuguese", "pt-BR")];
        assert!(choose_voice(&voices, Lang::De, "de-DE", None).is_none());
        assert!(choose_voice(&[], Lang::De, "de-DE", None).is_none());
        // A tag that merely starts with the same letters is not German.
        assert!(
            choose_voice(
                &[v("Dutch", "nl"), v("Dari", "de_x")],
                Lang::Pt,
                "pt-BR",
                None
            )
            .is_none()
        );
    }

    #[test]
    fn override_wins_by_name_or_id_and_unknown_override_falls_back() {
        let voices = list();
        let (o, m) = choose_voice(&voices, Lang::De, "de-DE", Some("german+adam")).unwrap();
        assert_eq!((o.name.as_str(), m), ("German+Adam", VoiceMatch::Override));
        // Even a voice of another language, if the user says so.
        let (o, _) =
            choose_voice(&voices, Lang::De, "de-DE", Some("English (Great Britain)")).unwrap();
        assert_eq!(o.language, "en-GB");
        let (f, m) = choose_voice(&voices, Lang::De, "de-DE", Some("No Such Voice")).unwrap();
        assert_eq!((f.name.as_str(), m), ("Hedda", VoiceMatch::Exact));
    }
}
