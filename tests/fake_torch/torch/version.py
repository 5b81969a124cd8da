"""torch.version of the fake: the CUDA version it was built with, None for a CPU-only build."""

import torch

cuda = None if "nocuda" in torch.OPTIONS else "12.4"
