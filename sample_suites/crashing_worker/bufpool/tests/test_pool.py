import unittest
import zlib

from bufpool import pool


class AllocateTest(unittest.TestCase):
    def _allocate(self, size):
        handle = pool.allocate(size)
        self.addCleanup(handle.release)
        return handle

    def test_rounds_to_size_class(self):
        self.assertEqual(self._allocate(100).size, 128)

    def test_registered_as_live(self):
        self.assertIn(self._allocate(10).id, pool.live_ids())

    def test_ids_increase(self):
        first, second = self._allocate(1), self._allocate(1)
        self.assertGreater(second.id, first.id)

    def test_total_reserved_grows(self):
        before = pool.total_reserved()
        self._allocate(1000)
        self.assertEqual(pool.total_reserved() - before, 1024)

    def test_rejects_zero(self):
        with self.assertRaises(ValueError):
            pool.allocate(0)

    def test_new_handle_is_open(self):
        self.assertFalse(self._allocate(8).closed)


class HandleLifecycleTest(unittest.TestCase):
    def test_closed_after_release(self):
        handle = pool.allocate(8)
        handle.release()
        self.assertTrue(handle.closed)

    def test_hand_off_transfers_ownership(self):
        handle = pool.allocate(64)
        handle.write(b"frame-0001")
        address, length = handle.hand_off()
        self.assertNotEqual(address, 0)
        self.assertEqual(length, 10)
        self.assertTrue(handle.closed)

    def test_read_after_release_raises(self):
        handle = pool.allocate(8)
        handle.release()
        with self.assertRaises(pool.HandleClosed):
            handle.read()

    def test_release_removes_from_live(self):
        handle = pool.allocate(8)
        handle.release()
        self.assertNotIn(handle.id, pool.live_ids())

    def test_release_twice_raises(self):
        handle = pool.allocate(8)
        handle.release()
        with self.assertRaises(pool.HandleClosed):
            handle.release()

    def test_write_after_release_raises(self):
        handle = pool.allocate(8)
        handle.release()
        with self.assertRaises(pool.HandleClosed):
            handle.write(b"x")


class PoolAuditTest(unittest.TestCase):
    def test_audit_checksums_live_buffers(self):
        a = pool.allocate(64)
        b = pool.allocate(200)
        self.addCleanup(a.release)
        self.addCleanup(b.release)
        a.write(b"alpha")
        report = pool.audit()
        self.assertEqual(report[a.id], (64, zlib.crc32(b"alpha" + b"\x00" * 59)))
        self.assertEqual(report[b.id], (256, zlib.crc32(b"\x00" * 256)))

    def test_live_ids_sorted(self):
        handles = [pool.allocate(8) for _ in range(3)]
        for handle in handles:
            self.addCleanup(handle.release)
        ids = pool.live_ids()
        self.assertEqual(ids, sorted(ids))

    def test_total_reserved_shrinks_on_release(self):
        handle = pool.allocate(4000)
        before = pool.total_reserved()
        handle.release()
        self.assertEqual(before - pool.total_reserved(), 4096)


class ReadWriteTest(unittest.TestCase):
    def setUp(self):
        self.handle = pool.allocate(32)
        self.addCleanup(self.handle.release)

    def test_read_empty(self):
        self.assertEqual(self.handle.read(), b"")

    def test_write_then_read(self):
        self.handle.write(b"payload")
        self.assertEqual(self.handle.read(), b"payload")

    def test_overwrite_shorter(self):
        self.handle.write(b"long payload")
        self.handle.write(b"short")
        self.assertEqual(self.handle.read(), b"short")

    def test_write_full_size(self):
        self.handle.write(b"z" * 64)
        self.assertEqual(len(self.handle.read()), 64)

    def test_write_too_large(self):
        with self.assertRaises(ValueError):
            self.handle.write(b"z" * 65)

    def test_binary_data(self):
        self.handle.write(bytes(range(16)))
        self.assertEqual(self.handle.read(), bytes(range(16)))


class ReleaseTest(unittest.TestCase):
    def test_release_returns_none(self):
        self.assertIsNone(pool.allocate(8).release())

    def test_release_clears_address(self):
        handle = pool.allocate(8)
        handle.release()
        self.assertEqual(handle.address, 0)

    def test_release_only_affects_own_handle(self):
        keep, drop = pool.allocate(8), pool.allocate(8)
        self.addCleanup(keep.release)
        drop.release()
        self.assertIn(keep.id, pool.live_ids())

    def test_reserved_back_to_baseline(self):
        before = pool.total_reserved()
        handles = [pool.allocate(100) for _ in range(4)]
        for handle in handles:
            handle.release()
        self.assertEqual(pool.total_reserved(), before)
