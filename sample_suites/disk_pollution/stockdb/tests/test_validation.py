import unittest

from stockdb.validation import ValidationError, check_sku, parse_cost, parse_quantity


class SkuTest(unittest.TestCase):
    def test_valid(self):
        self.assertEqual(check_sku("SKU-1042"), "SKU-1042")

    def test_six_digits(self):
        self.assertEqual(check_sku("SKU-123456"), "SKU-123456")

    def test_too_short(self):
        with self.assertRaises(ValidationError):
            check_sku("SKU-12")

    def test_lowercase_prefix(self):
        with self.assertRaises(ValidationError):
            check_sku("sku-1234")

    def test_not_a_string(self):
        with self.assertRaises(ValidationError):
            check_sku(1234)

    def test_trailing_space(self):
        with self.assertRaises(ValidationError):
            check_sku("SKU-1234 ")


class QuantityTest(unittest.TestCase):
    def test_int(self):
        self.assertEqual(parse_quantity(5), 5)

    def test_string(self):
        self.assertEqual(parse_quantity(" 12 "), 12)

    def test_zero(self):
        self.assertEqual(parse_quantity("0"), 0)

    def test_negative(self):
        with self.assertRaises(ValidationError):
            parse_quantity(-1)

    def test_negative_string(self):
        with self.assertRaises(ValidationError):
            parse_quantity("-3")

    def test_float_string(self):
        with self.assertRaises(ValidationError):
            parse_quantity("1.5")

    def test_float(self):
        with self.assertRaises(ValidationError):
            parse_quantity(2.0)

    def test_bool(self):
        with self.assertRaises(ValidationError):
            parse_quantity(True)


class CostTest(unittest.TestCase):
    def test_dollars_and_cents(self):
        self.assertEqual(parse_cost("12.34"), 1234)

    def test_dollar_sign(self):
        self.assertEqual(parse_cost("$0.99"), 99)

    def test_one_decimal(self):
        self.assertEqual(parse_cost("2.5"), 250)

    def test_whole(self):
        self.assertEqual(parse_cost("7"), 700)

    def test_three_decimals(self):
        with self.assertRaises(ValidationError):
            parse_cost("1.234")

    def test_garbage(self):
        with self.assertRaises(ValidationError):
            parse_cost("ten")
