//! Practice against an engine, as the session sees it: it asks through
//! [`Effect::AskEngine`] and hears back through [`Event::Engine`]; the
//! engine process lives in the shell ([`crate::engine::EngineService`]).
//!
//! The engine's move is held until a short pause has passed since it was
//! asked for (a deadline, so virtual time in tests), then played like an
//! opponent's move: announced, and expected on the peg-board.

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position};

use super::{Command, Effect, EngineChange, Notice, Priority, Session, Source};
use crate::announce;
use crate::engine::{Ask, EngineAnswer, EngineEvent, EngineRequest, Level};
use crate::words::Utterance;

/// The engine opponent of a practice game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opponent {
    /// The engine's colour.
    pub color: Color,
    pub level: Level,
    /// The engine's move is never played sooner than this after it was
    /// asked for (0: at once).
    pub pause_ms: u64,
    /// Seed of the weakened levels' random choice.
    pub seed: u64,
}

/// What the session remembers about the engine.
#[derive(Clone, Debug, Default)]
pub(super) struct EngineState {
    opponent: Option<Opponent>,
    next_id: u64,
    /// The request waiting for an answer: id, what, when asked, and how
    /// many moves the game had then.
    asked: Option<(u64, Ask, u64, usize)>,
    /// The engine's move, waiting for the pause to end.
    held: Option<(Move, u64)>,
    /// The engine failed; no new move is asked for until a restart.
    failed: bool,
    /// The review of the finished game was asked for.
    reviewed: bool,
}

impl Session {
    /// Plays against an engine (or, with `None`, both sides by hand).
    pub fn set_opponent(&mut self, opponent: Option<Opponent>) {
        self.engine.opponent = opponent;
        self.engine.asked = None;
        self.engine.held = None;
        self.engine.reviewed = self.record.is_over();
    }

    pub fn opponent(&self) -> Option<Opponent> {
        self.engine.opponent
    }

    /// The game changed under the engine (takeback, new game, loaded
    /// game): an answer still on its way is stale and a held move dropped.
    pub(super) fn engine_forget(&mut self) {
        self.engine.asked = None;
        self.engine.held = None;
    }

    /// The engine is thinking (a move or an answer is awaited).
    pub fn engine_busy(&self) -> bool {
        self.engine.asked.is_some() || self.engine.held.is_some()
    }

    /// When the engine's move, already chosen, is due (after the pause).
    pub fn engine_move_due(&self) -> Option<u64> {
        self.engine.held.map(|(_, at)| at)
    }

    /// How many moves a takeback removes: the player's move and the
    /// engine's reply when it is the player's turn again.
    pub(super) fn takeback_plies(&self) -> usize {
        match self.engine.opponent {
            Some(o) if self.record.turn() != o.color && self.record.moves().len() >= 2 => 2,
            _ => 1,
        }
    }

    /// The phrase `key` (or `key_pair` for the player's move and the
    /// engine's reply) naming what a takeback removes.
    pub(super) fn takeback_words(&self, key: &str) -> Option<Utterance> {
        let n = self.record.moves().len();
        let words = |i: usize| {
            let mv = self.record.moves()[i].mv;
            let before = self.record.position_before(i);
            announce::announce_move(&self.pack, before, mv, self.config.form)
        };
        match (n, self.takeback_plies()) {
            (0, _) => None,
            (_, 2) => Some(self.pack.phrase(
                &format!("{key}_pair"),
                &[("first", words(n - 2)), ("second", words(n - 1))],
            )),
            _ => Some(self.pack.phrase(key, &[("move", words(n - 1))])),
        }
    }

    fn request(
        &mut self,
        now: u64,
        ask: Ask,
        fen: String,
        moves: Vec<UciMove>,
        out: &mut Vec<Effect>,
    ) {
        let level = self.engine.opponent.map(|o| o.level).unwrap_or_default();
        let seed = self.engine.opponent.map(|o| o.seed).unwrap_or(0);
        self.engine.next_id += 1;
        let id = self.engine.next_id;
        self.engine.asked = Some((id, ask, now, self.record.moves().len()));
        out.push(Effect::AskEngine(EngineRequest {
            id,
            ask,
            fen,
            moves,
            level,
            seed: seed.wrapping_add(id),
        }));
    }

    fn game_request(&mut self, now: u64, ask: Ask, out: &mut Vec<Effect>) {
        let fen =
            shakmaty::fen::Fen::from_position(self.record.start_position(), EnPassantMode::Legal)
                .to_string();
        let moves = self
            .record
            .moves()
            .iter()
            .map(|m| m.mv.to_uci(CastlingMode::Standard))
            .collect();
        self.request(now, ask, fen, moves, out);
    }

    /// After every event: play a held move whose pause is over, ask for
    /// the engine's move when it is its turn, ask for the review at the end.
    pub(super) fn engine_after(&mut self, now: u64, out: &mut Vec<Effect>) {
        let Some(opponent) = self.engine.opponent else {
            return;
        };
        if let Some((mv, at)) = self.engine.held
            && now >= at
        {
            self.engine.held = None;
            if self.record.turn() == opponent.color && self.record.position().is_legal(mv) {
                self.play(now, mv, Source::Engine, out);
            }
        }
        if self.engine.failed || self.engine.asked.is_some() || self.engine.held.is_some() {
            return;
        }
        if self.record.is_over() {
            if !self.engine.reviewed {
                self.engine.reviewed = true;
                self.speak(out, self.pack.say("review_running"), Priority::Answer);
                self.game_request(now, Ask::Review, out);
            }
        } else {
            self.engine.reviewed = false;
            if self.record.turn() == opponent.color {
                self.game_request(now, Ask::Move, out);
            }
        }
    }

    pub(super) fn engine_command(&mut self, now: u64, cmd: Command, out: &mut Vec<Effect>) {
        let help = matches!(cmd, Command::Hint | Command::Threat | Command::Evaluate);
        if help && self.config.mode != super::Mode::Practice {
            // No computer help at a tournament board (tournament and
            // assistant relay modes).
            let text = self.pack.say("engine_help_practice_only");
            self.speak(out, text, Priority::Answer);
            return;
        }
        let engines_turn = self
            .engine
            .opponent
            .is_some_and(|o| o.color == self.record.turn() && !self.record.is_over());
        if help && engines_turn && !self.engine.failed {
            // Its move is on the way; asking now would only delay it.
            let text = self.pack.say("engine_thinking");
            self.speak(out, text, Priority::Answer);
            return;
        }
        match cmd {
            Command::RestartEngine => {
                self.engine.failed = false;
                self.engine.asked = None;
                out.push(Effect::RestartEngine);
                self.speak(out, self.pack.say("engine_restarting"), Priority::Answer);
            }
            Command::Hint | Command::Evaluate => {
                let ask = if cmd == Command::Hint {
                    Ask::Hint
                } else {
                    Ask::Evaluate
                };
                let fen = self.record.fen();
                self.request(now, ask, fen, Vec::new(), out);
            }
            Command::Threat => {
                // The opponent's best move as if it were his turn.
                match self.record.position().clone().swap_turn() {
                    Ok(swapped) => {
                        let fen = shakmaty::fen::Fen::from_position(&swapped, EnPassantMode::Legal)
                            .to_string();
                        self.request(now, Ask::Threat, fen, Vec::new(), out);
                    }
                    Err(_) => self.speak(out, self.pack.say("threat_none"), Priority::Answer),
                }
            }
            _ => {}
        }
    }

    pub(super) fn engine_event(&mut self, now: u64, event: EngineEvent, out: &mut Vec<Effect>) {
        match event {
            EngineEvent::Ready { name } => {
                if self.engine.failed {
                    self.engine.failed = false;
                    self.speak(out, self.pack.say("engine_ready"), Priority::Answer);
                }
                out.push(Effect::Notice(Notice::Engine {
                    state: EngineChange::Ready,
                    detail: name,
                }));
            }
            EngineEvent::Failed { id, error } => {
                if id.is_none() || self.engine.asked.map(|a| a.0) == id {
                    self.engine.asked = None;
                }
                self.engine.failed = true;
                let message = error.to_string();
                let reason = crate::engine::failure_words(&self.pack, &error);
                self.speak(
                    out,
                    self.pack.phrase("engine_failed", &[("reason", reason)]),
                    Priority::Alert,
                );
                out.push(Effect::Notice(Notice::Engine {
                    state: EngineChange::Failed,
                    detail: message,
                }));
            }
            EngineEvent::Answer(answer) => {
                let Some((id, _, asked_at, plies)) = self.engine.asked else {
                    return;
                };
                if id != answer.id {
                    return; // stale: the game moved on (takeback, new game)
                }
                self.engine.asked = None;
                if plies != self.record.moves().len() {
                    // A hint for a position that is gone: say nothing.
                    return;
                }
                self.engine_answer(now, asked_at, answer, out);
            }
        }
    }

    fn engine_answer(
        &mut self,
        now: u64,
        asked_at: u64,
        answer: EngineAnswer,
        out: &mut Vec<Effect>,
    ) {
        let pos = self.record.position().clone();
        match answer.ask {
            Ask::Move => {
                let Some(opponent) = self.engine.opponent else {
                    return;
                };
                let Some(mv) = answer.best.and_then(|u| u.to_move(&pos).ok()) else {
                    return;
                };
                let at = asked_at + opponent.pause_ms;
                self.engine.held = Some((mv, at));
                // A pause already over plays the move in engine_after.
                let _ = now;
            }
            Ask::Hint => match answer.best.and_then(|u| u.to_move(&pos).ok()) {
                Some(mv) => {
                    let words = announce::announce_move(&self.pack, &pos, mv, self.config.form);
                    let text = self.pack.phrase("hint", &[("move", words)]);
                    self.speak(out, text, Priority::Answer);
                }
                None => self.speak(out, self.pack.say("hint_none"), Priority::Answer),
            },
            Ask::Threat => {
                let swapped: Option<Chess> = pos.clone().swap_turn().ok();
                let threat = swapped.as_ref().and_then(|s| {
                    let mv = answer.best.as_ref()?.to_move(s).ok()?;
                    Some(announce::announce_move(&self.pack, s, mv, self.config.form))
                });
                match threat {
                    Some(words) => {
                        let text = self.pack.phrase("threat", &[("move", words)]);
                        self.speak(out, text, Priority::Answer);
                    }
                    None => self.speak(out, self.pack.say("threat_none"), Priority::Answer),
                }
            }
            Ask::Evaluate => match answer.lines.first() {
                Some(line) => {
                    let text = crate::engine::evaluation_words(&self.pack, &pos, line);
                    self.speak(out, text, Priority::Answer);
                }
                None => {
                    if let Some(end) = self.record.end() {
                        let text = announce::announce_result(&self.pack, &end);
                        self.speak(out, text, Priority::Answer);
                    }
                }
            },
            Ask::Review => {
                let side = self
                    .engine
                    .opponent
                    .map(|o| !o.color)
                    .unwrap_or(self.config.blind_side);
                let mistakes = crate::engine::find_mistakes(&self.record, &answer.lines, side, 3);
                let text = crate::engine::review_words(
                    &self.pack,
                    &self.record,
                    &mistakes,
                    self.config.form,
                );
                out.push(Effect::Notice(Notice::Engine {
                    state: EngineChange::Review,
                    detail: text.written.clone(),
                }));
                self.speak(out, text, Priority::Answer);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineEvent;
    use crate::session::{Event, SessionConfig};
    use crate::words::{Lang, Pack};

    fn asked(fx: &[Effect]) -> Vec<EngineRequest> {
        fx.iter()
            .filter_map(|e| match e {
                Effect::AskEngine(r) => Some(r.clone()),
                _ => None,
            })
            .collect()
    }

    fn answer(s: &mut Session, now: u64, req: &EngineRequest, best: &str) -> Vec<Effect> {
        let event = EngineEvent::Answer(EngineAnswer {
            id: req.id,
            ask: req.ask,
            best: Some(best.parse().unwrap()),
            lines: Vec::new(),
        });
        s.handle(now, Event::Engine(event)).into()
    }

    #[test]
    fn help_waits_for_the_engine_s_move_and_a_stale_hint_is_not_said() {
        let config = SessionConfig {
            lang: Lang::En,
            ..SessionConfig::default()
        };
        let mut s = Session::with_pack(config, Pack::bundled(Lang::En));
        s.set_opponent(Some(Opponent {
            color: Color::Black,
            level: Level::new(3).unwrap(),
            pause_ms: 500,
            seed: 1,
        }));
        let enter = |s: &mut Session, now, text: &str| {
            s.handle(
                now,
                Event::MoveEntered {
                    text: text.into(),
                    source: Source::Keyboard,
                },
            )
        };
        let fx = enter(&mut s, 0, "e4");
        let mv = asked(&fx).pop().expect("asked for its move");
        // The engine is thinking: a hint now is refused, its move not lost.
        let fx = s.handle(10, Event::Command(Command::Hint));
        assert!(asked(&fx).is_empty());
        assert_eq!(
            crate::session::tests::spoken(&fx),
            ["The computer is to move"]
        );
        answer(&mut s, 100, &mv, "e7e5");
        let fx = s.handle(500, Event::Tick);
        assert_eq!(s.record().moves().len(), 2, "{fx:?}");
        // A hint asked, then a move played before it came: not said, and
        // the engine is asked for its reply once the hint is in.
        let hint = asked(&s.handle(600, Event::Command(Command::Hint)))
            .pop()
            .expect("hint asked");
        assert_eq!(hint.ask, Ask::Hint);
        let fx = enter(&mut s, 700, "Nf3");
        assert!(asked(&fx).is_empty(), "one request at a time");
        let fx = answer(&mut s, 800, &hint, "d2d4");
        assert!(
            !crate::session::tests::spoken(&fx)
                .iter()
                .any(|t| t.starts_with("Hint")),
            "{fx:?}"
        );
        let next = asked(&fx).pop().expect("the engine's reply is asked for");
        assert_eq!(next.ask, Ask::Move);
        assert_eq!(next.moves.len(), 3);
    }
}
