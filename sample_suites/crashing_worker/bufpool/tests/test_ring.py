import unittest

from bufpool.ring import RingBuffer


class RingBufferTest(unittest.TestCase):
    def setUp(self):
        self.ring = RingBuffer(8)

    def test_starts_empty(self):
        self.assertEqual(len(self.ring), 0)

    def test_free_space(self):
        self.ring.write(b"abc")
        self.assertEqual(self.ring.free(), 5)

    def test_write_returns_count(self):
        self.assertEqual(self.ring.write(b"abcd"), 4)

    def test_read_fifo(self):
        self.ring.write(b"abc")
        self.assertEqual(self.ring.read(2), b"ab")
        self.assertEqual(self.ring.read(5), b"c")

    def test_read_more_than_available(self):
        self.ring.write(b"a")
        self.assertEqual(self.ring.read(10), b"a")

    def test_read_empty(self):
        self.assertEqual(self.ring.read(3), b"")

    def test_overflow(self):
        with self.assertRaises(OverflowError):
            self.ring.write(b"123456789")

    def test_overflow_writes_nothing(self):
        self.ring.write(b"12345")
        with self.assertRaises(OverflowError):
            self.ring.write(b"6789")
        self.assertEqual(len(self.ring), 5)

    def test_fill_exactly(self):
        self.ring.write(b"12345678")
        self.assertEqual(self.ring.free(), 0)

    def test_wraparound(self):
        self.ring.write(b"123456")
        self.ring.read(4)
        self.ring.write(b"abcdef")
        self.assertEqual(self.ring.read(8), b"56abcdef")

    def test_peek_does_not_consume(self):
        self.ring.write(b"xyz")
        self.assertEqual(self.ring.peek(2), b"xy")
        self.assertEqual(len(self.ring), 3)

    def test_peek_after_wrap(self):
        self.ring.write(b"1234567")
        self.ring.read(6)
        self.ring.write(b"abc")
        self.assertEqual(self.ring.peek(4), b"7abc")

    def test_clear(self):
        self.ring.write(b"abc")
        self.ring.clear()
        self.assertEqual((len(self.ring), self.ring.free()), (0, 8))

    def test_invalid_capacity(self):
        with self.assertRaises(ValueError):
            RingBuffer(0)

    def test_many_cycles(self):
        for i in range(20):
            self.ring.write(bytes([i]) * 3)
            self.assertEqual(self.ring.read(3), bytes([i]) * 3)
        self.assertEqual(len(self.ring), 0)
