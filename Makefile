# Two entry points, both self-sufficient on a machine with only Python 3.11+:
#   make run   -> create .venv if needed, install, start the window on the embedded default detector
#   make test  -> create .venv if needed, install with test extras, run the whole suite offscreen
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: run test setup bench wheel bundle clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[dev]"
	@# the training tests (tests/test_training_*.py) need torch: installed only where a wheel of the CPU
	@# build lies on this machine's wheel path (pip's find-links), never downloaded (PyPI's is several GB)
	@if $(PY) -m pip install -q --no-index --no-deps --dry-run "torch==2.13.0" >/dev/null 2>&1; then \
	  $(PY) -m pip install -q "torch==2.13.0"; \
	else echo "note: no local CPU wheel of torch; tests/test_training_dsconv.py will be skipped"; fi
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(PY) -m veil_desktop $(ARGS)

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q $(PYTEST_ARGS)

bench: $(STAMP)
	$(PY) benchmarks/bench_detect.py

# dist/veil_desktop-*.whl carrying resources/ (setup.py copies it into veil_desktop/_resources/) and the licences
wheel: $(STAMP)
	$(PY) -m pip wheel -q --no-deps --no-build-isolation -w dist .

# dist/veil-desktop/: the offline bundle, numba-AOT Viterbi (needs a C compiler); see docs/PACKAGING.md
bundle: $(STAMP)
	$(PY) -m pip install -q -e ".[bundle]"
	$(PY) packaging/build.py

clean:
	rm -rf $(VENV) build dist .bench-cache
