import unittest

from xdgconf import paths

HOME = {"HOME": "/home/ada"}


class ConfigDirsTest(unittest.TestCase):
    def test_default_is_etc_xdg(self):
        self.assertEqual(paths.config_dirs(HOME), ["/etc/xdg"])

    def test_from_variable_in_order(self):
        environ = {"XDG_CONFIG_DIRS": "/opt/xdg:/etc/xdg"}
        self.assertEqual(paths.config_dirs(environ), ["/opt/xdg", "/etc/xdg"])

    def test_relative_entries_dropped(self):
        environ = {"XDG_CONFIG_DIRS": "xdg:/etc/xdg"}
        self.assertEqual(paths.config_dirs(environ), ["/etc/xdg"])

    def test_empty_entries_dropped(self):
        environ = {"XDG_CONFIG_DIRS": "::/etc/xdg:"}
        self.assertEqual(paths.config_dirs(environ), ["/etc/xdg"])

    def test_all_relative_falls_back(self):
        self.assertEqual(paths.config_dirs({"XDG_CONFIG_DIRS": "a:b"}), ["/etc/xdg"])

    def test_returns_a_fresh_list(self):
        paths.config_dirs(HOME).append("/tmp")
        self.assertEqual(paths.config_dirs(HOME), ["/etc/xdg"])


class DataDirsTest(unittest.TestCase):
    def test_default(self):
        self.assertEqual(paths.data_dirs(HOME), ["/usr/local/share", "/usr/share"])

    def test_from_variable(self):
        self.assertEqual(paths.data_dirs({"XDG_DATA_DIRS": "/opt/share"}), ["/opt/share"])

    def test_empty_variable_falls_back(self):
        self.assertEqual(paths.data_dirs({"XDG_DATA_DIRS": ""}), ["/usr/local/share", "/usr/share"])


class SystemConfigFilesTest(unittest.TestCase):
    def test_one_per_config_dir(self):
        environ = {"XDG_CONFIG_DIRS": "/opt/xdg:/etc/xdg"}
        self.assertEqual(paths.system_config_files("mail", "a.ini", environ),
                         ["/opt/xdg/mail/a.ini", "/etc/xdg/mail/a.ini"])

    def test_default_dir(self):
        self.assertEqual(paths.system_config_files("mail", "a.ini", HOME), ["/etc/xdg/mail/a.ini"])

    def test_never_includes_user_dir(self):
        found = paths.system_config_files("mail", "a.ini", HOME)
        self.assertFalse(any(f.startswith("/home/") for f in found))
