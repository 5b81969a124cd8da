"""Teaching: the quiz content model, each question's demo, and the checkpointing lab (which runs torch)."""
