"""StackView: the user's frames by default, every frame with the toggle, text that can be copied."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Frame
from gpumem_gui.views.common import palette
from gpumem_gui.views.common.stack_view import StackView, location
from tests.conftest import fixture_path, load_raw

USER = Frame("forward", "/home/u/proj/model.py", 42)
TORCH = Frame("_call_impl", "/venv/lib/python3.11/site-packages/torch/nn/modules/module.py", 1527)
MALLOC = Frame("c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc(int)", "x.cpp", 0)
EVAL = Frame("_PyEval_EvalFrameDefault", "??", 0)
RANDN = Frame("at::native::randn(c10::ArrayRef<long>)", "??", 0)
RECORDED = [MALLOC, RANDN, EVAL, TORCH, EVAL, USER]


@pytest.fixture
def view(qtbot: Any) -> StackView:
    widget = StackView()
    qtbot.addWidget(widget)
    widget.resize(400, 300)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _lines(view: StackView) -> list[str]:
    return view.text.toPlainText().splitlines()


def test_user_frames_first_and_the_toggle_shows_all(view: StackView) -> None:
    view.set_frames(RECORDED, "allocation #3")
    assert view.title.text() == "allocation #3"
    assert not view.show_all.isChecked()
    assert view.frames_shown() == [TORCH, USER, RANDN]  # Python first, innermost first; no malloc, no eval loop
    assert _lines(view) == [
        "_call_impl  torch/nn/modules/module.py:1527",
        "forward  proj/model.py:42",
        "at::native::randn",
    ]
    assert view.show_all.text() == "Show all frames (3 hidden)"
    seen: list[bool] = []
    view.show_all_changed.connect(seen.append)
    view.show_all.setChecked(True)
    assert seen == [True]
    assert view.frames_shown() == RECORDED  # everything, in the recorded order
    assert len(_lines(view)) == len(RECORDED)
    view.show_all.setChecked(False)
    assert view.frames_shown() == [TORCH, USER, RANDN]


def test_user_frames_are_prominent_and_hidden_ones_grey(view: StackView) -> None:
    view.set_frames(RECORDED)
    view.show_all.setChecked(True)

    def style(row: int) -> tuple[str, bool]:
        block = view.text.document().findBlockByNumber(row)
        fmt = block.begin().fragment().charFormat()
        return fmt.foreground().color().name(), fmt.fontWeight() >= QtGui.QFont.Weight.Bold.value

    assert style(RECORDED.index(USER)) == (palette.STACK_USER, True)
    assert style(RECORDED.index(TORCH)) == (palette.STACK_OTHER, False)
    assert style(RECORDED.index(MALLOC)) == (palette.STACK_HIDDEN, False)
    assert style(RECORDED.index(EVAL)) == (palette.STACK_HIDDEN, False)


def test_text_is_selectable_and_copies(view: StackView) -> None:
    view.set_frames(RECORDED)
    assert view.text.isReadOnly()
    assert view.text.textInteractionFlags() & QtCore.Qt.TextInteractionFlag.TextSelectableByMouse
    view.text.selectAll()
    view.text.copy()
    assert QtWidgets.QApplication.clipboard().text().splitlines() == _lines(view)


def test_tooltip_names_the_full_path(view: StackView, monkeypatch: pytest.MonkeyPatch) -> None:
    view.set_frames(RECORDED)
    shown: list[str] = []
    monkeypatch.setattr(QtWidgets.QToolTip, "showText", lambda pos, text, *a: shown.append(text))
    row = view.frames_shown().index(USER)
    rect = view.text.cursorRect(QtGui.QTextCursor(view.text.document().findBlockByNumber(row)))
    point = rect.center() + QtCore.QPoint(20, 0)
    event = QtGui.QHelpEvent(QtCore.QEvent.Type.ToolTip, point, view.text.viewport().mapToGlobal(point))
    QtWidgets.QApplication.sendEvent(view.text.viewport(), event)
    assert shown and "/home/u/proj/model.py:42" in shown[0] and "your code" in shown[0]


def test_clear_and_empty_stacks(view: StackView) -> None:
    view.set_frames(RECORDED, "x")
    view.clear()
    assert view.text.toPlainText() == "" and view.frames_shown() == []
    assert not view.show_all.isEnabled() and not view.title.isVisible()


def test_a_real_cpp_stack_shows_its_user_frame_first(view: StackView) -> None:
    path = fixture_path("silmont_mem_snapshot.pickle")
    snapshot, raw = load_snapshot(path), load_raw(path)
    event = raw["device_traces"][0][0]
    frames = snapshot.stacks.stack(int(snapshot.traces[0].stack[0]))
    view.set_frames(frames)
    python = [f for f in event["frames"] if f["filename"].endswith(".py")]
    assert python and len(python) < len(event["frames"]) // 4  # a C++ stack: few Python frames among many
    first = _lines(view)[0]
    assert first.startswith(python[0]["name"] + "  ") and first.endswith(f":{python[0]['line']}")
    view.show_all.setChecked(True)
    assert len(_lines(view)) == len(event["frames"])


def test_locations_are_short() -> None:
    assert location(TORCH) == "torch/nn/modules/module.py:1527"
    assert location(Frame("f", "D:\\Dev\\p\\model.py", 3)) == "p/model.py:3"
    assert location(MALLOC) == "x.cpp"
    assert location(EVAL) == ""


def test_size_suits_a_side_panel(view: StackView) -> None:
    long_name = Frame("f" * 400, "/a/" + "b" * 400 + ".py", 1)
    before = view.sizeHint().width(), view.minimumSizeHint().width()
    view.set_frames([long_name], "t" * 300)
    assert (view.sizeHint().width(), view.minimumSizeHint().width()) == before  # long frames never widen it
    assert view.minimumSizeHint().height() < view.sizeHint().height() < 400
