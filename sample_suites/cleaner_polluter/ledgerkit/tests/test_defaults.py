import unittest

from ledgerkit import defaults


class DefaultsTest(unittest.TestCase):
    def test_factory_currency(self):
        self.assertEqual(defaults.FACTORY["currency"], "USD")

    def test_factory_places(self):
        self.assertEqual(defaults.FACTORY["places"], 2)

    def test_get_unknown_key(self):
        with self.assertRaises(KeyError):
            defaults.get("colour")


class ResetTest(unittest.TestCase):
    def test_reset_restores_factory_defaults(self):
        # What `ledgerkit --reset` does. Run after a test that changed a default, it undoes
        # that change too: a cleaner (iPFlakies' term) of every polluter of DEFAULTS.
        defaults.set_default("separator", "'")
        defaults.reset()
        self.assertEqual(defaults.DEFAULTS, defaults.FACTORY)

    def test_reset_keeps_the_dict(self):
        before = defaults.DEFAULTS
        defaults.reset()
        self.assertIs(defaults.DEFAULTS, before)
