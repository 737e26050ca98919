//! The session's words: the announcement language's pack, with the
//! messages in the interface language when they can be heard.

use crate::config::Settings;
use crate::words::{LoadPack, Pack};

/// The session's words: moves in the announcement language, every message
/// (questions, confirmations, results) in the interface language. Only
/// when the clip voice speaks and has no clips of the interface language
/// do the messages stay in the announcement language, so they are heard.
pub(crate) fn session_pack(
    settings: &Settings,
    dir: Option<&std::path::Path>,
    speech_backend: &str,
) -> (Pack, Option<crate::words::PackError>) {
    let (pack, error) = Pack::load_or_bundled(settings.session_config().lang, dir);
    if speech_backend == "clip voice"
        && !crate::speech::clips::has_clips(settings.interface_language)
    {
        return (pack, error);
    }
    let (interface, _) = Pack::load_or_bundled(settings.interface_language, dir);
    (pack.with_messages_from(&interface), error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::Lang;

    fn settings(interface: Lang, announce: Lang) -> Settings {
        let mut s = Settings {
            interface_language: interface,
            ..Settings::default()
        };
        s.speech.language = announce;
        s
    }

    #[test]
    fn messages_follow_the_interface_unless_the_clip_voice_cannot_say_them() {
        let english = Pack::bundled(Lang::En).say("cancelled");
        let german = Pack::bundled(Lang::De).say("cancelled");
        let s = settings(Lang::En, Lang::De);
        let (pack, _) = session_pack(&s, None, "speech-dispatcher");
        assert_eq!(pack.say("cancelled"), english);
        assert_eq!(pack.messages_lang(), Lang::En);
        // The clip voice has German clips only: English messages would be
        // silent, so they stay German.
        assert!(crate::speech::clips::has_clips(Lang::De));
        if !crate::speech::clips::has_clips(Lang::En) {
            let (pack, _) = session_pack(&s, None, "clip voice");
            assert_eq!(pack.say("cancelled"), german);
        }
        let (pack, _) = session_pack(&settings(Lang::De, Lang::En), None, "clip voice");
        assert_eq!(
            pack.say("cancelled"),
            german,
            "German clips say German messages"
        );
    }
}
