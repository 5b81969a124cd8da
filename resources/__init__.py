"""The app's bundled files (example snapshots, glossary, the quiz panel's words and predict steps); shipped as gpumem_gui.resources."""
