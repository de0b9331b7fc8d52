"""The project's tooling: everything that turns site/ and py/truco into dist/, and the
local server. It runs on CPython only and never ships: the browser's engine wheel and its
memory snapshot hold the `truco` package alone (pyproject.toml builds the wheel from
py/truco).

One module per job:

- `common`    the repository's folders, BuildError, the build log
- `pyodide`   vendoring the pinned Pyodide (npm) into dist/pyodide/
- `wheels`    the micropip wheel (PyPI, vetted) and the engine wheel (py/truco, cached)
- `snapshot`  the Pyodide memory snapshot, the snapshot path's WebAssembly, the xz files
              and the xz decoder module
- `pages`     site/static/, the Jinja pages in every language, the UI strings (site/i18n/)
- `lessons`   the tutorial's lessons (site/tutorial/*.md), every exercise replayed
- `pwa`       the web app manifest, the icons' check, the service worker and its groups
- `icons`     renders the PNG icons from the SVG (scripts/make_icons.py runs it)
- `output`    the output writer (dist/), build_info.js, manifest.json, the other-origin check
- `budget`    the first visit's byte budget
- `build`     all of the above in order (the top-level build.py runs it)
- `serve`     the local static server with netlify.toml's headers (./play, the tests)

The paths are the checkout's (`common.ROOT`): the package is installed editable
(scripts/pydeps.py --install, which scripts/bootstrap.sh runs), never as a copy.
"""
