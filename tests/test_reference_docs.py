"""The authoring reference (docs/rulebook-format.md, docs/scenario-format.md)
is generated from the JSON Schemas and the bundled files: it must not drift
from them, every key a schema accepts needs a description and appears in it,
and every kind of step and patch operation is documented."""

import copy
import inspect
import re
from pathlib import Path

import pytest

from nordlang.cli import main
from nordlang.rules import format_reference, overlay, schemadoc
from nordlang.rules.model import Rules
from nordlang.rules.schema import _STEP_KINDS, schema
from nordlang.scenario import reference as scenario_reference

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
GENERATED = {"rulebook": (format_reference, "rulebook-format.md"),
             "scenario": (scenario_reference, "scenario-format.md")}


@pytest.mark.parametrize("topic", sorted(GENERATED))
def test_committed_reference_is_the_generators_output(topic, capsys):
    module, name = GENERATED[topic]
    text = module.reference()
    assert (DOCS / name).read_text(encoding="utf-8") == text + "\n", f"run: nord doc {topic} > docs/{name}"
    assert main(["doc", topic]) == 0
    assert capsys.readouterr().out == text + "\n"


def test_doc_without_a_topic_is_the_language_reference(capsys):
    assert main(["doc"]) == 0
    assert capsys.readouterr().out == (DOCS / "nordlang.md").read_text(encoding="utf-8")


def test_an_unknown_topic_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as e:
        main(["doc", "rulebooks"])
    assert e.value.code == 2
    assert "invalid choice: 'rulebooks' (choose from 'language', 'rulebook', 'scenario')" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["rulebook", "scenario"])
def test_every_schema_key_has_a_description(name):
    assert schemadoc.undocumented(schema(name)) == []


def test_a_key_without_a_description_is_found_wherever_it_is():
    s = copy.deepcopy(schema("rulebook"))
    s["properties"]["zones"]["additionalProperties"]["properties"]["capacity"] = {"type": "integer"}
    s["properties"]["result"]["properties"]["margin"] = {"type": "string"}
    choose = next(a for a in s["$defs"]["step"]["oneOf"] if a["required"] == ["choose"])
    choose["properties"]["timeout"] = {"type": "integer"}
    s["$defs"]["board"]["properties"]["wrap"] = {"type": "boolean"}
    s["properties"]["extra"] = {"type": "object", "patternProperties": {"^x_": {"type": "string"}}}
    assert schemadoc.undocumented(s) == ["zones.<name>.capacity", "result.margin", "extra", "extra.^x_",
                                         "choose.timeout", "board.wrap"]
    sc = copy.deepcopy(schema("scenario"))
    sc["$defs"]["expect"]["properties"]["events"] = {"type": "array"}
    assert schemadoc.undocumented(sc) == ["expect.events"]


def _headings(text):
    return set(re.findall(r"^#+ `([^`]+)`", text, re.M))


@pytest.mark.parametrize("topic", sorted(GENERATED))
def test_every_schema_key_appears_in_the_reference(topic):
    heads = _headings((DOCS / GENERATED[topic][1]).read_text(encoding="utf-8"))
    missing = [schemadoc.path_text(k.path) for k in schemadoc.keys(schema(topic))
               if schemadoc.path_text(k.path) not in heads]
    assert missing == []


def test_a_key_another_schema_gains_appears_with_its_description():
    s = copy.deepcopy(schema("rulebook"))
    choose = next(a for a in s["$defs"]["step"]["oneOf"] if a["required"] == ["choose"])
    choose["properties"]["stop"] = {"type": "boolean", "description": "ask even when one option is left"}
    s["properties"]["zones"]["additionalProperties"]["properties"]["hidden"] = {
        "type": "boolean", "description": "its contents are secret"}
    text = format_reference.reference(s)
    assert "#### `choose.stop`\n\nAsk even when one option is left.\n\n- type: true/false\n- optional\n" in text
    assert "#### `zones.<name>.hidden`\n\nIts contents are secret.\n\n- type: true/false\n- optional\n" in text
    sc = copy.deepcopy(schema("scenario"))
    sc["$defs"]["expect"]["properties"]["moves"] = {"type": "integer", "minimum": 0,
                                                    "description": "how many moves are legal"}
    text = scenario_reference.reference(sc)
    assert "### `expect.moves`\n\nHow many moves are legal.\n\n- type: whole number\n- optional\n- at least 0" \
        in text


def test_every_step_kind_the_model_accepts_is_documented():
    kinds = format_reference.step_kinds(schema("rulebook"))
    compiled = set(re.findall(r'"(\w+)" in st\b', inspect.getsource(Rules.steps)))
    assert set(kinds) == compiled == set(_STEP_KINDS)
    text = (DOCS / "rulebook-format.md").read_text(encoding="utf-8")
    for kind in kinds:
        assert f"\n### `{kind}`\n\n{format_reference.STEP_PROSE[kind].split(chr(10))[0]}" in text
    for key in ("from", "options", "optional", "by", "lookahead", "exists", "id", "otherwise", "prompt", "note"):
        assert f"#### `choose.{key}`" in text


def test_every_patch_operation_is_documented_with_a_bundled_example():
    text = (DOCS / "rulebook-format.md").read_text(encoding="utf-8")
    for op in overlay._OPS:
        part = text.split(f"#### `{op}`", 1)[1].split("\n#### ", 1)[0]
        assert re.search(rf"From `variants/[^`]+`, line \d+:\n\n```yaml\n- {op}: ", part), op


@pytest.mark.parametrize("name", ["rulebook-format.md", "scenario-format.md"])
def test_every_example_is_quoted_from_its_file_at_its_line(name):
    text = (DOCS / name).read_text(encoding="utf-8")
    quotes = re.findall(r"From `([^`]+)`, line (\d+):\n\n```yaml\n(.*?)\n```", text, re.S)
    assert len(quotes) > 20
    for file, line, body in quotes:
        lines = (ROOT / file).read_text(encoding="utf-8").splitlines()
        first = body.split("\n")[0]
        assert first.removeprefix("- ").strip() in lines[int(line) - 1], (file, line, first)
        for q in body.split("\n")[1:]:
            if not q.strip().startswith("# ..."):
                assert q.strip() in (x.strip() for x in lines), (file, q)


def test_the_nord_rulings_point_at_files_and_names_that_exist():
    text = (DOCS / "nord-rulings.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:rulebook|variants)/nord/[a-z0-9/-]+\.yaml)`", text))
    assert named and all((ROOT / n).is_file() for n in named), named
    with_rulings = {f.relative_to(ROOT).as_posix() for f in (ROOT / "rulebook" / "nord").glob("*.yaml")
                    if "RULING" in f.read_text(encoding="utf-8") and f.name != "nord.yaml"}
    assert with_rulings <= named, with_rulings - named
    # each name given beside a file, `(file, name ...)`, is in that file
    cited = re.findall(r"\(`((?:rulebook|variants)/nord/[a-z0-9/-]+\.yaml)`([^()]*)\)", text)
    assert len(cited) > 20
    for file, rest in cited:
        own = re.split(r"`(?:rulebook|variants)/", rest)[0]
        for name in re.findall(r"`([^`]+)`", own):
            assert name in (ROOT / file).read_text(encoding="utf-8"), (file, name)


def test_the_readme_and_docs_point_only_inside_the_repository():
    pages = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "shared/" not in text and "RULINGS.md" not in text and "/work/" not in text, page.name
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if target.startswith(("http://", "https://", "#")):
                continue
            path = (page.parent / target.split("#")[0]).resolve()
            assert path.exists() and ROOT in path.parents, (page.name, target)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in ("nord-rulings.md", "rulebook-format.md", "scenario-format.md"):
        assert f"](docs/{name})" in readme
    assert "shared/" not in (ROOT / "rulebook" / "nord" / "nord.yaml").read_text(encoding="utf-8")
