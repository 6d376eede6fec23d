import unittest

from unitsfmt.distance import describe


class ReportTest(unittest.TestCase):
    def test_distance_line(self):
        # The victim: reads the process-wide settings, expects the factory ones.
        got = describe(12.5)
        if got != "12.5 km":
            # the varying part on a later line: every polluter fails it the same recorded way
            self.fail(f"distance is not in the default format\ngot: {got!r}")
