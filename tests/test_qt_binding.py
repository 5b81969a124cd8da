"""The Qt binding must not leak or drop references on plain calls (PySide6 6.12.0 did on Python 3.11)."""

import sys

import pytest
from PySide6 import QtCore, QtWidgets

CALLS = 2000


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="None is immortal from Python 3.12 on")
def test_void_qt_calls_keep_the_refcount_of_none(qapp: QtWidgets.QApplication) -> None:
    # Shiboken 6.12.0 decremented None once per void-returning call; after a few thousand
    # calls CPython aborts with "none_dealloc", i.e. the app dies after minutes of use.
    label = QtWidgets.QLabel()
    before = sys.getrefcount(None)
    for index in range(CALLS):
        label.setText(str(index))
        label.update()
    QtCore.QCoreApplication.processEvents()
    after = sys.getrefcount(None)
    # Unrelated code may move None's count by a handful; the bug moved it by 2 * CALLS.
    assert abs(after - before) < CALLS // 10, f"None refcount moved by {after - before} over {CALLS} calls"
