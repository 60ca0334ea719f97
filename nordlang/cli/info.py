"""`nord games`, `nord variants`, `nord schema`, `nord doc`: what is bundled and how to write it."""

from __future__ import annotations

import json
import re

from ..errors import UsageError
from . import add_json_option, add_rules_options


def add(sub):
    p = sub.add_parser("games", help="list the bundled games: name, players, what the game is")
    add_json_option(p)
    p.set_defaults(func=run_games)
    p = sub.add_parser("variants", help="list a game's variants with their descriptions (default: nord's)")
    add_rules_options(p, players=False, variants=False)
    add_json_option(p)
    p.set_defaults(func=run_variants)
    p = sub.add_parser("schema", help="print the JSON Schema of rulebooks (or of scenarios)")
    p.add_argument("which", nargs="?", default="rulebook", choices=["rulebook", "scenario"])
    p.set_defaults(func=run_schema)
    p = sub.add_parser("doc", help="print a reference in Markdown: the nordlang language (the default), the "
                                   "rulebook format or the scenario format")
    p.add_argument("topic", nargs="?", default="language", choices=list(DOCS),
                   help="language (docs/nordlang.md), rulebook (docs/rulebook-format.md) or scenario "
                        "(docs/scenario-format.md)")
    p.set_defaults(func=run_doc)


def run_games(args):
    from ..rules.games import bundled_games
    from ..rules.yamlpos import load_yaml
    games = bundled_games()
    if not games:
        raise UsageError("no bundled games found")
    if getattr(args, "json", False):
        from .json_output import emit
        emit({"command": "games", "ok": True, "errors": [], "games": [_game_json(name, main, load_yaml(main)[0])
                                                                      for name, main in games.items()]})
        return 0
    width = max(len(n) for n in games)
    for name, main in games.items():
        data, _ = load_yaml(main)
        print(f"{name:<{width}}  {_players(data):<11}  {first_sentence(_description(data))}".rstrip())
    return 0


def _game_json(name, main, data) -> dict:
    """A bundled game for `nord games --json`: what the text line says, and its variants' names."""
    from ..rules.games import variants_folder
    pl = data.get("players") if isinstance(data, dict) and isinstance(data.get("players"), dict) else {}
    folder = variants_folder(main)
    return {"name": name, "rulebook": str(main), "players": {"min": pl.get("min"), "max": pl.get("max")},
            "summary": first_sentence(_description(data)), "description": _description(data),
            "variants": sorted(f.stem for f in folder.glob("*.yaml")) if folder is not None else []}


def _description(data) -> str:
    game = data.get("game") if isinstance(data, dict) else None
    desc = game.get("description") if isinstance(game, dict) else None
    return " ".join(str(desc).split()) if desc else (str(game.get("name", "")) if isinstance(game, dict) else "")


def _players(data) -> str:
    pl = data.get("players") if isinstance(data, dict) else None
    if not isinstance(pl, dict):
        return ""
    lo, hi = pl.get("min"), pl.get("max")
    return f"{lo} players" if lo == hi else f"{lo}-{hi} players"


def first_sentence(text: str) -> str:
    """Up to the first full stop that ends a sentence (all of it when there is none)."""
    m = re.search(r"[.!?](\s|$)", text)
    return text[:m.start() + 1] if m else text


def run_variants(args):
    from ..rules.games import describe, rulebook_file, variants_folder
    main = rulebook_file(args.rulebook)
    folder = variants_folder(main)
    files = sorted(folder.glob("*.yaml")) if folder is not None else []
    if not files:
        raise UsageError(f"{describe(main)} has no bundled variants")
    if args.json:
        from .json_output import emit
        emit({"command": "variants", "ok": True, "errors": [], "rulebook": str(main),
              "variants": [{"name": f.stem, "file": str(f), "description": _variant_description(f)} for f in files]})
        return 0
    for f in files:
        print(f"{f.stem}\n    {_variant_description(f)}\n")
    return 0


def _variant_description(f) -> str:
    from ..rules.yamlpos import load_yaml
    data, _ = load_yaml(f)
    return " ".join(str(data.get("description", "")).split()) if isinstance(data, dict) else ""


def run_schema(args):
    from ..rules.schema import schema
    print(json.dumps(schema(args.which), indent=2))
    return 0


# topic -> (module, the file of docs/ that holds its output)
DOCS = {"language": ("nordlang.lang.reference", "nordlang.md"),
        "rulebook": ("nordlang.rules.format_reference", "rulebook-format.md"),
        "scenario": ("nordlang.scenario.reference", "scenario-format.md")}


def run_doc(args):
    import importlib
    print(importlib.import_module(DOCS[args.topic][0]).reference())
    return 0
