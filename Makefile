# Two entry points, both self-sufficient on a machine with only Python 3.11+:
#   make run   -> create .venv if needed, install, start the window on the embedded default detector
#   make test  -> create .venv if needed, install with test extras, run the whole suite offscreen
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: run test setup bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[dev]"
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(PY) -m veil_desktop $(ARGS)

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q $(PYTEST_ARGS)

bench: $(STAMP)
	$(PY) benchmarks/bench_detect.py

clean:
	rm -rf $(VENV) build dist .bench-cache
