#!/usr/bin/env bash
# All set-up on a fresh Debian machine: SpatiaLite (to build the data file), GDAL (ogrinfo/ogr2ogr: layer test,
# offline layers, parcel loads), Chromium (browser tests), wrk (benches), Redis and PostgreSQL with PostGIS (the
# shared limits, state and parcel stores: the tests start their own servers on 127.0.0.1) from apt, each only when
# missing, then the pinned npm packages (Bun itself comes from the npm package `bun`).
set -euo pipefail
cd "$(dirname "$0")/.."
need_apt=()
[ -e /usr/lib/x86_64-linux-gnu/mod_spatialite.so ] || ls /usr/lib/*/mod_spatialite.so >/dev/null 2>&1 || need_apt+=(libsqlite3-mod-spatialite)
command -v ogrinfo >/dev/null 2>&1 || need_apt+=(gdal-bin)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium) # browser tests (driven by puppeteer-core, no download)
command -v wrk >/dev/null 2>&1 || need_apt+=(wrk)           # load generator for bench/
command -v redis-server >/dev/null 2>&1 || need_apt+=(redis-server)                  # limits shared by replicas
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || need_apt+=(postgresql)      # state shared by replicas
ls /usr/share/postgresql/*/extension/postgis.control >/dev/null 2>&1 || need_apt+=(postgis) # parcels in PostGIS
if [ ${#need_apt[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  echo "setup: apt-get install ${need_apt[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
if [ ! -x node_modules/.bin/bun ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm_log=$(mktemp)
  if ! npm ci --no-audit --no-fund >"$npm_log" 2>&1; then
    # npm prints its usage text after some refusals: say in one line what failed, keep the full log.
    first=$(grep -E '^npm (error|ERR!) [^ ]' "$npm_log" | grep -vE '^npm (error|ERR!) (code|errno|syscall|path) ' | head -1 | sed -E 's/^npm (error|ERR!) //' || true)
    detail=$(grep -E '^npm (error|ERR!) (Invalid|Missing):' "$npm_log" | sed -E 's/^npm (error|ERR!) //' | head -3 | paste -sd ';' - || true)
    echo "setup: npm ci failed: ${first:-exit status without an npm error line}${detail:+ ($detail)}; full log: $npm_log" >&2
    exit 1
  fi
  grep -vE 'EBADENGINE|install-scripts|^npm warn (Unknown user config)' "$npm_log" | grep -vE '^\s*$' | tail -3 || true
fi
