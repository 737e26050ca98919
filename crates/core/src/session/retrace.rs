//! The arbiter's retrace (FIDE Appendix E.7, E.8): the sighted player's
//! scoresheet compared with the app's record. The app names the first move
//! where they differ and offers to go back to the last move on which they
//! agree; confirmed, the record goes back there, both clocks get the times
//! recorded at that move (and stop until the arbiter restarts them), and
//! both boards are guided to the position. [`super::Command::UndoRetrace`]
//! puts the retraced moves back.

use shakmaty::san::San;
use shakmaty::{Color, Position};

use super::{Effect, Notice, Priority, Question, Session, Source};
use crate::chess::{GameRecord, RecordedMove};
use crate::words::{Token, Utterance};

/// Where a scoresheet first differs from the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// Index of the first differing ply (0 = White's first move).
    pub ply: usize,
    /// The move the scoresheet has there, as written.
    pub written: String,
}

/// The moves of a scoresheet as typed or pasted (PGN movetext, tags,
/// comments, move numbers and results allowed), read by the PGN scanner.
pub fn scoresheet_moves(text: &str) -> Vec<String> {
    crate::pgn::movetext_moves(text)
}

/// The first ply where `sheet` differs from the record: a move that is not
/// the recorded one, or not legal there. A scoresheet shorter than the
/// record agrees as far as it goes.
pub fn first_difference(record: &GameRecord, sheet: &[String]) -> Option<Difference> {
    for (ply, written) in sheet.iter().enumerate() {
        let Some(recorded) = record.moves().get(ply) else {
            return Some(Difference {
                ply,
                written: written.clone(),
            });
        };
        let same = written
            .parse::<San>()
            .ok()
            .and_then(|san| san.to_move(record.position_before(ply)).ok())
            == Some(recorded.mv);
        if !same {
            return Some(Difference {
                ply,
                written: written.clone(),
            });
        }
    }
    None
}

/// The retraced moves, kept for [`super::Command::UndoRetrace`].
#[derive(Clone, Debug)]
pub struct Retraced {
    /// Record length after the retrace.
    pub ply: usize,
    pub moves: Vec<RecordedMove>,
    /// The entry written into the record's `Retraced` tag.
    pub entry: String,
}

/// The PGN tag that keeps retraced moves in the save file and exports:
/// `[Retraced "4: 3. Bb5 a6; ..."]`, one entry per retrace, each the record
/// length it went back to and the moves it removed.
pub const RETRACED_TAG: &str = "Retraced";

/// "4: 3. Bb5 a6": the moves removed after `ply`, numbered as on a
/// scoresheet.
fn retrace_entry(record: &GameRecord, ply: usize, moves: &[RecordedMove]) -> String {
    let start = record.start_position();
    let offset = usize::from(start.turn() == Color::Black);
    let first_number = u32::from(start.fullmoves()) as usize;
    let mut text = format!("{ply}:");
    for (i, m) in moves.iter().enumerate() {
        let index = ply + i + offset;
        let number = first_number + index / 2;
        let white = index.is_multiple_of(2);
        if white {
            text.push_str(&format!(" {number}. {}", m.san));
        } else if i == 0 {
            text.push_str(&format!(" {number}... {}", m.san));
        } else {
            text.push_str(&format!(" {}", m.san));
        }
    }
    text
}

/// The last retrace of a saved game, read back from its `Retraced` tag
/// (after a restart), when the record still ends where it went back to:
/// it can then be undone as before (the moves' clock readings are not in
/// the tag; the clocks keep their recorded times).
pub fn last_retrace(record: &GameRecord) -> Option<Retraced> {
    let (_, value) = record.tags.extra.iter().find(|(k, _)| k == RETRACED_TAG)?;
    let entry = value.split("; ").last()?.to_owned();
    let (ply, moves) = entry.split_once(':')?;
    let ply: usize = ply.trim().parse().ok()?;
    if ply != record.moves().len() {
        return None;
    }
    let mut replay = record.clone();
    replay.play_sans(&scoresheet_moves(moves).join(" ")).ok()?;
    let removed = replay.moves()[ply..].to_vec();
    (!removed.is_empty()).then_some(Retraced {
        ply,
        moves: removed,
        entry,
    })
}

/// Adds (or with `remove`, takes out) an entry of the `Retraced` tag.
fn edit_retraced_tag(record: &mut GameRecord, entry: &str, remove: bool) {
    let extra = &mut record.tags.extra;
    let at = extra.iter().position(|(k, _)| k == RETRACED_TAG);
    let mut entries: Vec<String> = at
        .map(|i| extra[i].1.split("; ").map(str::to_owned).collect())
        .unwrap_or_default();
    if remove {
        if let Some(i) = entries.iter().rposition(|e| e == entry) {
            entries.remove(i);
        }
    } else {
        entries.push(entry.to_owned());
    }
    let value = entries.join("; ");
    match (at, value.is_empty()) {
        (Some(i), true) => {
            extra.remove(i);
        }
        (Some(i), false) => extra[i].1 = value,
        (None, false) => extra.push((RETRACED_TAG.to_owned(), value)),
        (None, true) => {}
    }
}

impl Session {
    /// Compares the sighted player's scoresheet with the record and, where
    /// they differ, asks to go back to the last move both agree on.
    pub(super) fn compare_scoresheet(&mut self, text: &str, out: &mut Vec<Effect>) {
        let sheet = scoresheet_moves(text);
        let Some(diff) = first_difference(&self.record, &sheet) else {
            let number = self
                .pack
                .render(&[Token::Number(sheet.len().div_ceil(2) as u64)]);
            let text = self.pack.phrase("scoresheets_agree", &[("number", number)]);
            self.speak(out, text, Priority::Answer);
            return;
        };
        let number = self.record.fullmove_number_of(diff.ply);
        let side = self
            .record
            .position_before(diff.ply.min(self.record.moves().len()))
            .turn();
        let recorded = match self.record.moves().get(diff.ply) {
            Some(m) => crate::announce::announce_move(
                &self.pack,
                self.record.position_before(diff.ply),
                m.mv,
                self.config.form,
            ),
            None => self.pack.say("no_move"),
        };
        let text = self.pack.phrase(
            "retrace_offer",
            &[
                ("number", self.pack.render(&[Token::Number(number.into())])),
                ("side", self.side(side)),
                ("recorded", recorded),
                ("written", Utterance::from(diff.written.as_str())),
            ],
        );
        if diff.ply >= self.record.moves().len() {
            // The scoresheet has more moves than the record: nothing to go
            // back to; the arbiter decides.
            self.speak(out, text, Priority::Answer);
            return;
        }
        self.ask(Question::Retrace(diff.ply), text, out);
    }

    /// Goes back to `ply` moves (confirmed): clocks from the record, both
    /// boards guided, the moves kept for undo.
    pub(super) fn retrace(&mut self, now: u64, ply: usize, out: &mut Vec<Effect>) {
        let n = self.record.moves().len().saturating_sub(ply);
        let moves = self.record.takeback(n);
        if moves.is_empty() {
            return;
        }
        self.engine_forget();
        self.restore_clocks(now);
        let removed = moves.iter().map(|m| m.san).collect();
        let entry = retrace_entry(&self.record, ply, &moves);
        edit_retraced_tag(&mut self.record, &entry, false);
        self.retraced = Some(Retraced { ply, moves, entry });
        self.last_announcement = self.last_move_words();
        let number = self.pack.render(&[Token::Number(
            self.record.fullmove_number_of(ply.saturating_sub(1)).into(),
        )]);
        self.speak(
            out,
            self.pack.phrase("retraced", &[("number", number)]),
            Priority::Move,
        );
        out.push(Effect::Notice(Notice::Retraced { ply, removed }));
        out.push(Effect::SaveGame);
        self.board
            .on_game_changed(now, &self.record, Source::Keyboard);
        self.seats_reconcile(now);
    }

    /// Puts the retraced moves back, with their times and clock readings.
    pub(super) fn undo_retrace(&mut self, now: u64, out: &mut Vec<Effect>) {
        let Some(retraced) = self.retraced.take() else {
            self.speak(out, self.pack.say("nothing_to_undo"), Priority::Answer);
            return;
        };
        if self.record.moves().len() != retraced.ply {
            // Moves were played since: the retrace stands.
            self.speak(out, self.pack.say("nothing_to_undo"), Priority::Answer);
            return;
        }
        for m in &retraced.moves {
            if self.record.play(m.mv, m.at_ms).is_err() {
                break;
            }
            if let Some(ms) = m.clock_ms {
                self.record.set_last_clock(ms);
            }
        }
        edit_retraced_tag(&mut self.record, &retraced.entry, true);
        self.restore_clocks(now);
        self.last_announcement = self.last_move_words();
        self.speak(out, self.pack.say("retrace_undone"), Priority::Answer);
        out.push(Effect::Notice(Notice::Retraced {
            ply: self.record.moves().len(),
            removed: Vec::new(),
        }));
        out.push(Effect::SaveGame);
        self.board
            .on_game_changed(now, &self.record, Source::Keyboard);
        self.seats_reconcile(now);
    }

    /// Both clocks to the times recorded with each side's last move,
    /// stopped until the arbiter restarts them.
    fn restore_clocks(&mut self, now: u64) {
        let control = self.clock.control().clone();
        let (clock, origin) =
            super::resume_clock::clock_from_record(&self.config, &control, now, &self.record);
        self.clock = clock;
        self.game_origin_ms = Some(origin);
        self.game_time_base_ms =
            super::resume_clock::last_game_time(&self.record).saturating_sub(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{Command, Event, QuestionKind, SessionConfig};
    use crate::words::{Lang, Pack};

    fn session() -> Session {
        let config = SessionConfig {
            lang: Lang::En,
            time_control: "900+10".parse().expect("time control"),
            ..SessionConfig::default()
        };
        Session::with_pack(config, Pack::bundled(Lang::En))
    }

    fn spoken(fx: &[Effect]) -> Vec<String> {
        fx.iter()
            .filter_map(|e| match e {
                Effect::Speak(s) => Some(s.text.spoken.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_retrace_can_be_undone_after_a_restart() {
        let mut s = session();
        for mv in ["e4", "e5", "Nf3", "Nc6"] {
            s.handle(
                0,
                Event::MoveEntered {
                    text: mv.into(),
                    source: Source::Keyboard,
                },
            );
        }
        s.handle(
            0,
            Event::Command(Command::CompareScoresheet("1. e4 e5 2. Nc3".into())),
        );
        s.handle(0, Event::Command(Command::Confirm));
        assert_eq!(s.record().moves().len(), 2);
        // The save file is written and read back by a new app.
        let saved = crate::pgn::write(s.record(), &crate::pgn::WriteOptions::SAVE);
        let record = crate::pgn::Games::new(saved.as_bytes(), crate::pgn::ReadOptions::default())
            .next_game()
            .and_then(|game| game.record)
            .expect("read back");
        let mut again = session();
        again.resume_game(0, record);
        again.handle(0, Event::Command(Command::UndoRetrace));
        let sans: Vec<String> = again
            .record()
            .moves()
            .iter()
            .map(|m| m.san.to_string())
            .collect();
        assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6"]);
        assert!(
            !again
                .record()
                .tags
                .extra
                .iter()
                .any(|(k, _)| k == RETRACED_TAG),
            "the undone retrace leaves the tag"
        );
    }

    #[test]
    fn scoresheet_text_is_read_as_moves() {
        let text = "[Event \"x\"]\n1. e4 e5 2.Nf3 {a comment (nested)} Nc6+ 3. Bb5!? a6 1-0";
        assert_eq!(
            scoresheet_moves(text),
            ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]
        );
    }

    #[test]
    fn the_first_difference_is_found_and_a_shorter_sheet_agrees() {
        let mut r = GameRecord::new();
        for san in ["e4", "e5", "Nf3", "Nc6"] {
            let mv = san.parse::<San>().unwrap().to_move(r.position()).unwrap();
            r.play(mv, None).unwrap();
        }
        let sheet = |s: &str| scoresheet_moves(s);
        assert_eq!(first_difference(&r, &sheet("e4 e5 Nf3")), None);
        assert_eq!(first_difference(&r, &sheet("e4 e5 Nf3 Nc6")), None);
        assert_eq!(
            first_difference(&r, &sheet("e4 e5 Ng1f3 Nf6")),
            Some(Difference {
                ply: 3,
                written: "Nf6".into()
            })
        );
        assert_eq!(
            first_difference(&r, &sheet("e4 e6")),
            Some(Difference {
                ply: 1,
                written: "e6".into()
            })
        );
        assert_eq!(
            first_difference(&r, &sheet("e4 e5 Nf3 Nc6 Bb5")).map(|d| d.ply),
            Some(4)
        );
    }

    #[test]
    fn a_retrace_goes_back_restores_both_clocks_and_can_be_undone() {
        let mut s = session();
        let mut now = 1000;
        // Each side thinks 10 s per move: the clock readings go with them.
        for san in ["e4", "e5", "Nf3", "Nc6", "Bb5"] {
            now += 10_000;
            s.handle(
                now,
                Event::MoveEntered {
                    text: san.into(),
                    source: Source::Keyboard,
                },
            );
        }
        let white_after_nf3 = s.record().moves()[2].clock_ms.expect("a clock reading");
        let black_after_nc6 = s.record().moves()[3].clock_ms.expect("a clock reading");
        now += 60_000;
        // The sighted player (White) wrote 2. Nc3: the record differs there.
        let fx = s.handle(
            now,
            Event::Command(Command::CompareScoresheet("1. e4 e5 2. Nc3 Nc6".into())),
        );
        assert_eq!(
            spoken(&fx),
            [
                "First difference at move 2, White: record Knight Felix three, scoresheet Nc3. Go back \
              to the last move both agree on? Yes or no"
            ]
        );
        assert_eq!(
            s.pending().map(|p| p.question.kind()),
            Some(QuestionKind::Retrace)
        );
        let fx = s.handle(now, Event::Command(Command::Confirm));
        assert_eq!(s.record().moves().len(), 2);
        assert!(spoken(&fx).contains(&"Back to move 1. Clocks stopped".to_string()));
        assert!(fx.iter().any(|e| matches!(
            e,
            Effect::Notice(Notice::Retraced { ply: 2, removed })
                if removed.iter().map(ToString::to_string).eq(["Nf3", "Nc6", "Bb5"])
        )));
        assert!(fx.iter().any(|e| matches!(e, Effect::SaveGame)));
        // The retraced moves stay in the record's tags, so in the save file.
        let pgn = crate::pgn::write_pgn(s.record());
        assert!(pgn.contains("[Retraced \"2: 2. Nf3 Nc6 3. Bb5\"]"), "{pgn}");
        let back = crate::pgn::read_pgn(&pgn, 0).expect("the save file reads back");
        assert!(
            back.tags
                .extra
                .contains(&("Retraced".into(), "2: 2. Nf3 Nc6 3. Bb5".into()))
        );
        // Both clocks as recorded at move 1 (e4, e5), and stopped.
        let (w, b) = (
            s.record().moves()[0].clock_ms.unwrap(),
            s.record().moves()[1].clock_ms.unwrap(),
        );
        assert_eq!(s.clock().remaining(Color::White, now), Some(w));
        assert_eq!(s.clock().remaining(Color::Black, now + 5000), Some(b));
        assert_eq!(s.clock().running(), None);

        // Undone: the moves and their clock readings are back.
        let fx = s.handle(now, Event::Command(Command::UndoRetrace));
        assert!(spoken(&fx).contains(&"Retrace undone, moves restored".to_string()));
        let sans: Vec<String> = s
            .record()
            .moves()
            .iter()
            .map(|m| m.san.to_string())
            .collect();
        assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        assert!(!crate::pgn::write_pgn(s.record()).contains("Retraced"));
        assert_eq!(s.record().moves()[2].clock_ms, Some(white_after_nf3));
        assert_eq!(
            s.clock().remaining(Color::Black, now),
            Some(black_after_nc6)
        );
        let fx = s.handle(now, Event::Command(Command::UndoRetrace));
        assert_eq!(spoken(&fx), ["Nothing to undo"]);
    }

    #[test]
    fn agreeing_scoresheets_are_said_so() {
        let mut s = session();
        for san in ["d4", "d5"] {
            s.handle(
                0,
                Event::MoveEntered {
                    text: san.into(),
                    source: Source::Keyboard,
                },
            );
        }
        let fx = s.handle(
            0,
            Event::Command(Command::CompareScoresheet("1.d4 d5".into())),
        );
        assert_eq!(spoken(&fx), ["The scoresheets agree up to move 1"]);
        assert!(s.pending().is_none());
    }
}
