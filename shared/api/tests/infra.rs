//! infra/template.yaml serves exactly the routes the handlers serve, each through the function
//! that `Route::function` names, every function in it is a binary of the functions crate with its own
//! memory and timeout; and the deploy-safety properties docs/OPERATIONS.md promises hold in it: a
//! first create that can roll back, every function but migrate updated after the schema and
//! invoked through its alias, canaries rolled back on a function's 5xx and error rates (the 503s
//! apart), the alarms and the topic they reach, a silent sweep and failed pushes noticed, every log
//! group expiring, CORS for the ETag polling, fast failure and per-route throttles, HA as a
//! parameter; the documented Logs Insights queries and the metric filters read fields that the
//! service's own telemetry writes; and the two profiles (`Profile` small and large, issue 60):
//! each resolved from the one template, a switch between them changes nothing that replaces the
//! database, small pauses, connects directly within its connection limit and still pages on the
//! same failures, and docs/OPERATIONS.md's cost table is the cost model's output. Each
//! function's log group and metric filters are in the nested stack FunctionLogs, its alarms in
//! FunctionAlarms (infra/function-logs.yaml, infra/function-alarms.yaml): the tests read them
//! with the root (`whole`, and `Profile` follows the nested stacks), and every stack stays under
//! CloudFormation's resource quota after SAM's transform (`stacks`).

use std::collections::BTreeSet;

use api::Route;
use serde_yaml::Value;

mod stacks;

#[test]
fn the_sam_template_routes_match_the_route_table() {
    let text = include_str!("../../../infra/template.yaml");
    // CloudFormation's short tags (!Ref, !Sub, …) parse as tagged values.
    let doc: Value = serde_yaml::from_str(text).unwrap();
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
    // Each function a binary of the functions crate: its source file and its `[[bin]]` (no test
    // harness), nothing else.
    let sources: BTreeSet<String> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../functions/src/bin"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap().trim_end_matches(".rs").to_string())
        .collect();
    assert_eq!(binaries, sources, "one function per binary in functions/src/bin/");
    let manifest: toml::Table = toml::from_str(include_str!("../../../functions/Cargo.toml")).unwrap();
    let declared: BTreeSet<String> = manifest["bin"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            assert_eq!(b["test"].as_bool(), Some(false), "{b:?}: a function links no test harness");
            assert_eq!(b["path"].as_str().unwrap(), format!("src/bin/{}.rs", b["name"].as_str().unwrap()));
            b["name"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(declared, sources, "functions/Cargo.toml declares each binary");
}

#[test]
fn every_function_gets_the_lexicon_layer_and_no_database_password() {
    let text = include_str!("../../../infra/template.yaml");
    let doc: Value = serde_yaml::from_str(text).unwrap();
    let globals = &doc["Globals"]["Function"];
    let env = globals["Environment"]["Variables"].as_mapping().unwrap();
    // The functions read the graphs where the layer mounts them, from the directory the build
    // script writes.
    assert_eq!(globals["Environment"]["Variables"]["LEXICON_DIR"], "/opt/lexicon");
    assert_eq!(globals["Layers"].as_sequence().unwrap().len(), 1);
    let layer = &doc["Resources"]["LexiconLayer"];
    assert_eq!(layer["Type"], "AWS::Serverless::LayerVersion");
    assert_eq!(layer["Properties"]["ContentUri"], "../target/lambda/lexicon-layer/");
    let build = include_str!("../../../scripts/build-lambdas.sh");
    assert!(build.contains("layer=target/lambda/lexicon-layer"));
    // Profile small verifies the cluster's certificate against the RDS authorities the layer
    // carries (the build unpacks them where DB_CA_FILE points); large, the proxy's compiled-in roots.
    let (_, small, large) = if_of(&globals["Environment"]["Variables"]["DB_CA_FILE"]);
    assert_eq!((small.as_str(), is_no_value(large)), (Some("/opt/certs/rds-ca.pem"), true), "{small:?} {large:?}");
    assert!(build.contains(r#"gzip -dc infra/certs/rds-ca.pem.gz > "$layer/certs/rds-ca.pem""#), "the layer carries the authorities");
    // IAM tokens only: no password or secret reaches a function's environment.
    for (_, res) in doc["Resources"].as_mapping().unwrap() {
        let own = res["Properties"]["Environment"]["Variables"].as_mapping().cloned().unwrap_or_default();
        for (name, _) in env.iter().chain(own.iter()) {
            let name = name.as_str().unwrap().to_uppercase();
            assert!(!name.contains("PASSWORD") && !name.contains("SECRET"), "{name} in a function's environment");
        }
    }
}

// --- Deploy safety (docs/OPERATIONS.md; issue 21). The template is generated by
// infra/generate.py; these tests read the template itself. ---

fn template() -> Value {
    serde_yaml::from_str(include_str!("../../../infra/template.yaml")).unwrap()
}

fn operations() -> &'static str {
    include_str!("../../../docs/OPERATIONS.md")
}

/// The directory of the templates (a nested stack's TemplateURL is a path from it).
const INFRA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../infra");

/// The nested stacks `doc` declares: (logical id, its template), each read from its TemplateURL.
fn nested_stacks(doc: &Value) -> Vec<(String, Value)> {
    doc["Resources"]
        .as_mapping()
        .unwrap()
        .iter()
        .filter(|(_, r)| r["Type"] == "AWS::CloudFormation::Stack")
        .map(|(id, r)| {
            let url = r["Properties"]["TemplateURL"].as_str().unwrap_or_else(|| panic!("{id:?}: no local TemplateURL"));
            let text = std::fs::read_to_string(format!("{INFRA}/{url}")).unwrap_or_else(|e| panic!("infra/{url}: {e}"));
            (id.as_str().unwrap().to_string(), serde_yaml::from_str(&text).unwrap())
        })
        .collect()
}

/// The root template with its nested stacks' resources among its own (one logical id is one
/// resource across the stacks: infra/generate.py keeps them apart).
fn whole() -> Value {
    let mut doc = template();
    for (_, nested) in nested_stacks(&template()) {
        let resources = doc["Resources"].as_mapping_mut().unwrap();
        for (id, res) in nested["Resources"].as_mapping().unwrap() {
            assert!(resources.insert(id.clone(), res.clone()).is_none(), "{id:?} in two stacks");
        }
    }
    doc
}

/// The nested stack (its logical id) whose template holds the resource `id`, if one does.
fn holder_of(id: &str) -> Option<String> {
    static HOLDERS: std::sync::OnceLock<std::collections::BTreeMap<String, String>> = std::sync::OnceLock::new();
    let holders = HOLDERS.get_or_init(|| {
        nested_stacks(&template())
            .into_iter()
            .flat_map(|(stack, t)| {
                t["Resources"].as_mapping().unwrap().keys().map(|k| (k.as_str().unwrap().to_string(), stack.clone())).collect::<Vec<_>>()
            })
            .collect()
    });
    holders.get(id).cloned()
}

/// The logical id of the alarm the root names by `name`: a `!Ref` to it, or the name a nested
/// stack gives it (`!Sub "${AWS::StackName}-…"`, which the nested stack writes with the root's
/// name, its parameter StackName).
fn alarm_id(whole: &Value, name: &Value) -> String {
    if let Some(id) = tagged(name, "Ref").and_then(Value::as_str) {
        return id.to_string();
    }
    let wanted = sub_text(name).replace("${AWS::StackName}", "${StackName}");
    whole["Resources"]
        .as_mapping()
        .unwrap()
        .iter()
        .find(|(_, r)| {
            r["Type"] == "AWS::CloudWatch::Alarm"
                && tagged(&r["Properties"]["AlarmName"], "Sub").is_some_and(|_| sub_text(&r["Properties"]["AlarmName"]) == wanted)
        })
        .map(|(id, _)| id.as_str().unwrap().to_string())
        .unwrap_or_else(|| panic!("no alarm is named {wanted}"))
}

/// The argument of the short-form intrinsic `!tag` if `v` is one.
fn tagged<'a>(v: &'a Value, tag: &str) -> Option<&'a Value> {
    match v {
        Value::Tagged(t) if t.tag == tag => Some(&t.value),
        _ => None,
    }
}

/// `!If [condition, a, b]`: the condition's name and both branches.
fn if_of(v: &Value) -> (&str, &Value, &Value) {
    let s = tagged(v, "If").and_then(Value::as_sequence).unwrap_or_else(|| panic!("{v:?} is not !If"));
    (s[0].as_str().unwrap(), &s[1], &s[2])
}

fn is_no_value(v: &Value) -> bool {
    tagged(v, "Ref").and_then(Value::as_str) == Some("AWS::NoValue")
}

fn depends_on(res: &Value) -> Vec<String> {
    match &res["DependsOn"] {
        Value::String(s) => vec![s.clone()],
        Value::Sequence(s) => s.iter().map(|d| d.as_str().unwrap().to_string()).collect(),
        _ => Vec::new(),
    }
}

fn functions(doc: &Value) -> Vec<(String, &Value)> {
    doc["Resources"]
        .as_mapping()
        .unwrap()
        .iter()
        .filter(|(_, r)| r["Type"] == "AWS::Serverless::Function")
        .map(|(k, r)| (k.as_str().unwrap().to_string(), r))
        .collect()
}

fn api_functions(doc: &Value) -> Vec<(String, &Value)> {
    functions(doc).into_iter().filter(|(_, r)| r["Properties"]["Events"].is_mapping()).collect()
}

fn parameter_default<'a>(doc: &'a Value, name: &str) -> &'a Value {
    &doc["Parameters"][name]["Default"]
}

#[test]
fn the_admin_client_can_never_be_a_player_audience() {
    let doc = template();
    let assertion = &doc["Rules"]["AdminClientIsNoPlayerAudience"]["Assertions"][0]["Assert"];
    let want: Value = serde_yaml::from_str(r#"Fn::Not: [{ "Fn::Contains": [!Ref JwtAudience, !Ref AdminClientId] }]"#).unwrap();
    assert_eq!(assertion, &want);
    // The admin authoriser takes the admin client, the push socket's the player audiences.
    let env = |f: &str| doc["Resources"][f]["Properties"]["Environment"]["Variables"].clone();
    assert_eq!(env("AdminAuthorizerFunction")["WORDGAME_OIDC_CLIENT_ID"], serde_yaml::from_str::<Value>("!Ref AdminClientId").unwrap());
}

#[test]
fn a_first_create_into_an_empty_account_can_succeed_or_roll_back() {
    let doc = template();
    let r = &doc["Resources"];
    // The proxy's target group waits for the writer instance (aws-cdk #11311 / #31304).
    assert!(depends_on(&r["DbProxyTargetGroup"]).contains(&"DbInstance".to_string()));
    // Reserved concurrency is a parameter, off by default, and off means no reservation at all
    // in Profile large; small always reserves (its bound on direct database connections).
    assert_eq!(parameter_default(&doc, "ReservedConcurrency"), "off");
    assert_eq!(
        doc["Conditions"]["Reserve"],
        serde_yaml::from_str::<Value>(r#"!Or [!Equals [!Ref ReservedConcurrency, "on"], !Condition Small]"#).unwrap()
    );
    assert!(!Profile::new(&doc, "large").condition("Reserve") && Profile::new(&doc, "small").condition("Reserve"));
    let mut reserved = 0;
    for (name, f) in functions(&doc) {
        let (cond, on, off) = if_of(&f["Properties"]["ReservedConcurrentExecutions"]);
        assert_eq!(cond, "Reserve", "{name}");
        assert!(is_no_value(off), "{name}: reserves concurrency with ReservedConcurrency off");
        reserved += on.as_u64().unwrap();
    }
    // The quota arithmetic the docs give: the sum, and Lambda's 100 unreserved on top of it.
    assert!(operations().contains(&format!("{reserved} in all")), "docs/OPERATIONS.md does not give the reserved total {reserved}");
    assert!(
        operations().contains(&format!("at least {}", reserved + 100)),
        "docs/OPERATIONS.md does not give the quota {}",
        reserved + 100
    );
    // Deletion protection and the snapshot policies follow DataProtection, off for the first create.
    assert_eq!(parameter_default(&doc, "DataProtection"), "off");
    let cluster = &r["DbCluster"];
    let (cond, on, off) = if_of(&cluster["Properties"]["DeletionProtection"]);
    assert_eq!((cond, on.as_bool(), off.as_bool()), ("Protect", Some(true), Some(false)));
    // An intrinsic in a policy attribute needs the language extensions, applied before SAM's.
    let transforms: Vec<&str> = doc["Transform"].as_sequence().unwrap().iter().map(|t| t.as_str().unwrap()).collect();
    assert_eq!(transforms, ["AWS::LanguageExtensions", "AWS::Serverless-2016-10-31"]);
    for policy in ["DeletionPolicy", "UpdateReplacePolicy"] {
        let (cond, on, off) = if_of(&cluster[policy]);
        assert_eq!((cond, on.as_str(), off.as_str()), ("Protect", Some("Snapshot"), Some("Delete")), "{policy}");
    }
    // No other resource, in any stack, can block the rollback of a failed create.
    for (name, res) in whole()["Resources"].as_mapping().unwrap() {
        assert_ne!(res["DeletionPolicy"], "Retain", "{name:?}");
        assert!(!res["Properties"]["DeletionProtection"].as_bool().unwrap_or(false), "{name:?}");
    }
}

#[test]
fn the_schema_is_migrated_before_any_new_code_is_published() {
    let doc = template();
    let r = &doc["Resources"];
    let migration = &r["SchemaMigration"];
    assert_eq!(migration["Type"], "Custom::SchemaMigration");
    // It runs whenever migrate's published version changes (or the profile does), once the
    // writer exists and, in Profile large, the proxy has it as its target.
    assert_eq!(tagged(&migration["Properties"]["MigrateVersion"], "Ref").and_then(Value::as_str), Some("MigrateFunction.Version"));
    assert!(depends_on(migration).contains(&"DbInstance".to_string()));
    assert!(is_ref(&migration["Properties"]["Profile"], "Profile"));
    let (cond, target, none) = if_of(&migration["Properties"]["ProxyTarget"]);
    assert!(cond == "Large" && is_ref(target, "DbProxyTargetGroup") && none == "", "{migration:?}");
    // Its runner fails the deploy when migrate fails, and calls a newer schema success.
    let code = r["SchemaMigrationRunner"]["Properties"]["Code"]["ZipFile"].as_str().unwrap();
    assert!(code.contains("FunctionError") && code.contains("VersionMissing"));
    // Every function but migrate itself: the routes, the authorisers, the sweep, ws.
    for (name, f) in functions(&doc).into_iter().filter(|(name, _)| name != "MigrateFunction") {
        assert!(depends_on(f).contains(&"SchemaMigration".to_string()), "{name} can update before the schema");
    }
}

/// A `!Ref` to `name`.
fn is_ref(v: &Value, name: &str) -> bool {
    tagged(v, "Ref").and_then(Value::as_str) == Some(name)
}

/// The text of a `!Sub` (either form).
fn sub_text(v: &Value) -> String {
    let sub = tagged(v, "Sub").unwrap_or_else(|| panic!("{v:?} is not !Sub"));
    sub.as_str().or_else(|| sub.as_sequence().and_then(|s| s[0].as_str())).unwrap().to_string()
}

#[test]
fn the_api_functions_connect_as_the_application_role_and_only_migrate_as_the_owner() {
    let doc = template();
    let r = &doc["Resources"];
    // Two users, both names the store accepts as roles, never the same.
    let (owner, app) = (parameter_default(&doc, "DbUser").as_str().unwrap(), parameter_default(&doc, "DbAppUser").as_str().unwrap());
    assert_ne!(owner, app);
    store::AppRole::new(app).unwrap();
    store::AppRole::new(owner).unwrap();
    assert!(is_ref(&doc["Globals"]["Function"]["Environment"]["Variables"]["DB_USER"], "DbAppUser"));
    // Each function may connect as one user: the API functions as the application role ...
    // (to the cluster in Profile small, through the proxy in large)
    for (policy, user) in [("DbConnectAppPolicy", "/${DbAppUser}"), ("DbConnectOwnerPolicy", "/${DbUser}")] {
        let (cond, direct, proxied) = if_of(&r[policy]["Properties"]["PolicyDocument"]["Statement"][0]["Resource"]);
        assert_eq!(cond, "Small");
        assert!(sub_text(direct).ends_with(&format!(":dbuser:${{DbCluster.DBClusterResourceId}}{user}")), "{policy}");
        assert!(sub_text(proxied).ends_with(&format!(":dbuser:${{ProxyId}}{user}")), "{policy}");
    }
    for (name, f) in api_functions(&doc) {
        let policies = f["Properties"]["Policies"].as_sequence().unwrap();
        // A function outside the VPC cannot reach the database and holds no connect policy.
        if is_ref(&f["Properties"]["VpcConfig"], "AWS::NoValue") {
            assert!(policies.is_empty(), "{name} is outside the VPC but holds {policies:?}");
            continue;
        }
        let push = policies.len() == 2 && is_ref(&policies[1], "PushPolicy");
        assert!((policies.len() == 1 || push) && is_ref(&policies[0], "DbConnectAppPolicy"), "{name}: {policies:?}");
        assert!(f["Properties"]["Environment"]["Variables"]["DB_USER"].is_null(), "{name} overrides the database user");
    }
    // ... and migrate as the owner, told which role to grant.
    let migrate = &r["MigrateFunction"]["Properties"];
    let policies = migrate["Policies"].as_sequence().unwrap();
    assert!(policies.len() == 1 && is_ref(&policies[0], "DbConnectOwnerPolicy"));
    assert!(is_ref(&migrate["Environment"]["Variables"]["DB_USER"], "DbUser"));
    assert!(is_ref(&migrate["Environment"]["Variables"]["DB_APP_USER"], "DbAppUser"));
    // The proxy requires TLS and IAM from clients; it reaches Aurora with the master secret for
    // the owner and with IAM for the application role (which therefore has no password).
    let proxy = &r["DbProxy"]["Properties"];
    assert_eq!(proxy["RequireTLS"].as_bool(), Some(true));
    assert_eq!(proxy["DefaultAuthScheme"], "IAM_AUTH");
    let auth = proxy["Auth"].as_sequence().unwrap();
    assert_eq!(auth.len(), 1);
    assert_eq!((auth[0]["AuthScheme"].as_str(), auth[0]["IAMAuth"].as_str()), (Some("SECRETS"), Some("REQUIRED")));
    let proxy_role = serde_yaml::to_string(&r["DbProxyRole"]).unwrap();
    assert!(proxy_role.contains("rds-db:connect") && proxy_role.contains("${DbCluster.DBClusterResourceId}/${DbAppUser}"), "{proxy_role}");
    // The docs say so.
    for phrase in ["DbAppUser", "rds_iam", "ALTER DEFAULT PRIVILEGES", "verify-full"] {
        assert!(operations().contains(phrase), "docs/OPERATIONS.md does not mention {phrase}");
    }
}

#[test]
fn migrate_signs_a_fresh_token_per_invocation() {
    // The pool (and with it the IAM token) is made inside the handler, not once per cold start.
    let source = include_str!("../../../functions/src/bin/migrate.rs");
    let handler = source.find("service_fn(").unwrap();
    let store = source.find("config.store()").expect("migrate opens its store through Config::store");
    assert!(store > handler, "migrate opens its pool before the handler: one token per cold start");
    assert!(source[handler..].contains(".close().await"), "each invocation closes its pool");
}

#[test]
fn every_function_is_shifted_gradually_and_rolled_back_on_its_5xx() {
    let doc = template();
    let whole = whole();
    let r = &whole["Resources"];
    assert_eq!(doc["Globals"]["Function"]["AutoPublishAlias"], "live");
    assert_eq!(parameter_default(&doc, "TrafficShifting"), "Canary10Percent5Minutes");
    for (name, f) in api_functions(&doc) {
        let id = name.strip_suffix("Function").unwrap();
        let pref = &f["Properties"]["DeploymentPreference"];
        assert_eq!(tagged(&pref["Type"], "Ref").and_then(Value::as_str), Some("TrafficShifting"), "{name}");
        // Profile large: its own alarms; small: the stack-wide one, which counts the same lines.
        let (small, own) = rollback_alarms(&whole, f);
        assert_eq!(small, ["FunctionFailuresAlarm"], "{name}");
        assert!(own.contains(&format!("{id}Http5xxAlarm")), "{name}: its canary ignores its 5xx");
        assert!(own.contains(&format!("{id}ErrorsAlarm")), "{name}: its canary ignores its errors");
        // The 5xx count comes from the handler's log line, under the field the service writes:
        // every 5xx but the service's 503 in the function's own metric (small: with its failed
        // invocations in the stack's Failures), the 503s apart.
        let filter = &r[format!("{id}Http5xxFilter").as_str()]["Properties"];
        let (cond, small_pattern, pattern) = if_of(&filter["FilterPattern"]);
        assert_eq!((cond, pattern.as_str()), ("Small", Some("{ ($.fields.status >= 500) && ($.fields.status != 503) }")), "{name}");
        assert_eq!(
            small_pattern,
            r#"{ (($.fields.status >= 500) && ($.fields.status != 503)) || (($.type = "platform.report") && ($.record.status != "success")) }"#
        );
        assert_eq!(tagged(&filter["LogGroupName"], "Ref").and_then(Value::as_str), Some(format!("{id}Logs").as_str()));
        let (cond, small_metric, metric) = if_of(&filter["MetricTransformations"][0]["MetricName"]);
        assert_eq!((cond, small_metric.as_str()), ("Small", Some("Failures")));
        let metric = metric.as_str().unwrap();
        let unavailable = &r[format!("{id}Http503Filter").as_str()]["Properties"];
        assert_eq!(unavailable["FilterPattern"], "{ $.fields.status = 503 }", "{name}");
        assert!(is_ref(&unavailable["LogGroupName"], &format!("{id}Logs")));
        assert_eq!(unavailable["MetricTransformations"][0]["MetricName"], "Http503", "{name}");
        // Both rollback alarms are percentages of the function's invocations: one stray failure
        // fires neither, a new version failing all of the canary's 10% fires both.
        let http5xx = &r[format!("{id}Http5xxAlarm").as_str()];
        assert_eq!(metric_read(http5xx, "failed"), metric, "{name}");
        let errors = &r[format!("{id}ErrorsAlarm").as_str()];
        assert_eq!(metric_read(errors, "failed"), "Errors", "{name}");
        for alarm in [http5xx, errors] {
            assert_eq!(metric_read(alarm, "invocations"), "Invocations", "{name}");
            let (requests, failures, percent) = percentage_alarm(alarm);
            assert!(failures >= 2 && requests >= 10, "{name}: one stray failure fires {alarm:?}");
            assert!(percent < 10.0, "{name}: a canary failing every request it gets does not fire {alarm:?}");
        }
    }
    // The 503s (the database out of reach) page at a higher rate, and roll nothing back; the
    // API's 5xx rate leaves them out.
    let (_, _, paging) = percentage_alarm(&r["Api5xxRateAlarm"]);
    let (_, _, unavailable) = percentage_alarm(&r["ApiUnavailableRateAlarm"]);
    assert!(unavailable > paging);
    assert_eq!(metric_read(&r["ApiUnavailableRateAlarm"], "unavailable"), "Http503");
    assert_eq!(metric_read(&r["Api5xxRateAlarm"], "unavailable"), "Http503");
    assert_eq!(expression(&r["Api5xxRateAlarm"], "errors"), "FILL(answers, 0) - FILL(unavailable, 0)");
    for alarm in ["Api5xxRateAlarm", "ApiUnavailableRateAlarm"] {
        assert!(percentage_alarm(&r[alarm]).1 >= 2, "{alarm}: one stray answer fires it");
    }
}

/// A function's canary alarms, by logical id: (Profile small's, large's), from
/// `!If [Small, [...], [...]]`.
fn rollback_alarms(whole: &Value, f: &Value) -> (Vec<String>, Vec<String>) {
    let (cond, small, large) = if_of(&f["Properties"]["DeploymentPreference"]["Alarms"]);
    assert_eq!(cond, "Small");
    let ids = |v: &Value| -> Vec<String> { v.as_sequence().unwrap().iter().map(|a| alarm_id(whole, a)).collect() };
    (ids(small), ids(large))
}

/// The entry `id` of a metric-math alarm's `Metrics`.
fn metric_entry<'a>(alarm: &'a Value, id: &str) -> &'a Value {
    let metrics = alarm["Properties"]["Metrics"].as_sequence().unwrap_or_else(|| panic!("not a metric-math alarm: {alarm:?}"));
    metrics.iter().find(|m| m["Id"] == id).unwrap_or_else(|| panic!("no metric {id} in {alarm:?}"))
}

/// The name of the metric that a metric-math alarm reads as `id`.
fn metric_read<'a>(alarm: &'a Value, id: &str) -> &'a str {
    metric_entry(alarm, id)["MetricStat"]["Metric"]["MetricName"].as_str().unwrap()
}

/// The expression a metric-math alarm computes as `id`.
fn expression<'a>(alarm: &'a Value, id: &str) -> &'a str {
    metric_entry(alarm, id)["Expression"].as_str().unwrap()
}

/// A percentage alarm's (minimum requests, minimum errors, threshold in percent): it fires when
/// `errors` is over the threshold percent of `requests` once both reach their minimums.
fn percentage_alarm(alarm: &Value) -> (u64, u64, f64) {
    let rate = expression(alarm, "rate");
    let guard = rate.strip_prefix("IF(requests >= ").and_then(|r| r.strip_suffix(", 100 * errors / requests, 0)"));
    let (requests, errors) = guard.and_then(|g| g.split_once(" AND errors >= ")).unwrap_or_else(|| panic!("{rate}"));
    let p = &alarm["Properties"];
    assert_eq!(
        (p["ComparisonOperator"].as_str(), metric_entry(alarm, "rate")["ReturnData"].as_bool()),
        (Some("GreaterThanThreshold"), Some(true))
    );
    (requests.parse().unwrap(), errors.parse().unwrap(), p["Threshold"].as_f64().unwrap())
}

#[test]
fn every_function_is_invoked_through_its_alias_and_shifted_by_a_canary() {
    let doc = template();
    let whole = whole();
    let r = &doc["Resources"];
    for (name, f) in functions(&doc).into_iter().filter(|(name, _)| name != "MigrateFunction") {
        let id = name.strip_suffix("Function").unwrap();
        let pref = &f["Properties"]["DeploymentPreference"];
        assert!(is_ref(&pref["Type"], "TrafficShifting"), "{name}: no canary");
        // The sweep's own alarm in both profiles; the others' own (large) or the stack's (small).
        let alarms: Vec<String> = if name == "SweepFunction" {
            pref["Alarms"].as_sequence().unwrap().iter().map(|a| alarm_id(&whole, a)).collect()
        } else {
            let (small, own) = rollback_alarms(&whole, f);
            assert_eq!(small, ["FunctionFailuresAlarm"], "{name}");
            own
        };
        assert!(alarms.contains(&format!("{id}ErrorsAlarm")), "{name}: its canary ignores its errors: {alarms:?}");
        for alarm in alarms.iter().map(String::as_str).chain(["FunctionFailuresAlarm"]) {
            assert_eq!(whole["Resources"][alarm]["Type"], "AWS::CloudWatch::Alarm", "{name}: {alarm}");
            // The alarms exist before the function is updated, and so before its canary runs.
            if let Some(stack) = holder_of(alarm) {
                assert!(depends_on(f).contains(&stack), "{name} can update before its alarm {alarm} (in {stack}) exists");
            }
        }
    }
    // The admin pages' authoriser is its live alias (SAM grants API Gateway the alias, and
    // builds the authoriser's URI from it), not $LATEST; nothing invokes a function by its own ARN.
    let cookie = &r["HttpApi"]["Properties"]["Auth"]["Authorizers"]["AdminCookie"];
    assert!(is_ref(&cookie["FunctionArn"], "AdminAuthorizerFunction.Alias"), "{cookie:?}");
    let text = include_str!("../../../infra/template.yaml");
    for (name, _) in functions(&doc) {
        for unqualified in [format!("!GetAtt {name}.Arn"), format!("${{{name}.Arn}}"), format!("!Ref {name}]"), format!("!Ref {name}\n")] {
            assert!(!text.contains(&unqualified), "the template invokes {name} at $LATEST: {unqualified:?}");
        }
    }
}

#[test]
fn every_log_group_expires() {
    let doc = template();
    let r = &doc["Resources"];
    let whole = whole();
    let groups: Vec<&Value> = whole["Resources"].as_mapping().unwrap().values().filter(|x| x["Type"] == "AWS::Logs::LogGroup").collect();
    for g in &groups {
        assert!(is_ref(&g["Properties"]["RetentionInDays"], "LogRetentionDays"), "{g:?} never expires");
    }
    // The nested stack of the functions' groups keeps the root's retention, and names them by the
    // root's name (its functions' names begin with it).
    let logs = &r["FunctionLogs"]["Properties"]["Parameters"];
    assert!(is_ref(&logs["LogRetentionDays"], "LogRetentionDays") && is_ref(&logs["StackName"], "AWS::StackName"), "{logs:?}");
    // Every function's group is the stack's (not one Lambda makes, without retention, at the
    // first invocation), under its condition: the inline runners' beside them, named after them;
    // each SAM function's in FunctionLogs, named as Lambda names it (`/aws/lambda/` and the
    // function's name), since it is made before the function.
    let lambdas =
        r.as_mapping().unwrap().iter().filter(|(_, x)| x["Type"] == "AWS::Serverless::Function" || x["Type"] == "AWS::Lambda::Function");
    for (name, function) in lambdas {
        let name = name.as_str().unwrap();
        let wanted = if function["Type"] == "AWS::Serverless::Function" {
            format!("/aws/lambda/{}", sub_text(&function["Properties"]["FunctionName"]).replace("${AWS::StackName}", "${StackName}"))
        } else {
            format!("/aws/lambda/${{{name}}}")
        };
        let group = groups
            .iter()
            .find(|g| tagged(&g["Properties"]["LogGroupName"], "Sub").is_some() && sub_text(&g["Properties"]["LogGroupName"]) == wanted)
            .unwrap_or_else(|| panic!("{name} has no log group of the stack's ({wanted})"));
        assert_eq!(group["Condition"], function["Condition"], "{name}");
    }
    // What invokes a function as part of the deploy waits for its log group (or the nested stack
    // that holds it): a function invoked first gets a group from Lambda, and the stack's create
    // of it fails.
    for (invoker, groups) in [
        ("SchemaMigration", &["MigrateLogs", "SchemaMigrationRunnerLogs"][..]),
        ("DbLogRetention", &["LogRetentionRunnerLogs"][..]),
        ("SweepSchedule", &["SweepLogs"][..]),
    ] {
        for group in groups {
            let waited = holder_of(group).unwrap_or_else(|| group.to_string());
            assert!(depends_on(&r[invoker]).contains(&waited), "{invoker} does not wait for {group} ({waited})");
        }
    }
    // PostgreSQL's group is made by RDS as the cluster starts exporting: the custom resource
    // gives it the same retention (creating it if RDS has not yet) whenever the log is exported.
    let retention = &r["DbLogRetention"];
    assert_eq!((retention["Type"].as_str(), retention["Condition"].as_str()), (Some("Custom::LogRetention"), Some("ExportLogs")));
    assert_eq!(if_of(&r["DbCluster"]["Properties"]["EnableCloudwatchLogsExports"]).0, "ExportLogs");
    let p = &retention["Properties"];
    assert_eq!(sub_text(&p["LogGroupName"]), "/aws/rds/cluster/${DbCluster}/postgresql");
    assert!(is_ref(&p["RetentionInDays"], "LogRetentionDays"));
    assert_eq!(p["ServiceToken"], serde_yaml::from_str::<Value>("!GetAtt LogRetentionRunner.Arn").unwrap());
    let code = r["LogRetentionRunner"]["Properties"]["Code"]["ZipFile"].as_str().unwrap();
    assert!(code.contains("put_retention_policy") && code.contains("ResourceAlreadyExistsException"));
    assert!(operations().contains("DbLogRetention"));
}

#[test]
fn failures_page_someone_and_the_docs_count_the_alarms() {
    let doc = template();
    let r = doc["Resources"].as_mapping().unwrap();
    let whole = whole();
    for alarm in [
        "Api5xxRateAlarm",
        "ApiUnavailableRateAlarm",
        "Api4xxRateAlarm",
        "ApiLatencyAlarm",
        "ProxyClientConnectionsAlarm",
        "ProxyBorrowLatencyAlarm",
        "DbCpuAlarm",
        "DbCapacityAtMaxAlarm",
        "DbFreeableMemoryAlarm",
        "DbDeadlocksAlarm",
    ] {
        assert_eq!(doc["Resources"][alarm]["Type"], "AWS::CloudWatch::Alarm", "{alarm}");
    }
    // Every alarm, ALARM and OK, goes to one topic: the given AlarmTopicArn, else the stack's own
    // (which the root passes to the nested stacks that hold alarms, as their AlarmTopic).
    let topic = serde_yaml::from_str::<Value>("[!If [GivenAlarmTopic, !Ref AlarmTopicArn, !Ref AlarmTopic]]").unwrap();
    let passed = serde_yaml::from_str::<Value>("[!Ref AlarmTopic]").unwrap();
    for (id, a) in whole["Resources"].as_mapping().unwrap().iter().filter(|(_, res)| res["Type"] == "AWS::CloudWatch::Alarm") {
        let want = match holder_of(id.as_str().unwrap()) {
            None => &topic,
            Some(stack) => {
                assert_eq!(r[stack.as_str()]["Properties"]["Parameters"]["AlarmTopic"], topic[0], "{stack} is given another topic");
                &passed
            }
        };
        assert_eq!(&a["Properties"]["AlarmActions"], want, "{id:?}");
        assert_eq!(&a["Properties"]["OKActions"], want, "{id:?}");
    }
    let conditions = &doc["Conditions"];
    assert_eq!(conditions["GivenAlarmTopic"], serde_yaml::from_str::<Value>(r#"!Not [!Equals [!Ref AlarmTopicArn, ""]]"#).unwrap());
    assert_eq!(conditions["OwnAlarmTopic"], serde_yaml::from_str::<Value>(r#"!Equals [!Ref AlarmTopicArn, ""]"#).unwrap());
    assert_eq!(conditions["HasAlarmEmail"], serde_yaml::from_str::<Value>(r#"!Not [!Equals [!Ref AlarmEmail, ""]]"#).unwrap());
    let own = &doc["Resources"]["AlarmTopic"];
    assert!(own["Type"] == "AWS::SNS::Topic" && own["Condition"] == "OwnAlarmTopic");
    let mail = &doc["Resources"]["AlarmEmailSubscription"];
    assert!(mail["Type"] == "AWS::SNS::Subscription" && mail["Condition"] == "HasAlarmEmail");
    assert_eq!(mail["Properties"]["TopicArn"], topic[0]);
    assert!(mail["Properties"]["Protocol"] == "email" && is_ref(&mail["Properties"]["Endpoint"], "AlarmEmail"));
    // The documented first deploy sets the address, and the deploy script will not go without one.
    let first_deploy = operations().split("## First deploy").nth(1).unwrap().split("```").nth(1).unwrap();
    assert!(first_deploy.contains("AlarmEmail="), "docs/OPERATIONS.md's first deploy sets no AlarmEmail: {first_deploy}");
    let deploy = include_str!("../../../scripts/deploy.sh");
    assert!(deploy.contains("AlarmEmail=?*|AlarmTopicArn=?*)"), "scripts/deploy.sh does not insist on an alarm address");
    // Each profile's alarms, as the docs count them.
    for profile in ["small", "large"] {
        let n = Profile::new(&doc, profile).resources().values().filter(|res| res["Type"] == "AWS::CloudWatch::Alarm").count();
        assert!(operations().contains(&format!("{n} alarms")), "docs/OPERATIONS.md does not say {n} alarms ({profile})");
    }
    assert_eq!(r.values().filter(|res| res["Type"] == "AWS::CloudWatch::Dashboard").count(), 1);
}

/// The metric filters on `logs`' log group: (pattern, metric name), both profiles' where they
/// differ.
fn filters_on<'a>(doc: &'a Value, logs: &str) -> Vec<(&'a str, &'a str)> {
    doc["Resources"]
        .as_mapping()
        .unwrap()
        .values()
        .filter(|r| r["Type"] == "AWS::Logs::MetricFilter" && is_ref(&r["Properties"]["LogGroupName"], logs))
        .flat_map(|r| {
            let metrics = branches(&r["Properties"]["MetricTransformations"][0]["MetricName"]);
            branches(&r["Properties"]["FilterPattern"]).into_iter().zip(metrics).map(|(p, m)| (p.as_str().unwrap(), m.as_str().unwrap()))
        })
        .collect()
}

/// The messages a filter pattern of `($.fields.message = "...") || ...` matches, each checked to
/// be a message the service's source writes, and to match a line carrying it.
fn logged_messages(pattern: &str) -> Vec<&str> {
    const SOURCES: &[&str] = &[
        include_str!("../src/aws_push.rs"),
        include_str!("../src/push.rs"),
        include_str!("../src/websocket.rs"),
        include_str!("../../service/src/sweep.rs"),
    ];
    let texts: Vec<&str> = pattern.split('"').skip(1).step_by(2).collect();
    for text in &texts {
        assert!(SOURCES.iter().any(|s| s.contains(&format!("\"{text}\""))), "no source writes the message {text:?}");
        assert!(filter_matches(pattern, &serde_json::json!({ "fields": { "message": text } })), "{pattern}");
    }
    assert!(!filter_matches(pattern, &serde_json::json!({ "fields": { "message": "handled" } })), "{pattern}");
    texts
}

#[test]
fn a_silent_sweep_failed_pushes_and_websocket_errors_page() {
    let doc = whole();
    let r = &doc["Resources"];
    // The sweep runs every minute; five minutes without an invocation (no data at all included)
    // is an alarm.
    assert_eq!(r["SweepSchedule"]["Properties"]["ScheduleExpression"], "rate(1 minute)");
    let heartbeat = &r["SweepHeartbeatAlarm"]["Properties"];
    assert_eq!((heartbeat["Namespace"].as_str(), heartbeat["MetricName"].as_str()), (Some("AWS/Lambda"), Some("Invocations")));
    // (the root's name: the alarm is in FunctionAlarms, which is given it as StackName)
    assert_eq!(sub_text(&heartbeat["Dimensions"][0]["Value"]), "${StackName}-sweep");
    assert_eq!(holder_of("SweepHeartbeatAlarm").as_deref(), Some("FunctionAlarms"));
    assert!(is_ref(&r["FunctionAlarms"]["Properties"]["Parameters"]["StackName"], "AWS::StackName"));
    let window = heartbeat["Period"].as_u64().unwrap() * heartbeat["EvaluationPeriods"].as_u64().unwrap();
    assert!((180..=300).contains(&window), "{window} s");
    assert_eq!((heartbeat["Threshold"].as_f64(), heartbeat["ComparisonOperator"].as_str()), (Some(1.0), Some("LessThanThreshold")));
    assert_eq!(heartbeat["TreatMissingData"], "breaching");
    // Its failures: runs that failed, and games it logged it could not end.
    let sweep_errors = &r["SweepErrorsAlarm"];
    assert_eq!((metric_read(sweep_errors, "failed"), metric_read(sweep_errors, "games")), ("Errors", "SweepGameFailures"));
    let games =
        filters_on(&doc, "SweepLogs").into_iter().find(|(_, m)| *m == "SweepGameFailures").expect("no filter for the sweep's games");
    assert_eq!(logged_messages(games.0).len(), 2);
    // The timeouts each run leaves overdue (its "swept" line's backlog, a gauge) page when every
    // run for five minutes left some.
    let backlog = filters_on(&doc, "SweepLogs").into_iter().find(|(_, m)| *m == "SweepBacklog").expect("no sweep backlog metric");
    assert_eq!(logged_messages(backlog.0), ["swept"]);
    let transform = &r["SweepBacklogFilter"]["Properties"]["MetricTransformations"][0];
    assert_eq!((transform["MetricValue"].as_str(), transform.get("DefaultValue")), (Some("$.fields.backlog"), None));
    assert!(include_str!("../../service/src/sweep.rs").contains("backlog = report.backlog,"), "the sweep logs no backlog field");
    let backlog = &r["SweepBacklogAlarm"]["Properties"];
    assert_eq!((backlog["MetricName"].as_str(), backlog["Statistic"].as_str()), (Some("SweepBacklog"), Some("Minimum")));
    assert_eq!((backlog["Threshold"].as_f64(), backlog["ComparisonOperator"].as_str()), (Some(1.0), Some("GreaterThanOrEqualToThreshold")));
    // Failed posts to connections and publishes to the bus, counted in the log group of every
    // function that may push.
    let pushers: Vec<String> = functions(&doc)
        .into_iter()
        .filter(|(_, f)| f["Properties"]["Policies"].as_sequence().into_iter().flatten().any(|p| is_ref(p, "PushPolicy")))
        .map(|(name, _)| name.strip_suffix("Function").unwrap().to_string())
        .collect();
    assert!(pushers.len() > 10);
    for id in &pushers {
        let filters = filters_on(&doc, &format!("{id}Logs"));
        let push = filters.iter().find(|(_, m)| *m == "PushFailures").unwrap_or_else(|| panic!("{id}: push failures not counted"));
        assert!(logged_messages(push.0).contains(&"push: cannot post to a connection"), "{id}");
        assert!(logged_messages(push.0).contains(&"push: cut off at its budget"), "{id}");
        if id != "Ws" {
            let events =
                filters.iter().find(|(_, m)| *m == "EventBridgeFailures").unwrap_or_else(|| panic!("{id}: bus failures not counted"));
            assert!(logged_messages(events.0).contains(&"push: cannot publish to EventBridge"), "{id}");
            // Each entry refused inside an answered PutEvents (its FailedEntryCount), one line each.
            assert!(logged_messages(events.0).contains(&"push: EventBridge refused an entry"), "{id}");
        }
    }
    assert_eq!(r["PushFailuresAlarm"]["Properties"]["MetricName"], "PushFailures");
    let events = &r["EventBridgeFailuresAlarm"];
    assert_eq!(metric_read(events, "logged"), "EventBridgeFailures");
    // Entries EventBridge refuses inside a PutEvents it answers 200 (a partial failure).
    assert_eq!(metric_read(events, "refused"), "PutEventsFailedEntriesCount");
    // The WebSocket API's own errors, as a rate of its connects and messages.
    let ws = &r["WsApiErrorsAlarm"];
    for (id, name) in
        [("integration", "IntegrationError"), ("execution", "ExecutionError"), ("connects", "ConnectCount"), ("messages", "MessageCount")]
    {
        assert_eq!(metric_read(ws, id), name);
        assert!(is_ref(&metric_entry(ws, id)["MetricStat"]["Metric"]["Dimensions"][0]["Value"], "WsApi"), "{id}");
    }
    assert!(percentage_alarm(ws).1 >= 2);
    for alarm in [
        "SweepHeartbeatAlarm",
        "SweepBacklogAlarm",
        "SweepErrorsAlarm",
        "PushFailuresAlarm",
        "EventBridgeFailuresAlarm",
        "WsApiErrorsAlarm",
    ] {
        assert!(operations().contains(alarm), "docs/OPERATIONS.md does not list {alarm}");
    }
}

#[test]
fn a_request_fails_fast_and_throttles_are_per_route() {
    let doc = template();
    let shortest = functions(&doc).iter().map(|(_, f)| f["Properties"]["Timeout"].as_u64().unwrap()).min().unwrap();
    let borrow = doc["Resources"]["DbProxyTargetGroup"]["Properties"]["ConnectionPoolConfigurationInfo"]["ConnectionBorrowTimeout"]
        .as_u64()
        .expect("the proxy's borrow timeout is set (its default, 120 s, outlives every function)");
    assert!(borrow < shortest, "borrow timeout {borrow} s, shortest function timeout {shortest} s");
    assert!(store::ACQUIRE_TIMEOUT.as_secs() < shortest);
    let defaults = &doc["Resources"]["HttpApi"]["Properties"]["DefaultRouteSettings"];
    let mut bursts = 0;
    for (name, f) in api_functions(&doc) {
        let s = &f["Properties"]["Events"]["Route"]["Properties"]["RouteSettings"];
        // With reservations on, the burst is the reservation, so API Gateway answers 429 before
        // Lambda would throttle (which API Gateway turns into a 500).
        let (cond, reserved_burst, burst) = if_of(&s["ThrottlingBurstLimit"]);
        assert_eq!(cond, "Reserve", "{name}");
        assert_eq!(reserved_burst.as_u64(), if_of(&f["Properties"]["ReservedConcurrentExecutions"]).1.as_u64(), "{name}");
        let (rate, burst) = (s["ThrottlingRateLimit"].as_u64(), burst.as_u64());
        assert!(rate.is_some() && burst.is_some(), "{name}: no route throttle");
        assert!(rate <= defaults["ThrottlingRateLimit"].as_u64() && burst <= defaults["ThrottlingBurstLimit"].as_u64());
        bursts += burst.unwrap();
    }
    // The burst arithmetic docs/OPERATIONS.md gives ("Scaling").
    assert!(operations().contains(&format!("bursts add up to {bursts}")), "docs/OPERATIONS.md does not give the bursts' sum {bursts}");
}

#[test]
fn high_availability_is_a_parameter_with_the_reader_in_the_second_zone() {
    let doc = template();
    let r = &doc["Resources"];
    assert_eq!(r["DbReaderInstance"]["Condition"], "HighlyAvailable");
    assert_eq!(
        tagged(&r["DbReaderInstance"]["Properties"]["AvailabilityZone"], "GetAtt").and_then(Value::as_str),
        Some("PrivateSubnetB.AvailabilityZone")
    );
    for instance in ["DbInstance", "DbReaderInstance"] {
        assert_eq!(if_of(&r[instance]["Properties"]["EnablePerformanceInsights"]).0, "Insights");
    }
    assert_eq!(if_of(&r["DbCluster"]["Properties"]["EnableCloudwatchLogsExports"]).0, "ExportLogs");
    let (cond, cors, _) = if_of(&r["HttpApi"]["Properties"]["CorsConfiguration"]);
    assert_eq!(cond, "HasCors");
    // A browser on another origin can send the token and a JSON body, poll with If-None-Match
    // and read the ETag it polls with, the Retry-After of a 429 or 503 and the X-Request-Id
    // that names every answer.
    let listed =
        |key: &str| -> Vec<String> { cors[key].as_sequence().unwrap().iter().map(|h| h.as_str().unwrap().to_ascii_lowercase()).collect() };
    for header in ["authorization", "content-type", "if-none-match"] {
        assert!(listed("AllowHeaders").iter().any(|h| h == header), "CORS does not allow {header}");
    }
    for header in ["etag", "retry-after", "x-request-id"] {
        assert!(listed("ExposeHeaders").iter().any(|h| h == header), "CORS does not expose {header}");
    }
    assert!(operations().contains("If-None-Match") && operations().contains("`ETag` exposed"));
    // SAM writes the origins into the API's OpenAPI body with the parameter's value resolved: a
    // String split there by CloudFormation, not a CommaDelimitedList SAM might resolve to text.
    assert_eq!(doc["Parameters"]["AllowedOrigins"]["Type"], "String");
    assert_eq!(cors["AllowOrigins"], serde_yaml::from_str::<Value>(r#"!Split [",", !Ref AllowedOrigins]"#).unwrap());
    assert_eq!(r["ApiDomain"]["Condition"], "HasDomain");
}

// --- The documented Logs Insights queries against a log line the service really writes. ---

/// Run by `the_documented_log_queries_name_fields_the_service_writes` in a child process: the
/// service's JSON telemetry and one request through the real handler, against a database that
/// refuses connections (a 503), printed to stdout.
#[test]
fn write_a_log_line() {
    if std::env::var_os("WORDGAME_WRITE_LOG_LINE").is_none() {
        return;
    }
    api::telemetry::init_json();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let config =
            api::Config::from_vars(|name| (name == "DATABASE_URL").then(|| "postgres://wordgame@127.0.0.1:9/wordgame".to_string()))
                .unwrap();
        let state = api::AppState::connect(&config, std::sync::Arc::new(engine::Lexicons::builtin())).await.unwrap();
        let claims = std::collections::HashMap::from([
            ("sub".to_string(), uuid::Uuid::new_v4().to_string()),
            ("name".to_string(), "Ann".to_string()),
        ]);
        let path = format!("/games/{}", uuid::Uuid::new_v4());
        let incoming =
            api::gateway::Incoming { method: "GET", path: &path, claims: Some(&claims), request_id: "req-1", ..Default::default() };
        let (route, request) = api::gateway::to_lambda(&incoming).unwrap();
        let response = api::handle(&state, route, request).await;
        assert!(response.status().as_u16() >= 500);
    });
}

/// The value at a dotted path (`fields.status`) of a JSON log line.
fn at<'a>(line: &'a serde_json::Value, path: &str) -> Option<&'a serde_json::Value> {
    path.split('.').try_fold(line, |v, key| v.get(key))
}

/// The log fields a Logs Insights query names: its words, without keywords, functions, numbers,
/// strings, `@` fields (CloudWatch's own) and names it defines with `as`.
fn query_fields(query: &str) -> Vec<String> {
    const WORDS: &[&str] = &[
        "fields",
        "filter",
        "stats",
        "sort",
        "by",
        "desc",
        "asc",
        "limit",
        "as",
        "and",
        "or",
        "not",
        "like",
        "in",
        "count",
        "avg",
        "sum",
        "min",
        "max",
        "pct",
        "bin",
        "display",
        "dedup",
        "earliest",
        "latest",
        "ispresent",
        "isempty",
    ];
    let mut without_strings = String::new();
    let mut quote = None;
    for c in query.chars() {
        match (quote, c) {
            (None, '"' | '\'' | '/') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, c) => without_strings.push(c),
            _ => {}
        }
    }
    let tokens: Vec<&str> =
        without_strings.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '@')).filter(|t| !t.is_empty()).collect();
    let defined: Vec<&str> = tokens.windows(2).filter(|w| w[0] == "as").map(|w| w[1]).collect();
    tokens
        .iter()
        .filter(|t| !WORDS.contains(t) && !t.starts_with('@') && t.parse::<f64>().is_err() && !defined.contains(t))
        .map(|t| t.to_string())
        .collect()
}

#[test]
fn the_documented_log_queries_name_fields_the_service_writes() {
    let (stdout, lines) = crate::common::json_lines_of("infra::write_a_log_line", "WORDGAME_WRITE_LOG_LINE");
    let line = lines
        .iter()
        .find(|l| at(l, "fields.message").and_then(|m| m.as_str()) == Some("handled"))
        .unwrap_or_else(|| panic!("no \"handled\" line in {stdout}"));
    // What the metric filters and the queries rely on.
    assert!(at(line, "fields.status").and_then(|s| s.as_u64()).is_some_and(|s| s >= 500), "{line}");
    assert_eq!(at(line, "span.route").and_then(|r| r.as_str()), Some("get-game"), "{line}");
    // The old query's bare field is not in the line: it matched nothing.
    assert!(lines.iter().all(|l| at(l, "status").is_none()));

    let docs = operations();
    let queries: Vec<&str> = docs
        .split("```logs-insights\n")
        .skip(1)
        .flat_map(|block| block.split("\n```").next().unwrap().lines())
        .filter(|l| !l.trim().is_empty())
        .collect();
    assert!(queries.len() >= 3, "docs/OPERATIONS.md has no logs-insights queries");
    for query in queries {
        for field in query_fields(query) {
            assert!(
                lines.iter().any(|l| at(l, &field).is_some()),
                "docs/OPERATIONS.md: `{query}` names `{field}`, which the service does not write: {stdout}"
            );
        }
    }
    // Every field a metric filter reads is one the service writes, or (Profile small's failed
    // invocations) one of Lambda's own report line; the 503 the line carries (the database
    // refused) is counted apart from the 5xx that page.
    let doc = whole();
    let filters: Vec<(&str, &str)> = doc["Resources"]
        .as_mapping()
        .unwrap()
        .values()
        .filter(|r| r["Type"] == "AWS::Logs::MetricFilter")
        .flat_map(|r| {
            let metrics = branches(&r["Properties"]["MetricTransformations"][0]["MetricName"]);
            branches(&r["Properties"]["FilterPattern"]).into_iter().zip(metrics).map(|(p, m)| (p.as_str().unwrap(), m.as_str().unwrap()))
        })
        .collect();
    let report = |status: &str| serde_json::json!({ "type": "platform.report", "record": { "requestId": "r", "status": status } });
    for (pattern, _) in &filters {
        for field in pattern.split("$.").skip(1).map(|f| f.split(' ').next().unwrap()) {
            assert!(
                at(line, field).is_some() || at(&report("success"), field).is_some(),
                "a metric filter reads {field}, which neither the handled line nor Lambda's report has"
            );
        }
    }
    // Profile small's Failures: the paging 5xx and failed invocations, not 503s or successes.
    for (pattern, metric) in filters.iter().filter(|(_, m)| *m == "Failures") {
        for status in ["failure", "error", "timeout"] {
            assert!(filter_matches(pattern, &report(status)), "{metric}: {pattern} misses a {status} report");
        }
        assert!(!filter_matches(pattern, &report("success")) && !filter_matches(pattern, line), "{pattern}");
    }
    assert_eq!(at(line, "fields.status").and_then(|s| s.as_u64()), Some(503), "{line}");
    let mut internal = line.clone();
    internal["fields"]["status"] = 500.into();
    for (pattern, metric) in &filters {
        if metric.starts_with("Http5xx-") || (*metric == "Failures" && pattern.contains("fields.status")) {
            assert!(!filter_matches(pattern, line) && filter_matches(pattern, &internal), "{pattern}");
        } else if *metric == "Http503" {
            assert!(filter_matches(pattern, line) && !filter_matches(pattern, &internal), "{pattern}");
        }
    }
}

/// Both branches of a `!If`, or the value itself.
fn branches(v: &Value) -> Vec<&Value> {
    match tagged(v, "If") {
        Some(_) => {
            let (_, a, b) = if_of(v);
            vec![a, b]
        }
        None => vec![v],
    }
}

/// Whether a CloudWatch Logs JSON filter pattern of the forms the template writes matches
/// `line`: `{ EXPRESSION }`, an expression being terms joined by `&&` or `||` (`&&` binding
/// tighter), groups in parentheses, each term `$.path OP value`, OP one of `=`, `!=`, `>=`,
/// `<=`, `>`, `<`, the value a number or a quoted string.
fn filter_matches(pattern: &str, line: &serde_json::Value) -> bool {
    let body = pattern.trim().strip_prefix('{').and_then(|p| p.strip_suffix('}')).unwrap_or_else(|| panic!("{pattern}"));
    expression_matches(body, line)
}

/// Whether one (sub)expression of a filter pattern matches `line` (see [`filter_matches`]).
fn expression_matches(expression: &str, line: &serde_json::Value) -> bool {
    let expression = expression.trim();
    let any = split_outside_groups(expression, "||");
    if any.len() > 1 {
        return any.iter().any(|e| expression_matches(e, line));
    }
    let all = split_outside_groups(expression, "&&");
    if all.len() > 1 {
        return all.iter().all(|e| expression_matches(e, line));
    }
    match expression.strip_prefix('(').and_then(|e| e.strip_suffix(')')) {
        Some(inner) => expression_matches(inner, line),
        None => term_matches(expression, line),
    }
}

/// `expression` split at each `op` outside parentheses and quotes.
fn split_outside_groups<'a>(expression: &'a str, op: &str) -> Vec<&'a str> {
    let (mut parts, mut depth, mut quoted, mut start) = (Vec::new(), 0, false, 0);
    let bytes = expression.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => quoted = !quoted,
            b'(' if !quoted => depth += 1,
            b')' if !quoted => depth -= 1,
            _ if !quoted && depth == 0 && expression[i..].starts_with(op) => {
                parts.push(&expression[start..i]);
                i += op.len();
                start = i;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(&expression[start..]);
    parts
}

/// Whether one `$.path OP value` term matches `line` (see [`filter_matches`]).
fn term_matches(term: &str, line: &serde_json::Value) -> bool {
    let (field, rest) = term.strip_prefix("$.").and_then(|t| t.split_once(' ')).unwrap_or_else(|| panic!("{term}"));
    let (op, value) = rest.trim().split_once(' ').unwrap_or_else(|| panic!("{term}"));
    let Some(actual) = at(line, field) else { return false };
    if let Some(text) = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        return match op {
            "=" => actual.as_str() == Some(text),
            "!=" => actual.as_str() != Some(text),
            _ => panic!("{term}: {op} on a string"),
        };
    }
    let (Some(a), Ok(v)) = (actual.as_f64(), value.parse::<f64>()) else { return false };
    match op {
        "=" => a == v,
        "!=" => a != v,
        ">=" => a >= v,
        "<=" => a <= v,
        ">" => a > v,
        "<" => a < v,
        _ => panic!("{term}: {op}"),
    }
}

/// `python3 infra/generate.py --check` (the template is the generator's) and
/// `python3 infra/test_schema_migration.py` (the custom resource's inline runner), so that CI's
/// cargo test runs both; skipped, with a note, where there is no python3.
#[test]
fn the_template_is_the_generators_and_its_migration_runner_answers_cloudformation() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    for args in [&["infra/generate.py", "--check"][..], &["infra/test_schema_migration.py"][..]] {
        let out = match std::process::Command::new("python3").args(args).current_dir(root).output() {
            Ok(out) => out,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                eprintln!("python3 not found: {args:?} not run");
                return;
            }
            Err(e) => panic!("python3 {args:?}: {e}"),
        };
        assert!(
            out.status.success(),
            "python3 {args:?}:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The resource of `kind` in `doc` whose `key` property is `value`.
fn resource_with<'a>(doc: &'a Value, kind: &str, key: &str, value: &str) -> &'a Value {
    doc["Resources"]
        .as_mapping()
        .unwrap()
        .values()
        .find(|r| r["Type"] == kind && r["Properties"][key] == value)
        .unwrap_or_else(|| panic!("no {kind} with {key} {value}"))
}

#[test]
fn push_has_a_websocket_api_authorised_on_connect_a_bus_endpoints_and_grants() {
    let doc = template();
    let r = &doc["Resources"];
    let api = &r["WsApi"]["Properties"];
    assert_eq!((api["ProtocolType"].as_str(), api["RouteSelectionExpression"].as_str()), (Some("WEBSOCKET"), Some("$request.body.action")));
    // The three routes go to the ws function's live alias; $connect alone is authorised, by
    // the authoriser that reads the query's token and runs the ws-authorizer function.
    let integration = sub_text(&r["WsIntegration"]["Properties"]["IntegrationUri"]);
    assert!(integration.contains("${WsFunctionAliaslive}"), "{integration}");
    assert_eq!(r["WsFunction"]["Metadata"]["BuildProperties"]["Binary"], "ws");
    assert!(depends_on(&r["WsFunction"]).contains(&"SchemaMigration".to_string()));
    for route in ["$connect", "$disconnect", "$default"] {
        let p = &resource_with(&doc, "AWS::ApiGatewayV2::Route", "RouteKey", route)["Properties"];
        assert!(is_ref(&p["ApiId"], "WsApi") && sub_text(&p["Target"]) == "integrations/${WsIntegration}", "{route}");
        let (kind, authorizer) = (p["AuthorizationType"].as_str(), &p["AuthorizerId"]);
        if route == "$connect" {
            assert!(kind == Some("CUSTOM") && is_ref(authorizer, "WsAuthorizer"), "$connect is not authorised");
        } else {
            assert_eq!(kind, Some("NONE"), "{route}: only $connect may carry an authoriser");
        }
    }
    let authorizer = &r["WsAuthorizer"]["Properties"];
    assert_eq!(authorizer["AuthorizerType"], "REQUEST");
    assert_eq!(authorizer["IdentitySource"][0], "route.request.querystring.token");
    assert!(sub_text(&authorizer["AuthorizerUri"]).contains("${WsAuthorizerFunctionAliaslive}"));
    let authorizer_env = &r["WsAuthorizerFunction"]["Properties"]["Environment"]["Variables"];
    assert!(is_ref(&authorizer_env["WORDGAME_JWT_ISSUER"], "JwtIssuer"), "the HTTP API's issuer");
    assert!(serde_yaml::to_string(&authorizer_env["WORDGAME_JWT_AUDIENCE"]).unwrap().contains("JwtAudience"), "the HTTP API's audiences");
    for (permission, alias) in [("WsPermission", "WsFunction.Alias"), ("WsAuthorizerPermission", "WsAuthorizerFunction.Alias")] {
        let p = &r[permission]["Properties"];
        assert!(is_ref(&p["FunctionName"], alias) && p["Principal"] == "apigateway.amazonaws.com", "{permission}");
    }
    let stage = &r["WsStage"]["Properties"];
    assert!(stage["StageName"] == "live" && stage["DefaultRouteSettings"]["ThrottlingRateLimit"].as_u64().is_some());
    // Every function is told where to push, without depending on the stage (a cycle through
    // the routes to the ws function); the output gives clients the same URL as wss.
    let env = &doc["Globals"]["Function"]["Environment"]["Variables"];
    // Without egress the functions post nothing (an empty endpoint) rather than time out.
    let (cond, with_egress, without) = if_of(&env["PUSH_CONNECTIONS_ENDPOINT"]);
    assert_eq!((cond, without.as_str()), ("HasPushEgress", Some("")));
    assert_eq!(sub_text(with_egress), "https://${WsApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}/live");
    // Profile small publishes nothing to the bus (no variable at all, not an empty one).
    let (cond, none, bus) = if_of(&env["EVENT_BUS_NAME"]);
    assert!(cond == "Small" && is_no_value(none) && is_ref(bus, "EventBus"));
    assert_eq!(r["EventBus"]["Type"], "AWS::Events::EventBus");
    assert_eq!(sub_text(&doc["Outputs"]["PushUrl"]["Value"]), "wss://${WsApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}/live");
    // The grants: post to the stage's connections, publish to the bus; for the functions that
    // commit moves (the writing routes, the sweep, ws) and no others.
    let statements = r["PushPolicy"]["Properties"]["PolicyDocument"]["Statement"].as_sequence().unwrap();
    assert_eq!(statements[0]["Action"], "execute-api:ManageConnections");
    assert!(sub_text(&statements[0]["Resource"]).ends_with("${WsApi}/live/POST/@connections/*"));
    assert_eq!(statements[1]["Action"], "events:PutEvents");
    assert_eq!(statements[1]["Resource"], serde_yaml::from_str::<Value>("!GetAtt EventBus.Arn").unwrap());
    let pushers: BTreeSet<String> = functions(&doc)
        .into_iter()
        .filter(|(_, f)| f["Properties"]["Policies"].as_sequence().into_iter().flatten().any(|p| is_ref(p, "PushPolicy")))
        .map(|(_, f)| f["Metadata"]["BuildProperties"]["Binary"].as_str().unwrap().to_string())
        .collect();
    let committing = [Route::CreateGame, Route::SubmitMove, Route::Resign, Route::Challenge, Route::WithdrawGame, Route::ClaimTimeout]
        .into_iter()
        .chain([Route::OpenGame, Route::JoinGame, Route::AttachRobot, Route::Rematch, Route::DeclineRematch])
        // A tournament's round start and its games' draws tell the players on their sockets.
        .chain([Route::StartRound, Route::DrawTile])
        .map(|r| r.function().to_string())
        .chain(["sweep".to_string(), "ws".to_string()])
        .collect::<BTreeSet<_>>();
    assert_eq!(pushers, committing);
    // The bus through an interface endpoint in the private subnets (Profile large); no
    // execute-api endpoint (its private DNS would capture the WebSocket API's management host,
    // which it does not serve): those calls go out through the NAT gateway that PushEgress adds
    // (large) or over IPv6 through the egress-only gateway (small).
    let endpoints: Vec<&Value> = r.as_mapping().unwrap().values().filter(|x| x["Type"] == "AWS::EC2::VPCEndpoint").collect();
    assert_eq!(endpoints.len(), 1);
    let p = &endpoints[0]["Properties"];
    assert!(sub_text(&p["ServiceName"]).ends_with(".events"));
    assert!(p["VpcEndpointType"] == "Interface" && p["PrivateDnsEnabled"].as_bool() == Some(true));
    let subnets: Vec<bool> =
        p["SubnetIds"].as_sequence().unwrap().iter().map(|s| is_ref(s, "PrivateSubnetA") || is_ref(s, "PrivateSubnetB")).collect();
    assert_eq!(subnets, [true, true]);
    assert!(is_ref(&p["SecurityGroupIds"][0], "EndpointSecurityGroup"));
    assert_eq!(parameter_default(&doc, "PushEgress").as_str(), Some("on"));
    let nat = &r["NatGateway"];
    assert_eq!(nat["Condition"], "NatEgress");
    assert!(is_ref(&nat["Properties"]["SubnetId"], "PublicSubnet"));
    assert!(is_ref(&r["PrivateDefaultRoute"]["Properties"]["NatGatewayId"], "NatGateway"));
    for subnet in ["PrivateSubnetA", "PrivateSubnetB"] {
        let association = &r[format!("{subnet}Routes").as_str()];
        assert!(association["Condition"] == "HasPushEgress" && is_ref(&association["Properties"]["SubnetId"], subnet));
        assert!(is_ref(&association["Properties"]["RouteTableId"], "PrivateRouteTable"));
    }
    assert!(is_ref(&r["PublicDefaultRoute"]["Properties"]["GatewayId"], "InternetGateway"));
    let ingress = &r["EndpointSecurityGroup"]["Properties"]["SecurityGroupIngress"];
    assert_eq!(ingress.as_sequence().unwrap().len(), 1);
    assert!(
        ingress[0]["FromPort"] == 443
            && ingress[0]["ToPort"] == 443
            && is_ref(&ingress[0]["SourceSecurityGroupId"], "FunctionSecurityGroup")
    );
    for phrase in ["PushUrl", "?token=", "EventBus", "PushEgress", "NatGateway", "EventsEndpoint", "PushPolicy"] {
        assert!(operations().contains(phrase), "docs/OPERATIONS.md does not mention {phrase}");
    }
}

// --- The two profiles (issue 60): one template, its Conditions resolved for each. ---

/// The template as a stack of one `Profile` has it: the other parameters at their defaults,
/// every `!If` chosen and every conditional resource kept or dropped; its nested stacks' resources
/// likewise, with the parameters it passes them (`resources`).
struct Profile<'a> {
    doc: &'a Value,
    params: std::collections::BTreeMap<String, Value>,
    conditions: std::cell::RefCell<std::collections::BTreeMap<String, bool>>,
}

impl<'a> Profile<'a> {
    fn new(doc: &'a Value, profile: &str) -> Profile<'a> {
        let mut params: std::collections::BTreeMap<String, Value> =
            doc["Parameters"].as_mapping().unwrap().iter().map(|(k, v)| (k.as_str().unwrap().to_string(), v["Default"].clone())).collect();
        params.insert("Profile".into(), Value::String(profile.into()));
        Profile { doc, params, conditions: Default::default() }
    }

    /// A nested stack's template as its stack has it, given `passed` (the nested stack's
    /// Parameters as its parent resolves them); the rest at their defaults.
    fn nested(doc: &'a Value, passed: &Value) -> Profile<'a> {
        let mut params: std::collections::BTreeMap<String, Value> =
            doc["Parameters"].as_mapping().unwrap().iter().map(|(k, v)| (k.as_str().unwrap().to_string(), v["Default"].clone())).collect();
        for (k, v) in passed.as_mapping().unwrap() {
            assert!(params.contains_key(k.as_str().unwrap()), "{k:?} is no parameter of the nested stack");
            params.insert(k.as_str().unwrap().to_string(), v.clone());
        }
        Profile { doc, params, conditions: Default::default() }
    }

    /// The value of the condition `name`.
    fn condition(&self, name: &str) -> bool {
        if let Some(known) = self.conditions.borrow().get(name) {
            return *known;
        }
        let value = self.truth(&self.doc["Conditions"][name]);
        self.conditions.borrow_mut().insert(name.to_string(), value);
        value
    }

    /// A condition expression's truth.
    fn truth(&self, v: &Value) -> bool {
        let Value::Tagged(t) = v else { panic!("not a condition: {v:?}") };
        let args = &t.value;
        if t.tag == "Equals" {
            let s = args.as_sequence().unwrap();
            self.text(&s[0]) == self.text(&s[1])
        } else if t.tag == "Not" {
            !self.truth(&args[0])
        } else if t.tag == "And" {
            args.as_sequence().unwrap().iter().all(|a| self.truth(a))
        } else if t.tag == "Or" {
            args.as_sequence().unwrap().iter().any(|a| self.truth(a))
        } else if t.tag == "Condition" {
            self.condition(args.as_str().unwrap())
        } else {
            panic!("not a condition: {v:?}")
        }
    }

    /// A scalar's text: a parameter's value for its `!Ref`.
    fn text(&self, v: &Value) -> String {
        let v = match tagged(v, "Ref").and_then(Value::as_str) {
            Some(name) => &self.params[name],
            None => v,
        };
        match v {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            _ => panic!("not a scalar: {v:?}"),
        }
    }

    /// `v` with each `!If` chosen and each parameter's `!Ref` replaced by its value; `None` for
    /// `AWS::NoValue` (dropped from the mapping or sequence that holds it).
    fn resolve(&self, v: &Value) -> Option<Value> {
        match v {
            Value::Tagged(t) if t.tag == "If" => {
                let (cond, a, b) = if_of(v);
                self.resolve(if self.condition(cond) { a } else { b })
            }
            Value::Tagged(t) if t.tag == "Ref" => match t.value.as_str().unwrap() {
                "AWS::NoValue" => None,
                name => Some(self.params.get(name).cloned().unwrap_or_else(|| v.clone())),
            },
            Value::Tagged(t) => Some(Value::Tagged(Box::new(serde_yaml::value::TaggedValue {
                tag: t.tag.clone(),
                value: self.resolve(&t.value).unwrap_or(Value::Null),
            }))),
            Value::Mapping(m) => Some(Value::Mapping(m.iter().filter_map(|(k, x)| Some((k.clone(), self.resolve(x)?))).collect())),
            Value::Sequence(s) => Some(Value::Sequence(s.iter().filter_map(|x| self.resolve(x)).collect())),
            _ => Some(v.clone()),
        }
    }

    /// The resources this profile has, resolved, by logical id: the template's and those of each
    /// nested stack it has.
    fn resources(&self) -> std::collections::BTreeMap<String, Value> {
        let mut out: std::collections::BTreeMap<String, Value> = self.doc["Resources"]
            .as_mapping()
            .unwrap()
            .iter()
            .filter(|(_, r)| r["Condition"].as_str().is_none_or(|c| self.condition(c)))
            .map(|(k, r)| (k.as_str().unwrap().to_string(), self.resolve(r).unwrap()))
            .collect();
        for (id, nested) in nested_stacks(self.doc) {
            let Some(stack) = out.get(&id) else { continue };
            let inner = Profile::nested(&nested, &stack["Properties"]["Parameters"]).resources();
            for (k, v) in inner {
                assert!(out.insert(k.clone(), v).is_none(), "{k} in two stacks");
            }
        }
        out
    }
}

/// Per resource type, the properties whose change makes CloudFormation replace the resource
/// ("Update requires: Replacement" in its reference), for the types both profiles hold.
const REPLACED_ON_CHANGE: &[(&str, &[&str])] = &[
    (
        "AWS::RDS::DBCluster",
        &[
            "DBClusterIdentifier",
            "DatabaseName",
            "Engine",
            "EngineMode",
            "MasterUsername",
            "StorageEncrypted",
            "KmsKeyId",
            "DBSubnetGroupName",
            "AvailabilityZones",
            "SnapshotIdentifier",
            "SourceDBClusterIdentifier",
            "RestoreType",
            "SourceRegion",
            "DBSystemId",
        ],
    ),
    (
        "AWS::RDS::DBInstance",
        &[
            "DBInstanceIdentifier",
            "DBClusterIdentifier",
            "Engine",
            "AvailabilityZone",
            "DBSubnetGroupName",
            "KmsKeyId",
            "StorageEncrypted",
            "DBName",
            "MasterUsername",
            "SourceDBInstanceIdentifier",
            "DBSnapshotIdentifier",
            "CharacterSetName",
            "Timezone",
        ],
    ),
    ("AWS::RDS::DBSubnetGroup", &["DBSubnetGroupName"]),
    ("AWS::EC2::VPC", &["CidrBlock", "Ipv4IpamPoolId", "Ipv4NetmaskLength"]),
    ("AWS::EC2::Subnet", &["AvailabilityZone", "AvailabilityZoneId", "CidrBlock", "VpcId", "Ipv4IpamPoolId"]),
    ("AWS::EC2::SecurityGroup", &["GroupDescription", "GroupName", "VpcId"]),
    ("AWS::IAM::ManagedPolicy", &["ManagedPolicyName", "Path"]),
    ("AWS::Logs::MetricFilter", &["FilterName", "LogGroupName"]),
    ("AWS::Serverless::Function", &["FunctionName", "PackageType"]),
    ("AWS::ApiGatewayV2::Api", &["ProtocolType"]),
    ("AWS::CloudWatch::Dashboard", &["DashboardName"]),
    ("Custom::SchemaMigration", &["ServiceToken"]),
    ("AWS::CloudFormation::Stack", &[]),
    ("AWS::Logs::LogGroup", &["LogGroupName", "KmsKeyId"]),
    ("AWS::CloudWatch::Alarm", &["AlarmName"]),
];

/// The database and what holds it: in both profiles under the same logical ids.
const DATA_RESOURCES: &[&str] = &[
    "DbCluster",
    "DbInstance",
    "DbSubnetGroup",
    "DatabaseSecurityGroup",
    "Vpc",
    "VpcIpv6Block",
    "PrivateSubnetA",
    "PrivateSubnetB",
    "PrivateSubnetAIpv6",
    "PrivateSubnetBIpv6",
];

#[test]
fn switching_profile_updates_in_place_and_keeps_the_database() {
    let doc = template();
    assert_eq!(parameter_default(&doc, "Profile"), "small");
    let (small, large) = (Profile::new(&doc, "small").resources(), Profile::new(&doc, "large").resources());
    let only = |a: &std::collections::BTreeMap<String, Value>, b: &std::collections::BTreeMap<String, Value>| -> Vec<String> {
        a.keys().filter(|k| !b.contains_key(*k)).cloned().collect()
    };
    let (added, removed) = (only(&small, &large), only(&large, &small));
    let mut changed = Vec::new();
    for (id, res) in small.iter().filter(|(id, _)| large.contains_key(*id)) {
        let other = &large[id];
        assert_eq!(res["Type"], other["Type"], "{id} changes type");
        for key in ["DeletionPolicy", "UpdateReplacePolicy", "DependsOn", "Metadata"] {
            assert_eq!(res[key], other[key], "{id}: {key} differs");
        }
        let kind = res["Type"].as_str().unwrap();
        let keys: BTreeSet<&str> = [res, other]
            .iter()
            .flat_map(|x| x["Properties"].as_mapping().into_iter().flatten().map(|(k, _)| k.as_str().unwrap()))
            .collect();
        let differing: Vec<&str> = keys.into_iter().filter(|k| res["Properties"][*k] != other["Properties"][*k]).collect();
        if differing.is_empty() {
            continue;
        }
        let replacing = REPLACED_ON_CHANGE
            .iter()
            .find(|(t, _)| *t == kind)
            .unwrap_or_else(|| panic!("{id} ({kind}) differs in {differing:?}: add its type's replacing properties to REPLACED_ON_CHANGE"))
            .1;
        for key in &differing {
            assert!(!replacing.contains(key), "switching profile replaces {id}: {key} differs");
        }
        changed.push(format!("{id} ({})", differing.join(", ")));
    }
    // What a switch does, for the reader of the test's output (--nocapture).
    eprintln!(
        "small only ({}): {added:?}\nlarge only ({}): {removed:?}\nchanged in place ({}): {changed:?}",
        added.len(),
        removed.len(),
        changed.len()
    );
    // The database and its network stay, under the same ids; the cluster changes only its scaling.
    for id in DATA_RESOURCES {
        assert!(small.contains_key(*id) && large.contains_key(*id), "{id} is not in both profiles");
    }
    // So does every log group (the functions' in FunctionLogs, whose parameters change in place).
    for (id, _) in small.iter().chain(&large).filter(|(_, r)| r["Type"] == "AWS::Logs::LogGroup") {
        assert!(small.contains_key(id) && large.contains_key(id), "{id} is not in both profiles: a switch deletes its logs");
        assert_eq!(small[id], large[id], "{id} differs");
    }
    assert!(
        changed.iter().any(|c| c == "FunctionLogs (Parameters)") && changed.iter().any(|c| c == "FunctionAlarms (Parameters)"),
        "{changed:?}"
    );
    assert!(changed.iter().any(|c| c == "DbCluster (ServerlessV2ScalingConfiguration)"), "{changed:?}");
    assert!(!changed.iter().any(|c| c.starts_with("DbInstance ") || c.starts_with("DbSubnetGroup ")), "{changed:?}");
    for id in ["DbProxy", "DbProxyTargetGroup", "NatGateway", "NatAddress", "EventsEndpoint", "SubmitMoveHttp5xxAlarm"] {
        assert!(removed.contains(&id.to_string()), "{id} is not large's alone: {removed:?}");
    }
    for id in ["EgressOnlyGateway", "PrivateIpv6Route", "FunctionFailuresAlarm", "DbConnectionsAlarm"] {
        assert!(added.contains(&id.to_string()), "{id} is not small's alone: {added:?}");
    }
    // The functions' shared settings change in place too (no replacement-forcing property there).
    let globals = |p: &str| Profile::new(&doc, p).resolve(&doc["Globals"]["Function"]).unwrap();
    assert_eq!(globals("small")["Runtime"], globals("large")["Runtime"]);
    assert!(operations().contains("switching `Profile` is an update in place"), "docs/OPERATIONS.md does not say a switch is an update");
}

#[test]
fn the_small_profile_pauses_connects_directly_and_keeps_its_connections_under_the_limit() {
    let doc = template();
    let small = Profile::new(&doc, "small");
    let (r, large) = (small.resources(), Profile::new(&doc, "large").resources());
    // Aurora scales to 0 and pauses after its idle time; large keeps its 0.5 ACU floor.
    let scaling = |r: &std::collections::BTreeMap<String, Value>| r["DbCluster"]["Properties"]["ServerlessV2ScalingConfiguration"].clone();
    assert_eq!(scaling(&r)["MinCapacity"].as_f64(), Some(0.0));
    assert!(scaling(&r)["SecondsUntilAutoPause"].as_u64().is_some_and(|s| (300..=86_400).contains(&s)));
    assert_eq!(scaling(&large)["MinCapacity"].as_f64(), Some(0.5));
    assert!(scaling(&large)["SecondsUntilAutoPause"].is_null());
    // No proxy (an open proxy connection keeps Aurora awake): the functions connect to the
    // writer, which admits them.
    for kind in ["AWS::RDS::DBProxy", "AWS::EC2::NatGateway", "AWS::EC2::EIP", "AWS::EC2::VPCEndpoint"] {
        assert!(r.values().all(|x| x["Type"] != kind), "small has a {kind}");
        assert!(large.values().any(|x| x["Type"] == kind), "large lost its {kind}");
    }
    let env = small.resolve(&doc["Globals"]["Function"]).unwrap();
    assert_eq!(
        env["Environment"]["Variables"]["DB_PROXY_ENDPOINT"],
        serde_yaml::from_str::<Value>("!GetAtt DbCluster.Endpoint.Address").unwrap()
    );
    assert!(env["Environment"]["Variables"]["EVENT_BUS_NAME"].is_null(), "small publishes to the bus with no way to it");
    assert_eq!(env["Tracing"], "PassThrough");
    let ingress = &r["DatabaseSecurityGroup"]["Properties"]["SecurityGroupIngress"][0];
    assert!(is_ref(&ingress["SourceSecurityGroupId"], "FunctionSecurityGroup") && ingress["FromPort"] == 5432);
    // Push goes out over IPv6: an egress-only gateway as the private subnets' ::/0, the
    // functions allowed IPv6, the WebSocket API dual-stack.
    let route = &r["PrivateIpv6Route"]["Properties"];
    assert!(route["DestinationIpv6CidrBlock"] == "::/0" && is_ref(&route["EgressOnlyInternetGatewayId"], "EgressOnlyGateway"));
    assert!(
        is_ref(&route["RouteTableId"], "PrivateRouteTable")
            && r.contains_key("PrivateSubnetARoutes")
            && r.contains_key("PrivateSubnetBRoutes")
    );
    assert_eq!(env["VpcConfig"]["Ipv6AllowedForDualStack"].as_bool(), Some(true));
    assert_eq!(r["WsApi"]["Properties"]["IpAddressType"], "dualstack");
    assert!(tagged(&env["Environment"]["Variables"]["PUSH_CONNECTIONS_ENDPOINT"], "Sub").is_some(), "small does not push");
    // Every function reserves its concurrency, so the instances inside the VPC, each with its
    // whole pool, stay under max_connections at the smallest maximum the template allows (4 ACU:
    // 823, less the 5 slots RDS keeps for its superusers), as docs/OPERATIONS.md works it out.
    let pool: u64 = env["Environment"]["Variables"]["DB_MAX_CONNECTIONS"].as_str().unwrap().parse().unwrap();
    let mut connections = 0;
    for (name, f) in r.iter().filter(|(_, x)| x["Type"] == "AWS::Serverless::Function") {
        let reserved = f["Properties"]["ReservedConcurrentExecutions"].as_u64().unwrap_or_else(|| panic!("{name} reserves nothing"));
        if !is_ref(&doc["Resources"][name.as_str()]["Properties"]["VpcConfig"], "AWS::NoValue") {
            connections += reserved * pool;
        }
    }
    assert!(connections <= 823 - 5, "{connections} connections");
    assert!(operations().contains(&format!("{connections} connections")), "docs/OPERATIONS.md does not give the {connections} connections");
    let rule = &doc["Rules"]["SmallProfileConnectionsFit"];
    let refused = serde_yaml::to_string(&rule["Assertions"][0]["Assert"]).unwrap();
    for below in ["'1'", "'1.5'", "'2'", "'2.5'", "'3'", "'3.5'"] {
        assert!(refused.contains(below), "the rule lets DbMaxCapacity {below} through: {refused}");
    }
    // The same failures page, counted stack-wide: any three answers 5xx (other than 503) or
    // failed invocations of any function, from the logs, rolling every canary back.
    let failures = &r["FunctionFailuresAlarm"]["Properties"];
    assert_eq!((failures["MetricName"].as_str(), failures["Threshold"].as_f64()), (Some("Failures"), Some(3.0)));
    let counted: BTreeSet<String> = r
        .values()
        .filter(|x| x["Type"] == "AWS::Logs::MetricFilter" && x["Properties"]["MetricTransformations"][0]["MetricName"] == "Failures")
        .map(|x| tagged(&x["Properties"]["LogGroupName"], "Ref").and_then(Value::as_str).unwrap().trim_end_matches("Logs").to_string())
        .collect();
    let functions: BTreeSet<String> = functions(&doc).into_iter().map(|(n, _)| n.trim_end_matches("Function").to_string()).collect();
    assert_eq!(counted, functions, "a function whose failures small does not count");
    for alarm in
        ["LambdaThrottlesAlarm", "ApiIntegrationLatencyAlarm", "WsIntegrationLatencyAlarm", "DbConnectionsAlarm", "SweepErrorsAlarm"]
    {
        assert_eq!(r[alarm]["Type"], "AWS::CloudWatch::Alarm", "{alarm}");
        assert!(operations().contains(alarm), "docs/OPERATIONS.md does not list {alarm}");
    }
}

/// `python3 infra/cost.py --check`: docs/OPERATIONS.md's cost table is the model's output for
/// this template, and Profile small stays under its limits; skipped where there is no python3.
#[test]
fn the_cost_table_is_the_models_and_small_stays_under_its_limits() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let out = match std::process::Command::new("python3").args(["infra/cost.py", "--check"]).current_dir(root).output() {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!("python3 not found: infra/cost.py --check not run");
            return;
        }
        Err(e) => panic!("python3 infra/cost.py --check: {e}"),
    };
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
}
