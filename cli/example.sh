#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds robotsc and runs the main job on the bundled example: compile
# examples/robots.txt once into a blob, then check examples/urls.txt against
# it for two crawlers.
set -euo pipefail
cd "$(dirname "$0")/.."
. cli/setup.sh
cmake -S . -B build $GEN -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target robotsc-cli >/dev/null
set -x
./build/robotsc compile examples/robots.txt -o build/example.rbc
./build/robotsc info build/example.rbc
./build/robotsc check --explain --agent Googlebot build/example.rbc < examples/urls.txt
./build/robotsc check --explain --agent SomeOtherBot build/example.rbc < examples/urls.txt
