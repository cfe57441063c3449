//! infra/template.yaml serves exactly the routes the handlers serve, each through the function
//! that `Route::function` names, and every function in it is a crate under functions/.

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
