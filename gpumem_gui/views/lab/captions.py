"""The lab's fixed texts: the note under the table and the line that reports one timed step per policy."""

from __future__ import annotations

from gpumem_gui.teach import lab

NOTE = (
    "Measured on this CPU with PyTorch, not computed: bytes are the storages created in the forward and still "
    "alive when it returns (parameters excluded), checked against the tensors packed through "
    "saved_tensors_hooks (selective checkpointing keeps its matmul outputs in its own cache, which those "
    "hooks do not see). Recompute counts the ops run in backward under grad mode, as checkpoint does. "
    "No times at this size: layers this small take microseconds, so a clock would measure Python overhead and "
    "the machine's load, not FLOPs; the recompute tab times one step at a size where the matmuls dominate."
)


def timing_text(sweep: lab.LabSweep) -> str:
    """One timed step per policy where matmuls dominate, next to the time its matmul FLOPs predict."""
    t = sweep.timings
    if t is None:
        return (
            f"Times: one step per policy is timed at the end, at {lab.TIMING_SIZE['width']} wide x "
            f"{lab.TIMING_SIZE['tokens']} tokens, where matmuls dominate."
        )
    base, flops = t.time("none"), t.step_flops("none")
    parts = [
        f"{lab.POLICY_LABELS[p]} {t.time(p) * 1e3:.0f} ms ({t.time(p) / base - 1:+.0%}; matmul FLOPs "
        f"{t.step_flops(p) / flops - 1:+.0%})"
        for p in lab.POLICIES
    ]
    return (
        f"One fp32 forward + backward, best of {t.repeats}, at {t.n_layers} layers x {t.width} wide x {t.tokens} "
        f"tokens on {t.threads} CPU thread, where matmuls dominate: " + ", ".join(parts) + ". Time beyond the FLOPs "
        "is the recomputed pointwise work (GELU) and checkpointing's own overhead. A clock on a shared CPU varies "
        "from run to run (run again to see by how much); the counted matmuls do not. At the lab's own size a "
        "clock would measure Python overhead, so no times are shown there."
    )
