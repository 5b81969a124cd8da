"""`core` is the library under the CLI and the views: it must import neither Qt nor torch."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_core_imports_without_qt_or_torch() -> None:
    code = textwrap.dedent(
        """
        import importlib, pkgutil, sys

        class Hide:
            # make Qt, pyqtgraph and torch unimportable, so any import of them from core fails loudly
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in {"PySide6", "shiboken6", "pyqtgraph", "torch"}:
                    raise ImportError(f"core must not import {name}")
                return None

        sys.meta_path.insert(0, Hide())
        import gpumem_gui.core as core
        for info in pkgutil.walk_packages(core.__path__, "gpumem_gui.core."):
            importlib.import_module(info.name)
        bad = sorted(m for m in sys.modules if m.split(".")[0] in {"PySide6", "pyqtgraph", "torch"})
        print("ok" if not bad else bad)
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_cli_report_imports_no_qt() -> None:
    code = "import sys, gpumem_gui.cli; print(any(m.startswith(('PySide6', 'torch')) for m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
