"""The breakdown view: the hand-worked site tree as rows (bytes, share, blocks), a picked line names its site, and
the summaries name the bytes allocated before recording."""

from __future__ import annotations

from typing import Any

from PySide6 import QtCore

from gpumem_gui.core.analysis.breakdown import breakdown_at
from gpumem_gui.core.analysis.site_tree import BEFORE_LABEL, site_tree
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.views.diagnosis.breakdown_view import BLOCKS, BYTES, SHARE, SITE, BreakdownView, text_bar
from tests.test_site_tree import hand_made


def _view(qtbot: Any) -> BreakdownView:
    snapshot = hand_made()
    timeline = build_timeline(snapshot, 0)
    event = timeline.n_events - 1
    view = BreakdownView()
    qtbot.addWidget(view)
    view.resize(700, 500)
    view.show()
    qtbot.waitExposed(view)
    view.show_breakdown(site_tree(snapshot, timeline, event), breakdown_at(snapshot, timeline, event))
    return view


def _row(view: BreakdownView, index: QtCore.QModelIndex) -> list[str]:
    model = view.tree.model()
    return [str(model.index(index.row(), col, index.parent()).data()) for col in (SITE, BYTES, SHARE, BLOCKS)]


def test_the_rows_read_the_hand_worked_tree(qtbot: Any) -> None:
    view = _view(qtbot)
    model = view.tree.model()
    top = [_row(view, model.index(r, 0)) for r in range(model.rowCount())]
    # 12 MiB + 512 bytes allocated: mlp.py 8 MiB, the load's 4 MiB before recording, 512 bytes without a stack
    assert top == [
        ["model/mlp.py", "8.0 MiB", "66.7%", "3"],
        [BEFORE_LABEL, "4.0 MiB", "33.3%", "1"],
        ["unknown", "512 B", "0.0%", "1"],
    ]
    mlp = model.index(0, 0)
    functions = [_row(view, model.index(r, 0, mlp)) for r in range(model.rowCount(mlp))]
    assert functions == [["mlp_forward", "7.0 MiB", "58.3%", "2"], ["gelu", "1.0 MiB", "8.3%", "1"]]
    forward = model.index(0, 0, mlp)
    lines = [_row(view, model.index(r, 0, forward)) for r in range(model.rowCount(forward))]
    assert lines == [["line 40", "5.0 MiB", "41.7%", "1"], ["line 44", "2.0 MiB", "16.7%", "1"]]
    assert model.parent(model.index(1, 0, forward)) == forward and not model.parent(mlp).isValid()
    summary = view.summary.toPlainText()
    assert "allocated before recording began" in summary and "4.0 MiB" in summary and "stream 0" in summary


def test_picking_a_line_names_its_site(qtbot: Any) -> None:
    view = _view(qtbot)
    model = view.tree.model()
    line = model.index(1, 0, model.index(0, 0, model.index(0, 0)))  # mlp.py > mlp_forward > line 44
    view.tree.scrollTo(line)
    rect = view.tree.visualRect(line)
    with qtbot.waitSignal(view.site_selected, timeout=2000) as signal:
        qtbot.mouseClick(view.tree.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=rect.center())
    assert signal.args == ["/work/model/mlp.py:44:mlp_forward"]


def test_text_bars_are_as_long_as_their_share() -> None:
    assert text_bar(1.0, 4) == "████" and text_bar(0.0, 4) == "" and text_bar(0.5, 3) == "█▌"
