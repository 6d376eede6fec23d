import unittest

from tokenstore.session import parse_scope


class ParseScopeTest(unittest.TestCase):
    def test_single(self):
        self.assertEqual(parse_scope("read"), ("read",))

    def test_several(self):
        self.assertEqual(parse_scope("read, write"), ("read", "write"))

    def test_blank_parts_dropped(self):
        self.assertEqual(parse_scope("read,,admin,"), ("read", "admin"))

    def test_empty(self):
        self.assertEqual(parse_scope(""), ())

    def test_unknown_rejected(self):
        with self.assertRaises(ValueError):
            parse_scope("read,root")

    def test_whitespace_only(self):
        self.assertEqual(parse_scope("  ,  "), ())
