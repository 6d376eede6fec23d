import unittest

from gateway import responses

PLAIN = {"content-type": "text/plain; charset=utf-8", "content-length": "5"}


class PlainResponseTest(unittest.TestCase):
    def test_body_is_utf8(self):
        self.assertEqual(responses.text("h\u00e9").body, b"h\xc3\xa9")

    def test_content_length_counts_bytes(self):
        self.assertEqual(responses.text("h\u00e9").headers["content-length"], "3")

    def test_no_content_has_no_body(self):
        self.assertEqual(responses.text("ignored", 204).body, b"")

    def test_plain_response_headers(self):
        # a response the gateway makes itself carries exactly its two content headers
        got = responses.text("hello").headers
        if got != PLAIN:
            extra = sorted(set(got) - set(PLAIN))
            self.fail(f"response headers are not the plain set\nextra: {extra}\ngot: {got}")


class RedirectTest(unittest.TestCase):
    def test_temporary(self):
        self.assertEqual(responses.redirect("/x").code, 302)

    def test_permanent(self):
        self.assertEqual(responses.redirect("/x", permanent=True).code, 301)

    def test_location(self):
        self.assertEqual(responses.redirect("/x").headers["location"], "/x")


class WireTest(unittest.TestCase):
    def test_status_line_first(self):
        self.assertTrue(responses.wire(responses.text("ok")).startswith(b"HTTP/1.1 200 OK\r\n"))

    def test_body_last(self):
        self.assertTrue(responses.wire(responses.text("ok")).endswith(b"\r\n\r\nok"))

    def test_content_type_line(self):
        self.assertIn(b"content-type: text/plain; charset=utf-8\r\n", responses.wire(responses.text("ok")))

    def test_not_found_reason(self):
        self.assertIn(b" 404 Not Found\r\n", responses.wire(responses.text("no", 404)))
