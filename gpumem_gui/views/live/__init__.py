"""Live jobs: an attached probe's maps and OOMs, several jobs at a glance, the GPUs NVML sees."""
