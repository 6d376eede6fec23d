import unittest

from stockdb import units


class CanonicalUnitTest(unittest.TestCase):
    def test_plain(self):
        self.assertEqual(units.canonical_unit("box"), "box")

    def test_plural_alias(self):
        self.assertEqual(units.canonical_unit("Boxes"), "box")

    def test_abbreviation(self):
        self.assertEqual(units.canonical_unit("dz"), "dozen")

    def test_empty_means_each(self):
        self.assertEqual(units.canonical_unit(""), "each")

    def test_unknown(self):
        with self.assertRaises(units.UnitError):
            units.canonical_unit("crate")


class ToEachesTest(unittest.TestCase):
    def test_bare_number(self):
        self.assertEqual(units.to_eaches("7"), 7)

    def test_dozen(self):
        self.assertEqual(units.to_eaches("2 dozen"), 24)

    def test_no_space(self):
        self.assertEqual(units.to_eaches("3box"), 150)

    def test_pallet(self):
        self.assertEqual(units.to_eaches("1 pallet"), 2000)

    def test_uppercase(self):
        self.assertEqual(units.to_eaches("4 PCS"), 4)

    def test_garbage(self):
        with self.assertRaises(units.UnitError):
            units.to_eaches("a few")

    def test_negative_not_parsed(self):
        with self.assertRaises(units.UnitError):
            units.to_eaches("-2 box")


class DescribeTest(unittest.TestCase):
    def test_split_packs(self):
        self.assertEqual(units.split_packs(130, "box"), (2, 30))

    def test_exact_packs(self):
        self.assertEqual(units.describe(100), "2 box")

    def test_with_loose(self):
        self.assertEqual(units.describe(125), "2 box + 25 each")

    def test_only_loose(self):
        self.assertEqual(units.describe(7), "7 each")

    def test_zero(self):
        self.assertEqual(units.describe(0), "0 each")

    def test_dozen_unit(self):
        self.assertEqual(units.describe(30, "dozen"), "2 dozen + 6 each")
