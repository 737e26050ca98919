use super::*;
use crate::announce::AnnounceForm;
use crate::pgn::read_pgn;
use crate::words::{Lang, Pack};
use shakmaty::Chess;

fn uci_line(score: Score, pv: &[&str]) -> Line {
    Line {
        score,
        pv: pv.iter().map(|m| m.parse().unwrap()).collect(),
    }
}

/// The moves 1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5, where 4. Nxe5
/// is White's blunder (Qg5 forks e5 and g2), with clock readings at 5+3.
const GAME: &str = "[White \"Player\"]\n[Black \"Computer level 3\"]\n[TimeControl \"300+3\"]\n\n\
1. e4 {[%clk 0:05:01]} e5 {[%clk 0:05:00]} 2. Nf3 {[%clk 0:04:54]} Nc6 {[%clk 0:05:01]} \
3. Bc4 {[%clk 0:04:40]} Nd4 {[%clk 0:04:59]} 4. Nxe5 {[%clk 0:04:00]} Qg5 {[%clk 0:04:58]} *\n";

/// Lines for the positions of [`GAME`]: even until White's 4th move,
/// which the engine answers with Qg5 (Black 250 up).
fn lines() -> Vec<Line> {
    vec![
        uci_line(Score::Cp(30), &["e2e4", "e7e5"]),
        uci_line(Score::Cp(-30), &["e7e5"]),
        uci_line(Score::Cp(30), &["g1f3"]),
        uci_line(Score::Cp(-30), &["b8c6"]),
        uci_line(Score::Cp(30), &["f1c4"]),
        uci_line(Score::Cp(-20), &["g8f6"]),
        // Before 4. Nxe5: White is fine with 4. Nxd4.
        uci_line(Score::Cp(40), &["f3d4", "e5d4"]),
        // After 4. Nxe5, Black to move: Qg5 wins (Black's view).
        uci_line(Score::Cp(250), &["d8g5", "e5f7", "g5g2"]),
        uci_line(Score::Cp(-240), &["e5f7"]),
    ]
}

fn game() -> crate::chess::GameRecord {
    read_pgn(GAME, 0).unwrap()
}

#[test]
fn the_player_s_mistake_is_judged_with_loss_best_move_and_line() {
    let record = game();
    assert_eq!(player_side(&record.tags), Some(Color::White));
    let review = GameReview::new(&record, &lines(), Color::White).unwrap();
    let found: Vec<_> = review.mistakes().collect();
    assert_eq!(found.len(), 1, "{found:?}");
    let (m, k) = found[0];
    assert_eq!(m.ply(), 7);
    assert_eq!(uci(m.played), "f3e5");
    assert_eq!(uci(k.best), "f3d4");
    assert_eq!(k.kind, Kind::Blunder);
    assert_eq!(k.loss_cp, 290);
    assert_eq!(k.line.len(), 2);
    // Black's moves are not judged for White's review.
    let black = GameReview::new(&record, &lines(), Color::Black).unwrap();
    assert_eq!(black.mistakes().count(), 0);
}

#[test]
fn time_spent_comes_from_the_clock_readings_and_the_increment() {
    let spent = time_spent(&game());
    // 300 s + 3 s, then 301 s left: 2 s; Black 300 + 3 - 300 = 3 s.
    assert_eq!(spent[0], Some(2_000));
    assert_eq!(spent[1], Some(3_000));
    // 301 + 3 - 294 = 10 s.
    assert_eq!(spent[2], Some(10_000));
    // 300 + 3 - 301.
    assert_eq!(spent[3], Some(2_000));
    assert_eq!(spent[6], Some(43_000));
    let mut bare = read_pgn("1. e4 e5 *", 0).unwrap();
    assert_eq!(time_spent(&bare), vec![None, None]);
    bare.set_last_clock(1);
    assert_eq!(time_spent(&bare)[1], None, "no TimeControl, no start");
}

#[test]
fn the_list_says_each_move_with_evaluation_time_and_judgement() {
    let record = game();
    let review = GameReview::new(&record, &lines(), Color::White).unwrap();
    let en = Pack::bundled(Lang::En);
    let row = move_row(&en, &record, &review.moves[6], AnnounceForm::Short);
    assert!(row.written.starts_with("Move 4, White: "), "{row:?}");
    assert!(row.written.contains("Black is clearly better"), "{row:?}");
    assert!(row.written.contains("43 seconds spent"), "{row:?}");
    assert!(row.written.contains("Blunder, better"), "{row:?}");
    let summary = summary_words(&en, &review);
    assert_eq!(
        summary.written,
        "Review: blunders 1, mistakes 0, inaccuracies 0"
    );
    for lang in [Lang::De, Lang::En, Lang::Pt] {
        let pack = Pack::bundled(lang);
        for kind in [Kind::Inaccuracy, Kind::Mistake, Kind::Blunder] {
            let w = kind_words(&pack, kind);
            assert!(!w.written.starts_with('['), "{lang:?} {kind:?}");
        }
    }
}

#[test]
fn an_exercise_is_checked_like_a_puzzle() {
    let record = game();
    let review = GameReview::new(&record, &lines(), Color::White).unwrap();
    let exercises = review.exercises(&record);
    let ex = &exercises[0];
    let de = Pack::bundled(Lang::De);
    let prompt = exercise_prompt(&de, ex, AnnounceForm::Short);
    assert_eq!(
        prompt.spoken,
        "Zug 4: Sie haben Springer schlägt Eva fünf gespielt. Finden Sie einen besseren Zug",
    );
    let mv = |u: &str| u.parse::<UciMove>().unwrap().to_move(&ex.position).unwrap();
    assert_eq!(ex.check(mv("f3d4"), None), Verdict::Best);
    assert_eq!(ex.check(mv("f3e5"), None), Verdict::Played);
    let other = mv("d2d3");
    assert!(ex.needs_engine(other));
    assert_eq!(ex.check(other, None), Verdict::Unchecked);
    // d3 scored 30 for White (the engine gives -30, Black's view): within
    // the margin of the best (40).
    let after = uci_line(Score::Cp(-30), &["g8f6"]);
    assert_eq!(ex.check(other, Some(&after)), Verdict::Good);
    let after = uci_line(Score::Cp(150), &["d4f3"]);
    assert_eq!(ex.check(other, Some(&after)), Verdict::Wrong);
    // An answer that mates (the engine has no line: the opponent, to move,
    // is mated) is found, never read as the player's own loss.
    let mated = uci_line(Score::Mate(0), &[]);
    assert_eq!(ex.check(other, Some(&mated)), Verdict::Good);
    let found = verdict_words(&de, ex, mv("f3d4"), Verdict::Best, AnnounceForm::Short);
    assert_eq!(
        found.spoken,
        "Richtig: Springer schlägt David vier. Der Computer spielt weiter: \
         Eva schlägt David vier"
    );
    let wrong = verdict_words(&de, ex, other, Verdict::Wrong, AnnounceForm::Short);
    assert!(
        wrong.spoken.ends_with("ist nicht besser. Noch ein Versuch"),
        "{wrong:?}"
    );
    let given_up = solution_words(&Pack::bundled(Lang::Pt), ex, AnnounceForm::Short);
    assert!(
        given_up.written.starts_with("O computador joga "),
        "{given_up:?}"
    );
}

#[test]
fn a_game_and_its_lines_must_match() {
    let record = game();
    assert_eq!(
        GameReview::new(&record, &lines()[..3], Color::White),
        Err(ReviewError::Lines {
            got: 3,
            moves: 8,
            want: 9
        })
    );
    let empty = crate::chess::GameRecord::from_position(Chess::default());
    assert_eq!(
        GameReview::new(&empty, &[], Color::White),
        Err(ReviewError::NoMoves)
    );
}

#[test]
fn a_mating_move_s_row_says_mate_once() {
    // Scholar's mate: 4. Qxf7# ends the game.
    let record = read_pgn(
        "[White \"Player\"]\n[Black \"Computer level 3\"]\n\n\
         1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n",
        0,
    )
    .unwrap();
    let lines: Vec<Line> = (0..=record.moves().len())
        .map(|_| uci_line(Score::Cp(0), &[]))
        .collect();
    let review = GameReview::new(&record, &lines, Color::White).unwrap();
    let de = Pack::bundled(Lang::De);
    let row = move_row(&de, &record, &review.moves[6], AnnounceForm::Short);
    assert_eq!(row.spoken, "Zug 4, Weiß: Dame schlägt Felix sieben Matt");
}
