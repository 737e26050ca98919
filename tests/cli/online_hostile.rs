//! The online client against servers that are broken or hostile, each a
//! few lines of raw TCP on 127.0.0.1: a head or a line dripped a byte at
//! a time, a line that never ends, an answer of hundreds of megabytes,
//! escape sequences and 100 KB names, lines cut and merged every way, a
//! server that accepts and hangs up at once. The client must give up in
//! bounded time and memory, say why, and pass on only clean text.
//!
//! Waits here are deadlines on what the client reports (`recv_timeout`),
//! never sleeps that a result depends on.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rochade::online::{ApiError, Client, StreamMsg, Timing, Token, spawn_stream};
use rochade_core::online::GameLine;

/// Short timings, so each fault shows within a second or two.
fn timing() -> Timing {
    Timing {
        connect: Duration::from_millis(500),
        stream_silence: Duration::from_millis(700),
        request: Duration::from_millis(700),
        backoff: Duration::from_millis(50),
        backoff_max: Duration::from_millis(400),
        rate_limit_wait: Duration::from_millis(50),
    }
}

fn client(url: &str) -> Client {
    Client::new(url, Token::new("lip_hostile").unwrap(), timing())
}

/// A server that hands every connection to `serve` on a thread of its own;
/// counts the connections.
struct Hostile {
    url: String,
    connections: Arc<AtomicUsize>,
    done: Arc<AtomicBool>,
}

impl Hostile {
    fn start(serve: impl Fn(TcpStream, usize) + Send + Sync + 'static) -> Hostile {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let connections = Arc::new(AtomicUsize::new(0));
        let done = Arc::new(AtomicBool::new(false));
        let serve = Arc::new(serve);
        let (count, stop) = (connections.clone(), done.clone());
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let Ok(conn) = conn else { continue };
                let n = count.fetch_add(1, Ordering::SeqCst);
                let serve = serve.clone();
                std::thread::spawn(move || {
                    read_head(&conn);
                    serve(conn, n);
                });
            }
        });
        Hostile {
            url,
            connections,
            done,
        }
    }
}

impl Drop for Hostile {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
    }
}

/// Reads a request's head (and a short form body, if any).
fn read_head(conn: &TcpStream) {
    let mut reader = BufReader::new(conn);
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
            break;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    let _ = reader.read_exact(&mut body);
}

const STREAM_HEAD: &str =
    "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n";

fn chunk(conn: &mut TcpStream, bytes: &[u8]) -> std::io::Result<()> {
    write!(conn, "{:x}\r\n", bytes.len())?;
    conn.write_all(bytes)?;
    conn.write_all(b"\r\n")?;
    conn.flush()
}

type Msg = StreamMsg<GameLine>;

fn follow(url: &str) -> (Receiver<Msg>, Arc<AtomicBool>) {
    let (tx, rx) = channel();
    let stop = Arc::new(AtomicBool::new(false));
    spawn_stream(
        client(url),
        "/api/board/game/stream/g".into(),
        stop.clone(),
        tx,
        |m| m,
    );
    (rx, stop)
}

/// The next report within `within`, or the test fails saying what it waited for.
fn next(rx: &Receiver<Msg>, within: Duration, what: &str) -> Msg {
    rx.recv_timeout(within)
        .unwrap_or_else(|_| panic!("nothing within {within:?}: waited for {what}"))
}

fn dropped_reason(msg: Msg) -> String {
    match msg {
        StreamMsg::Dropped { reason, .. } => reason.to_string(),
        other => panic!("expected a drop, got {other:?}"),
    }
}

/// The peak memory of this process (VmHWM), in KB.
fn peak_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap()
}

#[test]
fn a_head_dripped_a_byte_at_a_time_is_given_up_in_bounded_time() {
    let server = Hostile::start(|mut conn, _| {
        for b in STREAM_HEAD.bytes().cycle() {
            if conn.write_all(&[b]).is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    let (rx, stop) = follow(&server.url);
    let started = Instant::now();
    let reason = dropped_reason(next(&rx, Duration::from_secs(5), "a drop"));
    // connect + silence = 1.2 s, and a little slack for a loaded machine.
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert!(reason.contains("did not answer in time"), "{reason}");
    stop.store(true, Ordering::Relaxed);
}

#[test]
fn a_line_dripped_a_byte_at_a_time_counts_as_silence() {
    let server = Hostile::start(|mut conn, n| {
        let _ = conn.write_all(STREAM_HEAD.as_bytes());
        if n == 0 {
            // Bytes keep coming, a line never completes.
            for b in "{\"type\":\"chatLine\",\"username\":\"x\",\"text\":\""
                .bytes()
                .cycle()
            {
                if chunk(&mut conn, &[b]).is_err() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        let line =
            b"{\"type\":\"chatLine\",\"username\":\"opp\",\"text\":\"hi\",\"room\":\"player\"}\n";
        let _ = chunk(&mut conn, line);
        std::thread::sleep(Duration::from_secs(3));
    });
    let (rx, stop) = follow(&server.url);
    let started = Instant::now();
    let reason = dropped_reason(next(&rx, Duration::from_secs(5), "a drop"));
    assert!(reason.contains("no line from the server"), "{reason}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    // Then it reconnects and reads the next connection's line.
    assert!(matches!(
        next(&rx, Duration::from_secs(5), "back"),
        StreamMsg::Back
    ));
    match next(&rx, Duration::from_secs(5), "the chat line") {
        StreamMsg::Line(GameLine::ChatLine(chat)) => assert_eq!(chat.text, "hi"),
        other => panic!("{other:?}"),
    }
    stop.store(true, Ordering::Relaxed);
}

#[test]
fn a_line_that_never_ends_is_cut_off_in_bounded_memory() {
    let server = Hostile::start(|mut conn, _| {
        let _ = conn.write_all(STREAM_HEAD.as_bytes());
        let block = vec![b'x'; 64 * 1024];
        // Up to 2 GB, as fast as the client reads it.
        for _ in 0..32 * 1024 {
            if chunk(&mut conn, &block).is_err() {
                return;
            }
        }
    });
    let before = peak_kb();
    let (rx, stop) = follow(&server.url);
    let reason = dropped_reason(next(&rx, Duration::from_secs(10), "a drop"));
    assert!(reason.contains("a line longer than"), "{reason}");
    stop.store(true, Ordering::Relaxed);
    let grown = peak_kb().saturating_sub(before);
    assert!(grown < 64 * 1024, "the client grew by {grown} KB");
}

#[test]
fn lines_cut_and_merged_every_way_all_arrive_in_order_and_clean() {
    // 30 chat lines with escape sequences, in chunks of 1 to 97 bytes,
    // keep-alives between them.
    let mut text = String::new();
    for i in 0..30 {
        let line = serde_json::json!({
            "type": "chatLine",
            "username": format!("opp\u{1b}[2J{i}"),
            "text": format!("line {i} \u{1b}]0;pwned\u{7}\u{202e}end"),
            "room": "player",
        });
        text.push_str(&line.to_string());
        text.push('\n');
        if i % 3 == 0 {
            text.push('\n');
        }
    }
    let bytes = text.into_bytes();
    let server = Hostile::start(move |mut conn, _| {
        let _ = conn.write_all(STREAM_HEAD.as_bytes());
        let mut at = 0;
        let mut size = 1;
        while at < bytes.len() {
            let end = (at + size).min(bytes.len());
            if chunk(&mut conn, &bytes[at..end]).is_err() {
                return;
            }
            at = end;
            size = size * 7 % 97 + 1;
        }
        std::thread::sleep(Duration::from_secs(3));
    });
    let (rx, stop) = follow(&server.url);
    for i in 0..30 {
        match next(&rx, Duration::from_secs(5), "a chat line") {
            StreamMsg::Line(GameLine::ChatLine(chat)) => {
                assert_eq!(chat.username, format!("opp[2J{i}"));
                assert_eq!(chat.text, format!("line {i} ]0;pwnedend"));
                assert!(!chat.text.chars().any(char::is_control));
            }
            other => panic!("line {i}: {other:?}"),
        }
    }
    stop.store(true, Ordering::Relaxed);
}

#[test]
fn a_huge_name_reaches_the_client_cut_short() {
    let server = Hostile::start(|mut conn, _| {
        let line = serde_json::json!({
            "type": "chatLine", "username": "n".repeat(100_000), "text": "hi", "room": "player",
        });
        let _ = conn.write_all(STREAM_HEAD.as_bytes());
        let _ = chunk(&mut conn, format!("{line}\n").as_bytes());
        std::thread::sleep(Duration::from_secs(3));
    });
    let (rx, stop) = follow(&server.url);
    match next(&rx, Duration::from_secs(5), "the chat line") {
        StreamMsg::Line(GameLine::ChatLine(chat)) => {
            assert!(
                chat.username.chars().count() <= 301,
                "{}",
                chat.username.len()
            );
        }
        other => panic!("{other:?}"),
    }
    stop.store(true, Ordering::Relaxed);
}

#[test]
fn a_server_that_answers_and_hangs_up_at_once_is_called_back_ever_more_slowly() {
    // It opens the stream, sends a keep-alive and closes: a working
    // connection for an instant, every time.
    let server = Hostile::start(|mut conn, _| {
        let _ = conn.write_all(STREAM_HEAD.as_bytes());
        let _ = chunk(&mut conn, b"\n");
        let _ = conn.write_all(b"0\r\n\r\n");
    });
    let (rx, stop) = follow(&server.url);
    let started = Instant::now();
    let mut drops = 0;
    while started.elapsed() < Duration::from_secs(3) {
        if let Ok(StreamMsg::Dropped { .. }) = rx.recv_timeout(Duration::from_millis(100)) {
            drops += 1;
        }
    }
    stop.store(true, Ordering::Relaxed);
    let n = server.connections.load(Ordering::SeqCst);
    // A backoff started again at every connection would call back every
    // 50 ms: ~60 connections in 3 s. Growing to 400 ms (with jitter of a
    // half either way) it is at most ~17.
    assert!(n <= 20, "{n} connections in 3 s");
    assert!(n >= 3, "{n} connections: it must keep trying");
    assert!(drops >= n - 1, "{drops} drops reported for {n} connections");
}

#[test]
fn a_request_answered_a_byte_at_a_time_fails_within_its_deadline() {
    let server = Hostile::start(|mut conn, _| {
        for b in "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n{\"ok\":"
            .bytes()
            .chain(std::iter::repeat(b' '))
        {
            if conn.write_all(&[b]).is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    });
    let started = Instant::now();
    let result = client(&server.url).post("/api/board/game/g/move/e2e4", &[]);
    assert!(matches!(result, Err(ApiError::Network(_))), "{result:?}");
    // connect + request = 1.2 s.
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_huge_answer_is_refused_without_reading_it_all() {
    let sent = Arc::new(Mutex::new(0usize));
    let counter = sent.clone();
    let server = Hostile::start(move |mut conn, _| {
        let _ = conn.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 300000000\r\n\r\n");
        let block = vec![b' '; 64 * 1024];
        for _ in 0..(300_000_000 / block.len()) {
            if conn.write_all(&block).is_err() {
                return;
            }
            *counter.lock().unwrap() += block.len();
        }
    });
    let before = peak_kb();
    let result = client(&server.url).get_json("/api/account");
    match result {
        Err(ApiError::Network(reason)) => assert!(reason.contains("longer than"), "{reason}"),
        other => panic!("{other:?}"),
    }
    let grown = peak_kb().saturating_sub(before);
    assert!(grown < 64 * 1024, "the client grew by {grown} KB");
}

#[test]
fn an_error_answer_is_said_without_its_escape_sequences() {
    let server = Hostile::start(|mut conn, _| {
        let body =
            serde_json::json!({"error": "bad\u{1b}]0;title\u{7} move\n\u{200b}now"}).to_string();
        let _ = write!(
            conn,
            "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
    });
    let result = client(&server.url).post("/api/board/game/g/move/e2e4", &[]);
    match result {
        Err(ApiError::Refused {
            status: 400,
            reason,
        }) => {
            assert_eq!(reason, "bad]0;title move now");
        }
        other => panic!("{other:?}"),
    }
}
