"""Game rules for the dealer-assist kiosk: pure Python, no I/O, no clocks, no randomness it was not given.

Each game lives in its own package (``engine.baibuu``, ``engine.samloc``, ``engine.schmier``) and follows the
shape described in ``engine.common``; ``engine.games`` finds them by name.
"""
