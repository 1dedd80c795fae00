#!/bin/sh
# fetch_ort.sh - ONNX Runtime's libonnxruntime.so.1 for linux x64, from the
# pinned onnxruntime-node npm package, with the ordinary npm client, into
# the build tree.  Usage: fetch_ort.sh VERSION DIR  (writes DIR/libonnxruntime.so.1)
set -eu
ver=$1 dir=$2
so=node_modules/onnxruntime-node/bin/napi-v3/linux/x64/libonnxruntime.so.1
command -v npm >/dev/null 2>&1 || {
    echo "fetch_ort: npm is missing: install Node.js with npm (Debian: apt-get install -y npm)" >&2
    exit 1; }
mkdir -p "$dir/npm"
# --ignore-scripts: the package's install script fetches GPU builds we do
# not want; the CPU library is in the tarball itself.
npm install --prefix "$dir/npm" --ignore-scripts --no-audit --no-fund \
    --loglevel=error "onnxruntime-node@$ver" >&2 || {
    echo "fetch_ort: run: npm install --prefix $dir/npm --ignore-scripts onnxruntime-node@$ver" >&2
    exit 1; }
[ -f "$dir/npm/$so" ] || { echo "fetch_ort: $dir/npm/$so missing" >&2; exit 1; }
cp "$dir/npm/$so" "$dir/libonnxruntime.so.1"
