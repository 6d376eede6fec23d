"""Size classes: requests are rounded up to a power of two between MIN and MAX."""

MIN_SIZE = 64
MAX_SIZE = 1 << 20


def size_class(n):
    if n <= 0:
        raise ValueError("size must be positive")
    if n > MAX_SIZE:
        raise ValueError("size %d exceeds maximum %d" % (n, MAX_SIZE))
    size = MIN_SIZE
    while size < n:
        size <<= 1
    return size


def waste(n):
    return size_class(n) - n


def human(n):
    for unit in ("B", "KiB", "MiB"):
        if n < 1024 or unit == "MiB":
            return ("%d %s" % (n, unit)) if unit == "B" else ("%.1f %s" % (n, unit))
        n /= 1024.0
