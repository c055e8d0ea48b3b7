#!/bin/sh
# What an app resolves when it depends on the EventMachine product (issue 47): a scratch
# app package depends on this repository with `traits: []`, as the README's iOS checklist
# says, and `swift package show-dependencies` lists every package it resolves. Anything
# besides this repository (swift-nio, swift-argument-parser, …) would land in the app's
# Package.resolved: the script names it and fails.
#
#   Scripts/check-event-machine-dependencies.sh [--build]
#
# --build also compiles the scratch app (EventMachine and AutomatonCore, no other module).
set -eu
root=$(cd -P "$(dirname "$0")/.." && pwd -P)
identity=$(basename "$root" | tr '[:upper:]' '[:lower:]')
app=$(mktemp -d)
trap 'rm -rf "$app"' EXIT
mkdir -p "$app/Sources/App"
cat > "$app/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(path: "$root", traits: [])],
    targets: [
        .executableTarget(name: "App", dependencies: [
            .product(name: "EventMachine", package: "$identity"),
        ]),
    ]
)
MANIFEST
cat > "$app/Sources/App/main.swift" <<'SOURCE'
import EventMachine

enum Gate: Discriminated, CaseIterable, Hashable { case locked, unlocked }
enum Push: Discriminated, CaseIterable, Hashable { case coin, push }
let gate = try StateMachine<Gate, Push>(initial: .locked, rules: [.on(.coin, from: .locked, to: .unlocked)])
try gate.fire(.coin)
print(gate.state)
SOURCE

packages=$(swift package --package-path "$app" show-dependencies --format flatlist 2>/dev/null | grep -v "^$identity\$" || true)
if [ -n "$packages" ]; then
    echo "an app that depends on EventMachine also resolves:"
    echo "$packages"
    exit 1
fi
echo "an app that depends on EventMachine resolves no other package"
if [ "${1:-}" = "--build" ]; then
    swift build --package-path "$app" >/dev/null
    "$app/.build/debug/App"
fi
