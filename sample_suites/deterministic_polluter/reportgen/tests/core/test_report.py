import unittest

from reportgen import config
from reportgen.report import Report


def sample(settings=None):
    return Report("Q3 expenses", [("Rent", 250000), ("Travel", 48210), ("Software", 12999)], settings)


class ReportHeaderTest(unittest.TestCase):
    def test_header_uses_default_currency(self):
        report = Report("Q3 expenses")
        if report.currency != "USD":
            self.fail("report header uses currency %r, expected default 'USD'" % report.currency)
        self.assertEqual(report.header(), "Q3 expenses (USD)")

    def test_header_with_settings_currency(self):
        report = Report("Payroll", settings=config.Settings(currency="GBP"))
        self.assertEqual(report.header(), "Payroll (GBP)")

    def test_header_keeps_title_verbatim(self):
        report = Report("  Odd  Title ", settings=config.Settings(currency="USD"))
        self.assertTrue(report.header().startswith("  Odd  Title "))


class ReportTotalsTest(unittest.TestCase):
    def test_total(self):
        self.assertEqual(sample().total(), 311209)

    def test_total_empty(self):
        self.assertEqual(Report("Nothing").total(), 0)

    def test_add_row(self):
        report = sample()
        report.add("Coffee", 1500)
        self.assertEqual(report.total(), 312709)

    def test_largest(self):
        self.assertEqual(sample().largest(), ("Rent", 250000))

    def test_largest_empty(self):
        self.assertIsNone(Report("Nothing").largest())

    def test_rows_are_copied(self):
        rows = [("A", 1)]
        report = Report("Copy", rows)
        report.add("B", 2)
        self.assertEqual(rows, [("A", 1)])


class RenderTextTest(unittest.TestCase):
    def setUp(self):
        self.settings = config.Settings(currency="USD", page_width=40)

    def test_lines_fit_page_width(self):
        for line in sample(self.settings).render_text().splitlines():
            self.assertLessEqual(len(line), 40)

    def test_total_line(self):
        last = sample(self.settings).render_text().splitlines()[-1]
        self.assertEqual(last, "Total" + " " * 26 + "$3,112.09")

    def test_header_centred(self):
        first = sample(self.settings).render_text().splitlines()[0]
        self.assertEqual(first.strip(), "Q3 expenses (USD)")

    def test_long_label_truncated(self):
        report = Report("T", [("x" * 100, 1)], self.settings)
        row = report.render_text().splitlines()[2]
        self.assertIn("...", row)

    def test_zero_decimal_places(self):
        report = Report("T", [("A", 5)], self.settings.with_overrides(decimal_places=0))
        self.assertTrue(report.render_text().endswith("$5"))

    def test_eur_report(self):
        report = sample(self.settings.with_overrides(currency="EUR"))
        self.assertIn("\u20ac2,500.00", report.render_text())
