"""The loading worker finds a file's named spans (the steps, the record_function ranges) and hands them over with the
site bands: the window lists them without finding them itself (their numpy passes, in a thread of the window's
process, held the GIL for hundreds of ms at millions of events)."""

from __future__ import annotations

from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from gpumem_gui.app import MainWindow
from gpumem_gui.assets import example_path
from gpumem_gui.core.analysis.span import Span
from gpumem_gui.document import scope as scope_module
from gpumem_gui.qt_start import throwaway_settings
from gpumem_gui.sources.array_file import ArrayFileError, write_arrays
from gpumem_gui.sources.file_loader import FileLoadJob
from gpumem_gui.sources.transfer import load_spans, save_spans


def test_the_window_lists_the_workers_spans_without_finding_them(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    found_here: list[Any] = []
    real = scope_module.named_spans
    leak = str(example_path("training_leak"))

    def counted(snapshot: Any, *rest: Any) -> Any:
        if snapshot.source == leak:  # this test's tab (an earlier test's window may still find its own)
            found_here.append(snapshot)
        return real(snapshot, *rest)

    monkeypatch.setattr(scope_module, "named_spans", counted)
    with throwaway_settings() as settings:
        window = MainWindow(settings)
        qtbot.addWidget(window)
        window.show()
        window.open_files([leak])  # six training steps (test_document_span)
        window.wait_for_loads(60_000)
        tab = window.current_document()
        assert tab is not None and not tab.pending
        qtbot.waitUntil(lambda: tab.scope is not None and len(tab.scope.span_panel._spans) > 0, timeout=30_000)
        assert [s.name for s in tab.scope.span_panel._spans] == [f"step {k}" for k in range(1, 7)]
        assert found_here == [] and not tab.document.spans_coming
        window.shutdown()


def test_the_worker_sends_the_spans_before_the_bands() -> None:
    order: list[str] = []
    spans: list[Span] = []
    job = FileLoadJob(str(example_path("training_leak")), site_bands=True)
    result = job.run(
        on_whole=lambda _r: order.append("whole"),
        on_spans=lambda _d, s: (order.append("spans"), spans.extend(s)),
        timeout=60,
    )
    assert result.error is None and result.site_bands is not None
    assert order == ["whole", "spans"]
    assert [s.name for s in spans] == [f"step {k}" for k in range(1, 7)]
    assert [s.step for s in spans] == list(range(1, 7))  # the number the window words a step's name with


def test_a_spans_file_round_trips_and_a_forged_one_is_refused(tmp_path: Any) -> None:
    spans = [Span(-1, 40, "step 1", step=1), Span(40, 95, "forward")]
    save_spans(tmp_path / "s.arrays", 3, spans)
    device, loaded = load_spans(tmp_path / "s.arrays")
    assert (device, loaded) == (3, spans) and [s.step for s in loaded] == [1, 0]
    write_arrays(tmp_path / "bad.arrays", {}, {"device": 0, "spans": [[0, "x", "step 1"]]})
    with pytest.raises(ArrayFileError):
        load_spans(tmp_path / "bad.arrays")
