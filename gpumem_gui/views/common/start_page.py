"""What the window shows with nothing open (what to do first), and a tab for a file that could not be opened."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6 import QtCore, QtWidgets

from gpumem_gui.views.common import palette
from gpumem_gui.views.common.one_line import breakable


class StartPage(QtWidgets.QWidget):
    """The empty window's page: open a snapshot, open an example, attach to a running job, or take the quiz."""

    open_file = QtCore.Signal()
    open_example = QtCore.Signal()
    attach = QtCore.Signal()
    quiz = QtCore.Signal()
    open_path = QtCore.Signal(str)  # a recent file picked

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        title = QtWidgets.QLabel("<h2>GPU memory, block by block</h2>")
        intro = QtWidgets.QLabel(
            "Open a snapshot written by <code>torch.cuda.memory._dump_snapshot()</code> (or drop it here), "
            "watch a training job that runs the probe, or learn how the caching allocator fragments memory."
        )
        intro.setWordWrap(True)
        self.buttons: dict[str, QtWidgets.QPushButton] = {}
        grid = QtWidgets.QGridLayout()
        rows = (
            ("Open snapshot...", "Ctrl+O: a .pickle, .json or .gz from any torch since 2.0", self.open_file),
            ("Open an example", "a simulated run that ends in a fragmentation OOM", self.open_example),
            ("Attach to a job...", "Ctrl+Shift+A: a local process that runs gpumem_gui.probe", self.attach),
            ("Guided quiz", "F2: fragmentation and checkpointing, each shown on a map", self.quiz),
        )
        for row, (label, hint, signal) in enumerate(rows):
            button = QtWidgets.QPushButton(label)
            button.setMinimumWidth(190)
            button.clicked.connect(signal.emit)
            self.buttons[label] = button
            note = QtWidgets.QLabel(hint)
            note.setStyleSheet(f"color: {palette.TEXT_MUTED};")
            grid.addWidget(button, row, 0)
            grid.addWidget(note, row, 1)
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

    def set_recent(self, paths: list[str]) -> None:
        """List the files opened last (at most five), each a link that opens it."""
        links = [f'<a href="{html.escape(p, quote=True)}">{html.escape(Path(p).name)}</a>' for p in paths[:5]]
        self.recent.setText("<b>Recent:</b> " + " · ".join(links) if links else "")
        self.recent.setToolTip("\n".join(paths[:5]))


class LoadErrorPage(QtWidgets.QWidget):
    """A file that could not be opened: its one-line reason in its own tab, while the other files go on loading."""

    close_requested = QtCore.Signal()
    open_another = QtCore.Signal()

    def __init__(self, path: str, message: str, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self.message = message
        heading = QtWidgets.QLabel("<h3>Cannot open this file</h3>")
        # a long path or message wraps after its separators instead of being cut at the box's edge
        self.where = where = QtWidgets.QLabel(breakable(path), wordWrap=True)
        where.setToolTip(path)
        where.setStyleSheet(f"color: {palette.TEXT_MUTED};")
        where.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reason = QtWidgets.QLabel(breakable(message))
        self.reason.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.reason.setWordWrap(True)
        self.reason.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reason.setStyleSheet(
            f"background: {palette.NOTICE_BACKGROUND}; color: {palette.NOTICE_TEXT}; padding: 8px;"
        )
        close = QtWidgets.QPushButton("Close")
        close.clicked.connect(self.close_requested.emit)
        another = QtWidgets.QPushButton("Open another file...")
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
