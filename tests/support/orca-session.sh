#!/bin/bash
# A private, headless desktop with Debian's Orca screen reader, for tests
# and for trying the app by hand (see docs/screen-readers.md).
#
#   tests/support/orca-session.sh DIR
#
# Starts, all private to DIR (HOME, XDG dirs, runtime dir): Xvfb with the
# openbox window manager, a D-Bus session bus, the AT-SPI bus, PulseAudio
# with a null sink (speech-dispatcher and espeak-ng talk into it), and Orca
# with its debug log in DIR/orca-debug.log, written line by line (a patched
# copy of /usr/bin/orca: Orca's own file is block-buffered).
# When everything runs, it writes DIR/env (KEY=VALUE lines a client needs:
# DISPLAY, DBUS_SESSION_BUS_ADDRESS, HOME, XDG_*) and waits; TERM or INT
# stops everything it started. A missing program is an error (exit 2).
set -u
dir=${1:?usage: orca-session.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

for tool in Xvfb openbox dbus-daemon pulseaudio orca speech-dispatcher /usr/bin/python3 \
  /usr/libexec/at-spi-bus-launcher; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "orca-session: '$tool' is missing (apt install orca at-spi2-core dbus-x11" \
      "python3-pyatspi xvfb xdotool openbox speech-dispatcher" \
      "speech-dispatcher-espeak-ng espeak-ng pulseaudio)" >&2
    exit 2
  fi
done

export HOME=$dir/home XDG_CONFIG_HOME=$dir/home/.config XDG_DATA_HOME=$dir/home/.local/share \
  XDG_CACHE_HOME=$dir/home/.cache XDG_RUNTIME_DIR=$dir/run
mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME/orca" "$XDG_CACHE_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
unset WAYLAND_DISPLAY SESSION_MANAGER

pids=()
cleanup() {
  local i
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[$i]}" 2>/dev/null; done
  # speech-dispatcher and the registry are spawned by others: stop those
  # that run with our runtime dir (never by name alone).
  for p in $(pgrep -u "$(id -u)" -f 'speech-dispatcher|at-spi2-registryd|at-spi-bus-launcher' 2>/dev/null); do
    if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR"; then
      kill "$p" 2>/dev/null
    fi
  done
  wait 2>/dev/null
}
trap 'cleanup; exit 0' TERM INT
trap cleanup EXIT

# X display, picked by Xvfb itself.
Xvfb -displayfd 1 -screen 0 1280x900x24 -nolisten tcp >"$dir/xvfb.fd" 2>"$dir/xvfb.log" &
pids+=($!)
for _ in $(seq 300); do [ -s "$dir/xvfb.fd" ] && break; sleep 0.1; done
display=":$(head -n1 "$dir/xvfb.fd" | tr -d '[:space:]')"
[ "$display" = ":" ] && { echo "orca-session: Xvfb did not start" >&2; exit 1; }
export DISPLAY=$display

eval "$(dbus-daemon --session --fork --print-address=1 --print-pid=1 |
  { read -r addr; read -r pid; echo "DBUS_SESSION_BUS_ADDRESS='$addr'; dbus_pid=$pid"; })"
export DBUS_SESSION_BUS_ADDRESS
pids=("${pids[0]}" "$dbus_pid" )

openbox >"$dir/openbox.log" 2>&1 &
pids+=($!)
/usr/libexec/at-spi-bus-launcher --launch-immediately >"$dir/at-spi.log" 2>&1 &
pids+=($!)
pulseaudio --daemonize=no --exit-idle-time=-1 --disallow-exit -n \
  --load="module-null-sink sink_name=null" \
  --load="module-native-protocol-unix" >"$dir/pulse.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -S "$XDG_RUNTIME_DIR/pulse/native" ] && break; sleep 0.1; done
pactl set-default-sink null >/dev/null 2>&1 || true

# Accessibility on, as a screen reader's settings would set it.
for _ in $(seq 100); do
  dbus-send --session --dest=org.a11y.Bus --print-reply /org/a11y/bus \
    org.freedesktop.DBus.Properties.Set string:org.a11y.Status string:IsEnabled \
    variant:boolean:true >/dev/null 2>&1 && break
  sleep 0.1
done

# Orca, logging line by line.
sed "s/open(args.debug_file, 'w')/open(args.debug_file, 'w', buffering=1)/" /usr/bin/orca >"$dir/orca"
grep -q 'buffering=1' "$dir/orca" || { echo "orca-session: cannot patch /usr/bin/orca" >&2; exit 1; }
log=$dir/orca-debug.log
: >"$log"
/usr/bin/python3 "$dir/orca" --replace --debug-file="$log" >"$dir/orca.out" 2>&1 &
orca_pid=$!
pids+=("$orca_pid")
# Ready when Orca has greeted (its first speech) or, at the latest, after 60 s.
for _ in $(seq 600); do
  kill -0 "$orca_pid" 2>/dev/null || { echo "orca-session: orca exited:" >&2; tail -5 "$dir/orca.out" >&2; exit 1; }
  grep -q 'SPEECH OUTPUT' "$log" 2>/dev/null && break
  sleep 0.1
done

{
  echo "DISPLAY=$DISPLAY"
  echo "DBUS_SESSION_BUS_ADDRESS=$DBUS_SESSION_BUS_ADDRESS"
  echo "HOME=$HOME"
  echo "XDG_CONFIG_HOME=$XDG_CONFIG_HOME"
  echo "XDG_DATA_HOME=$XDG_DATA_HOME"
  echo "XDG_CACHE_HOME=$XDG_CACHE_HOME"
  echo "XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR"
} >"$dir/env.tmp"
mv "$dir/env.tmp" "$dir/env"
while :; do sleep 1 & wait $!; done
