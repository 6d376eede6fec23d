import unittest

from reportgen import config


class ConfigDefaultsTest(unittest.TestCase):
    def test_default_locale(self):
        self.assertEqual(config.get("locale"), "en_US")

    def test_default_page_width(self):
        self.assertEqual(config.get("page_width"), 80)

    def test_get_unknown_key(self):
        with self.assertRaises(KeyError):
            config.get("colour")

    def test_set_default_currency(self):
        # What `reportgen --currency EUR` does.
        config.set_default("currency", "EUR")
        self.assertEqual(config.get("currency"), "EUR")

    def test_set_default_rejects_unknown_key(self):
        with self.assertRaises(KeyError):
            config.set_default("colour", "blue")

    def test_set_default_rejects_wrong_type(self):
        with self.assertRaises(TypeError):
            config.set_default("page_width", "wide")


class SettingsTest(unittest.TestCase):
    def test_override_wins(self):
        self.assertEqual(config.Settings(page_width=40)["page_width"], 40)

    def test_falls_back_to_defaults(self):
        self.assertEqual(config.Settings()["date_format"], "%Y-%m-%d")

    def test_unknown_override_rejected(self):
        with self.assertRaises(KeyError):
            config.Settings(colour="blue")

    def test_with_overrides_merges(self):
        settings = config.Settings(page_width=40).with_overrides(decimal_places=0)
        self.assertEqual((settings["page_width"], settings["decimal_places"]), (40, 0))

    def test_with_overrides_does_not_mutate_original(self):
        base = config.Settings(page_width=40)
        base.with_overrides(page_width=60)
        self.assertEqual(base["page_width"], 40)

    def test_as_dict_has_every_key(self):
        self.assertEqual(set(config.Settings().as_dict()), set(config.DEFAULTS))
