//! A Bluetooth LE stack in memory, for tests: [`FakeDevice`] is a board
//! the test plays (it sends notifications, answers writes through a
//! responder, vanishes and returns), [`FakeBle`] the transport the link
//! drives. Harsher than a real stack: notifications split in two or
//! merged with the next, lost, the connection dropped at random points,
//! writes that fail or are slow, all from a seed, so a failure replays.
//! Test support only: the product has no fake stack.
//!
//! Included with `#[path = "support/ble_fake.rs"] mod ble_fake;`.
#![allow(dead_code)]

use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use rochade::ble::TransportFactory;
use rochade::ble::transport::{
    BleError, BleEvent, BleTransport, Device, NO_ADDRESS, Pick, Profile, pick,
};

/// How harsh the stack is. Percentages per notification or write; the
/// link drop per mille.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    /// A notification arrives as two.
    pub split: u8,
    /// A notification is held back and arrives stuck to the next one (the
    /// link's once-a-second request for the board brings the next one).
    pub merge: u8,
    /// A notification never arrives.
    pub lose: u8,
    /// Per mille: the connection drops on a notification or a write.
    pub drop_link: u16,
    /// A write fails.
    pub write_fail: u8,
    /// A write takes this long (ms, lowest and highest).
    pub write_delay_ms: (u64, u64),
    /// A connection attempt fails.
    pub connect_fail: u8,
}

/// What the board does with a write: the notifications it answers with
/// (characteristic, bytes).
pub type Responder = Box<dyn FnMut(&[u8]) -> Vec<(u128, Vec<u8>)> + Send>;

struct DeviceState {
    device: Device,
    present: bool,
    mtu_max: u16,
    faults: Faults,
    rng: u64,
    conn: Option<Sender<BleEvent>>,
    subscribed: Vec<u128>,
    held: Option<Vec<u8>>,
    writes: Vec<(u128, Vec<u8>)>,
    responder: Option<Responder>,
    connections: u64,
    drops: u64,
}

impl DeviceState {
    fn next(&mut self) -> u64 {
        // xorshift64*: small, seeded, the same on every run.
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn chance(&mut self, percent: u8) -> bool {
        percent > 0 && self.next() % 100 < u64::from(percent)
    }

    fn chance_per_mille(&mut self, per_mille: u16) -> bool {
        per_mille > 0 && self.next() % 1000 < u64::from(per_mille)
    }

    fn drop_link(&mut self, reason: &str) {
        if let Some(tx) = self.conn.take() {
            self.drops += 1;
            let _ = tx.send(BleEvent::Disconnected(reason.into()));
        }
        self.subscribed.clear();
        self.held = None;
    }

    fn send(&mut self, characteristic: u128, bytes: Vec<u8>) {
        if self.conn.is_none() || !self.subscribed.contains(&characteristic) {
            return;
        }
        if self.chance_per_mille(self.faults.drop_link) {
            self.drop_link("the device dropped the link");
            return;
        }
        if self.chance(self.faults.lose) {
            return;
        }
        let mut bytes = match self.held.take() {
            Some(mut held) => {
                held.extend(bytes);
                held
            }
            None => bytes,
        };
        if self.chance(self.faults.merge) {
            self.held = Some(bytes);
            return;
        }
        let tx = self.conn.clone().expect("connected");
        if bytes.len() > 1 && self.chance(self.faults.split) {
            let at = 1 + (self.next() % (bytes.len() as u64 - 1)) as usize;
            let rest = bytes.split_off(at);
            let _ = tx.send(BleEvent::Notification {
                characteristic,
                bytes,
            });
            bytes = rest;
        }
        let _ = tx.send(BleEvent::Notification {
            characteristic,
            bytes,
        });
    }
}

/// A board in the fake stack, shared by the test and the transport.
#[derive(Clone)]
pub struct FakeDevice {
    state: Arc<Mutex<DeviceState>>,
}

impl FakeDevice {
    /// A board as btleplug shows it on macOS: every address
    /// `00:00:00:00:00:00`, the system's UUID `id` for the device.
    pub fn on_macos(name: &str, id: &str, seed: u64) -> FakeDevice {
        let d = FakeDevice::new(name, NO_ADDRESS, seed);
        d.lock().device.id = id.into();
        d
    }

    /// A board advertising `name` at `address`, its faults drawn from
    /// `seed`.
    pub fn new(name: &str, address: &str, seed: u64) -> FakeDevice {
        FakeDevice {
            state: Arc::new(Mutex::new(DeviceState {
                device: Device {
                    address: address.into(),
                    name: name.into(),
                    id: address.into(),
                },
                present: true,
                mtu_max: 517,
                faults: Faults::default(),
                rng: seed | 1,
                conn: None,
                subscribed: Vec::new(),
                held: None,
                writes: Vec::new(),
                responder: None,
                connections: 0,
                drops: 0,
            })),
        }
    }

    fn lock(&self) -> MutexGuard<'_, DeviceState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn set_faults(&self, faults: Faults) {
        self.lock().faults = faults;
    }

    /// The largest packet size the device accepts.
    pub fn set_mtu_max(&self, mtu: u16) {
        self.lock().mtu_max = mtu;
    }

    /// What the board answers to each write. It runs with the device
    /// locked: it must not call the device's methods (return the answers).
    pub fn respond(&self, responder: Responder) {
        self.lock().responder = Some(responder);
    }

    /// The board sends a notification (if a host is connected and
    /// subscribed), with the faults applied.
    pub fn notify(&self, characteristic: u128, bytes: &[u8]) {
        self.lock().send(characteristic, bytes.to_vec());
    }

    /// The board is switched off or carried away: the link drops and
    /// scans no longer find it.
    pub fn vanish(&self) {
        let mut s = self.lock();
        s.present = false;
        s.drop_link("the device went out of range");
    }

    /// The board is back.
    pub fn reappear(&self) {
        self.lock().present = true;
    }

    /// The link drops (the board stays).
    pub fn drop_connection(&self) {
        self.lock().drop_link("the device dropped the link");
    }

    /// Everything written to the board, in order.
    pub fn writes(&self) -> Vec<(u128, Vec<u8>)> {
        self.lock().writes.clone()
    }

    pub fn clear_writes(&self) {
        self.lock().writes.clear();
    }

    pub fn is_connected(&self) -> bool {
        self.lock().conn.is_some()
    }

    /// Connections made, and connections dropped by the device.
    pub fn counts(&self) -> (u64, u64) {
        let s = self.lock();
        (s.connections, s.drops)
    }

    fn device(&self) -> Device {
        self.lock().device.clone()
    }
}

/// The fake stack: finds, connects and talks to [`FakeDevice`]s.
pub struct FakeBle {
    devices: Vec<FakeDevice>,
    connected: Option<FakeDevice>,
}

impl FakeBle {
    pub fn new(devices: Vec<FakeDevice>) -> FakeBle {
        FakeBle {
            devices,
            connected: None,
        }
    }

    /// A factory for the link: each call a fresh stack over the same
    /// devices.
    pub fn factory(devices: Vec<FakeDevice>) -> TransportFactory {
        Arc::new(move || Ok(Box::new(FakeBle::new(devices.clone())) as Box<dyn BleTransport>))
    }

    fn current(&self) -> Result<&FakeDevice, BleError> {
        self.connected
            .as_ref()
            .ok_or_else(|| BleError::Failed("not connected".into()))
    }
}

impl BleTransport for FakeBle {
    fn find(
        &mut self,
        wanted: &str,
        profile: &Profile,
        _timeout: Duration,
    ) -> Result<Device, BleError> {
        let present: Vec<Device> = self
            .devices
            .iter()
            .filter(|d| d.lock().present)
            .map(FakeDevice::device)
            .collect();
        let picked = |p: Pick| present.iter().find(|d| pick(d, wanted, profile) == p);
        if let Some(d) = picked(Pick::Take) {
            return Ok(d.clone());
        }
        Err(match picked(Pick::Unsupported) {
            Some(d) => BleError::Unsupported(d.name.clone()),
            None => BleError::NotFound(wanted.into()),
        })
    }

    fn connect(
        &mut self,
        device: &Device,
        timeout: Duration,
    ) -> Result<Receiver<BleEvent>, BleError> {
        let found = self
            .devices
            .iter()
            .find(|d| d.lock().device == *device)
            .cloned()
            .ok_or_else(|| BleError::NotFound(device.address.clone()))?;
        let mut s = found.lock();
        if !s.present {
            return Err(BleError::Failed("the device does not answer".into()));
        }
        let fail = s.faults.connect_fail;
        if s.chance(fail) {
            std::thread::sleep(timeout.min(Duration::from_millis(5)));
            return Err(BleError::TimedOut("connect"));
        }
        s.drop_link("a new connection");
        let (tx, rx) = mpsc::channel();
        s.conn = Some(tx);
        s.connections += 1;
        drop(s);
        self.connected = Some(found);
        Ok(rx)
    }

    fn request_mtu(&mut self, mtu: u16, _timeout: Duration) -> Result<Option<u16>, BleError> {
        let s = self.current()?.lock();
        if s.conn.is_none() {
            return Err(BleError::Failed("not connected".into()));
        }
        Ok(Some(mtu.min(s.mtu_max)))
    }

    fn subscribe(&mut self, characteristic: u128, _timeout: Duration) -> Result<(), BleError> {
        let mut s = self.current()?.lock();
        if s.conn.is_none() {
            return Err(BleError::Failed("not connected".into()));
        }
        s.subscribed.push(characteristic);
        Ok(())
    }

    fn write(
        &mut self,
        characteristic: u128,
        bytes: &[u8],
        timeout: Duration,
    ) -> Result<(), BleError> {
        let device = self.current()?.clone();
        let delay = {
            let mut s = device.lock();
            let (lo, hi) = s.faults.write_delay_ms;
            if hi > lo {
                lo + s.next() % (hi - lo + 1)
            } else {
                lo
            }
        };
        if delay > 0 {
            // A slow radio: the call takes its time, up to its timeout.
            std::thread::sleep(Duration::from_millis(delay).min(timeout));
            if Duration::from_millis(delay) > timeout {
                return Err(BleError::TimedOut("write"));
            }
        }
        let mut s = device.lock();
        if s.conn.is_none() {
            return Err(BleError::Failed("not connected".into()));
        }
        let (drop_link, write_fail) = (s.faults.drop_link, s.faults.write_fail);
        if s.chance_per_mille(drop_link) {
            s.drop_link("the device dropped the link");
            return Err(BleError::Failed("the link dropped during a write".into()));
        }
        if s.chance(write_fail) {
            return Err(BleError::Failed("the write was not acknowledged".into()));
        }
        s.writes.push((characteristic, bytes.to_vec()));
        if let Some(mut responder) = s.responder.take() {
            let answers = responder(bytes);
            s.responder = Some(responder);
            for (c, b) in answers {
                s.send(c, b);
            }
        }
        Ok(())
    }

    fn disconnect(&mut self) {
        if let Some(d) = self.connected.take() {
            let mut s = d.lock();
            s.conn = None;
            s.subscribed.clear();
            s.held = None;
        }
    }
}
