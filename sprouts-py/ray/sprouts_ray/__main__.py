"""`python -m sprouts_ray`: the same as the `sprouts-ray` command."""

import sys

from .cli import main

sys.exit(main())
