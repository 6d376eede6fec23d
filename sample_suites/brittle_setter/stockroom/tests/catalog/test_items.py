import unittest

from stockroom import items


class ParseSkuTest(unittest.TestCase):
    def test_upper_cases(self):
        self.assertEqual(items.parse_sku("abc-1234"), "ABC-1234")

    def test_strips_blanks(self):
        self.assertEqual(items.parse_sku("  XYZ-0001 "), "XYZ-0001")

    def test_rejects_short(self):
        with self.assertRaises(ValueError):
            items.parse_sku("AB-123")

    def test_rejects_missing_dash(self):
        with self.assertRaises(ValueError):
            items.parse_sku("ABC12345")

    def test_rejects_letters_in_number(self):
        with self.assertRaises(ValueError):
            items.parse_sku("ABC-12X4")


class MakeItemTest(unittest.TestCase):
    def test_fields(self):
        item = items.make("abc-1234", " Flour ", 25, "kg")
        self.assertEqual(item, items.Item("ABC-1234", "Flour", 25, "kg"))

    def test_zero_stock_is_allowed(self):
        self.assertEqual(items.make("ABC-1234", "Salt", 0, "g").quantity, 0)

    def test_negative_stock_rejected(self):
        with self.assertRaises(ValueError):
            items.make("ABC-1234", "Salt", -1, "g")

    def test_blank_name_rejected(self):
        with self.assertRaises(ValueError):
            items.make("ABC-1234", "   ", 1, "g")


class RestockTest(unittest.TestCase):
    def setUp(self):
        self.item = items.make("OIL-0001", "Olive oil", 3, "l")

    def test_adds(self):
        self.assertEqual(items.restock(self.item, 2).quantity, 5)

    def test_keeps_unit(self):
        self.assertEqual(items.restock(self.item, 2).unit, "l")

    def test_rejects_zero(self):
        with self.assertRaises(ValueError):
            items.restock(self.item, 0)

    def test_original_unchanged(self):
        items.restock(self.item, 4)
        self.assertEqual(self.item.quantity, 3)


class TakeTest(unittest.TestCase):
    def setUp(self):
        self.item = items.make("EGG-0012", "Eggs", 12, "pcs")

    def test_subtracts(self):
        self.assertEqual(items.take(self.item, 5).quantity, 7)

    def test_all_of_it(self):
        self.assertEqual(items.take(self.item, 12).quantity, 0)

    def test_more_than_left(self):
        with self.assertRaises(ValueError):
            items.take(self.item, 13)

    def test_message_names_the_sku(self):
        with self.assertRaises(ValueError) as caught:
            items.take(self.item, 20)
        self.assertIn("EGG-0012", str(caught.exception))
