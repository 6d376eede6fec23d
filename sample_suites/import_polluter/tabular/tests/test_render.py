import unittest

from tabular import render


class WidthsTest(unittest.TestCase):
    def test_one_row(self):
        self.assertEqual(render.widths([["ab", "c"]]), [2, 1])

    def test_max_per_column(self):
        self.assertEqual(render.widths([["a", "bbb"], ["cc", "d"]]), [2, 3])

    def test_ragged(self):
        self.assertEqual(render.widths([["a"], ["b", "cc"]]), [1, 2])

    def test_numbers(self):
        self.assertEqual(render.widths([[100, 2.5]]), [3, 3])

    def test_empty(self):
        self.assertEqual(render.widths([]), [])


class IsNumberTest(unittest.TestCase):
    def test_int(self):
        self.assertTrue(render.is_number(3))

    def test_float(self):
        self.assertTrue(render.is_number(2.5))

    def test_numeric_text(self):
        self.assertTrue(render.is_number("-4.25"))

    def test_word(self):
        self.assertFalse(render.is_number("apples"))

    def test_bool_is_not_a_number(self):
        self.assertFalse(render.is_number(True))


class AlignTest(unittest.TestCase):
    def test_left(self):
        self.assertEqual(render.align("ab", 4, False), "ab  ")

    def test_right(self):
        self.assertEqual(render.align(7, 3, True), "  7")

    def test_exact(self):
        self.assertEqual(render.align("abc", 3, False), "abc")


class RenderTest(unittest.TestCase):
    def test_header_rule(self):
        text = render.render([["apples", 3]], header=["fruit", "qty"])
        self.assertEqual(text.splitlines()[1], "-------+----")

    def test_numbers_right_aligned(self):
        text = render.render([["a", 3], ["b", 12]])
        self.assertEqual(text.splitlines(), ["a |  3", "b | 12"])

    def test_header_left_aligned(self):
        text = render.render([[1]], header=["n"])
        self.assertEqual(text.splitlines()[0], "n")

    def test_empty(self):
        self.assertEqual(render.render([]), "")

    def test_only_header(self):
        self.assertEqual(render.render([], header=["a", "b"]).splitlines()[0], "a | b")
