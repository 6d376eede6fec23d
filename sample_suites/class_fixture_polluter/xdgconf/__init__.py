"""xdgconf: find and read an application's configuration the XDG Base Directory way."""
