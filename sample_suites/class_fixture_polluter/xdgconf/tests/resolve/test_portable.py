import unittest

from xdgconf import paths

HOME = {"HOME": "/home/ada"}


class PortableModeTest(unittest.TestCase):
    """What `xdgconf --portable /media/usb/xdgconf` sets up for the whole run."""

    @classmethod
    def setUpClass(cls):
        paths.enable_portable("/media/usb/xdgconf/")
        # No tearDownClass: portable mode stays on for the rest of the process.

    def test_config_home_under_portable_root(self):
        self.assertEqual(paths.config_home(HOME), "/media/usb/xdgconf/config")

    def test_portable_root_is_normalised(self):
        self.assertEqual(paths.portable_root(), "/media/usb/xdgconf")

    def test_portable_wins_over_xdg_config_home(self):
        environ = {"HOME": "/home/ada", "XDG_CONFIG_HOME": "/cfg"}
        self.assertEqual(paths.config_home(environ), "/media/usb/xdgconf/config")

    def test_config_file_under_portable_root(self):
        self.assertEqual(paths.config_file("mail", "accounts.ini", HOME), "/media/usb/xdgconf/config/mail/accounts.ini")

    def test_data_home_not_relocated(self):
        self.assertEqual(paths.data_home(HOME), "/home/ada/.local/share")


class PortableRootValidationTest(unittest.TestCase):
    def test_relative_root_rejected(self):
        with self.assertRaises(ValueError):
            paths.enable_portable("usb/xdgconf")

    def test_empty_root_rejected(self):
        with self.assertRaises(ValueError):
            paths.enable_portable("")

    def test_none_root_rejected(self):
        with self.assertRaises(ValueError):
            paths.enable_portable(None)
