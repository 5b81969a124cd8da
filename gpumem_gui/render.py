"""`gpumem-gui render`: a snapshot's window, map or timeline drawn to a PNG without a screen."""

from __future__ import annotations

from gpumem_gui.app import MainWindow, _application
from gpumem_gui.core.snapshot.loader import load_snapshot


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
    """Render a snapshot's window, map or timeline to a PNG without a screen."""
    app = _application()
    window = MainWindow()
    doc = window.add_document(load_snapshot(path), path, layout=layout)  # a render keeps no choice of its own
    if device is not None:
        doc.set_device(device)
    if at is not None:
        doc.travel_to(at)
        doc.timeline_view.set_event(at, emit=False)
    window.resize(*size)
    window.show()
    for _ in range(5):
        app.processEvents()
    widget = {"window": window, "map": doc.map, "timeline": doc.timeline_view}[view]
    if not widget.grab().save(out):
        raise OSError(f"could not write {out}")
    window.close()
