# Two commands for a newcomer: `make lab` and `make test`.
# Each creates .venv on first use and installs the project into it (editable).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Jupyter refuses to run as root unless asked to (containers, classroom servers).
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: lab test test-fast bench bench-speed bench-instructions soak clean notebook-outputs app test-browser hub hub-env hub-passwords hub-course test-hub postgres hub-load progress-load app-load app-pages site test-site site-load

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[lab,test]"
	touch $(STAMP)

lab: $(STAMP)
	$(BIN)/jupyter lab $(ROOT_FLAG) notebooks/00_start_here.ipynb

# Two workers: the suite (random playouts over hundreds of seeds, every notebook) is made to
# finish in a few minutes on a 2-core machine.
test: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadfile --nbval-lax --doctest-modules -p no:cacheprovider \
		--ignore=tests/browser pangaea_lab README.md tests notebooks

test-fast: $(STAMP)
	$(BIN)/python -m pytest -p no:cacheprovider -x -q tests

# After changing a notebook: store the outputs that nbval checks (cells marked
# NBVAL_CHECK_OUTPUT) and clear the others.
notebook-outputs: $(STAMP)
	$(BIN)/python tests/notebook_outputs.py

# The notebooks as Voilà apps for a classroom: widgets live, code hidden.  The landing page
# is the start notebook (its URL is printed); its table links every game's notebooks.
# `make app APP_PORT=9000` picks another port.  The settings are in app/voila.py (idle pages
# closed after APP_IDLE seconds; `make app CLASS=30` sizes the pools of ready kernels for a class
# and prints the memory they need; without CLASS, APP_POOL kernels kept ready per most used page).
APP_PORT ?= 8866
APP_IP   ?= 127.0.0.1
APP_IDLE ?=
APP_POOL ?=
CLASS    ?=
APP_ENV  := JUPYTER_PATH=$$($(BIN)/python -m pangaea_lab.core.fonts) PANGAEA_APP_IDLE=$(APP_IDLE) PANGAEA_APP_POOL=$(APP_POOL) PANGAEA_APP_CLASS=$(CLASS)

# The page template pangaea-lab (in the package) serves the package's font and asks nothing
# from the internet.
app: $(STAMP)
	@echo "Landing page: http://$(APP_IP):$(APP_PORT)/voila/render/00_start_here.ipynb  (Ctrl-C stops)"
	$(APP_ENV) $(BIN)/python app/classroom_app.py notebooks --no-browser --Voila.ip=$(APP_IP) --port=$(APP_PORT) \
		--Voila.config_file_paths=$(CURDIR)/app

# Every game's widgets clicked in a real browser (JupyterLab and the Voilà app), with
# Playwright and the system Chromium; installs Debian's chromium package when missing (as
# root). Screenshots go to build/screenshots/, server logs to build/browser-logs/.
CHROMIUM ?= /usr/bin/chromium
BROWSER_STAMP := $(VENV)/.installed-browser

$(BROWSER_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[lab,test,browser]"
	touch $(BROWSER_STAMP)

test-browser: $(BROWSER_STAMP)
	@if [ ! -x $(CHROMIUM) ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing Chromium from the Debian packages"; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; \
	fi
	@test -x $(CHROMIUM) || echo "Chromium is missing at $(CHROMIUM): install the chromium package (apt-get install chromium) or set CHROMIUM=/path/to/chromium"
	PANGAEA_BROWSER_TESTS=1 PANGAEA_CHROMIUM=$(CHROMIUM) $(BIN)/python -m pytest tests/browser \
		-p no:cacheprovider -n 2 --dist loadgroup -q

# The classroom JupyterHub (classroom/): every person on the roster their own server, run as
# their own system user, over HTTPS.  Installs JupyterHub, its login and idle culler (the `hub`
# extra) and configurable-http-proxy from npm into build/hub (Debian's nodejs and npm are
# installed when missing, as root), and the students' Python environment into
# $(HUB_ROOT)/env (`hub-env`: a Python every user may run, /usr/bin/python3 by default).
# `sudo make hub ROSTER=roster.txt` starts it on https://127.0.0.1:8000 (HUB_URL=... to open it
# to the room); `make test-hub` tests it (as root).  No password is ever given on the command
# line: first passwords are generated into the state folder (`make hub-passwords` shows them).
HUB_STAMP := $(VENV)/.installed-hub
CHP_VERSION ?= 4.6.3
CHP := build/hub/node_modules/.bin/configurable-http-proxy
HUB_ROOT ?= /srv/pangaea-lab
HUB_PYTHON ?= /usr/bin/python3
HUB_STATE ?= build/hub-state
HUB_URL ?=
HUB_ENV_STAMP := $(HUB_ROOT)/env/.installed
ROSTER ?=

$(HUB_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e ".[lab,test,hub,browser]"
	touch $(HUB_STAMP)

# npm, from the Debian packages when missing and run as root (the proxy and the site's Pyodide)
define NEED_NPM
	@if ! command -v npm >/dev/null && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing Node.js and npm from the Debian packages"; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm; \
	fi
	@command -v npm >/dev/null || { echo "npm is missing: install Node.js and npm (apt-get install nodejs npm)"; exit 1; }
endef

$(CHP):
	$(NEED_NPM)
	mkdir -p build/hub
	npm install --no-audit --no-fund --prefix build/hub configurable-http-proxy@$(CHP_VERSION)

hub-env: $(HUB_ENV_STAMP)

# the students' servers run this environment (a copy of the project, not the editable one:
# the repository may sit in a folder other users cannot read); rebuilt when the package changes
$(HUB_ENV_STAMP): $(HUB_STAMP) $(shell git ls-files pangaea_lab 2>/dev/null)
	@[ "$$(id -u)" = 0 ] || { echo "The classroom hub makes a system user per person: run this as root (sudo make ...)"; exit 1; }
	@if ! $(HUB_PYTHON) -m venv --help >/dev/null 2>&1 && command -v apt-get >/dev/null; then \
		echo "Installing Python's venv from the Debian packages"; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3 python3-venv; \
	fi
	mkdir -p $(HUB_ROOT)
	test -x $(HUB_ROOT)/env/bin/python || $(HUB_PYTHON) -m venv $(HUB_ROOT)/env
	$(HUB_ROOT)/env/bin/python -m pip install --quiet --upgrade pip
	$(HUB_ROOT)/env/bin/python -m pip install --quiet ".[lab]" nbgitpuller \
		"jupyterhub==$$($(BIN)/python -c 'import jupyterhub; print(jupyterhub.__version__)')"
	@# jsonschema checks "iri" strings with rfc3987-syntax when it is installed, which builds
	@# 38 grammars (lark) as it is imported: 0.9 CPU seconds of every student's server start,
	@# for a check no Jupyter schema uses
	$(HUB_ROOT)/env/bin/python -m pip uninstall --quiet --yes rfc3987-syntax lark
	chmod -R a+rX $(HUB_ROOT)/env
	chmod 755 $(HUB_ROOT)
	touch $(HUB_ENV_STAMP)

HUB_SETTINGS = PANGAEA_HUB_ROOT=$(HUB_ROOT) PANGAEA_HUB_STATE=$(abspath $(HUB_STATE)) \
	$(if $(ROSTER),PANGAEA_HUB_ROSTER=$(abspath $(ROSTER))) $(if $(HUB_URL),PANGAEA_HUB_URL=$(HUB_URL))

hub: $(HUB_STAMP) $(CHP) $(HUB_ENV_STAMP)
	@test -n "$(ROSTER)$$PANGAEA_HUB_ROSTER" || { echo "Name the class list: make hub ROSTER=roster.txt (one name per line; see classroom/README.md)"; exit 1; }
	$(HUB_SETTINGS) $(BIN)/jupyterhub -f classroom/jupyterhub_config.py

# the first passwords of new accounts, to print and hand out (readable only by root)
hub-passwords:
	@cat $(HUB_STATE)/passwords-to-hand-out.txt

# a teacher's new or fixed notebooks, published while the hub runs: each student receives them
# (merged with their own work) at their next start
hub-course:
	PANGAEA_HUB_ROOT=$(HUB_ROOT) $(BIN)/python classroom/course.py

# PostgreSQL's programs (initdb, pg_ctl) for the class record's tests on PostgreSQL: Debian's
# postgresql package is installed when they are missing (as root); nothing is started here
# (the tests start a throwaway cluster of their own, tests/record/postgres.py).
postgres:
	@if ! command -v initdb >/dev/null && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "Installing PostgreSQL from the Debian packages"; \
			apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql; \
		else echo "PostgreSQL is missing: install the postgresql package (apt-get install postgresql)"; exit 1; fi; \
	fi

# the class record's store and migrations on PostgreSQL (tests marked postgres), then the hub
test-hub: $(HUB_STAMP) $(CHP) $(HUB_ENV_STAMP) postgres
	PANGAEA_POSTGRES_TESTS=1 $(BIN)/python -m pytest tests/record -m postgres -p no:cacheprovider -q
	PANGAEA_HUB_TESTS=1 PANGAEA_HUB_ROOT=$(HUB_ROOT) PANGAEA_CHROMIUM=$(CHROMIUM) \
		$(BIN)/python -m pytest tests/hub -p no:cacheprovider -q

# N students log in at once and open two notebooks each (not part of `test`)
hub-load: $(HUB_STAMP) $(CHP) $(HUB_ENV_STAMP)
	PANGAEA_HUB_ROOT=$(HUB_ROOT) PANGAEA_CHROMIUM=$(CHROMIUM) $(BIN)/python bench/hub_load.py --students $(N)

# N students send 100 answers each to the class record over MINUTES minutes (default 5), one
# request per answer as a kernel sends them: write latency (median, p95; goal p95 < 100 ms),
# load average, every attempt stored once; exits with 1 if missed (not part of `test`;
# RECORD_DB=postgresql+psycopg://... runs it on PostgreSQL)
MINUTES ?= 5
RECORD_DB ?=
progress-load: $(HUB_STAMP) $(CHP) $(HUB_ENV_STAMP)
	PANGAEA_HUB_ROOT=$(HUB_ROOT) $(BIN)/python bench/progress_load.py --students $(N) \
		--minutes $(MINUTES) $(if $(RECORD_DB),--database '$(RECORD_DB)')

# A class of N simulated students walks through five pages each, in waves (bench/app_load.py,
# the app as `make app CLASS=N` runs it; four students in headless Chromium): time to widget,
# kernels alive and memory after each wave, click to redraw, kernels and memory once idle; exits
# with 1 if a goal is missed.  `make app-pages`: each page's start (kernel, first cell, notebook,
# memory).  Not part of `test`.
N ?= 30

app-load: $(BROWSER_STAMP)
	PANGAEA_CHROMIUM=$(CHROMIUM) $(BIN)/python bench/app_load.py --students $(N)

app-pages: $(STAMP)
	$(BIN)/python bench/app_pages.py

# The static site (build/site/): the app's pages as Voici pages (code hidden) running Python in
# each student's browser (Pyodide), served by any static file server; `python -m http.server
# -d build/site` serves it in a room.  The build tools go into build/site-tools (their versions
# in app/site/requirements.txt), Pyodide's core comes from npm's pyodide package, every wheel
# from PyPI (app/site/build.py); Node.js runs that Pyodide at build time to compile the site's
# Python files for it (app/site/precompile.mjs) and to make the memory snapshot that every page
# starts Python from (app/site/snapshot.mjs).  Voici's add-on for xeus kernels is removed from the tools: its
# build step needs an environment and its page asks a GitHub host for a file.
SITE_TOOLS := build/site-tools
SITE_STAMP := $(SITE_TOOLS)/.installed
PYODIDE_VERSION := $(shell sed -n 's/^PYODIDE = "\(.*\)"/\1/p' app/site/build.py)
PYODIDE_TGZ := build/site-work/pyodide-$(PYODIDE_VERSION).tgz

$(SITE_STAMP): app/site/requirements.txt
	test -x $(SITE_TOOLS)/bin/python || $(PYTHON) -m venv $(SITE_TOOLS)
	$(SITE_TOOLS)/bin/python -m pip install --quiet --upgrade pip
	$(SITE_TOOLS)/bin/python -m pip install --quiet -r app/site/requirements.txt
	$(SITE_TOOLS)/bin/python -m pip uninstall --quiet --yes jupyterlite-xeus
	touch $(SITE_STAMP)

$(PYODIDE_TGZ):
	$(NEED_NPM)
	mkdir -p build/site-work
	cd build/site-work && npm pack --silent pyodide@$(PYODIDE_VERSION)

site: $(SITE_STAMP) $(PYODIDE_TGZ)
	$(NEED_NPM)
	$(SITE_TOOLS)/bin/python app/site/build.py --pyodide $(PYODIDE_TGZ) --out build/site

# the site in Chromium with every request outside 127.0.0.1 refused (tests/site)
test-site: site $(BROWSER_STAMP)
	PANGAEA_SITE_TESTS=1 PANGAEA_CHROMIUM=$(CHROMIUM) $(BIN)/python -m pytest tests/site \
		-p no:cacheprovider -q

# the site's size, a first visit's download, the time to the first widget and to later pages
# (bench/site_load.py; not part of `test`)
site-load: site $(BROWSER_STAMP)
	PANGAEA_CHROMIUM=$(CHROMIUM) $(BIN)/python bench/site_load.py --site build/site

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

# Many seeded random games of every game, mode and player count, invariants checked after every
# step, every final state saved and loaded; one summary line per mode. Long: not part of `test`.
SOAK_GAMES ?= 1000

# Engine speed against an earlier commit, side by side (make bench-speed BASE=<commit>)
BASE ?= HEAD~1
bench-speed: $(STAMP)
	$(BIN)/python bench/bench_speed.py --base $(BASE)

# The same comparison counted in CPU instructions, which this shared machine's load does not
# move (needs valgrind; make bench-instructions BASE=<commit>)
bench-instructions: $(STAMP)
	$(BIN)/python bench/bench_instructions.py --base $(BASE)

soak: $(STAMP)
	$(BIN)/python bench/soak.py --games $(SOAK_GAMES)

clean:
	rm -rf $(VENV) build .pytest_cache
