"""One open snapshot's tab (SnapshotTab) and what it shows: the map, the timelines, figures, tables, inspector."""
