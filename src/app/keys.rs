//! Key bindings. Global commands use F-keys and Ctrl combinations, so they
//! never clash with typing in the move input; single letters, digits and
//! arrows act only while the board has the keyboard. The F1 help and
//! `docs/keyboard.md` list the same keys (texts in `assets/ui/*.toml`).

use egui::{Key, Modifiers};
use shakmaty::{Color, File, Rank, Role};

/// The digit keys 0 to 9, in order.
pub(super) const DIGIT_KEYS: [Key; 10] = [
    Key::Num0,
    Key::Num1,
    Key::Num2,
    Key::Num3,
    Key::Num4,
    Key::Num5,
    Key::Num6,
    Key::Num7,
    Key::Num8,
    Key::Num9,
];

/// A command the app carries out (from a key, a menu or a button).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Help,
    /// The keyboard to the menus (F10, as in desktop apps).
    Menus,
    Repeat,
    LastMove,
    Clock,
    MoveCount,
    SideToMove,
    /// Switch the keyboard between the board and the move input.
    Focus,
    FocusBoard,
    FocusMoveInput,
    Settings,
    NextMode,
    SimBoard,
    Takeback,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    ClaimThreefold,
    ClaimFifty,
    Resign,
    NewGame,
    Export,
    ClockToggle,
    StopSpeech,
    Confirm,
    Cancel,
    /// Play the move typed in the move input.
    PlayTyped,
    /// Say again what differs between the peg-board and the game.
    BoardGuidance,
    /// Both boards' links (and a DGT clock's times).
    BoardStatus,
    /// The arbiter's retrace: compare the scoresheet typed in the move
    /// input with the record.
    CompareScoresheet,
    /// Put back the moves the last retrace removed.
    UndoRetrace,
    /// The piece a pawn promotes to on the peg-board.
    Promote(Role),
    /// Practice: play against the computer, or stop.
    ToggleComputer,
    /// Practice: the engine's best move for the player.
    Hint,
    /// Practice: what the opponent threatens.
    Threat,
    /// Practice: the evaluation in words.
    Evaluate,
    /// Practice: start the engine again; the game continues.
    RestartEngine,
    /// Practice: the computer one level stronger (true) or weaker.
    Level(bool),
    /// Practice: the player and the computer swap colours.
    SwitchColours,
    /// Game menu: every game of a PGN file as a Braille book.
    ExportBook,
    /// Online menu: watch a broadcast round (the dialog).
    WatchBroadcast,
    /// The "Play online" dialog (Connect there replaces a connection).
    Online,
    /// A word of online play, as if typed (`draw`, `yes`, `chat` ...).
    OnlineWord(&'static str),
    /// Leave the server; the game goes on there.
    OnlineDisconnect,
    /// Puzzles: the next one (an unfinished one is given up first).
    NextPuzzle,
    /// Puzzles: the side to move, the goal and every piece.
    PuzzlePosition,
    /// Puzzles: give up, the solution said.
    PuzzleSkip,
    /// Puzzles: leave them, the game comes back.
    PuzzleStop,
    /// The Review window ("learn from your games"), open or closed.
    Review,
    /// Open a game for review from a PGN file, the window open or closed.
    ReviewOpen,
    /// The position as FEN on the clipboard.
    CopyFen,
    /// The game as PGN on the clipboard.
    CopyPgn,
}

const NONE: Modifiers = Modifiers::NONE;
const CTRL: Modifiers = Modifiers::COMMAND;
const CTRL_SHIFT: Modifiers = Modifiers {
    shift: true,
    ..Modifiers::COMMAND
};
const CTRL_ALT: Modifiers = Modifiers {
    alt: true,
    ..Modifiers::COMMAND
};

/// The global bindings: (modifiers, key, action).
pub const GLOBAL: &[(Modifiers, Key, Action)] = &[
    (NONE, Key::F1, Action::Help),
    (NONE, Key::F2, Action::Repeat),
    (NONE, Key::F3, Action::LastMove),
    (NONE, Key::F4, Action::Clock),
    (NONE, Key::F5, Action::MoveCount),
    (NONE, Key::F6, Action::SideToMove),
    (NONE, Key::F7, Action::Focus),
    (NONE, Key::F8, Action::Settings),
    (NONE, Key::F9, Action::NextMode),
    (NONE, Key::F10, Action::Menus),
    (CTRL, Key::B, Action::SimBoard),
    (CTRL, Key::T, Action::Takeback),
    (CTRL_SHIFT, Key::D, Action::AcceptDraw),
    (CTRL_ALT, Key::D, Action::DeclineDraw),
    (CTRL, Key::D, Action::OfferDraw),
    (CTRL, Key::Num3, Action::ClaimThreefold),
    (CTRL, Key::Num5, Action::ClaimFifty),
    (CTRL_SHIFT, Key::R, Action::Resign),
    (CTRL, Key::N, Action::NewGame),
    (CTRL, Key::E, Action::Export),
    (CTRL, Key::P, Action::ClockToggle),
    (CTRL, Key::G, Action::BoardGuidance),
    (CTRL_SHIFT, Key::G, Action::BoardStatus),
    (CTRL_SHIFT, Key::S, Action::CompareScoresheet),
    (CTRL_SHIFT, Key::Z, Action::UndoRetrace),
    (CTRL_SHIFT, Key::P, Action::ToggleComputer),
    (CTRL_SHIFT, Key::H, Action::Threat),
    (CTRL, Key::H, Action::Hint),
    (CTRL_SHIFT, Key::E, Action::Evaluate),
    (CTRL, Key::R, Action::RestartEngine),
    (CTRL_SHIFT, Key::ArrowUp, Action::Level(true)),
    (CTRL_SHIFT, Key::ArrowDown, Action::Level(false)),
    (CTRL_SHIFT, Key::C, Action::SwitchColours),
    (CTRL_SHIFT, Key::O, Action::Online),
    (CTRL_SHIFT, Key::M, Action::OnlineWord("chat")),
    (CTRL, Key::U, Action::NextPuzzle),
    (CTRL_SHIFT, Key::U, Action::PuzzlePosition),
    (CTRL, Key::L, Action::Review),
    (CTRL_SHIFT, Key::L, Action::ReviewOpen),
    (CTRL_ALT, Key::F, Action::CopyFen),
    (CTRL_ALT, Key::P, Action::CopyPgn),
    (ALT, Key::Q, Action::Promote(Role::Queen)),
    (ALT, Key::R, Action::Promote(Role::Rook)),
    (ALT, Key::B, Action::Promote(Role::Bishop)),
    (ALT, Key::N, Action::Promote(Role::Knight)),
];

/// Exact modifier match (egui's `matches_logically` ignores extra Shift).
fn same_mods(a: Modifiers, b: Modifiers) -> bool {
    a.alt == b.alt && a.shift == b.shift && (a.command || a.ctrl) == (b.command || b.ctrl)
}

/// Takes the first press of `key` with exactly `mods` out of this frame's input.
fn take(input: &mut egui::InputState, mods: Modifiers, key: Key) -> bool {
    let mut found = false;
    input.events.retain(|e| match e {
        egui::Event::Key {
            key: k,
            pressed: true,
            modifiers,
            ..
        } if !found && *k == key && same_mods(*modifiers, mods) => {
            found = true;
            false
        }
        _ => true,
    });
    found
}

/// The global actions pressed this frame, taken out of the input so no
/// widget sees them. With a dialog open, Enter/Y and Escape answer it (N
/// is typed: it begins "Nf3"; "n" and Enter answers no); with help or
/// settings open, Escape closes them.
/// `escape_answers` is false for a question where "no" loses something (the
/// resume question): there Escape only stops speech, as everywhere else.
/// `enter_answers` is false once text was typed under the question: that
/// Enter plays the typed move ([`Action::PlayTyped`]), it is no answer.
pub fn global_actions(
    ctx: &egui::Context,
    dialog_open: bool,
    escape_answers: bool,
    enter_answers: bool,
    window_open: bool,
) -> Vec<Action> {
    // Escape in an open list (a combo box's) closes the list first; the
    // list sees the key, the dialog stays.
    let popup_open = egui::Popup::is_any_open(ctx);
    ctx.input_mut(|input| {
        let mut out = Vec::new();
        if dialog_open {
            while take(input, NONE, Key::Enter) {
                out.push(if enter_answers {
                    Action::Confirm
                } else {
                    Action::PlayTyped
                });
            }
            while take(input, NONE, Key::Y) {
                out.push(Action::Confirm);
            }
            while take(input, NONE, Key::Escape) {
                out.push(if escape_answers {
                    Action::Cancel
                } else {
                    Action::StopSpeech
                });
            }
        } else if !popup_open && take(input, NONE, Key::Escape) {
            let _ = window_open;
            out.push(Action::Cancel);
        }
        for &(mods, key, action) in GLOBAL {
            while take(input, mods, key) {
                out.push(action);
            }
        }
        out
    })
}

/// The square one step (`df` files, `dr` ranks, as the user sees the
/// board) from `from`, stopping at the edge; `flipped` when Black is at
/// the bottom.
pub fn step(from: shakmaty::Square, df: i32, dr: i32, flipped: bool) -> shakmaty::Square {
    let (df, dr) = if flipped { (-df, -dr) } else { (df, dr) };
    let f = (u32::from(from.file()) as i32 + df).clamp(0, 7) as u32;
    let r = (u32::from(from.rank()) as i32 + dr).clamp(0, 7) as u32;
    shakmaty::Square::from_coords(shakmaty::File::new(f), shakmaty::Rank::new(r))
}

/// A key pressed while the board has the keyboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardKey {
    /// Step (files, ranks) in White's view.
    Step(i32, i32),
    SayAgain,
    Jump(Role),
    Rank(Rank),
    File(File),
    Side(Color),
    Attackers,
    Defenders,
    Pick,
}

const SHIFT: Modifiers = Modifiers::SHIFT;
const ALT: Modifiers = Modifiers::ALT;

/// The board keys pressed this frame (taken out of the input).
pub fn board_keys(ctx: &egui::Context) -> Vec<BoardKey> {
    let mut bindings: Vec<(Modifiers, Key, BoardKey)> = vec![
        (NONE, Key::ArrowUp, BoardKey::Step(0, 1)),
        (NONE, Key::ArrowDown, BoardKey::Step(0, -1)),
        (NONE, Key::ArrowLeft, BoardKey::Step(-1, 0)),
        (NONE, Key::ArrowRight, BoardKey::Step(1, 0)),
        (NONE, Key::Space, BoardKey::SayAgain),
        (NONE, Key::Enter, BoardKey::Pick),
        (NONE, Key::K, BoardKey::Jump(Role::King)),
        (NONE, Key::Q, BoardKey::Jump(Role::Queen)),
        (NONE, Key::R, BoardKey::Jump(Role::Rook)),
        (NONE, Key::B, BoardKey::Jump(Role::Bishop)),
        (NONE, Key::N, BoardKey::Jump(Role::Knight)),
        (NONE, Key::P, BoardKey::Jump(Role::Pawn)),
        (NONE, Key::W, BoardKey::Side(Color::White)),
        (NONE, Key::S, BoardKey::Side(Color::Black)),
        (NONE, Key::A, BoardKey::Attackers),
        (NONE, Key::D, BoardKey::Defenders),
    ];
    for (i, key) in DIGIT_KEYS[1..=8].iter().enumerate() {
        bindings.push((NONE, *key, BoardKey::Rank(Rank::new(i as u32))));
    }
    let letters = [
        Key::A,
        Key::B,
        Key::C,
        Key::D,
        Key::E,
        Key::F,
        Key::G,
        Key::H,
    ];
    for (i, key) in letters.into_iter().enumerate() {
        bindings.push((SHIFT, key, BoardKey::File(File::new(i as u32))));
    }
    ctx.input_mut(|input| {
        // Keep the order the keys were pressed in.
        let mut out = Vec::new();
        input.events.retain(|e| {
            if let egui::Event::Key {
                key,
                pressed: true,
                modifiers,
                ..
            } = e
                && let Some((_, _, action)) = bindings
                    .iter()
                    .find(|(m, k, _)| k == key && same_mods(*m, *modifiers))
            {
                out.push(*action);
                return false;
            }
            true
        });
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_global_binding_is_used_twice() {
        for (i, (m, k, _)) in GLOBAL.iter().enumerate() {
            for (m2, k2, _) in &GLOBAL[i + 1..] {
                assert!(!(k == k2 && same_mods(*m, *m2)), "{k:?} bound twice");
            }
        }
    }

    #[test]
    fn global_keys_need_a_function_key_or_ctrl() {
        // Plain letters and digits belong to the move input.
        for (m, k, _) in GLOBAL {
            let function_key = format!("{k:?}").starts_with('F');
            assert!(
                function_key || m.command || m.alt,
                "{k:?} would clash with typing"
            );
        }
    }
}
