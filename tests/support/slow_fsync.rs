//! A slow disk for real: a tiny shared library, compiled here from C with
//! `cc`, that the tests put in front of the C library with `LD_PRELOAD`.
//! Every `fsync` and `fdatasync` of the process waits
//! `ROCHADE_TEST_FSYNC_MS` milliseconds before doing its work, as a slow
//! USB stick or SD card does.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

const SHIM: &str = r#"
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

static void wait_a_while(void) {
    const char *text = getenv("ROCHADE_TEST_FSYNC_MS");
    if (!text) return;
    long ms = atol(text);
    struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&t, &t) != 0) {}
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    wait_a_while();
    return real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    wait_a_while();
    return real(fd);
}
"#;

/// The shim's path (compiled once per test binary).
pub fn shim() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let dir = tempfile::tempdir().unwrap().keep();
            let source = dir.join("slow_fsync.c");
            std::fs::write(&source, SHIM).unwrap();
            let library = dir.join("libslow_fsync.so");
            let status = Command::new("cc")
                .args(["-shared", "-fPIC", "-O2", "-o"])
                .arg(&library)
                .arg(&source)
                .arg("-ldl")
                .status()
                .expect("a C compiler (cc) is needed for the slow-disk tests");
            assert!(status.success(), "cc failed: {status}");
            library
        })
        .clone()
}

/// Makes `command` see a disk whose every sync takes `ms` milliseconds.
pub fn slow_disk(command: &mut Command, ms: u64) -> &mut Command {
    command
        .env("LD_PRELOAD", shim())
        .env("ROCHADE_TEST_FSYNC_MS", ms.to_string())
}
