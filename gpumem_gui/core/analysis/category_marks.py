"""What a frame says about the block allocated under it beyond the phase: a library's workspace, autocast's cast, a
DataParallel replica, an input moved to the device. Each mark is one bit; a stack's marks are its frames' OR.

Every pattern below is a frame seen on a real trace (or torch's own source for the same call, where no fixture
has it); the rules that read the marks are in categories.RULES.
"""

from __future__ import annotations

import re
from functools import lru_cache

from gpumem_gui.core.snapshot.frame_kinds import PYTHON_KINDS, frame_kind, qualified_name
from gpumem_gui.core.snapshot.model import Frame

# bits 16 and up: categories.frame_flags keeps the phases in the bits below
WORKSPACE, AUTOCAST, TO_COPY, REPLICA, SCATTER, DATA_MOVE, DEVICE_MOVE = (1 << (16 + i) for i in range(7))

# cuBLAS: at::cuda::getNewWorkspace <- getCurrentCUDABlasHandle (silmont; constructor shows the handle alone, the
# workspace getter inlined); cuBLASLt: its shared workspace (getCUDABlasLtWorkspace) and older torch's per-call
# CuBlasLtWorkspace; cuDNN: the convolution's Workspace (Conv_v7.cpp) and any cudnn function named for one
_WORKSPACE_NAMES = re.compile(
    r"^at::cuda::(?:getNewWorkspace|getCurrentCUDABlasHandle|getCurrentCUDABlasLtHandle|getCUDABlasLtWorkspace)$"
    r"|CuBlasLtWorkspace|Workspace::Workspace$|(?i:cudnn\w*::\w*workspace)"
)
# NCCL's own buffers when the caching allocator makes them: a c10d/NCCL function named for a buffer or workspace
# (not the collectives: their outputs are the program's tensors)
_NCCL_BUFFER = re.compile(r"(?i)nccl\w*::\w*(?:buffer|workspace)")
# autocast's wrapper of an op (WrapFunction_<...>::call) and its cast (cached_cast), both in namespace at::autocast
_AUTOCAST = "at::autocast::"
# the copy a dtype or device change makes: at::_ops::_to_copy::call, at::native::_to_copy
_TO_COPY = re.compile(r"(?:^|::)_to_copy(?:::|$)")
# torch/nn/parallel/replicate.py: DataParallel copying the module's weights to every device
_REPLICATE_FILE = re.compile(r"nn[/\\]parallel[/\\]replicate\.py$")
# DataParallel sending the inputs to the devices: torch's scatter_gather.py, torch_geometric's DataParallel.scatter
_SCATTER_NAMES = frozenset({"scatter", "scatter_kwargs", "scatter_map", "_scatter"})
_SCATTER_FILE = re.compile(r"(?:parallel[/\\]scatter_gather|data_parallel)\.py$")
# helpers whose job is to move a batch to the device (accelerate, lightning, a script's own to_device)
_DATA_MOVE_NAMES = frozenset(
    {"send_to_device", "move_data_to_device", "move_to_device", "to_device", "batch_to_device", "recursive_to"}
)
# batch containers' own .to(): transformers' BatchEncoding/BatchFeature, torch_geometric's Data/Batch
_DATA_MOVE_FILE = re.compile(
    r"(?:tokenization_utils_base|feature_extraction_utils|torch_geometric[/\\]data[/\\]\w+)\.py$"
)
# Tensor.to(device) and Tensor.cuda() from Python, in C++: dispatch_to's device overloads, the to.device op
_DEVICE_MOVE_NAMES = frozenset({"torch::autograd::THPVariable_cuda", "at::_ops::to_device::call"})
_DISPATCH_TO_DEVICE = "torch::autograd::dispatch_to(at::Tensor const&, c10::Device"


@lru_cache(maxsize=1 << 16)
def frame_marks(frame: Frame) -> int:
    """The mark bits one frame sets (0 for most frames)."""
    name, filename = frame.name, frame.filename
    if frame_kind(frame) in PYTHON_KINDS:
        if _REPLICATE_FILE.search(filename):
            return REPLICA
        if name in _SCATTER_NAMES and _SCATTER_FILE.search(filename):
            return SCATTER
        if name in _DATA_MOVE_NAMES or (name in ("to", "cuda") and _DATA_MOVE_FILE.search(filename)):
            return DATA_MOVE
        return 0
    qualified = qualified_name(name)
    marks = 0
    if _WORKSPACE_NAMES.search(qualified) or _NCCL_BUFFER.search(qualified):
        marks |= WORKSPACE
    if _AUTOCAST in name:
        marks |= AUTOCAST
    if _TO_COPY.search(qualified):
        marks |= TO_COPY
    if qualified in _DEVICE_MOVE_NAMES or name.startswith(_DISPATCH_TO_DEVICE):
        marks |= DEVICE_MOVE
    return marks
