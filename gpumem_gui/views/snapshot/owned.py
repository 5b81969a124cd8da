"""A task's result handed on only while its owner lives: a tab closed while its task ran has no views left to fill."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6 import QtCore


def while_alive(owner: QtCore.QObject, handle: Callable[[Any], object]) -> Callable[[Any], None]:
    """`handle`, called only while `owner` (and so the widgets it was made with) has not been deleted."""

    def handed(result: Any) -> None:
        if shiboken6.isValid(owner):
            handle(result)

    return handed
