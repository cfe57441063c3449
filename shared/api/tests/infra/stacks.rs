//! The stacks the templates make: the root (infra/template.yaml) and its nested stacks
//! FunctionLogs and FunctionAlarms, which hold each function's log group, metric filters and
//! alarms so that no stack passes CloudFormation's quota of 500 resources after SAM's transform
//! (one stack held 734). Each nested stack is one infra/generate.py writes, is given the root's
//! name and Profile, and is checked and counted in CI like the root.

use super::*;

#[test]
fn the_nested_stacks_are_the_generators_and_take_the_roots_name_and_profile() {
    let doc = template();
    let written = std::process::Command::new("python3")
        .args(["infra/generate.py", "--list"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output();
    let listed: Vec<String> = match written {
        Ok(out) if out.status.success() => String::from_utf8(out.stdout).unwrap().lines().map(str::to_string).collect(),
        Ok(out) => panic!("python3 infra/generate.py --list: {}", String::from_utf8_lossy(&out.stderr)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!("python3 not found: infra/generate.py --list not run");
            Vec::new()
        }
        Err(e) => panic!("python3 infra/generate.py --list: {e}"),
    };
    let nested = nested_stacks(&doc);
    assert_eq!(nested.iter().map(|(id, _)| id.as_str()).collect::<Vec<_>>(), ["FunctionLogs", "FunctionAlarms"]);
    for (id, template) in &nested {
        let stack = &doc["Resources"][id.as_str()];
        let url = stack["Properties"]["TemplateURL"].as_str().unwrap();
        if !listed.is_empty() {
            assert!(listed.contains(&format!("infra/{url}")), "{id}: infra/{url} is not one infra/generate.py writes: {listed:?}");
        }
        // Unconditional: both profiles hold both stacks (a switch only changes their parameters).
        assert!(stack["Condition"].is_null(), "{id}");
        // The root's name, by which the nested stack names the functions, their log groups, the
        // metrics' namespace and the canaries' alarms (its own AWS::StackName is another name).
        let passed = stack["Properties"]["Parameters"].as_mapping().unwrap();
        assert!(is_ref(&passed["StackName"], "AWS::StackName"), "{id}");
        assert!(is_ref(&passed["Profile"], "Profile"), "{id}");
        let text = std::fs::read_to_string(format!("{INFRA}/{url}")).unwrap();
        assert!(!text.contains("AWS::StackName"), "infra/{url} names its own stack, not the root");
        // Every parameter it declares is passed (none left at a default the root cannot see), and
        // it declares every one passed.
        let declared: BTreeSet<&str> = template["Parameters"].as_mapping().unwrap().keys().map(|k| k.as_str().unwrap()).collect();
        let given: BTreeSet<&str> = passed.keys().map(|k| k.as_str().unwrap()).collect();
        assert_eq!(declared, given, "{id}");
        // Its conditions are the root's profiles.
        for (name, profile) in [("Small", "small"), ("Large", "large")] {
            let condition = &template["Conditions"][name];
            if !condition.is_null() {
                let want = serde_yaml::from_str::<Value>(&format!("!Equals [!Ref Profile, {profile}]")).unwrap();
                assert_eq!(condition, &want, "{id}: {name}");
                assert_eq!(doc["Conditions"][name], want, "the root's {name}");
            }
        }
        assert!(operations().contains(id.as_str()) && operations().contains(url), "docs/OPERATIONS.md does not name {id} ({url})");
    }
    // What each holds: every function's log group and filters, every function's own alarms; the
    // root keeps the functions, the service-wide alarms and the dashboard.
    let kinds = |t: &Value| -> BTreeSet<String> {
        t["Resources"].as_mapping().unwrap().values().map(|r| r["Type"].as_str().unwrap().to_string()).collect()
    };
    assert_eq!(kinds(&nested[0].1), BTreeSet::from(["AWS::Logs::LogGroup".to_string(), "AWS::Logs::MetricFilter".to_string()]));
    assert_eq!(kinds(&nested[1].1), BTreeSet::from(["AWS::CloudWatch::Alarm".to_string()]));
    // CI lints and validates every template the generator writes, and counts every stack.
    let ci = include_str!("../../../../.ci/run");
    assert!(ci.contains("infra/generate.py --list") && ci.contains("infra/stack_size.py"), ".ci/run does not check every template");
}

/// `python3 infra/stack_size.py`: each stack (the root and each nested one) after SAM's transform,
/// which expands a function into six resources or so, holds at most 450 resources (CloudFormation
/// allows 500). Needs the SAM translator (aws-sam-cli holds it; CI's heavy tier installs it
/// before the tests); skipped, with a note, without it or without python3.
#[test]
fn every_stack_stays_under_cloudformations_resource_quota() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    match std::process::Command::new("python3").args(["-c", "import samtranslator"]).output() {
        Ok(out) if out.status.success() => {}
        Ok(_) => {
            eprintln!("samtranslator not importable (pip install aws-sam-translator): infra/stack_size.py not run");
            return;
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!("python3 not found: infra/stack_size.py not run");
            return;
        }
        Err(e) => panic!("python3: {e}"),
    }
    let out = std::process::Command::new("python3").args(["infra/stack_size.py"]).current_dir(root).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    eprintln!("{stdout}");
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    // One row a stack: the root and both nested stacks were counted.
    for stack in ["root (infra/template.yaml)", "FunctionLogs (infra/function-logs.yaml)", "FunctionAlarms (infra/function-alarms.yaml)"] {
        assert!(stdout.lines().any(|l| l.starts_with(stack)), "{stack} not counted: {stdout}");
    }
}
