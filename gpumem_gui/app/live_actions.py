"""The window's live jobs: attach to one (a pid, a socket, the dialog's pick) or to every local probe at once, and
one overview tab of all the jobs."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6 import QtWidgets

from gpumem_gui.views.live.live_view import LiveView

if TYPE_CHECKING:
    from gpumem_gui.app.host import WindowHost
    from gpumem_gui.views.live.live_grid import LiveGrid


class LiveActions:
    """Live > Attach..., Attach to All, Attach to Socket, All Jobs and Detach, for one main window."""

    def __init__(self, host: WindowHost) -> None:
        self.host = host
        self.parent = host.host_widget()  # the dialogs' parent
        self.grid: LiveGrid | None = None

    def attach_all(self) -> list[LiveView]:
        """A tab per local job that runs a probe (one per rank of a torchrun job), then the overview of them."""
        from gpumem_gui.sources.probe_client import ProbeError, list_probes  # noqa: PLC0415

        try:
            probes = list_probes()
        except ProbeError as e:
            self.host.statusBar().showMessage(f"Attach to All: {e}", 10_000)
            return []
        watched = {v.session.path for v in self.host.live_views if v.state == "live"}
        views = [v for entry in probes if entry.path not in watched and (v := self.host.attach(entry.path)) is not None]
        if not probes:
            self.host.statusBar().showMessage("No local job runs a gpumem-gui probe.", 10_000)
        elif len(self.host.live_views) > 1:
            self.show_grid()
        return views

    def show_grid(self) -> LiveGrid:
        """The overview: a row per live job and their reserved memory on one time axis."""
        from gpumem_gui.views.live.live_grid import LiveGrid  # noqa: PLC0415

        if self.grid is None:
            self.grid = LiveGrid()
            self.grid.job_activated.connect(self.host.tabs.setCurrentWidget)
            self.host.tabs.addTab(self.grid, "live: all jobs")
        for view in self.host.live_views:
            self.grid.add_view(view)
        self.host.tabs.setCurrentWidget(self.grid)
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
            self.parent, "Attach to Socket", "Probe socket (e.g. /tmp/gpumem.sock, forwarded with ssh -L):"
        )
        if ok and text.strip():
            self.host.attach(Path(text.strip()).expanduser())

    def attach_dialog(self) -> None:
        from gpumem_gui.sources.local_jobs import local_jobs  # noqa: PLC0415
        from gpumem_gui.views.live.attach import AttachDialog  # noqa: PLC0415

        dialog = AttachDialog(local_jobs, self.parent)
        if dialog.exec() == QtWidgets.QDialog.DialogCode.Accepted and dialog.selected_probe() is not None:
            self.attach(dialog.selected_probe())

    def attach(self, target: int | Path | None) -> LiveView | None:
        """Watch the job with probe socket `target` (or pid) in a new tab; None, with a message, if it cannot."""
        from gpumem_gui.probe import wire  # noqa: PLC0415
        from gpumem_gui.sources.live import LiveSession  # noqa: PLC0415
        from gpumem_gui.sources.nvml import NvmlSource  # noqa: PLC0415
        from gpumem_gui.sources.probe_client import ProbeError, probe_hint  # noqa: PLC0415

        if target is None:
            return None
        try:
            path = wire.socket_path(target) if isinstance(target, int) else target
            if not path.exists():
                raise ProbeError(probe_hint(target) if isinstance(target, int) else f"no probe at {path}")
            if isinstance(target, Path):  # any path, perhaps forwarded: a silent peer must fail in seconds, here
                from gpumem_gui.sources.probe_socket import connect  # noqa: PLC0415

                client, _probe = connect(path)
                client.close()
            nvml = NvmlSource()
            session = LiveSession(path, nvml_used=lambda pid: nvml.read().pid_memory().get(pid))
        except (ProbeError, PermissionError) as e:
            QtWidgets.QMessageBox.warning(self.parent, "Attach", str(e))
            return None
        view = LiveView(session)
        view.open_requested.connect(lambda p: self.host.open_files([p]))  # an OOM the user chose from the view's list
        self.host.live_views.append(view)
        self.view_added(view)
        index = self.host.tabs.addTab(view, f"live: {view.title}" + ("" if view.local else " (remote)"))
        self.host.tabs.setTabToolTip(index, str(path))
        self.host.tabs.setCurrentIndex(index)
        return view

    def detach_current(self) -> None:
        view = self.host.tabs.currentWidget()
        if isinstance(view, LiveView):
            view.detach()
