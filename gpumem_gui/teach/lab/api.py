"""The checkpoint API, tried for real: what use_reentrant=True and False each support, and an editable SAC policy.

Every outcome is measured by running torch on a small Linear-GELU-Linear block, never written from memory: a
case "works" when the checkpointed run gives the gradients of the plain run, is "wrong" when it runs but some
gradient differs or is missing, and is an "error" when torch raises.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gpumem_gui.teach.lab.chain import build_chain, clear_grads, make_input
from gpumem_gui.teach.lab.recorder import op_classes
from gpumem_gui.teach.translatable import QT_TRANSLATE_NOOP

# (key, what the row tries): the documented differences between the two variants, each tried on the same block
API_CASES: tuple[tuple[str, str], ...] = (
    (
        "no_requires_grad",
        QT_TRANSLATE_NOOP("lab", "input without requires_grad (the block's parameters still need gradients)"),
    ),
    ("autograd_grad", "torch.autograd.grad(loss, params)"),
    ("backward_inputs", "loss.backward(inputs=params)"),
    ("kwargs", QT_TRANSLATE_NOOP("lab", "a keyword argument: checkpoint(block, x, scale=s)")),
    (
        "nested",
        QT_TRANSLATE_NOOP(
            "lab", "tensors inside a tuple, the only ones needing gradients: checkpoint(block, x, (a, b))"
        ),
    ),
    ("detached", QT_TRANSLATE_NOOP("lab", "the region's only output is detached inside it")),
)
OUTCOMES = ("works", "wrong", "error")
# why a case works or not, as templates the window translates; {names} lists the tensors' names
SAME = QT_TRANSLATE_NOOP("lab", "same gradients as without checkpointing")
NO_GRADIENT = QT_TRANSLATE_NOOP("lab", "no gradient reaches {names}")
DIFFERS = QT_TRANSLATE_NOOP("lab", "gradient differs for {names}")
# the ops the learner may name in the selective policy, and what each is in the block
SELECTABLE_OPS: tuple[tuple[str, str], ...] = (
    ("mm.default", QT_TRANSLATE_NOOP("lab", "aten.mm: a matmul without bias")),
    ("addmm.default", QT_TRANSLATE_NOOP("lab", "aten.addmm: nn.Linear with a bias")),
    ("gelu.default", QT_TRANSLATE_NOOP("lab", "aten.gelu: the activation")),
)
API_WIDTH, API_TOKENS = 16, 4
SELECTION_LAYERS = 4


@dataclass(frozen=True)
class ApiOutcome:
    case: str
    reentrant: bool
    outcome: str  # works, wrong or error
    detail: str  # the error's first line, or which gradients differ, or the warning torch gave
    reason: str = ""  # SAME, NO_GRADIENT or DIFFERS ("" for an error): the detail's own words, untranslated
    names: str = ""  # the tensors the reason names
    torch_said: str = ""  # torch's error or warning, its first line: quoted as it is


@dataclass(frozen=True)
class ApiTable:
    rows: tuple[ApiOutcome, ...]

    def outcome(self, case: str, reentrant: bool) -> ApiOutcome:
        return next(r for r in self.rows if r.case == case and r.reentrant == reentrant)


@dataclass(frozen=True)
class SelectionMeasurement:
    """One forward + backward of a checkpointed chain under a selective policy that saves the `names` ops."""

    names: tuple[str, ...]
    n_layers: int
    activation_bytes: int  # one tokens x width activation
    saved_bytes: int  # alive when the forward returns (SAC's cache included), parameters excluded
    saved_outputs: int  # outputs the policy marked MUST_SAVE during the forward
    recomputed_matmuls: int  # matmuls run again in backward
    forward_matmuls: int


# -- the supported-features table


def _block(width: int) -> Any:
    return build_chain(1, width)[0]


def _grads(tensors: Sequence[Any]) -> list[Any]:
    return [None if t.grad is None else t.grad.clone() for t in tensors]


def _compare(expected: list[Any], got: list[Any], names: Sequence[str]) -> tuple[str, str, str]:
    """(outcome, reason, the names it concerns)."""
    import torch  # noqa: PLC0415

    missing = [n for n, e, g in zip(names, expected, got, strict=True) if g is None and e is not None]
    if missing:
        return "wrong", NO_GRADIENT, ", ".join(missing)
    off = [n for n, e, g in zip(names, expected, got, strict=True) if e is not None and not torch.allclose(e, g)]
    if off:
        return "wrong", DIFFERS, ", ".join(off)
    return "works", SAME, ""


def _case(case: str, width: int, tokens: int) -> Callable[[Callable[..., Any] | None], tuple[list[Any], list[str]]]:
    """A function that runs `case` once, with `ckpt` as the checkpoint (None: plain), and returns its gradients."""
    import torch  # noqa: PLC0415

    def run(ckpt: Callable[..., Any] | None) -> tuple[list[Any], list[str]]:
        def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
            return fn(*args, **kwargs) if ckpt is None else ckpt(fn, *args, **kwargs)

        block, head = _block(width), build_chain(1, width, seed=7)[0]
        params = list(block.parameters())
        names = [name for name, _ in block.named_parameters()]  # code names: "0.weight", ... as torch lists them
        x = make_input(tokens, width, torch.float32)
        if case == "no_requires_grad":
            # the checkpointed block feeds a layer after it, so the loss needs gradients whatever the block does
            loss = head(call(block, x)).sum()
            loss.backward()
            return _grads(params), names
        if case == "nested":
            a, b = (make_input(tokens, width, torch.float32, seed=s).requires_grad_(True) for s in (2, 3))
            call(lambda h, pair: block(h * pair[0] + pair[1]), x, (a, b)).sum().backward()
            return _grads([*params, a, b]), [*names, "a", "b"]
        x.requires_grad_(True)
        if case == "autograd_grad":
            loss = call(block, x).sum()
            return list(torch.autograd.grad(loss, params)), names
        if case == "backward_inputs":
            call(block, x).sum().backward(inputs=params)
            return _grads(params), names
        if case == "kwargs":
            s = torch.tensor(2.0, requires_grad=True)
            call(lambda h, *, scale: block(h) * scale, x, scale=s).sum().backward()
            return _grads([*params, x, s]), [*names, "x", "scale"]
        if case == "detached":
            # the only output is detached: the loss reaches x around the block, never into it; reentrant checkpoint
            # hands the detached output back requiring grad, and its backward finds no output to differentiate
            z = call(lambda h: block(h).detach(), x)
            (z * x).sum().backward()
            return _grads([*params, x]), [*names, "x"]
        raise ValueError(f"case must be one of {[c for c, _ in API_CASES]}, not {case!r}")

    return run


def try_case(case: str, reentrant: bool, *, width: int = API_WIDTH, tokens: int = API_TOKENS) -> ApiOutcome:
    """Run `case` without checkpointing and with checkpoint(use_reentrant=reentrant); compare the gradients."""
    from torch.utils.checkpoint import checkpoint  # noqa: PLC0415

    run = _case(case, width, tokens)
    expected, names = run(None)
    ckpt = functools.partial(checkpoint, use_reentrant=reentrant)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # record torch's warning as the row's detail instead of raising it
        try:
            got, _ = run(ckpt)
        except Exception as exc:
            line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            error = f"{type(exc).__name__}: {line}"
            return ApiOutcome(case, reentrant, "error", error, torch_said=error)
    outcome, reason, named = _compare(expected, got, names)
    detail = reason.format(names=named)
    said = [str(w.message).splitlines()[0] for w in caught if issubclass(w.category, UserWarning)]
    warned = said[0] if said and outcome != "works" else ""
    if warned:
        detail += f" (torch warned: {warned})"
    return ApiOutcome(case, reentrant, outcome, detail, reason, named, warned)


def measure_api(check: Callable[[], None] | None = None) -> ApiTable:
    """Every case under both variants; `check` is called between two runs (a cancellation raises there)."""
    rows = []
    for case, _ in API_CASES:
        for reentrant in (True, False):
            if check is not None:
                check()
            rows.append(try_case(case, reentrant))
    return ApiTable(tuple(rows))


# -- the editable selective policy


def measure_selection(
    names: Sequence[str], *, n_layers: int = SELECTION_LAYERS, width: int = API_WIDTH, tokens: int = API_TOKENS
) -> SelectionMeasurement:
    """Checkpoint each layer with a policy that MUST_SAVEs the ops `names` ("mm.default", ...) and recomputes
    the rest; measure what the forward leaves alive and the matmuls backward runs again."""
    import torch  # noqa: PLC0415
    from torch.utils.checkpoint import CheckpointPolicy, checkpoint, create_selective_checkpoint_contexts  # noqa: PLC0415

    known = {name for name, _ in SELECTABLE_OPS}
    if not set(names) <= known:
        raise ValueError(f"ops must be among {sorted(known)}, not {sorted(set(names) - known)}")
    keep = frozenset(getattr(getattr(torch.ops.aten, p), o) for p, o in (n.split(".") for n in names))
    marked = [0]
    in_forward = [True]

    def policy(ctx: Any, op: Any, *args: Any, **kwargs: Any) -> Any:
        if op in keep:
            marked[0] += in_forward[0]
            return CheckpointPolicy.MUST_SAVE
        return CheckpointPolicy.PREFER_RECOMPUTE

    context_fn = functools.partial(create_selective_checkpoint_contexts, policy)
    layers = list(build_chain(n_layers, width))
    params = [p for layer in layers for p in layer.parameters()]
    _, recorder_class = op_classes()
    recorder = recorder_class({p.untyped_storage()._cdata for p in params}, False)
    hooks = [p.register_post_accumulate_grad_hook(lambda p: recorder.forget(p.grad.untyped_storage())) for p in params]
    clear_grads(params)
    try:
        with recorder:
            x = make_input(tokens, width, torch.float32)
            activation = x.untyped_storage().nbytes()
            for layer in layers:
                x = checkpoint(layer, x, use_reentrant=False, preserve_rng_state=False, context_fn=context_fn)
            loss = x.sum()
            del x
            recorder.forget(loss.untyped_storage())
            saved = recorder.live_bytes()
            in_forward[0] = False
            recorder.phase = "backward"
            loss.backward()
    finally:
        for h in hooks:
            h.remove()
    clear_grads(params)
    return SelectionMeasurement(
        names=tuple(names),
        n_layers=n_layers,
        activation_bytes=activation,
        saved_bytes=saved,
        saved_outputs=marked[0],
        recomputed_matmuls=recorder.ops[("recompute", "matmul")],
        forward_matmuls=recorder.ops[("forward", "matmul")],
    )
