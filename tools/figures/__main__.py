"""python -m tools.figures: see tools/figures/__init__.py."""

import sys

from tools.figures import main

sys.exit(main())
