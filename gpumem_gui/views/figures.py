"""FiguresPanel: the core's metrics of the shown state, each with what it means and what to do about it."""

from __future__ import annotations

from PySide6 import QtWidgets

from gpumem_gui.core.metrics import Metrics
from gpumem_gui.core.units import format_bytes, format_bytes_exact, format_percent

_ROWS = (
    (
        "reserved_bytes",
        "reserved",
        "Memory the caching allocator holds from CUDA (what nvidia-smi counts for PyTorch).",
    ),
    ("allocated_bytes", "allocated", "Memory in live tensors' blocks (torch.cuda.memory_allocated)."),
    ("requested_bytes", "requested", "What the program asked for; below allocated by the 512-byte rounding."),
    (
        "internal_waste_bytes",
        "rounding waste",
        "allocated - requested: lost inside blocks to rounding and unsplit remainders.",
    ),
    (
        "pending_free_bytes",
        "pending free",
        "Freed, but still used by another stream (record_stream): free once it syncs.",
    ),
    (
        "free_bytes",
        "cached free",
        "Reserved but unused: the holes. Large and useless? torch.cuda.empty_cache() returns whole free segments.",
    ),
    (
        "largest_free_block_bytes",
        "largest hole",
        "The biggest request the holes can serve at once; larger ones need a new cudaMalloc.",
    ),
    (
        "external_fragmentation",
        "fragmentation",
        "1 - largest hole / free. High with much free memory: try PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True.",
    ),
    (
        "inactive_split_bytes",
        "inactive split",
        "Free blocks inside segments that also hold live blocks: empty_cache cannot release them.",
    ),
    (
        "largest_allocation_that_fits",
        "largest that fits",
        "The largest allocation the cache can serve now, following the allocator's pool and split rules.",
    ),
    ("segments", "segments", "cudaMalloc'ed segments (or mapped runs of expandable segments)."),
    ("blocks", "blocks", "Blocks of all states in those segments."),
)


class FiguresPanel(QtWidgets.QWidget):
    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        form = QtWidgets.QFormLayout(self)
        form.setContentsMargins(6, 6, 6, 6)
        self.title = QtWidgets.QLabel()
        form.addRow(self.title)
        self.values: dict[str, QtWidgets.QLabel] = {}
        for key, label, tip in _ROWS:
            name = QtWidgets.QLabel(label)
            value = QtWidgets.QLabel("-")
            for widget in (name, value):
                widget.setToolTip(tip)
            form.addRow(name, value)
            self.values[key] = value

    def set_metrics(self, m: Metrics, title: str) -> None:
        self.title.setText(f"<b>{title}</b>")
        figures = m.as_dict()
        for key, label in self.values.items():
            value = figures[key]
            if key == "external_fragmentation":
                label.setText(format_percent(value))
            elif key in ("segments", "blocks"):
                label.setText(f"{value:,}")
            else:
                label.setText(format_bytes(value))
                label.setToolTip(f"{format_bytes_exact(value)}\n{label.toolTip().splitlines()[-1]}")
