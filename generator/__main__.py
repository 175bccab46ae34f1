"""`python -m generator` is the same as the `pnpkit` command."""

if __name__ == "__main__":
    # first, before the imports: a Ctrl-C or SIGTERM from here on is recorded and ends the command with
    # 130 / 143
    from generator.interrupts import install_for_process

    install_for_process()

    from generator.cli import main

    main()
