//! Both seats' boards in the real window, chosen in Settings by role and
//! label, on real pseudo-terminals: the peg-board (`rochade board-sim`) as
//! "My board" and the Millennium ChessLink emulator (`MillenniumSim` on a
//! pty) as "Opponent's board" on the port "auto", found by probing. A
//! whole self-play game is played: the sighted player's moves made by hand
//! on the Millennium board are announced and then copied on the peg-board;
//! the blind player's moves made on the peg-board are announced and lit on
//! the Millennium board's LEDs (exactly the move's from- and to-square)
//! until they are copied there, and go dark after; the record is the game.
//! "Find boards" says a board found, and a board whose port went away lost.

mod gui_common;

use std::time::{Duration, Instant};

use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;
use gui_common::{Gui, settings, start_with};
use rochade::app::{TimeSource, choice_name};
use rochade::session::Mode;
use rochade::words::Lang;
use shakmaty::{Bitboard, CastlingSide, Chess, Color, Move, Position};

#[path = "support/ble_fake.rs"]
mod ble_fake;
#[path = "support/board_sim.rs"]
mod board_sim;
#[path = "support/eboard_hands.rs"]
mod eboard_hands;
#[path = "support/hermetic.rs"]
mod hermetic;
#[path = "support/millennium_pty.rs"]
mod millennium_pty;
#[path = "support/rng.rs"]
mod rng;

use millennium_pty::MillenniumPty;

/// Chooses `value` in the settings' combo box `label` (showing `shown`
/// now) by the keyboard, as a screen-reader user does: Up changes the
/// value while the combo box has the keyboard, its name says the value.
fn choose(gui: &mut Gui, label: &str, shown: &str, value: &str) {
    gui.harness
        .get_by_role_and_label(Role::ComboBox, &choice_name(label, shown))
        .focus();
    gui.harness.run();
    let wanted = choice_name(label, value);
    // Up to the top of the list, then down to its end.
    for key in [egui::Key::ArrowUp, egui::Key::ArrowDown] {
        for _ in 0..10 {
            if gui
                .harness
                .query_by_role_and_label(Role::ComboBox, &wanted)
                .is_some()
            {
                return;
            }
            gui.harness.key_press(key);
            gui.harness.run();
        }
    }
    panic!("{wanted} never shown");
}

/// Types `text` into the settings' text field `label`.
fn type_into(gui: &mut Gui, label: &str, text: &str) {
    gui.harness
        .get_by_role_and_label(Role::TextInput, label)
        .focus();
    gui.harness.run();
    gui.harness
        .get_by_role_and_label(Role::TextInput, label)
        .type_text(text);
    gui.harness.run();
}

/// Presses a control by the keyboard (it may be scrolled out of view in
/// the dialog, where a click would miss it).
fn click(gui: &mut Gui, role: Role, label: &str) {
    gui.harness.get_by_role_and_label(role, label).focus();
    gui.harness.run();
    gui.harness.key_press(egui::Key::Enter);
    gui.harness.run();
}

/// The peg-board simulator's commands that make `mv` by hand (castling
/// king first).
fn peg_commands(pos: &Chess, mv: Move) -> Vec<String> {
    match mv {
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            let turn = pos.turn();
            vec![
                format!("move {king}{}", side.king_to(turn)),
                format!("move {rook}{}", side.rook_to(turn)),
            ]
        }
        m => vec![format!(
            "move {}{}",
            m.from().expect("a from square"),
            m.to()
        )],
    }
}

/// The squares the LEDs show for a move still to make: from and to (the
/// king's, for castling).
fn lit_for(pos: &Chess, mv: Move) -> Bitboard {
    match mv {
        Move::Castle { king, .. } => {
            let side = mv.castling_side().expect("a side");
            Bitboard::from(king) | Bitboard::from(side.king_to(pos.turn()))
        }
        m => Bitboard::from(m.from().expect("a from square")) | Bitboard::from(m.to()),
    }
}

/// The hands' changes of each ply, with their times from that ply's first.
fn hands_by_ply(
    moves: &[Move],
    pace: eboard_hands::Pace,
    seed: u64,
) -> Vec<Vec<eboard_hands::Change>> {
    let mut rng = rng::Rng(seed);
    let played = eboard_hands::play_game(moves, pace, &mut rng, 0);
    let mut plies = vec![Vec::new(); moves.len()];
    let mut ply = 0;
    for c in played.changes {
        while c.at_ms > played.move_done_ms[ply] {
            ply += 1;
        }
        plies[ply].push(c);
    }
    for changes in &mut plies {
        let first = changes.first().map_or(0, |c| c.at_ms);
        for c in changes.iter_mut() {
            c.at_ms -= first;
        }
    }
    plies
}

/// A hand at the Millennium board makes its changes at their times.
fn make_by_hand(board: &MillenniumPty, changes: &[eboard_hands::Change]) {
    let start = Instant::now();
    for c in changes {
        // The hand's own pace (the board sees only what lasts a scan).
        let due = start + Duration::from_millis(c.at_ms);
        if let Some(wait) = due.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
        board.set(c.square, c.piece);
    }
}

/// Runs the window until the Millennium board's last LED frame lights
/// exactly the corners of `want`'s squares (the board's LEDs sit at the
/// squares' corners, so e2 and e4 lit light e3's corners too: the frame is
/// compared, not the squares it seems to show); fails after 20 s naming
/// what is lit.
fn wait_lit(gui: &mut Gui, board: &MillenniumPty, want: Bitboard, what: &str) {
    let end = Instant::now() + Duration::from_secs(20);
    let frame = rochade::eboard::millennium::led_pattern(want);
    while board.leds() != frame {
        assert!(
            Instant::now() < end,
            "{what}: lit {:?}, want {:?}; said {:?}",
            board.lit().into_iter().collect::<Vec<_>>(),
            want.into_iter().collect::<Vec<_>>(),
            gui.app().spoken()
        );
        gui.harness.run();
    }
}

/// Whether the peg-board's last report shows the game's position.
fn peg_agrees(gui: &Gui) -> bool {
    let session = gui.app().session();
    let want = session.record().position().board().occupied();
    session.board_state().last_mask.map(|m| m.0) == Some(u64::from(want))
}

#[test]
fn a_whole_game_with_the_millennium_board_as_the_opponents_and_the_peg_board_as_mine() {
    // A 40-ply self-play game, Black mating (no en passant, no promotion:
    // the peg-board simulator's `move` makes every move of it).
    let game = eboard_hands::selfplay()
        .into_iter()
        .find(|g| {
            g.len() == 40
                && !g
                    .iter()
                    .any(|m| m.is_en_passant() || m.promotion().is_some())
        })
        .expect("a 40-ply game in the corpus");
    let hands = hands_by_ply(&game, eboard_hands::BLITZ, 0x005e_ed33);

    let peg = board_sim::Sim::start(&[]);
    let mut peg = peg;
    let millennium = MillenniumPty::start();
    let mut s = settings(Lang::En);
    s.game.mode = Mode::Tournament;
    let device = millennium.device.clone();
    let mut gui = start_with(s, move |o| {
        o.time = TimeSource::Real(Instant::now());
        o.probe_ports = vec![device];
    });

    // Settings by role and label: my board the peg-board on its port, the
    // opponent's the Millennium board, found by probing ("auto").
    gui.press(egui::Key::F8);
    choose(
        &mut gui,
        "Opponent's board",
        "Keyboard (no board)",
        "Millennium",
    );
    type_into(&mut gui, "Port", &peg.device);
    type_into(&mut gui, "Opponent's board port", "auto");
    assert!(
        gui.harness
            .query_by_role_and_label(Role::ComboBox, &choice_name("My board", "Peg-board"))
            .is_some()
    );
    click(&mut gui, Role::Button, "Save");
    let found = format!("Millennium board found on {}", millennium.device);
    gui.run_until("the Millennium board found", |g| {
        g.app().spoken().iter().any(|s| s == &found)
    });
    let connected = format!(
        "Opponent's board: Millennium, connected, Port: {}",
        millennium.device
    );
    let mine = format!("connected, Port: {}", peg.device);
    gui.run_until("both boards linked", |g| {
        g.shows(&connected) && g.shows(&mine)
    });
    gui.run_until("both boards agree with the start", |g| {
        peg_agrees(g) && millennium.lit().is_empty()
    });

    let mut pos = Chess::default();
    let mut said = Vec::new();
    for (ply, &mv) in game.iter().enumerate() {
        let blind = pos.turn() == Color::White;
        let pack = gui.app().session().pack().clone();
        said.push(
            rochade::announce::announce_move(
                &pack,
                &pos,
                mv,
                rochade::announce::AnnounceForm::Short,
            )
            .spoken,
        );
        if blind {
            for c in peg_commands(&pos, mv) {
                peg.say(&c);
            }
            gui.run_until(&format!("ply {ply} from the peg-board"), |g| {
                g.app().session().record().moves().len() > ply
            });
            // The sighted player's board shows the move to copy, exactly.
            let want = lit_for(&pos, mv);
            wait_lit(
                &mut gui,
                &millennium,
                want,
                &format!("ply {ply} ({mv}) lit"),
            );
            make_by_hand(&millennium, &hands[ply]);
            wait_lit(
                &mut gui,
                &millennium,
                Bitboard::EMPTY,
                &format!("ply {ply} ({mv}) dark"),
            );
        } else {
            make_by_hand(&millennium, &hands[ply]);
            // A piece set down on the way (a slide) may be read as a move
            // and corrected when it lands ("Corrected: ..."): the move
            // counts once the record holds it.
            gui.run_until(
                &format!("ply {ply} ({mv}) from the Millennium board"),
                |g| {
                    g.app()
                        .session()
                        .record()
                        .moves()
                        .get(ply)
                        .is_some_and(|m| m.mv == mv)
                },
            );
            // Expected on the peg-board: the blind player copies it.
            for c in peg_commands(&pos, mv) {
                peg.say(&c);
            }
        }
        assert_eq!(
            gui.app().session().record().moves()[ply].mv,
            mv,
            "ply {ply}"
        );
        pos.play_unchecked(mv);
        gui.run_until(&format!("the peg-board agrees after ply {ply}"), |g| {
            peg_agrees(g)
        });
        assert_eq!(
            gui.app().session().record().moves().len(),
            ply + 1,
            "no move taken twice"
        );
    }

    // The record is the game, and over (mate).
    let record: Vec<Move> = gui
        .app()
        .session()
        .record()
        .moves()
        .iter()
        .map(|m| m.mv)
        .collect();
    assert_eq!(record, game);
    assert!(gui.app().session().record().is_over());
    assert!(millennium.lit().is_empty(), "dark at the end");
    // Every move announced, in order.
    let spoken = gui.spoken();
    let mut at = 0;
    for (ply, words) in said.iter().enumerate() {
        let found = spoken[at..]
            .iter()
            .position(|s| s.contains(words.as_str()))
            .unwrap_or_else(|| panic!("ply {ply} {words:?} not said after {at}: {spoken:?}"));
        at += found + 1;
    }
    let corrected = spoken.iter().filter(|s| s.starts_with("Corrected")).count();
    println!(
        "{} plies, {corrected} moves read on the way and corrected",
        game.len()
    );
    for bad in ["differ", "mismatch", "not legal", "illegal"] {
        assert!(
            !spoken.iter().any(|s| s.to_lowercase().contains(bad)),
            "{bad}: {spoken:?}"
        );
    }
    peg.quit();
}

/// "Find boards" in Settings: the Millennium board on its pseudo-terminal
/// is said found and listed; once its port is gone, the next search says it
/// lost. A search that finds nothing says so.
#[test]
fn find_boards_says_a_board_found_and_a_board_lost() {
    let millennium = MillenniumPty::start();
    let device = millennium.device.clone();
    let probe = device.clone();
    let mut gui = start_with(settings(Lang::En), move |o| {
        o.probe_ports = vec![probe];
    });
    gui.press(egui::Key::F8);
    click(&mut gui, Role::Button, "Find boards");
    let listed = format!("Millennium board on {device}");
    gui.run_until("the board listed in Settings", |g| g.shows(&listed));
    assert!(
        gui.app()
            .spoken()
            .contains(&format!("Millennium board found on {device}")),
        "{:?}",
        gui.app().spoken()
    );
    // Unplugged: the pseudo-terminal is gone.
    drop(millennium);
    click(&mut gui, Role::Button, "Find boards");
    let lost = format!("Millennium board on {device} lost");
    gui.run_until("the board said lost", |g| g.app().spoken().contains(&lost));
    assert!(!gui.shows(&listed), "no longer listed");
    click(&mut gui, Role::Button, "Find boards");
    gui.run_until("nothing found said", |g| {
        g.app()
            .spoken()
            .iter()
            .filter(|s| *s == "No board found")
            .count()
            == 1
    });
}

/// Bluetooth LE boards in either seat (on the fake stack the options give
/// the window): "My board" a DGT Pegasus at its address (an occupancy
/// board: the tracker's link), the opponent's a Chessnut found by
/// scanning ("auto"). Both link at once on Save, the connection panel says
/// so, and each board is greeted.
#[test]
fn bluetooth_boards_in_both_seats_link_on_the_fake_stack() {
    use ble_fake::{FakeBle, FakeDevice};
    let chessnut = FakeDevice::new("Chessnut Air", "AA:BB:CC:00:00:01", 11);
    let pegasus = FakeDevice::new("DGT_PEGASUS_4711", "AA:BB:CC:00:00:02", 12);
    let stack = FakeBle::factory(vec![chessnut.clone(), pegasus.clone()]);
    let mut s = settings(Lang::En);
    s.game.mode = Mode::Tournament;
    let mut gui = start_with(s, move |o| {
        o.time = TimeSource::Real(Instant::now());
        o.ble_transport = Some(stack);
    });
    gui.press(egui::Key::F8);
    choose(&mut gui, "My board", "Peg-board", "DGT Pegasus");
    type_into(&mut gui, "Port", "AA:BB:CC:00:00:02");
    choose(
        &mut gui,
        "Opponent's board",
        "Keyboard (no board)",
        "Chessnut",
    );
    type_into(&mut gui, "Opponent's board port", "auto");
    click(&mut gui, Role::Button, "Save");
    gui.run_until("both Bluetooth boards linked", |g| {
        g.shows("connected, Port: AA:BB:CC:00:00:02")
            && g.shows("Opponent's board: Chessnut, connected, Port: AA:BB:CC:00:00:01")
    });
    assert!(gui.shows("My board: DGT Pegasus"));
    assert!(!chessnut.writes().is_empty(), "the Chessnut board greeted");
    assert!(!pegasus.writes().is_empty(), "the Pegasus board greeted");
    assert!(
        !gui.app()
            .spoken()
            .iter()
            .any(|s| s.contains("not in this build")),
        "{:?}",
        gui.app().spoken()
    );
}

/// "My board" a Certabo board on a port that is not there: the "Board
/// connection" panel names the problem in the board's own words (the line
/// that also names a calibration file not read or not written).
#[test]
fn a_board_problem_is_named_in_the_connection_panel() {
    let mut gui = start_with(settings(Lang::En), |o| {
        o.time = TimeSource::Real(Instant::now());
    });
    gui.press(egui::Key::F8);
    choose(&mut gui, "My board", "Peg-board", "Certabo");
    let missing = "/nonexistent/certabo-board";
    type_into(&mut gui, "Port", missing);
    click(&mut gui, Role::Button, "Save");
    let problem = format!("Board problem: cannot open {missing}");
    gui.run_until("the problem named", |g| g.shows_part(&problem));
}

/// "My board" a Millennium board that reports h1 first: read turned round
/// from the start, said once, its moves read right; "My board lies" fixed
/// to "turned round (h1 first)" in Settings is kept in the settings and
/// the board is still read right.
#[test]
fn a_millennium_board_reporting_h1_first_as_mine_is_read_turned() {
    let millennium = MillenniumPty::start();
    millennium.report_h1_first();
    let mut gui = start_with(settings(Lang::En), |o| {
        o.time = TimeSource::Real(Instant::now());
    });
    gui.press(egui::Key::F8);
    choose(&mut gui, "My board", "Peg-board", "Millennium");
    type_into(&mut gui, "Port", &millennium.device);
    assert!(
        gui.harness
            .query_by_role_and_label(
                Role::ComboBox,
                &choice_name("My board lies", "found from the pieces")
            )
            .is_some(),
        "the orientation row for a board that knows its pieces"
    );
    click(&mut gui, Role::Button, "Save");
    let turned = "Board turned round, corrected";
    gui.run_until("the board read turned", |g| {
        g.app().spoken().iter().any(|s| s == turned)
    });
    // e2-e4 by hand: h1 first, the board's own squares are the game's
    // turned round, and the move is read as e2-e4.
    millennium.set(shakmaty::Square::E2, None);
    std::thread::sleep(Duration::from_millis(200));
    millennium.set(
        shakmaty::Square::E4,
        Some(shakmaty::Piece::from_char('P').unwrap()),
    );
    gui.run_until("e4 read", |g| g.app().session().record().moves().len() == 1);
    let played = gui.app().session().record().moves()[0].mv;
    assert_eq!(played.to().to_string(), "e4");

    gui.press(egui::Key::F8);
    choose(
        &mut gui,
        "My board lies",
        "found from the pieces",
        "turned round (h1 first)",
    );
    click(&mut gui, Role::Button, "Save");
    gui.run_until("the setting kept", |g| {
        g.app().settings().board.orientation == rochade::config::BoardOrientation::Turned
    });
    millennium.set(shakmaty::Square::E7, None);
    std::thread::sleep(Duration::from_millis(200));
    millennium.set(
        shakmaty::Square::E5,
        Some(shakmaty::Piece::from_char('p').unwrap()),
    );
    gui.run_until("e5 read", |g| g.app().session().record().moves().len() == 2);
    let said = gui.app().spoken();
    assert_eq!(said.iter().filter(|s| *s == turned).count(), 1, "{said:?}");
}
