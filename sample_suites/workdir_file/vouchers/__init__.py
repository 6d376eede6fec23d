"""Voucher codes issued in sequence, the sequence kept in a file of the working directory."""
