import unittest

from gateway import canary, responses


class CanaryDefaultsTest(unittest.TestCase):
    def test_off_by_default(self):
        self.assertEqual(canary.fraction(), 0.0)


class CanaryTest(unittest.TestCase):
    def test_enable_rejects_a_fraction_above_one(self):
        with self.assertRaises(ValueError):
            canary.enable(1.5)

    def test_enable_rejects_a_negative_fraction(self):
        with self.assertRaises(ValueError):
            canary.enable(-0.1)

    def test_full_canary_marks_every_response(self):
        self.addCleanup(canary.enable, canary.fraction())
        canary.enable(1.0)
        self.assertEqual(responses.text("hi").headers["x-canary"], "1")

    def test_stable_route_adds_nothing(self):
        self.addCleanup(canary.enable, canary.fraction())
        canary.enable(0.0)
        headers = {}
        self.assertEqual(canary.route(headers), "stable")
        self.assertEqual(headers, {})

    def test_canary_takes_a_tenth(self):
        # the deployment's setting: a tenth of the traffic to the canary (never switched back off)
        canary.enable(0.1)
        picked = sum(canary.route({}) == "canary" for _ in range(2000))
        self.assertTrue(150 < picked < 250, picked)


class CanaryHeaderTest(unittest.TestCase):
    def test_header_value_is_one(self):
        headers = {}
        self.addCleanup(canary.enable, canary.fraction())
        canary.enable(1.0)
        canary.route(headers)
        self.assertEqual(headers, {"x-canary": "1"})

    def test_zero_fraction_never_routes_to_canary(self):
        self.addCleanup(canary.enable, canary.fraction())
        canary.enable(0.0)
        self.assertTrue(all(canary.route({}) == "stable" for _ in range(200)))
