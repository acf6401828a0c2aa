#!/usr/bin/env bash
# Intra-doc links that rustdoc left as literal text on the documented pages (issue 36): a link
# to a `#[doc(hidden)]` item (`[`crate::harness`]`) resolves, so `cargo doc -D warnings`
# passes, but the page shows the brackets. Scans the HTML of the documented modules (the
# `#[doc(hidden)]` modules of src/lib.rs and the source view left out) for `[<code>..</code>]`
# and `[crate::..]`, prints each with its page and fails when there is one.
#
#   scripts/doc-links.sh [DOC_DIR]   after `cargo doc --no-deps` (default target/doc)
#   scripts/doc-links.sh --self-test negative control: a synthetic page with a literal link
#                                    must fail the scan, a clean one must pass
set -euo pipefail
cd "$(dirname "$0")/.."

# the modules lib.rs declares `#[doc(hidden)] pub mod NAME;`
hidden_modules() {
  awk '/^#\[doc\(hidden\)\]/ { h = 1; next } h && /^pub mod / { sub(/;.*/, "", $3); print $3 } { h = 0 }' src/lib.rs
}

# scan DIR (the crate's doc directory, `target/doc/saddlefw`): literal links, one per line
scan() {
  local dir=$1 prune=() m
  for m in $(hidden_modules); do
    prune+=(-path "$dir/$m" -prune -o)
  done
  find "$dir" "${prune[@]}" -name '*.html' -print |
    xargs -r grep -oH -E '\[<code>[^<]*</code>\]|\[crate::[A-Za-z0-9_:]*\]' || true
}

if [ "${1:-}" = "--self-test" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/gate" "$tmp/harness"
  echo '<p>See <a href="x.html"><code>RateCheck</code></a> and [0, 1].</p>' >"$tmp/gate/index.html"
  echo '<p>[<code>crate::trace</code>] in a hidden module</p>' >"$tmp/harness/index.html"
  [ -z "$(scan "$tmp")" ] || { echo "self-test: a clean page was reported" >&2; exit 1; }
  echo '<p>See [<code>crate::harness</code>] and [crate::trace::Checkpoint].</p>' >>"$tmp/gate/index.html"
  [ "$(scan "$tmp" | wc -l)" = 2 ] || { echo "self-test: an injected literal link was not reported" >&2; exit 1; }
  echo "doc-links self-test: ok"
  exit 0
fi

dir=${1:-${CARGO_TARGET_DIR:-target}/doc}/saddlefw
[ -d "$dir" ] || { echo "error: INPUT: $dir: no documentation (run cargo doc --no-deps first)" >&2; exit 2; }
found=$(scan "$dir")
if [ -n "$found" ]; then
  echo "intra-doc links rendered as literal text (they point at hidden items: link a documented item or write plain prose):" >&2
  echo "$found" | sed "s#^$dir/##" >&2
  exit 1
fi
echo "doc-links: no literal link text on the documented pages"
