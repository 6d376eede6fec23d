import contextlib
import os
import time
import unittest

from vouchers.issuer import STATE, Issuer


def welcome(name, code):
    return "Welcome, %s! Your first voucher: %s" % (name, code)


class WelcomeTest(unittest.TestCase):
    def test_a_greeting_names_the_customer(self):
        self.assertIn("Ada", welcome("Ada", "AAAAA"))

    def test_b_greeting_shows_the_code(self):
        self.assertTrue(welcome("Ada", "AAAAZ").endswith("AAAAZ"))

    def test_first_voucher_is_aaaaa(self):
        # The victim: a fresh state file starts at AAAAA, unless one was left in the working directory.
        issuer = Issuer()
        self.addCleanup(self._remove_state)
        time.sleep(0.1)  # stands for rendering the welcome mail
        self.assertEqual(issuer.issue(), "AAAAA")

    @staticmethod
    def _remove_state():
        with contextlib.suppress(FileNotFoundError):
            os.remove(STATE)
