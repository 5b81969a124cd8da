"""The teaching views: the quiz panel and its predict step, demo focus on the maps, the checkpointing lab."""
