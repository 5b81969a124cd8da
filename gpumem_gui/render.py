"""`gpumem-gui render`: a snapshot's window, map or timeline drawn to a PNG without a screen."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from gpumem_gui.app import MainWindow, application
from gpumem_gui.core.analysis.site_series import build_site_series
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.document.search import parse_address
from gpumem_gui.qt_start import throwaway_settings
from gpumem_gui.views.snapshot.site_timeline import SiteTimelineView
from gpumem_gui.views.snapshot.tab import SnapshotTab

VIEWS = ("window", "map", "timeline", "sites", "settings", "segments", "pools", "flame")


def render(
    path: str,
    out: str,
    *,
    view: str = "window",
    at: int | None = None,
    device: int | None = None,
    size: tuple[int, int] = (1400, 900),
    layout: int = 0,
    pin: str | None = None,
) -> None:
    """Render a snapshot's window, map, timeline, site timeline, allocator settings page, cached-segment timeline or
    memory by pool to a PNG of `size` pixels without a screen; `pin`: the stack of the block at that address (0x...
    or decimal) pinned over the map.

    The window keeps its choices in settings of its own that go with the render: the user's saved geometry, map
    layout and recent files stay as they were. ValueError for a size or view that cannot be drawn."""
    if view not in VIEWS:
        raise ValueError(f"no view {view!r} (views: {', '.join(VIEWS)})")
    address = None if pin is None else parse_address(pin)
    if pin is not None and (address is None or view not in ("window", "map")):
        raise ValueError(f"--pin {pin!r}: an address (0x... or decimal) of a block, with the window or the map")
    width, height = size
    if width < 1 or height < 1:
        raise ValueError(f"size {width}x{height}: both must be at least 1 pixel")
    snapshot = load_snapshot(path)
    app = application()
    if view == "sites":
        _render_sites(app, snapshot, out, at=at, device=device, size=size)
        return
    with throwaway_settings() as settings:
        settings.setValue("language", "en")  # the same picture whatever the system's language (the docs' images)
        window = MainWindow(settings)
        widget: QtWidgets.QWidget = window
        try:
            doc = window.add_document(snapshot, path, layout=layout)  # a render keeps no choice of its own
            if device is not None:
                doc.set_device(device)
            if at is not None:
                doc.travel_to(at)
                doc.timeline_view.set_event(at, emit=False)
            if view != "window":
                window.resize(*size)
                window.show()
                app.processEvents()
                # the view alone, as a window of the asked size: inside the main window a layout decides its size
                widget = _view_widget(doc, view)
                widget.setParent(None)
            widget.setMinimumSize(1, 1)  # the asked size, even below what the layout would like: the caller chose
            widget.resize(width, height)
            widget.show()
            for _ in range(5):
                app.processEvents()
            if address is not None:
                doc.map.pin_block(_block_at(doc, address))
                app.processEvents()
            picture = widget.grab()
            if picture.width() != width or picture.height() != height:
                raise ValueError(f"the {view} came out {picture.width()}x{picture.height()}, not {width}x{height}")
            if not picture.save(out, "PNG"):
                raise OSError(f"could not write {out}")
        finally:
            if widget is not window:
                widget.close()
                widget.deleteLater()
            window.close()
            app.processEvents()


def _view_widget(doc: SnapshotTab, view: str) -> QtWidgets.QWidget:
    """The part of a tab that `view` names, filled."""
    if view == "map":
        return doc.map
    if view == "settings":
        return doc.settings_view
    if view == "segments":
        doc.show_segments()
        return doc.segment_timeline
    if view == "pools":
        doc.show_pools()
        return doc.pool_envelope
    if view == "flame":  # the flame graph of the bytes live at the event shown, computed on the tab's tasks
        deadline = QtCore.QDeadlineTimer(60_000)
        while (doc.settling() or doc.scope is None) and not deadline.hasExpired():  # the tab's last part: its scope
            QtWidgets.QApplication.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 20)
        if doc.scope is None:
            raise RuntimeError("the tab's flame graph was not made within a minute")
        doc.curve_tabs.setCurrentWidget(doc.scope.flame_page)  # shown, it computes its frame
        doc.tasks.wait()
        return doc.scope.flame_page
    return doc.timeline_view


def _block_at(doc: SnapshotTab, address: int) -> int:
    """The block of the map's state that holds `address`."""
    state = doc.map.state
    blocks = state.blocks if state is not None else None
    if blocks is not None:
        inside = (blocks.address <= address) & (address < blocks.address + blocks.size)
        if inside.any():
            return int(inside.argmax())
    raise ValueError(f"--pin: no block holds address {address:#x} at the event shown")


def _render_sites(
    app: QtWidgets.QApplication,
    snapshot: Snapshot,
    out: str,
    *,
    at: int | None,
    device: int | None,
    size: tuple[int, int],
) -> None:
    """The site timeline alone (the window fills its own only when its tab is shown), its bands made here."""
    timeline = build_timeline(snapshot, snapshot.default_device() if device is None else device)
    widget = SiteTimelineView()
    try:
        widget.setMinimumSize(1, 1)
        widget.resize(*size)
        widget.show()
        widget.set_document(snapshot, timeline, build_site_series(snapshot, timeline), at)
        for _ in range(5):
            app.processEvents()
        if not widget.grab().save(out, "PNG"):
            raise OSError(f"could not write {out}")
    finally:
        widget.close()
        widget.deleteLater()
        app.processEvents()
