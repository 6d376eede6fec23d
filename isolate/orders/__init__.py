"""Where orders come from: stored stestr/testr runs, saved subunit streams, pytest recordings,
and the executed order of one worker cut out of them."""
