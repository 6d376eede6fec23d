import time
import unittest

from unitsfmt import settings
from unitsfmt.distance import describe


class UnitsTest(unittest.TestCase):
    def test_imperial_units(self):
        # What `unitsfmt --units imperial` does; never undone: the masked polluter.  Slow (it
        # stands for a test that loads a conversion table), so it is the last of the quickest.
        time.sleep(0.3)
        settings.set_setting("units", "imperial")
        self.assertEqual(describe(10), "6.2 mi")

    def test_metric_after_reset(self):
        # Resets the units: run after the polluter above, it undoes it (the cleaner).
        settings.reset_units()
        self.assertEqual(settings.get("units"), "metric")

    def test_rejects_unknown_setting(self):
        with self.assertRaises(KeyError):
            settings.set_setting("colour", "red")
