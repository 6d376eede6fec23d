import unittest

from ledgerkit import summary


class TotalTest(unittest.TestCase):
    def test_sum(self):
        self.assertEqual(summary.total([100, 250, -50]), 300)

    def test_empty(self):
        self.assertEqual(summary.total([]), 0)

    def test_line_width(self):
        self.assertEqual(len(summary.total_line([100, 200], width=24)), 24)

    def test_line_ends_with_amount(self):
        self.assertTrue(summary.total_line([12345]).endswith("123.45"))
