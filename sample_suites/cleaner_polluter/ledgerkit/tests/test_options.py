import unittest

from ledgerkit import defaults


class SetOptionTest(unittest.TestCase):
    def test_rejects_unknown_key(self):
        with self.assertRaises(KeyError):
            defaults.set_default("colour", "red")

    def test_rejects_wrong_type(self):
        with self.assertRaises(TypeError):
            defaults.set_default("places", "two")

    def test_set_default_currency(self):
        # What `ledgerkit --currency EUR` does; never undone: the polluter.
        defaults.set_default("currency", "EUR")
        self.assertEqual(defaults.get("currency"), "EUR")

    def test_message_names_the_key(self):
        with self.assertRaises(KeyError) as caught:
            defaults.set_default("font", "serif")
        self.assertIn("font", str(caught.exception))
