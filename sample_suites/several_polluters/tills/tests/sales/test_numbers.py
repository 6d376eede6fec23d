import unittest

from tills import numbers


class DefaultLocaleTest(unittest.TestCase):
    def test_default_is_en_us(self):
        self.assertEqual(numbers.default_locale(), "en_US")

    def test_set_default_locale_german(self):
        # What `tills --locale de_DE` does for the whole run.
        numbers.set_default_locale("de_DE")
        self.assertEqual(numbers.conventions().decimal, ",")

    def test_set_unknown_locale_rejected(self):
        with self.assertRaises(KeyError):
            numbers.set_default_locale("xx_XX")


class FormatNumberTest(unittest.TestCase):
    def test_us_grouping(self):
        self.assertEqual(numbers.format_number("1234567.89", "en_US"), "1,234,567.89")

    def test_german(self):
        self.assertEqual(numbers.format_number("1234567.89", "de_DE"), "1.234.567,89")

    def test_swiss(self):
        self.assertEqual(numbers.format_number("1234.50", "de_CH"), "1\u2019234.50")

    def test_french_narrow_space(self):
        self.assertEqual(numbers.format_number("1234.50", "fr_FR"), "1\u202f234,50")

    def test_negative(self):
        self.assertEqual(numbers.format_number("-1234.50", "en_GB"), "-1,234.50")

    def test_no_fraction(self):
        self.assertEqual(numbers.format_number("1234", "en_US"), "1,234")

    def test_small_number(self):
        self.assertEqual(numbers.format_number("0.05", "de_DE"), "0,05")


class GroupDigitsTest(unittest.TestCase):
    def test_three_digits(self):
        self.assertEqual(numbers.group_digits("123", ","), "123")

    def test_four_digits(self):
        self.assertEqual(numbers.group_digits("1234", ","), "1,234")

    def test_seven_digits(self):
        self.assertEqual(numbers.group_digits("1234567", "."), "1.234.567")

    def test_six_digits(self):
        self.assertEqual(numbers.group_digits("123456", " "), "123 456")

    def test_single_digit(self):
        self.assertEqual(numbers.group_digits("7", ","), "7")

    def test_symbol_position(self):
        self.assertTrue(numbers.conventions("de_DE").symbol_after)
