"""What every view shares: the palette, the task mechanism, the table model, stack views and the start page."""
