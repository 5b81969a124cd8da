# The two set-up commands of the README: `make run` and `make test`. Both create .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_TEST := $(VENV)/.installed-test
# what the compiled kernels are built from (the simulator and its feed compile from their .py, typed by .pxd files)
KERNEL_SOURCES := $(wildcard gpumem_gui/core/*/*.pyx gpumem_gui/core/*/*.pxi gpumem_gui/core/*/*.pxd gpumem_gui/core/*/*.h) \
	gpumem_gui/core/allocator/simulator.py gpumem_gui/core/allocator/_feed.py

.PHONY: run test lint bench examples screenshots translations dist-check gpu-check clean

# uv makes the venv in a second and fetches and unpacks the dependencies side by side while the kernels compile (pip
# does one thing after another: about 20 s more of a first install). The uv on PATH, else one that pip puts in
# $(UV_HOME) (inside the venv's folder: `make clean` takes it too), else pip alone (uv could not be had: offline).
SHELL := /bin/bash
UV_HOME := $(VENV)/.uv
UV := $(or $(shell command -v uv 2>/dev/null),$(CURDIR)/$(UV_HOME)/bin/uv)

$(BIN)/python:
	@[ -x "$(UV)" ] || $(PYTHON) -m pip install --quiet --disable-pip-version-check --target $(UV_HOME) uv \
		>/dev/null 2>&1 || echo "gpumem-gui: uv could not be installed; pip installs instead (slower)"
	@if [ -x "$(UV)" ]; then $(UV) venv --quiet --seed --allow-existing --python $(PYTHON) $(VENV); \
	else $(PYTHON) -m venv $(VENV) && $(BIN)/python -m pip install --quiet --upgrade pip; fi

# A build's output shows only with -v: the install keeps all of it in INSTALL_LOG (its end is printed if the
# install fails) and prints the kernels' progress from it as it comes (Cython's "[1/2] Cythonizing ..." and
# setup.py's "gpumem_gui: ..." lines, which uv prefixes with DEBUG: the jobs side by side, each kernel as it is
# ready, the notice of one not built)
INSTALL_LOG := $(VENV)/install.log
PROGRESS := awk '/^ *(DEBUG )?(gpumem_gui: |\[[0-9]+\/[0-9]+\] Cythonizing )/ { sub(/^ *(DEBUG )?/, ""); print; fflush() }'
PIP_INSTALL = set -o pipefail; $(BIN)/python -m pip install -v $(1) 2>&1 | tee $(INSTALL_LOG) | $(PROGRESS) \
	|| { tail -n 30 $(INSTALL_LOG); exit 1; }
# uv for the run target, pip again where uv fails (it does not read pip's configuration: a private index, say);
# pip for the test target, whose pinned torch may come from pip's configuration (a local folder of CPU builds)
UV_INSTALL = set -o pipefail; [ -x "$(UV)" ] && $(UV) pip install -v --python $(BIN)/python $(1) 2>&1 \
	| tee $(INSTALL_LOG) | $(PROGRESS) || { $(call PIP_INSTALL,$(1)); }

$(STAMP_RUN): pyproject.toml setup.py $(KERNEL_SOURCES) | $(BIN)/python
	@echo "gpumem-gui: installing into $(VENV); the compiled kernels build on every core (log: $(INSTALL_LOG))"
	@$(call UV_INSTALL,-e .)
	touch $@

# the versions the suite is run against (torch 2.13.0 exactly); pyproject.toml's extras give users floors only
CONSTRAINTS := tests/constraints.txt

$(STAMP_TEST): pyproject.toml setup.py $(CONSTRAINTS) $(KERNEL_SOURCES) | $(BIN)/python
	@$(call PIP_INSTALL,-c $(CONSTRAINTS) -e '.[test]')
	touch $@ $(STAMP_RUN)

run: $(STAMP_RUN)
	$(BIN)/gpumem-gui

lint: $(STAMP_TEST)
	$(BIN)/ruff check gpumem_gui tests benchmarks
	$(BIN)/ruff format --check gpumem_gui tests benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports

# Two processes (pytest-xdist, installed with the test extra), a test file to one at a time, so that its module
# fixtures are made once; the files holding a test marked slow go first (tests/conftest.py), not xdist's "most tests
# first"; torch and BLAS take one thread in each (tests/conftest.py). Measured on a shared 2-core machine: the suite in
# one process, 9.7 min (9.4 min of CPU); in two, 9.8 min of CPU, so about 5 min on two idle cores (6.9 min there with
# other jobs running). The lab test that once hung in a worker was Python's garbage collector freeing earlier tests'
# Qt objects on the lab's thread: the GUI thread collects now (qt_start.collect_on_gui_thread); a test that hangs
# fails after 5 min with every thread's stack (pytest-timeout, faulthandler_timeout). `make test TEST_WORKERS=4`.
TEST_WORKERS ?= 2
test: lint
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

bench: $(STAMP_RUN)
	$(BIN)/python benchmarks/bench_load.py --quick --shape real
	$(BIN)/python benchmarks/bench_scale.py
	$(BIN)/python benchmarks/bench_replay.py
	$(BIN)/python benchmarks/bench_budgets.py

RENDER := QT_QPA_PLATFORM=offscreen $(BIN)/gpumem-gui render

screenshots: $(STAMP_TEST)
	mkdir -p docs/img
	$(RENDER) resources/examples/fragmented_oom.pickle -o docs/img/fragmented_oom.png
	$(RENDER) resources/examples/split_blocks_oom.pickle -o docs/img/split_blocks_oom.png --layout segment-free
	$(RENDER) resources/examples/fragmented_expandable.pickle -o docs/img/fragmented_expandable.png --view map --size 1400x700
	$(RENDER) resources/examples/checkpointing_sqrt.pickle -o docs/img/checkpointing_sqrt.png --at 200
	QT_QPA_PLATFORM=offscreen $(BIN)/python docs/screenshots_quiz.py docs/img

# Each area's .ts updated from its sources (pyside6-lupdate) and compiled to its .qm (pyside6-lrelease), both
# committed; new texts come out unfinished until translated in the .ts (tests/test_translations.py says which)
translations: $(STAMP_RUN)
	$(BIN)/python -m gpumem_gui.translations

examples: $(STAMP_RUN)
	$(BIN)/python -m gpumem_gui.core.allocator.examples resources/examples

# Slow (three isolated builds and a fresh venv, a few minutes): the sdist and wheel, installed and run from another
# folder, with and without a C++ compiler; it leaves nothing behind (tests/dist_check.py)
dist-check: $(STAMP_RUN)
	$(BIN)/python -m pip install --quiet build
	$(BIN)/python tests/dist_check.py

# The real-GPU check (benchmarks/gpu_check/run.py), under 8 minutes: installs nothing, runs this checkout with $(PYTHON)
# and its torch; results in GPU_CHECK_DIR (default ./gpu-check-out; where $$OUT is set, a bundle of three files there).
# Without a CUDA device it says so in one line and exits 2.
GPU_CHECK_DIR ?=
gpu-check:
	@PYTHONPATH=$(CURDIR) GPUMEM_GUI_PURE_PYTHON=1 $(PYTHON) -m benchmarks.gpu_check $(GPU_CHECK_DIR)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
