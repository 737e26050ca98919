//! Finding boards through real pseudo-terminals: the DGT emulator
//! (`rochade board-sim --format dgt`, the core's `DgtSim` on a pty) is
//! found by its answer to the serial-number request, the Millennium
//! emulator (`MillenniumSim` on a pty, parity bit checked) by its answer to `V` and its
//! scan reports; a peg-board that talks
//! all the time, a silent device and a path that does not exist are not
//! boards, and none of them holds the probe up for more than a second.

use std::time::{Duration, Instant};

use rochade::eboard::Kind;
use rochade::serial::probe::{ANSWER_MS, Found, probe_port, probe_ports};
use serialport::{SerialPort, TTYPort};

use crate::board_sim;
use crate::millennium_pty;

use board_sim::Sim;

#[test]
fn the_dgt_and_millennium_emulators_are_found_and_nothing_else_is_a_board() {
    let dgt = Sim::start(&["--format", "dgt"]);
    let millennium = millennium_pty::MillenniumPty::start();
    let peg = Sim::start(&["--format", "peg"]);
    // A device that never says a word (kept open on this side).
    let (_master, silent) = TTYPort::pair().expect("a pseudo-terminal");
    let silent = silent.name().expect("its name");
    let gone = "/dev/rochade-no-such-port".to_owned();
    let answer = Duration::from_millis(ANSWER_MS);

    for (port, want) in [
        (&peg.device, None),
        (&silent, None),
        (&gone, None),
        (&dgt.device, Some(Kind::Dgt)),
        (&millennium.device, Some(Kind::Millennium)),
    ] {
        let start = Instant::now();
        let got = probe_port(port, answer);
        let took = start.elapsed();
        println!("probe {port}: {got:?} in {} ms", took.as_millis());
        assert_eq!(got, want, "{port}");
        assert!(
            took <= Duration::from_secs(1),
            "{port} held the probe {took:?}"
        );
    }

    // All at once, in the order given; the DGT board found again (a
    // second probe of the same board answers the same).
    let ports = vec![
        peg.device.clone(),
        silent.clone(),
        dgt.device.clone(),
        gone,
        millennium.device.clone(),
    ];
    let start = Instant::now();
    let found = probe_ports(&ports, answer);
    assert_eq!(
        found,
        vec![
            Found {
                port: dgt.device.clone(),
                kind: Kind::Dgt
            },
            Found {
                port: millennium.device.clone(),
                kind: Kind::Millennium
            }
        ]
    );
    // The Millennium board was asked its version (a byte no command has,
    // the DGT question, was dropped by it).
    assert!(
        millennium.commands().contains(&b'V'),
        "{:?}",
        millennium.commands()
    );
    println!("five ports probed in {} ms", start.elapsed().as_millis());
    assert!(
        start.elapsed() <= Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
}
