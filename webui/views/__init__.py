"""One blueprint per page: main (home, PIN), live, photo, referee, ledger."""
