"""The window's setting of your code's folders: saved, applied at the next start unless the command line chose, and a
change reads the open files again so that their sites follow it. The map names a block by its site."""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gpumem_gui.app import MainWindow
from gpumem_gui.app import user_code as app_user_code
from gpumem_gui.core.allocator.simulator import DeviceAllocatorSim
from gpumem_gui.core.rules.allocator_constants import MiB
from gpumem_gui.core.snapshot.frame_kinds import LIBRARY_ENV, USER_CODE_ENV, set_user_code, user_code
from gpumem_gui.core.snapshot.stacks import stack_sites
from gpumem_gui.qt_start import throwaway_settings

VENV = "/home/me/.venv/lib/python3.11/site-packages"
MODEL = "/home/me/proj/model.py"
# the einsum allocations of a real trace (silmont_mem_snapshot.pickle): torch under einops under the model's line
EINSUM = [
    {"name": "einsum", "filename": f"{VENV}/torch/functional.py", "line": 407},
    {"name": "einsum", "filename": f"{VENV}/einops/_backends.py", "line": 288},
    {"name": "forward", "filename": MODEL, "line": 88},
]
PAIR = f"{MODEL}:88:forward via einops/_backends.py:288:einsum"
EINOPS_OWN = f"{VENV}/einops/_backends.py:288:einsum via torch/functional.py:407:einsum"


@pytest.fixture
def clean_choice(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv(USER_CODE_ENV, raising=False)
    monkeypatch.delenv(LIBRARY_ENV, raising=False)
    set_user_code()
    yield
    set_user_code()


def _file(tmp_path: Path) -> str:
    sim = DeviceAllocatorSim(8 << 30)
    sim.malloc(4 * MiB, frames=EINSUM)
    path = tmp_path / "einsum.pickle"
    path.write_bytes(pickle.dumps(sim.snapshot()))
    return str(path)


def _labels(window: MainWindow) -> list[str]:
    doc = window.current_document()
    assert doc is not None
    sites, labels = stack_sites(doc.document.snapshot.stacks)
    return [labels[s] for s in sites if s >= 0]


def test_a_change_reads_the_open_file_again_with_the_new_folders(
    qtbot: Any, tmp_path: Path, clean_choice: None
) -> None:
    path = _file(tmp_path)
    with throwaway_settings() as settings:
        window = MainWindow(settings)
        qtbot.addWidget(window)
        window.open_files([path])
        window.wait_for_loads()
        assert _labels(window) == [PAIR]
        doc = window.current_document()
        assert doc is not None and "<b>site</b> model.py:88:forward via einops" in doc.map.describe(0)
        app_user_code.change_folders(settings, ["einops"], [], window.reopen_file_tabs, window._say)
        assert "1 open file(s) read again" in window.statusBar().currentMessage()
        window.wait_for_loads()
        assert window.tabs.count() == 1 and _labels(window) == [EINOPS_OWN]
        assert app_user_code.saved_folders(settings) == (["einops"], [])
        window.close()


def test_saved_folders_apply_at_the_next_start_unless_the_command_line_chose(
    qtbot: Any, clean_choice: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    with throwaway_settings() as settings:
        settings.setValue(app_user_code.KEY_OWN, ["einops"])
        window = MainWindow(settings)
        qtbot.addWidget(window)
        assert user_code().own == ("einops",)
        window.close()
        set_user_code()
        monkeypatch.setenv(USER_CODE_ENV, "diffusers")  # `gpumem-gui --user-code diffusers FILE`
        window = MainWindow(settings)
        qtbot.addWidget(window)
        assert user_code().own == ()  # the saved folders left alone: the command line's hold for the session
        window.close()
