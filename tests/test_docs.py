"""docs/nordlang.md is generated from the grammar and the primitive
registry (`nord doc > docs/nordlang.md`); it must not drift from them."""

from pathlib import Path

from nordlang.engine.library import STD
from nordlang.lang.reference import reference

DOC = Path(__file__).resolve().parent.parent / "docs" / "nordlang.md"


def test_language_reference_is_up_to_date():
    assert DOC.read_text(encoding="utf-8") == reference() + "\n", "run: nord doc > docs/nordlang.md"


def test_every_primitive_has_a_doc_line_and_an_example():
    missing = [b.name for b in STD.items.values() if not b.doc or not b.example]
    assert not missing, missing


def test_every_example_parses():
    from nordlang.lang.parser import parse
    for b in STD.items.values():
        parse(b.example, "effects" if b.kind == "effect" else "expr")
