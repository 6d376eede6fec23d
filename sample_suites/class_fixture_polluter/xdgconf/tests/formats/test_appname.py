import unittest

from xdgconf import appname


class NormaliseTest(unittest.TestCase):
    def test_spaces_become_dashes(self):
        self.assertEqual(appname.normalise("My Editor"), "my-editor")

    def test_underscores_become_dashes(self):
        self.assertEqual(appname.normalise("mail_client"), "mail-client")

    def test_runs_collapse(self):
        self.assertEqual(appname.normalise("a  -  b"), "a-b")

    def test_outer_dashes_stripped(self):
        self.assertEqual(appname.normalise(" -tool- "), "tool")

    def test_dots_kept(self):
        self.assertEqual(appname.normalise("Tool.App"), "tool.app")


class ValidateTest(unittest.TestCase):
    def test_plain_name_ok(self):
        self.assertEqual(appname.validate("editor"), "editor")

    def test_dotdot_rejected(self):
        with self.assertRaises(ValueError):
            appname.validate("..")

    def test_slash_rejected(self):
        with self.assertRaises(ValueError):
            appname.validate("a/b")

    def test_upper_case_rejected(self):
        with self.assertRaises(ValueError):
            appname.validate("Editor")


class ReverseDomainTest(unittest.TestCase):
    def test_last_label(self):
        self.assertEqual(appname.reverse_domain("org.example.Editor"), "editor")

    def test_no_dots(self):
        self.assertEqual(appname.reverse_domain("Mail Client"), "mail-client")
