"""The window's several live jobs: attach to every local probe at once, and one overview tab of all the jobs."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6 import QtWidgets

if TYPE_CHECKING:
    from gpumem_gui.app import MainWindow
    from gpumem_gui.views.live.live_grid import LiveGrid
    from gpumem_gui.views.live.live_view import LiveView


class LiveActions:
    """Live > Attach to All, Live > All Jobs and Live > Attach to Socket, for one main window."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self.grid: LiveGrid | None = None

    def attach_all(self) -> list[LiveView]:
        """A tab per local job that runs a probe (one per rank of a torchrun job), then the overview of them."""
        from gpumem_gui.sources.probe_client import ProbeError, list_probes  # noqa: PLC0415

        try:
            probes = list_probes()
        except ProbeError as e:
            self.window.statusBar().showMessage(f"Attach to All: {e}", 10_000)
            return []
        watched = {v.session.path for v in self.window.live_views if v.state == "live"}
        views = [
            v for entry in probes if entry.path not in watched and (v := self.window.attach(entry.path)) is not None
        ]
        if not probes:
            self.window.statusBar().showMessage("No local job runs a gpumem-gui probe.", 10_000)
        elif len(self.window.live_views) > 1:
            self.show_grid()
        return views

    def show_grid(self) -> LiveGrid:
        """The overview: a row per live job and their reserved memory on one time axis."""
        from gpumem_gui.views.live.live_grid import LiveGrid  # noqa: PLC0415

        if self.grid is None:
            self.grid = LiveGrid()
            self.grid.job_activated.connect(self.window.tabs.setCurrentWidget)
            self.window.tabs.addTab(self.grid, "live: all jobs")
        for view in self.window.live_views:
            self.grid.add_view(view)
        self.window.tabs.setCurrentWidget(self.grid)
        return self.grid

    def view_added(self, view: LiveView) -> None:
        if self.grid is not None:
            self.grid.add_view(view)

    def closed(self, widget: QtWidgets.QWidget) -> None:
        if widget is self.grid:
            self.grid = None

    def attach_socket_dialog(self) -> None:
        """A probe's socket at any path: one forwarded from a GPU server with `ssh -L`."""
        text, ok = QtWidgets.QInputDialog.getText(
            self.window, "Attach to Socket", "Probe socket (e.g. /tmp/gpumem.sock, forwarded with ssh -L):"
        )
        if ok and text.strip():
            self.window.attach(Path(text.strip()).expanduser())
