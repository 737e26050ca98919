//! E-boards on Bluetooth LE (Chessnut Air/Pro/Go, DGT Pegasus): a link
//! thread like the serial one ([`crate::serial::Link`]) over a transport
//! trait, so the same link runs on the real stack (`btleplug`) and on a
//! fake one in the tests.
//!
//! * [`BleLink`]: finds the board (by address, by name or by the stack's
//!   id for it: on macOS every address reads 00:00:00:00:00:00; or, for
//!   `auto`, the first whose name fits a model Rochade drives, saying the
//!   name of one it cannot drive), connects, asks for the packet size, subscribes,
//!   greets, decodes notifications with the board's decoder and reports
//!   [`BoardEvent`](crate::session::board::BoardEvent)s; reconnects with a
//!   growing pause when the board goes away;
//! * [`BleTransport`]: what the link needs of a stack, every call with a
//!   timeout;
//! * [`btle`]: the real stack (the tests' fake one is in
//!   `tests/support/ble_fake.rs`, not in the product).

pub mod btle;
mod link;
pub mod transport;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

pub use link::BleLink;
pub use transport::{BleError, BleEvent, BleTransport, Device, Profile};

use crate::eboard::Kind;

/// Makes a transport (in the link thread: the real stack starts its
/// runtime there).
pub type TransportFactory = Arc<dyn Fn() -> Result<Box<dyn BleTransport>, BleError> + Send + Sync>;

/// How to reach a Bluetooth LE board.
#[derive(Clone)]
pub struct BleConfig {
    /// The device's address, or `"auto"`: the first board whose name fits.
    pub address: String,
    /// Which board.
    pub kind: Kind,
    /// Time zero for timestamps and the board log: share it with the
    /// session driver.
    pub epoch: Instant,
    /// Where to append the board log, if anywhere.
    pub log: Option<PathBuf>,
    /// The stack to use.
    pub transport: TransportFactory,
    /// How long a scan looks for the board.
    pub scan_timeout_ms: u64,
    /// How long any other call (connect, subscribe, write) may take.
    pub call_timeout_ms: u64,
    /// The first pause before trying again; it doubles up to
    /// `reconnect_max_ms` while the board stays away.
    pub reconnect_ms: u64,
    pub reconnect_max_ms: u64,
    /// How often the link writes the board's poll
    /// ([`Profile::poll`](transport::Profile::poll)): a link that died
    /// without the stack noticing fails its write; a Pegasus answers with
    /// its whole board (a lost notification is healed within this time), a
    /// Chessnut with its battery level (nothing healed: its next
    /// notification heals).
    pub refresh_ms: u64,
}

impl std::fmt::Debug for BleConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BleConfig")
            .field("address", &self.address)
            .field("kind", &self.kind)
            .field("log", &self.log)
            .finish_non_exhaustive()
    }
}

impl BleConfig {
    /// A board of `kind` at `address` (or `"auto"`), on the system's
    /// Bluetooth stack.
    pub fn new(address: impl Into<String>, kind: Kind) -> BleConfig {
        BleConfig {
            address: address.into(),
            kind,
            epoch: Instant::now(),
            log: None,
            transport: btle::factory(),
            scan_timeout_ms: 10_000,
            call_timeout_ms: 5_000,
            reconnect_ms: 500,
            reconnect_max_ms: 8_000,
            refresh_ms: 1_000,
        }
    }

    /// The same on another stack (the tests' fake).
    pub fn with_transport(mut self, transport: TransportFactory) -> BleConfig {
        self.transport = transport;
        self
    }
}

/// Whether a board kind is reached over Bluetooth LE.
pub fn is_ble(kind: Kind) -> bool {
    Profile::of(kind).is_some()
}

/// Whether a board of `kind` on `port` is reached over Bluetooth LE: a
/// Bluetooth kind at an address or `auto` (or none given). A device path
/// (`/dev/ttyUSB0`, `COM3`) is a byte stream carrying the same bytes: a
/// Bluetooth-to-serial bridge, or a test's pseudo-terminal.
pub fn over_bluetooth(kind: Kind, port: Option<&str>) -> bool {
    is_ble(kind) && !port.is_some_and(is_device_path)
}

/// A serial device's name rather than a Bluetooth address.
fn is_device_path(port: &str) -> bool {
    let com_number = port
        .get(..3)
        .is_some_and(|p| p.eq_ignore_ascii_case("com"))
        .then(|| &port[3..]);
    port.starts_with('/')
        || port.starts_with(r"\\.\")
        || com_number.is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_path_is_a_byte_stream_and_an_address_bluetooth() {
        for port in [None, Some("auto"), Some("D0:0D:CA:FE:00:02")] {
            assert!(over_bluetooth(Kind::Pegasus, port), "{port:?}");
        }
        for port in ["/dev/ttyUSB0", "/dev/pts/7", "COM3"] {
            assert!(!over_bluetooth(Kind::Pegasus, Some(port)), "{port}");
        }
        assert!(!over_bluetooth(Kind::Dgt, Some("auto")));
    }
}
