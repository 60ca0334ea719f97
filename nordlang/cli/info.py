"""`nord variants`, `nord schema`, `nord doc`: what is bundled and how to write it."""

from __future__ import annotations

import json

from ..errors import UsageError


def add(sub):
    p = sub.add_parser("variants", help="list the bundled variants with their descriptions")
    p.set_defaults(func=run_variants)
    p = sub.add_parser("schema", help="print the JSON Schema of rulebooks (or of scenarios)")
    p.add_argument("which", nargs="?", default="rulebook", choices=["rulebook", "scenario"])
    p.set_defaults(func=run_schema)
    p = sub.add_parser("doc", help="print the nordlang language reference (markdown)")
    p.set_defaults(func=run_doc)


def run_variants(args):
    from .. import bundled
    from ..rules.yamlpos import load_yaml
    files = sorted((bundled("variants") / "nord").glob("*.yaml"))
    if not files:
        raise UsageError("no bundled variants found")
    for f in files:
        data, _ = load_yaml(f)
        desc = " ".join(str(data.get("description", "")).split()) if isinstance(data, dict) else ""
        print(f"{f.stem}\n    {desc}\n")
    return 0


def run_schema(args):
    from ..rules.schema import schema
    print(json.dumps(schema(args.which), indent=2))
    return 0


def run_doc(args):
    from ..lang.reference import reference
    print(reference())
    return 0
