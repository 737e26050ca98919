//! What the player types during an online game: the words of online play
//! (`draw`, `yes`, `resign`, `chat`, `clock` ...) become requests or
//! answers, anything else is a move the session plays and the game sends.

use shakmaty::Color;

use super::play::{Confirming, OnlinePlay};
use super::{Step, Steps};
use crate::online::{Call, OnlineEffect, Report, Request, path_id};
use crate::session::Priority;
use crate::words::Utterance;

/// The words of online play (first word of a typed line), in the three
/// languages; anything else typed is a move.
const WORDS: &[&str] = &[
    "resign",
    "aufgeben",
    "abandonar",
    "abort",
    "abbrechen",
    "abortar",
    "claim",
    "claim-victory",
    "sieg",
    "vitoria",
    "draw",
    "remis",
    "empate",
    "takeback",
    "undo",
    "zurueck",
    "voltar",
    "chat",
    "clock",
    "uhr",
    "relogio",
    "again",
    "nochmal",
    "novamente",
    "repeat",
    "r",
    "yes",
    "y",
    "ja",
    "j",
    "sim",
    "s",
    "no",
    "n",
    "nein",
    "nao",
    "não",
];

/// Whether `text` is a word of online play rather than a move (a front
/// end clears its input for a word; a move refused stays typed).
pub fn is_online_word(text: &str) -> bool {
    let lower = text.trim().to_lowercase();
    let word = lower.split(' ').next().unwrap_or("");
    WORDS.contains(&word)
}

impl OnlinePlay {
    /// A line typed by the player: a word of online play or a move. True
    /// when it was a word (or kept for the game about to start); a move is
    /// played by the session and sent.
    pub(super) fn input(&mut self, steps: &mut Steps<'_>, now: u64, text: &str) -> bool {
        self.watch.now = now;
        let lower = text.trim().to_lowercase();
        let (word, rest) = lower.split_once(' ').unwrap_or((lower.as_str(), ""));
        let yes = matches!(word, "yes" | "y" | "ja" | "j" | "sim" | "s");
        let no = matches!(word, "no" | "n" | "nein" | "nao" | "não");
        let Some(game) = &mut self.game else {
            match &self.challenge {
                Some(challenge) if yes || no => {
                    let id = path_id(&challenge.id);
                    let call = if yes {
                        Call::AcceptChallenge(id)
                    } else {
                        let words = steps.pack().say("online_challenge_declined");
                        steps.report(None, words, Priority::Answer);
                        self.challenge = None;
                        Call::DeclineChallenge(id)
                    };
                    self.todo.push(OnlineEffect::Send {
                        call,
                        input: Some(text.to_owned()),
                    });
                }
                _ => {
                    // Typed before the game: played (or answered) when it
                    // starts, and said so, so nothing typed goes unheard.
                    self.waiting_input.push(text.to_owned());
                    let words = steps.pack().phrase(
                        "online_kept_for_game",
                        &[("text", Utterance::from(text.trim()))],
                    );
                    steps.report(None, words, Priority::Answer);
                }
            }
            return true;
        };
        if game.is_over() {
            return true;
        }
        let me = game.me;
        // Resigning and offering a draw are asked first ("Resign? Yes or
        // no"): `yes` (while nothing new was said since), or the same word
        // again (a second key press, at any time), sends it; `no` does
        // not; anything else lets the question lapse.
        let resign = matches!(word, "resign" | "aufgeben" | "abandonar");
        // Offering a draw, or accepting the opponent's with the same word:
        // either ends the game's course, so either is asked first.
        let offer = matches!(word, "draw" | "remis" | "empate");
        let answers = std::mem::take(&mut self.yes_confirms);
        let confirmed = match self.confirming.take() {
            Some(Confirming::Resign) if (yes && answers) || resign => Some("resign"),
            Some(Confirming::Draw) if (yes && answers) || offer => Some("draw"),
            Some(_) if no && answers => {
                let words = steps.pack().say("online_confirm_cancelled");
                steps.report(None, words, Priority::Answer);
                return true;
            }
            _ => None,
        };
        if self.confirm && confirmed.is_none() && (resign || offer) {
            let (asked, key) = if resign {
                (Confirming::Resign, "online_confirm_resign")
            } else if game.opponent_offers_draw() {
                (Confirming::Draw, "online_confirm_accept_draw")
            } else {
                (Confirming::Draw, "online_confirm_draw")
            };
            self.confirming = Some(asked);
            self.yes_confirms = true;
            let words = steps.pack().say(key);
            steps.report(None, words, Priority::Question);
            return true;
        }
        let word = confirmed.unwrap_or(word);
        let request = match word {
            "resign" | "aufgeben" | "abandonar" => Some(Request::Resign),
            "abort" | "abbrechen" | "abortar" => Some(Request::Abort),
            "claim" | "claim-victory" | "sieg" | "vitoria" => Some(Request::ClaimVictory),
            "draw" | "remis" | "empate" => {
                if !game.opponent_offers_draw() {
                    let words = steps.pack().say("online_you_offer_draw");
                    steps.report(None, words, Priority::Answer);
                }
                Some(game.draw(true))
            }
            "takeback" | "undo" | "zurueck" | "voltar" => {
                if !game.opponent_offers_takeback() {
                    let words = steps.pack().say("online_takeback_asked");
                    steps.report(None, words, Priority::Answer);
                }
                Some(game.takeback(true))
            }
            _ if yes || no => {
                let declined = |steps: &mut Steps<'_>, key| {
                    let words = steps.pack().say(key);
                    steps.report(None, words, Priority::Answer);
                };
                if game.opponent_offers_draw() {
                    if no {
                        declined(steps, "online_declined_draw");
                    }
                    Some(game.draw(yes))
                } else if game.opponent_offers_takeback() {
                    if no {
                        declined(steps, "online_declined_takeback");
                    }
                    Some(game.takeback(yes))
                } else {
                    let words = steps.pack().say("online_no_offer");
                    steps.report(None, words, Priority::Answer);
                    return true;
                }
            }
            "chat" if !rest.is_empty() => {
                // The text as typed (not lower-cased).
                let original = text.trim()[4..].trim().to_owned();
                Some(Request::Chat(original))
            }
            "chat" => {
                self.read_chat(steps);
                return true;
            }
            "clock" | "uhr" | "relogio" => {
                self.say_clocks(steps);
                return true;
            }
            "again" | "nochmal" | "novamente" => {
                // Look for the game on the server now.
                let words = steps.pack().say("online_looking_again");
                steps.report(None, words, Priority::Answer);
                self.read_again(now);
                return true;
            }
            "repeat" | "r" => {
                steps.then(Step::Repeat);
                return true;
            }
            _ => None,
        };
        if let Some(request) = request {
            self.send(request, Some(text));
            return true;
        }
        // A move.
        let game = self.game.as_ref().expect("a game");
        if steps.record().turn() != me || game.pending().is_some() {
            let words = steps.pack().say("online_not_your_turn");
            let report = Report::Error {
                input: Some(text.to_owned()),
                reason: "not your turn".into(),
            };
            steps.report(Some(report), words, Priority::Alert);
            return false;
        }
        // Played by the session, then sent with `text` as its input.
        steps.then(Step::EnterMove(text.to_owned()));
        false
    }

    /// Says the chat lines not read yet.
    pub(super) fn read_chat(&mut self, steps: &mut Steps<'_>) {
        let pack = steps.pack();
        if self.chat.is_empty() {
            let words = pack.say("online_chat_none");
            steps.report(None, words, Priority::Answer);
            return;
        }
        let lines: Vec<Utterance> = std::mem::take(&mut self.chat)
            .into_iter()
            .map(|(name, line)| {
                pack.phrase(
                    "online_chat",
                    &[
                        ("name", Utterance::from(name.as_str())),
                        ("text", Utterance::from(line.as_str())),
                    ],
                )
            })
            .collect();
        for words in lines {
            steps.report(None, words, Priority::Answer);
        }
    }

    /// Says both clocks as the server last sent them (or that the game
    /// has none: correspondence, unlimited).
    pub(super) fn say_clocks(&self, steps: &mut Steps<'_>) {
        let timed = self.game.as_ref().is_some_and(|g| g.clock.is_some());
        let Some((w, b)) = self.clocks.filter(|_| timed) else {
            let words = steps.pack().say("online_no_clock");
            steps.report(None, words, Priority::Answer);
            return;
        };
        let pack = steps.pack();
        let lines: Vec<Utterance> = [(Color::White, w), (Color::Black, b)]
            .into_iter()
            .map(|(side, ms)| {
                pack.phrase(
                    "low_time",
                    &[
                        ("side", crate::announce::side_word(pack, side)),
                        ("remaining", crate::clock::duration_words(pack, ms)),
                    ],
                )
            })
            .collect();
        for words in lines {
            steps.report(None, words, Priority::Answer);
        }
    }
}
