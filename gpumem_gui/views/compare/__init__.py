"""Two runs side by side: a diff of two snapshots or moments, a what-if replay, a folder of ranks."""
