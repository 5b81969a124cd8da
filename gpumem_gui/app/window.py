"""The main window: open snapshots in tabs (loaded off the GUI thread), menus, and headless rendering to PNG."""

from __future__ import annotations

import functools
import itertools
import logging
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui.app import user_code
from gpumem_gui.app.compare_actions import CompareActions
from gpumem_gui.app.live_actions import LiveActions
from gpumem_gui.app.loading import BandsArrived, Loaded, SpansArrived, load_task, prepared
from gpumem_gui.app.menu_window import MenuWindow
from gpumem_gui.app.tab_actions import TabActions
from gpumem_gui.app.teach_actions import TeachActions
from gpumem_gui.assets import example_path
from gpumem_gui.core.allocator.examples import DEFAULT_EXAMPLE
from gpumem_gui.core.analysis.running_curves import PartialCurves
from gpumem_gui.core.analysis.span import Span
from gpumem_gui.core.analysis.timetravel import DeviceTimeline
from gpumem_gui.core.snapshot.model import Snapshot
from gpumem_gui.document import SnapshotDocument
from gpumem_gui.document.document import LAYOUTS
from gpumem_gui.sources.file_loader import FileLoadJob, LoadResult
from gpumem_gui.teach.quiz import Question
from gpumem_gui.views.common import language
from gpumem_gui.views.common.language import QT_TRANSLATE_NOOP
from gpumem_gui.views.common.sentences import said
from gpumem_gui.views.common.start_page import LoadErrorPage, StartPage
from gpumem_gui.views.common.tasks import Task, TaskGroup, failures, thread_pool
from gpumem_gui.views.live.attaching import Attaching
from gpumem_gui.views.live.live_view import LiveView
from gpumem_gui.views.snapshot.partial_curves import drop_partial, show_partial, stop_partial
from gpumem_gui.views.snapshot.tab import SnapshotTab, TabAhead
from gpumem_gui.views.snapshot.tab_support import read_ahead, warm_up
from gpumem_gui.views.teach.challenge_panel import ChallengePanel
from gpumem_gui.views.teach.quiz_panel import QuizPanel

ORG, APP = "gpumem_gui", "gpumem-gui"
log = logging.getLogger(__name__)


class MainWindow(MenuWindow):
    def __init__(self, settings: QtCore.QSettings | None = None) -> None:
        """`settings`: where the window keeps its geometry, map layout and recent files (default: the user's own;
        a render, a benchmark or a script passes `throwaway_settings()` so as to leave those as they were)."""
        super().__init__()
        self.setWindowTitle("gpumem-gui")
        # what a tab holds never sets the window's minimum: a long live message or a tall live view would grow it
        # past the screen, and it would then refuse a laptop's 1280x800; the tabs fit what they are given
        layout = self.layout()
        assert layout is not None  # a QMainWindow always has its own
        layout.setSizeConstraint(QtWidgets.QLayout.SizeConstraint.SetNoConstraint)
        self.setMinimumSize(640, 480)
        self.resize(1400, 900)
        self.settings = settings if settings is not None else QtCore.QSettings(ORG, APP)
        user_code.apply_saved(self.settings)  # the folders of your code, unless the command line chose
        # the menus' action groups, each handed the window as a WindowHost (app/host.py)
        self.compare = CompareActions(self)
        self.actions_on_tab = TabActions(self)
        self.live = LiveActions(self)
        self.teach = TeachActions(self, self.settings)
        self.tabs = QtWidgets.QTabWidget(tabsClosable=True, documentMode=True)
        language.translated_tabs(self.tabs)  # its close buttons' tooltips follow a language switch
        self.tabs.tabCloseRequested.connect(self.close_tab)
        # with no tab open the window says what to do first, instead of showing an empty grey area
        self.start_page = StartPage()
        self.start_page.open_file.connect(self.open_dialog)
        self.start_page.open_example.connect(lambda: self.open_files([str(example_path(DEFAULT_EXAMPLE))]))
        self.start_page.attach.connect(self.live.attach_dialog)
        self.start_page.quiz.connect(lambda: self.open_quiz(""))
        self.start_page.open_path.connect(lambda path: self.open_files([path]))
        self.pages = QtWidgets.QStackedWidget()
        self.pages.addWidget(self.start_page)
        self.pages.addWidget(self.tabs)
        self.tabs.currentChanged.connect(lambda _i: self._show_start_page())
        self.setCentralWidget(self.pages)
        self.progress = QtWidgets.QProgressBar(maximum=0)
        self.progress.setMaximumWidth(160)
        self.progress.setVisible(False)
        self.cancel_button = QtWidgets.QPushButton()
        self.cancel_button.setVisible(False)
        self.cancel_button.clicked.connect(self.cancel_loads)
        self.statusBar().addPermanentWidget(self.progress)
        self.statusBar().addPermanentWidget(self.cancel_button)
        # every slow thing runs on the one task mechanism; a tab's own tasks end with the tab
        self.tasks = TaskGroup(self)
        failures().failed.connect(self.report_error)  # every task's failure, every uncaught exception (app/errors)
        self._progress_message = ""
        self.jobs: list[Task] = []  # file loads still running
        self.load_tabs: dict[Task, dict[str, SnapshotTab]] = {}  # each load's tab, once its snapshot has arrived
        self.curves_so_far: dict[int, tuple[int, PartialCurves]] = {}  # id(a load's holder): its latest running curves
        # id(a load's holder): its state's tab coming, the parts of it made so far (one a turn, then the tab)
        self.tabs_coming: dict[int, tuple[LoadResult, TabAhead]] = {}
        self.replays: list[Task] = []
        self.tab_tasks: dict[QtWidgets.QWidget, TaskGroup] = {}
        self.live_views: list[LiveView] = []
        self.device_view: QtWidgets.QWidget | None = None
        self.pending_devices: dict[str, int] = {}  # files being opened on a chosen device
        self.pending_events: dict[str, int] = {}  # ... and at a chosen event (a rank at its peak), once loaded
        self.travels: set[SnapshotTab] = set()  # tabs waiting to travel there
        self._asked = itertools.count()  # the order files were asked for: their tabs keep it, whichever loads first
        self.setAcceptDrops(True)
        self._menus()  # in the language saved (View > Language), and the window's own texts in it (retranslate)
        read_ahead()  # in that language, before the window shows: what a file's first figures read on first use
        self.retranslate()
        geometry = self.settings.value("geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)

    def _show_start_page(self) -> None:
        self.pages.setCurrentWidget(self.tabs if self.tabs.count() else self.start_page)

    def set_recent_on_start_page(self, paths: list[str]) -> None:
        self.start_page.set_recent(paths)

    def retranslate(self) -> None:
        self.cancel_button.setText(self.tr("Cancel"))
        self.show_progress()

    # -- opening -----------------------------------------------------------------------------------------------

    def open_dialog(self) -> None:
        paths, _ = QtWidgets.QFileDialog.getOpenFileNames(
            self,
            self.tr("Open snapshots"),
            "",
            self.tr("Snapshots ({patterns});;All files (*)").format(patterns="*.pickle *.pkl *.json *.gz"),
        )
        self.open_files(paths)

    def open_files(self, paths: Sequence[str]) -> None:
        """Load each file in a worker process; the window stays responsive and can cancel."""
        if paths:
            QtCore.QTimer.singleShot(1, warm_up)  # while the worker reads, not when the tab opens
        for path in paths:
            job = FileLoadJob(path, site_bands=True)
            holder: dict[str, SnapshotTab] = {}  # the tab, once the snapshot has arrived ("whole": with its trace)
            task = self.tasks.start(
                f"open {Path(path).name}",
                load_task(job, self.saved_layout()),
                on_progress=functools.partial(self._load_progress, holder=holder),
                on_result=functools.partial(self._load_finished, holder=holder),
            )
            task.finished.connect(functools.partial(self.job_done, task))
            task.setProperty("path", path)
            task.setProperty("asked", next(self._asked))
            self.load_tabs[task] = holder
            self.jobs.append(task)
        self.show_progress()

    def _load_progress(
        self,
        arrived: tuple[LoadResult, SnapshotDocument] | tuple[int, PartialCurves] | Loaded | SpansArrived | BandsArrived,
        holder: dict[str, SnapshotTab],
    ) -> None:
        if isinstance(arrived, SpansArrived):
            self._spans_arrived(holder.get("whole"), arrived.spans)
        elif isinstance(arrived, BandsArrived):
            whole = holder.get("whole")
            if whole is not None and self.tabs.indexOf(whole) >= 0:  # the rest follow with the task's result
                whole.site_bands_arrived((arrived.device, arrived.groupings), more=True)
        elif len(arrived) == 2 and isinstance(arrived[1], PartialCurves):
            device, curves = arrived[0], arrived[1]
            assert isinstance(device, int)
            self.curves_so_far[id(holder)] = (device, curves)  # drawn once its tab shows, if it is not there yet
            show_partial(holder.get("doc"), device, curves)
        elif len(arrived) == 2 and isinstance(arrived[1], SnapshotDocument):
            # the map (its plot) made in this turn, the figures and the controls in the next ones, the rest of the
            # tab after them, the tab shown in the turn after that: made in one turn with the tab, they made a stall
            ahead = TabAhead(arrived[1])
            ahead.make_next()
            self.tabs_coming[id(holder)] = (arrived[0], ahead)
            QtCore.QTimer.singleShot(1, self, lambda: self._make_ahead(holder))
        elif len(arrived) == 3:
            self._whole_arrived(arrived, holder=holder)

    def _make_ahead(self, holder: dict[str, SnapshotTab]) -> None:
        coming = self.tabs_coming.get(id(holder))
        if coming is None:
            return  # made already: the whole snapshot came first
        if coming[1].make_next():
            QtCore.QTimer.singleShot(1, self, lambda: self._make_ahead(holder))
        else:
            self._make_loaded(holder)

    def _make_loaded(self, holder: dict[str, SnapshotTab]) -> None:
        coming = self.tabs_coming.pop(id(holder), None)
        if coming is None:
            return  # made already: the whole snapshot came first
        partial, ahead = coming
        if not any(h is holder for h in self.load_tabs.values()):  # cancelled or failed meanwhile
            ahead.discard()
            return
        holder["made"] = ahead.tab()  # the tab made in this turn, shown in the next
        QtCore.QTimer.singleShot(1, self, lambda: self._show_loaded(partial, holder))

    def _show_loaded(self, partial: LoadResult, holder: dict[str, SnapshotTab]) -> None:
        view = holder.pop("made", None)
        if view is None:
            return  # shown already: the whole snapshot came first
        if any(h is holder for h in self.load_tabs.values()):  # not cancelled nor failed meanwhile
            self._snapshot_arrived((partial, view), holder=holder)
        else:
            view.deleteLater()

    def _snapshot_arrived(
        self, arrived: tuple[LoadResult, SnapshotDocument | SnapshotTab], holder: dict[str, SnapshotTab]
    ) -> None:
        """The map now, the timeline when the worker has indexed the trace."""
        partial, document = arrived
        holder["doc"] = self.add_document(document, partial.path)
        if id(holder) in self.curves_so_far:  # the trace read so far, arrived before its tab
            show_partial(holder["doc"], *self.curves_so_far[id(holder)])
        self._in_asked_order(holder["doc"], holder)
        device = self.pending_devices.pop(partial.path, None)
        if device is not None and device in holder["doc"].document.devices():
            holder["doc"].set_device(device)
        self.show_progress()  # reading -> indexing the trace

    def open_file_at_device(self, path: str, device: int, event: int | None = None) -> None:
        """Open `path` on `device` (a rank picked in a folder's table: its device, not the default one), at `event`
        once its trace is loaded (the rank's peak; None: where a file opens)."""
        self.pending_devices[path] = device
        if event is not None:
            self.pending_events[path] = event
        self.open_files([path])

    def _travel_when_settled(self, tab: SnapshotTab, event: int) -> None:
        """Travel to `event` once the tab's timelines are in place (they arrive over a few turns after the load)."""
        self.travels.add(tab)
        if tab.settling():
            QtCore.QTimer.singleShot(20, self, lambda: self._travel_when_settled(tab, event))
            return
        self.travels.discard(tab)
        if self.tabs.indexOf(tab) >= 0 and not tab.document.pending:
            tab.travel_to(event)

    def _whole_arrived(self, loaded: Loaded, holder: dict[str, SnapshotTab]) -> None:
        """The whole snapshot with its timelines: the tab's trace can be travelled (its site bands follow)."""
        result, envelopes, ticks = loaded
        self._make_loaded(holder)  # its state's tab, coming: made now
        if "made" in holder:  # its state's tab, made but not shown yet: shown first
            self._show_loaded(result, holder)
        doc = holder.get("doc")
        if result.timelines is not None:
            stop_partial(doc)  # the whole curves take their place as the tab shows them (the map keeps its size)
        else:
            drop_partial(doc)  # no curves to show: gone at once
        self.curves_so_far.pop(id(holder), None)
        if doc is not None and result.timelines is not None:
            holder["whole"] = doc
            if self.tabs.indexOf(doc) >= 0:  # unless the user closed it meanwhile
                device = result.default_device  # the device whose site bands and named spans the worker makes
                if device in result.timelines:
                    doc.document.expect_spans(result.timelines[device])
                doc.set_timelines(
                    result.timelines, envelopes, result.snapshot, device, site_bands_for=device, segment_ticks=ticks
                )
        self.show_progress()  # indexing -> grouping by site

    def _spans_arrived(self, tab: SnapshotTab | None, spans: list[Span] | None) -> None:
        if tab is not None:
            tab.document.spans_arrived(spans)
            if tab.scope is not None:
                tab.scope.spans_arrived()

    def _load_finished(self, result: LoadResult, holder: dict[str, SnapshotTab]) -> None:
        doc = holder.get("doc")
        if result.error is not None:
            if doc is not None:
                self.close_tab(self.tabs.indexOf(doc))
            self.show_load_error(result.path, result.error)
            return
        whole = holder.get("whole")
        if whole is None:  # no partial came first (or no timelines): everything at once
            loaded = prepared(result)
            self._whole_arrived(loaded, holder)
            whole = holder.get("whole")
            if whole is None:
                assert result.snapshot is not None
                self._in_asked_order(self.add_document(result.snapshot, result.path, result.timelines), holder)
        if whole is not None and self.tabs.indexOf(whole) >= 0:
            whole.site_bands_arrived(result.site_bands)
            if whole.document.spans_coming:  # none came: found here when asked
                self._spans_arrived(whole, None)
        event = self.pending_events.pop(result.path, None)
        if event is not None and whole is not None:
            self._travel_when_settled(whole, event)
        recent = [result.path, *[p for p in self.recent_files() if p != result.path]][:10]
        self.settings.setValue("recent", recent)
        self._refresh_recent()

    def _in_asked_order(self, widget: QtWidgets.QWidget, holder: dict[str, SnapshotTab]) -> None:
        """Move a file's new tab among the other files' tabs to where it was asked for (File > Open of several
        files, a drop): loads finish in any order, the tabs read in the order chosen."""
        asked = next((t.property("asked") for t, h in self.load_tabs.items() if h is holder), None)
        if asked is None:
            return
        widget.setProperty("asked", asked)
        bar, here = self.tabs.tabBar(), self.tabs.indexOf(widget)
        orders = [w.property("asked") if (w := self.tabs.widget(i)) is not None else None for i in range(here)]
        later = [i for i, o in enumerate(orders) if o is not None and o > asked]
        if later:
            bar.moveTab(here, later[0])
            self.tabs.setCurrentWidget(widget)

    def show_load_error(self, path: str, message: str) -> LoadErrorPage:
        """A file that cannot be opened gets a tab saying why (not a dialog that would hold up the other loads)."""
        page = LoadErrorPage(path, message)  # says the message in the window's language, again on a switch
        page.close_requested.connect(lambda: self.close_tab(self.tabs.indexOf(page)))
        page.open_another.connect(self.open_dialog)
        index = self.tabs.addTab(page, Path(path).name)
        language.tab_title(self.tabs, page, QT_TRANSLATE_NOOP("Tabs", "{name} (cannot open)"), name=Path(path).name)
        self.tabs.setTabToolTip(index, said(message))
        self.tabs.setCurrentIndex(index)
        self.statusBar().showMessage(said(message), 30_000)
        return page

    def job_done(self, task: Task) -> None:
        self.curves_so_far.pop(id(self.load_tabs.pop(task, None)), None)
        if task in self.jobs:
            self.jobs.remove(task)
        if task in self.replays:
            self.replays.remove(task)
        self.show_progress()

    def show_progress(self) -> None:
        busy = bool(self.jobs)
        self.progress.setVisible(busy or bool(self.replays))
        self.cancel_button.setVisible(busy)
        message = ""
        if busy:
            task = self.jobs[0]
            holder = self.load_tabs.get(task, {})
            name = Path(str(task.property("path"))).name
            if "whole" in holder:
                message = self.tr("{name}: grouping by site...").format(name=name)
            elif "doc" in holder:
                message = self.tr("{name}: indexing the trace...").format(name=name)
            else:
                message = self.tr("{name}: reading...").format(name=name)
            if len(self.jobs) > 1:
                message = self.tr("opening {count} files; {message}").format(count=len(self.jobs), message=message)
        elif self.replays:
            message = self.tr("replaying through the allocator simulator...")
        if message:
            self.statusBar().showMessage(message)
        elif self.statusBar().currentMessage() == self._progress_message:
            self.statusBar().clearMessage()  # only our own line: a caption or an error stays
        self._progress_message = message

    def _say(self, message: str) -> None:
        self.statusBar().showMessage(message, 30_000)

    def report_error(self, name: str, message: str) -> None:
        """A task failed (or an exception went uncaught): one line in the status bar, the window goes on (where it
        failed has logged the traceback already)."""
        log.info("%s: %s", name, message)
        # the live and ranks views' tasks and what their sources say (Sentences), in the window's language
        self.statusBar().showMessage(f"{said(name)}: {said(message)}", 30_000)

    def cancel_loads(self) -> None:
        """Cancel every load; a tab already showing a snapshot whose trace was still being indexed closes too."""
        for task in list(self.jobs):
            task.cancel()
            holder = self.load_tabs.pop(task, {})
            doc, whole = holder.get("doc"), holder.get("whole")
            if whole is not None and self.tabs.indexOf(whole) >= 0:
                whole.site_bands_arrived(None)  # the file is whole: only its site bands are left to the tab
            elif doc is not None and self.tabs.indexOf(doc) >= 0:
                self.close_tab(self.tabs.indexOf(doc))
        self.jobs.clear()
        self.show_progress()

    def add_document(
        self,
        snapshot: Snapshot | SnapshotDocument | SnapshotTab,
        path: str,
        timelines: dict[int, DeviceTimeline] | None = None,
        *,
        pending: bool = False,
        layout: int | None = None,
    ) -> SnapshotTab:
        """A tab for `snapshot` (or a view of it made already, in the layout it has). Its map layout is `layout`, or
        the one chosen last (which a change then updates). A snapshot opens at its device's first OOM, else its peak
        of allocated memory (SnapshotDocument's at_moment)."""
        remember = layout is None
        layout = self.saved_layout() if layout is None else layout
        if isinstance(snapshot, SnapshotTab):
            doc = snapshot
        else:
            if isinstance(snapshot, Snapshot):
                snapshot = SnapshotDocument(snapshot, timelines, pending=pending, at_moment=True)
            snapshot.set_layout(*LAYOUTS[layout])  # before the view: its first frame is drawn once, in this layout
            doc = SnapshotTab(snapshot)
        self.tab_tasks[doc] = TaskGroup(self)
        if remember:
            doc.layout_box.currentIndexChanged.connect(lambda i: self.settings.setValue("map_layout", i))
        self.settings.beginGroup("splitters")
        doc.restore_splitters({key: self.settings.value(key) for key in self.settings.childKeys()})
        self.settings.endGroup()
        doc.splitters_moved.connect(lambda: self._save_splitters(doc))
        doc.remedy_chosen.connect(functools.partial(self.actions_on_tab.open_remedy, doc))
        index = self.tabs.addTab(doc, Path(path).name)
        self.tabs.setCurrentIndex(index)
        self.tabs.setTabToolTip(index, path)
        return doc

    def edit_user_code(self) -> None:
        """View > Your Code and Libraries: the folders on each side of a site's line, saved, and the files reread."""
        dialog = user_code.UserCodeDialog(*user_code.saved_folders(self.settings), parent=self)
        if dialog.exec() == QtWidgets.QDialog.DialogCode.Accepted:
            own, library = dialog.folders()
            user_code.change_folders(self.settings, own, library, self.reopen_file_tabs, self._say)

    def reopen_file_tabs(self) -> int:
        """Read every open file again, on the device it shows (its sites and categories made anew): how many."""
        indices = user_code.file_tab_paths(self.tabs, lambda w: isinstance(w, SnapshotTab))
        for index in indices:
            widget = self.tabs.widget(index)
            assert isinstance(widget, SnapshotTab)
            path, device = self.tabs.tabToolTip(index), widget.document.device
            self.close_tab(index)
            self.open_file_at_device(path, device)
        return len(indices)

    def _save_splitters(self, doc: SnapshotTab) -> None:
        """The sizes the user dragged a tab's splitters to: the next tab (and the next run) opens with them."""
        for name, state in doc.splitter_states().items():
            self.settings.setValue(f"splitters/{name}", state)

    def saved_layout(self) -> int:
        """The map layout chosen last (an index into LAYOUTS)."""
        saved = str(self.settings.value("map_layout", 0))
        return int(saved) if saved.isdigit() and int(saved) < len(LAYOUTS) else 0

    def wait_for_loads(self, timeout_ms: int = 120_000) -> None:
        """Run the event loop until every load has reached the window (for scripts and tests)."""
        deadline = QtCore.QDeadlineTimer(timeout_ms)

        def busy() -> bool:
            tabs = (self.tabs.widget(i) for i in range(self.tabs.count()))
            return bool(self.jobs or self.travels) or any(
                isinstance(w, SnapshotTab) and (w.pending or w.settling()) for w in tabs
            )

        while busy() and not deadline.hasExpired():
            QtWidgets.QApplication.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 20)
            QtCore.QThread.msleep(5)

    def close_tab(self, index: int) -> None:
        """Close a tab: its tasks are cancelled, its timers and live session stopped, its document let go."""
        widget = self.tabs.widget(index)
        if widget is None:
            return
        for task, holder in list(self.load_tabs.items()):
            if any(v is widget for v in holder.values()):
                task.cancel()  # its load's worker (still making the site bands) is of no use any more
        group = self.tab_tasks.pop(widget, None)
        if group is not None:
            group.cancel_all()
            group.deleteLater()
        for shutdown in ("close_session", "shutdown", "stop"):
            method = getattr(widget, shutdown, None)
            if callable(method):
                method()
                break
        self.tabs.removeTab(index)
        if widget in self.live_views:
            self.live_views.remove(widget)
        self.teach.closed(widget)
        if widget is self.device_view:
            self.device_view = None
        self.live.closed(widget)
        self.compare.closed(widget)
        widget.setParent(None)
        widget.deleteLater()

    def close_current_tab(self) -> None:
        """File > Close Tab (Ctrl+W)."""
        if self.tabs.count():
            self.close_tab(self.tabs.currentIndex())

    def _on_current(self, action: Callable[[SnapshotTab], None]) -> None:
        doc = self.current_document()
        if doc is not None:
            action(doc)

    def current_document(self) -> SnapshotTab | None:
        doc = self.tabs.currentWidget()
        if isinstance(doc, LiveView):
            return doc.document
        return doc if isinstance(doc, SnapshotTab) else None

    # -- what the action groups are handed (app/host.py); the entry points scripts and tests call ------------------

    def host_widget(self) -> QtWidgets.QMainWindow:
        return self

    def add_tab(self, widget: QtWidgets.QWidget, title: str, tooltip: str = "") -> int:
        """A new tab, made current: its index."""
        index = self.tabs.addTab(widget, title)
        if tooltip:
            self.tabs.setTabToolTip(index, tooltip)
        self.tabs.setCurrentIndex(index)
        return index

    def attach(self, target: int | Path | None) -> Attaching | None:
        """Attach to a job's probe in a task; its tab opens when the probe has answered (`.wait_view()` waits)."""
        return self.live.attach(target)

    def quiz_panel(self) -> QuizPanel:
        return self.teach.quiz_panel()

    def open_quiz(self, quiz_id: str) -> QuizPanel:
        return self.teach.open_quiz(quiz_id)

    def show_demo(self, question: Question) -> Task | QtWidgets.QWidget | None:
        return self.teach.show_demo(question)

    def open_challenge(self, name: str) -> ChallengePanel:
        return self.teach.open_challenge(name)

    def wait_for_demo(self, timeout_ms: int = 60_000) -> QtWidgets.QWidget | None:
        return self.teach.wait_for_demo(timeout_ms)

    def show_lab(self, focus: str | None = None) -> QtWidgets.QWidget:
        return self.teach.show_lab(focus)

    @property
    def quiz_dock(self) -> QtWidgets.QDockWidget | None:
        return self.teach.quiz_dock

    @property
    def lab(self) -> QtWidgets.QWidget | None:
        return self.teach.lab

    @property
    def demo_tab(self) -> QtWidgets.QWidget | None:
        return self.teach.demo_tab

    def show_devices(self) -> None:
        from gpumem_gui.views.live.devices import DeviceView  # noqa: PLC0415

        if self.device_view is None:
            view = DeviceView()
            saved = self.settings.value("devices/interval_s")
            view.interval_changed.connect(lambda v: self.settings.setValue("devices/interval_s", v))
            view.process_activated.connect(self.attach)
            view.start(interval_s=float(saved) if saved is not None else None)
            self.device_view = view
        index = self.tabs.indexOf(self.device_view)
        if index < 0:
            index = language.add_tab(self.tabs, self.device_view, QT_TRANSLATE_NOOP("Tabs", "GPU devices"))
        self.tabs.setCurrentIndex(index)

    # -- drag and drop, closing ------------------------------------------------------------------------------

    def dragEnterEvent(self, event: QtGui.QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QtGui.QDropEvent) -> None:
        self.open_files([u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()])

    def closeEvent(self, event: QtGui.QCloseEvent) -> None:
        self.settings.setValue("geometry", self.saveGeometry())
        self.shutdown()
        super().closeEvent(event)

    def shutdown(self, timeout_ms: int = 5000) -> None:
        """Cancel every task (loads kill their worker and remove their files), close every tab, and wait for the
        pool's threads to finish so that nothing runs on after the window."""
        self.tasks.cancel_all()
        while self.tabs.count():
            self.close_tab(self.tabs.count() - 1)
        if self.device_view is not None:
            self.device_view.stop()  # type: ignore[attr-defined]
        thread_pool().waitForDone(timeout_ms)
