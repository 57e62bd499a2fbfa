"""``python -m mancala_env.cli``: the ``mancala`` command line."""

import sys

from . import main

sys.exit(main())
