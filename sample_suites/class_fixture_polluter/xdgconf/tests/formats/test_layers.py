import unittest

from xdgconf import layers

SYSTEM = {"mail": {"server": "mail.corp", "port": "993"}}
USER = {"mail": {"port": "1993"}, "ui": {"theme": "dark"}}


class MergeTest(unittest.TestCase):
    def test_later_layer_wins(self):
        self.assertEqual(layers.merge(SYSTEM, USER)["mail"]["port"], "1993")

    def test_earlier_keys_kept(self):
        self.assertEqual(layers.merge(SYSTEM, USER)["mail"]["server"], "mail.corp")

    def test_new_sections_added(self):
        self.assertEqual(layers.merge(SYSTEM, USER)["ui"], {"theme": "dark"})

    def test_inputs_not_mutated(self):
        layers.merge(SYSTEM, USER)
        self.assertEqual(SYSTEM, {"mail": {"server": "mail.corp", "port": "993"}})

    def test_no_layers(self):
        self.assertEqual(layers.merge(), {})


class OriginTest(unittest.TestCase):
    def test_user_origin(self):
        self.assertEqual(layers.origin([SYSTEM, USER], "mail", "port"), 1)

    def test_system_origin(self):
        self.assertEqual(layers.origin([SYSTEM, USER], "mail", "server"), 0)

    def test_missing(self):
        self.assertIsNone(layers.origin([SYSTEM, USER], "mail", "user"))


class DropEmptyTest(unittest.TestCase):
    def test_empty_sections_dropped(self):
        self.assertEqual(layers.drop_empty({"a": {}, "b": {"x": "1"}}), {"b": {"x": "1"}})
