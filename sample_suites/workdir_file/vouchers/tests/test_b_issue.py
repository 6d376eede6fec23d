import os
import tempfile
import unittest

from vouchers.issuer import Issuer


class IssueTest(unittest.TestCase):
    def test_issue_in_a_temporary_file(self):
        with tempfile.TemporaryDirectory() as d:
            issuer = Issuer(os.path.join(d, "state.json"))
            self.assertEqual([issuer.issue() for _ in range(3)], ["AAAAA", "AAAAB", "AAAAC"])

    def test_issue_next_code(self):
        # The polluter: issues from the default state file and leaves it behind.
        code = Issuer().issue()
        self.assertEqual(len(code), 5)

    def test_peek_does_not_issue(self):
        with tempfile.TemporaryDirectory() as d:
            issuer = Issuer(os.path.join(d, "state.json"))
            self.assertEqual(issuer.peek(), issuer.peek())
