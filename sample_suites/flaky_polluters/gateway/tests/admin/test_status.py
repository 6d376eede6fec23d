import unittest

from gateway import status


class ReasonTest(unittest.TestCase):
    def test_ok(self):
        self.assertEqual(status.reason(200), "OK")

    def test_not_found(self):
        self.assertEqual(status.reason(404), "Not Found")

    def test_too_many_requests(self):
        self.assertEqual(status.reason(429), "Too Many Requests")

    def test_bad_gateway(self):
        self.assertEqual(status.reason(502), "Bad Gateway")

    def test_unknown_client_error(self):
        self.assertEqual(status.reason(418), "Client Error")

    def test_unknown_redirect(self):
        self.assertEqual(status.reason(302), "Redirection")

    def test_unknown_informational(self):
        self.assertEqual(status.reason(103), "Informational")

    def test_out_of_range(self):
        with self.assertRaises(ValueError):
            status.reason(600)

    def test_below_range(self):
        with self.assertRaises(ValueError):
            status.reason(99)


class StatusLineTest(unittest.TestCase):
    def test_ok(self):
        self.assertEqual(status.status_line(200), "HTTP/1.1 200 OK")

    def test_server_error(self):
        self.assertEqual(status.status_line(500), "HTTP/1.1 500 Internal Server Error")


class HasBodyTest(unittest.TestCase):
    def test_ok_has_body(self):
        self.assertTrue(status.has_body(200))

    def test_no_content(self):
        self.assertFalse(status.has_body(204))

    def test_not_modified(self):
        self.assertFalse(status.has_body(304))

    def test_informational(self):
        self.assertFalse(status.has_body(100))

    def test_error_has_body(self):
        self.assertTrue(status.has_body(500))
