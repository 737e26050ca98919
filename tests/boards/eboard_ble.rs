//! The Bluetooth LE boards (Chessnut Air/Pro/Go, DGT Pegasus) on the real
//! link thread over the fake stack (`support/ble_fake.rs`): connect,
//! lights written byte-exact, a dropped link, a board that vanishes and
//! returns, and a harsh radio over a whole game: every position the link
//! reports is one the board showed, and the last one arrives. Their games:
//! `chessnut_games.rs`, `pegasus_games.rs`.

use crate::ble_fake;
use crate::eboard_hands;
use crate::rng;

use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ble_fake::{FakeBle, FakeDevice, Faults};
use eboard_hands::{BLITZ, apply, play_game, selfplay};
use rng::Rng;
use rochade::ble::{BleConfig, BleLink};
use rochade::board::HostCommand;
use rochade::eboard::pegasus_sim::PegasusSim;
use rochade::eboard::pieces::{self, pieces_of_board};
use rochade::eboard::{Kind, Message, chessnut, pegasus};
use rochade::serial::BoardInput;
use rochade::session::board::BoardEvent;
use shakmaty::{Bitboard, Board, Square};

/// A Chessnut's answer to the battery request: 85 %, not charging
/// (chessnutech/Chessnut_eBoards, README, "Reading Battery Level").
const BATTERY_ANSWER: [u8; 4] = [0x2A, 0x02, 0x55, 0x00];

/// Long enough for anything the link does; a test that waits this long
/// has failed.
const WAIT: Duration = Duration::from_secs(10);

/// A link config that retries fast (the fake answers at once).
fn quick(mut cfg: BleConfig) -> BleConfig {
    cfg.call_timeout_ms = 500;
    cfg.scan_timeout_ms = 500;
    cfg.reconnect_ms = 10;
    cfg.reconnect_max_ms = 100;
    cfg.refresh_ms = 300;
    cfg
}

/// Reads reports until one fits; the ones before it are returned.
fn expect(
    rx: &Receiver<BoardInput<Message>>,
    what: &str,
    fits: impl Fn(&BoardEvent<Message>) -> bool,
) -> Vec<BoardEvent<Message>> {
    let until = Instant::now() + WAIT;
    let mut before = Vec::new();
    loop {
        let left = until.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(input) if fits(&input.event) => return before,
            Ok(input) => before.push(input.event),
            Err(e) => panic!("no {what} ({e:?}); before: {before:?}"),
        }
    }
}

/// Reads the board's writes until `wanted`; only the link's requests for
/// the whole board (`refresh`) may come between.
fn expect_write(writes: &Receiver<Vec<u8>>, refresh: &[u8], wanted: &[u8]) {
    loop {
        let got = writes
            .recv_timeout(WAIT)
            .unwrap_or_else(|e| panic!("no write {wanted:02x?} ({e:?})"));
        if got == wanted {
            return;
        }
        assert_eq!(got, refresh, "a write other than {wanted:02x?}");
    }
}

/// A Chessnut board: answers the real-time command with its position (at
/// the greeting, once a connection), the battery request with its level,
/// and passes every write to the test.
fn chessnut_device(seed: u64, board: &Arc<Mutex<Board>>) -> (FakeDevice, Receiver<Vec<u8>>) {
    let dev = FakeDevice::new("Chessnut Air", "C0:FF:EE:00:00:01", seed);
    let (writes_tx, writes) = mpsc::channel::<Vec<u8>>();
    let board = board.clone();
    dev.respond(Box::new(move |bytes| {
        let _ = writes_tx.send(bytes.to_vec());
        if bytes.starts_with(&chessnut::ENABLE_REALTIME) {
            let pieces = pieces_of_board(board.lock().unwrap().clone());
            vec![(
                chessnut::FEN_NOTIFY,
                chessnut::position_notification(&pieces),
            )]
        } else if bytes == chessnut::BATTERY_REQUEST {
            vec![(chessnut::OPERATION_NOTIFY, BATTERY_ANSWER.to_vec())]
        } else {
            Vec::new()
        }
    }));
    (dev, writes)
}

fn start() -> pieces::Pieces {
    pieces::start_pieces()
}

#[test]
fn a_chessnut_found_by_name_is_lit_byte_exact_and_comes_back_after_a_drop_and_a_vanish() {
    let board = Arc::new(Mutex::new(Board::default()));
    let (dev, writes) = chessnut_device(7, &board);
    // Another device in range that is no board: `auto` passes it by.
    let other = FakeDevice::new("Heart Rate Strap", "11:22:33:44:55:66", 1);
    let cfg = quick(BleConfig::new("auto", Kind::Chessnut))
        .with_transport(FakeBle::factory(vec![other, dev.clone()]));
    let (tx, rx) = mpsc::channel();
    let link = BleLink::spawn(cfg, tx).expect("the link starts");
    expect(
        &rx,
        "link up",
        |e| matches!(e, BoardEvent::LinkUp { port } if port == "C0:FF:EE:00:00:01"),
    );
    expect(&rx, "the name", |e| {
        *e == BoardEvent::Message(Message::Ident("Chessnut".into()))
    });
    expect(
        &rx,
        "the start position",
        |e| matches!(e, BoardEvent::Message(Message::Position(p)) if **p == start()),
    );
    // The greeting: real-time reporting on.
    assert_eq!(writes.recv_timeout(WAIT).unwrap(), [0x21, 0x01, 0x00]);
    // The link's poll: the battery request (it heals nothing).
    let refresh = chessnut::BATTERY_REQUEST;

    // Lights on e2 and e4: rank 4 is the 5th byte, rank 2 the 7th, the
    // e-file bit 3 (h in bit 0).
    let e2e4 = Bitboard::from(Square::E2) | Bitboard::from(Square::E4);
    link.send(HostCommand::Lights(e2e4));
    expect_write(
        &writes,
        &refresh,
        &[0x0A, 0x08, 0, 0, 0, 0, 0x08, 0, 0x08, 0],
    );

    // 1. e4 on the board: one notification, two squares reported.
    let pieces = {
        let mut b = board.lock().unwrap();
        let pawn = b.remove_piece_at(Square::E2).unwrap();
        b.set_piece_at(Square::E4, pawn);
        pieces_of_board(b.clone())
    };
    dev.notify(
        chessnut::FEN_NOTIFY,
        &chessnut::position_notification(&pieces),
    );
    expect(&rx, "e2 emptied", |e| {
        *e == BoardEvent::Message(Message::Square {
            square: Square::E2,
            piece: None,
        })
    });
    expect(&rx, "e4 filled", |e| {
        matches!(
            e,
            BoardEvent::Message(Message::Square {
                square: Square::E4,
                piece: Some(_)
            })
        )
    });

    // The link drops: lost, back, greeted, the lights set again in the
    // same write.
    dev.drop_connection();
    expect(&rx, "the link lost", |e| {
        matches!(e, BoardEvent::LinkLost { .. })
    });
    expect(&rx, "link up again", |e| {
        matches!(e, BoardEvent::LinkUp { .. })
    });
    expect_write(
        &writes,
        &refresh,
        &[0x21, 0x01, 0x00, 0x0A, 0x08, 0, 0, 0, 0, 0x08, 0, 0x08, 0],
    );
    expect(
        &rx,
        "the position after 1. e4",
        |e| matches!(e, BoardEvent::Message(Message::Position(p)) if **p == pieces),
    );

    // The board is switched off, then on again.
    dev.vanish();
    expect(&rx, "the link lost", |e| {
        matches!(e, BoardEvent::LinkLost { .. })
    });
    assert!(!link.status().connected);
    dev.reappear();
    expect(&rx, "link up again", |e| {
        matches!(e, BoardEvent::LinkUp { .. })
    });
    expect_write(
        &writes,
        &refresh,
        &[0x21, 0x01, 0x00, 0x0A, 0x08, 0, 0, 0, 0, 0x08, 0, 0x08, 0],
    );

    // All dark.
    link.send(HostCommand::Lights(Bitboard::EMPTY));
    expect_write(&writes, &refresh, &[0x0A, 0x08, 0, 0, 0, 0, 0, 0, 0, 0]);
    let status = link.status();
    assert!(status.connected);
    assert_eq!(status.losses, 2);
    assert_eq!(status.format, Some("chessnut"));
    assert_eq!(status.ident.as_deref(), Some("Chessnut"));
    assert_eq!(dev.counts().0, 3, "connections");
    link.stop();
}

#[test]
fn a_packet_size_too_small_for_the_position_is_said_not_read() {
    let board = Arc::new(Mutex::new(Board::default()));
    let (dev, _writes) = chessnut_device(3, &board);
    dev.set_mtu_max(23);
    let cfg = quick(BleConfig::new("C0:FF:EE:00:00:01", Kind::Chessnut))
        .with_transport(FakeBle::factory(vec![dev.clone()]));
    let (tx, rx) = mpsc::channel();
    let link = BleLink::spawn(cfg, tx).expect("the link starts");
    let before = expect(
        &rx,
        "the link lost",
        |e| matches!(e, BoardEvent::LinkLost { reason } if reason.contains("packet size 23 too small")),
    );
    assert!(before.is_empty(), "{before:?}");
    link.stop();
}

#[test]
fn auto_passes_over_a_chessnut_model_it_cannot_drive_says_its_name_once_and_takes_an_air() {
    let board = Arc::new(Mutex::new(Board::default()));
    // The Move takes other commands (PicoChess: `43 20` and colour bytes
    // for its lights): `auto` must not connect to it.
    let mover = FakeDevice::new("Chessnut Move", "C0:FF:EE:00:00:09", 5);
    let (air, _writes) = chessnut_device(7, &board);
    air.vanish();
    let cfg = quick(BleConfig::new("auto", Kind::Chessnut))
        .with_transport(FakeBle::factory(vec![mover.clone(), air.clone()]));
    let (tx, rx) = mpsc::channel();
    let link = BleLink::spawn(cfg, tx).expect("the link starts");
    expect(&rx, "the model named", |e| {
        *e == BoardEvent::ModelUnsupported {
            name: "Chessnut Move".into(),
        }
    });
    // Looked for again and again: said once.
    std::thread::sleep(Duration::from_millis(300));
    air.reappear();
    let before = expect(
        &rx,
        "the Air connected",
        |e| matches!(e, BoardEvent::LinkUp { port } if port == "C0:FF:EE:00:00:01"),
    );
    assert!(
        !before
            .iter()
            .any(|e| matches!(e, BoardEvent::ModelUnsupported { .. })),
        "{before:?}"
    );
    assert_eq!(mover.counts().0, 0, "never connected to the Move");
    link.stop();
}

#[test]
fn on_macos_where_every_address_is_zeros_the_board_is_found_by_its_name_or_id() {
    // btleplug on macOS: every address 00:00:00:00:00:00, a UUID per
    // device. Never tried on a Mac: this is the fake stack showing it so.
    for wanted in ["Chessnut Air", "5C3E1F02-8A44-4B7E-9D1A-0F6B2C7D9E11"] {
        let other = FakeDevice::on_macos("Chessnut Pro", "0A0B0C0D-0000-4000-8000-000000000001", 2);
        let air = FakeDevice::on_macos("Chessnut Air", "5C3E1F02-8A44-4B7E-9D1A-0F6B2C7D9E11", 3);
        let cfg = quick(BleConfig::new(wanted, Kind::Chessnut))
            .with_transport(FakeBle::factory(vec![other.clone(), air.clone()]));
        let (tx, rx) = mpsc::channel();
        let link = BleLink::spawn(cfg, tx).expect("the link starts");
        expect(&rx, "link up", |e| matches!(e, BoardEvent::LinkUp { .. }));
        assert_eq!((air.counts().0, other.counts().0), (1, 0), "{wanted}");
        link.stop();
    }
    // The zeros themselves name no board.
    let air = FakeDevice::on_macos("Chessnut Air", "5C3E1F02-8A44-4B7E-9D1A-0F6B2C7D9E11", 3);
    let cfg = quick(BleConfig::new("00:00:00:00:00:00", Kind::Chessnut))
        .with_transport(FakeBle::factory(vec![air.clone()]));
    let (tx, rx) = mpsc::channel();
    let link = BleLink::spawn(cfg, tx).expect("the link starts");
    expect(&rx, "not found", |e| {
        matches!(e, BoardEvent::LinkLost { .. })
    });
    assert_eq!(air.counts().0, 0);
    link.stop();
}

/// A Pegasus board: the emulator (occupancy only, silent until the
/// developer key, 20-byte packets) behind the fake radio.
fn pegasus_device(seed: u64, sim: &Arc<Mutex<PegasusSim>>) -> (FakeDevice, Receiver<Vec<u8>>) {
    let dev = FakeDevice::new("DGT_PEGASUS_4711", "D0:0D:CA:FE:00:02", seed);
    let (writes_tx, writes) = mpsc::channel::<Vec<u8>>();
    let sim = sim.clone();
    dev.respond(Box::new(move |bytes| {
        // The board takes the bytes in before the test hears of them.
        let packets = sim.lock().unwrap().receive(bytes);
        let _ = writes_tx.send(bytes.to_vec());
        packets
            .into_iter()
            .map(|p| (pegasus::UART_NOTIFY, p))
            .collect()
    }));
    (dev, writes)
}

#[test]
fn a_pegasus_at_its_address_sends_the_developer_key_reads_occupancy_and_gets_its_lights_again_after_a_drop()
 {
    let sim = Arc::new(Mutex::new(PegasusSim::new()));
    let (dev, writes) = pegasus_device(11, &sim);
    let cfg = quick(BleConfig::new("d0:0d:ca:fe:00:02", Kind::Pegasus))
        .with_transport(FakeBle::factory(vec![dev.clone()]));
    let (tx, rx) = mpsc::channel();
    let link = BleLink::spawn(cfg, tx).expect("the link starts");
    expect(&rx, "link up", |e| matches!(e, BoardEvent::LinkUp { .. }));
    expect(&rx, "the name", |e| {
        *e == BoardEvent::Message(Message::Ident("DGT Pegasus 1.0".into()))
    });
    let start = 0xFFFF_0000_0000_FFFFu64;
    expect(&rx, "the start position's occupancy", |e| {
        *e == BoardEvent::Message(Message::Occupancy(start))
    });
    // Reset, the developer key, lights off, field updates, version, board.
    let greeting = [
        0x40, 0x63, 0x07, 0xBE, 0xF5, 0xAE, 0xDD, 0xA9, 0x5F, 0x00, 0x60, 0x02, 0x00, 0x00, 0x44,
        0x4D, 0x42,
    ];
    assert_eq!(writes.recv_timeout(WAIT).unwrap(), greeting);
    let refresh = [0x42];

    // d2 and d4: DGT fields 51 and 35, after an all-off.
    let d2d4 = Bitboard::from(Square::D2) | Bitboard::from(Square::D4);
    let lights = [
        0x60, 0x02, 0x00, 0x00, 0x60, 0x07, 0x05, 0x02, 0x00, 0x02, 51, 35, 0x00,
    ];
    link.send(HostCommand::Lights(d2d4));
    expect_write(&writes, &refresh, &lights);
    assert_eq!(sim.lock().unwrap().lit(), d2d4);

    // A field update: d2 lifted (`8E 00 05 33 00`).
    let update = sim.lock().unwrap().set(Square::D2, false);
    assert_eq!(update, [vec![0x8E, 0x00, 0x05, 51, 0x00]]);
    dev.notify(pegasus::UART_NOTIFY, &update[0]);
    let d2 = 1u64 << usize::from(Square::D2);
    expect(&rx, "d2 emptied", |e| {
        *e == BoardEvent::Message(Message::Occupancy(start & !d2))
    });

    dev.drop_connection();
    expect(&rx, "the link lost", |e| {
        matches!(e, BoardEvent::LinkLost { .. })
    });
    expect(&rx, "link up again", |e| {
        matches!(e, BoardEvent::LinkUp { .. })
    });
    let mut again = greeting.to_vec();
    again.extend(lights);
    expect_write(&writes, &refresh, &again);
    link.send(HostCommand::Lights(Bitboard::EMPTY));
    expect_write(&writes, &refresh, &[0x60, 0x02, 0x00, 0x00]);
    assert_eq!(link.status().losses, 1);
    link.stop();
}

/// What the link reported, replayed on a board.
#[derive(Default)]
struct Replay {
    seen: Option<pieces::Pieces>,
    ups: u64,
    losses: u64,
    positions: u64,
}

impl Replay {
    /// Every whole position must be one the board showed.
    fn take(&mut self, input: BoardInput<Message>, shown: &[pieces::Pieces]) {
        match input.event {
            BoardEvent::Message(Message::Position(p)) => {
                assert!(shown.contains(&p), "a position the board never showed");
                self.positions += 1;
                self.seen = Some(*p);
            }
            BoardEvent::Message(Message::Square { square, piece }) => {
                if let Some(s) = self.seen.as_mut() {
                    s[usize::from(square)] = piece;
                }
            }
            BoardEvent::LinkUp { .. } => self.ups += 1,
            BoardEvent::LinkLost { .. } => self.losses += 1,
            _ => {}
        }
    }
}

#[test]
fn over_a_harsh_radio_every_position_reported_is_one_the_board_showed_and_the_last_arrives() {
    let board = Arc::new(Mutex::new(Board::default()));
    let (dev, _writes) = chessnut_device(0xFEED, &board);
    dev.set_faults(Faults {
        split: 30,
        merge: 20,
        lose: 2,
        drop_link: 25,
        write_fail: 5,
        write_delay_ms: (0, 3),
        connect_fail: 20,
    });
    let cfg = quick(BleConfig::new("auto", Kind::Chessnut))
        .with_transport(FakeBle::factory(vec![dev.clone()]));
    let (tx, rx) = mpsc::channel();
    let link = BleLink::spawn(cfg, tx).expect("the link starts");

    // What the link reports, replayed on a board: every whole position is
    // one the board showed.
    let mut shown = vec![start()];
    let mut r = Replay::default();

    // The hands play the first self-play game as fast as the test runs;
    // while the link is down the board waits for it (the game goes on
    // over the link, drop after drop).
    let game = &selfplay()[0];
    let played = play_game(game, BLITZ, &mut Rng(5), 0);
    for change in &played.changes {
        let until = Instant::now() + WAIT;
        while !dev.is_connected() || r.ups == r.losses {
            let left = until.saturating_duration_since(Instant::now());
            let input = rx
                .recv_timeout(left)
                .unwrap_or_else(|e| panic!("the link never came back ({e:?})"));
            r.take(input, &shown);
        }
        let pieces = {
            let mut b = board.lock().unwrap();
            apply(&mut b, change);
            pieces_of_board(b.clone())
        };
        shown.push(pieces);
        dev.notify(
            chessnut::FEN_NOTIFY,
            &chessnut::position_notification(&pieces),
        );
        while let Ok(input) = rx.try_recv() {
            r.take(input, &shown);
        }
    }

    // In the end the last position stands.
    let last = *shown.last().unwrap();
    let until = Instant::now() + WAIT;
    while r.seen != Some(last) {
        let left = until.saturating_duration_since(Instant::now());
        let input = rx
            .recv_timeout(left)
            .unwrap_or_else(|e| panic!("the last position never arrived ({e:?})"));
        r.take(input, &shown);
    }
    let (connections, drops) = dev.counts();
    println!(
        "harsh radio: {} changes, {connections} connections, {drops} drops, {} losses reported, {} whole positions",
        played.changes.len(),
        r.losses,
        r.positions
    );
    assert!(drops >= 2 && connections >= 3, "the radio was not harsh");
    link.stop();
}
