"""``python -m lanterne``: the same as the ``lanterne`` command."""
from lanterne.client.cli import main

raise SystemExit(main())
