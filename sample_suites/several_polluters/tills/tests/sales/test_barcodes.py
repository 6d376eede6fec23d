import unittest

from tills import barcodes


class CheckDigitTest(unittest.TestCase):
    def test_known_code(self):
        self.assertEqual(barcodes.check_digit("400638133393"), "1")

    def test_another_known_code(self):
        self.assertEqual(barcodes.check_digit("501234567890"), "0")

    def test_zero_check_digit(self):
        self.assertEqual(barcodes.check_digit("000000000000"), "0")

    def test_short_input_rejected(self):
        with self.assertRaises(ValueError):
            barcodes.check_digit("12345")

    def test_letters_rejected(self):
        with self.assertRaises(ValueError):
            barcodes.check_digit("40063813339X")

    def test_thirteen_digits_rejected(self):
        with self.assertRaises(ValueError):
            barcodes.check_digit("4006381333931")


class IsValidTest(unittest.TestCase):
    def test_valid(self):
        self.assertTrue(barcodes.is_valid("4006381333931"))

    def test_wrong_check_digit(self):
        self.assertFalse(barcodes.is_valid("4006381333932"))

    def test_too_short(self):
        self.assertFalse(barcodes.is_valid("400638133393"))

    def test_not_digits(self):
        self.assertFalse(barcodes.is_valid("40063813339a1"))

    def test_empty(self):
        self.assertFalse(barcodes.is_valid(""))


class CountryPrefixTest(unittest.TestCase):
    def test_germany(self):
        self.assertEqual(barcodes.country_prefix("4006381333931"), "400")

    def test_uk(self):
        self.assertEqual(barcodes.country_prefix("5012345678900"), "501")

    def test_invalid_rejected(self):
        with self.assertRaises(ValueError):
            barcodes.country_prefix("4006381333932")
