"""What a person sees: the verdict in words, where hunts stand, and progress while one runs."""
