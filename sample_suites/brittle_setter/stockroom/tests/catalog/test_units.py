import unittest

from stockroom import units


class UnitLookupTest(unittest.TestCase):
    def test_unknown_unit_named(self):
        with self.assertRaises(KeyError) as caught:
            units.lookup("furlong")
        self.assertIn("furlong", str(caught.exception))

    def test_negative_factor_rejected(self):
        with self.assertRaises(ValueError):
            units.register("bad", "mass", -1)

    def test_zero_factor_rejected(self):
        with self.assertRaises(ValueError):
            units.register("bad", "mass", 0)


class CustomUnitTest(unittest.TestCase):
    def test_register_crate(self):
        units.register("crate", "crates", 1)
        self.assertEqual(units.lookup("crate"), ("crates", 1.0))

    def test_register_pallet_of_crates(self):
        units.register("crate", "crates", 1)
        units.register("pallet", "crates", 40)
        self.assertEqual(units.convert(2, "pallet", "crate"), 80)

    def test_different_dimensions_do_not_convert(self):
        units.register("crate", "crates", 1)
        units.register("barrel", "barrels", 1)
        with self.assertRaises(ValueError):
            units.convert(1, "crate", "barrel")


class UnitRegistryTest(unittest.TestCase):
    """What stockroom.cli.main does at start-up."""

    def test_register_defaults_adds_metric_units(self):
        units.register_defaults()
        self.assertTrue({"g", "kg", "t", "ml", "l", "pcs"} <= set(units.known()))

    def test_defaults_table_is_metric(self):
        self.assertEqual(units.DEFAULTS["kg"], ("mass", 1.0))
        self.assertEqual(units.DEFAULTS["l"], ("volume", 1.0))


class UnitTableTest(unittest.TestCase):
    def test_every_default_factor_positive(self):
        self.assertTrue(all(f > 0 for _, f in units.DEFAULTS.values()))

    def test_default_dimensions(self):
        self.assertEqual({d for d, _ in units.DEFAULTS.values()}, {"mass", "volume", "count"})

    def test_pieces_are_counts(self):
        self.assertEqual(units.DEFAULTS["pcs"][0], "count")
