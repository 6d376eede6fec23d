"""`python -m isolate`: the command line."""

from isolate.cli import main

main()
