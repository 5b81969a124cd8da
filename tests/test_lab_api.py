"""The lab's api focus: its measured table agrees with torch tried directly here; the editable policy's figures."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

torch = pytest.importorskip("torch")

from torch import nn  # noqa: E402
from torch.utils.checkpoint import checkpoint  # noqa: E402

from gpumem_gui.teach.lab import api  # noqa: E402


@pytest.fixture(scope="module")
def table() -> api.ApiTable:
    return api.measure_api()


def _block() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(8, 8), nn.GELU(), nn.Linear(8, 8))


def test_reentrant_input_without_requires_grad_leaves_the_parameters_without_gradients(table: api.ApiTable) -> None:
    block, head = _block(), nn.Linear(8, 8)
    x = torch.randn(3, 8)  # no requires_grad, as a batch of data is
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns "None of the inputs have requires_grad=True"
        head(checkpoint(block, x, use_reentrant=True)).sum().backward()
    assert all(p.grad is None for p in block.parameters())
    assert head.weight.grad is not None  # the step ran: only the checkpointed block is cut off
    row = table.outcome("no_requires_grad", True)
    assert row.outcome == "wrong" and "no gradient reaches" in row.detail

    block, head = _block(), nn.Linear(8, 8)
    head(checkpoint(block, x, use_reentrant=False)).sum().backward()
    assert all(p.grad is not None for p in block.parameters())
    assert table.outcome("no_requires_grad", False).outcome == "works"


def test_reentrant_refuses_keyword_arguments(table: api.ApiTable) -> None:
    x = torch.randn(3, 8, requires_grad=True)
    with pytest.raises(ValueError, match="keyword"):
        checkpoint(lambda h, *, scale: h * scale, x, scale=2.0, use_reentrant=True)
    checkpoint(lambda h, *, scale: h * scale, x, scale=2.0, use_reentrant=False).sum().backward()
    assert torch.equal(x.grad, torch.full_like(x, 2.0))
    assert table.outcome("kwargs", True).outcome == "error"
    assert table.outcome("kwargs", False).outcome == "works"


def test_reentrant_and_autograd_grad_or_backward_inputs(table: api.ApiTable) -> None:
    block = _block()
    params = list(block.parameters())
    x = torch.randn(3, 8, requires_grad=True)
    with pytest.raises(RuntimeError):
        torch.autograd.grad(checkpoint(block, x, use_reentrant=True).sum(), params)
    assert table.outcome("autograd_grad", True).outcome == "error"
    checkpoint(block, x, use_reentrant=True).sum().backward(inputs=params)
    assert all(p.grad is None for p in params)  # backward(inputs=) reaches none of them
    assert table.outcome("backward_inputs", True).outcome == "wrong"
    grads = torch.autograd.grad(checkpoint(block, x, use_reentrant=False).sum(), params)
    plain = torch.autograd.grad(block(x).sum(), params)
    assert all(torch.allclose(g, p) for g, p in zip(grads, plain, strict=True))
    assert table.outcome("autograd_grad", False).outcome == "works"
    assert table.outcome("backward_inputs", False).outcome == "works"


def test_reentrant_ignores_tensors_in_a_tuple(table: api.ApiTable) -> None:
    x, a = torch.randn(3, 8), torch.randn(3, 8, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = checkpoint(lambda h, pair: h * pair[0], x, (a,), use_reentrant=True)
    assert not out.requires_grad  # a inside the tuple is not an input autograd sees
    assert table.outcome("nested", True).outcome == "error"
    checkpoint(lambda h, pair: h * pair[0], x, (a,), use_reentrant=False).sum().backward()
    assert torch.equal(a.grad, x)
    assert table.outcome("nested", False).outcome == "works"


def test_reentrant_fails_a_region_whose_output_is_detached(table: api.ApiTable) -> None:
    """Review fact 8: the docs list detached tensors among what reentrant lacks, and the table now shows why. Tried
    here: reentrant hands a detached output back requiring grad, and backward finds nothing to differentiate."""
    x = torch.randn(3, 8, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = checkpoint(lambda h: h.detach() * 2, x, use_reentrant=True)
        assert out.requires_grad
        with pytest.raises(RuntimeError, match="none of output has requires_grad=True"):
            (out * x).sum().backward()
    assert not checkpoint(lambda h: h.detach() * 2, x, use_reentrant=False).requires_grad
    assert table.outcome("detached", True).outcome == "error"
    assert "none of output has requires_grad" in table.outcome("detached", True).detail
    assert table.outcome("detached", False).outcome == "works"


def test_every_case_is_measured_for_both_variants(table: api.ApiTable) -> None:
    assert len(table.rows) == 2 * len(api.API_CASES)
    assert {r.outcome for r in table.rows} <= set(api.OUTCOMES)
    assert all(table.outcome(case, False).outcome == "works" for case, _ in api.API_CASES)


def test_naming_only_mm_saves_nothing_from_linear_with_bias() -> None:
    # hand-worked, N=4 layers of Linear-GELU-Linear, 4 tokens x 16 wide fp32: one activation = 4*16*4 = 256 B.
    # Checkpointing each layer keeps its input: 4 x 256 = 1024 B. Linear with a bias runs addmm, so naming mm
    # keeps nothing more and backward reruns the first Linear of each layer (early stop): 4 of 8 matmuls.
    n, act = 4, 4 * 16 * 4
    nothing = api.measure_selection((), n_layers=n)
    mm = api.measure_selection(("mm.default",), n_layers=n)
    assert mm.activation_bytes == act
    assert (mm.saved_outputs, mm.saved_bytes, mm.recomputed_matmuls) == (0, n * act, n)
    assert mm.saved_bytes == nothing.saved_bytes
    # naming addmm too keeps both Linear outputs of each layer (2N); the second is the next layer's input, already
    # held, except for the last layer's: N inputs + N first-Linear outputs + 1 = 9 activations; nothing recomputed
    both = api.measure_selection(("mm.default", "addmm.default"), n_layers=n)
    assert (both.saved_outputs, both.saved_bytes, both.recomputed_matmuls) == (2 * n, (2 * n + 1) * act, 0)
    gelu = api.measure_selection(("mm.default", "addmm.default", "gelu.default"), n_layers=n)
    assert (gelu.saved_outputs, gelu.saved_bytes) == (3 * n, (3 * n + 1) * act)
    with pytest.raises(ValueError, match="ops must be among"):
        api.measure_selection(("relu.default",))


def test_panel_api_focus_measures_off_the_gui_thread_and_reruns_the_edited_policy(qtbot: Any) -> None:
    from gpumem_gui.views.teach.lab.panel import (  # noqa: PLC0415
        TAB_API,
        CheckpointLabPanel,
    )

    panel = CheckpointLabPanel()
    panel.auto_run = False
    qtbot.addWidget(panel)
    panel.set_focus("api")
    assert panel.tabs.currentIndex() == TAB_API and panel.busy()
    assert "use_reentrant=True" in panel.caption.text()
    page = panel.api_page
    qtbot.waitUntil(lambda: page.table_result is not None and page.selection is not None, timeout=30_000)
    assert page.table.item(0, 1).text() == "runs, wrong gradients"  # no requires_grad under reentrant
    assert "no gradient reaches" in page.table.item(0, 1).toolTip()
    assert page.selection.names == ("mm.default",)  # the trap is what the learner starts from
    assert "saves nothing" in panel.caption.text() and "saves 0 op outputs" in panel.caption.text()
    page.boxes["addmm.default"].setChecked(True)
    page.rerun.click()
    qtbot.waitUntil(lambda: page.selection is not None and len(page.selection.names) == 2, timeout=30_000)
    assert "saves 8 op outputs" in panel.caption.text() and "saves nothing" not in panel.caption.text()
    assert "recomputes 0 of 8" in panel.caption.text()
    panel.set_language("ro")
    assert "Politica dumneavoastră salvează 8" in panel.caption.text()
    panel.set_language("fr")
    assert "Votre politique sauvegarde 8" in panel.caption.text()
    panel.shutdown()  # the sweep the focus started too: cancelled, not waited for
    assert not panel.busy()


def test_opening_the_api_tab_by_hand_measures_it(qtbot: Any) -> None:
    """The review's bug 5: opened by its tab, not from a quiz focus, the table stayed on "measuring..." for good."""
    from gpumem_gui.views.teach.lab.panel import (  # noqa: PLC0415
        TAB_API,
        CheckpointLabPanel,
    )

    panel = CheckpointLabPanel()
    panel.auto_run = False
    qtbot.addWidget(panel)
    panel.tabs.setCurrentIndex(TAB_API)
    assert panel.busy()
    qtbot.waitUntil(lambda: panel.api_page.table_result is not None, timeout=30_000)
    panel.tabs.setCurrentIndex(0)
    panel.tabs.setCurrentIndex(TAB_API)  # measured once: coming back starts nothing new
    assert "api" not in panel.pending
    panel.shutdown()
