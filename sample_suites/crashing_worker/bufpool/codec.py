"""Varints and length-prefixed frames."""


def encode_varint(n):
    if n < 0:
        raise ValueError("varints are unsigned")
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def decode_varint(data, offset=0):
    result = shift = 0
    while True:
        if offset >= len(data):
            raise ValueError("truncated varint")
        byte = data[offset]
        offset += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, offset
        shift += 7


def frame(payload):
    return encode_varint(len(payload)) + payload


def unframe_all(data):
    frames, offset = [], 0
    while offset < len(data):
        length, offset = decode_varint(data, offset)
        if offset + length > len(data):
            raise ValueError("truncated frame")
        frames.append(data[offset:offset + length])
        offset += length
    return frames


def zigzag_encode(n):
    """Map signed to unsigned so small magnitudes stay small (protobuf sint)."""
    return (n << 1) ^ (n >> 63)


def zigzag_decode(n):
    return (n >> 1) ^ -(n & 1)
