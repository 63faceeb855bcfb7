"""``python -m lanterne.protocol.fuzz``."""

import sys

from . import main

sys.exit(main())
