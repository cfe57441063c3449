"""The templates infra/generate.py writes, as data: a reader for their YAML (the subset the
generator writes, CloudFormation's short tags as `Tag`s), and `Stack`, one stack of them with a
Profile's Conditions resolved, its nested stacks (AWS::CloudFormation::Stack with a local
TemplateURL) read and resolved with the parameters it passes them. Standard library only; used by
infra/cost.py and infra/stack_size.py.
"""

import json
import pathlib
import re

HERE = pathlib.Path(__file__).resolve().parent

# --- A reader for the YAML that infra/generate.py writes: block mappings and sequences, flow
# collections on one line, quoted and plain scalars, CloudFormation's short tags, block scalars.
# It refuses what it does not know rather than guess. ---

class Tag:
    """A short-form intrinsic: `!Ref X` is Tag("Ref", "X")."""

    def __init__(self, name, value):
        self.name, self.value = name, value

    def __repr__(self):
        return f"!{self.name} {self.value!r}"


NO_VALUE = object()


def scalar(text):
    """A plain or quoted scalar's value: bools, numbers and strings."""
    if text.startswith('"'):
        return json.loads(text)
    if text.startswith("'"):
        return text[1:-1].replace("''", "'")
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if re.fullmatch(r"-?\d+\.\d+", text):
        return float(text)
    return text


class Flow:
    """One line's flow value: `[a, !Ref b]`, `{ K: v }`, a tagged or plain scalar."""

    def __init__(self, text):
        self.s, self.i = text, 0

    def parse(self):
        value = self.value()
        self.space()
        if self.i != len(self.s):
            raise ValueError(f"unread text in {self.s!r} at {self.i}")
        return value

    def space(self):
        while self.i < len(self.s) and self.s[self.i] == " ":
            self.i += 1

    def value(self):
        self.space()
        c = self.s[self.i] if self.i < len(self.s) else ""
        if c == "!":
            end = self.i
            while end < len(self.s) and self.s[end] not in " ,]}":
                end += 1
            name, self.i = self.s[self.i + 1:end], end
            self.space()
            if self.i >= len(self.s) or self.s[self.i] in ",]}":
                return Tag(name, None)
            return Tag(name, self.value())
        if c == "[":
            self.i += 1
            items = []
            while True:
                self.space()
                if self.s[self.i] == "]":
                    self.i += 1
                    return items
                items.append(self.value())
                self.space()
                if self.s[self.i] == ",":
                    self.i += 1
        if c == "{":
            self.i += 1
            items = {}
            while True:
                self.space()
                if self.s[self.i] == "}":
                    self.i += 1
                    return items
                key = self.value()
                self.space()
                if self.s[self.i] != ":":
                    raise ValueError(f"no ':' in {self.s!r} at {self.i}")
                self.i += 1
                items[key] = self.value()
                self.space()
                if self.s[self.i] == ",":
                    self.i += 1
        if c in "\"'":
            end = self.i + 1
            while True:
                if self.s[end] == "\\" and c == '"':
                    end += 2
                    continue
                if self.s[end] == c:
                    if c == "'" and end + 1 < len(self.s) and self.s[end + 1] == "'":
                        end += 2
                        continue
                    break
                end += 1
            text, self.i = self.s[self.i:end + 1], end + 1
            return scalar(text)
        end = self.i
        depth_stop = " ,]}:" if self.in_flow() else ""
        while end < len(self.s) and (not depth_stop or self.s[end] not in ",]}") and not (
                depth_stop and self.s[end] == ":" and (end + 1 == len(self.s) or self.s[end + 1] == " ")):
            end += 1
        text, self.i = self.s[self.i:end].rstrip(), end
        return scalar(text)

    def in_flow(self):
        """Whether the reader is inside a flow collection (where , ] } end a plain scalar)."""
        depth = 0
        quote = None
        for c in self.s[:self.i]:
            if quote:
                quote = None if c == quote else quote
            elif c in "\"'":
                quote = c
            elif c in "[{":
                depth += 1
            elif c in "]}":
                depth -= 1
        return depth > 0


def split_key(content):
    """`key: rest` or `key:` split at the first top-level colon, else None (not a mapping entry)."""
    if content[0] in "[{!":
        return None
    if content[0] in "\"'":
        end = content.index(content[0], 1)
        if content[end + 1:end + 2] != ":":
            return None
        return scalar(content[:end + 1]), content[end + 2:].strip()
    m = re.match(r"([^\s:][^:]*?(?:::[^:]+?)*):(?: (.*)|$)", content)
    if not m:
        return None
    return m.group(1), (m.group(2) or "").strip()


class Block:
    """The block structure of the template, by indentation."""

    def __init__(self, text):
        self.lines = text.split("\n")
        self.i = 0

    def next(self):
        """The next line that is not blank or a comment: (index, indent, content), or None."""
        j = self.i
        while j < len(self.lines):
            raw = self.lines[j]
            stripped = raw.strip()
            if stripped and not stripped.startswith("#"):
                return j, len(raw) - len(raw.lstrip(" ")), stripped
            j += 1
        return None

    def node(self, indent):
        """The block node whose lines are indented at least `indent`."""
        line = self.next()
        if line is None or line[1] < indent:
            return None
        if line[2].startswith("- ") or line[2] == "-":
            return self.sequence(line[1])
        return self.mapping(line[1])

    def mapping(self, indent, first=None):
        out = {}
        while True:
            if first is not None:
                content, first = first, None
            else:
                line = self.next()
                if line is None or line[1] != indent or line[2].startswith("- "):
                    return out
                self.i = line[0] + 1
                content = line[2]
            kv = split_key(content)
            if kv is None:
                raise ValueError(f"line {self.i}: not a mapping entry: {content!r}")
            key, rest = kv
            out[key] = self.value_after(rest, indent)

    def value_after(self, rest, indent):
        """The value of an entry whose text after the colon (or the dash) is `rest`."""
        if rest in ("|", "|-", ">", ">-"):
            return self.block_scalar(indent, folded=rest.startswith(">"))
        if rest == "":
            line = self.next()
            if line and line[1] == indent and line[2].startswith("- "):
                return self.sequence(indent)
            return self.node(indent + 1)
        if re.fullmatch(r"!\w+", rest):
            return Tag(rest[1:], self.node(indent + 1))
        return Flow(rest).parse()

    def sequence(self, indent):
        out = []
        while True:
            line = self.next()
            if line is None or line[1] != indent or not (line[2].startswith("- ") or line[2] == "-"):
                return out
            self.i = line[0] + 1
            rest = line[2][2:].strip() if line[2] != "-" else ""
            if rest and split_key(rest) is not None:
                out.append(self.mapping(indent + 2, first=rest))
            else:
                out.append(self.value_after(rest, indent))

    def block_scalar(self, indent, folded):
        lines = []
        while self.i < len(self.lines):
            raw = self.lines[self.i]
            if raw.strip() and len(raw) - len(raw.lstrip(" ")) <= indent:
                break
            lines.append(raw)
            self.i += 1
        while lines and not lines[-1].strip():
            lines.pop()
        cut = min((len(x) - len(x.lstrip(" ")) for x in lines if x.strip()), default=0)
        text = [x[cut:] for x in lines]
        return (" ".join(text) if folded else "\n".join(text)) + "\n"


def load(text):
    """The template as dicts, lists, scalars and Tags."""
    block = Block(text)
    doc = block.node(0)
    if block.next() is not None:
        raise ValueError(f"line {block.next()[0] + 1}: not read")
    return doc


def load_file(path):
    """The template at `path`."""
    return load(pathlib.Path(path).read_text(encoding="utf-8"))


# --- One profile's stack: the template with its Conditions resolved. ---

NESTED_STACK = "AWS::CloudFormation::Stack"


class Stack:
    """The resources of the template `doc` for `overrides` (parameter values; the rest at their
    defaults), every Fn::If and Condition resolved; `nested`, by logical id, the stacks of its
    AWS::CloudFormation::Stack resources, each read from its TemplateURL (a path from `where`, the
    template's directory) with the parameters this stack passes it."""

    def __init__(self, doc, overrides, where=HERE):
        self.params = {k: overrides.get(k, v.get("Default")) for k, v in doc.get("Parameters", {}).items()}
        self.conditions = {}
        self.raw_conditions = doc.get("Conditions", {})
        for name in self.raw_conditions:
            self.condition(name)
        self.globals = self.resolve(doc.get("Globals", {}).get("Function", {}))
        self.resources = {}
        self.nested = {}
        for lid, res in doc["Resources"].items():
            if "Condition" in res and not self.condition(res["Condition"]):
                continue
            self.resources[lid] = self.resolve(res)
            if res["Type"] == NESTED_STACK:
                props = self.resources[lid]["Properties"]
                path = pathlib.Path(where) / props["TemplateURL"]
                self.nested[lid] = Stack(load_file(path), props.get("Parameters", {}), path.parent)

    def everything(self):
        """This stack's resources and its nested stacks', by logical id (infra/generate.py keeps
        the ids unique across the templates)."""
        out = dict(self.resources)
        for stack in self.nested.values():
            for lid, res in stack.everything().items():
                if lid in out:
                    raise ValueError(f"{lid} in two stacks")
                out[lid] = res
        return out

    def condition(self, name):
        if name not in self.conditions:
            self.conditions[name] = bool(self.evaluate(self.raw_conditions[name]))
        return self.conditions[name]

    def evaluate(self, v):
        """A condition expression's value."""
        if isinstance(v, Tag):
            args = v.value
            if v.name == "Equals":
                return str(self.evaluate(args[0])) == str(self.evaluate(args[1]))
            if v.name == "Not":
                return not self.evaluate(args[0])
            if v.name == "And":
                return all(self.evaluate(a) for a in args)
            if v.name == "Or":
                return any(self.evaluate(a) for a in args)
            if v.name == "Condition":
                return self.condition(args)
            if v.name == "Ref":
                return self.params[args]
            raise ValueError(f"condition {v!r}")
        return v

    def resolve(self, v):
        """`v` with every !If chosen, parameters and AWS::NoValue in place of their !Ref."""
        if isinstance(v, Tag):
            if v.name == "If":
                cond, a, b = v.value
                return self.resolve(a if self.condition(cond) else b)
            if v.name == "Ref" and v.value == "AWS::NoValue":
                return NO_VALUE
            if v.name == "Ref" and v.value in self.params:
                return self.params[v.value]
            return Tag(v.name, self.resolve(v.value))
        if isinstance(v, dict):
            out = {k: self.resolve(x) for k, x in v.items()}
            return {k: x for k, x in out.items() if x is not NO_VALUE}
        if isinstance(v, list):
            return [x for x in (self.resolve(y) for y in v) if x is not NO_VALUE]
        return v

    def of_type(self, kind):
        """The resources of type `kind`, nested stacks' included."""
        return {lid: r for lid, r in self.everything().items() if r["Type"] == kind}
