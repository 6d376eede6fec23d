"""Named profiles: one subdirectory per profile under the application's config directory."""

DEFAULT = "default"


def profile_dir(app_dir, profile=None):
    name = profile or DEFAULT
    if "/" in name or name.startswith("."):
        raise ValueError("bad profile name: %r" % (name,))
    if name == DEFAULT:
        return app_dir
    return app_dir + "/profiles/" + name


def list_profiles(names):
    """Profile names found on disk (directory names), default first, then sorted."""
    found = sorted({n for n in names if n and not n.startswith(".")} - {DEFAULT})
    return [DEFAULT] + found


def parse_profile_flag(argv):
    """The value of --profile NAME or --profile=NAME in argv, else None."""
    for index, arg in enumerate(argv):
        if arg.startswith("--profile="):
            return arg.split("=", 1)[1] or None
        if arg == "--profile" and index + 1 < len(argv):
            return argv[index + 1]
    return None
