import unittest

from xdgconf import ini


class ParseTest(unittest.TestCase):
    def test_one_section(self):
        self.assertEqual(ini.parse("[a]\nx = 1\n"), {"a": {"x": "1"}})

    def test_keys_lower_cased(self):
        self.assertEqual(ini.parse("[a]\nName = v"), {"a": {"name": "v"}})

    def test_comments_skipped(self):
        self.assertEqual(ini.parse("# c\n[a]\n; c\nx=1"), {"a": {"x": "1"}})

    def test_blank_lines_skipped(self):
        self.assertEqual(ini.parse("\n\n[a]\n\nx=1\n\n"), {"a": {"x": "1"}})

    def test_value_may_contain_equals(self):
        self.assertEqual(ini.parse("[a]\nx = b=c"), {"a": {"x": "b=c"}})

    def test_repeated_section_merges(self):
        self.assertEqual(ini.parse("[a]\nx=1\n[a]\ny=2"), {"a": {"x": "1", "y": "2"}})

    def test_key_outside_section(self):
        with self.assertRaises(ini.ParseError) as caught:
            ini.parse("x = 1")
        self.assertEqual(caught.exception.line_number, 1)

    def test_bad_header(self):
        with self.assertRaises(ini.ParseError):
            ini.parse("[a\nx=1")

    def test_missing_equals(self):
        with self.assertRaises(ini.ParseError) as caught:
            ini.parse("[a]\nx")
        self.assertEqual(caught.exception.line_number, 2)

    def test_empty_text(self):
        self.assertEqual(ini.parse(""), {})


class DumpTest(unittest.TestCase):
    def test_sorted_sections_and_keys(self):
        self.assertEqual(ini.dump({"b": {"y": "2", "x": "1"}, "a": {}}), "[a]\n\n[b]\nx = 1\ny = 2\n")

    def test_empty(self):
        self.assertEqual(ini.dump({}), "")

    def test_round_trip(self):
        data = {"mail": {"server": "imap.example.org", "port": "993"}}
        self.assertEqual(ini.parse(ini.dump(data)), data)


class GetBoolTest(unittest.TestCase):
    def test_yes(self):
        self.assertTrue(ini.get_bool({"a": {"x": "yes"}}, "a", "x"))

    def test_off(self):
        self.assertFalse(ini.get_bool({"a": {"x": "off"}}, "a", "x", default=True))

    def test_default_when_missing(self):
        self.assertTrue(ini.get_bool({}, "a", "x", default=True))

    def test_garbage_rejected(self):
        with self.assertRaises(ValueError):
            ini.get_bool({"a": {"x": "maybe"}}, "a", "x")
