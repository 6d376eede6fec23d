import unittest

from textpipe import registry


def _strip_digits(text):
    return "".join(c for c in text if not c.isdigit())


class PluginRegistryTest(unittest.TestCase):
    def _register(self, name, func, **kwargs):
        registry.register(name, func, **kwargs)
        self.addCleanup(registry.unregister, name)

    def test_register_and_get(self):
        self._register("nodigits", _strip_digits)
        self.assertIs(registry.get("nodigits"), _strip_digits)

    def test_register_duplicate_rejected(self):
        self._register("dup", str.strip)
        with self.assertRaises(registry.DuplicatePlugin):
            registry.register("dup", str.lstrip)

    def test_register_replace(self):
        self._register("rep", str.strip)
        registry.register("rep", str.title, replace=True)
        self.assertIs(registry.get("rep"), str.title)

    def test_register_rejects_non_callable(self):
        with self.assertRaises(TypeError):
            registry.register("broken", "not a function")

    def test_register_shout_plugin(self):
        # The bundled "shout" plugin, registered the way plugin packages do it.
        registry.register("shout", str.upper)
        self.assertEqual(registry.get("shout")("hi"), "HI")
        self.assertIn("shout", registry.names())

    def test_unregister_missing(self):
        self.assertFalse(registry.unregister("never-registered"))

    def test_unregister_removes(self):
        registry.register("temp", str.strip)
        self.assertTrue(registry.unregister("temp"))
        self.assertNotIn("temp", registry.names())

    def test_get_unknown_raises(self):
        with self.assertRaises(KeyError):
            registry.get("missing-plugin")


class PluginOrderingTest(unittest.TestCase):
    def setUp(self):
        self.names = []

    def tearDown(self):
        for name in self.names:
            registry.unregister(name)

    def _add(self, name, func, priority):
        registry.register(name, func, priority=priority)
        self.names.append(name)

    def test_lower_priority_runs_first(self):
        self._add("zz-late", str.title, priority=90)
        self._add("aa-early", str.strip, priority=10)
        order = registry.ordered()
        self.assertLess(order.index(str.strip), order.index(str.title))

    def test_same_priority_sorted_by_name(self):
        self._add("order-b", str.lstrip, priority=50)
        self._add("order-a", str.rstrip, priority=50)
        order = registry.ordered()
        self.assertLess(order.index(str.rstrip), order.index(str.lstrip))

    def test_decorator_registers(self):
        @registry.plugin("deco", priority=5)
        def deco(text):
            return text

        self.names.append("deco")
        self.assertIs(registry.get("deco"), deco)

    def test_names_sorted(self):
        self._add("names-b", str.strip, 50)
        self._add("names-a", str.strip, 50)
        names = registry.names()
        self.assertEqual(names, sorted(names))
