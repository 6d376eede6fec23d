"""The Report object: rows of (label, amount) plus a header and totals."""

from reportgen import config, money, text


class Report:
    def __init__(self, title, rows=(), settings=None):
        self.title = title
        self.rows = list(rows)
        self.settings = settings

    def _setting(self, key):
        if self.settings is not None:
            return self.settings[key]
        return config.get(key)

    @property
    def currency(self):
        return self._setting("currency")

    def add(self, label, amount):
        self.rows.append((label, amount))

    def total(self):
        return sum(amount for _, amount in self.rows)

    def largest(self):
        if not self.rows:
            return None
        return max(self.rows, key=lambda row: row[1])

    def header(self):
        return "%s (%s)" % (self.title, self.currency)

    def render_text(self):
        width = self._setting("page_width")
        places = self._setting("decimal_places")
        lines = [text.center(self.header(), width).rstrip(), "=" * width]
        for label, amount in self.rows:
            value = money.format_amount(amount, self.currency, places)
            label = text.truncate(label, width - len(value) - 1)
            lines.append(label.ljust(width - len(value)) + value)
        total = money.format_amount(self.total(), self.currency, places)
        lines.append("-" * width)
        lines.append("Total".ljust(width - len(total)) + total)
        return "\n".join(lines)
