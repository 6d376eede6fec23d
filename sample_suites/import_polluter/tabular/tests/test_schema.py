import datetime as dt
import unittest
from decimal import Decimal

from tabular import schema


class BoolTest(unittest.TestCase):
    def test_true_words(self):
        for word in ("true", "Yes", "1", "y"):
            self.assertIs(schema.to_bool(word), True)

    def test_false_words(self):
        for word in ("false", "NO", "0", "n"):
            self.assertIs(schema.to_bool(word), False)

    def test_padded(self):
        self.assertIs(schema.to_bool(" yes "), True)

    def test_other(self):
        with self.assertRaises(ValueError):
            schema.to_bool("maybe")


class DecimalTest(unittest.TestCase):
    def test_plain(self):
        self.assertEqual(schema.to_decimal("12.50"), Decimal("12.50"))

    def test_negative(self):
        self.assertEqual(schema.to_decimal("-3"), Decimal("-3"))

    def test_not_a_number(self):
        with self.assertRaises(ValueError):
            schema.to_decimal("twelve")


class DateTest(unittest.TestCase):
    def test_iso(self):
        self.assertEqual(schema.to_date("2024-02-29"), dt.date(2024, 2, 29))

    def test_bad(self):
        with self.assertRaises(ValueError):
            schema.to_date("29/02/2024")


class CoerceTest(unittest.TestCase):
    def test_types(self):
        row = schema.coerce({"n": "3", "ok": "yes", "p": "1.5"}, {"n": "int", "ok": "bool", "p": "decimal"})
        self.assertEqual(row, {"n": 3, "ok": True, "p": Decimal("1.5")})

    def test_default_is_text(self):
        self.assertEqual(schema.coerce({"a": "x"}, {}), {"a": "x"})

    def test_empty_is_none(self):
        self.assertEqual(schema.coerce({"n": ""}, {"n": "int"}), {"n": None})

    def test_unknown_type(self):
        with self.assertRaises(KeyError):
            schema.coerce({"a": "1"}, {"a": "complex"})

    def test_date_column(self):
        self.assertEqual(schema.coerce({"d": "2020-01-02"}, {"d": "date"}), {"d": dt.date(2020, 1, 2)})


class ToTextTest(unittest.TestCase):
    def test_none(self):
        self.assertEqual(schema.to_text(None), "")

    def test_bool(self):
        self.assertEqual(schema.to_text(False), "false")

    def test_date(self):
        self.assertEqual(schema.to_text(dt.date(2021, 5, 6)), "2021-05-06")

    def test_number(self):
        self.assertEqual(schema.to_text(Decimal("2.10")), "2.10")
