"""The engine room: seeded self-play, executors and statistics, knowing nothing of any one game."""
