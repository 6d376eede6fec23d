import unittest

from xdgconf import paths


class XdgVariableRulesTest(unittest.TestCase):
    def test_relative_data_home_ignored(self):
        self.assertEqual(paths.data_home({"HOME": "/h", "XDG_DATA_HOME": "d"}), "/h/.local/share")

    def test_empty_data_home_ignored(self):
        self.assertEqual(paths.data_home({"HOME": "/h", "XDG_DATA_HOME": ""}), "/h/.local/share")

    def test_relative_state_home_ignored(self):
        self.assertEqual(paths.state_home({"HOME": "/h", "XDG_STATE_HOME": "s"}), "/h/.local/state")

    def test_absolute_state_home_used(self):
        self.assertEqual(paths.state_home({"XDG_STATE_HOME": "/s"}), "/s")

    def test_home_required_without_variable(self):
        with self.assertRaises(KeyError):
            paths.state_home({})

    def test_variable_avoids_home_lookup(self):
        self.assertEqual(paths.data_home({"XDG_DATA_HOME": "/d"}), "/d")

    def test_data_dirs_keep_duplicates(self):
        self.assertEqual(paths.data_dirs({"XDG_DATA_DIRS": "/a:/a"}), ["/a", "/a"])

    def test_config_dirs_single_entry(self):
        self.assertEqual(paths.config_dirs({"XDG_CONFIG_DIRS": "/only"}), ["/only"])
