//! The X key code of every key press (shell: an X connection of its own).
//!
//! egui names the keypad's minus, slash and Enter like the main keyboard's
//! (winit knows the difference, egui drops it), but with Num Lock off those
//! keypad keys are Orca's flat review, mouse and "where am I" commands. The
//! X server's XInput 2 raw key events carry the true key code of every
//! press; [`RawKeys::presses`] reads those that arrived so far, after one
//! round trip, so every press of the frame egui reports is among them.

use std::collections::VecDeque;

use x11rb::connection::Connection;
use x11rb::protocol::Event;
use x11rb::protocol::xinput::{ConnectionExt as _, EventMask, XIEventMask};
use x11rb::protocol::xproto::ConnectionExt as _;
use x11rb::rust_connection::RustConnection;

/// Raw key presses of the X display the window is on.
pub struct RawKeys {
    conn: RustConnection,
}

impl RawKeys {
    /// Connects to `$DISPLAY` and asks for raw key presses of every
    /// keyboard; None without X or without XInput 2 (then the keys keep
    /// egui's names).
    pub fn connect() -> Option<RawKeys> {
        let (conn, screen) = x11rb::connect(None).ok()?;
        let root = conn.setup().roots.get(screen)?.root;
        let version = conn.xinput_xi_query_version(2, 2).ok()?.reply().ok()?;
        if version.major_version < 2 {
            return None;
        }
        conn.xinput_xi_select_events(
            root,
            &[EventMask {
                deviceid: 1, // XIAllMasterDevices
                mask: vec![XIEventMask::RAW_KEY_PRESS],
            }],
        )
        .ok()?
        .check()
        .ok()?;
        Some(RawKeys { conn })
    }

    /// The key codes pressed since the last call, oldest first (at most
    /// the last 64: a long-ignored queue is not matched against).
    pub fn presses(&mut self, into: &mut VecDeque<u32>) {
        // A round trip: every event the server sent before its reply is
        // in our queue afterwards.
        if self
            .conn
            .get_input_focus()
            .ok()
            .and_then(|c| c.reply().ok())
            .is_none()
        {
            return;
        }
        while let Ok(Some(event)) = self.conn.poll_for_event() {
            if let Event::XinputRawKeyPress(e) = event {
                into.push_back(e.detail);
            }
        }
        while into.len() > 64 {
            into.pop_front();
        }
    }
}
