"""Pooled buffers.  Every live handle is tracked so audit() can checksum them."""

import itertools

from bufpool import native, sizes

_ids = itertools.count(1)
_LIVE = {}  # handle id -> Handle


class HandleClosed(RuntimeError):
    pass


class Handle:
    def __init__(self, size):
        self.id = next(_ids)
        self.size = sizes.size_class(size)
        self._buf = native.alloc(self.size)
        self.address = native.address_of(self._buf)
        self.length = 0

    def _check(self):
        if self._buf is None:
            raise HandleClosed("handle %d is closed" % self.id)

    def write(self, data):
        self._check()
        native.write(self._buf, data)
        self.length = len(data)

    def read(self):
        self._check()
        return native.read(self.address, self.length)

    def release(self):
        self._check()
        _LIVE.pop(self.id, None)
        self._buf = None
        self.address = 0

    def hand_off(self):
        """Give the memory to a native consumer (zero-copy send).

        The consumer frees it; from now on this handle must not touch it.
        Returns (address, length) for the consumer.
        """
        self._check()
        ticket = (self.address, self.length)
        _CONSUMED.append(self._buf)  # keep alive until the consumer is done
        self._buf = None
        self.address = 0
        return ticket

    @property
    def closed(self):
        return self._buf is None


_CONSUMED = []


def allocate(size):
    handle = Handle(size)
    _LIVE[handle.id] = handle
    return handle


def live_ids():
    return sorted(_LIVE)


def audit():
    """Checksum every live buffer: {handle id: (size, crc32)}."""
    return {hid: (h.size, native.crc32(h.address, h.size)) for hid, h in _LIVE.items()}


def total_reserved():
    return sum(h.size for h in _LIVE.values())
