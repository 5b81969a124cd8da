"""Where the window finds the checkpointing lab's panel; the panel and its tabs live in views/lab/."""

from __future__ import annotations

from gpumem_gui.views.lab.panel import TAB_BF16, TAB_FSDP, TAB_RECOMPUTE, CheckpointLabPanel

__all__ = ["TAB_BF16", "TAB_FSDP", "TAB_RECOMPUTE", "CheckpointLabPanel"]
