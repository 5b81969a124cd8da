"""A stand-in for PyTorch in the probe's tests: the torch.cuda calls the probe's backend makes, over a toy allocator.

Put its folder first on PYTHONPATH in a subprocess and every path of gpumem_gui/probe/torch_backend.py runs without
a GPU or torch. FAKE_TORCH (comma-separated) picks the variant: `missing` (the import fails), `nocuda` (a build
without CUDA), `old` (torch 2.0's boolean _record_memory_history and a _cuda_memorySnapshot without arguments),
`broken_history` (recording cannot be set up), `no_observer` (no OOM observer hook). FAKE_TORCH_LOG names a file
that gets a JSON line per call of interest (who initialised CUDA, recording changes, per-device calls), so a test
can see what the probe asked.
"""

import os

OPTIONS = frozenset(filter(None, os.environ.get("FAKE_TORCH", "").split(",")))
if "missing" in OPTIONS:
    raise ImportError("No module named 'torch' (FAKE_TORCH=missing)")

__version__ = "2.0.1+fake" if "old" in OPTIONS else "2.9.0+fake"

from torch import _C, cuda, version  # noqa: E402  (the options above decide what these modules define)

__all__ = ["OPTIONS", "_C", "__version__", "cuda", "version"]
