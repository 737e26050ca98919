#!/usr/bin/env python3
"""A Board API server that frames its streams as Lichess does, written apart
from the Rust test server (tests/support/lichess_server.rs) and from the
client, from the Lichess API documentation and what lichess-bot's test
double sends:

* every stream is HTTP/1.1 `Transfer-Encoding: chunked`, content type
  `application/x-ndjson`, ONE chunk per NDJSON line (the line's `\\n` inside
  the chunk), a chunk holding only `\\n` as the keep-alive;
* `gameFull` with the `type` field near the end (as lichess-bot's recorded
  line has it) and its `state` a `gameState` object;
* a dropped stream is a socket closed mid-stream WITHOUT the terminating
  zero-length chunk (the client's HTTP library sees a broken chunked body);
* a reconnection's `gameFull` carries every move made meanwhile.

Faults are given per game (JSON on argv[1]); python-chess checks every move
the client posts. Prints `PORT <n>` on stdout once listening; logs what it
did on stderr. Stops when stdin closes (its test is gone).
"""
import json
import socket
import sys
import threading
import time

import chess

CFG = json.loads(sys.argv[1])
ACCOUNT = CFG.get("account", "blindplayer")
TOKEN = CFG["token"]
GAME_ID = CFG.get("game_id", "EmuGame1")
MOVES = CFG["moves"]  # the whole game, UCI
ME_WHITE = CFG.get("account_white", True)
KEEP_ALIVE_S = CFG.get("keep_alive_s", 6.0)
REPLY_S = CFG.get("reply_s", 0.05)
# Plies (0-based index into MOVES) of the PLAYER's moves after whose echo
# the game stream is cut; "during": the reply is made while no stream is
# open (reconnections refused until it is made); "after": the reply comes
# only once a new stream was opened.
DROPS = {int(k): v for k, v in CFG.get("drops", {}).items()}
OUTAGE_S = CFG.get("outage_s", 0.5)
# Plies of the OPPONENT's moves that come right after a chat line, two
# chunks written back to back.
CHAT_AT = set(CFG.get("chat_at", []))
# Plies of the opponent's moves written in the same TCP write as the echo
# of the player's move before them (two chunks, one segment).
MERGED_AT = set(CFG.get("merged_at", []))

CHAT = {"type": "chatLine", "username": "EmuOpponent",
        "text": "Good luck, have fun!", "room": "player"}

# {"ply": n, "seconds": s}: the player's move at ply n is answered with a
# redirect (a captive portal's login page) for s seconds after its first
# try; any GET of the portal's page answers HTML.
REDIRECT = CFG.get("redirect")
redirect_until = None
counts = {"requests": 0, "redirects": 0}
# When each of the player's moves reached the server (seconds since the
# epoch), for the tests that time the client.
posted_at = []

lock = threading.RLock()
board = chess.Board()
moves = []
streams = []  # open game-stream sockets
event_streams = []  # open incoming-event stream sockets
refuse_streams_until = 0.0
hold_reply = set()  # plies whose reply waits for a new stream
log_lines = []


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def chunk(line: str) -> bytes:
    data = line.encode() + b"\n" if line else b"\n"
    return b"%x\r\n" % len(data) + data + b"\r\n"


def state_obj():
    n = len(moves)
    return {
        "type": "gameState",
        "moves": " ".join(moves),
        "wtime": 900000 - 1000 * (n // 2),
        "btime": 900000 - 1000 * ((n + 1) // 2),
        "winc": 10000,
        "binc": 10000,
        "status": status(),
        **({"winner": winner()} if winner() else {}),
    }


def status():
    if board.is_checkmate():
        return "mate"
    if board.is_stalemate():
        return "stalemate"
    if len(moves) >= len(MOVES):
        # The game's end as the record has it: the last mover's opponent
        # resigns unless it was mate.
        return "resign"
    return "started"


def winner():
    s = status()
    if s == "mate":
        return "black" if board.turn == chess.WHITE else "white"
    if s == "resign":
        # The side that made the last move wins.
        return "white" if len(moves) % 2 == 1 else "black"
    return None


def game_full():
    me = {"id": ACCOUNT, "name": "BlindPlayer", "rating": 1500}
    them = {"id": "emuopponent", "name": "EmuOpponent", "rating": 1600}
    white, black = (me, them) if ME_WHITE else (them, me)
    # Field order as lichess-bot's recorded gameFull: "type" near the end.
    return {
        "id": GAME_ID,
        "variant": {"key": "standard", "name": "Standard", "short": "Std"},
        "clock": {"initial": 900000, "increment": 10000},
        "speed": "classical",
        "perf": {"name": "Classical"},
        "rated": False,
        "createdAt": 1700000000000,
        "white": white,
        "black": black,
        "initialFen": "startpos",
        "type": "gameFull",
        "state": state_obj(),
    }


def send_all(raw: bytes):
    """Writes raw bytes to every open game stream; a dead one is dropped."""
    with lock:
        for s in list(streams):
            try:
                s.sendall(raw)
            except OSError:
                streams.remove(s)


def cut_streams():
    """Every stream closed mid-body (no zero-length chunk), as a network
    that goes away cuts them all."""
    with lock:
        for s in streams + event_streams:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()
        streams.clear()
        event_streams.clear()


def opponent_reply(ply):
    """The opponent's move at `ply`, with its faults."""
    global refuse_streams_until
    with lock:
        if ply >= len(MOVES) or len(moves) != ply:
            return
        mv = MOVES[ply]
        board.push_uci(mv)
        moves.append(mv)
        log(f"opponent {mv} (ply {ply})")
        raw = b""
        if ply in CHAT_AT:
            raw += chunk(json.dumps(CHAT))
        raw += chunk(json.dumps(state_obj()))
        send_all(raw)
        if (ply - 1) in DROPS and DROPS[ply - 1].startswith("during"):
            # The reply is made: reconnections may come in now.
            refuse_streams_until = 0.0


def player_move(uci):
    """POST move: legal and the player's turn, or 400; a redirect while
    one is asked for."""
    global refuse_streams_until, redirect_until
    with lock:
        ply = len(moves)
        if REDIRECT and ply == REDIRECT["ply"]:
            if redirect_until is None:
                redirect_until = time.time() + REDIRECT["seconds"]
            if time.time() < redirect_until:
                counts["redirects"] += 1
                return 302, None
        mine = (ply % 2 == 0) == ME_WHITE
        try:
            mv = chess.Move.from_uci(uci)
        except ValueError:
            return 400, {"error": "Not a move"}
        if not mine or mv not in board.legal_moves:
            return 400, {"error": f"Not your turn, or an illegal move: {uci}"}
        board.push(mv)
        moves.append(uci)
        posted_at.append(time.time())
        log(f"player {uci} (ply {ply})")
        echo = chunk(json.dumps(state_obj()))
        reply_ply = ply + 1
        if ply in DROPS:
            if not DROPS[ply].endswith("-noecho"):
                send_all(echo)
            cut_streams()
            if DROPS[ply].startswith("during"):
                refuse_streams_until = float("inf")
                threading.Timer(OUTAGE_S, opponent_reply, (reply_ply,)).start()
            else:
                refuse_streams_until = time.time() + OUTAGE_S
                hold_reply.add(reply_ply)
        elif reply_ply in MERGED_AT:
            # The echo, a chat line (where asked) and the reply in one
            # write, before the move's own answer.
            board.push_uci(MOVES[reply_ply])
            moves.append(MOVES[reply_ply])
            log(f"opponent {MOVES[reply_ply]} (ply {reply_ply}, merged)")
            raw = echo
            if reply_ply in CHAT_AT:
                raw += chunk(json.dumps(CHAT))
            send_all(raw + chunk(json.dumps(state_obj())))
            time.sleep(0.05)
        else:
            send_all(echo)
            threading.Timer(REPLY_S, opponent_reply, (reply_ply,)).start()
        return 200, {"ok": True}


def respond(conn, status_code, body):
    if status_code == 302:
        conn.sendall(b"HTTP/1.1 302 Found\r\nLocation: http://portal.invalid/login\r\n"
                     b"Content-Length: 0\r\n\r\n")
        return
    data = json.dumps(body).encode()
    reason = {200: "OK", 400: "Bad Request", 401: "Unauthorized",
              404: "Not Found", 503: "Service Unavailable"}[status_code]
    conn.sendall(b"HTTP/1.1 %d %s\r\nContent-Type: application/json\r\n"
                 b"Content-Length: %d\r\n\r\n" % (status_code, reason.encode(), len(data)) + data)


def start_stream(conn):
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\n"
                 b"Transfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n")


def keep_alive(conn, alive):
    while alive():
        time.sleep(KEEP_ALIVE_S)
        try:
            conn.sendall(chunk(""))
        except OSError:
            return


def handle(conn):
    try:
        f = conn.makefile("rb")
        while True:
            line = f.readline()
            if not line:
                return
            method, path, _ = line.decode().split(" ", 2)
            headers = {}
            while True:
                h = f.readline().decode().strip()
                if not h:
                    break
                k, v = h.split(":", 1)
                headers[k.strip().lower()] = v.strip()
            length = int(headers.get("content-length", "0"))
            if length:
                f.read(length)
            if path == "/test/record":
                # For the test only: the server's record of the game.
                with lock:
                    respond(conn, 200, {"moves": moves, "status": status(),
                                        "posted_at": posted_at, **counts})
                continue
            with lock:
                counts["requests"] += 1
            if headers.get("authorization") != f"Bearer {TOKEN}":
                respond(conn, 401, {"error": "No such token"})
                continue
            if path == "/api/account":
                respond(conn, 200, {"id": ACCOUNT, "username": "BlindPlayer"})
            elif path == "/api/stream/event":
                start_stream(conn)
                ev = {"type": "gameStart", "game": {
                    "gameId": GAME_ID, "fullId": GAME_ID + "abcd",
                    "color": "white" if ME_WHITE else "black",
                    "fen": board.fen(), "hasMoved": False, "isMyTurn": True,
                    "lastMove": "", "opponent": {"id": "emuopponent",
                                                 "username": "EmuOpponent",
                                                 "rating": 1600},
                    "perf": "classical", "rated": False, "secondsLeft": 900,
                    "source": "friend", "speed": "classical",
                    "variant": {"key": "standard", "name": "Standard"},
                    "compat": {"bot": False, "board": True}}}
                conn.sendall(chunk(json.dumps(ev)))
                with lock:
                    event_streams.append(conn)
                keep_alive(conn, lambda: conn in event_streams)
                return
            elif path == f"/api/board/game/stream/{GAME_ID}":
                if time.time() < refuse_streams_until:
                    respond(conn, 503, {"error": "Service Unavailable"})
                    return
                start_stream(conn)
                with lock:
                    conn.sendall(chunk(json.dumps(game_full())))
                    streams.append(conn)
                    if not ME_WHITE and not moves:
                        # White, the opponent, opens the game.
                        threading.Timer(REPLY_S, opponent_reply, (0,)).start()
                    held = [p for p in hold_reply if p == len(moves)]
                    for p in held:
                        hold_reply.discard(p)
                        threading.Timer(REPLY_S + 0.2, opponent_reply, (p,)).start()
                    if status() != "started":
                        # The game is over: the stream ends cleanly.
                        conn.sendall(b"0\r\n\r\n")
                        streams.remove(conn)
                        return
                keep_alive(conn, lambda: conn in streams)
                return
            elif path.startswith(f"/api/board/game/{GAME_ID}/move/"):
                code, body = player_move(path.rsplit("/", 1)[1])
                respond(conn, code, body)
            elif path.startswith(f"/api/board/game/{GAME_ID}/"):
                respond(conn, 200, {"ok": True})
            else:
                respond(conn, 404, {"error": "Not found"})
    except (OSError, ValueError) as e:
        log(f"connection: {e}")
    finally:
        try:
            conn.close()
        except OSError:
            pass


def main():
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(64)
    print(f"PORT {srv.getsockname()[1]}", flush=True)
    def watch_stdin():
        sys.stdin.read()
        log(json.dumps({"moves": moves, "status": status()}))
        import os
        os._exit(0)
    threading.Thread(target=watch_stdin, daemon=True).start()
    while True:
        try:
            conn, _ = srv.accept()
        except OSError:
            return
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=handle, args=(conn,), daemon=True).start()


if __name__ == "__main__":
    main()
