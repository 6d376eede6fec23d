import unittest

from tokenstore import tokens


class TokenTextTest(unittest.TestCase):
    def test_text_format(self):
        self.assertEqual(tokens.Token(7, "ada", "read").text, "tok-000007-ada-read")

    def test_text_pads_number(self):
        self.assertTrue(tokens.Token(42, "bo", "admin").text.startswith("tok-000042"))

    def test_equal_tokens(self):
        self.assertEqual(tokens.Token(1, "a", "read"), tokens.Token(1, "a", "read"))


class LookupTest(unittest.TestCase):
    def test_unknown_number(self):
        self.assertIsNone(tokens.lookup(-1))

    def test_revoke_unknown(self):
        self.assertFalse(tokens.revoke(-5))

    def test_issue_needs_user(self):
        with self.assertRaises(ValueError):
            tokens.issue("")


class FirstTokenTest(unittest.TestCase):
    def test_first_token_is_number_one(self):
        # The victim. It expects to issue the process's first token, and it issues one itself
        # (never revoked): run twice in one process, its second run fails like a polluted one.
        token = tokens.issue("root", "admin")
        self.assertEqual(token.number, 1)
        self.assertEqual(tokens.lookup(1), token)
