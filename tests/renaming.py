"""Rename every identifier a rulebook declares: a copy of a bundled game with
none of its author's names left, for the test that the engine keys nothing
on names (tests/test_renamed_games.py) and its benchmark (bench/renamed.py).

    from renaming import rename_rulebook
    renamed = rename_rulebook(Path("rulebook/hex/hex.yaml"), tmp_dir)
    rules = nordlang.load_rules(str(renamed.main), 2)

What is renamed, consistently, by one mapping of words (the same word in
two roles, a zone and a source, gets the same new word): definitions,
procedures and flows with their parameters; terrains, features, piece
kinds and their tags, structure kinds, zones (and a grid's row labels),
tables (their keys and the words they hold, at every depth), constants;
choices, rolls, option labels, the 'nothing' option's text, step ids;
every name a text binds (let, for, comprehensions, let ... in); note
kinds (note's first argument), messages' keys, result.sources and the
sources award() names, counters (counter, add), result.summary.triggers;
tiles, the board's structure ids and seats; data_checks' `about` paths;
the rulebook's file names and the game's name. A text's string literal is
renamed when it equals a declared word. Prose (descriptions, prompts,
check messages, step notes, a text's comments) is replaced by neutral
text; a message keeps only its placeholders.

Kept, as the engine's own: the words of the language and the primitives
(docs/nordlang.md), `terrains`, `seat`, `tile_ids`, `original`, the `p`
the result's texts are written over, a terrain's fields (`.land`), space
names (c4), the players' colours, map characters and every number.
`Renamed.unrenamed` lists every word the tool met and left as it was
without knowing why (a string literal that names nothing declared, a key
it does not know).

The new words keep the order of the old ones (sorted alike), so that what
the engine orders by name (items, structure ids, tile ids) comes in the
same order: `monotone=False` draws them at random instead.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from nordlang.engine.library import STD

GRAMMAR = Path(__file__).resolve().parent.parent / "nordlang" / "lang" / "grammar.lark"
# the language's words (the grammar's NAME excludes them)
KEYWORDS = frozenset(re.search(r"\(\?:([a-z|]+)\)", GRAMMAR.read_text(encoding="utf-8")).group(1).split("|"))


@lru_cache(maxsize=1)
def _lark():
    """The language's own grammar, parsed with the positions of its tokens."""
    import lark
    return lark.Lark(GRAMMAR.read_text(encoding="utf-8"), start=["start_expr", "start_effects"], parser="lalr",
                     propagate_positions=True, maybe_placeholders=True)

ROOT = Path(__file__).resolve().parent.parent

# the engine's names: the language's words, the primitives, what the rules add for every rulebook
ENGINE = frozenset(KEYWORDS) | frozenset(STD.items) | {"seat", "tile_ids", "terrains", "original"}
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
SPACE_NAME = re.compile(r"^[a-z]{1,2}[0-9]+$")
SIGNATURE = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?:\((.*)\))?\s*$", re.S)
# where a primitive takes a name the rulebook makes up: (primitive, argument index)
NAMING_ARGS = {"note": 0, "counter": 0, "add": 0, "award": 2, "points_from": 1}
PROSE = "-"


def _strip_comments(text: str) -> str:
    """The text without its # comments (string literals kept whole)."""
    out, i, n = [], 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "\"'":
            j = i + 1
            while j < n and text[j] not in (ch, "\n"):
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif ch == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
        else:
            out.append(ch)
            i += 1
    return "".join(out)


@dataclass
class Renamed:
    main: Path                                    # the renamed main file
    mapping: dict                                 # old word -> new word
    unrenamed: list = field(default_factory=list)  # (where, word): met and kept without a reason


class _Walker:
    """Walks a rulebook's YAML and texts. With mapping None it collects the
    declared words (self.declared); with a mapping it returns the renamed copy."""

    def __init__(self, mapping=None, keep=frozenset(), swap=(), prose=None):
        self.m = mapping
        self.collect = mapping is None
        self.declared = set()
        self.prose = prose if prose is not None else set()   # a text's string literals that are no names
        self.unrenamed = []
        self.keep = keep                  # words left as they are everywhere (to break a renaming on purpose)
        self.swap = dict(zip(swap, reversed(swap)))  # two words exchanged in string literals (likewise)
        self.where = ""

    # ---------- words ----------
    def word(self, w):
        """A word in a naming position."""
        if not isinstance(w, str):
            return w
        if self.collect:
            self.declared.add(w)
            return w
        if w in self.keep:
            return w
        return self.m[w]

    def usage(self, w, env):
        """A name a text uses (not binds)."""
        if w in env:
            return env[w]
        if w in ENGINE:
            return w
        return self.word(w)

    def bind(self, env, w):
        env[w] = self.word(w)
        return env[w]

    def data(self, v):
        """Table data: keys and identifier-like texts are words, at any depth."""
        if isinstance(v, dict):
            return {self.data(k): self.data(x) for k, x in v.items()}
        if isinstance(v, list):
            return [self.data(x) for x in v]
        if isinstance(v, str):
            if IDENT.match(v):
                return self.word(v)
            self.miss(v)
        return v

    def miss(self, w):
        if not self.collect:
            self.unrenamed.append((self.where, w))

    # ---------- texts ----------
    def text(self, text, env, mode="expr"):
        if not isinstance(text, str):
            return text
        src = _strip_comments(text)
        tree = _lark().parse(src, start="start_expr" if mode == "expr" else "start_effects")
        self._edits = []
        self._node(tree, dict(env))
        out = src
        for start, end, new in sorted(self._edits, reverse=True):
            out = out[:start] + new + out[end:]
        return out.strip()

    def _tok(self, tok, new):
        if new != str(tok):
            self._edits.append((tok.start_pos, tok.end_pos, new))

    def _string(self, tok, naming=False):
        raw = str(tok)
        value = raw[1:-1]
        if naming and self.collect:
            self.declared.add(value)
        if self.collect:
            if not IDENT.match(value) and "\\" not in value:
                self.prose.add(value)
            return
        if value in self.m and value not in self.keep:
            self._tok(tok, raw[0] + self.m[self.swap.get(value, value)] + raw[0])
        elif value in self.prose:
            self._tok(tok, raw[0] + self.prose[value] + raw[0])
        elif IDENT.match(value) and not SPACE_NAME.match(value) and value not in self.keep:
            self.miss(value)

    def _target(self, node, env):
        for tok in node.children:
            self._tok(tok, self.bind(env, str(tok)))

    def _root(self, node):
        while hasattr(node, "data") and node.data in ("attr", "index", "call"):
            node = node.children[0]
        return node

    def _node(self, node, env):
        if node is None or not hasattr(node, "data"):
            return
        d, c = node.data, node.children
        if d == "name":
            self._tok(c[0], self.usage(str(c[0]), env))
        elif d == "string":
            self._string(c[0])
        elif d == "attr":
            self._node(c[0], env)
            root = self._root(c[0])
            engine = root.data == "name" and str(root.children[0]) in ENGINE and str(root.children[0]) not in env
            if not engine:
                self._tok(c[1], self.word(str(c[1])))
        elif d in ("call", "call_stmt"):
            func, args = c
            if d == "call_stmt":
                fname = str(func)
                self._tok(func, self.usage(fname, env))
            else:
                self._node(func, env)
                fname = str(func.children[0]) if func.data == "name" else None
            if args is not None:
                if args.data == "args" and fname in NAMING_ARGS and fname not in env:
                    i = NAMING_ARGS[fname]
                    if i < len(args.children) and getattr(args.children[i], "data", None) == "string":
                        self._string(args.children[i].children[0], naming=True)
                        for k, a in enumerate(args.children):
                            if k != i:
                                self._node(a, env)
                        return
                self._node(args, env)
        elif d in ("listcomp", "setcomp", "genargs"):
            inner = dict(env)
            for f in c[1:]:
                self._node(f.children[1], inner)          # the collection, before the name is bound
                self._target(f.children[0], inner)
                for cond in f.children[2:]:
                    self._node(cond, inner)
            self._node(c[0], inner)
        elif d == "letin":
            inner = dict(env)
            for b in c[:-1]:
                self._node(b.children[1], inner)
                self._tok(b.children[0], self.bind(inner, str(b.children[0])))
            self._node(c[-1], inner)
        elif d in ("start_effects", "block"):
            inner = dict(env)
            for st in c:
                self._node(st, inner)
        elif d == "let_stmt":                              # binds for the statements after it
            self._node(c[1], env)
            self._tok(c[0], self.bind(env, str(c[0])))
        elif d == "for_stmt":
            self._node(c[1], env)
            inner = dict(env)
            self._target(c[0], inner)
            self._node(c[2], inner)
        else:
            for ch in c:
                self._node(ch, env)

    def binder_text(self, text, env):
        """'a, b in expr' (a for step, a simultaneous choice): binds the names in env."""
        m = re.match(r"^\s*(.*?)\s+in\s+(.*)$", _strip_comments(text), re.S)
        expr = self.text(m.group(2), env)
        names = [n.strip() for n in m.group(1).strip("() \n").split(",")]
        return ", ".join(self.bind(env, n) for n in names) + " in " + expr

    def signature(self, key):
        name, params = SIGNATURE.match(key).groups()
        env = {}
        if params is None:
            return self.word(name), env
        new = [self.bind(env, p.strip()) for p in params.split(",") if p.strip()]
        return f"{self.word(name)}({', '.join(new)})", env

    # ---------- steps ----------
    def steps(self, body, env):
        if body is None:
            return None
        if isinstance(body, str):
            return self.text(body, env, "effects")
        env = dict(env)
        return [self.step(st, env) for st in body]

    def step(self, st, env):
        out = {}
        inner = dict(env)
        # the names a step binds for its own parts, whatever the order of its keys
        bound = {k: self.binder_text(st[k], inner) for k in ("simultaneous", "for") if k in st}
        for k, v in st.items():
            if k == "id":
                out[k] = self.word(v)
            elif k == "note":
                continue
            elif k == "let":
                new = {}
                for name, expr in v.items():
                    value = self.text(expr, env)
                    new[self.bind(env, name)] = value
                out[k] = new
            elif k in ("if", "while", "from", "exists", "by", "call", "when"):
                out[k] = self.text(v, inner)
            elif k in bound:
                out[k] = bound[k]
            elif k in ("then", "else", "do", "otherwise"):
                out[k] = self.steps(v, inner)
            elif k in ("choose", "roll"):
                out[k] = self.word(v)
            elif k == "optional":
                out[k] = self.word(v)
            elif k == "prompt":
                out[k] = PROSE
            elif k == "options":
                out[k] = {self.word(label): self.step(opt, dict(inner)) for label, opt in v.items()}
            elif k == "outcomes":
                out[k] = {self.data(o) if isinstance(o, str) else o: p for o, p in v.items()}
            elif k in ("lookahead", "limit", "reveal"):
                out[k] = v
            else:
                self.where = f"step key {k}"
                self.miss(k)
                out[k] = v
        for k in ("choose", "roll"):
            if k in st:
                self.bind(env, st[k])       # bound for the steps after it
        return out

    # ---------- the rulebook ----------
    def document(self, d, files):
        out = {}
        for k, v in d.items():
            self.where = k
            out[k] = self.section(k, v, files)
        return out

    def section(self, k, v, files):
        W = self.word
        if k == "include":
            return [files[f] for f in v]
        if k == "description":
            return PROSE
        if k == "game":
            return {gk: ("g" if gk == "name" else PROSE if gk == "description" else gv) for gk, gv in v.items()}
        if k in ("players", "notation", "$schema"):
            return v
        if k == "terrains":
            return {W(n): {a: ([W(f) for f in b] if a == "features" else b) for a, b in t.items()}
                    for n, t in v.items()}
        if k == "features":
            return {W(n): {a: (W(b) if a == "terrain" else b) for a, b in f.items()} for n, f in v.items()}
        if k == "pieces":
            def piece(p):
                return {a: (W(b) if a == "home" else [W(t) for t in b] if a == "tags"
                            else {W(t): c for t, c in b.items()} if a == "tag_colors"
                            else PROSE if a == "description" else b) for a, b in p.items()}
            return {W(n): piece(p) for n, p in v.items()}
        if k == "structures":
            return {W(n): {a: (W(b) if a == "stands_on" else PROSE if a == "description" else b)
                           for a, b in s.items()} for n, s in v.items()}
        if k == "zones":
            return {W(n): {a: ([W(x) for x in b] if a == "row_labels" else PROSE if a == "description" else b)
                           for a, b in z.items()} for n, z in v.items()}
        if k in ("tables", "constants"):
            return {W(n): self.data(x) for n, x in v.items()}
        if k == "define":
            return {sig: self.text(body, env) for sig, env, body in self._sigs(v)}
        if k == "procedures":
            return {sig: self.text(body, env, "effects") for sig, env, body in self._sigs(v)}
        if k == "flows":
            return {sig: self.steps(body, env) for sig, env, body in self._sigs(v)}
        if k in ("setup", "turn"):
            return self.steps(v, {})
        if k == "next_player":
            return self.text(v, {})
        if k == "result":
            out = {}
            for a, b in v.items():
                if a == "rank":
                    out[a] = [self.text(t, {"p": "p"}) for t in b]
                elif a in ("evaluation", "returns"):
                    out[a] = self.text(b, {"p": "p"})
                elif a == "draw":
                    out[a] = self.text(b, {})
                elif a == "sources":
                    out[a] = [W(s) for s in b]
                elif a == "summary":
                    out[a] = {x: W(y) for x, y in b.items()}
                else:
                    self.miss(a)
                    out[a] = b
            return out
        if k in ("board_checks", "position_checks", "data_checks"):
            out = []
            for chk in v:
                new = {}
                for a, b in chk.items():
                    if a in ("check", "offenders"):
                        new[a] = self.text(b, {})
                    elif a == "about":
                        head, *rest = b.split(".")
                        new[a] = ".".join([head] + [W(x) for x in rest])
                    elif a == "message":
                        new[a] = PROSE
                    else:
                        new[a] = b
                out.append(new)
            return out
        if k == "messages":
            return {W(n): " ".join(re.findall(r"\{[^}]*\}", t)) or PROSE for n, t in v.items()}
        if k == "tiles":
            return {W(str(n)): {a: (PROSE if a == "description" else b) for a, b in t.items()} for n, t in v.items()}
        if k == "boards":
            if all(isinstance(c, int) or str(c).isdigit() for c in v):
                return {c: self.board(b) for c, b in v.items()}
            return self.board(v)
        if k == "legend":
            return {ch: "+".join(W(x) for x in str(t).split("+")) for ch, t in v.items()}
        self.miss(k)
        return v

    def _sigs(self, v):
        for key, body in v.items():
            sig, env = self.signature(key)
            yield sig, env, body

    def board(self, b):
        W = self.word
        out = {}
        for a, x in b.items():
            if a == "description":
                out[a] = PROSE
            elif a == "open":
                out[a] = W(x)
            elif a == "tiles":
                out[a] = [{t: (W(str(y)) if t == "tile" else y) for t, y in tile.items()} for tile in x]
            elif a == "structures":
                out[a] = {W(sid): {t: (W(y) if t == "kind" else y) for t, y in s.items()} for sid, s in x.items()}
            elif a == "seats":
                out[a] = [W(s) for s in x]
            elif a == "sides":          # (players' colours are kept; the definitions are renamed)
                out[a] = {c: [W(n) for n in names] for c, names in x.items()}
            elif a in ("geometry", "shape", "size"):
                out[a] = x
            else:
                self.miss(f"boards.{a}")
                out[a] = x
        return out


class _Dumper(yaml.SafeDumper):
    """safe_dump, with texts of several lines written as blocks (|), as a person writes them."""


_Dumper.add_representer(str, lambda d, s: d.represent_scalar("tag:yaml.org,2002:str", s,
                                                             style="|" if "\n" in s else None))


def _files(main: Path) -> list:
    """The rulebook's files: the main one first, then what it includes (relative to it)."""
    data = yaml.safe_load(main.read_text(encoding="utf-8"))
    return [main] + [main.parent / f for f in data.get("include") or []]


def _collect(main) -> _Walker:
    w = _Walker()
    files = {p.name: p.name for p in _files(Path(main))}
    for path in _files(Path(main)):
        w.document(yaml.safe_load(path.read_text(encoding="utf-8")), files)
    return w


def declared_words(main) -> set:
    """Every word the rulebook at `main` (with its includes) declares or names."""
    return _collect(main).declared


def rename_rulebook(main, dest, monotone=True, seed=0, keep=frozenset(), swap=()) -> Renamed:
    """Write to folder `dest` a copy of the rulebook at `main` with every declared word renamed.

    `keep` (words left as they are everywhere) and `swap` (two words whose new names are
    exchanged in the texts' string literals only) break the renaming on purpose: for the
    tests' checks that they would notice."""
    main, dest = Path(main), Path(dest)
    collected = _collect(main)
    words = sorted(collected.declared)
    # a text's literals that name nothing (a note's words: "full boat"), each replaced alike
    prose = {t: f"- {i}" for i, t in enumerate(sorted(collected.prose - {""}))}
    new = [f"n_{i:04d}" for i in range(len(words))]
    if not monotone:
        random.Random(seed).shuffle(new)
    mapping = dict(zip(words, new))
    assert not set(new) & ENGINE
    paths = _files(main)
    files = {p.name: ("g.yaml" if i == 0 else f"part{i}.yaml") for i, p in enumerate(paths)}
    w = _Walker(mapping, keep, swap, prose)
    dest.mkdir(parents=True, exist_ok=True)
    for path in paths:
        out = w.document(yaml.safe_load(path.read_text(encoding="utf-8")), files)
        (dest / files[path.name]).write_text(yaml.dump(out, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                                                       width=1000), encoding="utf-8")
    return Renamed(dest / "g.yaml", mapping, w.unrenamed)


def _schema_words() -> set:
    """The rulebook format's own words: its keys and the values it enumerates."""
    schema = json.loads((ROOT / "nordlang" / "rules" / "schemas" / "rulebook.schema.json").read_text())
    out = set()

    def walk(x):
        if isinstance(x, dict):
            out.update(x.get("properties") or {})
            out.update(v for v in x.get("enum") or [] if isinstance(v, str))
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(schema)
    return out


# fields whose values are map characters, coordinates or colours, never names
_NOT_NAMES = {"char", "rows", "map", "tile_map", "at", "colors", "color", "tag_colors", "size", "legend"}


def _words(x, key=None):
    """The words of a YAML value's keys and texts, but for map characters, coordinates and colours."""
    if key in _NOT_NAMES:
        return set()
    if isinstance(x, dict):
        out = set()
        for k, v in x.items():
            out |= _words(k) | _words(v, k)
        return out
    if isinstance(x, list):
        return set().union(*(_words(v, key) for v in x)) if x else set()
    return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", x)) if isinstance(x, str) else set()


def surviving_names(original_main, renamed_main) -> set:
    """The original's declared words still in the renamed rulebook: as names the renamed
    one declares or uses (however they collide with the engine's words), or as any word of
    its keys and texts that is not one of the engine's or the format's."""
    old = declared_words(original_main)
    found = declared_words(renamed_main) & old
    allowed = ENGINE | _schema_words() | {"p"}
    for path in _files(Path(renamed_main)):
        found |= (_words(yaml.safe_load(path.read_text(encoding="utf-8"))) - allowed) & old
    return found
