"""`gpumem-gui mcp`: placeholder replaced below."""
