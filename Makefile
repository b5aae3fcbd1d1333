# omp-lsp developer entry points. Every target installs what it needs, idempotently.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Debian packages: the reference compilers (benchmarks, compiler comparisons) and the
# offloading toolchains the codegen backend drives (see shared notes on toolchains).
DEB_PACKAGES := clang-22 libomp-22-dev liboffload-22-dev flang-22 gcc-12-offload-nvptx gfortran

.PHONY: all demo test check-examples bench venv toolchains clean

all: test

# First README command: install everything, then check the bundled examples.
demo: venv toolchains check-examples

# Second README command: install everything, then run every test.
test: venv toolchains
	@set +e; $(BIN)/python -m pytest $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; exit 1; fi; exit $$rc

check-examples:
	@echo "== valid examples (expect no findings) =="
	$(BIN)/omp-lsp --check examples --exclude 'mistakes.*'
	@echo "== examples/mistakes.c and mistakes.f90 (expect findings) =="
	@$(BIN)/omp-lsp --check examples/mistakes.c examples/mistakes.f90; rc=$$?; [ $$rc -le 1 ]

bench: venv toolchains
	$(BIN)/python bench/check_speed.py
	$(BIN)/python bench/propagation_speed.py
	$(BIN)/python bench/lsp_latency.py

$(BIN)/python:
	$(PYTHON) -m venv $(VENV) || { $(MAKE) --no-print-directory apt-python-venv && $(PYTHON) -m venv $(VENV); }

venv: $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'

.PHONY: apt-python-venv
apt-python-venv:
	$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3-venv

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
toolchains:
	@missing=""; for p in $(DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
