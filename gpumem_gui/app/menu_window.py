"""MenuWindow: the main window's menu bar, its texts in the window's language, and View > Language."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

from gpumem_gui import __version__
from gpumem_gui.app.compare_actions import CompareActions
from gpumem_gui.app.live_actions import LiveActions
from gpumem_gui.app.tab_actions import TabActions
from gpumem_gui.app.teach_actions import TeachActions
from gpumem_gui.assets import EXAMPLES
from gpumem_gui.views.common import language
from gpumem_gui.views.common.paint_pass import OnePaintWindow
from gpumem_gui.views.snapshot.span_marks import add_marks_menu
from gpumem_gui.views.snapshot.tab import SnapshotTab


class MenuWindow(OnePaintWindow):
    """The menus of MainWindow (which makes the action groups they call and the methods below marked as its own)."""

    settings: QtCore.QSettings
    compare: CompareActions
    actions_on_tab: TabActions
    live: LiveActions
    teach: TeachActions

    # -- what MainWindow does, called from the menus ------------------------------------------------------------

    def open_dialog(self) -> None:
        raise NotImplementedError

    def open_files(self, paths: list[str]) -> None:
        raise NotImplementedError

    def close_current_tab(self) -> None:
        raise NotImplementedError

    def edit_user_code(self) -> None:
        raise NotImplementedError

    def show_devices(self) -> None:
        raise NotImplementedError

    def open_quiz(self, quiz_id: str) -> object:
        raise NotImplementedError

    def open_challenge(self, name: str) -> object:
        raise NotImplementedError

    def current_document(self) -> SnapshotTab | None:
        raise NotImplementedError

    def set_recent_on_start_page(self, paths: list[str]) -> None:
        raise NotImplementedError

    def _on_current(self, action: Callable[[SnapshotTab], None]) -> None:
        raise NotImplementedError

    # -- the menus -------------------------------------------------------------------------------------------

    def _menus(self) -> None:
        """The menus and their actions (their texts: retranslate); the language is the one saved (View > Language,
        the quiz's), else the system's."""
        bar = self.menuBar()
        self.file_menu = file_menu = bar.addMenu("")
        a: dict[str, QtGui.QAction] = {}
        self._menu_actions = a
        a["open"] = file_menu.addAction("", QtGui.QKeySequence.StandardKey.Open, self.open_dialog)
        a["folder"] = file_menu.addAction("", QtGui.QKeySequence("Ctrl+Shift+O"), self.compare.open_folder_dialog)
        a["cluster"] = file_menu.addAction("", self.compare.open_cluster_dialog)
        a["compare"] = file_menu.addAction("", QtGui.QKeySequence("Ctrl+D"), self.compare.compare_dialog)
        self.recent_menu = file_menu.addMenu("")
        self.recent_menu.aboutToShow.connect(self._refresh_recent)  # a file deleted meanwhile is left out
        self.examples_menu = file_menu.addMenu("")
        for path in sorted(EXAMPLES.glob("*.pickle")):
            self.examples_menu.addAction(path.stem, functools.partial(self.open_files, [str(path)]))
        file_menu.addSeparator()
        a["image"] = file_menu.addAction("", self.actions_on_tab.export_image)
        a["csv"] = file_menu.addAction("", self.actions_on_tab.export_csv)
        a["report"] = file_menu.addAction("", self.actions_on_tab.save_report)
        file_menu.addSeparator()
        a["close"] = file_menu.addAction("", QtGui.QKeySequence("Ctrl+W"), self.close_current_tab)
        a["quit"] = file_menu.addAction("", QtGui.QKeySequence.StandardKey.Quit, self.close)
        self.view_menu = view = bar.addMenu("")
        a["full"] = view.addAction("", QtGui.QKeySequence.StandardKey.FullScreen, self._toggle_full_screen)
        self.language_menu = view.addMenu("")
        self.language_group = QtGui.QActionGroup(self)
        for lang in language.LANGUAGES:
            item = self.language_menu.addAction(language.NAMES[lang])
            item.setCheckable(True)
            item.setData(lang)
            item.triggered.connect(functools.partial(self.set_window_language, lang))
            self.language_group.addAction(item)
        view.addSeparator()
        a["whatif"] = view.addAction("", QtGui.QKeySequence("Ctrl+R"), self.actions_on_tab.what_if)
        a["mark"] = view.addAction("", QtGui.QKeySequence("Ctrl+M"), self.compare.mark_moment)
        a["with_mark"] = view.addAction("", QtGui.QKeySequence("Ctrl+Shift+M"), self.compare.compare_with_mark)
        self._retranslate_marks = add_marks_menu(
            view, lambda: d.scope.marks if (d := self.current_document()) and d.scope else None
        )
        a["code"] = view.addAction("", self.edit_user_code)
        a["settings"] = view.addAction("", lambda: self._on_current(lambda doc: doc.show_settings()))
        a["segments"] = view.addAction("", lambda: self._on_current(lambda doc: doc.show_segments()))
        a["pools"] = view.addAction("", lambda: self._on_current(lambda doc: doc.show_pools()))
        a["explain"] = view.addAction("", QtGui.QKeySequence("Ctrl+E"), self.actions_on_tab.explain_current)
        a["explain_event"] = view.addAction(
            "", QtGui.QKeySequence("Ctrl+Shift+E"), lambda: self.actions_on_tab.explain_current(True)
        )
        self.live_menu = live = bar.addMenu("")
        a["attach"] = live.addAction("", QtGui.QKeySequence("Ctrl+Shift+A"), self.live.attach_dialog)
        a["attach_all"] = live.addAction("", self.live.attach_all)
        a["socket"] = live.addAction("", self.live.attach_socket_dialog)
        a["jobs"] = live.addAction("", self.live.show_grid)
        a["devices"] = live.addAction("", self.show_devices)
        live.addSeparator()
        a["detach"] = live.addAction("", self.live.detach_current)
        self.help_menu = help_menu = bar.addMenu("")
        a["quiz"] = help_menu.addAction("", QtGui.QKeySequence("F2"), lambda: self.open_quiz(""))
        a["lab"] = help_menu.addAction("", self.teach.show_lab)
        a["challenge"] = help_menu.addAction("", lambda: self.open_challenge(""))
        help_menu.addSeparator()
        a["about"] = help_menu.addAction("", self.about)
        self.retranslate_menus()
        self._refresh_recent()
        language.notifier().changed.connect(self._language_switched)
        language.set_language(language.saved_language(self.settings))
        self._language_switched(language.current_language())

    def retranslate_menus(self) -> None:
        a = self._menu_actions
        self.file_menu.setTitle(self.tr("&File"))
        a["open"].setText(self.tr("&Open..."))
        a["folder"].setText(self.tr("Open &Folder..."))
        a["cluster"].setText(self.tr("Open C&luster Folder..."))
        a["compare"].setText(self.tr("&Compare..."))
        self.recent_menu.setTitle(self.tr("Open &Recent"))
        self.examples_menu.setTitle(self.tr("Open &Example"))
        a["image"].setText(self.tr("Export &Image..."))
        a["csv"].setText(self.tr("Export &Blocks CSV..."))
        a["report"].setText(self.tr("&Save Report..."))
        a["close"].setText(self.tr("Close &Tab"))
        a["quit"].setText(self.tr("&Quit"))
        self.view_menu.setTitle(self.tr("&View"))
        a["full"].setText(self.tr("&Full Screen"))
        self.language_menu.setTitle(self.tr("&Language"))
        a["whatif"].setText(self.tr("&What if..."))
        a["mark"].setText(self.tr("&Mark This Moment as A"))
        a["with_mark"].setText(self.tr("&Compare With Moment A"))
        self._retranslate_marks()
        a["code"].setText(self.tr("Your &Code and Libraries..."))
        a["settings"].setText(self.tr("Allocator &Settings"))
        a["segments"].setText(self.tr("Cached Se&gments"))
        a["pools"].setText(self.tr("Memory by &Pool"))
        a["explain"].setText(self.tr("&Explain the OOM or Peak"))
        a["explain_event"].setText(self.tr("Explain This &Event"))
        self.live_menu.setTitle(self.tr("&Live"))
        a["attach"].setText(self.tr("&Attach..."))
        a["attach_all"].setText(self.tr("Attach to A&ll"))
        a["socket"].setText(self.tr("Attach to &Socket..."))
        a["jobs"].setText(self.tr("All &Jobs"))
        a["devices"].setText(self.tr("GPU &Devices"))
        a["detach"].setText(self.tr("&Detach"))
        self.help_menu.setTitle(self.tr("&Help"))
        a["quiz"].setText(self.tr("Guided &Quiz"))
        a["lab"].setText(self.tr("&Checkpointing Lab"))
        a["challenge"].setText(self.tr("&Debugging Challenge"))
        a["about"].setText(self.tr("&About"))

    def changeEvent(self, event: QtCore.QEvent) -> None:
        if event.type() == QtCore.QEvent.Type.LanguageChange and hasattr(self, "_menu_actions"):
            self.retranslate_menus()
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        """The window's own texts besides the menus (MainWindow's)."""

    # -- the language ------------------------------------------------------------------------------------------

    def set_window_language(self, lang: str) -> None:
        """View > Language: the whole window in `lang` (the quiz too: teach_actions follows), saved."""
        language.choose(lang, self.settings)

    def _language_switched(self, lang: str) -> None:
        for item in self.language_group.actions():
            item.setChecked(item.data() == lang)

    # -- what the menus show -----------------------------------------------------------------------------------

    def _toggle_full_screen(self) -> None:
        self.showNormal() if self.isFullScreen() else self.showFullScreen()

    def _refresh_recent(self) -> None:
        self.recent_menu.clear()
        for path in self.recent_files():
            self.recent_menu.addAction(path, functools.partial(self.open_files, [path]))
        self.set_recent_on_start_page(self.recent_files())

    def recent_files(self) -> list[str]:
        """The files opened last, newest first; a file deleted or moved since is left out (it cannot be opened)."""
        value = self.settings.value("recent", [])
        paths = [str(v) for v in (value if isinstance(value, list) else [value] if value else [])]
        return [p for p in paths if Path(p).is_file()]

    def about(self) -> None:
        QtWidgets.QMessageBox.about(
            self,
            self.tr("About gpumem-gui"),
            self.tr("gpumem-gui {version}: PyTorch CUDA caching-allocator memory, segment by segment.").format(
                version=__version__
            ),
        )
