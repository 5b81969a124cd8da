"""`gpumem-gui render`: a snapshot's window, map, timeline or site timeline drawn to a PNG without a screen."""

from __future__ import annotations

from PySide6 import QtWidgets

from gpumem_gui.app import MainWindow, _application
from gpumem_gui.core.analysis.site_series import build_site_series
from gpumem_gui.core.analysis.timetravel import build_timeline
from gpumem_gui.core.snapshot.loader import load_snapshot
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.qt_start import throwaway_settings
from gpumem_gui.views.site_timeline import SiteTimelineView

VIEWS = ("window", "map", "timeline", "sites")


def render(
    path: str,
    out: str,
    *,
    view: str = "window",
    at: int | None = None,
    device: int | None = None,
    size: tuple[int, int] = (1400, 900),
    layout: int = 0,
) -> None:
    """Render a snapshot's window, map or timeline to a PNG of `size` pixels without a screen.

    The window keeps its choices in settings of its own that go with the render: the user's saved geometry, map
    layout and recent files stay as they were. ValueError for a size or view that cannot be drawn."""
    if view not in VIEWS:
        raise ValueError(f"no view {view!r} (views: {', '.join(VIEWS)})")
    width, height = size
    if width < 1 or height < 1:
        raise ValueError(f"size {width}x{height}: both must be at least 1 pixel")
    snapshot = load_snapshot(path)
    app = _application()
    if view == "sites":
        _render_sites(app, snapshot, out, at=at, device=device, size=size)
        return
    with throwaway_settings() as settings:
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
                widget = doc.map if view == "map" else doc.timeline_view
                widget.setParent(None)
            widget.setMinimumSize(1, 1)  # the asked size, even below what the layout would like: the caller chose
            widget.resize(width, height)
            widget.show()
            for _ in range(5):
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
