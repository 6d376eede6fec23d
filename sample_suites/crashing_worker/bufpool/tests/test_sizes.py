import unittest

from bufpool import sizes


class SizeClassTest(unittest.TestCase):
    def test_minimum(self):
        self.assertEqual(sizes.size_class(1), 64)

    def test_exact_power(self):
        self.assertEqual(sizes.size_class(256), 256)

    def test_just_over_power(self):
        self.assertEqual(sizes.size_class(257), 512)

    def test_maximum(self):
        self.assertEqual(sizes.size_class(sizes.MAX_SIZE), sizes.MAX_SIZE)

    def test_over_maximum(self):
        with self.assertRaises(ValueError):
            sizes.size_class(sizes.MAX_SIZE + 1)

    def test_zero(self):
        with self.assertRaises(ValueError):
            sizes.size_class(0)

    def test_negative(self):
        with self.assertRaises(ValueError):
            sizes.size_class(-5)


class WasteTest(unittest.TestCase):
    def test_no_waste(self):
        self.assertEqual(sizes.waste(1024), 0)

    def test_small_request(self):
        self.assertEqual(sizes.waste(10), 54)

    def test_worst_case_just_over(self):
        self.assertEqual(sizes.waste(65), 63)


class HumanSizeTest(unittest.TestCase):
    def test_bytes(self):
        self.assertEqual(sizes.human(512), "512 B")

    def test_kib(self):
        self.assertEqual(sizes.human(1536), "1.5 KiB")

    def test_mib(self):
        self.assertEqual(sizes.human(3 * 1024 * 1024), "3.0 MiB")

    def test_exact_kib(self):
        self.assertEqual(sizes.human(1024), "1.0 KiB")

    def test_large_stays_mib(self):
        self.assertEqual(sizes.human(5 * 1024 ** 3), "5120.0 MiB")
