"""``python -m mancala_env``: the ``mancala`` command line."""

import sys

from .cli import main

sys.exit(main())
