import unittest

from textpipe import pipeline, settings


class ModeSwitchTest(unittest.TestCase):
    def test_enable_extended_mode(self):
        # What `textpipe --extended` does at start-up.
        settings.set_mode("extended")
        self.assertTrue(settings.is_extended())
        self.assertEqual(pipeline.default_pipeline().mode, "extended")

    def test_set_mode_returns_previous(self):
        previous = settings.set_mode("raw")
        self.addCleanup(settings.set_mode, previous)
        self.assertEqual(settings.set_mode("raw"), "raw")

    def test_set_mode_rejects_unknown(self):
        with self.assertRaises(ValueError):
            settings.set_mode("loud")

    def test_rejected_mode_leaves_state(self):
        before = settings.current_mode()
        with self.assertRaises(ValueError):
            settings.set_mode("")
        self.assertEqual(settings.current_mode(), before)

    def test_raw_mode_is_not_extended(self):
        previous = settings.set_mode("raw")
        self.addCleanup(settings.set_mode, previous)
        self.assertFalse(settings.is_extended())

    def test_modes_listed(self):
        self.assertEqual(settings.MODES, ("strict", "extended", "raw"))


class ModeErrorMessageTest(unittest.TestCase):
    def test_message_names_the_mode(self):
        with self.assertRaisesRegex(ValueError, "'shouty'"):
            settings.set_mode("shouty")

    def test_message_lists_valid_modes(self):
        with self.assertRaisesRegex(ValueError, "strict, extended, raw"):
            settings.set_mode("x")
