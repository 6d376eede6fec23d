"""hexdump -C style formatting for debugging buffers."""


def _printable(b):
    return chr(b) if 32 <= b < 127 else "."


def hexdump_lines(data, width=16):
    if width <= 0:
        raise ValueError("width must be positive")
    lines = []
    for offset in range(0, len(data), width):
        chunk = data[offset:offset + width]
        hex_part = " ".join("%02x" % b for b in chunk).ljust(width * 3 - 1)
        text = "".join(_printable(b) for b in chunk)
        lines.append("%08x  %s  |%s|" % (offset, hex_part, text))
    return lines


def hexdump(data, width=16):
    return "\n".join(hexdump_lines(data, width))


def parse_hex(text):
    return bytes.fromhex("".join(text.split()))
