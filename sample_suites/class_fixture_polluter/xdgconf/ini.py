"""A small INI reader/writer: sections, key = value, comments, no interpolation."""


class ParseError(ValueError):
    def __init__(self, line_number, message):
        super().__init__("line %d: %s" % (line_number, message))
        self.line_number = line_number


def parse(text):
    sections = {}
    current = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            if not line.endswith("]") or len(line) < 3:
                raise ParseError(number, "bad section header")
            current = sections.setdefault(line[1:-1].strip(), {})
            continue
        if "=" not in line:
            raise ParseError(number, "expected key = value")
        if current is None:
            raise ParseError(number, "key outside a section")
        key, value = line.split("=", 1)
        current[key.strip().lower()] = value.strip()
    return sections


def dump(sections):
    blocks = []
    for name in sorted(sections):
        lines = ["[%s]" % name]
        lines.extend("%s = %s" % (key, sections[name][key]) for key in sorted(sections[name]))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + ("\n" if blocks else "")


def get_bool(sections, section, key, default=False):
    value = sections.get(section, {}).get(key)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in ("1", "yes", "true", "on"):
        return True
    if lowered in ("0", "no", "false", "off"):
        return False
    raise ValueError("%s.%s is not a boolean: %r" % (section, key, value))
