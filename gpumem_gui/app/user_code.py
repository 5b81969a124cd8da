"""The window's setting of the folders that are the user's code or a library's: where a site's line is drawn.

The command line's --user-code and --library win for the session they start; otherwise the saved folders apply from
the window's start. A change reopens the file tabs, because every view of a snapshot keeps its sites once made.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from PySide6 import QtCore, QtWidgets

from gpumem_gui.core.snapshot.frame_kinds import LIBRARY_ENV, USER_CODE_ENV, choose_user_code

KEY_OWN, KEY_LIBRARY = "sites/user_code", "sites/library"


def saved_folders(settings: QtCore.QSettings) -> tuple[list[str], list[str]]:
    """The folders saved as the user's code and as libraries (none saved: two empty lists)."""

    def folders(key: str) -> list[str]:
        value: object = settings.value(key, [])
        items = [value] if isinstance(value, str) else list(value) if isinstance(value, list | tuple) else []
        return [str(v) for v in items if str(v).strip()]

    return folders(KEY_OWN), folders(KEY_LIBRARY)


def apply_saved(settings: QtCore.QSettings) -> None:
    """At the window's start: the saved folders, unless the command line chose some for this session."""
    if os.environ.get(USER_CODE_ENV) or os.environ.get(LIBRARY_ENV):
        return
    own, library = saved_folders(settings)
    if own or library:
        choose_user_code(own, library)


class UserCodeDialog(QtWidgets.QDialog):
    """Two lists of folders, one a line: the user's code, and libraries."""

    def __init__(self, own: list[str], library: list[str], parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Your code and libraries"))
        layout = QtWidgets.QVBoxLayout(self)
        intro = QtWidgets.QLabel(
            self.tr(
                "A block is charged to the innermost line of your code, with the library line below it"
                ' ("model.py:88 via einops/_backends.py:288"). Frames under site-packages, dist-packages, the standard'
                " library and torch are libraries; the rest is your code. Move folders across that line here, one a"
                " line: a path, or a package name such as diffusers."
            )
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.own = self._list(layout, self.tr("Your code (even inside site-packages):"), own)
        self.library = self._list(layout, self.tr("Libraries (not your code, even outside site-packages):"), library)
        buttons = QtWidgets.QDialogButtonBox(
            QtWidgets.QDialogButtonBox.StandardButton.Ok | QtWidgets.QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    @staticmethod
    def _list(layout: QtWidgets.QVBoxLayout, title: str, folders: list[str]) -> QtWidgets.QPlainTextEdit:
        layout.addWidget(QtWidgets.QLabel(title))
        edit = QtWidgets.QPlainTextEdit("\n".join(folders))
        edit.setMaximumHeight(90)
        layout.addWidget(edit)
        return edit

    def folders(self) -> tuple[list[str], list[str]]:
        def lines(edit: QtWidgets.QPlainTextEdit) -> list[str]:
            return [line.strip() for line in edit.toPlainText().splitlines() if line.strip()]

        return lines(self.own), lines(self.library)


def change_folders(
    settings: QtCore.QSettings,
    own: list[str],
    library: list[str],
    reopen: Callable[[], int],
    say: Callable[[str], None],
) -> None:
    """Save and apply new folders; the open files are read again (`reopen` returns how many) with them."""
    settings.setValue(KEY_OWN, own)
    settings.setValue(KEY_LIBRARY, library)
    choose_user_code(own, library)
    count = reopen()
    words = f"; {count} open file(s) read again with them" if count else ""
    mine, theirs = ", ".join(own) or "(the default rule)", ", ".join(library) or "(the default rule)"
    say(f"Sites: your code {mine}; libraries {theirs}{words}")


def file_tab_paths(tabs: QtWidgets.QTabWidget, is_file_tab: Callable[[QtWidgets.QWidget], bool]) -> list[int]:
    """The indices of the tabs that show a file (their tooltip is its path), last first (closing keeps the rest)."""
    found = []
    for index in range(tabs.count()):
        widget = tabs.widget(index)
        if widget is not None and is_file_tab(widget) and Path(tabs.tabToolTip(index)).is_file():
            found.append(index)
    return found[::-1]
