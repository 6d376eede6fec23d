import unittest

from gateway import routing


def handler(**params):
    return params


class CompileTest(unittest.TestCase):
    def test_literal(self):
        self.assertTrue(routing.compile_pattern("/health").match("/health"))

    def test_literal_is_exact(self):
        self.assertIsNone(routing.compile_pattern("/health").match("/healthz"))

    def test_parameter(self):
        found = routing.compile_pattern("/users/{user_id}").match("/users/42")
        self.assertEqual(found.groupdict(), {"user_id": "42"})

    def test_parameter_stops_at_slash(self):
        self.assertIsNone(routing.compile_pattern("/users/{user_id}").match("/users/4/2"))

    def test_two_parameters(self):
        found = routing.compile_pattern("/a/{x}/b/{y}").match("/a/1/b/2")
        self.assertEqual(found.groupdict(), {"x": "1", "y": "2"})

    def test_dots_are_literal(self):
        self.assertIsNone(routing.compile_pattern("/file.txt").match("/fileXtxt"))

    def test_must_start_with_slash(self):
        with self.assertRaises(ValueError):
            routing.compile_pattern("users")


class RouterTest(unittest.TestCase):
    def setUp(self):
        self.router = routing.Router()
        self.router.add("GET", "/users/{user_id}", handler)
        self.router.add("POST", "/users", handler)

    def test_match_returns_handler_and_params(self):
        self.assertEqual(self.router.match("GET", "/users/7"), (handler, {"user_id": "7"}))

    def test_method_is_case_insensitive(self):
        self.assertEqual(self.router.match("get", "/users/7")[1], {"user_id": "7"})

    def test_unknown_path_is_404(self):
        with self.assertRaises(LookupError) as caught:
            self.router.match("GET", "/nothing")
        self.assertEqual(caught.exception.args, (404,))

    def test_wrong_method_is_405(self):
        with self.assertRaises(LookupError) as caught:
            self.router.match("DELETE", "/users")
        self.assertEqual(caught.exception.args, (405,))

    def test_first_added_wins(self):
        self.router.add("GET", "/users/me", lambda: "me")
        self.assertIs(self.router.match("GET", "/users/me")[0], handler)

    def test_post_without_params(self):
        self.assertEqual(self.router.match("POST", "/users"), (handler, {}))
