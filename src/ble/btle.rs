//! The system's Bluetooth LE stack through `btleplug` (BlueZ over D-Bus on
//! Linux, CoreBluetooth on macOS, WinRT on Windows). btleplug is async: the
//! transport owns a small tokio runtime (one worker, which also forwards
//! notifications and disconnections to the link's channel) and runs each
//! call to completion inside its timeout, so the link thread stays plain
//! blocking code.
//!
//! Never tried on a real board here (no Bluetooth on the build machines):
//! see `docs/boards-ble.md`.

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use btleplug::api::{
    Central, CentralEvent, Characteristic, Manager as _, Peripheral as _, ScanFilter, WriteType,
};
use btleplug::platform::{Adapter, Manager, Peripheral};
use futures::StreamExt;

use super::TransportFactory;
use super::transport::{BleError, BleEvent, BleTransport, Device, Pick, Profile, pick};

/// How often a running scan is looked at for the board.
const SCAN_POLL: Duration = Duration::from_millis(200);

/// Makes the system's stack (in the link thread).
pub fn factory() -> TransportFactory {
    Arc::new(|| Ok(Box::new(Btle::new()?) as Box<dyn BleTransport>))
}

/// The system's Bluetooth LE stack.
pub struct Btle {
    runtime: tokio::runtime::Runtime,
    adapter: Adapter,
    /// What the last scan found.
    found: Vec<(Device, Peripheral)>,
    peripheral: Option<Peripheral>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

fn failed(e: btleplug::Error) -> BleError {
    BleError::Failed(e.to_string())
}

impl Btle {
    /// Opens the first Bluetooth adapter (in at most 5 s: a D-Bus that
    /// does not answer is an error, not a hang).
    pub fn new() -> Result<Btle, BleError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("ble-runtime")
            .enable_time()
            .build()
            .map_err(|e| BleError::NoAdapter(e.to_string()))?;
        let adapter = runtime
            .block_on(async {
                tokio::time::timeout(Duration::from_secs(5), async {
                    let manager = Manager::new().await?;
                    let adapters = manager.adapters().await?;
                    Ok::<_, btleplug::Error>(adapters.into_iter().next())
                })
                .await
            })
            .map_err(|_| BleError::TimedOut("opening the adapter"))?
            .map_err(|e| BleError::NoAdapter(e.to_string()))?
            .ok_or_else(|| BleError::NoAdapter("the system lists none".into()))?;
        Ok(Btle {
            runtime,
            adapter,
            found: Vec::new(),
            peripheral: None,
            tasks: Vec::new(),
        })
    }

    /// Runs `fut` to its end, or gives up after `timeout`.
    fn block<T>(
        &self,
        what: &'static str,
        timeout: Duration,
        fut: impl Future<Output = Result<T, btleplug::Error>>,
    ) -> Result<T, BleError> {
        self.runtime
            .block_on(async { tokio::time::timeout(timeout, fut).await })
            .map_err(|_| BleError::TimedOut(what))?
            .map_err(failed)
    }

    fn characteristic(&self, uuid: u128) -> Result<(Peripheral, Characteristic), BleError> {
        let p = self
            .peripheral
            .clone()
            .ok_or_else(|| BleError::Failed("not connected".into()))?;
        let wanted = uuid::Uuid::from_u128(uuid);
        let c = p
            .characteristics()
            .into_iter()
            .find(|c| c.uuid == wanted)
            .ok_or(BleError::NoCharacteristic(uuid))?;
        Ok((p, c))
    }

    /// Every device the running scan has seen, with its name.
    fn seen(&self, timeout: Duration) -> Result<Vec<(Device, Peripheral)>, BleError> {
        let adapter = self.adapter.clone();
        self.block("scan", timeout, async move {
            let mut out = Vec::new();
            for p in adapter.peripherals().await? {
                let name = p
                    .properties()
                    .await?
                    .and_then(|props| props.local_name)
                    .unwrap_or_default();
                let address = p.address().to_string();
                let id = p.id().to_string();
                out.push((Device { address, name, id }, p));
            }
            Ok(out)
        })
    }
}

impl BleTransport for Btle {
    fn find(
        &mut self,
        wanted: &str,
        profile: &Profile,
        timeout: Duration,
    ) -> Result<Device, BleError> {
        let adapter = self.adapter.clone();
        self.block("starting a scan", timeout, async move {
            adapter.start_scan(ScanFilter::default()).await
        })?;
        let until = Instant::now() + timeout;
        let result = loop {
            let seen = self.seen(timeout)?;
            let hit = seen
                .iter()
                .find(|(d, _)| pick(d, wanted, profile) == Pick::Take);
            if let Some((d, _)) = hit {
                let d = d.clone();
                self.found = seen;
                break Ok(d);
            }
            if Instant::now() >= until {
                let unsupported = seen
                    .iter()
                    .find(|(d, _)| pick(d, wanted, profile) == Pick::Unsupported);
                break Err(match unsupported {
                    Some((d, _)) => BleError::Unsupported(d.name.clone()),
                    None if wanted.eq_ignore_ascii_case("auto") => {
                        BleError::NotFound(format!("named {}...", profile.name_prefix))
                    }
                    None => BleError::NotFound(wanted.to_owned()),
                });
            }
            std::thread::sleep(SCAN_POLL);
        };
        let adapter = self.adapter.clone();
        let _ = self.block("stopping the scan", timeout, async move {
            adapter.stop_scan().await
        });
        result
    }

    fn connect(
        &mut self,
        device: &Device,
        timeout: Duration,
    ) -> Result<Receiver<BleEvent>, BleError> {
        let p = self
            .found
            .iter()
            .find(|(d, _)| d == device)
            .map(|(_, p)| p.clone())
            .ok_or_else(|| BleError::NotFound(device.address.clone()))?;
        let q = p.clone();
        self.block("connect", timeout, async move {
            q.connect().await?;
            q.discover_services().await
        })?;
        let (tx, rx) = mpsc::channel();
        // Notifications and the loss of this device go to the channel.
        let q = p.clone();
        let notes_tx = tx.clone();
        let notes = self.block(
            "subscribing",
            timeout,
            async move { q.notifications().await },
        )?;
        self.tasks.push(self.runtime.spawn(async move {
            let mut notes = notes;
            while let Some(n) = notes.next().await {
                let event = BleEvent::Notification {
                    characteristic: n.uuid.as_u128(),
                    bytes: n.value,
                };
                if notes_tx.send(event).is_err() {
                    return;
                }
            }
            let _ = notes_tx.send(BleEvent::Disconnected("the notifications ended".into()));
        }));
        let adapter = self.adapter.clone();
        let central = self.block("watching the link", timeout, async move {
            adapter.events().await
        })?;
        let id = p.id();
        self.tasks.push(self.runtime.spawn(async move {
            let mut central = central;
            while let Some(e) = central.next().await {
                if let CentralEvent::DeviceDisconnected(gone) = e
                    && gone == id
                {
                    let _ = tx.send(BleEvent::Disconnected("the device disconnected".into()));
                    return;
                }
            }
        }));
        self.peripheral = Some(p);
        Ok(rx)
    }

    fn request_mtu(&mut self, _mtu: u16, _timeout: Duration) -> Result<Option<u16>, BleError> {
        // btleplug cannot ask for a size on the desktop stacks: BlueZ and
        // CoreBluetooth negotiate the largest they can by themselves. It
        // reports the size when the stack tells it, else the default 23.
        let p = self
            .peripheral
            .as_ref()
            .ok_or_else(|| BleError::Failed("not connected".into()))?;
        let mtu = p.mtu();
        Ok((mtu > btleplug::api::DEFAULT_MTU_SIZE).then_some(mtu))
    }

    fn subscribe(&mut self, characteristic: u128, timeout: Duration) -> Result<(), BleError> {
        let (p, c) = self.characteristic(characteristic)?;
        self.block("subscribe", timeout, async move { p.subscribe(&c).await })
    }

    fn write(
        &mut self,
        characteristic: u128,
        bytes: &[u8],
        timeout: Duration,
    ) -> Result<(), BleError> {
        let (p, c) = self.characteristic(characteristic)?;
        let kind = if c
            .properties
            .contains(btleplug::api::CharPropFlags::WRITE_WITHOUT_RESPONSE)
        {
            WriteType::WithoutResponse
        } else {
            WriteType::WithResponse
        };
        let bytes = bytes.to_vec();
        self.block(
            "write",
            timeout,
            async move { p.write(&c, &bytes, kind).await },
        )
    }

    fn disconnect(&mut self) {
        for t in self.tasks.drain(..) {
            t.abort();
        }
        if let Some(p) = self.peripheral.take() {
            let _ = self.block("disconnect", Duration::from_secs(2), async move {
                p.disconnect().await
            });
        }
    }
}

impl Drop for Btle {
    fn drop(&mut self) {
        self.disconnect();
    }
}
