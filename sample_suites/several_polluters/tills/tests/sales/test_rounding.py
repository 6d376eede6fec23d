import unittest
from decimal import Decimal

from tills import rounding


class ExplicitModeTest(unittest.TestCase):
    def test_half_up(self):
        self.assertEqual(rounding.to_places_with(Decimal("2.345"), 2, "half-up"), Decimal("2.35"))

    def test_half_even(self):
        self.assertEqual(rounding.to_places_with(Decimal("2.345"), 2, "half-even"), Decimal("2.34"))

    def test_down(self):
        self.assertEqual(rounding.to_places_with(Decimal("2.349"), 2, "down"), Decimal("2.34"))

    def test_up(self):
        self.assertEqual(rounding.to_places_with(Decimal("2.341"), 2, "up"), Decimal("2.35"))

    def test_default_mode_is_half_even(self):
        self.assertEqual(rounding.current_mode(), "half-even")


class RoundingModeTest(unittest.TestCase):
    def test_unknown_mode_rejected(self):
        with self.assertRaises(KeyError):
            rounding.use_rounding("stochastic")

    def test_use_half_up_rounding(self):
        # What `tills --round half-up` does for the whole run.
        rounding.use_rounding("half-up")
        self.assertEqual(rounding.current_mode(), "half-up")


class ToPlacesTest(unittest.TestCase):
    def test_pads_to_places(self):
        self.assertEqual(str(rounding.to_places(Decimal("3"), 2)), "3.00")

    def test_zero_places(self):
        self.assertEqual(str(rounding.to_places(Decimal("12.2"), 0)), "12")

    def test_three_places(self):
        self.assertEqual(str(rounding.to_places(Decimal("1.2"), 3)), "1.200")

    def test_not_a_tie(self):
        self.assertEqual(rounding.to_places(Decimal("9.996"), 2), Decimal("10.00"))

    def test_accepts_strings(self):
        self.assertEqual(rounding.to_places("0.5", 1), Decimal("0.5"))
