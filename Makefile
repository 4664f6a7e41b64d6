# Geartable: `make run` serves the site on embedded defaults; `make test` runs every check.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
export PIP_DISABLE_PIP_VERSION_CHECK := 1

# PYTHONDONTWRITEBYTECODE (set on this machine) emptied: the suite starts ~150 Python processes
# (pytest's, Celery workers, stream servers), and each compiled the project's modules from
# source, and pytest rewrote every test module's asserts anew in each of its processes.
TEST_ENV := DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/geartable} \
	CELERY_TEST_BROKER_URL=$${CELERY_TEST_BROKER_URL:-redis://127.0.0.1:6379/0} \
	PYTHONDONTWRITEBYTECODE=""

.PHONY: catalogs gettext-deps messages run test screenshots lint format worker beat bench-engines bench-web bench-cpu bench-live bench-turn deep-test e2e-deps python-check services-check clean

python-check:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null || { \
	  echo "Geartable needs Python 3.12 or newer (Django 6 requires it); '$(PYTHON)' is $$($(PYTHON) --version 2>&1)."; \
	  echo "Install one (e.g. 'pyenv install 3.12') or run: make $(MAKECMDGOALS) PYTHON=/path/to/python3.12"; exit 1; }

# The venv is rebuilt only when a requirements file changes: a second `make run` starts in seconds.
# uv installs the packages (pinned, from its cache: ~9 s here, where pip took ~33 s of CPU-bound
# resolving); pip only bootstraps uv into the venv. Bytecode is compiled at install, and must
# be: this machine sets PYTHONDONTWRITEBYTECODE=1, so Python would otherwise compile each module
# from source in every process that imports it (tried: the Celery workers of the fault tests
# started twice as slowly).
UV_VERSION := 0.13.9
UV_INSTALL = $(VENV)/bin/uv pip install -q --python $(PY) --compile-bytecode
$(VENV)/bin/uv: | python-check
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q uv==$(UV_VERSION)

$(VENV)/.runtime: requirements.txt | $(VENV)/bin/uv
	$(UV_INSTALL) -r requirements.txt
	@touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt | $(VENV)/bin/uv
	$(UV_INSTALL) -r requirements-dev.txt
	@touch $(VENV)/.runtime $@

# The translations (docs/i18n.md): each locale/<lang>/LC_MESSAGES/*.po compiled to its .mo when
# the .po changes (the .mo files are not in git). GNU gettext's msgfmt compiles and checks the
# python-format placeholders of every translation; Debian's `gettext` is installed if missing,
# as the browser tests' Chromium is (a fresh machine elsewhere: install gettext).
CATALOGS := $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/*.po))
gettext-deps:
	@command -v msgfmt >/dev/null || { echo "Installing GNU gettext (msgfmt) for the translations"; \
	  (apt-get install -y -q gettext >/dev/null 2>&1 || (apt-get update -q >/dev/null && apt-get install -y -q gettext >/dev/null)) \
	  || { echo "msgfmt is missing: install GNU gettext (apt-get install -y gettext)"; exit 1; }; }

locale/%.mo: locale/%.po | gettext-deps
	msgfmt --check-format --output-file=$@ $<

# The JavaScript catalogs (gettext() in static/js): Django's JavaScriptCatalog of each offered
# language written as a static file, static/js/i18n/<lang>.js (not in git), for the frame's
# <script> (templates/_js_catalog.html): a file, as the Content-Security-Policy allows no other.
# Before collectstatic in production. By the venv's Python (make run, make test build it
# first), else $(PYTHON) (a production host that installed the requirements its own way).
JS_CATALOGS := static/js/i18n/.built
$(JS_CATALOGS): $(CATALOGS) config/settings.py games/management/commands/js_catalogs.py
	DEBUG=true $$(test -x $(PY) && echo $(PY) || echo $(PYTHON)) manage.py js_catalogs
	@touch $@

catalogs: $(CATALOGS) $(JS_CATALOGS)

# After marking strings: extract them again into every language's catalog (then translate the
# new entries; a test fails while any is untranslated or fuzzy).
messages: $(VENV)/.dev gettext-deps
	DEBUG=true $(PY) manage.py makemessages --all
	DEBUG=true $(PY) manage.py makemessages --all -d djangojs

# One ASGI process serves the whole site and its event streams (config/run_settings.py): a move
# in one browser reaches the others at once, through the process's in-memory hub. It restarts
# when the code changes; open streams are cut after a second (they reconnect by themselves).
# PORT reaches the settings too: the links in e-mails and the printed ones use it (SITE_URL).
PORT ?= 8000
run: $(VENV)/.runtime catalogs
	DEBUG=$${DEBUG:-true} $(PY) manage.py migrate --noinput -v 0
	DEBUG=$${DEBUG:-true} PORT=$(PORT) $(PY) manage.py demo_accounts
	DEBUG=$${DEBUG:-true} PORT=$(PORT) DJANGO_SETTINGS_MODULE=config.run_settings $(PY) -m uvicorn \
	  config.run_asgi:application --host 127.0.0.1 --port $(PORT) --lifespan off \
	  --timeout-graceful-shutdown 1 --reload --reload-dir config --reload-dir games --reload-dir accounts

services-check: $(VENV)/.dev
	@$(PY) tests/check_services.py

# lint-imports: the import contracts of pyproject.toml ([tool.importlinter]), the map of
# docs/code-map.md: engines pure, layers that import only downwards, no circle, accounts/
# importing nothing of games/.
lint: $(VENV)/.dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-logo

format: $(VENV)/.dev
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

# Three pytest processes on the machine's two cores (TEST_WORKERS=1 runs them in one): a third
# of the run waits on real processes (Celery workers, brokers, SMTP, browsers), and the third
# process computes meanwhile (docs/benchmarks.md, "The test suite's wall time"). Each has its own
# test database and Celery queue (config/test_settings.py); they share out the slow tests as
# they free up (worksteal), spread through the run (tests/conftest.py).
TEST_WORKERS ?= 3
test: $(VENV)/.dev lint services-check e2e-deps catalogs
	$(TEST_ENV) $(PY) -m pytest -q -n $(TEST_WORKERS) --dist worksteal $(PYTEST_ARGS)

# The browser tests again, taking the screenshots people look at (test-artifacts/screenshots/).
screenshots: $(VENV)/.dev e2e-deps
	E2E_SCREENSHOTS=1 $(TEST_ENV) $(PY) -m pytest -q -n $(TEST_WORKERS) tests/e2e

# Browser tests use Debian's Chromium (Playwright cannot download its own browser here); the
# README's nginx configuration is tested with Debian's nginx (tests/live/test_nginx.py; its
# package does not start a server of its own where policy-rc.d forbids it, and the test runs
# its own on a free port).
e2e-deps:
	@test -x /usr/bin/chromium || { echo "Installing Debian's chromium for the browser tests"; \
	  (apt-get install -y -q chromium >/dev/null 2>&1 || (apt-get update -q >/dev/null && apt-get install -y -q chromium >/dev/null)) \
	  || { echo "chromium is missing: run 'apt-get install -y chromium'"; exit 1; }; }
	@test -x /usr/sbin/nginx || { echo "Installing Debian's nginx for the proxy test"; \
	  (apt-get install -y -q nginx-light >/dev/null 2>&1 || (apt-get update -q >/dev/null && apt-get install -y -q nginx-light >/dev/null)) \
	  || { echo "nginx is missing: run 'apt-get install -y nginx-light'"; exit 1; }; }

# Opt-in deep runs (not part of make test): many more random games per engine, and all 300 of
# Geared's recorded equivalence games (make test replays the first 100).
deep-test: $(VENV)/.dev
	GEARED_EXAMPLES=100000 OOG_EXAMPLES=100000 GEARED_EQUIVALENCE_GAMES=300 \
	  $(PY) -m pytest -q -p no:django tests/engines -k "properties or equivalence"

bench-engines: $(VENV)/.dev
	$(PY) bench/geared_engine.py
	$(PY) bench/outofgears_engine.py

# The whole stack under load (gunicorn, PostgreSQL, a Celery worker on Redis, wrk): several
# minutes; its own database geartable_bench. Figures in docs/benchmarks.md. Needs wrk (apt).
# CPU ms per request in-process (Django's test client): steady on a busy machine.
bench-cpu: $(VENV)/.dev
	$(PY) bench/web_cpu.py $(BENCH_ARGS)

bench-web: $(VENV)/.dev
	@command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk"; exit 1; }
	$(PY) bench/web_bench.py $(BENCH_ARGS)

# One stream process holding 2,000 then 10,000 open event streams: memory per stream, CPU at
# idle, commit -> event at 10 moves/s, beside what polling would cost. About 8 minutes; its own
# database geartable_bench_live. Figures in docs/benchmarks.md.
bench-live: $(VENV)/.dev
	$(PY) bench/live_bench.py $(BENCH_ARGS)

# The end of an Out of Gears turn (issue 36.5): last program -> the resolved turn on its three
# players' pages, hop by hop, through gunicorn, a real Celery worker on Redis, the stream process
# and PostgreSQL. About 10 minutes; its own database geartable_bench_turn. docs/benchmarks.md.
bench-turn: $(VENV)/.dev
	$(PY) bench/turn_bench.py $(BENCH_ARGS)

worker: $(VENV)/.runtime
	$(VENV)/bin/celery -A config worker -l info -O fair

beat: $(VENV)/.runtime
	$(VENV)/bin/celery -A config beat -l info

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .grimp_cache .import_linter_cache
