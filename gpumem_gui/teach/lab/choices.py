"""What the checkpointing lab offers (policies, dtypes, optimizers, defaults, focus names); is torch there?"""

from __future__ import annotations

import importlib.util

from gpumem_gui.teach.translatable import QT_TRANSLATE_NOOP

POLICIES = ("none", "every", "sqrt", "selective")
# labels the window shows translated (context "lab"); the command line shows them as they are
POLICY_LABELS = {
    "none": QT_TRANSLATE_NOOP("lab", "no checkpointing"),
    "every": QT_TRANSLATE_NOOP("lab", "every layer"),
    "sqrt": QT_TRANSLATE_NOOP("lab", "every sqrt(N) layers"),
    "selective": QT_TRANSLATE_NOOP("lab", "selective (keep mm + addmm)"),
}
# the policy a learner gets by naming only aten.mm: nn.Linear with a bias runs aten.addmm, so it saves nothing
TRAP_POLICY = "selective_mm"
TRAP_LABEL = QT_TRANSLATE_NOOP("lab", "selective naming only aten.mm")
DTYPES = ("fp32", "bf16")  # the dtypes a model is built in
# how the sweep runs the chain: an fp32 model, a pure-bf16 model, or an fp32 model under CPU autocast to bf16
PRECISIONS = ("fp32", "bf16", "autocast")
PRECISION_LABELS = {
    "fp32": "fp32",
    "bf16": QT_TRANSLATE_NOOP("lab", "pure bf16"),
    "autocast": QT_TRANSLATE_NOOP("lab", "autocast bf16 (mixed precision)"),
}
OPTIMIZERS = ("AdamW", "Adam", "SGD momentum")  # torch names, shown as they are
TORCH_MISSING = QT_TRANSLATE_NOOP(
    "lab", "the checkpointing lab needs PyTorch: pip install 'gpumem-gui[torch]' or pip install torch"
)

# The parts of the lab a quiz question can bring to the front (its `focus =`): the quiz loader refuses any other
# name and the lab's panel knows how to show each one, so both read this one tuple.
FOCUSES: tuple[str, ...] = ("saved_bytes", "sqrt", "recompute", "selective", "bf16", "fsdp", "api")

DEFAULT_N = 16
DEFAULT_WIDTH = 128
DEFAULT_TOKENS = 64
# perfect squares, so that sqrt(N) segments divide the chain exactly and the curve shows the law, not rounding
DEFAULT_N_VALUES = (4, 9, 16, 25, 36, 49, 64)
# the first figures: chain lengths measured in well under a second, shown before the sweep refines
QUICK_N_MAX = 16
# one forward + backward is timed where matmuls dominate: at the lab's own size it times Python overhead
TIMING_SIZE = {"n_layers": 8, "width": 512, "tokens": 512}
TIMING_REPEATS = 3
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
