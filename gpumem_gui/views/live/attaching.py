"""Attaching: attaches to live jobs under way, each a task, then the views they opened and why the others failed."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from gpumem_gui.views.common.tasks import Task
from gpumem_gui.views.live.live_view import LiveView


class Attaching:
    """Attaches under way (one job, or every local probe): their tasks, then the views opened and the errors."""

    def __init__(self) -> None:
        self.tasks: list[Task] = []
        self.views: list[LiveView] = []
        self.errors: list[str] = []

    def add(self, view: LiveView) -> LiveView:
        """A view opened, kept in rank order (a torchrun job's ranks answer in any order), jobs without one last."""
        self.views.append(view)
        self.views.sort(key=rank_order)
        return view

    def done(self) -> bool:
        return all(task.done for task in self.tasks)

    def wait(self, timeout_ms: int = 30_000) -> list[LiveView]:
        """Run the event loop until every attach has opened its tab or failed (for scripts and tests)."""
        deadline = QtCore.QDeadlineTimer(timeout_ms)
        while not self.done() and not deadline.hasExpired():
            QtWidgets.QApplication.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 20)
            QtCore.QThread.msleep(5)
        return self.views

    def wait_view(self, timeout_ms: int = 30_000) -> LiveView | None:
        """The one job's view once attached; None when the attach failed (`errors` says why)."""
        views = self.wait(timeout_ms)
        return views[0] if views else None


def rank_order(view: LiveView) -> tuple[bool, int]:
    """Where a job's view goes among others: by its rank, a job that has none after the ranks."""
    return (view.rank is None, view.rank or 0)
