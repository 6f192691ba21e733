#!/usr/bin/env bash
# CI bundle check (Linux): build the offline bundle(s), then prove each works offline.
#
#   packaging/ci_bundle.sh [build.py options, e.g. --model DIR]
#   CI_BUNDLE_VARIANTS="default" (default) | "default jit" | "jit" | "numpy"
#
# Variants: "default" = dist/veil-desktop/ (Viterbi compiled ahead of time with numba.pycc, no numba/llvmlite
# in the bundle: the one to ship; its self-test must report `viterbi: numba-aot`); "jit" =
# dist/jit/veil-desktop/ (build.py --viterbi jit: numba + llvmlite bundled, checks the frozen JIT and its
# cache handling; "numba" is an alias); "numpy" = dist/numpy/veil-desktop/ (no numba code).
# Per variant: build (timed) -> size breakdown -> ldd check -> --self-test with the network cut off
# (`unshare -n`) -> --self-test with no writable cache/profile/temp location -> cold start (3 launches).
# Every launch uses a fresh, throw-away user profile; the OS file cache is not dropped (shared machines).
# Exit status: non-zero if a build, an ldd check, a self-test or a start-up failed.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
VARIANTS=${CI_BUNDLE_VARIANTS:-"default"}
export QT_QPA_PLATFORM=offscreen

section() { printf '\n===== %s =====\n' "$*"; }

# binutils: PyInstaller needs objdump on Linux; build.py strips with `strip` and prunes orphaned system
# libraries with `readelf` (both skipped, with a bigger bundle, when absent). strace: the syscall check.
for tool in objdump strip readelf strace; do
  command -v "$tool" >/dev/null 2>&1 || echo "note: '$tool' not found (Debian/Ubuntu: apt-get install binutils strace)"
done

mkdir -p build
SCRATCH=$(mktemp -d "$PWD/build/ci-bundle.XXXXXX")  # not under /tmp: /tmp is made read-only below
trap 'rm -rf "$SCRATCH"' EXIT

fresh_profile() {  # a new, empty user profile for the next launch
  rm -rf "$SCRATCH/profile"
  mkdir -p "$SCRATCH/profile/home"
  export HOME="$SCRATCH/profile/home" XDG_CACHE_HOME="$SCRATCH/profile/cache" \
         XDG_CONFIG_HOME="$SCRATCH/profile/config" XDG_DATA_HOME="$SCRATCH/profile/data" \
         VEIL_DATA_DIR="$SCRATCH/profile/veil-data" VEIL_CONFIG_DIR="$SCRATCH/profile/veil-config"
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
  echo "!!! The self-tests run WITH network access; only their in-process guard (which fails the run on"
  echo "!!! any connect/DNS attempt) checks that the bundle stays offline."
  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
fi
# A private mount namespace (for read-only /tmp) the same way.
NOMOUNT=()
if unshare -mn true 2>/dev/null; then
  NOMOUNT=(unshare -mn)
elif unshare -rmn true 2>/dev/null; then
  NOMOUNT=(unshare -rmn)
fi
# Mounting an empty read-only tmpfs over /tmp would hide the checkout itself when it lives there (a CI clone
# may): then keep /tmp as it is and only make the profile/cache paths unusable.
case "$(pwd -P)/" in
  /tmp/*|/var/tmp/*)
    echo "note: checkout is under /tmp; the no-writable-location run keeps /tmp mounted as it is"
    NOMOUNT=() ;;
esac

check_variant() {  # check_variant NAME DIST KERNEL [build.py args...]  (KERNEL: the `viterbi:` line expected)
  local name=$1 dist=$2 kernel=$3
  shift 3
  local bundle="$dist/veil-desktop" exe="$PWD/$dist/veil-desktop/veil-desktop"

  section "[$name] build: packaging/build.py --dist $dist $*"
  "$PY" packaging/build.py --dist "$dist" --work "build/$name" "$@"

  section "[$name] notices and licences travel (Help > About shows them)"
  local pair
  for pair in licenses/NOTICE:NOTICE licenses/LICENSE:LICENSE fonts/OFL.txt:resources/fonts/OFL.txt; do
    cmp -s "$bundle/_internal/resources/${pair%%:*}" "${pair#*:}" \
      || { echo "FAIL: resources/${pair%%:*} missing from the bundle or not the repository's ${pair#*:}"; return 1; }
    echo "ok: resources/${pair%%:*} = ${pair#*:}"
  done

  section "[$name] native library dependencies (ldd)"
  "$PY" packaging/check_libs.py "$bundle"

  section "[$name] self-test, network cut off: ${NONET[*]:-(NO NETWORK ISOLATION)} $exe --self-test"
  fresh_profile
  "${NONET[@]}" "$exe" --self-test | tee "$SCRATCH/selftest.txt"
  grep -qx "viterbi: $kernel" "$SCRATCH/selftest.txt" \
    || { echo "FAIL: expected 'viterbi: $kernel' in the self-test report"; return 1; }

  section "[$name] network syscalls of the whole process (strace), self-test + 20 s idle"
  # The in-process guard only sees Python sockets; native code (onnxruntime's telemetry client, for one,
  # resolves mobile.events.data.microsoft.com ~10 s after start unless ORT_DISABLE_TELEMETRY=1) is only
  # visible to the kernel. Any connect() to an AF_INET/AF_INET6 address fails this check (it is recorded
  # even inside the empty network namespace, where it cannot succeed).
  if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
    fresh_profile
    "${NONET[@]}" strace -f -qq -e trace=connect,sendto,sendmsg -o "$SCRATCH/strace.txt" \
      "$exe" --self-test --linger 20 >/dev/null
    if grep -E 'AF_INET6?\b' "$SCRATCH/strace.txt" | grep -E 'connect\(|sendto\(|sendmsg\(' > "$SCRATCH/net.txt"; then
      echo "FAIL: network syscalls:"; head -20 "$SCRATCH/net.txt"; return 1
    fi
    echo "ok: no AF_INET/AF_INET6 connect/sendto/sendmsg in $(wc -l < "$SCRATCH/strace.txt") traced calls"
  else
    echo "!!! strace is not available (or ptrace is not allowed): native network syscalls NOT checked"
  fi

  section "[$name] self-test with no writable cache/profile/temp location at all"
  # HOME, XDG_*, VEIL_DATA_DIR, NUMBA_CACHE_DIR and TMPDIR lie below a regular file (uncreatable even for
  # root); /tmp and /var/tmp are read-only tmpfs mounts in a private mount namespace. numba (if bundled)
  # must fall back to an uncached compile instead of crashing. Only --keep (under build/) is writable.
  rm -rf "$SCRATCH/nowrite" && mkdir -p "$SCRATCH/nowrite" && touch "$SCRATCH/nowrite/file"
  local f="$SCRATCH/nowrite/file"
  local nowrite_env=(HOME="$f/home" XDG_CACHE_HOME="$f/cache" XDG_CONFIG_HOME="$f/config"
                     VEIL_DATA_DIR="$f/data" VEIL_CONFIG_DIR="$f/config" NUMBA_CACHE_DIR="$f/numba" TMPDIR="$f/tmp")
  if [ ${#NOMOUNT[@]} -gt 0 ]; then
    "${NOMOUNT[@]}" sh -c 'mount -t tmpfs -o ro tmpfs /tmp && mount -t tmpfs -o ro tmpfs /var/tmp && cd /tmp &&
                           exec env "$@"' sh "${nowrite_env[@]}" "$exe" --self-test --keep "$SCRATCH/nowrite/out"
  else
    echo "!!! cannot create a mount namespace here: /tmp stays writable, so only the profile/cache paths are"
    echo "!!! unusable in this run (the temp-dir fallback of the numba cache is still available)"
    env "${nowrite_env[@]}" "${NONET[@]}" "$exe" --self-test --keep "$SCRATCH/nowrite/out"
  fi

  section "[$name] self-test on a system without fonts (empty fontconfig): the bundled OFL font must serve"
  fresh_profile
  printf '<?xml version="1.0"?>\n<fontconfig><cachedir>%s</cachedir></fontconfig>\n' "$SCRATCH/fc-cache" \
    > "$SCRATCH/no-fonts.conf"
  FONTCONFIG_FILE="$SCRATCH/no-fonts.conf" "${NONET[@]}" "$exe" --self-test | tee "$SCRATCH/nofonts.txt" \
    | grep -E '^(main window|RESULT)'
  grep -q '^main window .* font NanumGothic$' "$SCRATCH/nofonts.txt" \
    || { echo "FAIL: the window did not fall back to the bundled NanumGothic"; return 1; }

  section "[$name] cold start (process start -> main window exposed, event loop running), offscreen"
  fresh_profile
  local run line label
  for run in 1 2 3; do
    label=$([ "$run" = 1 ] && echo "first launch, empty profile" || echo "launch $run")
    line=$(VEIL_STARTUP_T0=$(date +%s.%N) "${NONET[@]}" "$exe" --startup-time | grep '^STARTUP_SECONDS=' || true)
    echo "$label: ${line:-STARTUP_SECONDS=FAIL (no report)}"
    case "$line" in STARTUP_SECONDS=[0-9]*) ;; *) return 1 ;; esac
  done
  if [ "$kernel" != numpy ]; then
    section "[$name] detection throughput: this bundle's $kernel Viterbi vs the same bundle with VEIL_NO_NUMBA=1"
    fresh_profile
    "${NONET[@]}" "$PY" packaging/bench_bundle.py "$exe" --chars 50000 --repeat 2 --rounds 2
  fi
  echo "[$name] $("$PY" packaging/bundle_report.py "$bundle" | tail -1)"
}

for variant in $VARIANTS; do
  case "$variant" in
    default) check_variant default dist numba-aot "$@" ;;
    jit|numba) check_variant jit dist/jit numba-jit --viterbi jit "$@" ;;
    numpy) check_variant numpy dist/numpy numpy --viterbi numpy "$@" ;;
    *) echo "unknown variant $variant (use: default jit numpy)" >&2; exit 2 ;;
  esac
done

section "summary"
echo "machine: $(nproc) CPUs, $(uname -sm), load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for variant in $VARIANTS; do
  case "$variant" in default) dist=dist ;; numba) dist=dist/jit ;; *) dist=dist/$variant ;; esac
  echo "$variant: $("$PY" packaging/bundle_report.py "$dist/veil-desktop" | tail -1)"
done
echo "bundle checks passed: $VARIANTS"
