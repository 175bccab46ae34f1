"""`python -m generator` is the same as the `pnpkit` command."""

from generator.cli import main

if __name__ == "__main__":
    main()
