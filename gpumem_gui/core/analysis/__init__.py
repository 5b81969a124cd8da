"""What a snapshot says: metrics, time travel through the trace, map layouts, reports and exports."""
