//! Following one game of a broadcast round (pure): each game's whole PGN
//! comes again whenever it changes; only what is new is announced, in
//! order, and a game whose moves go back (a relay's correction) is said as
//! a correction before its new moves. The boards are numbered in the order
//! the round first sends them (the round's own order).

use shakmaty::Position;

use crate::announce::{AnnounceForm, announce_move, announce_result};
use crate::chess::GameRecord;
use crate::words::{Pack, Utterance};

/// Which game to follow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The board number, from 1.
    Board(usize),
    /// A player's name, or part of it (any case).
    Player(String),
}

/// What the listener asks while watching.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// Every board: its players and result.
    Boards,
    /// Follow board N instead.
    Follow(usize),
    /// Board N's last move.
    Last(usize),
    /// The followed game's clocks (PGN `[%clk]`).
    Clock,
}

/// One board of the round as last sent.
#[derive(Clone, Debug)]
pub struct Board {
    pub number: usize,
    pub record: GameRecord,
}

impl Board {
    /// "Board 2: Carlsen against Caruana, playing" (or its result): how
    /// the round's boards are listed, said and shown.
    pub fn state_words(&self, pack: &Pack) -> Utterance {
        let number = Utterance::from(self.number.to_string().as_str());
        let players = pack.phrase(
            "broadcast_found",
            &[
                ("board", number),
                ("white", Utterance::from(self.record.tags.white.trim())),
                ("black", Utterance::from(self.record.tags.black.trim())),
            ],
        );
        let state = match self.record.end() {
            Some(end) => pack.say(match end.result_str() {
                "1-0" => "result_white_wins",
                "0-1" => "result_black_wins",
                _ => "result_draw",
            }),
            None => pack.say("broadcast_playing"),
        };
        pack.phrase(
            "broadcast_board_state",
            &[("board", players), ("state", state)],
        )
    }

    /// "White - Black".
    pub fn players(&self) -> String {
        format!(
            "{} - {}",
            self.record.tags.white.trim(),
            self.record.tags.black.trim()
        )
    }
}

/// What following the game brings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WatchEffect {
    /// The game picked was found: its board, players and how many
    /// half-moves it had then (the last of them is announced next).
    Found {
        board: usize,
        white: String,
        black: String,
        plies: usize,
        text: Utterance,
    },
    /// A move: `ply` counts from 1.
    Move {
        board: usize,
        ply: usize,
        san: String,
        text: Utterance,
    },
    /// The relay took moves back: the game goes on from after `ply`
    /// half-moves (the moves said after it no longer stand).
    Correction {
        board: usize,
        ply: usize,
        text: Utterance,
    },
    /// An answer to something asked ([`Ask`]).
    Answer { text: Utterance },
    /// The game has its result; following it is over.
    Result {
        board: usize,
        result: String,
        text: Utterance,
    },
}

/// The round's boards and the one followed.
#[derive(Debug)]
pub struct Watch {
    pick: Pick,
    form: AnnounceForm,
    boards: Vec<Board>,
    /// The followed board's index, once found, and its moves as said.
    followed: Option<(usize, Vec<shakmaty::Move>)>,
    /// The followed game's result was said: nothing more of it.
    over: bool,
    /// The listener switched to the followed game: one already over does
    /// not end the watch; its result coming live does.
    switched: bool,
    /// Counts the games that came new or changed.
    changes: u64,
}

/// The same game sent again: the same players and round (and the same
/// chapter, where the relay names one in `Site`).
fn same_game(a: &GameRecord, b: &GameRecord) -> bool {
    let key = |r: &GameRecord| {
        (
            r.tags.white.trim().to_lowercase(),
            r.tags.black.trim().to_lowercase(),
            r.tags.round.trim().to_owned(),
            r.tags.site.trim().to_owned(),
        )
    };
    key(a) == key(b)
}

impl Watch {
    pub fn new(pick: Pick, form: AnnounceForm) -> Watch {
        Watch {
            pick,
            form,
            boards: Vec::new(),
            followed: None,
            over: false,
            switched: false,
            changes: 0,
        }
    }

    /// How many times a game came new or changed (a stream that sends
    /// only what was known has nothing new).
    pub fn changes(&self) -> u64 {
        self.changes
    }

    /// The boards as last sent.
    pub fn boards(&self) -> &[Board] {
        &self.boards
    }

    /// The followed game has its result, and the watch is over (not when
    /// the listener switched to a game already over: he hears its result
    /// and may switch again).
    pub fn is_over(&self) -> bool {
        self.over && !self.switched
    }

    /// The followed board's number, once found.
    pub fn followed(&self) -> Option<usize> {
        self.followed.as_ref().map(|(i, _)| self.boards[*i].number)
    }

    fn picked(&self, board: &Board) -> bool {
        match &self.pick {
            Pick::Board(n) => board.number == *n,
            Pick::Player(name) => {
                let name = name.trim().to_lowercase();
                let t = &board.record.tags;
                !name.is_empty()
                    && (t.white.to_lowercase().contains(&name)
                        || t.black.to_lowercase().contains(&name))
            }
        }
    }

    /// A game's whole PGN as read; what it brings for the game followed.
    pub fn game(&mut self, pack: &Pack, record: GameRecord) -> Vec<WatchEffect> {
        let index = match self
            .boards
            .iter()
            .position(|b| same_game(&b.record, &record))
        {
            Some(i) => {
                let old = &self.boards[i].record;
                let moved = |r: &GameRecord| -> Vec<shakmaty::Move> {
                    r.moves().iter().map(|m| m.mv).collect()
                };
                if moved(old) != moved(&record) || old.result_str() != record.result_str() {
                    self.changes += 1;
                }
                self.boards[i].record = record;
                i
            }
            None => {
                self.changes += 1;
                self.boards.push(Board {
                    number: self.boards.len() + 1,
                    record,
                });
                self.boards.len() - 1
            }
        };
        let out = self.update(pack, index);
        if out.iter().any(|e| matches!(e, WatchEffect::Result { .. })) {
            self.switched = false;
        }
        out
    }

    /// What board `index`'s game as last sent brings for the game followed.
    fn update(&mut self, pack: &Pack, index: usize) -> Vec<WatchEffect> {
        let mut out = Vec::new();
        if self.over {
            return out;
        }
        let board = &self.boards[index];
        let moves: Vec<shakmaty::Move> = board.record.moves().iter().map(|m| m.mv).collect();
        let said = match &self.followed {
            Some((i, said)) if *i == index => said.clone(),
            Some(_) => return out,
            None if self.picked(board) => {
                let white = board.record.tags.white.trim().to_owned();
                let black = board.record.tags.black.trim().to_owned();
                let text = pack.phrase(
                    "broadcast_found",
                    &[
                        ("board", Utterance::from(board.number.to_string().as_str())),
                        ("white", Utterance::from(white.as_str())),
                        ("black", Utterance::from(black.as_str())),
                    ],
                );
                out.push(WatchEffect::Found {
                    board: board.number,
                    white,
                    black,
                    plies: moves.len(),
                    text,
                });
                // Joined mid-game: the last move is said, as where the
                // game stands.
                moves[..moves.len().saturating_sub(1)].to_vec()
            }
            None => return out,
        };
        // The moves said that still stand; any after them were taken back
        // by the relay (a correction).
        let stand = said.iter().zip(&moves).take_while(|(a, b)| a == b).count();
        if stand < said.len() {
            out.push(WatchEffect::Correction {
                board: board.number,
                ply: stand,
                text: pack.phrase(
                    "broadcast_correction",
                    &[
                        ("board", Utterance::from(board.number.to_string().as_str())),
                        ("count", Utterance::from(stand.to_string().as_str())),
                    ],
                ),
            });
        }
        let record = &board.record;
        for (ply, played) in record.moves().iter().enumerate().skip(stand) {
            out.push(WatchEffect::Move {
                board: board.number,
                ply: ply + 1,
                san: played.san.to_string(),
                text: announce_move(pack, record.position_before(ply), played.mv, self.form),
            });
        }
        self.followed = Some((index, moves));
        if let Some(end) = record.end() {
            self.over = true;
            out.push(WatchEffect::Result {
                board: board.number,
                result: end.result_str().to_owned(),
                text: announce_result(pack, &end),
            });
        }
        out
    }

    /// Answers what the listener asked.
    pub fn ask(&mut self, pack: &Pack, ask: Ask) -> Vec<WatchEffect> {
        let number = |n: usize| Utterance::from(n.to_string().as_str());
        let answer = |text: Utterance| vec![WatchEffect::Answer { text }];
        let no_board =
            |n: usize| answer(pack.phrase("broadcast_no_board", &[("board", number(n))]));
        match ask {
            Ask::Boards => {
                let parts: Vec<Utterance> =
                    self.boards.iter().map(|b| b.state_words(pack)).collect();
                answer(join(&parts))
            }
            Ask::Follow(n) => {
                let Some(index) = self.boards.iter().position(|b| b.number == n) else {
                    return no_board(n);
                };
                self.pick = Pick::Board(n);
                self.followed = None;
                self.over = false;
                self.switched = true;
                self.update(pack, index)
            }
            Ask::Last(n) => {
                let Some(b) = self.boards.iter().find(|b| b.number == n) else {
                    return no_board(n);
                };
                let record = &b.record;
                let text = match record.moves().len().checked_sub(1) {
                    Some(last) => pack.phrase(
                        "broadcast_last",
                        &[
                            ("board", number(n)),
                            (
                                "move",
                                announce_move(
                                    pack,
                                    record.position_before(last),
                                    record.moves()[last].mv,
                                    self.form,
                                ),
                            ),
                        ],
                    ),
                    None => pack.phrase("broadcast_no_move", &[("board", number(n))]),
                };
                answer(text)
            }
            Ask::Clock => {
                let Some((index, _)) = &self.followed else {
                    return answer(pack.say("broadcast_no_clock"));
                };
                let record = &self.boards[*index].record;
                let mut parts = Vec::new();
                for side in [shakmaty::Color::White, shakmaty::Color::Black] {
                    let last = (0..record.moves().len())
                        .rev()
                        .filter(|&i| record.position_before(i).turn() == side)
                        .find_map(|i| record.moves()[i].clock_ms);
                    if let Some(ms) = last {
                        parts.push(pack.phrase(
                            "low_time",
                            &[
                                ("side", crate::announce::side_word(pack, side)),
                                ("remaining", crate::clock::duration_words(pack, ms)),
                            ],
                        ));
                    }
                }
                if parts.is_empty() {
                    answer(pack.say("broadcast_no_clock"))
                } else {
                    answer(join(&parts))
                }
            }
        }
    }
}

/// Utterances said one after another.
fn join(parts: &[Utterance]) -> Utterance {
    let pick =
        |f: fn(&Utterance) -> &String| parts.iter().map(f).cloned().collect::<Vec<_>>().join(". ");
    Utterance {
        written: pick(|u| &u.written),
        spoken: pick(|u| &u.spoken),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::read_pgn;
    use crate::words::Lang;

    fn game(white: &str, black: &str, moves: &str, result: &str) -> GameRecord {
        let pgn = format!(
            "[Event \"Open\"]\n[Round \"1\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n{moves} {result}\n"
        );
        read_pgn(&pgn, 0).unwrap()
    }

    fn said(effects: &[WatchEffect]) -> Vec<String> {
        effects
            .iter()
            .map(|e| match e {
                WatchEffect::Found { board, plies, .. } => format!("found {board} at {plies}"),
                WatchEffect::Move { text, .. } => text.spoken.clone(),
                WatchEffect::Correction { text, .. } => text.spoken.clone(),
                WatchEffect::Result { result, .. } => format!("result {result}"),
                WatchEffect::Answer { text } => text.spoken.clone(),
            })
            .collect()
    }

    #[test]
    fn only_what_is_new_is_said_in_order_and_the_result_ends_it() {
        let pack = Pack::bundled(Lang::En);
        let mut watch = Watch::new(Pick::Board(2), AnnounceForm::Short);
        let mut all = Vec::new();
        all.extend(watch.game(&pack, game("A", "B", "1. e4", "*")));
        all.extend(watch.game(&pack, game("Carlsen", "Caruana", "1. d4 d5", "*")));
        // The same game again, unchanged; another board moves.
        all.extend(watch.game(&pack, game("Carlsen", "Caruana", "1. d4 d5", "*")));
        all.extend(watch.game(&pack, game("A", "B", "1. e4 e5", "*")));
        // Two moves at once (a stream that missed a change).
        all.extend(watch.game(&pack, game("Carlsen", "Caruana", "1. d4 d5 2. c4 e6", "*")));
        all.extend(watch.game(
            &pack,
            game("Carlsen", "Caruana", "1. d4 d5 2. c4 e6", "1-0"),
        ));
        assert_eq!(
            said(&all),
            [
                "found 2 at 2",
                "David five",
                "Cesar four",
                "Eva six",
                "result 1-0"
            ]
        );
        assert!(watch.is_over());
        assert!(
            watch
                .game(&pack, game("A", "B", "1. e4 e5 2. Nf3", "*"))
                .is_empty()
        );
        assert_eq!(watch.boards().len(), 2);
    }

    #[test]
    fn a_relays_correction_is_said_then_the_new_moves() {
        let pack = Pack::bundled(Lang::En);
        let mut watch = Watch::new(Pick::Player("caruana".into()), AnnounceForm::Short);
        watch.game(&pack, game("Carlsen", "Caruana", "1. d4 d5 2. c4", "*"));
        // Shorter: c4 taken back.
        let back = watch.game(&pack, game("Carlsen", "Caruana", "1. d4 d5", "*"));
        assert_eq!(said(&back), ["Board 1: corrected, back to half-move 2"]);
        // Same length, another move: Nf3 instead of c4.
        watch.game(&pack, game("Carlsen", "Caruana", "1. d4 d5 2. c4", "*"));
        let other = watch.game(&pack, game("Carlsen", "Caruana", "1. d4 d5 2. Nf3", "*"));
        assert_eq!(
            said(&other),
            [
                "Board 1: corrected, back to half-move 2",
                "Knight Felix three"
            ]
        );
    }

    #[test]
    fn a_reconnect_sending_the_whole_round_again_says_only_the_missed_moves() {
        let pack = Pack::bundled(Lang::De);
        let mut watch = Watch::new(Pick::Board(1), AnnounceForm::Short);
        watch.game(&pack, game("A", "B", "1. e4", "*"));
        // The connection drops; the next one sends every game whole.
        let again = [
            game("A", "B", "1. e4 e5 2. Nf3", "*"),
            game("C", "D", "1. d4", "*"),
        ];
        let mut all = Vec::new();
        for g in again {
            all.extend(watch.game(&pack, g));
        }
        assert_eq!(said(&all), ["Eva fünf", "Springer Felix drei"]);
    }

    #[test]
    fn the_listener_asks_for_boards_last_moves_clocks_and_switches() {
        let pack = Pack::bundled(Lang::En);
        let mut watch = Watch::new(Pick::Board(1), AnnounceForm::Short);
        watch.game(
            &pack,
            game("A", "B", "1. e4 {[%clk 1:29:50]} e5 {[%clk 1:29:40]}", "*"),
        );
        watch.game(&pack, game("C", "D", "1. d4 d5", "1/2-1/2"));
        assert_eq!(
            said(&watch.ask(&pack, Ask::Boards)),
            ["Board 1: A against B, playing. Board 2: C against D, Draw"]
        );
        assert_eq!(
            said(&watch.ask(&pack, Ask::Last(2))),
            ["Board 2: David five"]
        );
        assert_eq!(said(&watch.ask(&pack, Ask::Last(7))), ["No board 7"]);
        let clock = said(&watch.ask(&pack, Ask::Clock));
        assert!(clock[0].starts_with("White has "), "{clock:?}");
        assert!(clock[0].contains("Black has "), "{clock:?}");
        // Following board 2 instead: found, its last move, its result.
        assert_eq!(
            said(&watch.ask(&pack, Ask::Follow(2))),
            ["found 2 at 2", "David five", "result 1/2-1/2"]
        );
        assert_eq!(watch.followed(), Some(2));
        // A game already over, switched to, does not end the watch; sent
        // again, it says nothing more.
        assert!(!watch.is_over());
        assert!(
            watch
                .game(&pack, game("C", "D", "1. d4 d5", "1/2-1/2"))
                .is_empty()
        );
        assert!(!watch.is_over());
        // Back to board 1, whose game goes on.
        assert_eq!(
            said(&watch.ask(&pack, Ask::Follow(1))),
            ["found 1 at 2", "Eva five"]
        );
        assert!(!watch.is_over());
        let more = watch.game(&pack, game("A", "B", "1. e4 e5 2. Nf3", "*"));
        assert_eq!(said(&more), ["Knight Felix three"]);
        // Its result coming live ends the watch.
        let end = watch.game(&pack, game("A", "B", "1. e4 e5 2. Nf3", "0-1"));
        assert_eq!(said(&end), ["result 0-1"]);
        assert!(watch.is_over());
    }

    #[test]
    fn a_player_not_in_the_round_finds_nothing() {
        let pack = Pack::bundled(Lang::En);
        let mut watch = Watch::new(Pick::Player("Nakamura".into()), AnnounceForm::Short);
        assert!(watch.game(&pack, game("A", "B", "1. e4", "*")).is_empty());
        assert_eq!(watch.followed(), None);
        let mut watch = Watch::new(Pick::Player(" ".into()), AnnounceForm::Short);
        assert!(watch.game(&pack, game("A", "B", "1. e4", "*")).is_empty());
    }
}
