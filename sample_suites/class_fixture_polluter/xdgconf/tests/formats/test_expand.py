import unittest

from xdgconf import expand

ENV = {"HOME": "/home/ada", "USER": "ada", "EMPTY": ""}


class ExpandVarsTest(unittest.TestCase):
    def test_dollar_name(self):
        self.assertEqual(expand.expand_vars("$USER", ENV), "ada")

    def test_braced_name(self):
        self.assertEqual(expand.expand_vars("${USER}-mail", ENV), "ada-mail")

    def test_unknown_left_alone(self):
        self.assertEqual(expand.expand_vars("$NOPE/x", ENV), "$NOPE/x")

    def test_default_used_when_unset(self):
        self.assertEqual(expand.expand_vars("${NOPE:-fallback}", ENV), "fallback")

    def test_default_ignored_when_set(self):
        self.assertEqual(expand.expand_vars("${USER:-fallback}", ENV), "ada")

    def test_empty_value_is_set(self):
        self.assertEqual(expand.expand_vars("[$EMPTY]", ENV), "[]")

    def test_several(self):
        self.assertEqual(expand.expand_vars("$HOME/$USER", ENV), "/home/ada/ada")


class ExpandUserTest(unittest.TestCase):
    def test_tilde_alone(self):
        self.assertEqual(expand.expand_user("~", ENV), "/home/ada")

    def test_tilde_slash(self):
        self.assertEqual(expand.expand_user("~/mail", ENV), "/home/ada/mail")

    def test_other_user_not_expanded(self):
        self.assertEqual(expand.expand_user("~bob/mail", ENV), "~bob/mail")

    def test_tilde_inside_left_alone(self):
        self.assertEqual(expand.expand_user("a/~/b", ENV), "a/~/b")

    def test_expand_does_both(self):
        self.assertEqual(expand.expand("~/$USER", ENV), "/home/ada/ada")
