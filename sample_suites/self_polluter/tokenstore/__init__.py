"""tokenstore: numbered access tokens, issued per process."""
