//! infra/template.yaml serves exactly the routes the handlers serve, each through the function
//! that `Route::function` names, every function in it is a crate under functions/ with its own
//! memory and timeout.

use std::collections::BTreeSet;

use api::Route;

#[test]
fn the_sam_template_routes_match_the_route_table() {
    let text = include_str!("../../../infra/template.yaml");
    // CloudFormation's short tags (!Ref, !Sub, …) parse as tagged values.
    let doc: serde_yaml::Value = serde_yaml::from_str(text).unwrap();
    let mut templated = BTreeSet::new();
    let mut binaries = BTreeSet::new();
    for (_, res) in doc["Resources"].as_mapping().unwrap() {
        if res["Type"] != "AWS::Serverless::Function" {
            continue;
        }
        let binary = res["Metadata"]["BuildProperties"]["Binary"].as_str().unwrap().to_string();
        assert_eq!(res["Metadata"]["BuildMethod"], "rust-cargolambda");
        for (_, event) in res["Properties"]["Events"].as_mapping().into_iter().flatten() {
            let p = &event["Properties"];
            templated.insert((p["Method"].as_str().unwrap().to_string(), p["Path"].as_str().unwrap().to_string(), binary.clone()));
        }
        let props = &res["Properties"];
        assert!(props["MemorySize"].as_u64().is_some_and(|m| (128..=10240).contains(&m)), "{binary}: memory");
        assert!(props["Timeout"].as_u64().is_some_and(|t| (1..=900).contains(&t)), "{binary}: timeout");
        binaries.insert(binary);
    }
    let served: BTreeSet<(String, String, String)> =
        Route::ALL.iter().map(|r| (r.method().to_string(), r.path().to_string(), r.function().to_string())).collect();
    assert_eq!(templated, served);
    let crates: BTreeSet<String> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../functions"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(binaries, crates, "one function per crate in functions/");
}

#[test]
fn every_function_gets_the_lexicon_layer_and_no_database_password() {
    let text = include_str!("../../../infra/template.yaml");
    let doc: serde_yaml::Value = serde_yaml::from_str(text).unwrap();
    let globals = &doc["Globals"]["Function"];
    let env = globals["Environment"]["Variables"].as_mapping().unwrap();
    // The functions read the graphs where the layer mounts them, from the directory the build
    // script writes.
    assert_eq!(globals["Environment"]["Variables"]["LEXICON_DIR"], "/opt/lexicon");
    assert_eq!(globals["Layers"].as_sequence().unwrap().len(), 1);
    let layer = &doc["Resources"]["LexiconLayer"];
    assert_eq!(layer["Type"], "AWS::Serverless::LayerVersion");
    assert_eq!(layer["Properties"]["ContentUri"], "../target/lambda/lexicon-layer/");
    assert!(include_str!("../../../scripts/build-lambdas.sh").contains("layer=target/lambda/lexicon-layer"));
    // IAM tokens only: no password or secret reaches a function's environment.
    for (_, res) in doc["Resources"].as_mapping().unwrap() {
        let own = res["Properties"]["Environment"]["Variables"].as_mapping().cloned().unwrap_or_default();
        for (name, _) in env.iter().chain(own.iter()) {
            let name = name.as_str().unwrap().to_uppercase();
            assert!(!name.contains("PASSWORD") && !name.contains("SECRET"), "{name} in a function's environment");
        }
    }
}
