import unittest

from tills import receipt


class ItemLineTest(unittest.TestCase):
    def test_default_width(self):
        self.assertEqual(len(receipt.item_line("Bread", "2.15")), 32)

    def test_long_name_truncated(self):
        line = receipt.item_line("A very long product name indeed", "10.00", width=20)
        self.assertEqual(line, "A very long pr 10.00")

    def test_amount_right_aligned(self):
        self.assertTrue(receipt.item_line("Milk", "0.90", width=16).endswith(" 0.90"))

    def test_too_narrow(self):
        with self.assertRaises(ValueError):
            receipt.item_line("Milk", "0.90", width=5)


class RuleTest(unittest.TestCase):
    def test_default_rule(self):
        self.assertEqual(receipt.rule(), "-" * 32)

    def test_zero_width(self):
        self.assertEqual(receipt.rule(0), "")
