"""Where the app's bundled files are: one place for every asset path."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESOURCES = ROOT / "resources"
EXAMPLES = RESOURCES / "examples"
QUIZZES = ROOT / "quizzes"


def example_path(name: str) -> Path:
    """The bundled example snapshot `name` (see resources/examples/examples.toml)."""
    return EXAMPLES / f"{name}.pickle"
