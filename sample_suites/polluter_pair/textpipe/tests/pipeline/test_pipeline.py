import unittest

from textpipe import normalize
from textpipe.pipeline import Pipeline


def exclaim(text):
    return text + "!"


def reverse(text):
    return text[::-1]


class PipelineConstructionTest(unittest.TestCase):
    def test_default_mode_strict(self):
        self.assertEqual(Pipeline().mode, "strict")

    def test_rejects_unknown_mode(self):
        with self.assertRaises(ValueError):
            Pipeline(mode="fast")

    def test_stages_copied_to_tuple(self):
        stages = [normalize.lowercase]
        pipe = Pipeline(stages=stages)
        stages.append(reverse)
        self.assertEqual(pipe.stages, (normalize.lowercase,))

    def test_strict_steps_are_builtins(self):
        self.assertEqual(Pipeline().steps(), list(normalize.BUILTIN_STAGES))

    def test_raw_has_no_steps(self):
        self.assertEqual(Pipeline(mode="raw").steps(), [])


class PipelineRunTest(unittest.TestCase):
    def test_strict_ignores_plugins(self):
        pipe = Pipeline(mode="strict", plugins=[exclaim])
        self.assertEqual(pipe.run("Hi"), "hi")

    def test_extended_applies_plugins_after_builtins(self):
        pipe = Pipeline(mode="extended", plugins=[exclaim])
        self.assertEqual(pipe.run("  Hi  There "), "hi there!")

    def test_plugins_applied_in_order(self):
        pipe = Pipeline(mode="extended", stages=(), plugins=[exclaim, reverse])
        self.assertEqual(pipe.run("ab"), "!ba")

    def test_raw_returns_input(self):
        self.assertEqual(Pipeline(mode="raw").run("  A  "), "  A  ")

    def test_run_many(self):
        self.assertEqual(Pipeline().run_many(["A", " b "]), ["a", "b"])

    def test_custom_stages(self):
        self.assertEqual(Pipeline(stages=[reverse]).run("abc"), "cba")

    def test_empty_string(self):
        self.assertEqual(Pipeline().run(""), "")


class DescribeTest(unittest.TestCase):
    def test_describe_strict(self):
        self.assertEqual(
            Pipeline().describe(),
            "strict: collapse_whitespace -> fix_quotes -> strip_accents -> lowercase",
        )

    def test_describe_extended_lists_plugins(self):
        pipe = Pipeline(mode="extended", stages=(), plugins=[exclaim])
        self.assertEqual(pipe.describe(), "extended: exclaim")

    def test_describe_raw(self):
        self.assertEqual(Pipeline(mode="raw").describe(), "raw: ")
