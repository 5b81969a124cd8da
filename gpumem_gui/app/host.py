"""WindowHost: what the window's action groups may use of it, so that no action module imports the window back."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6 import QtCore, QtWidgets

if TYPE_CHECKING:
    from gpumem_gui.views.common.tasks import Task, TaskGroup
    from gpumem_gui.views.live.attaching import Attaching
    from gpumem_gui.views.live.live_view import LiveView
    from gpumem_gui.views.snapshot.tab import SnapshotTab


class WindowHost(Protocol):
    """The main window as its menus' actions see it: its tabs, its tasks, its status line and a parent for dialogs."""

    tabs: QtWidgets.QTabWidget
    settings: QtCore.QSettings
    tasks: TaskGroup
    tab_tasks: dict[QtWidgets.QWidget, TaskGroup]
    replays: list[Task]
    live_views: list[LiveView]

    def host_widget(self) -> QtWidgets.QMainWindow: ...

    def statusBar(self) -> QtWidgets.QStatusBar: ...

    def current_document(self) -> SnapshotTab | None: ...

    def job_done(self, task: Task) -> None: ...

    def show_progress(self) -> None: ...

    def open_files(self, paths: list[str]) -> None: ...

    def open_file_at_device(self, path: str, device: int, event: int | None = None) -> None: ...

    def add_tab(self, widget: QtWidgets.QWidget, title: str, tooltip: str = "") -> int: ...

    def close_tab(self, index: int) -> None: ...

    def attach(self, target: int | Path | None) -> Attaching | None: ...
