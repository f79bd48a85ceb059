# pnp - print-and-play kits, solitaire-tested before they are printed.
# `make help` lists the targets.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# Python caches compiled modules unless PYTHONDONTWRITEBYTECODE is set, as some images do:
# then every test process and every `pnp` a test starts compiles pnp again (the fast tier
# took about a third longer). The commands here keep Python's default.
unexport PYTHONDONTWRITEBYTECODE

.DEFAULT_GOAL := help
.PHONY: help setup kits studio test bench lint golden conformance clean docs docs-figures dist dist-check

help: ## List the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  \033[1m%-13s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# The install compiles these (see pyproject.toml): a change rebuilds them.
COMPILED := pnp/play/_twister.h pnp/play/_seed.h pnp/play/_genrand_init.h pnp/play/_seed_text.h pnp/play/_uct.h pnp/play/_drive.h pnp/play/_seam.h pnp/games/parcheesi/fast/_kernel.c pnp/games/parcheesi/fast/_tree.h pnp/games/desert_home/fast/_kernel.c pnp/games/desert_home/fast/_tree.h \
	pnp/games/home_in_one_piece/fast/_kernel.c pnp/games/home_in_one_piece/fast/_greedy.h pnp/games/home_in_one_piece/fast/_tree.h \
	pnp/games/building_community/fast/_search.c pnp/games/building_community/fast/_play.h pnp/games/building_community/fast/_tree.h \
	pnp/games/exploding_dice/fast/_kernel.c pnp/games/exploding_dice/fast/_tree.h

# pip says errors only (-qq): a machine's index settings can add a warning for every package.
PIP_INSTALL = -m pip install --quiet --quiet
# `make setup INSTALLER=uv` installs pnp's dependencies with uv, which pip puts in the venv
# first: uv fetches them side by side, which halves a clean set-up (CI's, docs/testing.md).
INSTALLER ?= pip
ifeq ($(INSTALLER),uv)
PREPARE_INSTALLER = $(BIN)/python $(PIP_INSTALL) uv
INSTALL = $(BIN)/python -m uv pip install --quiet --python $(BIN)/python
else
PREPARE_INSTALLER = $(BIN)/python $(PIP_INSTALL) --upgrade pip
INSTALL = $(BIN)/python $(PIP_INSTALL)
endif

# The distribution is `pnp-kits` (pyproject.toml); a venv made before the rename also holds
# it as `pnp`, which would keep a second claim on the `pnp` script: it goes first.
$(STAMP): pyproject.toml setup.py $(COMPILED)
	$(PYTHON) -m venv $(VENV)
	$(PREPARE_INSTALLER)
	@$(BIN)/python -m pip uninstall --quiet --yes pnp >/dev/null 2>&1 || true
	$(INSTALL) -e '.[test,dask,docs]'
	@touch $@

# After set-up `pnp` is in .venv/bin, not on the PATH of a new shell: say how to run it.
HOW_TO_RUN = @printf '%s\n' "pnp is installed in $(VENV): run it as $(BIN)/pnp, or first" \
	"  source $(BIN)/activate" "and then pnp (pnp --help lists the commands)."

setup: $(STAMP) ## Create .venv and install pnp with its test, Dask and docs extras
	$(HOW_TO_RUN)

kits: $(STAMP) ## Build every registered kit for A4 and Letter into output/
	$(BIN)/pnp build all
	$(HOW_TO_RUN)

studio: $(STAMP) ## Serve pnp studio on http://127.0.0.1:8765 (STUDIO_ARGS=--open ...)
	$(BIN)/pnp studio $(STUDIO_ARGS)

# Three tiers: `test` leaves out the tests marked slow or long; `test-slow` runs the slow
# ones (end-to-end runs, full builds, PDF parsing: CI runs it after `test`); `test-long` the
# runs of a minute or more that CI leaves out (each one's proof in CI: docs/testing.md);
# `test-all` runs every test.
.PHONY: test-slow test-long test-all
# pytest-xdist spreads the tests over the cores (at most 4 workers; PARALLEL= runs in one);
# worksteal: an idle worker takes tests queued on a busy one, so one long test does not
# leave a core idle at the end of a run.
PARALLEL ?= -n auto --maxprocesses=4 --dist worksteal
# GAME=slug: only the tests about that game: its own files and its cases of the shared tests
# (tests/game_tests.py says how a test is known to be about a game).
ONE_GAME = $(if $(strip $(GAME)),--game $(GAME))
test: $(STAMP) ## The fast tier: every area covered, slow and long tests left out (GAME=slug for one)
	$(BIN)/pytest -m "not slow and not long" $(PARALLEL) $(ONE_GAME)

test-slow: $(STAMP) ## The slow tier, as CI runs it after `test` (GAME=slug for one)
	$(BIN)/pytest -m "slow and not long" $(PARALLEL) $(ONE_GAME)

test-long: $(STAMP) ## Only the long runs CI leaves out (GAME=slug for one)
	$(BIN)/pytest -m long $(PARALLEL) $(ONE_GAME)

test-all: $(STAMP) ## Every test, all tiers in one run (GAME=slug for one game's)
	$(BIN)/pytest $(PARALLEL) $(ONE_GAME)

# OpenSpiel, the speed anchor of Parcheesi's bench, lives in its own venv: never a dependency.
BENCH_VENV := .venv-bench
$(BENCH_VENV)/.installed:
	$(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python $(PIP_INSTALL) open_spiel && touch $@ \
	  || echo "open_spiel could not be installed: the bench runs without its anchor"

# Only Parcheesi's bench uses OpenSpiel (312 MB): another GAME=slug neither installs nor finds it.
BENCH_ANCHOR := $(if $(strip $(GAME)),$(if $(filter parcheesi,$(GAME)),$(BENCH_VENV)/.installed),$(BENCH_VENV)/.installed)

bench: $(STAMP) $(BENCH_ANCHOR) ## Benchmarks for every game with an engine (GAME=slug for one; BENCH_ARGS=...)
	$(if $(BENCH_ANCHOR),OPEN_SPIEL_PYTHON=$(CURDIR)/$(BENCH_VENV)/bin/python )$(BIN)/python -m pnp.bench $(GAME) $(BENCH_ARGS)

lint: $(STAMP) ## Ruff over the code and tests; import-linter holds the layers; mypy the types
	$(BIN)/ruff check pnp geometry tests docs/hooks setup.py
	$(BIN)/lint-imports
	$(BIN)/mypy pnp geometry

golden: $(STAMP) ## Regenerate the golden SVG and data files after a deliberate change (GAME=slug for one; review the diff!)
	$(BIN)/pytest tests/test_golden.py --update-golden $(ONE_GAME)

conformance: $(STAMP) ## Regenerate tests/conformance/ from the cases in it (GAME=slug for one; review the diff!)
	$(BIN)/python -m pnp.reference.conformance_data $(or $(GAME),all)

# The documentation site: docs/ and mkdocs.yml, with the command-line reference generated
# from `pnp --help` and the library reference from docstrings. --strict: a broken link, a
# missing page or a docstring that does not render fails the build.
docs: $(STAMP) ## Build the documentation site into site/ (open site/index.html)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

# Every figure table in docs/ is a block its command writes (pnp/reference/figures.py):
# this reruns the commands and rewrites the blocks, nothing else on the pages.
docs-figures: $(STAMP) ## Rerun the commands behind docs/ figure tables and rewrite them (FIGURES=name for one)
	$(BIN)/python -m pnp.reference.figures $(FIGURES)

# The sdist, and a wheel built from it (with the kernels compiled), into dist/.
dist: $(STAMP) ## Build the sdist and a wheel into dist/ (python -m build)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .


dist-check: $(STAMP) ## The sdist and wheel, each installed into a clean venv and used (as CI does)
	bash .ci/dist-check

clean: ## Remove generated output and caches (keeps .venv)
	find output -mindepth 1 ! -name README.md -exec rm -rf {} +
	rm -rf .pytest_cache .ruff_cache .hypothesis site dist
