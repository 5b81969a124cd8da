"""The window's wiring: window.py (tabs, opening files, closing), loading.py (a file's load task), one module per
group of menu actions (tab_actions, compare_actions, live_actions, teach_actions, user_code) handed a WindowHost
(host.py) rather than the window, and launch.py (the QApplication and `gpumem-gui [FILE ...]`)."""

from gpumem_gui.app.launch import application, run_window
from gpumem_gui.app.window import MainWindow

__all__ = ["MainWindow", "application", "run_window"]
