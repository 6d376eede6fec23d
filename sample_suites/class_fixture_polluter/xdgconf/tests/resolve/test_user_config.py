import unittest

from xdgconf import paths

HOME = {"HOME": "/home/ada"}


class CacheDirTest(unittest.TestCase):
    def test_cache_under_home(self):
        self.assertEqual(paths.cache_home(HOME), "/home/ada/.cache")

    def test_cache_relative_variable_ignored(self):
        self.assertEqual(paths.cache_home({"HOME": "/home/ada", "XDG_CACHE_HOME": "c"}), "/home/ada/.cache")

    def test_cache_needs_home(self):
        with self.assertRaises(KeyError):
            paths.cache_home({"HOME": ""})

    def test_cache_variable_wins(self):
        self.assertEqual(paths.cache_home({"XDG_CACHE_HOME": "/var/cache/ada"}), "/var/cache/ada")


class DataDirTest(unittest.TestCase):
    def test_data_under_home(self):
        self.assertEqual(paths.data_home(HOME), "/home/ada/.local/share")

    def test_data_variable_wins(self):
        self.assertEqual(paths.data_home({"XDG_DATA_HOME": "/srv/data"}), "/srv/data")

    def test_state_under_home(self):
        self.assertEqual(paths.state_home(HOME), "/home/ada/.local/state")

    def test_state_variable_wins(self):
        self.assertEqual(paths.state_home({"XDG_STATE_HOME": "/srv/state"}), "/srv/state")


class UserConfigFileTest(unittest.TestCase):
    def test_config_file_under_home(self):
        found = paths.config_file("editor", "settings.ini", HOME)
        self.assertEqual(found, "/home/ada/.config/editor/settings.ini",
                         "user config file is %r, expected it under HOME" % (found,))

    def test_system_copy_listed(self):
        self.assertEqual(paths.system_config_files("editor", "settings.ini", HOME),
                         ["/etc/xdg/editor/settings.ini"])

    def test_system_copies_follow_config_dirs(self):
        environ = {"HOME": "/home/ada", "XDG_CONFIG_DIRS": "/opt/xdg"}
        self.assertEqual(paths.system_config_files("editor", "settings.ini", environ),
                         ["/opt/xdg/editor/settings.ini"])
