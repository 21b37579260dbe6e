# The only commands a newcomer needs: make book, make test (and make serve, make notebooks).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Each chapter is executed from its text notebook (book/_text/<lang>/<name>.md) into book/<lang>/<name>.ipynb.
NOTEBOOKS := $(patsubst book/_text/%.md,book/%.ipynb,$(wildcard book/_text/es/*.md book/_text/en/*.md))

.PHONY: book test bench serve lab notebooks diff fonts vega measure clean
REV ?= HEAD
# The site as published: `make book SITE_URL=https://owner.github.io/repo/ REPOSITORY=https://github.com/owner/repo`
# builds it with those addresses in place of _config.yml's html.baseurl and repository.url (lib/site/publisher.py;
# .github/workflows/publish.yml does so on GitHub Pages). Neither: an unpublished preview, which says so.
SITE_URL ?=
REPOSITORY ?=
export SITE_URL REPOSITORY

# Create the virtual environment when missing; reinstall when the pins or the Jupyter configuration change.
$(STAMP): requirements.txt pyproject.toml $(shell find jupyter-config -name '*.json' -o -name pyproject.toml)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

# The current axe-core for the browser tests, from the npm registry (package.json, package-lock.json).
NODE_STAMP := node_modules/.installed
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --silent
	touch $(NODE_STAMP)

## book: execute every chapter and build the site in both languages into _build/html
## (SITE_URL=… REPOSITORY=…: as published, at that address, from that repository)
book: $(STAMP) $(NODE_STAMP)
	$(PY) -m lib.site.preflight
	$(PY) -m lib.site.build

## test: every test (unit, registry, parity, nbval fact-check, strict build, built site)
test: $(STAMP) $(NODE_STAMP)
	$(PY) -m pytest

## bench: build times, test time, first-visit bytes and requests per page, site size, Lighthouse
## (mobile, served compressed: tests/lighthouse.py, also `$(PY) -m tests.lighthouse _build/html`), with targets
bench: $(STAMP) $(NODE_STAMP)
	$(PY) -m tests.bench

## serve: preview the built site at http://localhost:8000
serve: book
	$(PY) -m http.server --directory _build/html 8000

## lab: the chapters in JupyterLab, as on Binder (their prose with its numbers, charts offline);
## JupyterLab's options in ARGS (make lab ARGS="--no-browser --port 8888 --ip 0.0.0.0"); as root
## (a container, as Binder's and many clouds' are) with --allow-root, which JupyterLab asks for there
lab: $(STAMP)
	$(VENV)/bin/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) $(ARGS)

## notebooks: re-execute the chapters in place, refreshing the committed outputs nbval checks,
## then say what moved against the last commit
notebooks: $(STAMP)
	$(PY) -m lib.site.preflight
	$(PY) -m lib.site.notebooks $(NOTEBOOKS)
	$(PY) -m lib.site.moved

## diff: every sourced input and every glued figure and verdict that moved since REV (default HEAD)
diff: $(STAMP)
	$(PY) -m lib.site.moved $(REV)

## fonts: make the charts' font files again (lib/data/fonts, book/_static/fonts) from the npm
## package dejavu-fonts-ttf, for the characters the committed charts write (needs npm)
fonts: $(STAMP)
	$(PY) -m lib.site.fonts

## vega: make the site's Vega bundle again (book/_static/vega-bundle.js): Vega's runtime from
## the npm registry (the Vega vl-convert renders with), and the function that draws a chart (needs npm)
vega: $(STAMP)
	$(PY) -m lib.site.vega_bundle

## measure: the book's own measurements of training memory on a GPU (lib/measure/README.md): a
## separate environment (.venv-measure, requirements-measure.txt: torch, transformers, peft,
## accelerate, bitsandbytes), then every configuration, into lib/data/measured/. Options in ARGS
## (make measure ARGS="--models llama-7b --methods lora"); MEASURE_PY=python3 uses a Python that
## already has those packages (a GPU machine's own) instead of the venv
MEASURE_VENV := .venv-measure
MEASURE_PY ?= $(MEASURE_VENV)/bin/python
MEASURE_STAMP := $(MEASURE_VENV)/.installed
$(MEASURE_STAMP): requirements-measure.txt
	test -x $(MEASURE_VENV)/bin/python || $(PYTHON) -m venv $(MEASURE_VENV)
	$(MEASURE_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(MEASURE_VENV)/bin/python -m pip install --quiet -r requirements-measure.txt
	touch $(MEASURE_STAMP)

measure: $(if $(filter $(MEASURE_VENV)/bin/python,$(MEASURE_PY)),$(MEASURE_STAMP))
	$(MEASURE_PY) -m lib.measure.harness $(ARGS)

clean:
	rm -rf _build
