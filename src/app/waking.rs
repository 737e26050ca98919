//! Messages from the app's threads (board links, the probe, online play),
//! handed on to the window so that each one wakes it.

use std::sync::mpsc;

/// What a thread sends on `rx`, handed on to the window: each message
/// wakes it (`wake`), so it is taken in the next frame, not at the next
/// key press.
pub(super) fn forward_waking<T: Send + 'static>(
    name: &str,
    rx: mpsc::Receiver<T>,
    wake: impl Fn() + Send + 'static,
) -> std::io::Result<mpsc::Receiver<T>> {
    let (tx, forwarded) = mpsc::channel();
    std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            for message in rx {
                if tx.send(message).is_err() {
                    return;
                }
                wake();
            }
        })?;
    Ok(forwarded)
}
