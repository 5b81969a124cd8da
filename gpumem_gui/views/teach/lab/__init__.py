"""The checkpointing lab's Qt panel: panel (controls, tasks, focus), saved (N curves), bars (recompute, bf16), fsdp."""
