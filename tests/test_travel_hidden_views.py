"""Views behind another page do not follow each travel, and show the cursor's event once their page is picked:
the event inspector behind the block page reads out, when picked, the raw trace's entry the map is right after."""

from __future__ import annotations

from typing import Any

from gpumem_gui.core import load_snapshot
from gpumem_gui.views.snapshot.tab import SnapshotTab
from tests.conftest import fixture_path, load_raw


def test_the_inspector_behind_another_page_catches_up_when_picked(qtbot: Any) -> None:
    path = fixture_path("magma27_memory_snapshot.pickle")
    entries = load_raw(path)["device_traces"][0]
    view = SnapshotTab(load_snapshot(path))
    qtbot.addWidget(view)
    view.resize(1200, 800)
    view.show()
    inspector = view.inspector
    area = view.side_tabs.widget(0)
    view.side_tabs.setCurrentWidget(view.block_page)  # the user reads a block's page: the inspector is hidden
    before = inspector.heading.text()
    for event in (100, 2500, 2501):
        view.travel_to(event)
    view.step(1)  # the arrow key's road
    assert view.current_event == 2502
    assert inspector.heading.text() == before  # it waited: no travel read the events out behind the block page
    view.side_tabs.setCurrentWidget(area)  # picked: at the cursor's event, as the raw trace has it
    e = entries[2502]
    assert inspector.heading.text().startswith(f"event 2,502 of {len(entries):,}: ")
    assert f"({e['size']:,} bytes)" in inspector.values["size"].text()
    assert inspector.info is not None and inspector.info.index == 2502 and inspector.info.address == e["addr"]
    view.travel_to(10)  # shown: it follows each travel again
    assert inspector.info is not None and inspector.info.index == 10 and inspector.info.address == entries[10]["addr"]
    view.side_tabs.setCurrentWidget(view.block_page)
    view.travel_to(20)
    assert view.inspector.info is not None and view.inspector.info.index == 20  # read while hidden: brought up to date
