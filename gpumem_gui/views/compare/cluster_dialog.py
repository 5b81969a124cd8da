"""ClusterFolderDialog: File > Open Cluster Folder...: a folder of rank snapshots and the Dask scheduler to read it."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

SCHEDULER_KEY = "ranks/scheduler"  # the last scheduler's address, offered the next time
FOLDER_KEY = "ranks/cluster_folder"


class ClusterFolderDialog(QtWidgets.QDialog):
    """The folder as the cluster's workers see it (it may not be on this machine) and the scheduler's address, both
    remembered in `settings` once accepted."""

    def __init__(self, settings: QtCore.QSettings, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.folder_edit = QtWidgets.QLineEdit(str(settings.value(FOLDER_KEY, "") or ""))
        self.browse = QtWidgets.QPushButton()
        self.browse.clicked.connect(self._browse)
        folder_row = QtWidgets.QHBoxLayout()
        folder_row.addWidget(self.folder_edit, 1)
        folder_row.addWidget(self.browse)
        self.scheduler_edit = QtWidgets.QLineEdit(str(settings.value(SCHEDULER_KEY, "") or ""))
        self.scheduler_edit.setPlaceholderText("tcp://HOST:PORT")
        form = QtWidgets.QFormLayout()
        self.folder_label, self.scheduler_label = QtWidgets.QLabel(), QtWidgets.QLabel()
        form.addRow(self.folder_label, folder_row)
        form.addRow(self.scheduler_label, self.scheduler_edit)
        # buttons of its own: a button box words its standard ones again itself on a language switch, over ours
        self.buttons = QtWidgets.QDialogButtonBox()
        self.open_button = self.buttons.addButton("", QtWidgets.QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = self.buttons.addButton("", QtWidgets.QDialogButtonBox.ButtonRole.RejectRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        self.folder_edit.textChanged.connect(self._filled)
        self.scheduler_edit.textChanged.connect(self._filled)
        self._filled()
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Open Cluster Folder"))
        self.folder_edit.setPlaceholderText(self.tr("/shared/run42/snapshots (as the workers see it)"))
        self.browse.setText(self.tr("Browse..."))
        self.folder_label.setText(self.tr("Folder:"))
        self.scheduler_label.setText(self.tr("Dask scheduler:"))
        self.open_button.setText(self.tr("Open"))
        self.cancel_button.setText(self.tr("Cancel"))

    def changeEvent(self, event: QtCore.QEvent) -> None:
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def folder(self) -> str:
        return self.folder_edit.text().strip()

    def scheduler(self) -> str:
        return self.scheduler_edit.text().strip()

    def _filled(self) -> None:
        self.open_button.setEnabled(bool(self.folder() and self.scheduler()))

    def _browse(self) -> None:
        folder = QtWidgets.QFileDialog.getExistingDirectory(self, self.tr("A folder of rank snapshots"), self.folder())
        if folder:
            self.folder_edit.setText(folder)

    def accept(self) -> None:
        self.settings.setValue(SCHEDULER_KEY, self.scheduler())
        self.settings.setValue(FOLDER_KEY, self.folder())
        super().accept()
