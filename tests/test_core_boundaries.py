"""`core`, `document` and `sources` import neither Qt nor torch, and the window loads without torch.

lint-imports checks the same arrows statically (pyproject.toml); these tests check what really gets loaded, which
also catches an import hidden from the static graph (importlib, a plugin, a C extension).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

WALK = """
import importlib, pkgutil, sys
package = importlib.import_module({package!r})
for info in pkgutil.walk_packages(package.__path__, {package!r} + "."):
    importlib.import_module(info.name)
"""


@pytest.mark.parametrize("package", ["gpumem_gui.core", "gpumem_gui.document", "gpumem_gui.sources"])
def test_core_imports_without_qt_or_torch(package: str) -> None:
    code = (
        textwrap.dedent(
            """
        import sys

        class Hide:
            # make Qt, pyqtgraph and torch unimportable, so any import of them from the package fails loudly
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in {"PySide6", "shiboken6", "pyqtgraph", "torch"}:
                    raise ImportError(f"this layer must not import {name}")
                return None

        sys.meta_path.insert(0, Hide())
        """
        )
        + WALK.format(package=package)
        + textwrap.dedent(
            """
        bad = sorted(m for m in sys.modules if m.split(".")[0] in {"PySide6", "pyqtgraph", "torch"})
        print("ok" if not bad else bad)
        """
        )
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_window_loads_without_torch() -> None:
    # the lab panel reaches torch through teach's lab, lazily: opening the window must not pay torch's import
    code = WALK.format(package="gpumem_gui.views") + "import gpumem_gui.app\nprint('torch' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert result.stdout.strip() == "False"


def test_cli_report_imports_no_qt() -> None:
    code = "import sys, gpumem_gui.cli; print(any(m.startswith(('PySide6', 'torch')) for m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
