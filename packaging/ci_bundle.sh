#!/usr/bin/env bash
# CI bundle check (Linux): build dist/veil-desktop/, then prove it works offline.
#
#   packaging/ci_bundle.sh [build.py options, e.g. --no-numba or --model DIR]
#
# Steps: build (timed) -> size breakdown -> ldd check -> --self-test with the network cut off
# (`unshare -n`) -> self-test again with no writable numba cache -> cold-start time (3 launches).
# Every run uses a fresh, throw-away user profile (data/config/cache), so the first launch is a true
# first launch for the app (no numba cache); the OS file cache is not dropped (shared machines).
# Exit status: non-zero if the build, the ldd check, a self-test or a start-up failed.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
BUNDLE=dist/veil-desktop
EXE=$BUNDLE/veil-desktop

section() { printf '\n===== %s =====\n' "$*"; }

section "build"
"$PY" packaging/build.py "$@"

section "native library dependencies (ldd)"
"$PY" packaging/check_libs.py "$BUNDLE"

# A fresh profile for every launch below: nothing from this machine's user dirs is reused.
PROFILE=$(mktemp -d -t veil-ci-profile.XXXXXX)
trap 'rm -rf "$PROFILE"' EXIT
fresh_profile() {
  rm -rf "$PROFILE"/*
  export HOME="$PROFILE/home" XDG_CACHE_HOME="$PROFILE/cache" XDG_CONFIG_HOME="$PROFILE/config" \
         XDG_DATA_HOME="$PROFILE/data" VEIL_DATA_DIR="$PROFILE/veil-data" VEIL_CONFIG_DIR="$PROFILE/veil-config"
  mkdir -p "$HOME"
  unset NUMBA_CACHE_DIR
}

# Network cut-off: a new, empty network namespace (only a down loopback). Root can create one directly;
# an unprivileged user needs a user namespace as well (-r maps the caller to root inside it).
NONET=()
if unshare -n true 2>/dev/null; then
  NONET=(unshare -n)
elif unshare -rn true 2>/dev/null; then
  NONET=(unshare -rn)
else
  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
  echo "!!! WARNING: cannot create a network namespace here (unshare -n and unshare -rn both failed)."
  echo "!!! The self-test runs WITH network access; only its in-process guard (which fails the run on"
  echo "!!! any connect/DNS attempt) checks that the bundle stays offline."
  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
fi
export QT_QPA_PLATFORM=offscreen

section "self-test, network cut off: ${NONET[*]:-(NO NETWORK ISOLATION)} $EXE --self-test"
fresh_profile
"${NONET[@]}" "$EXE" --self-test

section "self-test with no writable cache/profile/temp location at all"
# Nothing writable for caches: HOME, XDG_CACHE_HOME, VEIL_DATA_DIR, NUMBA_CACHE_DIR lie below a regular
# file (uncreatable even for root), and /tmp and /var/tmp are read-only tmpfs mounts in a private mount
# namespace. numba must fall back to an uncached compile instead of crashing. Only the self-test's own
# output folder (--keep, under build/) is writable.
RO=$(mktemp -d "$PWD/build/ci-nowrite.XXXXXX")
trap 'rm -rf "$PROFILE" "$RO"' EXIT
touch "$RO/not-a-dir"
F="$RO/not-a-dir"
NOWRITE_ENV=(HOME="$F/home" XDG_CACHE_HOME="$F/cache" XDG_CONFIG_HOME="$F/config" VEIL_DATA_DIR="$F/data"
             VEIL_CONFIG_DIR="$F/config" NUMBA_CACHE_DIR="$F/numba" TMPDIR="$F/tmp")
RO_TMP='mount -t tmpfs -o ro tmpfs /tmp && mount -t tmpfs -o ro tmpfs /var/tmp && cd /tmp && exec env "$@"'
EXE_ABS="$PWD/$EXE"
if unshare -mn true 2>/dev/null; then
  unshare -mn sh -c "$RO_TMP" sh "${NOWRITE_ENV[@]}" "$EXE_ABS" --self-test --keep "$RO/out"
elif unshare -rmn true 2>/dev/null; then
  unshare -rmn sh -c "$RO_TMP" sh "${NOWRITE_ENV[@]}" "$EXE_ABS" --self-test --keep "$RO/out"
else
  echo "!!! cannot create a mount namespace here: /tmp stays writable, so only the profile/cache paths are"
  echo "!!! unusable in this run (the temp-dir fallback of the numba cache is still available)"
  env "${NOWRITE_ENV[@]}" "${NONET[@]}" "$EXE_ABS" --self-test --keep "$RO/out"
fi

section "cold start (process start -> main window exposed with a running event loop), offscreen"
fresh_profile
for run in 1 2 3; do
  label=$([ "$run" = 1 ] && echo "first launch, empty profile" || echo "launch $run")
  line=$(VEIL_STARTUP_T0=$(date +%s.%N) "${NONET[@]}" "$EXE" --startup-time | grep '^STARTUP_SECONDS=' || true)
  echo "$label: ${line:-STARTUP_SECONDS=FAIL (no report)}"
  case "$line" in STARTUP_SECONDS=[0-9]*) ;; *) exit 1 ;; esac
done

section "summary"
"$PY" packaging/bundle_report.py "$BUNDLE" | tail -1
echo "machine: $(nproc) CPUs, $(uname -sm); bundle check passed"
