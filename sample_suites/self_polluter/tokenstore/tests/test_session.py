import unittest

from tokenstore import tokens
from tokenstore.session import Session


class SessionTest(unittest.TestCase):
    def test_new_session_has_no_tokens(self):
        self.assertEqual(Session("ada").tokens, [])

    def test_login_issues_token(self):
        # The polluter: the token it issues is never revoked, and the process-wide
        # numbering has moved on for every later test.
        token = Session("ada").login("write")
        self.assertEqual(token.user, "ada")
        self.assertEqual(token.scope, "write")

    def test_logout_revokes(self):
        before = tokens.issued_count()
        session = Session("bob")
        session.login()
        session.login("admin")
        self.assertEqual(session.logout(), 2)
        self.assertEqual(tokens.issued_count(), before)

    def test_logout_without_login(self):
        self.assertEqual(Session("cy").logout(), 0)

    def test_user_kept(self):
        self.assertEqual(Session("dee").user, "dee")
