# Two commands for a newcomer: `make lab` and `make test`.
# Each creates .venv on first use and installs the project into it (editable).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: lab test test-fast bench clean notebook-outputs

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[lab,test]"
	touch $(STAMP)

lab: $(STAMP)
	$(BIN)/jupyter lab notebooks/00_start_here.ipynb

# Two workers: the suite (random playouts over hundreds of seeds, every notebook) is made to
# finish in a few minutes on a 2-core machine.
test: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadfile --nbval-lax --doctest-modules -p no:cacheprovider \
		pangaea_lab README.md tests notebooks

test-fast: $(STAMP)
	$(BIN)/python -m pytest -p no:cacheprovider -x -q tests

# After changing a notebook: store the outputs that nbval checks (cells marked
# NBVAL_CHECK_OUTPUT) and clear the others.
notebook-outputs: $(STAMP)
	$(BIN)/python tests/notebook_outputs.py

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) build .pytest_cache
