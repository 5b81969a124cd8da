"""Where snapshots come from: files (loaded in a worker process), and later the live probe and NVML. No Qt."""
