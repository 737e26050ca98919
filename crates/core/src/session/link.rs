//! One board-link state machine for both boards: the blind player's
//! peg-board ([`super::board`]) and the sighted player's e-board
//! ([`super::sighted`]).
//!
//! The link events of [`BoardEvent`] (up, lost, closed, lines dropped) and
//! the request to repeat the guidance mean the same on either board; only
//! the words, the notice and the command that asks for the whole board
//! differ, and [`BoardSide`] names them. What is left for the board's own
//! mirror of the game (its tracker or recognizer) comes back as a
//! [`LinkInput`], which each board matches in full: no event is dropped by
//! a wildcard.

use shakmaty::Role;

use super::{BoardDetail, Earcon, Effect, LinkChange, Notice, Priority, SightedState, Speech};
use crate::board::guidance::guidance;
use crate::board::tracker::render_in_sync;
use crate::board::{HostCommand, Mismatch, TrackerConfig};
use crate::chess::GameRecord;
use crate::words::{Pack, Utterance};

use super::board_event::BoardEvent;

/// Link state as the GUI shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum LinkState {
    #[default]
    NotConnected,
    Connected {
        port: String,
    },
    Lost {
        reason: String,
    },
}

/// Which board a link serves: its words, notices and board command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardSide {
    /// The blind player's peg-board (notices [`Notice::Link`]).
    Peg,
    /// The sighted player's e-board (notices [`Notice::SightedBoard`],
    /// words said as "Sighted board: ...").
    Sighted,
}

impl BoardSide {
    fn notice(self, state: LinkChange, detail: BoardDetail) -> Effect {
        Effect::Notice(match self {
            BoardSide::Peg => Notice::Link { state, detail },
            BoardSide::Sighted => Notice::SightedBoard {
                state: state.into(),
                detail,
            },
        })
    }

    /// A notice of the sighted board's own (the peg-board has its own
    /// notice for each).
    fn sighted_notice(state: SightedState, detail: BoardDetail) -> Effect {
        Effect::Notice(Notice::SightedBoard { state, detail })
    }

    /// Asks the board for its whole state.
    fn snapshot(self) -> Effect {
        match self {
            BoardSide::Peg => Effect::BoardCommand(HostCommand::Snapshot),
            BoardSide::Sighted => Effect::SightedBoardCommand(HostCommand::Snapshot),
        }
    }

    fn lost_key(self) -> &'static str {
        match self {
            BoardSide::Peg => "link_lost",
            BoardSide::Sighted => "sighted_link_lost",
        }
    }

    fn restored_key(self) -> &'static str {
        match self {
            BoardSide::Peg => "link_restored",
            BoardSide::Sighted => "sighted_link_restored",
        }
    }

    /// Guidance in this board's words: the sighted board's is said as
    /// "Sighted board: ..."; the peg-board's gets "Your board: ..." from
    /// the session when two boards are in use.
    pub(super) fn words(self, pack: &Pack, text: Utterance) -> Utterance {
        match self {
            BoardSide::Peg => text,
            BoardSide::Sighted => sighted_words(pack, text),
        }
    }
}

impl BoardSide {
    /// The board has differed from the game for the guidance time: what
    /// differs, said unasked, with the mismatch earcon.
    pub(super) fn mismatch(
        self,
        m: &Mismatch,
        record: &GameRecord,
        pack: &Pack,
        out: &mut Vec<Effect>,
    ) {
        say(
            out,
            pack,
            self.words(pack, guidance(pack, m, record)),
            Priority::Guidance,
        );
        out.push(Effect::Sound(Earcon::Mismatch));
        out.push(match self {
            BoardSide::Peg => Effect::Notice(Notice::mismatch(m)),
            BoardSide::Sighted => {
                let (missing, extra) = super::notice::mismatch_squares(m);
                let detail = BoardDetail::Squares { missing, extra };
                Self::sighted_notice(SightedState::Mismatch, detail)
            }
        });
    }

    /// The board matches the game again after a mismatch.
    pub(super) fn in_sync(self, pack: &Pack, out: &mut Vec<Effect>) {
        say(
            out,
            pack,
            self.words(pack, render_in_sync(pack)),
            Priority::Guidance,
        );
        out.push(Effect::Sound(Earcon::InSync));
        out.push(match self {
            BoardSide::Peg => Effect::Notice(Notice::InSync),
            BoardSide::Sighted => Self::sighted_notice(SightedState::InSync, BoardDetail::None),
        });
    }
}

/// What a link event leaves for the board's own mirror of the game.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum LinkInput<M> {
    /// Nothing: the link's part was all (it came up, guidance was said).
    Done,
    /// The link went down or was closed: what happens on the board from
    /// now on is unseen.
    Down,
    /// Lines were dropped (the board was asked for its whole state): a
    /// hole in time though the link is up.
    LinesDropped { count: u64 },
    /// A decoded message from the board.
    Message(M),
    /// The player chose the promotion piece.
    PromotionChoice(Role),
    /// New tracker settings.
    Configure(TrackerConfig),
}

/// Speaks `text` in the pack's language.
pub(super) fn say(out: &mut Vec<Effect>, pack: &Pack, text: Utterance, priority: Priority) {
    out.push(Effect::Speak(Speech {
        text,
        lang: pack.lang,
        priority,
    }));
}

impl LinkState {
    /// Whether the link is (or was) in use: connected now or lost.
    pub fn in_use(&self) -> bool {
        !matches!(self, LinkState::NotConnected)
    }

    fn is_lost(&self) -> bool {
        matches!(self, LinkState::Lost { .. })
    }

    /// Takes one board event for the board on `side`: the link's own part
    /// (state, words, earcons, notices, asking for the whole board, the
    /// repeated guidance from `mismatch`) is done here; the rest is
    /// returned for the board's mirror.
    pub(super) fn on_event<M>(
        &mut self,
        side: BoardSide,
        event: BoardEvent<M>,
        mismatch: impl FnOnce() -> Option<Mismatch>,
        record: &GameRecord,
        pack: &Pack,
        out: &mut Vec<Effect>,
    ) -> LinkInput<M> {
        match event {
            BoardEvent::LinkUp { port } => {
                let was_lost = self.is_lost();
                *self = LinkState::Connected { port: port.clone() };
                if was_lost {
                    say(out, pack, pack.say(side.restored_key()), Priority::Alert);
                    out.push(Effect::Sound(Earcon::LinkRestored));
                }
                let state = if was_lost {
                    LinkChange::Restored
                } else {
                    LinkChange::Connected
                };
                out.push(side.notice(state, BoardDetail::Text(port)));
                out.push(side.snapshot());
                LinkInput::Done
            }
            BoardEvent::LinkLost { reason } => {
                if !self.is_lost() {
                    say(out, pack, pack.say(side.lost_key()), Priority::Alert);
                    out.push(Effect::Sound(Earcon::LinkLost));
                    out.push(side.notice(LinkChange::Lost, BoardDetail::Text(reason.clone())));
                }
                *self = LinkState::Lost { reason };
                LinkInput::Down
            }
            BoardEvent::LinkClosed => {
                *self = LinkState::NotConnected;
                out.push(side.notice(LinkChange::Closed, BoardDetail::None));
                LinkInput::Down
            }
            BoardEvent::LinesDropped { count } => {
                // A hole in time: the board is asked for its whole state
                // again at once.
                out.push(side.notice(LinkChange::LinesDropped, BoardDetail::Count(count)));
                out.push(side.snapshot());
                LinkInput::LinesDropped { count }
            }
            BoardEvent::MemoryNotKept { reason } => {
                let text = pack.phrase(
                    "calibration_not_saved",
                    &[("reason", reason.as_str().into())],
                );
                say(out, pack, side.words(pack, text), Priority::Guidance);
                out.push(Effect::Notice(Notice::Calibration {
                    step: super::CalibrationState::NotSaved,
                    detail: BoardDetail::Text(reason),
                    sighted: matches!(side, BoardSide::Sighted),
                }));
                LinkInput::Done
            }
            BoardEvent::ModelUnsupported { name } => {
                let text =
                    pack.phrase("board_model_unsupported", &[("name", name.as_str().into())]);
                say(out, pack, side.words(pack, text), Priority::Alert);
                out.push(side.notice(LinkChange::Lost, BoardDetail::Text(name)));
                LinkInput::Done
            }
            BoardEvent::RepeatGuidance => {
                let text = match mismatch() {
                    Some(m) => guidance(pack, &m, record),
                    None => render_in_sync(pack),
                };
                say(out, pack, side.words(pack, text), Priority::Answer);
                LinkInput::Done
            }
            BoardEvent::Message(msg) => LinkInput::Message(msg),
            BoardEvent::PromotionChoice(role) => LinkInput::PromotionChoice(role),
            BoardEvent::Configure(cfg) => LinkInput::Configure(cfg),
        }
    }
}

/// A board's mirror of the game: the peg-board's tracker or the sighted
/// board's recognizer, which follows the record through
/// [`follow_record`].
pub(super) trait Mirror {
    type Event;
    /// The moves played since the mirror last started.
    fn played(&self) -> impl Iterator<Item = shakmaty::Move> + '_;
    fn is_legal(&self, mv: shakmaty::Move) -> bool;
    /// A move made elsewhere, now expected on the board.
    fn apply(&mut self, now: u64, mv: shakmaty::Move, events: &mut Vec<Self::Event>);
    /// A takeback made elsewhere, to be followed on the board.
    fn take_back(&mut self, now: u64, events: &mut Vec<Self::Event>);
    /// Starts again from the record's position.
    fn restart(&mut self, now: u64, record: &GameRecord);
    /// Whether an event of a takeback that is dropped (the mirror starts
    /// again) must still be reported: what it says outlives the restart
    /// (a sensor named stuck stays stuck).
    fn outlives_restart(_event: &Self::Event) -> bool {
        false
    }
}

/// Brings `mirror` in line with the record: moves entered elsewhere are
/// expected on the board, takebacks are followed, and anything that does
/// not fit (a move the session refused, another game) starts the mirror
/// again from the record. `base` is the record's length when the mirror
/// last started.
pub(super) fn follow_record<M: Mirror>(
    mirror: &mut M,
    base: &mut Option<usize>,
    now: u64,
    record: &GameRecord,
    events: &mut Vec<M::Event>,
) {
    let recorded = record.moves().len();
    let restart = |mirror: &mut M, base: &mut Option<usize>| {
        mirror.restart(now, record);
        *base = Some(recorded);
    };
    let start = *base.get_or_insert(recorded.saturating_sub(mirror.played().count()));
    if recorded < start {
        return restart(mirror, base);
    }
    let want = recorded - start;
    loop {
        let count = mirror.played().count();
        if count <= want {
            break;
        }
        let mut taken = Vec::new();
        mirror.take_back(now, &mut taken);
        if mirror.played().count() >= count {
            // The board still shows a move the session refused (the game
            // is over): the mirror saw it again at once. Drop it and
            // follow the record; the board is compared afresh when the
            // piece is put back.
            events.extend(taken.into_iter().filter(M::outlives_restart));
            return restart(mirror, base);
        }
        events.extend(taken);
    }
    let have = mirror.played().count();
    let agree = record.moves()[start..start + have]
        .iter()
        .map(|m| m.mv)
        .eq(mirror.played());
    if !agree {
        return restart(mirror, base);
    }
    for m in &record.moves()[start + have..] {
        // Never play a move the mirror's position does not allow (it
        // would panic in shakmaty): start again from the record.
        if !mirror.is_legal(m.mv) {
            return restart(mirror, base);
        }
        mirror.apply(now, m.mv, events);
    }
}

/// "Sighted board: {text}": what is said of the sighted player's board.
pub fn sighted_words(pack: &Pack, text: Utterance) -> Utterance {
    pack.phrase("sighted_board", &[("text", text)])
}
