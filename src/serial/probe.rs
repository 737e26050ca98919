//! Finding boards on serial ports: each candidate port opened in turn and
//! asked, kind by kind, whether that board is on it ([`rochade_core::eboard::probe`]
//! says what to ask and reads the answer). Every port gets a bounded time
//! (under a second for all the kinds), so a silent or stuck device only
//! costs its share; callers run this on a thread of its own, never the UI's.

use std::io::{ErrorKind, Read, Write};
use std::time::{Duration, Instant};

use crate::eboard::Kind;
use crate::eboard::probe::{ProbeRequest, answered, requests};

/// How long one kind of board has to answer on one port.
pub const ANSWER_MS: u64 = 450;

/// A board found on a port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub port: String,
    pub kind: Kind,
}

/// The ports to probe: those the system lists, then `extra` (pseudo-
/// terminals and links to ports, which the system does not list), each
/// once.
pub fn candidates(extra: &[String]) -> Vec<String> {
    let mut ports: Vec<String> = super::list_ports().into_iter().map(|p| p.name).collect();
    for port in extra {
        if !ports.contains(port) {
            ports.push(port.clone());
        }
    }
    ports
}

/// Every board found on `ports`, in their order (a port with no board
/// that answers is left out).
pub fn probe_ports(ports: &[String], answer: Duration) -> Vec<Found> {
    ports
        .iter()
        .filter_map(|port| {
            probe_port(port, answer).map(|kind| Found {
                port: port.clone(),
                kind,
            })
        })
        .collect()
}

/// Which board answers on `port`, asking each probed kind in turn and
/// waiting at most `answer` for each.
pub fn probe_port(port: &str, answer: Duration) -> Option<Kind> {
    for request in requests() {
        match ask(port, &request, answer) {
            Ok(Some(kind)) => return Some(kind),
            Ok(None) => {}
            // No such port (unplugged, a stale link): nothing else to try.
            Err(e) if e.kind() == ErrorKind::NotFound => return None,
            Err(_) => {}
        }
    }
    None
}

/// Opens `port` as `request` says, sends the question and reads until the
/// board has answered or `answer` has passed.
fn ask(port: &str, request: &ProbeRequest, answer: Duration) -> std::io::Result<Option<Kind>> {
    let mut serial =
        super::open_port(port, request.baud, request.framing).map_err(std::io::Error::from)?;
    // What an earlier open left unread is no answer to this question.
    let _ = serial.clear(serialport::ClearBuffer::All);
    serial.write_all(&request.bytes)?;
    let _ = serial.flush();
    let end = Instant::now() + answer;
    let mut got = Vec::new();
    let mut buf = [0u8; 256];
    while Instant::now() < end {
        match serial.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                got.extend_from_slice(&buf[..n]);
                if let Some(kind) = answered(request.kind, &got) {
                    return Ok(Some(kind));
                }
                // A talkative board fills no memory while it is asked.
                if got.len() > 4096 {
                    got.drain(..2048);
                }
            }
            Err(e) if matches!(e.kind(), ErrorKind::TimedOut | ErrorKind::WouldBlock) => {}
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(None)
}
