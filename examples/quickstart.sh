#!/usr/bin/env bash
# The quickstart: serves the Python documentation of Debian's python3.11-doc on 127.0.0.1 (on a
# port the system picks), crawls it with examples/crawler.py into a fresh database, then runs
# examples/quickstart.sql on it: sizes next to plain tables', the most linked pages, one page's
# links and the PageRank top 10. The crawl stays in BUILD_DIR/quickstart/crawl.db.
#   examples/quickstart.sh [build dir]     (default: build/release; the crawldb module built there)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
docs=/usr/share/doc/python3.11/html
python=/usr/bin/python3  # Debian's: it can load SQLite extensions
if [ ! -f "$docs/index.html" ]; then
  echo "quickstart: $docs is missing; install python3.11-doc (scripts/install-deps.sh)" >&2
  exit 1
fi

out="$build/quickstart"
mkdir -p "$out"
rm -f "$out"/crawl.db "$out"/crawl.db-wal "$out"/crawl.db-shm "$out"/plain.db "$out"/server.log

# Port 0: the system picks a free port, which http.server prints on its first line.
"$python" -u -m http.server --bind 127.0.0.1 --directory "$docs" 0 >"$out/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
port=""
for _ in $(seq 100); do
  port="$(sed -n 's/^Serving HTTP on .* port \([0-9]*\) .*/\1/p' "$out/server.log")"
  [ -n "$port" ] && break
  sleep 0.1
done
if [ -z "$port" ]; then
  echo "quickstart: http.server did not start:" >&2
  cat "$out/server.log" >&2
  exit 1
fi
site="http://127.0.0.1:$port/"

echo "Crawling the Python documentation ($(find "$docs" -name '*.html' | wc -l) HTML files)," \
  "served at $site, with examples/crawler.py (4 workers; no host delay: it is our own server):"
"$python" examples/crawler.py --db "$out/crawl.db" --extension "$build/crawldb" --workers 4 \
  --host-delay 0 --same-host "${site}index.html"

echo
sqlite3 "$out/crawl.db" \
  ".load $build/crawldb" \
  ".parameter set :site '$site'" \
  ".parameter set :plain '$out/plain.db'" \
  ".read examples/quickstart.sql"
echo
echo "The crawl is in $out/crawl.db (its URLs name port $port); more questions of it:"
echo "  sqlite3 $out/crawl.db '.load $build/crawldb' '.read examples/analysis.sql'"
