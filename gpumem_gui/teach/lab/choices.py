"""What the checkpointing lab offers (policies, dtypes, optimizers, defaults, focus names); is torch there?"""

from __future__ import annotations

import importlib.util

POLICIES = ("none", "every", "sqrt", "selective")
POLICY_LABELS = {
    "none": "no checkpointing",
    "every": "every layer",
    "sqrt": "every sqrt(N) layers",
    "selective": "selective (keep matmuls)",
}
DTYPES = ("fp32", "bf16")
OPTIMIZERS = ("AdamW", "Adam", "SGD momentum")
TORCH_MISSING = "the checkpointing lab needs PyTorch: pip install 'gpumem-gui[torch]' or pip install torch"

# The parts of the lab a quiz question can bring to the front (its `focus =`): the quiz loader refuses any other
# name and the lab's panel knows how to show each one, so both read this one tuple.
FOCUSES: tuple[str, ...] = ("saved_bytes", "sqrt", "recompute", "selective", "bf16", "fsdp")

DEFAULT_N = 16
DEFAULT_WIDTH = 128
DEFAULT_TOKENS = 64
# perfect squares, so that sqrt(N) segments divide the chain exactly and the curve shows the law, not rounding
DEFAULT_N_VALUES = (4, 9, 16, 25, 36, 49, 64)
FSDP_STRATEGY = "FULL_SHARD"


def torch_available() -> str | None:
    """None where torch can be imported, else the one line that says how to install it.

    Looks for torch without importing it: an import takes seconds, and this is asked on the GUI thread.
    """
    try:
        found = importlib.util.find_spec("torch") is not None
    except (ImportError, ValueError):  # a finder that refuses torch, or a torch entry of None in sys.modules
        found = False
    return None if found else TORCH_MISSING
