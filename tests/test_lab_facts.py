"""The lab's facts checked against tensor sizes worked by hand: selective saves Linear outputs, bf16 vs autocast."""

from __future__ import annotations

from typing import Any

import pytest

from gpumem_gui.teach import lab

N, WIDTH, TOKENS = 6, 32, 16


def _dispatched(module: Any, x: Any) -> list[str]:
    """The aten ops a module's forward dispatches, seen by a dispatch mode of the test's own."""
    from torch.utils._python_dispatch import TorchDispatchMode  # noqa: PLC0415

    class Log(TorchDispatchMode):
        def __init__(self) -> None:
            super().__init__()
            self.ops: list[str] = []

        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            self.ops.append(str(func))
            return func(*args, **(kwargs or {}))

    with Log() as log:
        module(x)
    return log.ops


def test_linear_with_a_bias_runs_addmm_on_2d_and_3d_inputs_and_the_policy_names_both() -> None:
    import torch  # noqa: PLC0415

    linear = torch.nn.Linear(8, 8)
    for shape in ((4, 8), (2, 4, 8)):
        ops = _dispatched(linear, torch.randn(*shape))
        assert "aten.addmm.default" in ops and "aten.mm.default" not in ops, shape
    assert "aten.mm.default" in _dispatched(torch.nn.Linear(8, 8, bias=False), torch.randn(4, 8))
    assert set(lab.SAVE_OPS) == {"mm.default", "addmm.default"}
    assert lab.TRAP_SAVE_OPS == ("mm.default",)


def test_the_selective_policy_saves_linear_outputs_and_mm_alone_saves_none() -> None:
    act = TOKENS * WIDTH * 4  # one fp32 activation
    chain = lab.build_chain(N, WIDTH)
    selective = lab.measure_policy("selective", N, width=WIDTH, tokens=TOKENS, chain=chain)
    trap = lab.measure_policy(lab.TRAP_POLICY, N, width=WIDTH, tokens=TOKENS, chain=chain)
    every = lab.measure_policy("every", N, width=WIDTH, tokens=TOKENS, chain=chain)
    # both Linears' outputs are kept: each layer's input (the previous layer's second Linear output), its first
    # Linear's output, and the last layer's output, which the policy keeps too; none is recomputed
    assert selective.saved_bytes == (2 * N + 1) * act
    assert selective.recomputed_matmuls == 0 and selective.extra_flops == 0
    assert selective.recomputed_pointwise == N  # only each GELU runs again
    # naming only mm keeps nothing from a Linear with a bias: it holds and recomputes what every layer does
    assert trap.saved_bytes == every.saved_bytes == N * act
    assert trap.recomputed_matmuls == every.recomputed_matmuls == N
    assert trap.extra_flops == N * 2 * TOKENS * WIDTH * WIDTH


def test_every_layer_checkpointed_recomputes_half_the_matmuls_by_early_stop() -> None:
    every = lab.measure_policy("every", N, width=WIDTH, tokens=TOKENS)
    # each layer forward starts again, but stops after the first Linear and the GELU: backward of the second
    # Linear needs the GELU output, not the second Linear's own output
    assert every.extra_forwards == N
    assert every.forward_matmuls == 2 * N and every.recomputed_matmuls == N
    assert every.extra_flops_fraction == pytest.approx(0.5)


def test_pure_bf16_and_autocast_bf16_are_measured_apart() -> None:
    sweep = lab.run_sweep(N, width=WIDTH, tokens=TOKENS, n_values=(N,), timing=False)
    assert lab.PRECISION_LABELS == {
        "fp32": "fp32",
        "bf16": "pure bf16",
        "autocast": "autocast bf16 (mixed precision)",
    }
    fp32, pure, auto = (sweep.at("none", d) for d in ("fp32", "bf16", "autocast"))
    act16 = TOKENS * WIDTH * 2
    weight16 = WIDTH * WIDTH * 2
    # without checkpointing each layer keeps its input, the first Linear's output and the GELU output
    assert fp32.saved_bytes == 3 * N * 2 * act16
    assert pure.saved_bytes == 3 * N * act16  # a bf16 model: half of fp32, its weights are parameters
    # autocast: the same bf16 activations, plus the bf16 copy of every Linear weight that backward needs to carry
    # the gradient to the Linear's input; the first Linear's input needs none, so its copy is not kept
    assert auto.saved_bytes == 3 * N * act16 + (2 * N - 1) * weight16
    assert auto.saved_bytes > fp32.saved_bytes > pure.saved_bytes
    for policy in lab.POLICIES:
        assert sweep.at(policy, "autocast").saved_bytes > sweep.at(policy, "bf16").saved_bytes, policy
