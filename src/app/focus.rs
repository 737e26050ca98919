//! Where the keyboard goes: the places a panel or a command sends it to.

/// Which widget should take the keyboard next frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FocusTarget {
    Board,
    MoveInput,
    /// The first menu's button (F10).
    Menus,
    /// The scoresheet's newest line.
    Scoresheet,
}
