"""The window's live jobs: attach to one (a pid, a socket, the dialog's pick) or to every local probe at once, and
one overview tab of all the jobs. Everything that waits on a socket or the driver runs in a task: a probe that never
answers costs a thread its handshake time, never the window a frame."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6 import QtCore, QtWidgets

# imported with the window, not by the first attach's task: compiling a module holds the GIL, and the GUI thread
# would wait for it (tens of ms where no bytecode is cached)
from gpumem_gui.probe import wire
from gpumem_gui.sources.live import LiveSession
from gpumem_gui.sources.nvml import NvmlSource
from gpumem_gui.sources.probe_client import ProbeError, probe_hint
from gpumem_gui.sources.probe_socket import connect
from gpumem_gui.sources.words import as_is, say
from gpumem_gui.views.common import language
from gpumem_gui.views.common.language import QT_TRANSLATE_NOOP, translate
from gpumem_gui.views.common.sentences import said
from gpumem_gui.views.common.tasks import ATTACH_ALL_TASK, ATTACH_TASK, TaskContext
from gpumem_gui.views.live.attaching import Attaching, rank_order
from gpumem_gui.views.live.live_view import LiveView

if TYPE_CHECKING:
    from gpumem_gui.app.host import WindowHost
    from gpumem_gui.sources.probe_client import ProbeEntry
    from gpumem_gui.views.live.live_grid import LiveGrid


def open_session(target: int | Path, ctx: TaskContext) -> LiveSession:
    """A task's work: the probe of `target` (a pid or a socket's path) reached, its handshake bounded, and a session
    with it; ProbeError (one line) when there is none."""
    path = wire.socket_path(target) if isinstance(target, int) else target
    if not path.exists():
        missing = translate("LiveActions", "no probe at {path}").format(path=path)
        raise ProbeError(probe_hint(target) if isinstance(target, int) else missing)  # translated where shown
    client, _probe = connect(path)  # any path, perhaps forwarded: a silent peer fails in seconds, here
    client.close()
    ctx.check()
    nvml = NvmlSource()
    session = LiveSession(path, nvml_used=lambda pid: nvml.read().pid_memory().get(pid))
    if ctx.cancelled:  # the window closed meanwhile: nobody will watch it
        session.client.close()
        ctx.check()
    return session


class LiveActions:
    """Live > Attach..., Attach to All, Attach to Socket, All Jobs and Detach, for one main window."""

    def __init__(self, host: WindowHost) -> None:
        self.host = host
        self.parent = host.host_widget()  # the dialogs' parent
        self.grid: LiveGrid | None = None
        self.pending: set[int | Path] = set()  # targets being attached: Attach to All does not attach them twice

    def attach_all(self) -> Attaching:
        """A tab per local job that runs a probe (one per rank of a torchrun job), then the overview of them; the
        probes are looked for, and each attached, in tasks."""
        attaching = Attaching()

        def listed(probes: list[Path]) -> None:
            if not probes:
                self.host.statusBar().showMessage(
                    translate("LiveActions", "No local job runs a gpumem-gui probe."), 10_000
                )
                return
            watched = {v.session.path for v in self.host.live_views if v.state == "live"} | set(self.pending)
            for path in probes:
                if path not in watched:
                    self._start(path, attaching, warn=False)
            self._grid_when_done(attaching)

        attaching.tasks.append(
            self.host.tasks.start(
                ATTACH_ALL_TASK,
                lambda _ctx: [entry.path for entry in _list_probes()],
                on_result=listed,
                on_error=attaching.errors.append,
            )
        )
        return attaching

    def _grid_when_done(self, attaching: Attaching) -> None:
        def one_done() -> None:
            if attaching.done() and len(self.host.live_views) > 1:
                self.show_grid()

        for task in attaching.tasks:
            task.finished.connect(one_done)

    def show_grid(self) -> LiveGrid:
        """The overview: a row per live job and their reserved memory on one time axis."""
        from gpumem_gui.views.live.live_grid import LiveGrid  # noqa: PLC0415

        if self.grid is None:
            self.grid = LiveGrid()
            self.grid.job_activated.connect(self.host.tabs.setCurrentWidget)
            language.add_tab(self.host.tabs, self.grid, QT_TRANSLATE_NOOP("Tabs", "live: all jobs"))
        for view in sorted(self.host.live_views, key=rank_order):
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
            self.parent,
            translate("LiveActions", "Attach to Socket"),
            translate("LiveActions", "Probe socket (e.g. /tmp/gpumem.sock, forwarded with ssh -L):"),
        )
        if ok and text.strip():
            self.host.attach(Path(text.strip()).expanduser())

    def attach_dialog(self) -> None:
        from gpumem_gui.sources.local_jobs import local_jobs  # noqa: PLC0415
        from gpumem_gui.views.live.attach import AttachDialog  # noqa: PLC0415

        dialog = AttachDialog(local_jobs, self.parent)  # it lists the jobs in a task of its own
        if dialog.exec() == QtWidgets.QDialog.DialogCode.Accepted and dialog.selected_probe() is not None:
            self.attach(dialog.selected_probe())

    def attach(self, target: int | Path | None) -> Attaching | None:
        """Watch the job with probe socket `target` (or pid) in a new tab, opened once its probe has answered (in a
        task); where it cannot, a message says why. None for no target."""
        if target is None:
            return None
        attaching = Attaching()
        self._start(target, attaching, warn=True)
        return attaching

    def _start(self, target: int | Path, attaching: Attaching, *, warn: bool) -> None:
        def failed(message: str) -> None:
            attaching.errors.append(message)
            if warn:  # not modal: a task's failure must not hold the event loop in a dialog of its own
                box = QtWidgets.QMessageBox(
                    QtWidgets.QMessageBox.Icon.Warning,
                    translate("LiveActions", "Attach"),
                    said(message),
                    parent=self.parent,
                )
                box.setAttribute(QtCore.Qt.WidgetAttribute.WA_DeleteOnClose)
                box.open()

        def ended() -> None:
            self.pending.discard(target)

        self.pending.add(target)
        attaching.tasks.append(
            self.host.tasks.start(
                say(ATTACH_TASK, target=as_is(target)),
                lambda ctx: open_session(target, ctx),
                on_result=lambda session: attaching.add(self._opened(session)),
                on_error=failed,
                on_finished=ended,
            )
        )

    def _opened(self, session: LiveSession) -> LiveView:
        view = LiveView(session)
        view.open_requested.connect(lambda p: self.host.open_files([p]))  # an OOM the user chose from the view's list
        self.host.live_views.append(view)
        self.view_added(view)
        tabs = self.host.tabs
        # a job's tab goes before the first live tab of a later rank: tabs in rank order however the probes answer
        later = (
            i for i in range(tabs.count())
            if isinstance(other := tabs.widget(i), LiveView) and rank_order(other) > rank_order(view)
        )  # fmt: skip
        index = tabs.insertTab(next(later, tabs.count()), view, "")
        if view.rank is None:
            title = QT_TRANSLATE_NOOP("Tabs", "live: pid {pid}")
            if not view.local:
                title = QT_TRANSLATE_NOOP("Tabs", "live: pid {pid} (remote)")
        else:
            title = QT_TRANSLATE_NOOP("Tabs", "live: rank {rank} pid {pid}")
            if not view.local:
                title = QT_TRANSLATE_NOOP("Tabs", "live: rank {rank} pid {pid} (remote)")
        language.tab_title(tabs, view, title, pid=session.pid, rank=view.rank)
        tabs.setTabToolTip(index, str(session.path))
        tabs.setCurrentIndex(index)
        return view

    def detach_current(self) -> None:
        view = self.host.tabs.currentWidget()
        if isinstance(view, LiveView):
            view.detach()


def _list_probes() -> list[ProbeEntry]:
    from gpumem_gui.sources import probe_client  # noqa: PLC0415

    return probe_client.list_probes()
