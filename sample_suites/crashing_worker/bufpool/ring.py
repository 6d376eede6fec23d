"""A fixed-capacity byte ring buffer."""


class RingBuffer:
    def __init__(self, capacity):
        if capacity <= 0:
            raise ValueError("capacity must be positive")
        self.capacity = capacity
        self._data = bytearray(capacity)
        self._start = 0
        self._len = 0

    def __len__(self):
        return self._len

    def free(self):
        return self.capacity - self._len

    def write(self, data):
        if len(data) > self.free():
            raise OverflowError("ring buffer full")
        for b in data:
            self._data[(self._start + self._len) % self.capacity] = b
            self._len += 1
        return len(data)

    def read(self, n):
        n = min(n, self._len)
        out = bytes(self._data[(self._start + i) % self.capacity] for i in range(n))
        self._start = (self._start + n) % self.capacity
        self._len -= n
        return out

    def peek(self, n):
        n = min(n, self._len)
        return bytes(self._data[(self._start + i) % self.capacity] for i in range(n))

    def clear(self):
        self._start = self._len = 0
