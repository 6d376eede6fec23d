"""The hunt: its directory (settings, steps, journal, lock), the evidence the journal holds,
and the loop that asks the search what to run and runs it."""
