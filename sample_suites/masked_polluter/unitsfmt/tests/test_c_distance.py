import unittest

from unitsfmt.distance import MILES_PER_KM


class ConversionTest(unittest.TestCase):
    def test_a_mile_in_km(self):
        self.assertAlmostEqual(1 / MILES_PER_KM, 1.609, places=3)

    def test_factor_is_positive(self):
        self.assertGreater(MILES_PER_KM, 0)

    def test_rounding_of_the_factor(self):
        self.assertEqual(round(MILES_PER_KM, 2), 0.62)


class NamesTest(unittest.TestCase):
    def test_units_are_lower_case(self):
        self.assertEqual("KM".lower(), "km")

    def test_unit_names_are_short(self):
        self.assertTrue(all(len(u) == 2 for u in ("km", "mi")))
