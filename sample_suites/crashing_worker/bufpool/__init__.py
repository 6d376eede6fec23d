"""bufpool: pooled native (ctypes) byte buffers for zero-copy I/O."""

__version__ = "0.7.0"
