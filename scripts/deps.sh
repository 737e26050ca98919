# Shared by scripts/run and scripts/test: install what the project needs
# from Debian (when missing) and from PyPI, then get out of the way.
# Sourced, not run.

# Packages needed to build: bindgen for speech-dispatcher needs libclang,
# the tts crate links libspeechd, cpal links ALSA, Braille export links liblouis,
# btleplug (Bluetooth LE boards) links D-Bus.
ROCHADE_BUILD_PACKAGES=(libclang-dev libspeechd-dev libasound2-dev pkg-config liblouis-dev libdbus-1-dev)

# Needed at run time for speech (the app also has a clip voice without it),
# and for voice input: pocketsphinx, loaded at run time (the app starts
# without it), and its English acoustic model (German words are written in
# its phonemes, assets/voice-input/de.dict).
ROCHADE_RUN_PACKAGES=(speech-dispatcher speech-dispatcher-espeak-ng espeak-ng liblouis20 liblouis-data stockfish
  libpocketsphinx3 pocketsphinx-en-us)

# Needed by the tests: real pseudo-terminals (socat), real speech, a real X
# server and key presses for the desktop test, and tools we did not write to
# check our exports (liblouis, pgn-extract, xmllint, the official PEF 2008-1
# schema from libbrailleutils-java checked with Jing and Saxon), the Orca screen
# reader with its headless desktop (tests/orca_session.rs), and pocketsphinx
# for voice input, fed moves said by espeak-ng (tests/checks/voice_listen.rs; the
# -dev package holds the C headers src/voice_input's binding follows).
ROCHADE_TEST_PACKAGES=(stockfish socat xvfb xdotool imagemagick libgl1 libglx-mesa0 libgl1-mesa-dri libegl1
  libx11-xcb1 libxcursor1 libxi6 libxkbcommon-x11-0
  liblouis-bin liblouis-data pgn-extract libxml2-utils sox alsa-utils python3-pip
  libbrailleutils-java libjing-java libsaxonhe-java default-jre-headless unzip
  orca at-spi2-core dbus-x11 python3-pyatspi openbox pulseaudio
  libpocketsphinx3 pocketsphinx-en-us libpocketsphinx-dev espeak-ng)

# Needed by scripts/bench-latency (benches/latency.rs): a private PulseAudio
# server with a null sink, its recorder (parec), ALSA's pulse plugin for the
# clip voice, and speech-dispatcher with espeak-ng; benches/voice_listen.rs
# needs pocketsphinx, espeak-ng and sox.
ROCHADE_BENCH_PACKAGES=(pulseaudio pulseaudio-utils libasound2-plugins
  speech-dispatcher speech-dispatcher-espeak-ng espeak-ng
  libpocketsphinx3 pocketsphinx-en-us sox)

# Needed by scripts/build-windows (the Windows build, cross-compiled here)
# and by its tests under Wine (scripts/test-windows): mingw-w64 links the exe
# and builds liblouis for Windows; Wine runs the exe and the test binaries.
ROCHADE_WINDOWS_PACKAGES=(gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 make curl zip unzip)
ROCHADE_WINE_PACKAGES=(wine wine64 xvfb xdotool)

rochade_missing_packages() {
  local pkg missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  echo "${missing[@]}"
}

rochade_ensure_packages() {
  local missing
  missing=$(rochade_missing_packages "$@")
  [ -z "$missing" ] && return 0
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "rochade: please install these packages with your package manager: $missing" >&2
    return 1
  fi
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "rochade: installing Debian packages: $missing" >&2
  $sudo apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >&2
}

rochade_ensure_python_module() {
  local module=$1 package=$2
  python3 -c "import $module" 2>/dev/null && return 0
  echo "rochade: installing Python package $package" >&2
  python3 -m pip install --quiet "$package" 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages "$package"
}

# Rust itself: cargo and a rustc at least as new as Cargo.toml's
# rust-version. Missing or too old: one clear line on what to install.
rochade_ensure_rust() {
  local need have
  need=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
  if ! command -v cargo >/dev/null 2>&1 || ! command -v rustc >/dev/null 2>&1; then
    echo "rochade: Rust is not installed; install it with rustup (https://rustup.rs): curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh, then open a new terminal (Rochade needs Rust $need or newer)" >&2
    return 1
  fi
  have=$(rustc --version | awk '{print $2}')
  if [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -n 1)" != "$need" ]; then
    echo "rochade: Rust $have is too old; Rochade needs $need or newer: run 'rustup update stable' (a distribution's Rust is often older: install rustup from https://rustup.rs)" >&2
    return 1
  fi
}

# The Windows target of the Rust standard library, through rustup.
rochade_ensure_windows_target() {
  rustup target list --installed 2>/dev/null | grep -qx x86_64-pc-windows-gnu && return 0
  if ! command -v rustup >/dev/null 2>&1; then
    echo "rochade: the Windows build needs rustup (https://rustup.rs) to add the target x86_64-pc-windows-gnu" >&2
    return 1
  fi
  echo "rochade: adding the Rust target x86_64-pc-windows-gnu" >&2
  rustup target add x86_64-pc-windows-gnu >&2
}

# Clippy's driver as the compiler of our two crates (as `cargo clippy` has
# it, through RUSTC_WORKSPACE_WRAPPER, with the same clippy.toml files),
# every warning denied: a build made so is also clippy's run, without
# clippy's own check build of everything (docs/testing.md, "CI's time").
# Every cargo command of one run must see the same setting, or cargo builds
# our crates again (the wrapper is part of their fingerprint).
rochade_lint_build() {
    local driver
    driver=$(rustup which clippy-driver 2>/dev/null || command -v clippy-driver) || {
        echo "clippy-driver not found: rustup component add clippy" >&2
        return 1
    }
    export RUSTC_WORKSPACE_WRAPPER=$driver
    # cargo-clippy's way of handing the driver its arguments (`-D warnings`).
    export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
}

# The Windows test build (scripts/build-windows WITH_TESTS=1 and the Wine
# run of scripts/test-windows: both must pass it, or cargo builds again):
# every crate unoptimised. The tests run under Wine are short (the core's
# and the app's unit tests, the package's announcements and exports), so
# the dev profile's optimised dependencies and core (for the Linux corpus
# replays) only cost build time here.
ROCHADE_WINDOWS_TEST_CONFIG=(--config 'profile.dev.package."*".opt-level=0'
    --config 'profile.dev.package.rochade-core.opt-level=0')
