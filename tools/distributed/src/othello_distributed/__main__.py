"""`python -m othello_distributed`."""

import sys

from .cli import main

sys.exit(main())
