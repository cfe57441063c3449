#!/usr/bin/env python3
"""Runs the SchemaMigration runner's inline code (from infra/template.yaml) against stand-ins for
boto3 and CloudFormation's response URL: migrate succeeding, failing, the database ahead of it
(a rollback), throttled then succeeding, and a Delete. Offline; `python3 infra/test_schema_migration.py`.
"""

import base64
import contextlib
import io
import json
import pathlib
import sys
import types

TEMPLATE = pathlib.Path(__file__).resolve().parent / "template.yaml"


def runner_code():
    text = TEMPLATE.read_text()
    block = text.split("        ZipFile: |\n", 1)[1].split("\n  SchemaMigrationRunnerLogs:", 1)[0]
    return "\n".join(line[10:] for line in block.splitlines())


class Throttled(Exception):
    pass


class Conflict(Exception):
    pass


def load(outcomes, sent):
    """The runner module with boto3 answering `outcomes` in turn and PUTs recorded in `sent`."""
    calls = []

    class Lambda:
        exceptions = types.SimpleNamespace(TooManyRequestsException=Throttled, ResourceConflictException=Conflict)

        def invoke(self, **kw):
            calls.append(kw)
            o = outcomes.pop(0)
            if isinstance(o, Exception):
                raise o
            error, body, log = o
            r = {"Payload": io.BytesIO(body.encode()), "LogResult": base64.b64encode(log.encode()).decode()}
            if error:
                r["FunctionError"] = "Unhandled"
            return r

    boto3 = types.ModuleType("boto3")
    boto3.client = lambda name, config=None: Lambda()
    botocore = types.ModuleType("botocore")
    config = types.ModuleType("botocore.config")
    config.Config = lambda **kw: kw
    sys.modules.update({"boto3": boto3, "botocore": botocore, "botocore.config": config})
    module = types.ModuleType("index")
    exec(compile(runner_code(), "index.py", "exec"), module.__dict__)
    clock = [0.0]
    module.time = types.SimpleNamespace(time=lambda: clock[0], sleep=lambda s: clock.__setitem__(0, clock[0] + s))
    module.urllib.request.urlopen = lambda req, timeout: sent.append(json.loads(req.data))
    return module, calls


def run(request_type, outcomes):
    sent = []
    module, calls = load(list(outcomes), sent)
    event = {
        "RequestType": request_type, "ResourceProperties": {"MigrateVersion": "arn:migrate:7"},
        "StackId": "s", "RequestId": "r", "LogicalResourceId": "SchemaMigration", "ResponseURL": "https://response",
    }
    with contextlib.redirect_stdout(io.StringIO()):
        module.handler(event, types.SimpleNamespace(log_group_name="/aws/lambda/x"))
    assert len(sent) == 1, sent
    return sent[0]["Status"], calls


def main():
    ok = (False, '{"applied":[1,2,3,4,5,6,7]}', "")
    failed = (True, '{"errorMessage":"migration failed"}', 'ERROR {"error":"Migrate(Execute(Database(...)))"}')
    ahead = (True, '{"errorMessage":"migration failed"}', 'ERROR {"error":"Migrate(VersionMissing(8))"}')
    assert run("Create", [ok]) == ("SUCCESS", [{"FunctionName": "arn:migrate:7", "Payload": b"{}", "LogType": "Tail"}])
    assert run("Update", [ahead])[0] == "SUCCESS"
    assert run("Update", [Throttled(), Conflict(), ok])[0] == "SUCCESS"
    # A migration that keeps failing: retried every 20 s for 10 minutes, then the deploy fails.
    status, calls = run("Update", [failed] * 31)
    assert (status, len(calls)) == ("FAILED", 30), (status, len(calls))
    assert run("Update", [failed, failed, ok])[0] == "SUCCESS"
    assert run("Delete", []) == ("SUCCESS", [])
    print("schema migration runner: 6 cases ok")


if __name__ == "__main__":
    main()
