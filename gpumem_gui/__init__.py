"""gpumem_gui: see, measure and teach PyTorch CUDA caching-allocator memory."""

__version__ = "0.1.0"
