"""Check nordlang syntax trees and compile them to Python functions.

Checking and compiling are one walk: every name is resolved (locals,
rulebook definitions, constants, builtins) and every call's arity checked
when the rulebook loads, so play never meets an unknown name and never
re-parses text. Each expression, definition and effect becomes the source
of one Python function (comprehensions become Python comprehensions,
locals become Python locals), compiled once with `compile`; primitives are
called directly. A runtime failure is reported at the file position of the
expression (or statement) it came from, with the definitions and procedures
it passed through and where each was called; finding them costs nothing
until something fails (an expression is then run again, traced: see _fail).

The Compiler is made of its parts: expressions.py and statements.py
generate the code (shortcuts.py the shortcuts it takes), checks.py checks literals against the kinds of value
primitives declare; memo.py says how calls of definitions are made,
trace.py places runtime failures, runtime.py holds the helpers the code calls,
names.py the names (Names) a rulebook hands it. The compiler uses them; none
of them imports the compiler.
"""

from __future__ import annotations

import re
import warnings
from contextlib import contextmanager

from ..errors import LangError, NordError, Pos
from . import ast as A
from .budget import Budget
from .checks import Checks
from .cost import ESTIMATING, warnings_of
from .expressions import Expressions
from .memo import Func, is_cheap, is_filter
from .names import Names
from .reads import Reader
from .runtime import _COUNTER, _RUNTIME, FLOW_READ
from .statements import Statements
from .trace import Where

_USES_VARS = re.compile(r"\bV\b")   # generated code that reads flow variables
_MARK = re.compile(r"  # at (_p\d+)$")   # a generated line's statement position (see Compiler.stmt)
_FLOW_READ = re.compile(re.escape(FLOW_READ).replace(re.escape("{0}"), r"('\w+')", 1)
                        .replace(re.escape("{0}"), r"\1"))    # a flow variable's read, its name's text the group


class Ctx:
    """What an expression sees while it runs: the state, flow variables, the budget of work."""

    __slots__ = ("state", "rules", "vars", "budget")

    def __init__(self, state, rules, vars=None, budget=None):
        self.state = state
        self.rules = rules
        self.vars = {} if vars is None else vars
        # the work left until the next decision (budget.py): the engine's, or one of its own
        self.budget = Budget() if budget is None else budget


class Compiler(Expressions, Statements, Checks):
    """Compile nordlang trees; `locate` maps positions inside the text to the file."""

    def __init__(self, names: Names, locate=None, current: Func | None = None, text: str | None = None):
        self.names = names
        self.text = text          # the text the trees given were parsed from (as an expression), if known
        self._lines = None        # its lines, when some error or site needs them
        self.locate = locate or (lambda line, col: Pos(None, line, col))
        self.current = current
        self.errors: list[NordError] = []
        self.env: dict = dict(_RUNTIME)
        self._n = 0
        self.inline = True        # inline cheap definitions (expressions only: they can run twice)
        self.inlined = False      # some definition was inlined into the function being made
        self.tracing = False      # making a replay: each node says where it is when it fails (see _fail)
        self.where = None         # the Where of the effects being made (their statements' handlers name it)
        self.calls_original = False   # the text calls original(...): it is not inlined into its callers
        self._root = None             # the expression being compiled (Shortcuts._fused_filter counts its calls)
        self._where_names: dict = {}
        self._arguments: dict = {}   # an inlined parameter's code -> (argument, scope, locals) (Expressions._inline)
        self._numbers: set = set()   # the locals (by their code's names) that loops bind to numbers
        self._descs: dict = {}       # a local's code -> what the text shows of its zones (reads.Reader.desc)
        self._facts: dict = {}       # a local's code -> what its value is known to be (values.py)
        self._returns_of: dict = {}  # id of a definition -> (it, what its value is known to be) (values.py)
        self._checkable: frozenset = frozenset()   # the parameters' codes (values.ValueFacts._cell_part)
        self._checked: set = set()   # ... those the body tests to be cells
        self._looped: set = set()    # the locals' codes loops bind (values.py)
        self._seqs: set = set()      # the locals' codes lets bind to a tuple or list in order (facts._is_seq)
        self._filled: dict = {}      # ... comprehensions bind to cells of filled_cells -> the thunks around
        self._thunks = 0             # > 0 while making a thunk's code (a primitive may run it on another position)
        self._as_list = None         # the comprehension to make as a list (Shortcuts._first_of_list)
        self._iterable = 0           # > 0 while making a loop's collection (Bindings._LetIn)
        self._loops: list = []       # the comprehensions being made, innermost last (bindings.py)

    # -- helpers --
    def pos(self, node) -> Pos:
        return self.locate(node.line, node.col)

    def error(self, node, msg, hint=None, expected=None):
        width = node.end_col - node.col if node.end_line == node.line else 1
        self.errors.append(LangError(msg, self.pos(node), hint=hint, expected=expected, width=max(1, width)))
        return "None"

    def _site(self, node, prefix="s") -> str:
        """A global holding (position, width, text) of a node's text (its
        text when the compiler has it), for an error there to name."""
        width = node.end_col - node.col if node.end_line == node.line else 1
        return self.bind((self.pos(node), max(1, width), self._text_of(node)), prefix)

    def _text_of(self, node):
        """The node's text, one line, when the text it was parsed from is known."""
        if self.text is None:
            return None
        if self._lines is None:
            self._lines = self.text.split("\n")
        lines = self._lines[node.line - 1:node.end_line]
        if not lines:
            return None
        if len(lines) == 1:
            return lines[0][node.col - 1:node.end_col - 1]
        lines[-1] = lines[-1][:node.end_col - 1]
        lines[0] = lines[0][node.col - 1:]
        return " ".join(x.strip() for x in lines)

    def bind_where(self, where) -> str:
        """The global holding a function's Where (one for all its handlers)."""
        name = self._where_names.get(id(where))
        if name is None:
            name = self._where_names[id(where)] = self.bind(where, "w")
        return name

    def bind(self, value, prefix="k") -> str:
        """A global of the generated code holding `value`."""
        name = f"_{prefix}{next(_COUNTER)}"
        self.env[name] = value
        return name

    def _uses(self, b, node=None, scope=frozenset(), local=None):
        """Note a primitive the text calls (node: the call; None for a bare name), and what it reads."""
        self.names.primitives.add(b.name)
        if not b.static and self.current is not None:
            self.current.dynamic = True
            if not self.tracing:
                self.current.reads |= self._reader(scope, local or {}).of_call(b, node)

    def _reader(self, scope, local) -> Reader:
        """A Reader of the text at hand: its locals as _descs says, the flow's variables unknown."""
        descs = self._descs

        def lookup(name):
            if name in local:
                return True, descs.get(local[name])
            return name in scope, None
        return Reader(self.names, lookup)

    def _dep(self, name, f=None, args=None):
        """Note a definition the text calls; args: what the text shows of the arguments' zones
        (None: nothing), so that the parts it reads are said of them (reads.read_set)."""
        self.names.used.add(name)
        if self.current is not None:
            self.current.deps.add(name)
            if not self.tracing:
                self.current.sites.add((f if f is not None else self.names.funcs[name], args))

    # -- public entry points (closures of ctx) --
    def _deep(self, node):
        self.errors.append(LangError("the text nests too deeply to compile", self.pos(node),
                                     hint="split it into definitions"))
        return lambda ctx, *a: None

    def expr(self, node, scope: frozenset):
        """A function fn(ctx) evaluating an expression; `scope` names flow variables."""
        self.inlined = False
        self._costs(node)
        self._root = node
        try:
            src = self.gen(node, scope, {})
        except RecursionError:
            return self._deep(node)
        where = Where(self.pos(node))
        self._replayable(where, node, scope)
        fn = self._function(self._pools_once(f"return {src}"), where)
        fn.reads_flow = bool(_USES_VARS.search(src))
        fn.distinct = self._is_distinct(node, scope)
        return fn

    @contextmanager
    def _no_inlining(self, tracing=False):
        """Calls of definitions stay calls: in effects (which cannot run again
        to place an error precisely) and in the replay of an expression."""
        self.inline, self.tracing = False, tracing
        try:
            yield
        finally:
            self.inline, self.tracing = True, False

    def block(self, stmts, scope: frozenset):
        """A function fn(ctx) running effects."""
        self.where = where = Where(self.pos(stmts[0]) if stmts else None)
        self._costs(stmts)
        try:
            with self._no_inlining():
                lines = self.stmts(stmts, scope, {}, 1)
        except RecursionError:
            return self._deep(stmts[0])
        return self._function("\n".join(lines) if lines else "pass", where)

    def _costs(self, tree):
        """Warn of work the text shows to be more than a decision's budget (cost.py), when validating."""
        if not ESTIMATING[0]:
            return
        try:
            self.names.warnings.extend(warnings_of(tree, self.names.constants, self.locate, self._text_of))
        except RecursionError:
            pass            # (too deeply nested to compile: that error is reported)

    def _replayable(self, where, tree, scope, params=()):
        """Keep what it takes to replay the expression (see _fail): its text
        rather than its tree when there is one (fewer objects for the
        collector to visit while the game plays), and the function that
        makes the replay (trace.py does not import the compiler)."""
        where.source = (self.text if self.text is not None else tree, scope, params, self.names, self.locate,
                        self.current, Compiler.traced)

    @staticmethod
    def traced(where):
        """The expression of `where`, traced node by node and without
        inlining: run again after a failure, it finds the node that failed."""
        from .parser import parse
        src, scope, params, names, locate, current, _ = where.source
        tree = parse(src, "expr") if isinstance(src, str) else src
        c = Compiler(names, locate, current, text=src if isinstance(src, str) else None)
        local = {p: f"v_{p}" for p in params}
        with c._no_inlining(tracing=True):
            return c._function(f"return {c.gen(tree, scope, local)}", where, args="".join(f", v_{p}" for p in params))

    def function(self, func: Func, tree, mode: str):
        """Compile a definition or procedure body into func.py(ctx, *params)."""
        local = {p: f"v_{p}" for p in func.params}
        args = "".join(f", v_{p}" for p in func.params)
        try:
            return self._function_body(func, tree, mode, local, args)
        except RecursionError:
            func.py = self._deep(tree if mode == "expr" else tree[0])
            func.body = func.py
            return func.py

    def _function_body(self, func, tree, mode, local, args):
        self._costs(tree)
        self._root = tree if mode == "expr" else None
        label = f"{'definition' if mode == 'expr' else 'procedure'} {func.path[1] if func.path else func.name}"
        self._descs = {code: ("param", k) for k, code in enumerate(local.values())}
        if mode == "expr":
            func.cheap = is_cheap(tree, self.names)
            self.inlined = False
            self._checkable = frozenset(local.values())
            try:
                body = self._pools_once(self.checked_params(f"return {self.gen(tree, frozenset(), local)}"))
            finally:
                self._checkable = frozenset()
            where = Where(self.pos(tree), label)
            self._replayable(where, tree, frozenset(), func.params)
        else:
            self.where = where = Where(self.pos(tree[0]) if tree else None, label)
            with self._no_inlining():
                lines = self.stmts(tree, frozenset(), local, 1)
            body = "\n".join(lines) if lines else "pass"
        func.py = self._function(body, where, args=args)
        if mode == "expr":
            func.seq = self._is_seq(tree, frozenset(), local)
        if mode == "expr" and func.dynamic and not self.errors and not self.calls_original and is_filter(tree):
            func.filter = tree          # (a caller's loop over it tests its items in place: _fused_filter)
        if mode == "expr" and func.cheap and not self.errors and not self.calls_original:
            # small enough to be written into its callers (see _inline)
            func.tree = tree
            func.uses = {p: sum(1 for n in A.walk(tree) if isinstance(n, A.Name) and n.id == p)
                         for p in func.params}
        params = func.params
        py = func.py

        def body_from_vars(ctx):
            return py(ctx, *[ctx.vars[p] for p in params])
        func.body = body_from_vars
        return func.py

    def _pools_once(self, body: str) -> str:
        """An expression's body with the state's pools looked up once, first,
        where its code reads them in a loop or often (a zone read in place
        in a loop reads them once to three times an item). An expression changes
        nothing, so the pools it starts with are those it ends with; a
        thunk (a lambda, run by a primitive, perhaps on another position)
        looks them up itself: a body with one is left as it is."""
        reads = body.count("ctx.state.pools")
        if self.tracing or reads == 0 or (reads < 4 and " for " not in body) or "lambda" in body:
            return body
        return "_pools = ctx.state.pools\n" + body.replace("ctx.state.pools", "_pools")

    def _flow_reads_once(self, body: str) -> tuple:
        """(body, head lines): each flow variable the body reads more than
        once, or in a loop, looked up once, first (a read is two lookups in
        the flow's bindings: in a comprehension, two an item). A function
        changes no flow variable while it runs, so the value it starts with
        is the one it would read; a missing one is still the read's error,
        where it is read. A thunk (a lambda: run later, by a primitive)
        reads its own: a body with one is left as it is."""
        if self.tracing or "lambda" in body:
            return body, []
        counts: dict = {}
        for m in _FLOW_READ.finditer(body):
            counts[m.group(1)] = counts.get(m.group(1), 0) + 1
        loop = " for " in body
        hoisted = {n: f"_fv{i}" for i, n in enumerate(sorted(counts)) if counts[n] > 1 or loop}
        if not hoisted:
            return body, []

        def read(m):
            local = hoisted.get(m.group(1))
            return m.group(0) if local is None else f"({local} if {local} is not _unset else _get(V, {m.group(1)}))"
        return _FLOW_READ.sub(read, body), [f"  {local} = V.get({n}, _unset)" for n, local in hoisted.items()]

    def _function(self, body, where: Where, args=""):
        """Compile generated source into a function; a failure is placed by
        _fail with what `where` knows (nothing of it runs unless it fails)."""
        if self.errors:
            return lambda ctx, *a: None
        pos = where.pos
        name = f"_nl{next(_COUNTER)}"
        filename = f"<nordlang {pos}>" + (" (replay)" if self.tracing else "")
        body, reads = self._flow_reads_once(body)
        head = [f"def {name}(ctx{args}):", *(["  V = ctx.vars"] if _USES_VARS.search(body) else []), *reads, "  try:"]
        body_lines = body.split("\n")
        # statements marked with their position (see stmt): a failure names its line
        marks = {len(head) + i + 1: self.env[m[1]] for i, line in enumerate(body_lines)
                 if (m := _MARK.search(line))}
        if marks:
            where.lines = {0: filename, **marks}
        src = ("\n".join(head) + "\n"
               + "\n".join("    " + line for line in body_lines) + "\n"
               f"  except Exception as e:\n"
               f"    raise _fail(e, {self.bind_where(where)}, ctx{args}) from None\n")
        try:
            with warnings.catch_warnings():
                # (Python's own warnings on the generated code, like "'int' object is not
                # subscriptable" for tag(5), are not the user's words: running it says so in ours)
                warnings.simplefilter("ignore", SyntaxWarning)
                code = compile(src, filename, "exec")
        except (SyntaxError, RecursionError, MemoryError):
            self.errors.append(LangError("this text is too deeply nested to compile", pos))
            return lambda ctx, *a: None
        exec(code, self.env)
        return self.env[name]
