#!/usr/bin/env python3
"""Documentation coverage of the Ocular module's public API, from the symbol graph DocC reads: the public
symbols declared in Sources/ (not those the compiler synthesises — Equatable's !=, Codable's init(from:) — nor
those inherited from other modules), and how many of them have a doc comment. Functions are also checked
for `- Parameters:`/`- Parameter`, `- Returns:` and `- Throws:` where they take parameters, return a value
or throw.

    scripts/doc-coverage.py SYMBOLS.json [--list] [--minimum PERCENT]
"""
import argparse
import json
import re
import sys
from collections import Counter

FUNCTION_KINDS = {"swift.func", "swift.method", "swift.type.method", "swift.init", "swift.subscript", "swift.func.op"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("symbols")
    parser.add_argument("--list", action="store_true", help="list what lacks documentation")
    parser.add_argument("--minimum", type=float, default=0, help="exit 1 below this percentage documented")
    arguments = parser.parse_args()
    graph = json.load(open(arguments.symbols))
    module = graph["module"]["name"]
    own, documented, incomplete, missing = 0, 0, [], []
    kinds = Counter()
    for symbol in graph["symbols"]:
        location = symbol.get("location", {}).get("uri", "")
        if symbol.get("accessLevel") not in ("public", "open") or "/Sources/" not in location:
            continue
        comment = symbol.get("docComment")
        # A comment inherited from another module's protocol is not ours.
        if comment and comment.get("module", module) != module:
            comment = None
        # The symbol graph hands a protocol requirement's comment to the members that implement it, as DocC
        # shows them; those count as documented, but their Parameters/Returns/Throws are the requirement's.
        inherited = bool(comment) and comment.get("uri", location) != location
        own += 1
        name = "/".join(symbol["pathComponents"])
        kinds[symbol["kind"]["identifier"]] += 1
        if not comment:
            missing.append(f"{symbol['kind']['displayName'].lower()} {name}  ({location.split('/Sources/')[1]}:{symbol['location']['position']['line'] + 1})")
            continue
        documented += 1
        if symbol["kind"]["identifier"] in FUNCTION_KINDS and not inherited:
            text = "\n".join(line["text"] for line in comment["lines"])
            fragments = "".join(fragment["spelling"] for fragment in symbol.get("declarationFragments", []))
            takes = bool(symbol.get("functionSignature", {}).get("parameters"))
            returns = symbol.get("functionSignature", {}).get("returns", [])
            gives = not (returns == [] or [r.get("spelling") for r in returns] in (["()"], ["Void"])) and symbol["kind"]["identifier"] != "swift.init"
            throws = re.search(r"\bthrows\b", fragments) is not None
            lacks = []
            if takes and not re.search(r"- Parameters?\b", text):
                lacks.append("Parameters")
            if gives and not re.search(r"- Returns:", text):
                lacks.append("Returns")
            if throws and not re.search(r"- Throws:", text):
                lacks.append("Throws")
            if lacks:
                incomplete.append(f"{name}: no {', '.join(lacks)}")
    percent = 100 * documented / max(own, 1)
    print(f"{module}: {documented} of {own} public symbols documented ({percent:.1f} %); "
          f"{len(incomplete)} documented functions lack a Parameters, Returns or Throws section")
    if arguments.list:
        print("\n".join(["undocumented:"] + missing + ["incomplete:"] + incomplete))
    if percent < arguments.minimum:
        sys.exit(1)


if __name__ == "__main__":
    main()
