import sys

from tests.fuzz.cli import main

sys.exit(main())
