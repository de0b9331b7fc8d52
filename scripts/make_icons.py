#!/usr/bin/env python3
"""Render the app's PNG icons from site/static/icons/favicon.svg and record in site/icons.json
what they were made from: run it after changing the SVG or site/icons.json, and commit the
PNGs. The code and the details are in py/truco_tools/icons.py.

Usage: .venv/bin/python scripts/make_icons.py   (needs the `e2e` extra and Debian's Chromium)
"""

import sys

from truco_tools.icons import main

if __name__ == "__main__":
    sys.exit(main())
