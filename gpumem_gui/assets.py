"""Where the app's bundled files are: package data under gpumem_gui/data, found through importlib.resources."""

from __future__ import annotations

import atexit
import contextlib
import tomllib
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

# The package's own data, wherever the package is installed: a source tree, an editable install, a wheel in
# site-packages. Nothing here walks up from __file__, which is what broke the installed wheel.
DATA: Traversable = resources.files("gpumem_gui") / "data"

# Readers need real paths (the snapshot loader maps and hands files to a worker process). An unpacked install gives
# its own files; a zipped one gets extracted copies, kept until the interpreter exits.
_extracted = contextlib.ExitStack()
atexit.register(_extracted.close)


def real_path(item: Traversable) -> Path:
    """A file-system path for one bundled file or folder (itself where the package is unpacked)."""
    if isinstance(item, Path):
        return item
    return _extracted.enter_context(resources.as_file(item))


RESOURCES = real_path(DATA)
EXAMPLES = real_path(DATA / "examples")
QUIZZES = real_path(DATA / "quizzes")
GLOSSARY = real_path(DATA / "glossary.toml")  # one name per concept and language: the quizzes are held to it
PREDICTIONS = real_path(DATA / "predictions.toml")  # the predict-then-reveal step of each quiz question


def example_path(name: str) -> Path:
    """The bundled example snapshot `name` (see gpumem_gui/data/examples/examples.toml)."""
    return EXAMPLES / f"{name}.pickle"


def example_names() -> list[str]:
    """The bundled examples, in the order of their index, examples.toml."""
    index = tomllib.loads((DATA / "examples" / "examples.toml").read_text(encoding="utf-8"))
    return list(index)
