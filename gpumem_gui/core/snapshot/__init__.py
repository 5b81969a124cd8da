"""Reading snapshots: the safe unpickler, the conversion to columns, and the columnar model everything else reads."""
