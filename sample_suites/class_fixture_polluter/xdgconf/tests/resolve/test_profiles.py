import unittest

from xdgconf import profiles

APP = "/home/ada/.config/mail"


class ProfileDirTest(unittest.TestCase):
    def test_default_profile_is_app_dir(self):
        self.assertEqual(profiles.profile_dir(APP), APP)

    def test_explicit_default_is_app_dir(self):
        self.assertEqual(profiles.profile_dir(APP, "default"), APP)

    def test_named_profile(self):
        self.assertEqual(profiles.profile_dir(APP, "work"), APP + "/profiles/work")

    def test_slash_rejected(self):
        with self.assertRaises(ValueError):
            profiles.profile_dir(APP, "../etc")

    def test_hidden_rejected(self):
        with self.assertRaises(ValueError):
            profiles.profile_dir(APP, ".secret")


class ListProfilesTest(unittest.TestCase):
    def test_default_first(self):
        self.assertEqual(profiles.list_profiles(["work", "home"]), ["default", "home", "work"])

    def test_default_not_repeated(self):
        self.assertEqual(profiles.list_profiles(["default", "work"]), ["default", "work"])

    def test_hidden_entries_skipped(self):
        self.assertEqual(profiles.list_profiles([".cache", "work"]), ["default", "work"])


class ProfileFlagTest(unittest.TestCase):
    def test_separate_value(self):
        self.assertEqual(profiles.parse_profile_flag(["--profile", "work"]), "work")

    def test_equals_value(self):
        self.assertEqual(profiles.parse_profile_flag(["-v", "--profile=home"]), "home")

    def test_absent(self):
        self.assertIsNone(profiles.parse_profile_flag(["-v"]))
