"""The public API as the README shows it: dumps/loads with the shop-standard defaults."""

import unittest

from tabular import reader, writer


class DumpsDefaultsTest(unittest.TestCase):
    def test_dumps_uses_comma_delimiter(self):
        text = writer.dumps([["apples", 3], ["pears", 12]], header=["fruit", "qty"])
        self.assertEqual(text, "fruit,qty\napples,3\npears,12\n", "dumps() did not write the default CSV dialect")

    def test_dumps_writes_pipe_when_asked(self):
        self.assertEqual(writer.dumps([["a", "b"]], delimiter="|"), "a|b\n")

    def test_empty_table_is_empty_text(self):
        self.assertEqual(writer.dumps([], delimiter=","), "")


class LoadsApiTest(unittest.TestCase):
    def test_loads_with_explicit_comma(self):
        self.assertEqual(reader.loads("a,b\n1,2\n", delimiter=","), [["a", "b"], ["1", "2"]])

    def test_loads_dicts_keys_by_header(self):
        rows = reader.loads_dicts("fruit;qty\napples;3\n", delimiter=";")
        self.assertEqual(rows, [{"fruit": "apples", "qty": "3"}])

    def test_round_trip_explicit_tab(self):
        rows = [["x", "y z"], ["1", "2"]]
        self.assertEqual(reader.loads(writer.dumps(rows, delimiter="\t"), delimiter="\t"), rows)
