import unittest

from unitsfmt import settings
from unitsfmt.distance import describe


class LocaleTest(unittest.TestCase):
    def test_french_decimal_comma(self):
        # What `unitsfmt --locale fr` does; never undone: the polluter in plain sight.
        settings.set_setting("locale", "fr")
        self.assertEqual(describe(2.5), "2,5 km")

    def test_factory_locale_is_english(self):
        self.assertEqual(settings.FACTORY["locale"], "en")
