//! Any bytes as a broadcast round's PGN stream, cut into lines anywhere:
//! the feed and the watch never panic, and the moves the watch says for
//! its game follow on from what stands (a correction first takes moves
//! back; no ply is skipped or said twice without one).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rochade_core::announce::AnnounceForm;
use rochade_core::broadcast::{Fed, PgnFeed, Pick, Watch, WatchEffect};
use rochade_core::words::{Lang, Pack};

/// The pack, read once (reading it is most of a run's time otherwise).
static PACK: std::sync::OnceLock<Pack> = std::sync::OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let pack = PACK.get_or_init(|| Pack::bundled(Lang::En));
    let board = usize::from(data.first().copied().unwrap_or(1) % 4) + 1;
    let mut watch = Watch::new(Pick::Board(board), AnnounceForm::Short);
    let mut feed = PgnFeed::new();
    let mut stand = 0usize;
    let text = String::from_utf8_lossy(data);
    for line in text.split('\n').take(20_000) {
        if let Fed::Game(game) = feed.push_line(line) {
            let Ok(record) = rochade_core::pgn::read_pgn(&game, 0) else {
                continue;
            };
            for effect in watch.game(pack, record) {
                match effect {
                    WatchEffect::Found { plies, .. } => stand = plies.saturating_sub(1),
                    WatchEffect::Correction { ply, .. } => {
                        assert!(ply < stand, "a correction takes moves back");
                        stand = ply;
                    }
                    WatchEffect::Move { ply, .. } => {
                        assert_eq!(ply, stand + 1, "moves follow on");
                        stand = ply;
                    }
                    WatchEffect::Result { .. } | WatchEffect::Answer { .. } => {}
                }
            }
        }
    }
});
