"""Running lists of tests in exactly their order: the project's configuration, the Runner and its
executors, the code that runs inside the test process, and the judging of each repetition."""
