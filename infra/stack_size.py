#!/usr/bin/env python3
"""How many resources each stack of the generated templates holds after SAM's transform, which is
what CloudFormation counts against its quota of 500 resources a stack: the root template and each
nested stack it declares (AWS::CloudFormation::Stack with a local TemplateURL), each also as
Profile small and large have it. Exits 1 when a stack holds more than LIMIT, a margin under 500
for growth.

    python3 infra/stack_size.py              infra/template.yaml and its nested stacks
    python3 infra/stack_size.py ROOT.yaml    another root template, say an older one:
                                             git show main:infra/template.yaml > /tmp/t.yaml

SAM expands each AWS::Serverless::Function with AutoPublishAlias and DeploymentPreference into
the function, its role, a version, the alias, a CodeDeploy deployment group and a permission per
event: about six resources for one declared, so the declared count says little. The transform is
the real one (the samtranslator library of the AWS SAM CLI: `pip install aws-sam-translator`),
run offline as `sam validate` runs it: local code paths replaced by an S3 URI, no managed policy
looked up (the templates name none by name), the region us-east-1. CloudFormation counts every
resource of the template whether its Condition holds or not (the template is checked before the
parameters are), so the limit applies to the count after the transform; the profiles' counts
show what a stack of each holds.
"""

import copy
import logging
import os
import pathlib
import sys

from templates import HERE, NESTED_STACK, Stack, Tag, load_file

# CloudFormation's quota (resources a stack) and the most this project lets a stack hold.
QUOTA = 500
LIMIT = 450
PROFILES = ("small", "large")
FAKE_S3 = "s3://bucket/key"


def long_form(v):
    """`v` with each short-form tag (`Tag`) in the long JSON form the SAM translator reads:
    `!Ref X` as {"Ref": "X"}, `!GetAtt A.B` as {"Fn::GetAtt": ["A", "B"]}, `!Condition C` as
    {"Condition": "C"}, `!Name v` as {"Fn::Name": v}."""
    if isinstance(v, Tag):
        value = long_form(v.value)
        if v.name in ("Ref", "Condition"):
            return {v.name: value}
        if v.name == "GetAtt" and isinstance(value, str):
            value = value.split(".", 1)
        return {f"Fn::{v.name}": value}
    if isinstance(v, dict):
        return {k: long_form(x) for k, x in v.items()}
    if isinstance(v, list):
        return [long_form(x) for x in v]
    return v


def offline(doc):
    """The template as `sam validate` hands it to the translator: SAM's transform alone (the
    language extensions change no resource here), local code and layer paths as an S3 URI."""
    doc = copy.deepcopy(doc)
    transforms = doc.get("Transform", [])
    if "AWS::Serverless-2016-10-31" in (transforms if isinstance(transforms, list) else [transforms]):
        doc["Transform"] = "AWS::Serverless-2016-10-31"
    function = doc.get("Globals", {}).get("Function", {})
    if "CodeUri" in function:
        function["CodeUri"] = FAKE_S3
    for res in doc["Resources"].values():
        props = res.get("Properties", {})
        for key in ("CodeUri", "ContentUri", "DefinitionUri"):
            if isinstance(props.get(key), str) and not props[key].startswith("s3://"):
                props[key] = FAKE_S3
    return doc


def transformed(doc):
    """The resources of `doc` after SAM's transform (a template without SAM's resources comes
    out as it went in)."""
    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
    # Imported here so that --help and the error below work without the library.
    from samtranslator.translator.transform import transform

    class NoManagedPolicies:
        def load(self):
            return {}

    # The translator logs a line per function about a feature toggle it has no configuration for.
    logging.disable(logging.WARNING)
    return transform(long_form(offline(doc)), {}, NoManagedPolicies())


def truth(expr, conditions, params, memo):
    """A long-form condition expression's truth, parameters at `params`."""
    if isinstance(expr, dict) and len(expr) == 1:
        (op, args), = expr.items()
        if op == "Condition":
            if args not in memo:
                memo[args] = truth(conditions[args], conditions, params, memo)
            return memo[args]
        if op == "Fn::Equals":
            a, b = (params.get(x["Ref"]) if isinstance(x, dict) and "Ref" in x else x for x in args)
            return str(a) == str(b)
        if op == "Fn::Not":
            return not truth(args[0], conditions, params, memo)
        if op == "Fn::And":
            return all(truth(a, conditions, params, memo) for a in args)
        if op == "Fn::Or":
            return any(truth(a, conditions, params, memo) for a in args)
    raise ValueError(f"condition {expr!r}")


def held(template, params):
    """How many of `template`'s resources (transformed) a stack holds whose parameters are
    `params`."""
    conditions, memo = template.get("Conditions", {}), {}
    return sum(1 for res in template["Resources"].values()
               if "Condition" not in res or truth({"Condition": res["Condition"]}, conditions, params, memo))


def sizes(root_path):
    """[(stack, template path, declared, after the transform, {profile: held})], the root first,
    then each nested stack (depth first), each template transformed once."""
    root_path = pathlib.Path(root_path).resolve()
    out = []

    def visit(name, path, stacks):
        doc = load_file(path)
        template = transformed(doc)
        by_profile = {profile: held(template, stack.params) for profile, stack in stacks.items()}
        out.append((name, path, len(doc["Resources"]), len(template["Resources"]), by_profile))
        for lid, res in doc["Resources"].items():
            if res["Type"] == NESTED_STACK:
                child = path.parent / res["Properties"]["TemplateURL"]
                # A stack of a profile without this nested stack passes it no parameters.
                visit(lid, child, {p: s.nested[lid] for p, s in stacks.items() if lid in s.nested})

    visit("root", root_path, {profile: Stack(load_file(root_path), {"Profile": profile}, root_path.parent) for profile in PROFILES})
    return out


def shown(path):
    try:
        return str(path.relative_to(HERE.parent))
    except ValueError:
        return str(path)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    if "--help" in sys.argv[1:] or "-h" in sys.argv[1:]:
        print(__doc__)
        return
    try:
        import samtranslator  # noqa: F401
    except ImportError:
        sys.exit("infra/stack_size.py needs the SAM translator: pip install aws-sam-translator (or aws-sam-cli)")
    rows = sizes(args[0] if args else HERE / "template.yaml")
    print(f"{'stack (template)':<48} {'declared':>8} {'after SAM':>9} " + " ".join(f"{p:>6}" for p in PROFILES))
    over = []
    for name, path, declared, after, by_profile in rows:
        print(f"{name + ' (' + shown(path) + ')':<48} {declared:>8} {after:>9} " + " ".join(f"{by_profile.get(p, 0):>6}" for p in PROFILES))
        if after > LIMIT:
            over.append(f"{name} ({shown(path)}): {after} resources after SAM's transform, over {LIMIT} (CloudFormation's quota: {QUOTA})")
    print(f"limit {LIMIT} resources a stack after SAM's transform (CloudFormation's quota: {QUOTA})")
    for line in over:
        print(line, file=sys.stderr)
    sys.exit(1 if over else 0)


if __name__ == "__main__":
    main()
