"""The pure search: the evidence so far in, the next lists to run or a verdict out.

No I/O, no clock, no randomness, so it can be simulated thousands of times in seconds."""
