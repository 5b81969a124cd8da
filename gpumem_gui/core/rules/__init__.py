"""The caching allocator's rules: its constants, the rounding and split rules, and PYTORCH_CUDA_ALLOC_CONF parsing."""
