#!/usr/bin/env bash
# CI wheel check: the package as a new user gets it, away from the checkout.
#
#   packaging/ci_wheel.sh            (.ci/run calls it after `make test`)
#   CI_WHEEL_WORKTREE=1 packaging/ci_wheel.sh   (build from the working tree instead of HEAD: uncommitted work)
#
# 1. export the committed tree (git archive HEAD; a plain copy when this is not a git checkout) into a
#    mktemp folder OUTSIDE the checkout;
# 2. build the sdist from that export, then the wheel FROM THE SDIST (so both must carry resources/,
#    NOTICE, LICENSE); list what the wheel carries;
# 3. install the wheel into a fresh venv (also outside the checkout; dependencies from the package index);
# 4. from yet another folder: `veil-redact detect --json` on a Korean sample must find model spans
#    (PERSON 김민준/이서연/박지훈 and an ORGANIZATION, source "model"); `veil-desktop --self-test`
#    (offscreen) must pass; the resources must come from the installed package, never from the checkout.
# Exit status: non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd -P)
PY=${PY:-.venv/bin/python}
export QT_QPA_PLATFORM=offscreen

section() { printf '\n===== %s =====\n' "$*"; }
t0=$(date +%s)

WORK=$(cd "$(mktemp -d "${TMPDIR:-/tmp}/veil-wheel.XXXXXX")" && pwd -P)
trap 'rm -rf "$WORK"' EXIT
case "$WORK/" in "$REPO"/*) echo "FAIL: scratch folder $WORK is inside the checkout" >&2; exit 1 ;; esac

section "export of the checkout -> $WORK/src"
mkdir -p "$WORK/src" "$WORK/dist" "$WORK/elsewhere"
if [ -z "${CI_WHEEL_WORKTREE:-}" ] && git -C "$REPO" rev-parse --verify -q HEAD >/dev/null 2>&1; then
  git -C "$REPO" archive --format=tar HEAD | tar -x -C "$WORK/src"
  echo "git archive $(git -C "$REPO" rev-parse --short HEAD)"
else
  tar -C "$REPO" --exclude=./.venv --exclude=./build --exclude=./dist --exclude=.git -cf - . | tar -x -C "$WORK/src"
  echo "not a git checkout: copied the working tree"
fi

section "sdist, then the wheel built from the sdist"
# The project venv has setuptools >= 77 (dev extra), so no build isolation (and no download) is needed.
(cd "$WORK/src" && "$REPO/$PY" -c "from setuptools import build_meta as b; b.build_sdist('$WORK/dist')" \
   > "$WORK/sdist.log" 2>&1) || { cat "$WORK/sdist.log"; echo "FAIL: sdist build"; exit 1; }
SDIST=$(ls "$WORK"/dist/veil_desktop-*.tar.gz)
tar -tzf "$SDIST" | grep -E '/(resources/models/veil-compact-ko/model\.onnx|resources/fonts/NanumGothic\.ttf|NOTICE|LICENSE)$' \
  | sort | sed 's/^/  sdist: /'
mkdir -p "$WORK/sdist" && tar -xzf "$SDIST" -C "$WORK/sdist"
"$REPO/$PY" -m pip wheel -q --no-deps --no-build-isolation -w "$WORK/dist" "$WORK"/sdist/veil_desktop-*/ 2>&1 \
  | { grep -v 'is ignored: it is neither a file nor a directory' || true; }
WHEEL=$(ls "$WORK"/dist/veil_desktop-*.whl)
"$REPO/$PY" - "$WHEEL" <<'EOF'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
need = ["veil_desktop/_resources/models/veil-compact-ko/model.onnx",
        "veil_desktop/_resources/models/veil-compact-ko/config.json",
        "veil_desktop/_resources/models/veil-compact-ko/tokenizer.json",
        "veil_desktop/_resources/fonts/NanumGothic.ttf", "veil_desktop/_resources/fonts/OFL.txt",
        "veil_desktop/_resources/icons/veil-desktop.png", "veil_desktop/_resources/samples/sample_ko.txt",
        "veil_desktop/_resources/licenses/NOTICE", "veil_desktop/_resources/licenses/LICENSE"]
missing = [n for n in need if n not in names]
lic = [n for n in names if ".dist-info/licenses/" in n]
print(f"wheel {sys.argv[1].rsplit('/', 1)[-1]}: {len(names)} files; dist-info licences: {lic}")
if missing or not any(n.endswith("/NOTICE") for n in lic):
    sys.exit(f"FAIL: wheel lacks {missing or 'NOTICE in .dist-info/licenses'}")
EOF

section "fresh venv outside the checkout: pip install the wheel"
"$REPO/$PY" -m venv "$WORK/venv"
"$WORK/venv/bin/python" -m pip install -q --disable-pip-version-check "$WHEEL" 2>&1 \
  | { grep -v 'is ignored: it is neither a file nor a directory' || true; }
"$WORK/venv/bin/python" -m pip list --format=freeze 2>/dev/null \
  | grep -iE '^(veil-desktop|numba|llvmlite|onnxruntime|pyside6[-_]essentials|numpy)==' | tr '\n' ' '; echo
cd "$WORK/elsewhere"   # not the checkout, not the export: nothing from a source tree can be found here
cp "$REPO/resources/samples/sample_ko.txt" "$WORK/elsewhere/민원_표본.txt"
"$WORK/venv/bin/python" - "$REPO" <<'EOF'
import sys
from pathlib import Path
from veil_desktop import paths
res, repo = paths.resources_dir().resolve(), Path(sys.argv[1]).resolve()
print("resources:", res)
assert res.name == "_resources" and "site-packages" in res.parts, res
assert not res.is_relative_to(repo), "resources resolved into the checkout"
lic = [p.name for p in paths.licence_files()]
print("licence files:", lic)
assert lic == ["NOTICE", "LICENSE", "OFL.txt"], lic
EOF

section "veil-redact detect on a Korean sample (installed wheel, cwd $PWD)"
"$WORK/venv/bin/veil-redact" detect --json "민원_표본.txt" > detect.json
"$WORK/venv/bin/python" - detect.json <<'EOF'
import json, sys
doc = json.loads(open(sys.argv[1], encoding="utf-8").read().splitlines()[0])
model = [s for s in doc["spans"] if s.get("source") == "model"]
persons = sorted({s["text"] for s in model if s["label"] == "PERSON"})
orgs = sorted({s["text"] for s in model if s["label"] == "ORGANIZATION"})
print(f"detector {doc['detector']}: {len(doc['spans'])} spans, {len(model)} from the model; "
      f"PERSON {persons}; ORGANIZATION {orgs}")
assert {"김민준", "이서연", "박지훈"} <= set(persons), persons
assert orgs, "no ORGANIZATION span from the model"
EOF

section "veil-desktop --self-test (installed wheel, offscreen)"
VEIL_DATA_DIR="$WORK/profile/data" VEIL_CONFIG_DIR="$WORK/profile/config" \
  "$WORK/venv/bin/veil-desktop" --self-test | tee selftest.txt
grep -q '^RESULT: PASS' selftest.txt
grep -E '^viterbi: ' selftest.txt

echo
echo "wheel checks passed in $(( $(date +%s) - t0 )) s"
