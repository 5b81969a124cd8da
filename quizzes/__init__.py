"""The guided quizzes (TOML, schema in README.md), shipped as gpumem_gui.quizzes."""
