//! The `rochade board-sim` binary as a board on a pseudo-terminal, for the
//! tests that drive a real serial link: started with its arguments, it
//! prints the device first and then takes typed commands.

// Each test file uses the parts it needs.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};

pub struct Sim {
    child: Child,
    stdin: ChildStdin,
    /// The pseudo-terminal the simulated board talks on.
    pub device: String,
}

impl Sim {
    /// Starts `rochade board-sim ARGS` and waits for its device line.
    pub fn start(args: &[&str]) -> Sim {
        let mut child = super::hermetic::rochade()
            .arg("board-sim")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("board-sim starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let device = first.trim().to_owned();
        assert!(device.starts_with("/dev/"), "the device first: {first:?}");
        let stdin = child.stdin.take().unwrap();
        Sim {
            child,
            stdin,
            device,
        }
    }

    /// One typed command ("move e2e4", "unplug", ...).
    pub fn say(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Ends the simulator and checks it ended cleanly.
    pub fn quit(mut self) {
        self.say("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success());
    }
}

impl Drop for Sim {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}
