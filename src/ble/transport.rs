//! What the BLE link needs of a Bluetooth stack, as a trait: the real one
//! (`btleplug`, [`super::btle`]) and the test double ([`super::fake`])
//! implement it. Every call takes a timeout and returns in it: a stuck
//! daemon or a board out of reach is an error the link reports and
//! retries, never a hang.

use std::sync::mpsc::Receiver;
use std::time::Duration;

use crate::eboard::{Kind, chessnut, pegasus};

/// A device found by a scan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Device {
    /// The stack's address of the device (a MAC address on Linux).
    pub address: String,
    /// The name it advertises ("Chessnut Air", "DGT_PEGASUS_1234").
    pub name: String,
}

/// What arrives on a connection's channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BleEvent {
    /// A notification from a subscribed characteristic.
    Notification {
        characteristic: u128,
        bytes: Vec<u8>,
    },
    /// The device went away (out of range, switched off, the stack gave up).
    Disconnected(String),
}

/// Why a call failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BleError {
    /// No Bluetooth adapter, or the stack cannot be reached.
    NoAdapter(String),
    /// No device of that address or name answered the scan in time.
    NotFound(String),
    /// The call did not finish in its time.
    TimedOut(&'static str),
    /// The stack or the device refused or failed the call.
    Failed(String),
    /// The device has no such service or characteristic.
    NoCharacteristic(u128),
}

impl std::fmt::Display for BleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BleError::NoAdapter(why) => write!(f, "no Bluetooth adapter: {why}"),
            BleError::NotFound(what) => write!(f, "no Bluetooth device {what} found"),
            BleError::TimedOut(what) => write!(f, "Bluetooth {what} timed out"),
            BleError::Failed(why) => write!(f, "Bluetooth: {why}"),
            BleError::NoCharacteristic(uuid) => {
                write!(f, "the device has no characteristic {}", uuid_text(*uuid))
            }
        }
    }
}

impl std::error::Error for BleError {}

/// A 128-bit UUID as text (`6e400001-b5a3-...`).
pub fn uuid_text(uuid: u128) -> String {
    let h = format!("{uuid:032x}");
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

/// A Bluetooth LE stack, as the link uses it. Calls are made from the
/// link thread only, one at a time.
pub trait BleTransport: Send {
    /// Finds a device: the one at `address`, or, for `"auto"`, the first
    /// whose name starts with `name_prefix`.
    fn find(
        &mut self,
        address: &str,
        name_prefix: &str,
        timeout: Duration,
    ) -> Result<Device, BleError>;

    /// Connects; the connection's notifications and its loss arrive on
    /// the returned channel (once subscribed).
    fn connect(
        &mut self,
        device: &Device,
        timeout: Duration,
    ) -> Result<Receiver<BleEvent>, BleError>;

    /// Asks for a packet size (ATT MTU); returns the size in force, or
    /// `None` when the stack does not tell (BlueZ negotiates the largest
    /// size itself and may not say which).
    fn request_mtu(&mut self, mtu: u16, timeout: Duration) -> Result<Option<u16>, BleError>;

    /// Turns notifications of a characteristic on.
    fn subscribe(&mut self, characteristic: u128, timeout: Duration) -> Result<(), BleError>;

    /// Writes to a characteristic.
    fn write(
        &mut self,
        characteristic: u128,
        bytes: &[u8],
        timeout: Duration,
    ) -> Result<(), BleError>;

    /// Drops the connection (nothing if there is none).
    fn disconnect(&mut self);
}

/// Which services and characteristics a kind of board uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Advertised names start with this.
    pub name_prefix: &'static str,
    /// Characteristics whose notifications carry the board's messages.
    pub notify: Vec<u128>,
    /// The characteristic commands are written to.
    pub write: u128,
    /// The packet size to ask for.
    pub mtu: u16,
    /// The smallest packet size with which the board's messages arrive
    /// whole.
    pub mtu_needed: u16,
}

impl Profile {
    /// The profile of a Bluetooth LE board; `None` for boards on a serial
    /// line.
    pub fn of(kind: Kind) -> Option<Profile> {
        match kind {
            Kind::Chessnut => Some(Profile {
                name_prefix: chessnut::NAME_PREFIX,
                notify: vec![chessnut::FEN_NOTIFY, chessnut::OPERATION_NOTIFY],
                write: chessnut::OPERATION_WRITE,
                mtu: chessnut::MTU,
                mtu_needed: chessnut::MTU_NEEDED,
            }),
            Kind::Pegasus => Some(Profile {
                name_prefix: pegasus::NAME_PREFIX,
                notify: vec![pegasus::UART_NOTIFY],
                write: pegasus::UART_WRITE,
                mtu: pegasus::MTU,
                // DGT messages are a byte stream: any size arrives whole,
                // in pieces.
                mtu_needed: 23,
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_print_as_the_apis_write_them() {
        assert_eq!(
            uuid_text(chessnut::FEN_NOTIFY),
            "1b7e8262-2877-41c3-b46e-cf057c562023"
        );
        assert_eq!(
            uuid_text(pegasus::UART_WRITE),
            "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
        );
        assert!(Profile::of(Kind::Dgt).is_none());
        assert_eq!(Profile::of(Kind::Chessnut).unwrap().mtu, 500);
    }
}
