import unittest

from tabular import dialect


class ResolveTest(unittest.TestCase):
    def test_explicit_comma(self):
        self.assertEqual(dialect.resolve(","), ",")

    def test_explicit_semicolon(self):
        self.assertEqual(dialect.resolve(";"), ";")

    def test_explicit_tab(self):
        self.assertEqual(dialect.resolve("\t"), "\t")

    def test_explicit_pipe(self):
        self.assertEqual(dialect.resolve("|"), "|")

    def test_none_is_the_process_default(self):
        self.assertEqual(dialect.resolve(None), dialect.default_delimiter())

    def test_rejects_colon(self):
        with self.assertRaises(ValueError):
            dialect.resolve(":")

    def test_rejects_two_characters(self):
        with self.assertRaises(ValueError):
            dialect.resolve(",,")

    def test_rejects_empty(self):
        with self.assertRaises(ValueError):
            dialect.resolve("")


class SetDefaultTest(unittest.TestCase):
    def setUp(self):
        before = dialect.default_delimiter()
        self.addCleanup(dialect.set_default_delimiter, before)

    def test_set_pipe(self):
        dialect.set_default_delimiter("|")
        self.assertEqual(dialect.default_delimiter(), "|")

    def test_set_tab(self):
        dialect.set_default_delimiter("\t")
        self.assertEqual(dialect.resolve(None), "\t")

    def test_rejected_value_keeps_the_default(self):
        before = dialect.default_delimiter()
        with self.assertRaises(ValueError):
            dialect.set_default_delimiter("#")
        self.assertEqual(dialect.default_delimiter(), before)

    def test_explicit_wins_over_default(self):
        dialect.set_default_delimiter("|")
        self.assertEqual(dialect.resolve(";"), ";")


class ConstantsTest(unittest.TestCase):
    def test_quotechar(self):
        self.assertEqual(dialect.quotechar(), '"')

    def test_lineterminator(self):
        self.assertEqual(dialect.lineterminator(), "\n")

    def test_allowed_delimiters(self):
        self.assertEqual(set(dialect.ALLOWED_DELIMITERS), {",", ";", "\t", "|"})
