"""Without a display, the window's commands say in one line what to do instead of letting Qt abort."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the check is for Linux's X11/Wayland")


def _clean_env(home: Path) -> dict[str, str]:
    """A login on a GPU server over plain SSH: no DISPLAY, no WAYLAND_DISPLAY, no Qt platform chosen."""
    keep = ("PATH", "LANG", "LC_ALL", "PYTHONPATH", "GPUMEM_GUI_PURE_PYTHON")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    return {**env, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"), "XDG_CACHE_HOME": str(home / ".cache")}


@pytest.mark.parametrize("argv", [[], ["quiz"], ["quiz", "gpu-memory"], ["attach", "12345"]], ids=" ".join)
def test_no_display_one_line_and_exit_2(argv: list[str], tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "gpumem_gui", *argv],
        env=_clean_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    line = lines[0]
    assert line.startswith("gpumem-gui: no display here")
    for advice in ("where your desktop is", "gpumem-gui attach PID --once --save FILE", "gpumem-gui render"):
        assert advice in line
    assert "xcb" not in result.stderr
    assert not any(tmp_path.iterdir()), "nothing written into the home folder"


def test_a_display_or_a_chosen_platform_is_not_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from gpumem_gui import qt_start  # noqa: PLC0415

    monkeypatch.setattr(qt_start.QtWidgets.QApplication, "instance", staticmethod(lambda: None))
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    assert qt_start.no_display_problem() is not None
    for name, value in (("DISPLAY", ":0"), ("WAYLAND_DISPLAY", "wayland-0"), ("QT_QPA_PLATFORM", "offscreen")):
        monkeypatch.setenv(name, value)
        assert qt_start.no_display_problem() is None, name
        monkeypatch.delenv(name)
