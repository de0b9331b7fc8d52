# Sourced by ./play and ./run-tests: check the machine, make .venv with the pinned Python
# tools (the extras named in TRUCO_EXTRAS), install the pinned npm packages.
# Each step is skipped when its inputs did not change since it last ran.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else die "run as root: $*"; fi; }

command -v python3 >/dev/null || die "python3 (3.11 or newer) is needed"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
  || die "python3 is $(python3 -V 2>&1); 3.11 or newer is needed"
command -v node >/dev/null && command -v npm >/dev/null || die "Node.js 20 and npm are needed"
[ "$(node -p 'process.versions.node.split(".")[0]')" -ge 20 ] || die "node is $(node --version); 20 or newer is needed"

VENV="${TRUCO_VENV:-$ROOT/.venv}"
if [ ! -x "$VENV/bin/python" ]; then
  say "creating $VENV"
  if ! python3 -m venv "$VENV" 2>/dev/null; then
    # Debian ships venv's pip separately.
    rm -rf "$VENV"
    command -v apt-get >/dev/null || die "python3 -m venv failed: install Python's venv module"
    say "installing python3-venv (Debian)"
    as_root apt-get update -qq
    as_root apt-get install -y -qq "python3-venv" || as_root apt-get install -y -qq "python$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')-venv"
    python3 -m venv "$VENV"
  fi
fi
PY="$VENV/bin/python"

# The checkout's path is part of the key: the editable install points at one checkout.
deps_key="$(cat pyproject.toml scripts/pydeps.py | sha256sum | cut -c1-16)-${TRUCO_EXTRAS// /-}-$(printf %s "$ROOT" | sha256sum | cut -c1-8)"
if [ "$(cat "$VENV/.truco-deps" 2>/dev/null)" != "$deps_key" ]; then
  say "installing Python tools ($TRUCO_EXTRAS)"
  # shellcheck disable=SC2086
  "$PY" scripts/pydeps.py --install $TRUCO_EXTRAS
  echo "$deps_key" > "$VENV/.truco-deps"
fi

npm_key="$(cat package.json package-lock.json | sha256sum | cut -c1-16)"
if [ "$(cat node_modules/.truco-npm 2>/dev/null)" != "$npm_key" ]; then
  say "installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$npm_key" > node_modules/.truco-npm
fi
