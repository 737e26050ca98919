//! What the BLE link needs of a Bluetooth stack, as a trait: the real one
//! (`btleplug`, [`super::btle`]) and the tests' fake one (`tests/support/ble_fake.rs`)
//! implement it. Every call takes a timeout and returns in it: a stuck
//! daemon or a board out of reach is an error the link reports and
//! retries, never a hang.

use std::sync::mpsc::Receiver;
use std::time::Duration;

use crate::board::{HostCommand, Protocol};
use crate::eboard::{AnyDecoder, Kind, chessnut, pegasus};

/// A device found by a scan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Device {
    /// The stack's address of the device (a MAC address on Linux; on
    /// macOS btleplug gives every device `00:00:00:00:00:00`).
    pub address: String,
    /// The name it advertises ("Chessnut Air", "DGT_PEGASUS_1234").
    pub name: String,
    /// The stack's own id of the device (btleplug's peripheral id: on
    /// macOS a UUID the system gives each device, elsewhere the address
    /// or a path).
    pub id: String,
}

/// The address btleplug reports for every device on macOS.
pub const NO_ADDRESS: &str = "00:00:00:00:00:00";

/// What a scan makes of a device, for a board looked for as `wanted`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The board looked for.
    Take,
    /// Named as a board of the kind, but a model Rochade cannot drive
    /// (`auto` passes it over and says so).
    Unsupported,
    /// Anything else.
    Pass,
}

/// Whether `device` is the board looked for as `wanted`: for `auto`, the
/// first whose name fits the profile (a model it drives); else the one
/// whose address is `wanted` (unless the address is all zeros, as every
/// address is on macOS), or whose stack id or advertised name is
/// (letter case aside): on macOS the name or the id is what can be typed.
pub fn pick(device: &Device, wanted: &str, profile: &Profile) -> Pick {
    let wanted = wanted.trim();
    if wanted.eq_ignore_ascii_case("auto") {
        let Some(model) = device.name.strip_prefix(profile.name_prefix) else {
            return Pick::Pass;
        };
        let model = model
            .trim_start_matches([' ', '_', '-'])
            .to_ascii_lowercase();
        let driven = profile.models.is_empty()
            || profile
                .models
                .iter()
                .any(|m| model.starts_with(&m.to_ascii_lowercase()));
        return if driven {
            Pick::Take
        } else {
            Pick::Unsupported
        };
    }
    let by_address = device.address != NO_ADDRESS && device.address.eq_ignore_ascii_case(wanted);
    let by_id = !device.id.is_empty() && device.id.eq_ignore_ascii_case(wanted);
    let by_name = !device.name.is_empty() && device.name.trim().eq_ignore_ascii_case(wanted);
    if by_address || by_id || by_name {
        Pick::Take
    } else {
        Pick::Pass
    }
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
    /// `auto` found only boards of the kind it cannot drive (their
    /// advertised name).
    Unsupported(String),
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
            BleError::Unsupported(name) => write!(f, "{name}: a model Rochade cannot drive"),
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
    /// Finds the device [`pick`] takes for `wanted` (an address, an id, a
    /// name, or `"auto"`); for `"auto"`, when only models the profile does
    /// not drive were seen, [`BleError::Unsupported`] with the first's name.
    fn find(
        &mut self,
        wanted: &str,
        profile: &Profile,
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
    /// The models `auto` takes: the word after the prefix starts with one
    /// of these (letter case aside); empty: any.
    pub models: &'static [&'static str],
    /// Characteristics whose notifications carry the board's messages.
    pub notify: Vec<u128>,
    /// The characteristic commands are written to.
    pub write: u128,
    /// The packet size to ask for.
    pub mtu: u16,
    /// The smallest packet size with which the board's messages arrive
    /// whole.
    pub mtu_needed: u16,
    /// What the link writes every `refresh_ms`: a request the board is
    /// known to answer. The Pegasus's is the board dump request (`42`,
    /// which DGT boards answer with the whole board: a lost notification
    /// is healed). No reference shows a Chessnut sending an unchanged
    /// position again on request, so its poll is the battery request
    /// (`29 01 00`, answered `2A 02`): it proves the link, and heals
    /// nothing. A Chessnut's lost notification is healed by its next one
    /// (each carries the whole board) or by a reconnection (the board
    /// sends its position when real-time reporting is turned on).
    pub poll: Vec<u8>,
}

impl Profile {
    /// The profile of a Bluetooth LE board; `None` for boards on a serial
    /// line.
    pub fn of(kind: Kind) -> Option<Profile> {
        match kind {
            Kind::Chessnut => Some(Profile {
                name_prefix: chessnut::NAME_PREFIX,
                models: chessnut::MODELS,
                notify: vec![chessnut::FEN_NOTIFY, chessnut::OPERATION_NOTIFY],
                write: chessnut::OPERATION_WRITE,
                mtu: chessnut::MTU,
                mtu_needed: chessnut::MTU_NEEDED,
                poll: chessnut::BATTERY_REQUEST.to_vec(),
            }),
            Kind::Pegasus => Some(Profile {
                name_prefix: pegasus::NAME_PREFIX,
                models: &[],
                notify: vec![pegasus::UART_NOTIFY],
                write: pegasus::UART_WRITE,
                mtu: pegasus::MTU,
                // DGT messages are a byte stream: any size arrives whole,
                // in pieces.
                mtu_needed: 23,
                poll: AnyDecoder::new(Kind::Pegasus).encode(HostCommand::Snapshot),
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

    fn device(name: &str, address: &str, id: &str) -> Device {
        Device {
            name: name.into(),
            address: address.into(),
            id: id.into(),
        }
    }

    #[test]
    fn auto_takes_only_the_chessnut_models_rochade_drives() {
        let chessnut = Profile::of(Kind::Chessnut).unwrap();
        for name in [
            "Chessnut Air",
            "Chessnut Air+",
            "Chessnut Pro",
            "Chessnut Go",
            "Chessnut air",
        ] {
            assert_eq!(
                pick(&device(name, "A", ""), "auto", &chessnut),
                Pick::Take,
                "{name}"
            );
        }
        for name in ["Chessnut Move", "Chessnut Evo", "Chessnut"] {
            assert_eq!(
                pick(&device(name, "A", ""), "auto", &chessnut),
                Pick::Unsupported,
                "{name}"
            );
        }
        assert_eq!(
            pick(&device("DGT_PEGASUS_1", "A", ""), "auto", &chessnut),
            Pick::Pass
        );
        // Typed by its address, any model is taken.
        assert_eq!(
            pick(
                &device("Chessnut Evo", "D0:0D:CA:FE:00:02", ""),
                "d0:0d:ca:fe:00:02",
                &chessnut
            ),
            Pick::Take
        );
        let pegasus = Profile::of(Kind::Pegasus).unwrap();
        assert_eq!(
            pick(&device("DGT_PEGASUS_1234", "A", ""), "auto", &pegasus),
            Pick::Take
        );
    }

    #[test]
    fn where_every_address_is_zeros_the_name_or_the_id_is_matched() {
        // On macOS btleplug reports 00:00:00:00:00:00 for every device.
        let p = Profile::of(Kind::Chessnut).unwrap();
        let air = device(
            "Chessnut Air",
            NO_ADDRESS,
            "5C3E1F02-8A44-4B7E-9D1A-0F6B2C7D9E11",
        );
        assert_eq!(
            pick(&air, NO_ADDRESS, &p),
            Pick::Pass,
            "zeros match nothing"
        );
        assert_eq!(pick(&air, "chessnut air", &p), Pick::Take);
        assert_eq!(
            pick(&air, "5c3e1f02-8a44-4b7e-9d1a-0f6b2c7d9e11", &p),
            Pick::Take
        );
        assert_eq!(pick(&air, "Chessnut Pro", &p), Pick::Pass);
        let linux = device(
            "Chessnut Air",
            "D0:0D:CA:FE:00:02",
            "hci0/dev_D0_0D_CA_FE_00_02",
        );
        assert_eq!(pick(&linux, "D0:0D:CA:FE:00:02", &p), Pick::Take);
        assert_eq!(pick(&linux, "D0:0D:CA:FE:00:03", &p), Pick::Pass);
    }
}
