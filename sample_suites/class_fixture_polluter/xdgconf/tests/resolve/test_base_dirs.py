import unittest

from xdgconf import paths

HOME = {"HOME": "/home/ada"}


class BaseDirsTest(unittest.TestCase):
    def test_config_home_defaults_under_home(self):
        self.assertEqual(paths.config_home(HOME), "/home/ada/.config")

    def test_config_home_from_variable(self):
        self.assertEqual(paths.config_home({"HOME": "/home/ada", "XDG_CONFIG_HOME": "/cfg"}), "/cfg")

    def test_config_home_ignores_relative_variable(self):
        environ = {"HOME": "/home/ada", "XDG_CONFIG_HOME": "cfg"}
        self.assertEqual(paths.config_home(environ), "/home/ada/.config")

    def test_config_home_ignores_empty_variable(self):
        environ = {"HOME": "/home/ada", "XDG_CONFIG_HOME": ""}
        self.assertEqual(paths.config_home(environ), "/home/ada/.config")

    def test_config_home_needs_home(self):
        with self.assertRaises(KeyError):
            paths.config_home({})

    def test_data_home_default(self):
        self.assertEqual(paths.data_home(HOME), "/home/ada/.local/share")

    def test_data_home_from_variable(self):
        self.assertEqual(paths.data_home({"HOME": "/home/ada", "XDG_DATA_HOME": "/data"}), "/data")

    def test_cache_home_default(self):
        self.assertEqual(paths.cache_home(HOME), "/home/ada/.cache")

    def test_cache_home_from_variable(self):
        self.assertEqual(paths.cache_home({"HOME": "/home/ada", "XDG_CACHE_HOME": "/tmp/c"}), "/tmp/c")

    def test_state_home_default(self):
        self.assertEqual(paths.state_home(HOME), "/home/ada/.local/state")

    def test_config_file_joins_app_and_name(self):
        self.assertEqual(paths.config_file("mail", "accounts.ini", HOME), "/home/ada/.config/mail/accounts.ini")

    def test_not_portable_by_default(self):
        self.assertIsNone(paths.portable_root())
