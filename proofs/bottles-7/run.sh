#!/bin/sh
# Go on with the proof of seven bottles from its store (proofs/bottles-7/README.md).
# Ctrl-C (or SIGINT/SIGTERM) stops it cleanly; a kill loses only the guess under way.
set -e
here=$(dirname "$0")
if [ ! -e "$here/store.db" ] && [ -e "$here/store.db.gz" ]; then
    gunzip --keep "$here/store.db.gz"
fi
exec moocow optimal bottles:n=7 --store "$here/store.db" --save "$here/best-tree.json" "$@"
