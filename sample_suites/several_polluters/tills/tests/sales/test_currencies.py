import unittest

from tills import currencies


class CurrencyLookupTest(unittest.TestCase):
    def test_usd(self):
        self.assertEqual(currencies.lookup("USD").symbol, "$")

    def test_lower_case_code(self):
        self.assertEqual(currencies.lookup("eur").code, "EUR")

    def test_yen_has_no_minor_units(self):
        self.assertEqual(currencies.lookup("JPY").places, 0)

    def test_dinar_has_three(self):
        self.assertEqual(currencies.lookup("KWD").places, 3)

    def test_unknown(self):
        with self.assertRaises(KeyError):
            currencies.lookup("XYZ")

    def test_known_codes_sorted(self):
        codes = currencies.known_codes()
        self.assertEqual(codes, sorted(codes))


class CurrencyRegistryTest(unittest.TestCase):
    def test_register_new_currency(self):
        currencies.register("CHF", "Fr.")
        self.assertEqual(currencies.lookup("CHF").symbol, "Fr.")

    def test_register_replaces_symbol(self):
        # What a shop's `[currency] USD = US$` setting does.
        currencies.register("USD", "US$")
        self.assertEqual(currencies.lookup("USD").symbol, "US$")

    def test_register_rejects_long_code(self):
        with self.assertRaises(ValueError):
            currencies.register("DOLLAR", "$")

    def test_register_rejects_digits(self):
        with self.assertRaises(ValueError):
            currencies.register("U5D", "$")

    def test_register_rejects_places(self):
        with self.assertRaises(ValueError):
            currencies.register("ABC", "a", places=7)

    def test_register_upper_cases(self):
        currencies.register("sek", "kr")
        self.assertIn("SEK", currencies.known_codes())
