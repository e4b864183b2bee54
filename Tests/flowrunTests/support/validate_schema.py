#!/usr/bin/env python3
"""Validate flowrun files against one of flowrun's JSON Schemas (workflow, mock or test).

Usage: validate_schema.py SCHEMA FILE...

The other `*.schema.json` files in the schema's folder are registered by their
`$id`, so a relative `$ref` from one schema to another (the test schema's stubs
are the mock schema's) resolves offline, as it does for yaml-language-server.

Prints one line per file, `OK path` or `INVALID path: <message> at <where>`,
and exits 0 when every file is valid, 1 when any is invalid, and 2 on a usage
error, a missing Python module or a file that cannot be read.

Files are read the way flowrun reads them, not the way a YAML 1.1 loader
(PyYAML) does: plain scalars resolve by the YAML 1.2 core schema (`no`, `on`,
`yes` are strings; `1_000` and `2024-01-01` are strings), mapping keys are
their text (`200:` is the key "200"), `<<` merges mappings, and a duplicate
key, a second document or an unknown tag is an error (a test file's matcher
tags, such as `!anystr`, are read as their text). ruamel.yaml supplies the
parser events; the tree is built here so that no ruamel resolver decides a
scalar's type.
"""

import json
import os
import re
import sys

USAGE = "usage: validate_schema.py SCHEMA FILE..."
PIP = "python3 -m pip install ruamel.yaml jsonschema"

try:
    from ruamel.yaml import YAML
    from ruamel.yaml import events
    from ruamel.yaml.error import YAMLError
    import jsonschema
    from referencing import Registry, Resource
except ImportError as error:  # pragma: no cover - depends on the machine
    module = "ruamel.yaml" if (error.name or "").startswith("ruamel") else error.name
    print(f"validate_schema.py: missing Python module '{module}'; install it with: {PIP}", file=sys.stderr)
    sys.exit(2)

# The limit flowrun's loader puts on nodes, aliases counted with what they copy: an alias bomb would
# otherwise make validation walk an exponentially large tree.
MAX_NODES = 1_000_000

RELEVANCE = jsonschema.exceptions.relevance

# The local tags the file format accepts, set by main(): a test file's matchers (docs/testing-workflows.md).
LOCAL_TAGS = frozenset()
TEST_MATCHER_TAGS = frozenset(("!anystr", "!anynumber", "!anybool", "!present", "!absent", "!re_match", "!same"))

# The schema's pattern for strings that may hold runtime expressions, set by main(): its mismatches are
# reported in words, not as a regular expression of several hundred characters.
TEMPLATE_PATTERN = None
TEMPLATE_HELP = (
    "a string that starts with '$' must be one runtime expression ($inputs.x, $vars.x, $env.NAME, "
    "$steps.<id>.outputs.<name>, $response.body#/pointer, $response.header.Name, $statusCode), "
    "an expression inside text is written {$...}, and '$$' writes a literal '$'"
)

STR, INT, FLOAT, BOOL, NULL = (f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null"))
MAP, SEQ = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"

# YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1032-tag-resolution).
NULL_RE = re.compile(r"(?:~|null|Null|NULL|)\Z")
BOOL_RE = re.compile(r"(?:true|True|TRUE|false|False|FALSE)\Z")
INT10_RE = re.compile(r"[-+]?[0-9]+\Z")
INT8_RE = re.compile(r"0o[0-7]+\Z")
INT16_RE = re.compile(r"0x[0-9a-fA-F]+\Z")
FLOAT_RE = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
INF_RE = re.compile(r"[-+]?\.(?:inf|Inf|INF)\Z")
NAN_RE = re.compile(r"\.(?:nan|NaN|NAN)\Z")
INT64 = range(-(2**63), 2**63)


class LoadError(Exception):
    """A file that is not a well-formed flowrun YAML document."""

    def __init__(self, message, mark=None):
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        super().__init__(message + where)


def resolve(text, tag):
    """`(True, value)` when the text is a value of `tag` under the core schema, else `(False, None)`."""
    if tag == STR:
        return True, text
    if tag == NULL:
        return (True, None) if NULL_RE.match(text) else (False, None)
    if tag == BOOL:
        return (True, text.lower() == "true") if BOOL_RE.match(text) else (False, None)
    if tag == INT:
        if INT10_RE.match(text):
            return True, int(text, 10)
        if INT8_RE.match(text):
            return True, int(text[2:], 8)
        if INT16_RE.match(text):
            return True, int(text[2:], 16)
        return False, None
    if tag == FLOAT:
        if FLOAT_RE.match(text):
            return True, float(text)
        if INF_RE.match(text):
            return True, float("-inf" if text.startswith("-") else "inf")
        if NAN_RE.match(text):
            return True, float("nan")
        return False, None
    return False, None


def plain_scalar(text):
    """Resolves an untagged plain scalar as flowrun does; a decimal beyond 64 bits becomes a float."""
    for tag in (NULL, BOOL, INT, FLOAT):
        matched, value = resolve(text, tag)
        if matched:
            if tag == INT and value not in INT64:
                return float(value) if INT10_RE.match(text) else text
            return value
    return text


def scalar(event):
    """The value of a scalar event."""
    tag = event.tag
    if tag is None:
        return plain_scalar(event.value) if event.style is None else event.value
    if tag == "!":
        return event.value
    if tag in LOCAL_TAGS:
        return event.value  # A matcher of a test file: the schema sees its argument's text, a string.
    if tag not in (STR, INT, FLOAT, BOOL, NULL):
        raise LoadError(f"unknown tag '{tag}'", event.start_mark)
    matched, value = resolve(event.value, tag)
    if not matched:
        raise LoadError(f"'{event.value}' is not a valid {tag.rsplit(':', 1)[-1]}", event.start_mark)
    return value


class Collection:
    """A mapping or sequence being built."""

    def __init__(self, kind, anchor, mark):
        self.kind = kind
        self.anchor = anchor
        self.mark = mark
        self.items = [] if kind == "seq" else {}
        self.key = None  # The pending key of a mapping: (text, mark), or MERGE.
        self.merged = []  # Mappings that `<<` brings in, in precedence order.
        self.nodes = 1


MERGE = object()


def load(text):
    """Builds the document of `text` as JSON-compatible Python values."""
    anchors = {}  # name -> (value, node count)
    stack = []
    root = None
    documents = 0
    total = 0

    def count(nodes, mark):
        nonlocal total
        total += nodes
        if total > MAX_NODES:
            raise LoadError(f"the document expands beyond {MAX_NODES} nodes", mark)

    def add(value, nodes, mark, key=None):
        nonlocal root
        if not stack:
            root = value
            return
        parent = stack[-1]
        parent.nodes += nodes
        if parent.kind == "seq":
            parent.items.append(value)
        elif parent.key is None:
            if key is None:
                raise LoadError("a mapping key must be a scalar", mark)
            parent.key = key
        elif parent.key is MERGE:
            sources = value if isinstance(value, list) else [value]
            if not all(isinstance(source, dict) for source in sources):
                raise LoadError("'<<' merges a mapping or a sequence of mappings", mark)
            parent.merged.extend(sources)
            parent.key = None
        else:
            name, key_mark = parent.key
            if name in parent.items:
                raise LoadError(f"duplicate key '{name}'", key_mark)
            parent.items[name] = value
            parent.key = None

    for event in YAML(typ="safe", pure=True).parse(text):
        if isinstance(event, events.DocumentStartEvent):
            documents += 1
            if documents > 1:
                raise LoadError("a flowrun file holds one YAML document; found a second one", event.start_mark)
        elif isinstance(event, events.ScalarEvent):
            count(1, event.start_mark)
            value = scalar(event)
            if stack and stack[-1].kind == "map" and stack[-1].key is None:
                if event.tag is None and event.style is None and event.value == "<<":
                    stack[-1].key = MERGE
                    continue
                key = (event.value, event.start_mark)
            else:
                key = None
            if event.anchor:
                anchors[event.anchor] = (value, 1)
            add(value, 1, event.start_mark, key)
        elif isinstance(event, (events.MappingStartEvent, events.SequenceStartEvent)):
            kind = "map" if isinstance(event, events.MappingStartEvent) else "seq"
            if event.tag not in (None, "!", MAP if kind == "map" else SEQ):
                raise LoadError(f"the tag '{event.tag}' cannot be applied to a {kind}", event.start_mark)
            count(1, event.start_mark)
            stack.append(Collection(kind, event.anchor, event.start_mark))
        elif isinstance(event, (events.MappingEndEvent, events.SequenceEndEvent)):
            done = stack.pop()
            value = done.items
            if done.kind == "map":
                for source in done.merged:
                    for name, member in source.items():
                        value.setdefault(name, member)
            if done.anchor:
                anchors[done.anchor] = (value, done.nodes)
            add(value, done.nodes, done.mark)
        elif isinstance(event, events.AliasEvent):
            if event.anchor not in anchors:
                raise LoadError(f"undefined alias '*{event.anchor}'", event.start_mark)
            value, nodes = anchors[event.anchor]
            count(nodes, event.start_mark)
            key = None
            if stack and stack[-1].kind == "map" and stack[-1].key is None:
                if not isinstance(value, (str, int, float, bool)) and value is not None:
                    raise LoadError("a mapping key must be a scalar", event.start_mark)
                key = (value if isinstance(value, str) else json.dumps(value), event.start_mark)
            add(value, nodes, event.start_mark, key)
    return root


def kind_keys(branch):
    """The keys that choose a `oneOf` branch: its required keys, or those its `anyOf` alternatives require."""
    keys = list(branch.get("required", []))
    for alternative in branch.get("anyOf", []):
        keys += [key for key in alternative.get("required", []) if key not in keys]
    return keys


def describe(error):
    """The error to report and its message.

    jsonschema's own best_match descends into the first alternatives of a `oneOf` or `anyOf`, which for an
    interceptor with a typo reports a problem with the 'headers' kind. Here a `oneOf` whose branches are chosen
    by a key (interceptor kinds, catch actions) is explained by the branch the mapping chose, or by its choosing
    none or several; other alternatives are explained by those that expect the value's type.
    """
    if error.validator == "pattern" and error.validator_value == TEMPLATE_PATTERN:
        return error, f"{error.instance!r} is not a valid template: {TEMPLATE_HELP}"
    if error.validator == "pattern" and "title" in error.schema:
        # The mock and test schemas title their patterns: a path pattern's regular expression explains nothing.
        return error, f"{error.instance!r} is not a valid {error.schema['title'].lower()}: {error.schema.get('description', '')}"
    if error.validator == "not" and list(error.validator_value) == ["required"]:
        return error, f"{' and '.join(map(repr, error.validator_value['required']))} cannot be used together"
    branches = [kind_keys(branch) for branch in error.validator_value] if error.validator == "oneOf" else []
    if branches and all(branches) and isinstance(error.instance, dict):
        chosen = [index for index, keys in enumerate(branches) if any(key in error.instance for key in keys)]
        choices = ", ".join(keys[0] for keys in branches)
        if not chosen:
            return error, f"expected one of the keys {choices}"
        if len(chosen) > 1:
            found = " and ".join(f"'{branches[index][0]}'" for index in chosen)
            return error, f"found {found}; exactly one of {choices} is allowed"
        inner = [sub for sub in error.context if sub.relative_schema_path[0] == chosen[0]]
        return describe(max(inner, key=RELEVANCE)) if inner else (error, error.message)
    if error.context:
        wrong_type = {sub.relative_schema_path[0] for sub in error.context
                      if sub.validator == "type" and not sub.relative_path}
        others = [sub for sub in error.context if sub.relative_schema_path[0] not in wrong_type]
        if others:
            return describe(max(others, key=RELEVANCE))
        expected = []
        for sub in error.context:
            for name in sub.validator_value if isinstance(sub.validator_value, list) else [sub.validator_value]:
                if name not in expected:
                    expected.append(name)
        return error, f"{error.instance!r} is not of type {' or '.join(map(repr, expected))}"
    return error, error.message


def sibling_schemas(path):
    """A registry of the `*.schema.json` files next to `path`, by their `$id`."""
    folder = os.path.dirname(os.path.abspath(path))
    resources = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".schema.json"):
            with open(os.path.join(folder, name), encoding="utf-8") as file:
                contents = json.load(file)
            if "$id" in contents:
                resources.append((contents["$id"], Resource.from_contents(contents)))
    return Registry().with_resources(resources)


def main(argv):
    if len(argv) < 3:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as file:
            schema = json.load(file)
        jsonschema.Draft202012Validator.check_schema(schema)
        registry = sibling_schemas(argv[1])
    except (OSError, ValueError, jsonschema.SchemaError) as error:
        print(f"validate_schema.py: cannot use the schema {argv[1]}: {error}", file=sys.stderr)
        return 2
    global TEMPLATE_PATTERN
    TEMPLATE_PATTERN = schema.get("$defs", {}).get("template", {}).get("pattern")
    # The format version key ('flowrun', 'flowrun-mock', 'flowrun-test') is the first required key.
    version_key = (schema.get("required") or ["flowrun"])[0]
    global LOCAL_TAGS
    LOCAL_TAGS = TEST_MATCHER_TAGS if version_key == "flowrun-test" else frozenset()
    validator = jsonschema.Draft202012Validator(schema, registry=registry)  # No format checker: formats are hints in flowrun.

    status = 0
    for path in argv[2:]:
        try:
            with open(path, encoding="utf-8") as file:
                text = file.read()
        except (OSError, UnicodeDecodeError) as error:
            print(f"INVALID {path}: cannot read the file: {error}")
            status = 2
            continue
        try:
            document = load(text)
        except YAMLError as error:
            mark = getattr(error, "problem_mark", None)
            problem = getattr(error, "problem", None) or str(error)
            print(f"INVALID {path}: {LoadError(f'invalid YAML: {problem}', mark)}")
            status = max(status, 1)
            continue
        except LoadError as error:
            print(f"INVALID {path}: {error}")
            status = max(status, 1)
            continue
        if document is None:
            print(f"INVALID {path}: the file is empty; expected a mapping that starts with '{version_key}: 1'")
            status = max(status, 1)
            continue
        errors = list(validator.iter_errors(document))
        if not errors:
            print(f"OK {path}")
        else:
            error, message = describe(max(errors, key=RELEVANCE))
            print(f"INVALID {path}: {message} at {error.json_path}")
            status = max(status, 1)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
