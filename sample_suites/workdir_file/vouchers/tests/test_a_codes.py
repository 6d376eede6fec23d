import unittest

from vouchers.issuer import code_for


class CodeTest(unittest.TestCase):
    def test_first_code(self):
        self.assertEqual(code_for(0), "AAAAA")

    def test_second_code(self):
        self.assertEqual(code_for(1), "AAAAB")

    def test_carry(self):
        self.assertEqual(code_for(26), "AAABA")

    def test_last_code(self):
        self.assertEqual(code_for(26 ** 5 - 1), "ZZZZZ")

    def test_codes_are_distinct(self):
        self.assertEqual(len({code_for(n) for n in range(1000)}), 1000)
