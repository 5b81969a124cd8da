"""`gpumem-gui render`: the PNG has the asked size in every view, and a render says nothing but what it wrote."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6 import QtGui

from gpumem_gui.cli import RENDER_LAYOUTS, main
from gpumem_gui.document.document import LAYOUTS
from gpumem_gui.render import VIEWS, render
from tests.conftest import fixture_path

# one size below what the window's layout would like, one above; both differ from the window's default 1400x900
SIZES = [(640, 360), (1300, 850)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("view", VIEWS)
def test_the_png_has_the_asked_size(view: str, size: tuple[int, int], tmp_path: Path, qapp: Any) -> None:
    out = tmp_path / f"{view}.png"
    render(str(fixture_path("silmont_mem_snapshot.pickle")), str(out), view=view, size=size)
    image = QtGui.QImage(str(out))
    assert not image.isNull()
    assert (image.width(), image.height()) == size


def test_bad_view_and_size_are_one_line(tmp_path: Path, qapp: Any) -> None:
    path = str(fixture_path("silmont_mem_snapshot.pickle"))
    with pytest.raises(ValueError, match="no view 'plot'"):
        render(path, str(tmp_path / "a.png"), view="plot")
    with pytest.raises(ValueError, match="at least 1 pixel"):
        render(path, str(tmp_path / "a.png"), size=(0, 100))


def _clean_env(home: Path) -> dict[str, str]:
    keep = ("PATH", "LANG", "LC_ALL", "PYTHONPATH", "GPUMEM_GUI_PURE_PYTHON")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    return {**env, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"), "XDG_CACHE_HOME": str(home / ".cache")}


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("view", VIEWS)
def test_a_render_is_quiet_and_leaves_the_users_settings_alone(view: str, tmp_path: Path) -> None:
    """stdout is the one "wrote" line, stderr is empty (no "propagateSizeHints" from the offscreen platform), and
    the home folder is as it was: the user's saved geometry, layout and recent files untouched, nothing new."""
    home = tmp_path / "home"
    saved = home / ".config" / "gpumem_gui" / "gpumem-gui.conf"
    saved.parent.mkdir(parents=True)
    saved.write_text("[General]\nmap_layout=2\nrecent=/data/mine.pickle\n", encoding="utf-8")
    before = _files(home)
    out = tmp_path / "out.png"
    result = subprocess.run(
        [sys.executable, "-m", "gpumem_gui", "render", str(fixture_path("silmont_mem_snapshot.pickle")),
         "-o", str(out), "--view", view, "--size", "900x500"],
        env=_clean_env(home), capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout == f"wrote {out}\n"
    assert _files(home) == before
    assert QtGui.QImage(str(out)).size().toTuple() == (900, 500)


def test_qt_messages_pass_through_but_the_harmless_one(tmp_path: Path) -> None:
    code = (
        "from PySide6 import QtCore\n"
        "from gpumem_gui.app import application\n"
        "app = application()\n"
        "QtCore.qWarning('This plugin does not support propagateSizeHints()')\n"
        "QtCore.qWarning('a message that matters')\n"
    )
    env = {**_clean_env(tmp_path), "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == "a message that matters\n"


def test_every_layout_of_the_menu_can_be_rendered(tmp_path: Path, qapp: Any) -> None:
    assert len(RENDER_LAYOUTS) == len(LAYOUTS)  # a layout in the window's menu is one `render --layout` can draw
    out = tmp_path / "scale.png"
    path = str(fixture_path("silmont_mem_snapshot.pickle"))
    assert main(["render", path, "-o", str(out), "--view", "map", "--layout", "segment-scale"]) == 0
    assert not QtGui.QImage(str(out)).isNull()
