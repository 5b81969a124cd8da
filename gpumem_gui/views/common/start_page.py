"""What the window shows with nothing open (what to do first), and a tab for a file that could not be opened."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6 import QtCore, QtWidgets

from gpumem_gui.views.common import palette
from gpumem_gui.views.common.language import Retranslated
from gpumem_gui.views.common.one_line import breakable
from gpumem_gui.views.common.rich_text import rich_text
from gpumem_gui.views.common.sentences import said


class StartPage(Retranslated):
    """The empty window's page: open a snapshot, open an example, attach to a running job, or take the quiz."""

    open_file = QtCore.Signal()
    open_example = QtCore.Signal()
    attach = QtCore.Signal()
    quiz = QtCore.Signal()
    open_path = QtCore.Signal(str)  # a recent file picked

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = title = QtWidgets.QLabel()
        self.intro = intro = QtWidgets.QLabel()
        intro.setWordWrap(True)
        # keyed by their English labels, whatever language they show
        self.buttons: dict[str, QtWidgets.QPushButton] = {}
        self.notes: dict[str, QtWidgets.QLabel] = {}
        grid = QtWidgets.QGridLayout()
        rows = (
            ("Open snapshot...", self.open_file),
            ("Open an example", self.open_example),
            ("Attach to a job...", self.attach),
            ("Guided quiz", self.quiz),
        )
        for row, (label, signal) in enumerate(rows):
            button = QtWidgets.QPushButton(label)
            button.setMinimumWidth(190)
            button.clicked.connect(signal.emit)
            self.buttons[label] = button
            note = self.notes[label] = QtWidgets.QLabel()
            note.setStyleSheet(f"color: {palette.TEXT_MUTED};")
            grid.addWidget(button, row, 0)
            grid.addWidget(note, row, 1)
        self._recent: list[str] = []
        self.recent = QtWidgets.QLabel()  # the files opened last, one click away
        self.recent.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.recent.linkActivated.connect(self.open_path.emit)
        self.recent.setWordWrap(True)  # five long file names wrap instead of running off the page
        box = QtWidgets.QWidget()
        box.setMaximumWidth(640)
        inner = QtWidgets.QVBoxLayout(box)
        inner.addWidget(title)
        inner.addWidget(intro)
        inner.addSpacing(12)
        inner.addLayout(grid)
        inner.addSpacing(12)
        inner.addWidget(self.recent)
        outer = QtWidgets.QVBoxLayout(self)
        outer.addStretch(1)
        outer.addWidget(box, 0, QtCore.Qt.AlignmentFlag.AlignHCenter)
        outer.addStretch(2)
        self.retranslate()

    def retranslate(self) -> None:
        self.title.setText("<h2>{}</h2>".format(self.tr("GPU memory, block by block")))
        self.intro.setText(
            self.tr(
                "Open a snapshot written by {code} (or drop it here), watch a training job that runs the probe, or "
                "learn how the caching allocator fragments memory."
            ).format(code="<code>torch.cuda.memory._dump_snapshot()</code>")
        )
        b, n = self.buttons, self.notes
        b["Open snapshot..."].setText(self.tr("Open snapshot..."))
        n["Open snapshot..."].setText(self.tr("Ctrl+O: a .pickle, .json or .gz from any torch since 2.0"))
        b["Open an example"].setText(self.tr("Open an example"))
        n["Open an example"].setText(self.tr("a simulated run that ends in a fragmentation OOM"))
        b["Attach to a job..."].setText(self.tr("Attach to a job..."))
        n["Attach to a job..."].setText(self.tr("Ctrl+Shift+A: a local process that runs gpumem_gui.probe"))
        b["Guided quiz"].setText(self.tr("Guided quiz"))
        n["Guided quiz"].setText(self.tr("F2: fragmentation and checkpointing, each shown on a map"))
        self.set_recent(self._recent)

    def set_recent(self, paths: list[str]) -> None:
        """List the files opened last (at most five), each a link that opens it."""
        self._recent = list(paths)
        links = [f'<a href="{html.escape(p, quote=True)}">{html.escape(Path(p).name)}</a>' for p in paths[:5]]
        self.recent.setText(rich_text("<b>{}</b> ".format(self.tr("Recent:")) + " · ".join(links)) if links else "")
        self.recent.setToolTip("\n".join(paths[:5]))


class LoadErrorPage(Retranslated):
    """A file that could not be opened: its one-line reason in its own tab, while the other files go on loading."""

    close_requested = QtCore.Signal()
    open_another = QtCore.Signal()

    def __init__(self, path: str, message: str, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self.message = message
        self.heading = heading = QtWidgets.QLabel()
        # a long path or message wraps after its separators instead of being cut at the box's edge
        self.where = where = QtWidgets.QLabel(breakable(path), wordWrap=True)
        where.setToolTip(path)
        where.setStyleSheet(f"color: {palette.TEXT_MUTED};")
        where.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reason = QtWidgets.QLabel()  # the message said in the window's language (retranslate)
        self.reason.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.reason.setWordWrap(True)
        self.reason.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reason.setStyleSheet(
            f"background: {palette.NOTICE_BACKGROUND}; color: {palette.NOTICE_TEXT}; padding: 8px;"
        )
        self.close_button = close = QtWidgets.QPushButton()
        close.clicked.connect(self.close_requested.emit)
        self.another = another = QtWidgets.QPushButton()
        another.clicked.connect(self.open_another.emit)
        buttons = QtWidgets.QHBoxLayout()
        buttons.addWidget(another)
        buttons.addWidget(close)
        buttons.addStretch(1)
        box = QtWidgets.QWidget()
        box.setMaximumWidth(720)
        inner = QtWidgets.QVBoxLayout(box)
        for w in (heading, where, self.reason):
            inner.addWidget(w)
        inner.addLayout(buttons)
        self.box = box
        row = QtWidgets.QHBoxLayout()  # the box as wide as it may be (its wrapped lines then as few as they can be)
        row.addStretch(1)
        row.addWidget(box, 10)
        row.addStretch(1)
        outer = QtWidgets.QVBoxLayout(self)
        outer.addStretch(1)
        outer.addLayout(row)
        outer.addStretch(2)
        self.retranslate()

    def retranslate(self) -> None:
        self.heading.setText("<h3>{}</h3>".format(self.tr("Cannot open this file")))
        self.close_button.setText(self.tr("Close"))
        self.another.setText(self.tr("Open another file..."))
        self.reason.setText(breakable(said(self.message)))  # a loader's Sentence in the window's language
