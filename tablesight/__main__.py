import sys

from tablesight.cli import main

sys.exit(main())
