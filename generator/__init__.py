"""pnpkit: layout specs to print-and-play kits, proven legal and balanced by seeded self-play."""

__version__ = "0.1.0"
