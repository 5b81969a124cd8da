"""Where the app's bundled files are: the top-level quizzes/ and resources/ folders, shipped inside the package as
gpumem_gui.quizzes and gpumem_gui.resources and found through importlib.resources."""

from __future__ import annotations

import atexit
import contextlib
import tomllib
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

# The repository keeps them at its top (the design card's layout); setup.py maps them into the package, so a wheel,
# an sdist and an editable install all carry them under gpumem_gui.
_CHECKOUT = Path(__file__).resolve().parent.parent


def _package_data(name: str) -> Traversable:
    """The bundled folder `name` (quizzes or resources) wherever the package is installed; a checkout run without
    installing it (PYTHONPATH=.) reads the folder at the repository's top."""
    try:
        return resources.files(f"gpumem_gui.{name}")
    except ModuleNotFoundError:
        return _CHECKOUT / name


# Readers need real paths (the snapshot loader maps and hands files to a worker process). An unpacked install gives
# its own files; a zipped one gets extracted copies, kept until the interpreter exits.
_extracted = contextlib.ExitStack()
atexit.register(_extracted.close)


def real_path(item: Traversable) -> Path:
    """A file-system path for one bundled file or folder (itself where the package is unpacked)."""
    if isinstance(item, Path):
        return item
    return _extracted.enter_context(resources.as_file(item))


RESOURCES = real_path(_package_data("resources"))
EXAMPLES = RESOURCES / "examples"
GLOSSARY = RESOURCES / "glossary.toml"  # one name per concept and language: the quizzes are held to it
QUIZZES = real_path(_package_data("quizzes"))
PREDICTIONS = RESOURCES / "predictions.toml"  # the predict-then-reveal step of each quiz question
CHALLENGES = RESOURCES / "challenges.toml"  # the debugging challenge's words


def example_path(name: str) -> Path:
    """The bundled example snapshot `name` (see resources/examples/examples.toml)."""
    return EXAMPLES / f"{name}.pickle"


def example_names() -> list[str]:
    """The bundled examples, in the order of their index, examples.toml."""
    index = tomllib.loads((EXAMPLES / "examples.toml").read_text(encoding="utf-8"))
    return list(index)
