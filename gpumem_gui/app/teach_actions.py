"""The window's teaching: the guided quiz in its dock, "Show me" demos staged off the GUI thread, the lab's tab."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6 import QtCore, QtWidgets

from gpumem_gui.document.staging import StagedDemo, stage_demo
from gpumem_gui.teach.challenge import Challenge
from gpumem_gui.teach.quiz import Question, QuizError, load_quizzes
from gpumem_gui.teach.quiz_demos import DemoFocus
from gpumem_gui.views.common import language
from gpumem_gui.views.common.language import QT_TRANSLATE_NOOP
from gpumem_gui.views.common.tasks import Task
from gpumem_gui.views.compare.whatif_view import WhatIfView
from gpumem_gui.views.snapshot.tab import SnapshotTab
from gpumem_gui.views.teach.challenge_panel import ChallengePanel, challenge_tab
from gpumem_gui.views.teach.demo_focus import recaption, show_demo_foci
from gpumem_gui.views.teach.paired_demo import compact_halves, paired_views
from gpumem_gui.views.teach.quiz_panel import QuizPanel

if TYPE_CHECKING:
    from gpumem_gui.app.host import WindowHost


class TeachActions:
    """Help > Guided Quiz, its "Show me" and Help > Checkpointing Lab, for one main window."""

    def __init__(self, host: WindowHost, settings: QtCore.QSettings) -> None:
        self.host = host
        self.parent = host.host_widget()
        self.settings = settings
        self.quiz_dock: QtWidgets.QDockWidget | None = None
        self.lab: QtWidgets.QWidget | None = None
        self.demo_tab: QtWidgets.QWidget | None = None  # the last "Show me": replaced by the next one
        self.demo_task: Task | None = None
        self.demo_foci: Sequence[DemoFocus] = ()  # the demo tab's foci, re-worded when the language changes
        self.challenge_dock: QtWidgets.QDockWidget | None = None
        self.challenge_tab: QtWidgets.QWidget | None = None  # the challenge's snapshot: replaced by the next one

    def closed(self, widget: QtWidgets.QWidget) -> None:
        """A tab was closed: forget it if it was the demo or the lab."""
        if widget is self.demo_tab:
            self.demo_tab = None
        if widget is self.lab:
            self.lab = None
        if widget is self.challenge_tab:
            self.challenge_tab = None
            if self.challenge_dock is not None:  # the panel lets the closed tab go
                panel = self.challenge_dock.widget()
                if isinstance(panel, ChallengePanel):
                    panel.detach()

    def quiz_panel(self) -> QuizPanel:
        """The guided quiz, in a dock beside the map (made once, then shown again)."""
        if self.quiz_dock is None:
            panel = QuizPanel(load_quizzes(), self.settings)
            panel.show_demo.connect(self.show_demo)
            panel.try_yours.connect(self.try_on_yours)
            # one language for the window and the quiz: the quiz opens in the window's and either switches both
            panel.set_language(language.current_language())
            panel.language_changed.connect(lambda lang: language.choose(lang, self.settings))
            language.notifier().changed.connect(panel.set_language)
            panel.language_changed.connect(self._recaption_demo)
            panel.challenge_requested.connect(lambda: self.open_challenge(""))
            dock = QtWidgets.QDockWidget(QtCore.QCoreApplication.translate("TeachActions", "Guided quiz"), self.parent)
            dock.setObjectName("guided-quiz")
            dock.setWidget(panel)
            self.parent.addDockWidget(QtCore.Qt.DockWidgetArea.RightDockWidgetArea, dock)
            dock.resize(430, dock.height())
            self.quiz_dock = dock
        self.quiz_dock.show()
        self.quiz_dock.raise_()
        shown = self.quiz_dock.widget()
        assert isinstance(shown, QuizPanel)
        return shown

    def open_quiz(self, quiz_id: str) -> QuizPanel:
        """Show the quiz dock; with an id, open that quiz where the user left it."""
        panel = self.quiz_panel()
        if quiz_id:
            try:
                panel.open_quiz(quiz_id)
            except QuizError as e:
                QtWidgets.QMessageBox.warning(
                    self.parent, QtCore.QCoreApplication.translate("TeachActions", "Guided quiz"), str(e)
                )
        return panel

    def challenge_panel(self) -> ChallengePanel:
        """The debugging challenge, in a dock beside the map (made once, then shown again), in the quiz's language."""
        if self.challenge_dock is None:
            panel = ChallengePanel(language.current_language())
            panel.ready.connect(self._challenge_ready)
            # one language for the window, the quiz and the challenge: a switch in either switches all
            panel.language_changed.connect(lambda lang: language.choose(lang, self.settings))
            language.notifier().changed.connect(panel.set_language)
            title = QtCore.QCoreApplication.translate("TeachActions", "Debugging challenge")
            dock = QtWidgets.QDockWidget(title, self.parent)
            dock.setObjectName("debugging-challenge")
            dock.setWidget(panel)
            self.parent.addDockWidget(QtCore.Qt.DockWidgetArea.RightDockWidgetArea, dock)
            if self.quiz_dock is not None:  # one dock at a time on the right: the challenge over the quiz
                self.parent.tabifyDockWidget(self.quiz_dock, dock)
            dock.resize(430, dock.height())
            self.challenge_dock = dock
        self.challenge_dock.show()
        self.challenge_dock.raise_()
        shown = self.challenge_dock.widget()
        assert isinstance(shown, ChallengePanel)
        return shown

    def open_challenge(self, name: str) -> ChallengePanel:
        """Show the challenge's dock and start challenge `name` ("": the one chosen there)."""
        panel = self.challenge_panel()
        if name:
            panel.choose(name)
        panel.start()
        return panel

    def _challenge_ready(self, challenge: object) -> None:
        """A challenge is prepared: its snapshot opens in a tab at the OOM, whose map answers the first step."""
        panel = self.challenge_panel()
        assert isinstance(challenge, Challenge)
        tab = challenge_tab(challenge)
        if self.challenge_tab is not None and self.host.tabs.indexOf(self.challenge_tab) >= 0:
            self.host.close_tab(self.host.tabs.indexOf(self.challenge_tab))
        self.challenge_tab = tab
        title = QtCore.QCoreApplication.translate("TeachActions", "challenge: {name}").format(name=challenge.name)
        self.host.tabs.setCurrentIndex(self.host.tabs.addTab(tab, title))
        panel.attach(tab)

    def show_demo(self, question: Question) -> Task | QtWidgets.QWidget | None:
        """ "Show me": the question's demo in the main views, with its concept highlighted from the data.

        The demo's snapshots are loaded, replayed and indexed in a task; its tab opens when they are ready
        (`wait_for_demo` waits for it). A newer request cancels an older one still being prepared."""
        from gpumem_gui.teach.quiz_demos import plan_for  # noqa: PLC0415

        panel = self.quiz_panel()
        if question.caption is not None:
            self.host.statusBar().showMessage(question.caption[panel.language], 30_000)
        plan = plan_for(question.demo)
        if plan.kind == "lab":
            return self.show_lab(question.focus or "saved_bytes")
        task = self.host.tasks.start_latest(
            "show me",
            lambda ctx: stage_demo(question.demo, ctx.check),
            on_result=self._stage_demo,
            on_error=lambda message: QtWidgets.QMessageBox.warning(
                self.parent, QtCore.QCoreApplication.translate("TeachActions", "Show me"), f"{question.demo}: {message}"
            ),
        )
        self.demo_task = task
        task.finished.connect(lambda: self._demo_task_done(task))
        return task

    def try_on_yours(self, finding: str, path: str | None = None) -> Task | None:
        """ "Try it on yours": the learner's own snapshot (asked in a file dialog when no path is given) opened in the
        demo's tab with the finding lit, prepared in a task as a demo is."""
        from gpumem_gui.document.yours_staging import stage_yours  # noqa: PLC0415
        from gpumem_gui.teach.yours import ui_text  # noqa: PLC0415

        lang = self.quiz_panel().language
        if path is None:
            snapshots = QtCore.QCoreApplication.translate("TeachActions", "Snapshots (*.pickle *.pkl *.json *.gz)")
            everything = QtCore.QCoreApplication.translate("TeachActions", "All files (*)")
            path, _ = QtWidgets.QFileDialog.getOpenFileName(
                self.parent, ui_text("dialog", lang), "", f"{snapshots};;{everything}"
            )
            if not path:
                return None
        chosen = Path(path)
        task = self.host.tasks.start_latest(
            "show me",
            lambda ctx: stage_yours(chosen, finding, ctx.check),
            on_result=self._stage_demo,
            on_error=lambda message: QtWidgets.QMessageBox.warning(
                self.parent, ui_text("failed", lang), f"{chosen.name}: {message}"
            ),
        )
        self.demo_task = task
        task.finished.connect(lambda: self._demo_task_done(task))
        return task

    def _demo_task_done(self, task: Task) -> None:
        if self.demo_task is task:
            self.demo_task = None

    def wait_for_demo(self, timeout_ms: int = 60_000) -> QtWidgets.QWidget | None:
        """Run the event loop until the demo being prepared is on screen (for scripts and tests)."""
        deadline = QtCore.QDeadlineTimer(timeout_ms)
        while self.demo_task is not None and not deadline.hasExpired():
            QtWidgets.QApplication.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 20)
            QtCore.QThread.msleep(5)
        return self.demo_tab

    def _stage_demo(self, staged: StagedDemo) -> None:
        widget: QtWidgets.QWidget
        if staged.run is not None:
            widget = WhatIfView(staged.run)
        elif len(staged.documents) > 1:
            widget = paired_views(staged.documents)
        else:
            widget = SnapshotTab(staged.documents[0])
        # the foci in the learner's language; switching it later re-words them (_recaption_demo)
        show_demo_foci(widget, staged.foci, self.quiz_panel().language)
        self.demo_foci = staged.foci
        if isinstance(widget, QtWidgets.QSplitter):
            compact_halves(widget)  # both halves whole in the pane; a smaller window scrolls rather than grows
            area = QtWidgets.QScrollArea(widgetResizable=True)
            area.setWidget(widget)
            widget = area
        if self.demo_tab is not None and self.host.tabs.indexOf(self.demo_tab) >= 0:
            self.host.close_tab(self.host.tabs.indexOf(self.demo_tab))
        self.demo_tab = widget
        index = self.host.tabs.addTab(widget, staged.title)
        if staged.title.startswith("show me: "):  # document.staging's title: its words translated, its names kept
            what = staged.title.removeprefix("show me: ")
            language.tab_title(self.host.tabs, widget, QT_TRANSLATE_NOOP("Tabs", "show me: {what}"), what=what)
        self.host.tabs.setCurrentIndex(index)

    def _recaption_demo(self, lang: str) -> None:
        """The learner switched language: the demo shown says its captions in the new one (nothing is re-run)."""
        if self.demo_tab is not None and self.host.tabs.indexOf(self.demo_tab) >= 0:
            recaption(self.demo_tab, self.demo_foci, lang)

    def show_lab(self, focus: str | None = None) -> QtWidgets.QWidget:
        from gpumem_gui.views.teach.lab.panel import CheckpointLabPanel  # noqa: PLC0415 (torch loads only here)

        if self.lab is None:
            lab = CheckpointLabPanel()
            # its captions in the window's language, following a switch
            lab.set_language(language.current_language())
            language.notifier().changed.connect(lab.set_language)
            self.lab = lab
        index = self.host.tabs.indexOf(self.lab)
        if index < 0:
            index = language.add_tab(self.host.tabs, self.lab, QT_TRANSLATE_NOOP("Tabs", "checkpointing lab"))
        self.host.tabs.setCurrentIndex(index)
        if focus:
            self.lab.set_focus(focus)  # type: ignore[attr-defined]
        return self.lab
