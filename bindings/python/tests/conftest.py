import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

# The FFO data of the endgame crate, two levels above the bindings.
DATA = os.path.join(os.path.dirname(__file__), "..", "..", "..", "crates", "endgame", "data")
