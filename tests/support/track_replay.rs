//! `rochade track --log` replayed by the real binary, and the games it
//! followed read back from its JSON lines (tests/track/cli_track_sessions.rs,
//! tests/track/cli_track_pegasus_sessions.rs).

#![allow(dead_code)]

use shakmaty::{CastlingMode, Move};

use super::hermetic;

/// What `track` printed for a log, its JSON lines.
pub fn replay(log: &str, extra: &[&str]) -> Vec<serde_json::Value> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.log");
    std::fs::write(&path, log).unwrap();
    let out = hermetic::rochade()
        .args(["track", "--lang", "en", "--log", path.to_str().unwrap()])
        .args(extra)
        .output()
        .expect("rochade runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect()
}

pub fn uci(mv: Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}

/// The games as `track` followed them: each game's moves (a move that
/// comes again with its ply replaces the one read before), parted by
/// `new_game`.
pub fn games_followed(events: &[serde_json::Value]) -> Vec<Vec<String>> {
    let mut games = vec![Vec::new()];
    for e in events {
        match e["event"].as_str() {
            Some("new_game") => games.push(Vec::new()),
            Some("move") => {
                let game = games.last_mut().unwrap();
                let ply = e["ply"].as_u64().unwrap() as usize;
                game.truncate(ply - 1);
                game.push(e["uci"].as_str().unwrap().to_owned());
            }
            _ => {}
        }
    }
    games
}
