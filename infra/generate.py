#!/usr/bin/env python3
"""Writes infra/template.yaml: the shared part once, and per function its resources (the
function with its live alias and canary, its log group, its metric filters and its alarms).

    python3 infra/generate.py            rewrite infra/template.yaml
    python3 infra/generate.py --check    exit 1 if infra/template.yaml is not what it would write

Edit this file, not the template; `shared/api/tests/infra.rs` checks the template itself (routes
against `api::Route`, and the deploy-safety properties of docs/OPERATIONS.md).
"""

import pathlib
import sys

# (logical id, binary, method, path, memory MB, timeout s, reserved concurrency when on,
#  route throttle: (rate per s, burst), authoriser: "jwt" (the player routes: the header's token),
#  "cookie" (the admin pages: the session cookie, AdminCookie), "public" (the admin sign-in),
#  "open" (the web app and the variants: no authoriser, no database); a list of paths when one
#  function serves several routes)
FUNCTIONS = [
    ("CreateGame", "create-game", "POST", "/games", 1769, 10, 20, (20, 40), "jwt"),
    ("GetGame", "get-game", "GET", "/games/{id}", 512, 5, 20, (100, 200), "jwt"),
    ("SubmitMove", "submit-move", "POST", "/games/{id}/moves", 1769, 10, 40, (50, 100), "jwt"),
    ("PreviewMove", "preview-move", "POST", "/games/{id}/preview", 512, 5, 20, (40, 80), "jwt"),
    ("Hint", "hint", "GET", "/games/{id}/hint", 1024, 10, 20, (20, 40), "jwt"),
    ("Resign", "resign", "POST", "/games/{id}/resign", 1769, 10, 10, (10, 20), "jwt"),
    ("Challenge", "challenge", "POST", "/games/{id}/challenge", 1769, 10, 10, (10, 20), "jwt"),
    ("WithdrawGame", "withdraw-game", "POST", "/games/{id}/withdraw", 1769, 10, 5, (5, 10), "jwt"),
    ("ClaimTimeout", "claim-timeout", "POST", "/games/{id}/timeout", 1769, 10, 10, (10, 20), "jwt"),
    ("OpenGame", "open-game", "POST", "/games/open", 512, 5, 10, (10, 20), "jwt"),
    ("ListOpenGames", "list-open-games", "GET", "/games/open", 512, 5, 10, (20, 40), "jwt"),
    ("ListMyGames", "list-my-games", "GET", "/games", 512, 5, 10, (20, 40), "jwt"),
    ("GetMoves", "get-moves", "GET", "/games/{id}/moves", 512, 5, 10, (20, 40), "jwt"),
    ("Rematch", "rematch", "POST", "/games/{id}/rematch", 1769, 10, 10, (10, 20), "jwt"),
    ("DeclineRematch", "decline-rematch", "POST", "/games/{id}/decline", 512, 5, 5, (5, 10), "jwt"),
    ("JoinGame", "join-game", "POST", "/games/{id}/join", 1769, 10, 10, (10, 20), "jwt"),
    ("AttachRobot", "attach-robot", "POST", "/games/{id}/robot", 1769, 10, 10, (10, 20), "jwt"),
    ("AdminReplay", "admin-replay", "GET", "/_gm/games/{id}", 512, 10, 5, (5, 10), "cookie"),
    ("AdminTimeline", "admin-timeline", "GET", "/_gm/games/{id}/timeline.json", 512, 10, 5, (5, 10), "cookie"),
    ("AdminAccount", "admin-account", "GET", "/_gm/accounts/{id}", 512, 10, 5, (5, 10), "cookie"),
    ("AdminTournament", "admin-tournament", "GET", "/_gm/tournaments/{id}", 512, 10, 5, (5, 10), "cookie"),
    ("AdminGames", "admin-games", "GET", "/_gm", 512, 10, 5, (5, 10), "cookie"),
    ("AdminSignOut", "admin-signout", "POST", "/_gm/signout", 256, 5, 2, (2, 5), "cookie"),
    ("AdminSignIn", "admin-signin", "GET", "/_gm/signin", 256, 10, 2, (2, 5), "public"),
    ("Me", "me", "GET", "/me", 512, 5, 5, (10, 20), "jwt"),
    ("AccountRatings", "account-ratings", "GET", "/accounts/{id}/ratings", 512, 5, 5, (10, 20), "jwt"),
    ("Leaderboard", "leaderboard", "GET", "/ratings/leaderboard", 512, 5, 5, (10, 20), "jwt"),
    ("Analysis", "analysis", "GET", "/games/{id}/analysis", 1769, 29, 5, (5, 10), "jwt"),
    ("DrawTile", "draw-tile", "POST", "/games/{id}/draw", 1024, 10, 5, (10, 20), "jwt"),
    ("CreateTournament", "create-tournament", "POST", "/tournaments", 512, 5, 2, (2, 5), "jwt"),
    ("ListTournaments", "list-tournaments", "GET", "/tournaments", 512, 5, 2, (10, 20), "jwt"),
    ("GetTournament", "get-tournament", "GET", "/tournaments/{id}", 512, 5, 5, (20, 40), "jwt"),
    ("RegisterPlayer", "register-player", "POST", "/tournaments/{id}/players", 512, 5, 2, (5, 10), "jwt"),
    ("WithdrawPlayer", "withdraw-player", "POST", "/tournaments/{id}/withdraw", 512, 5, 2, (2, 5), "jwt"),
    ("EnterTournament", "enter-tournament", "POST", "/tournaments/{id}/enter", 512, 5, 2, (5, 10), "jwt"),
    ("LeaveTournament", "leave-tournament", "POST", "/tournaments/{id}/leave", 512, 5, 2, (5, 10), "jwt"),
    ("PairRound", "pair-round", "POST", "/tournaments/{id}/rounds", 512, 10, 2, (2, 5), "jwt"),
    ("StartRound", "start-round", "POST", "/tournaments/{id}/rounds/{round}/start", 1024, 10, 2, (2, 5), "jwt"),
    ("RecordForfeit", "record-forfeit", "POST", "/tournaments/{id}/forfeits", 512, 5, 2, (2, 5), "jwt"),
    ("CloseTournament", "close-tournament", "POST", "/tournaments/{id}/close", 512, 5, 2, (2, 5), "jwt"),
    ("ExportTournament", "export-tournament", "GET", "/tournaments/{id}/export", 512, 5, 2, (5, 10), "jwt"),
    ("ListLiveGames", "list-live-games", "GET", "/games/live", 512, 5, 5, (10, 20), "jwt"),
    ("UpdateSettings", "update-settings", "PUT", "/me/settings", 512, 5, 2, (5, 10), "jwt"),
    ("Web", "web", "GET", ["/", "/web/{id}", "/variants"], 256, 5, 20, (50, 100), "open"),
]
MIGRATE_RESERVED = 1
AUTHORIZER_RESERVED = 5
WS_RESERVED = 20

# The routes that commit moves (a player's, the robots' replies): they, the sweep and the ws
# function may post to the WebSocket connections and publish to the bus (PushPolicy).
PUSHERS = {"create-game", "submit-move", "resign", "challenge", "withdraw-game", "claim-timeout", "open-game", "join-game",
           "attach-robot", "rematch", "decline-rematch", "draw-tile", "start-round"}

# Every alarm notifies one topic, ALARM and OK alike: the stack's own (AlarmTopic, which
# AlarmEmail subscribes to) unless AlarmTopicArn names an existing one.
ALARM_TOPIC = '!If [GivenAlarmTopic, !Ref AlarmTopicArn, !Ref AlarmTopic]'
ALARM_ACTIONS = f"""      AlarmActions: [{ALARM_TOPIC}]
      OKActions: [{ALARM_TOPIC}]"""

HEAD = r'''# Generated by infra/generate.py: edit that, then run it (CI: `python3 infra/generate.py --check`).
AWSTemplateFormatVersion: "2010-09-09"
# AWS::LanguageExtensions lets DbCluster's DeletionPolicy and UpdateReplacePolicy follow the
# DataProtection parameter (Fn::If); it needs CAPABILITY_AUTO_EXPAND on deploy.
Transform: [AWS::LanguageExtensions, AWS::Serverless-2016-10-31]
Description: >
  wordgame: one Lambda function per route behind an HTTP API with a JWT authoriser, each on a
  live alias shifted by CodeDeploy (canary with automatic rollback on its 5xx alarm), and Aurora
  PostgreSQL Serverless v2 in private subnets behind RDS Proxy with IAM authentication; the
  migrations run (custom resource SchemaMigration) before any function's new code is published.
  Built with `sam build` (Metadata BuildMethod rust-cargolambda). See docs/OPERATIONS.md.

Parameters:
  JwtIssuer:
    Type: String
    Description: The identity provider's issuer URL (e.g. https://cognito-idp.REGION.amazonaws.com/POOL_ID).
  JwtAudience:
    Type: CommaDelimitedList
    Description: Accepted audiences (e.g. the Cognito app client ids).
  AdminHostedUi:
    Type: String
    Description: "The user pool's hosted UI base URL, where admins sign in (e.g. https://auth.example.org or https://PREFIX.auth.REGION.amazoncognito.com)."
  PlayerClientId:
    Type: String
    Default: ""
    Description: "The app client the player web app signs in with in the browser (authorization code grant with PKCE, no secret, scopes openid and profile; callback and sign-out URL https://API/), one of JwtAudience. Empty: the app at / cannot sign anyone in."
  AdminClientId:
    Type: String
    Description: "The app client the admin pages sign in with (authorization code grant with PKCE, no secret, scope openid; callback URL https://API/_gm/signin): the audience of the ID tokens the admin routes' authoriser accepts."
  DbName:
    Type: String
    Default: wordgame
  DbUser:
    Type: String
    Default: wordgame_admin
    AllowedPattern: "[a-z][a-z0-9_]{2,30}"
    Description: "The schema's owner: the cluster's master user, whose secret RDS Proxy holds. Only migrate connects as it (through the proxy, with an IAM token); no API function may."
  DbAppUser:
    Type: String
    Default: wordgame_app
    AllowedPattern: "[a-z][a-z0-9_]{2,30}"
    Description: "The application role the API functions connect as (through the proxy, IAM end to end, no password anywhere): migrate creates it with SELECT/INSERT/UPDATE/DELETE on the tables and USAGE on the sequences only, and grants it rds_iam."
  StageName:
    Type: String
    Default: staging
    AllowedValues: [staging, production]
    Description: "Which stage this stack is (one stack per stage, e.g. wordgame-staging and wordgame-production); tags every resource and names the dashboard. The safety settings below are chosen per stage (docs/OPERATIONS.md, Stages)."
  DataProtection:
    Type: String
    Default: "off"
    AllowedValues: ["off", "on"]
    Description: "on: the cluster has deletion protection and is snapshotted when deleted or replaced. Leave off for the first create (a failed create must be able to roll back and delete the cluster), turn on with the first update after it succeeded (scripts/deploy.sh does)."
  ReservedConcurrency:
    Type: String
    Default: "off"
    AllowedValues: ["off", "on"]
    Description: "on: each function reserves its concurrency (296 in all). Lambda keeps 100 unreserved, so the account's concurrency quota must be at least 396; new accounts often have less. off: the functions share the account's pool and the API's route throttles bound them."
  PushEgress:
    Type: String
    Default: "on"
    AllowedValues: ["off", "on"]
    Description: "on: a NAT gateway gives the functions' private subnets a route out, which the WebSocket API's management calls (push, and the replies to subscribe) need: a WebSocket API has a Regional endpoint only, reached over the internet. off: no NAT (about $33 a month less); moves are still published to the bus, but nothing is posted to sockets, so clients poll with ETag."
  HighAvailability:
    Type: String
    Default: "off"
    AllowedValues: ["off", "on"]
    Description: "on: a second Aurora instance (a reader, failover target) in the second availability zone."
  PerformanceInsights:
    Type: String
    Default: "on"
    AllowedValues: ["off", "on"]
    Description: "on: Performance Insights on every instance (7 days' retention, the free tier)."
  PostgresLogExport:
    Type: String
    Default: "on"
    AllowedValues: ["off", "on"]
    Description: "on: the PostgreSQL log is exported to CloudWatch Logs (/aws/rds/cluster/<cluster>/postgresql)."
  DbMaxCapacity:
    Type: Number
    Default: 8
    MinValue: 1
    MaxValue: 128
    Description: Aurora Serverless v2 maximum ACU (the ACU-at-max alarm fires at it).
  TrafficShifting:
    Type: String
    Default: Canary10Percent5Minutes
    AllowedValues: [Canary10Percent5Minutes, Canary10Percent10Minutes, Linear10PercentEvery1Minute, AllAtOnce]
    Description: "How CodeDeploy moves each function's live alias to a new version; the function's 5xx and error alarms roll it back."
  AllowedOrigins:
    Type: String
    Default: ""
    Description: "Browser origins allowed by CORS, comma-separated (e.g. https://play.example.org,https://staging.play.example.org); empty = no CORS. A String split in the template, not a CommaDelimitedList: SAM resolves the parameter into the API's OpenAPI body, where Fn::Split then makes the list."
  DomainName:
    Type: String
    Default: ""
    Description: "Optional custom domain for the API (e.g. api.example.org); empty = the execute-api URL only."
  CertificateArn:
    Type: String
    Default: ""
    AllowedPattern: "^$|^arn:aws[a-zA-Z-]*:acm:[a-z0-9-]+:[0-9]{12}:certificate/.+$"
    Description: "ACM certificate for DomainName, in this region (needed when DomainName is set)."
  LogRetentionDays:
    Type: Number
    Default: 30
    AllowedValues: [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653]
    Description: "Days every log group keeps its events: each function's, the two APIs' access logs, and PostgreSQL's (DbLogRetention)."
  AlarmEmail:
    Type: String
    Default: ""
    AllowedPattern: "^$|^[^@\\s]+@[^@\\s]+$"
    Description: "The address every alarm (ALARM and OK) is mailed to: subscribed to the alarm topic by email. AWS first mails a confirmation link; nothing arrives until it is followed. Empty: no subscription (scripts/deploy.sh refuses a deploy without this or AlarmTopicArn)."
  AlarmTopicArn:
    Type: String
    Default: ""
    Description: "An existing SNS topic for the alarms (e.g. the on-call pager's); empty: the stack's own topic AlarmTopic (output AlarmTopic)."

Conditions:
  GivenAlarmTopic: !Not [!Equals [!Ref AlarmTopicArn, ""]]
  OwnAlarmTopic: !Equals [!Ref AlarmTopicArn, ""]
  HasAlarmEmail: !Not [!Equals [!Ref AlarmEmail, ""]]
  Protect: !Equals [!Ref DataProtection, "on"]
  Reserve: !Equals [!Ref ReservedConcurrency, "on"]
  HasPushEgress: !Equals [!Ref PushEgress, "on"]
  HighlyAvailable: !Equals [!Ref HighAvailability, "on"]
  Insights: !Equals [!Ref PerformanceInsights, "on"]
  ExportLogs: !Equals [!Ref PostgresLogExport, "on"]
  HasCors: !Not [!Equals [!Ref AllowedOrigins, ""]]
  HasDomain: !Not [!Equals [!Ref DomainName, ""]]

Rules:
  # An admin session (an ID token of AdminClientId) is never a player's token: on the HTTP API's
  # JWT authoriser and the push socket's, the audiences are JwtAudience's, which must not hold
  # the admin client.
  AdminClientIsNoPlayerAudience:
    Assertions:
      - Assert:
          Fn::Not: [{ "Fn::Contains": [!Ref JwtAudience, !Ref AdminClientId] }]
        AssertDescription: "AdminClientId must not be one of JwtAudience: an admin session would pass as a player's token."

Globals:
  Function:
    Runtime: provided.al2023
    Architectures: [arm64]
    Handler: bootstrap
    CodeUri: ..
    Tracing: Active
    Layers: [!Ref LexiconLayer]
    AutoPublishAlias: live
    VpcConfig:
      SecurityGroupIds: [!Ref FunctionSecurityGroup]
      SubnetIds: [!Ref PrivateSubnetA, !Ref PrivateSubnetB]
    Tags:
      stage: !Ref StageName
    Environment:
      Variables:
        DB_PROXY_ENDPOINT: !GetAtt DbProxy.Endpoint
        DB_NAME: !Ref DbName
        DB_USER: !Ref DbAppUser
        DB_MAX_CONNECTIONS: "2"
        LEXICON_DIR: /opt/lexicon
        RUST_LOG: info
        AWS_LAMBDA_LOG_FORMAT: JSON
        # Push after every commit (docs/API.md "Push"): the WebSocket API's management endpoint
        # (its stage named literally: a reference to WsStage would make every function depend on
        # the stage, whose routes depend on the ws function) and the bus the moves go to.
        # Empty without egress: then nothing is posted (a post could only time out).
        PUSH_CONNECTIONS_ENDPOINT: !If [HasPushEgress, !Sub "https://${WsApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}/live", ""]
        EVENT_BUS_NAME: !Ref EventBus

Resources:
  # --- The word graphs, as files in a layer: embedded, they would make every zip 8.7 MB. ---
  # scripts/build-lambdas.sh writes target/lambda/lexicon-layer/lexicon/<variant>.kwg from the
  # same build as the functions, which refuse at cold start a graph that is not their own.
  LexiconLayer:
    Type: AWS::Serverless::LayerVersion
    Properties:
      LayerName: !Sub "${AWS::StackName}-lexicon"
      Description: Word graphs of scrabble-en, scrabble-ru and erudit, mounted at /opt/lexicon
      ContentUri: ../target/lambda/lexicon-layer/
      LicenseInfo: "scrabble-en.kwg from ENABLE (public domain); scrabble-ru.kwg and erudit.kwg adapted from the OpenCorpora dictionary, (c) the OpenCorpora contributors, CC-BY-SA-3.0 (https://creativecommons.org/licenses/by-sa/3.0/legalcode); see NOTICE.md"
      CompatibleRuntimes: [provided.al2023]
      CompatibleArchitectures: [arm64]
      RetentionPolicy: Delete

  # --- Network: two private subnets for the functions and the database; their only route out
  # is the NAT gateway in a public subnet when PushEgress is on (for the WebSocket API's
  # management calls); the bus is reached through an interface endpoint. ---
  Vpc:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: 10.40.0.0/16
      EnableDnsHostnames: true
      EnableDnsSupport: true
PRIVATE_SUBNETS
  InternetGateway:
    Type: AWS::EC2::InternetGateway
    Condition: HasPushEgress
  InternetGatewayAttachment:
    Type: AWS::EC2::VPCGatewayAttachment
    Condition: HasPushEgress
    Properties:
      VpcId: !Ref Vpc
      InternetGatewayId: !Ref InternetGateway
PUBLIC_SUBNET
  PublicDefaultRoute:
    Type: AWS::EC2::Route
    Condition: HasPushEgress
    DependsOn: InternetGatewayAttachment
    Properties:
      RouteTableId: !Ref PublicRouteTable
      DestinationCidrBlock: 0.0.0.0/0
      GatewayId: !Ref InternetGateway
PUBLIC_ASSOCIATION
  NatAddress:
    Type: AWS::EC2::EIP
    Condition: HasPushEgress
    DependsOn: InternetGatewayAttachment
    Properties:
      Domain: vpc
  NatGateway:
    Type: AWS::EC2::NatGateway
    Condition: HasPushEgress
    Properties:
      AllocationId: !GetAtt NatAddress.AllocationId
      SubnetId: !Ref PublicSubnet
PRIVATE_ROUTE_TABLE
  PrivateDefaultRoute:
    Type: AWS::EC2::Route
    Condition: HasPushEgress
    Properties:
      RouteTableId: !Ref PrivateRouteTable
      DestinationCidrBlock: 0.0.0.0/0
      NatGatewayId: !Ref NatGateway
PRIVATE_ASSOCIATIONS
  FunctionSecurityGroup:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: wordgame functions
      VpcId: !Ref Vpc
  ProxySecurityGroup:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: RDS Proxy, reachable from the functions only
      VpcId: !Ref Vpc
      SecurityGroupIngress:
        - IpProtocol: tcp
          FromPort: 5432
          ToPort: 5432
          SourceSecurityGroupId: !Ref FunctionSecurityGroup
  DatabaseSecurityGroup:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: Aurora, reachable from RDS Proxy only
      VpcId: !Ref Vpc
      SecurityGroupIngress:
        - IpProtocol: tcp
          FromPort: 5432
          ToPort: 5432
          SourceSecurityGroupId: !Ref ProxySecurityGroup

  # --- Database: Aurora PostgreSQL Serverless v2; RDS keeps the master secret in Secrets Manager
  # and rotates it (every 7 days); only RDS Proxy reads it. Deletion protection and the snapshot
  # on delete follow DataProtection, off for the first create so that a failed create rolls back
  # (deletes the cluster) instead of ending in ROLLBACK_FAILED. ---
  DbSubnetGroup:
    Type: AWS::RDS::DBSubnetGroup
    Properties:
      DBSubnetGroupDescription: wordgame private subnets
      SubnetIds: [!Ref PrivateSubnetA, !Ref PrivateSubnetB]
  DbCluster:
    Type: AWS::RDS::DBCluster
    DeletionPolicy: !If [Protect, Snapshot, Delete]
    UpdateReplacePolicy: !If [Protect, Snapshot, Delete]
    Properties:
      Engine: aurora-postgresql
      EngineVersion: "15.10"
      DatabaseName: !Ref DbName
      MasterUsername: !Ref DbUser
      ManageMasterUserPassword: true
      DBSubnetGroupName: !Ref DbSubnetGroup
      VpcSecurityGroupIds: [!Ref DatabaseSecurityGroup]
      EnableIAMDatabaseAuthentication: true
      StorageEncrypted: true
      BackupRetentionPeriod: 7
      DeletionProtection: !If [Protect, true, false]
      EnableCloudwatchLogsExports: !If [ExportLogs, [postgresql], !Ref "AWS::NoValue"]
      ServerlessV2ScalingConfiguration:
        MinCapacity: 0.5
        MaxCapacity: !Ref DbMaxCapacity
DB_INSTANCES
  # The proxy logs in to Aurora as the owner with the master secret, and as the application
  # role with IAM (end-to-end IAM authentication: DefaultAuthScheme IAM_AUTH, the role granted
  # rds_iam by migrate): the application role has no password at all.
  DbProxyRole:
    Type: AWS::IAM::Role
    Properties:
      AssumeRolePolicyDocument:
        Version: "2012-10-17"
        Statement:
          - Effect: Allow
            Principal: { Service: rds.amazonaws.com }
            Action: sts:AssumeRole
      Policies:
        - PolicyName: read-db-secret
          PolicyDocument:
            Version: "2012-10-17"
            Statement:
              - Effect: Allow
                Action: secretsmanager:GetSecretValue
                Resource: !GetAtt DbCluster.MasterUserSecret.SecretArn
        - PolicyName: connect-as-app-role
          PolicyDocument:
            Version: "2012-10-17"
            Statement:
              - Effect: Allow
                Action: rds-db:connect
                Resource: !Sub "arn:${AWS::Partition}:rds-db:${AWS::Region}:${AWS::AccountId}:dbuser:${DbCluster.DBClusterResourceId}/${DbAppUser}"
  DbProxy:
    Type: AWS::RDS::DBProxy
    Properties:
      DBProxyName: !Sub "${AWS::StackName}-proxy"
      EngineFamily: POSTGRESQL
      RequireTLS: true
      IdleClientTimeout: 900
      RoleArn: !GetAtt DbProxyRole.Arn
      DefaultAuthScheme: IAM_AUTH
      VpcSubnetIds: [!Ref PrivateSubnetA, !Ref PrivateSubnetB]
      VpcSecurityGroupIds: [!Ref ProxySecurityGroup]
      Auth:
        - AuthScheme: SECRETS
          IAMAuth: REQUIRED
          SecretArn: !GetAtt DbCluster.MasterUserSecret.SecretArn
  # The target group registers the cluster's instances: it must wait for the writer to exist,
  # or the first create can fail (the race AWS CDK fixed in aws-cdk #11311 / #31304).
  # ConnectionBorrowTimeout 3 s: a request waits at most 3 s for a database connection, under
  # the 5 s and 10 s function timeouts, then the service answers a typed 503 (the default, 120 s,
  # would outlive every function).
  DbProxyTargetGroup:
    Type: AWS::RDS::DBProxyTargetGroup
    DependsOn: [DbInstance]
    Properties:
      DBProxyName: !Ref DbProxy
      TargetGroupName: default
      DBClusterIdentifiers: [!Ref DbCluster]
      ConnectionPoolConfigurationInfo:
        MaxConnectionsPercent: 80
        ConnectionBorrowTimeout: 3

  # The one permission a function has on the database: connect through the proxy with an IAM
  # token as one user (the resource names the proxy by its id, the ARN's last part). The API
  # functions may connect as the application role only, migrate as the owner only.
DB_CONNECT_POLICIES

  # --- Schema before code. SchemaMigration invokes the migrate function's new version whenever
  # it changes (the migrations are compiled into it) and fails the deploy if migrate fails; every
  # other function DependsOn it, so no new code is published, let alone given traffic, before the
  # schema is migrated. On the first create it runs once the proxy has its target. The runner sits
  # outside the VPC (it needs only the Lambda API and CloudFormation's response URL). A rollback
  # sends it the previous migrate version, which finds the newer migrations applied and answers
  # "previously applied but is missing": that is success (old code runs on the expanded schema,
  # docs/OPERATIONS.md "Migrations"). ---
SCHEMA_MIGRATION_RUNNER
  # After the runner's log group: a function invoked before its group exists gets one from
  # Lambda, without retention, and the group's create then fails.
  SchemaMigration:
    Type: Custom::SchemaMigration
    DependsOn: [DbProxyTargetGroup, MigrateLogs, SchemaMigrationRunnerLogs]
    Properties:
      ServiceToken: !GetAtt SchemaMigrationRunner.Arn
      MigrateVersion: !Ref MigrateFunction.Version

  # --- PostgreSQL's log group, /aws/rds/cluster/<cluster>/postgresql, is made by RDS (without
  # retention) as soon as the cluster exports its log: a LogGroup resource, which can only be
  # named once the cluster is, would find it there and fail. DbLogRetention gives it
  # LogRetentionDays instead, creating it first when RDS has not yet. ---
DB_LOG_RETENTION

  # --- HTTP API with the JWT authoriser, access logs, CORS and throttling: a default per
  # route and each route's own limit (route settings on the events). ---
  ApiAccessLogs:
    Type: AWS::Logs::LogGroup
    Properties:
      RetentionInDays: !Ref LogRetentionDays
  HttpApi:
    Type: AWS::Serverless::HttpApi
    Properties:
      Tags:
        stage: !Ref StageName
      AccessLogSettings:
        DestinationArn: !GetAtt ApiAccessLogs.Arn
        Format: '{"requestId":"$context.requestId","routeKey":"$context.routeKey","status":"$context.status","latency":"$context.responseLatency","integrationLatency":"$context.integrationLatency","integrationStatus":"$context.integrationStatus","integrationRequestId":"$context.integration.requestId","error":"$context.error.message","sub":"$context.authorizer.claims.sub"}'
      DefaultRouteSettings:
        ThrottlingBurstLimit: 200
        ThrottlingRateLimit: 100
      CorsConfiguration: !If
        - HasCors
        - AllowOrigins: !Split [",", !Ref AllowedOrigins]
          AllowMethods: [GET, POST, PUT, OPTIONS]
          # if-none-match and etag: a client polls GET /games/{id} with the ETag it was given
          # (docs/API.md); retry-after comes with a 429 or a 503; x-request-id names every answer.
          AllowHeaders: [authorization, content-type, if-none-match]
          ExposeHeaders: [retry-after, etag, x-request-id]
          MaxAge: 600
        - !Ref "AWS::NoValue"
      Auth:
        DefaultAuthorizer: Jwt
        Authorizers:
          Jwt:
            IdentitySource: $request.header.Authorization
            JwtConfiguration:
              issuer: !Ref JwtIssuer
              audience: !Ref JwtAudience
          # The admin pages (/_gm/*): the session cookie's ID token, checked by the
          # admin-authorizer function's live alias, as every function is invoked (signature
          # against the pool's keys, issuer, audience, expiry, admin group). Uncached: an
          # expired cookie is refused at once; a signed-out one by the admin functions, which
          # check the session against the database on every request.
          AdminCookie:
            FunctionArn: !Ref AdminAuthorizerFunction.Alias
            AuthorizerPayloadFormatVersion: "2.0"
            EnableSimpleResponses: true
            EnableFunctionDefaultPermissions: true
            Identity:
              ReauthorizeEvery: 0

  # Optional custom domain: the API at https://DomainName/ (point a DNS alias at the output
  # ApiDomainTarget).
  ApiDomain:
    Type: AWS::ApiGatewayV2::DomainName
    Condition: HasDomain
    Metadata:
      # The empty default does not look like an ARN; the resource exists only with a domain.
      cfn-lint: { config: { ignore_checks: [W1030] } }
    Properties:
      DomainName: !Ref DomainName
      DomainNameConfigurations:
        - CertificateArn: !Ref CertificateArn
          EndpointType: REGIONAL
          SecurityPolicy: TLS_1_2
  ApiDomainMapping:
    Type: AWS::ApiGatewayV2::ApiMapping
    Condition: HasDomain
    DependsOn: [HttpApiApiGatewayDefaultStage]
    Properties:
      DomainName: !Ref ApiDomain
      ApiId: !Ref HttpApi
      Stage: $default

  # --- Where the alarms go: the stack's topic (none when AlarmTopicArn names one), and
  # AlarmEmail subscribed to whichever topic is in use. ---
  AlarmTopic:
    Type: AWS::SNS::Topic
    Condition: OwnAlarmTopic
    Properties:
      DisplayName: !Sub "${AWS::StackName} alarms"
      Tags:
        - { Key: stage, Value: !Ref StageName }
  AlarmEmailSubscription:
    Type: AWS::SNS::Subscription
    Condition: HasAlarmEmail
    Properties:
      TopicArn: ALARM_TOPIC
      Protocol: email
      Endpoint: !Ref AlarmEmail
    # No dead-letter queue (ES7000): it would keep the mails SNS could not deliver where nobody
    # reads them either; an alarm's state and history stay in CloudWatch whatever the mail does.
    Metadata: { cfn-lint: { config: { ignore_checks: [ES7000] } } }

  # --- Whole-service alarms: the API as clients see it, the proxy and Aurora. ---
SERVICE_ALARMS

'''


# The custom resource SchemaMigration's runner: migrate's version in, CloudFormation answered.
SCHEMA_MIGRATION_CODE = r'''# Runs migrate's version (the resource's MigrateVersion) and answers CloudFormation.
# A database not reachable yet (the proxy registering its first target) is retried
# for up to 10 minutes; a migration that fails there fails the deploy. migrate's log
# tail tells the database is ahead of it (sqlx VersionMissing: "previously applied but
# is missing"), which a rollback to the previous version meets: that is success.
import base64, json, time, urllib.request
import boto3
from botocore.config import Config

LAMBDA = boto3.client("lambda", config=Config(read_timeout=200, retries={"max_attempts": 0}))
AHEAD = ("VersionMissing", "previously applied but is missing")
DEADLINE = 600

def run_once(version_arn):
    r = LAMBDA.invoke(FunctionName=version_arn, Payload=b"{}", LogType="Tail")
    body = r["Payload"].read().decode()
    tail = base64.b64decode(r.get("LogResult", "")).decode(errors="replace")
    if not r.get("FunctionError"):
        return "ok", body
    if any(a in body or a in tail for a in AHEAD):
        return "ok", "the database is ahead of this migrate version: " + body
    return "retry", body + " | " + tail[-1500:]

def migrate(version_arn):
    started, last = time.time(), ""
    while time.time() - started < DEADLINE:
        try:
            outcome, last = run_once(version_arn)
        except (LAMBDA.exceptions.TooManyRequestsException, LAMBDA.exceptions.ResourceConflictException) as e:
            outcome, last = "retry", repr(e)
        print(json.dumps({"migrate": last[:2000], "outcome": outcome}))
        if outcome == "ok":
            return True, last
        time.sleep(20)
    return False, last

def handler(event, context):
    status, reason, data = "FAILED", "", {}
    try:
        if event["RequestType"] == "Delete":
            status = "SUCCESS"
        else:
            ok, body = migrate(event["ResourceProperties"]["MigrateVersion"])
            status, reason = ("SUCCESS" if ok else "FAILED"), body[:300]
            data = {"Result": body[:200]}
    except Exception as e:
        reason = repr(e)[:300]
        print(json.dumps({"error": reason}))
    answer = json.dumps({
        "Status": status, "Reason": reason or "see the log group " + context.log_group_name,
        "PhysicalResourceId": event.get("PhysicalResourceId", "schema-migration"),
        "StackId": event["StackId"], "RequestId": event["RequestId"],
        "LogicalResourceId": event["LogicalResourceId"], "Data": data,
    }).encode()
    req = urllib.request.Request(event["ResponseURL"], data=answer, method="PUT",
                                 headers={"content-type": "", "content-length": str(len(answer))})
    urllib.request.urlopen(req, timeout=30)'''


def python_runner(lid, name, description, timeout, permission, actions, resources, code, condition=""):
    """A custom resource's runner: an inline Python function outside the VPC (`lid`, named
    `<stack>-name`), its role (allowed `actions` on `resources`, under the policy `permission`)
    and its log group, created before anything invokes it (see `DependsOn` on the custom
    resource); with `condition`, all three only under it."""
    cond = f"\n    Condition: {condition}" if condition else ""
    listed = "".join(f"\n                  - {r}" for r in resources)
    body = "\n".join(("          " + line) if line else "" for line in code.split("\n"))
    return f"""  {lid}Role:
    Type: AWS::IAM::Role{cond}
    Properties:
      AssumeRolePolicyDocument:
        Version: "2012-10-17"
        Statement:
          - Effect: Allow
            Principal: {{ Service: lambda.amazonaws.com }}
            Action: sts:AssumeRole
      ManagedPolicyArns:
        - !Sub "arn:${{AWS::Partition}}:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"
        - !Sub "arn:${{AWS::Partition}}:iam::aws:policy/AWSXRayDaemonWriteAccess"
      Policies:
        - PolicyName: {permission}
          PolicyDocument:
            Version: "2012-10-17"
            Statement:
              - Effect: Allow
                Action: {actions}
                Resource:{listed}
  {lid}:
    Type: AWS::Lambda::Function{cond}
    Properties:
      FunctionName: !Sub "${{AWS::StackName}}-{name}"
      Description: "{description}"
      Runtime: python3.12
      Architectures: [arm64]
      Handler: index.handler
      MemorySize: 128
      Timeout: {timeout}
      Role: !GetAtt {lid}Role.Arn
      TracingConfig:
        Mode: Active
      LoggingConfig:
        LogFormat: JSON
      Tags:
        - {{ Key: stage, Value: !Ref StageName }}
      Code:
        ZipFile: |
{body}
  {lid}Logs:
    Type: AWS::Logs::LogGroup{cond}
    Properties:
      LogGroupName: !Sub "/aws/lambda/${{{lid}}}"
      RetentionInDays: !Ref LogRetentionDays"""


# The custom resource DbLogRetention's runner: a log group's retention set, the group made
# first if it is not there; on Delete the group is left to expire.
LOG_RETENTION_CODE = r'''# Gives the log group LogGroupName RetentionInDays, creating it if it does not exist yet.
import boto3
import cfnresponse

LOGS = boto3.client("logs")

def handler(event, context):
    name = event["ResourceProperties"]["LogGroupName"]
    try:
        if event["RequestType"] != "Delete":
            try:
                LOGS.create_log_group(logGroupName=name)
            except LOGS.exceptions.ResourceAlreadyExistsException:
                pass
            days = int(event["ResourceProperties"]["RetentionInDays"])
            LOGS.put_retention_policy(logGroupName=name, retentionInDays=days)
        cfnresponse.send(event, context, cfnresponse.SUCCESS, {}, name)
    except Exception as e:
        print(repr(e))
        cfnresponse.send(event, context, cfnresponse.FAILED, {}, name, reason=repr(e)[:300])'''
POSTGRES_LOG = "/aws/rds/cluster/${DbCluster}/postgresql"
DB_LOG_RETENTION = python_runner(
    "LogRetentionRunner", "log-retention", "Custom resource: sets the PostgreSQL log group's retention", 60,
    "set-retention", "[logs:CreateLogGroup, logs:PutRetentionPolicy]",
    [f'!Sub "arn:${{AWS::Partition}}:logs:${{AWS::Region}}:${{AWS::AccountId}}:log-group:{POSTGRES_LOG}"',
     f'!Sub "arn:${{AWS::Partition}}:logs:${{AWS::Region}}:${{AWS::AccountId}}:log-group:{POSTGRES_LOG}:*"'],
    LOG_RETENTION_CODE, "ExportLogs") + f'''
  DbLogRetention:
    Type: Custom::LogRetention
    Condition: ExportLogs
    DependsOn: [LogRetentionRunnerLogs]
    Properties:
      ServiceToken: !GetAtt LogRetentionRunner.Arn
      LogGroupName: !Sub "{POSTGRES_LOG}"
      RetentionInDays: !Ref LogRetentionDays'''

HEAD = HEAD.replace("DB_LOG_RETENTION", DB_LOG_RETENTION).replace("SCHEMA_MIGRATION_RUNNER", python_runner(
    "SchemaMigrationRunner", "schema-migration", "Custom resource: invokes migrate's new version before the API functions update", 900,
    "invoke-migrate", "lambda:InvokeFunction",
    ['!Sub "arn:${AWS::Partition}:lambda:${AWS::Region}:${AWS::AccountId}:function:${AWS::StackName}-migrate"',
     '!Sub "arn:${AWS::Partition}:lambda:${AWS::Region}:${AWS::AccountId}:function:${AWS::StackName}-migrate:*"'],
    SCHEMA_MIGRATION_CODE))


def db_connect_policy(lid, user_parameter, who):
    """The managed policy to connect through the proxy as the user `user_parameter` names."""
    return f'''  {lid}:
    Type: AWS::IAM::ManagedPolicy
    Properties:
      Description: Connect to the wordgame database through RDS Proxy as {who} ({user_parameter})
      PolicyDocument:
        Version: "2012-10-17"
        Statement:
          - Effect: Allow
            Action: rds-db:connect
            Resource: !Sub
              - "arn:${{AWS::Partition}}:rds-db:${{AWS::Region}}:${{AWS::AccountId}}:dbuser:${{ProxyId}}/${{{user_parameter}}}"
              - ProxyId: !Select [6, !Split [":", !GetAtt DbProxy.DBProxyArn]]'''


HEAD = HEAD.replace("ALARM_TOPIC", ALARM_TOPIC).replace("DB_CONNECT_POLICIES", "\n".join([
    db_connect_policy("DbConnectAppPolicy", "DbAppUser", "the application role"),
    db_connect_policy("DbConnectOwnerPolicy", "DbUser", "the schema's owner, for migrate only"),
]))


def alarm(lid, description, measure, evaluations, threshold, comparison, missing="notBreaching"):
    """A CloudWatch alarm on `measure` (the metric's lines), notifying the alarm topic; a period
    without data counts as `missing` says."""
    return f"""  {lid}:
    Type: AWS::CloudWatch::Alarm
    Properties:
      AlarmDescription: "{description}"
{measure}
      EvaluationPeriods: {evaluations}
      Threshold: {threshold}
      ComparisonOperator: {comparison}
      TreatMissingData: {missing}
{ALARM_ACTIONS}"""


def metric(namespace, name, dimension, statistic, period):
    """The lines of one metric: `statistic` is a statistic's name or a percentile such as p99;
    `dimension` is a `{ Name: ..., Value: ... }` text, or None."""
    dimensions = f"\n      Dimensions: [{dimension}]" if dimension else ""
    stat = f"ExtendedStatistic: {statistic}" if statistic.startswith("p") else f"Statistic: {statistic}"
    return f"""      Namespace: {namespace}
      MetricName: {name}{dimensions}
      {stat}
      Period: {period}"""


def stat(lid, namespace, name, dimension=None):
    """One metric (its sum over five minutes) that a percentage's expressions read as `lid`."""
    dimensions = f", Dimensions: [{dimension}]" if dimension else ""
    return f"""        - Id: {lid}
          ReturnData: false
          MetricStat:
            Metric: {{ Namespace: {namespace}, MetricName: {name}{dimensions} }}
            Period: 300
            Stat: Sum"""


def percentage(stats, errors, requests, label, minimum_requests, minimum_errors):
    """The metric lines of `errors` as a percentage of `requests` (expressions over the ids of
    `stats`) in five minutes; 0 below `minimum_requests` requests or `minimum_errors` errors, so
    that one stray failure neither pages nor rolls a canary back."""
    assert minimum_errors >= 2
    return f"""      Metrics:
{chr(10).join(stats)}
        - Id: errors
          Expression: "{errors}"
          ReturnData: false
        - Id: requests
          Expression: "{requests}"
          ReturnData: false
        - Id: rate
          Expression: "IF(requests >= {minimum_requests} AND errors >= {minimum_errors}, 100 * errors / requests, 0)"
          Label: {label}
          ReturnData: true"""


def total(stats, expression, label):
    """The metric lines of `expression`, a sum over the ids of `stats` in five minutes."""
    return f"""      Metrics:
{chr(10).join(stats)}
        - Id: total
          Expression: "{expression}"
          Label: {label}
          ReturnData: true"""


API = "{ Name: ApiId, Value: !Ref HttpApi }"
OWN = '!Sub "wordgame/${AWS::StackName}"'
# The service's `503 unavailable` (the database out of reach), counted apart from every other
# 5xx by each route's Http503Filter into this one metric: it pages at a higher rate and never
# rolls a canary back (new code does not make the database unreachable).
UNAVAILABLE = "Http503"


def api_percentage(name, label, minimum_requests, minimum_errors, errors=None):
    """The API's `name` answers as a percentage of its requests; `errors` (an expression over
    ids `answers` and `unavailable`) instead of the plain count."""
    stats = [stat("answers", "AWS/ApiGateway", name, API), stat("calls", "AWS/ApiGateway", "Count", API)]
    if errors:
        stats.append(stat("unavailable", OWN, UNAVAILABLE))
    return percentage(stats, errors or "FILL(answers, 0)", "FILL(calls, 0)", label, minimum_requests, minimum_errors)


PROXY = "{ Name: ProxyName, Value: !Ref DbProxy }"
CLUSTER = "{ Name: DBClusterIdentifier, Value: !Ref DbCluster }"
SERVICE_ALARMS = "\n".join([
    alarm("Api5xxRateAlarm", "API: more than 1% of requests answered 5xx other than the service's 503 over 5 minutes (at least 50 requests and 3 such answers)",
          api_percentage("5xx", "5xx percent (503 unavailable apart)", 50, 3, errors="FILL(answers, 0) - FILL(unavailable, 0)"), 1, 1, "GreaterThanThreshold"),
    alarm("ApiUnavailableRateAlarm", "API: more than 10% of requests answered 503 unavailable for 10 minutes (at least 50 requests and 10 such answers in each 5): the database out of reach",
          percentage([stat("unavailable", OWN, UNAVAILABLE), stat("calls", "AWS/ApiGateway", "Count", API)],
                     "FILL(unavailable, 0)", "FILL(calls, 0)", "503 percent", 50, 10), 2, 10, "GreaterThanThreshold"),
    alarm("Api4xxRateAlarm", "API: more than 25% of requests answered 4xx for 15 minutes (a broken client, bad tokens, throttling 429s)",
          api_percentage("4xx", "4xx percent", 50, 3), 3, 25, "GreaterThanThreshold"),
    alarm("ApiLatencyAlarm", "API: p99 latency over 2 s for 15 minutes",
          metric("AWS/ApiGateway", "Latency", API, "p99", 300), 3, 2000, "GreaterThanThreshold"),
    alarm("ProxyClientConnectionsAlarm", "RDS Proxy: over 800 client connections (about 400 function instances at 2 each)",
          metric("AWS/RDS", "ClientConnections", PROXY, "Maximum", 300), 1, 800, "GreaterThanThreshold"),
    alarm("ProxyBorrowLatencyAlarm", "RDS Proxy: borrowing a database connection takes over 100 ms on average for 10 minutes (the pool is exhausted)",
          metric("AWS/RDS", "DatabaseConnectionsBorrowLatency", PROXY, "Average", 300), 2, 100000, "GreaterThanThreshold"),
    alarm("DbCpuAlarm", "Aurora: CPU over 80% for 15 minutes",
          metric("AWS/RDS", "CPUUtilization", CLUSTER, "Average", 300), 3, 80, "GreaterThanThreshold"),
    alarm("DbCapacityAtMaxAlarm", "Aurora: capacity at DbMaxCapacity for 15 minutes (it cannot scale further)",
          metric("AWS/RDS", "ServerlessDatabaseCapacity", CLUSTER, "Maximum", 300), 3, "!Ref DbMaxCapacity", "GreaterThanOrEqualToThreshold"),
    alarm("DbFreeableMemoryAlarm", "Aurora: under 256 MiB freeable memory for 15 minutes",
          metric("AWS/RDS", "FreeableMemory", CLUSTER, "Minimum", 300), 3, 268435456, "LessThanThreshold"),
    alarm("DbDeadlocksAlarm", "Aurora: any deadlock (transactions of the service take their locks in one order; a deadlock is a bug)",
          metric("AWS/RDS", "Deadlocks", CLUSTER, "Maximum", 300), 1, 0, "GreaterThanThreshold"),
])


def subnet(lid, cidr, zone, condition=""):
    """A subnet of the VPC in the region's `zone`-th availability zone."""
    return f"""  {lid}:
    Type: AWS::EC2::Subnet{condition}
    Properties:
      VpcId: !Ref Vpc
      CidrBlock: {cidr}
      AvailabilityZone: !Select [{zone}, !GetAZs ""]"""


def route_table(lid):
    """A route table of the VPC, present when push has its route out."""
    return f"""  {lid}:
    Type: AWS::EC2::RouteTable{PUSH_EGRESS}
    Properties:
      VpcId: !Ref Vpc"""


def association(lid, subnet_lid, table):
    """Routes `subnet_lid` by `table`, present when push has its route out."""
    return f"""  {lid}:
    Type: AWS::EC2::SubnetRouteTableAssociation{PUSH_EGRESS}
    Properties:
      SubnetId: !Ref {subnet_lid}
      RouteTableId: !Ref {table}"""


PUSH_EGRESS = "\n    Condition: HasPushEgress"


def db_instance(lid, subnet_lid, tier, condition=""):
    """A serverless instance of the cluster in `subnet_lid`'s zone, `tier` in failover order."""
    return f"""  {lid}:
    Type: AWS::RDS::DBInstance{condition}
    Properties:
      DBClusterIdentifier: !Ref DbCluster
      DBInstanceClass: db.serverless
      Engine: aurora-postgresql
      PubliclyAccessible: false
      AvailabilityZone: !GetAtt {subnet_lid}.AvailabilityZone
      PromotionTier: {tier}
      EnablePerformanceInsights: !If [Insights, true, false]
      PerformanceInsightsRetentionPeriod: !If [Insights, 7, !Ref "AWS::NoValue"]"""


HEAD = HEAD.replace("DB_INSTANCES", "\n".join([
    db_instance("DbInstance", "PrivateSubnetA", 0),
    "  # The failover target: a reader in the second zone, promoted if the writer's zone fails.",
    db_instance("DbReaderInstance", "PrivateSubnetB", 1, "\n    Condition: HighlyAvailable"),
]))

HEAD = HEAD.replace("SERVICE_ALARMS", SERVICE_ALARMS).replace("PRIVATE_SUBNETS", "\n".join([
    subnet("PrivateSubnetA", "10.40.1.0/24", 0),
    subnet("PrivateSubnetB", "10.40.2.0/24", 1),
])).replace("PUBLIC_SUBNET", "\n".join([
    subnet("PublicSubnet", "10.40.0.0/24", 0, PUSH_EGRESS),
    route_table("PublicRouteTable"),
])).replace("PUBLIC_ASSOCIATION", association("PublicSubnetRoutes", "PublicSubnet", "PublicRouteTable")
).replace("PRIVATE_ROUTE_TABLE", route_table("PrivateRouteTable")).replace("PRIVATE_ASSOCIATIONS", "\n".join([
    association("PrivateSubnetARoutes", "PrivateSubnetA", "PrivateRouteTable"),
    association("PrivateSubnetBRoutes", "PrivateSubnetB", "PrivateRouteTable"),
]))


# The sign-in and the authoriser talk to the identity provider (token endpoint, signing keys) and
# never to the database: outside the VPC, whose private subnets have no route out.
OUTSIDE_VPC = '      VpcConfig: !Ref "AWS::NoValue"'

OIDC_ENV = """      Environment:
        Variables:
          WORDGAME_OIDC_DOMAIN: !Ref AdminHostedUi
          WORDGAME_OIDC_CLIENT_ID: !Ref AdminClientId
          WORDGAME_OIDC_ISSUER: !Ref JwtIssuer"""


# The web app's function: how the page signs players in (the user pool's hosted UI, the player
# app client) and where the push socket is.
WEB_ENV = """      Environment:
        Variables:
          WORDGAME_WEB_SIGNIN_DOMAIN: !Ref AdminHostedUi
          WORDGAME_WEB_CLIENT_ID: !Ref PlayerClientId
          WORDGAME_WEB_PUSH_URL: !If [HasPushEgress, !Sub "wss://${WsApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}/live", ""]"""


def function_block(lid, binary, method, path, memory, timeout, reserved, throttle, authoriser):
    rate, burst = throttle
    policies = "!Ref DbConnectAppPolicy, !Ref PushPolicy" if binary in PUSHERS else "!Ref DbConnectAppPolicy"
    auth, env = "", ""
    # A function outside the VPC cannot reach the database; it gets no connect policy.
    if authoriser in ("public", "open"):
        policies = ""
    if authoriser == "cookie":
        auth = """
            Auth:
              Authorizer: AdminCookie"""
    elif authoriser == "public":
        auth = """
            Auth:
              Authorizer: NONE"""
        env = "\n" + OUTSIDE_VPC + "\n" + OIDC_ENV + """
          WORDGAME_OIDC_REDIRECT_URI: !If [HasDomain, !Sub "https://${DomainName}/_gm/signin", !Sub "https://${HttpApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}/_gm/signin"]"""
    elif authoriser == "open":
        auth = """
            Auth:
              Authorizer: NONE"""
        env = "\n" + OUTSIDE_VPC + "\n" + WEB_ENV
    paths = path if isinstance(path, list) else [path]
    events = "\n".join(f'''        Route{"" if i == 0 else i + 1}:
          Type: HttpApi
          Properties:
            ApiId: !Ref HttpApi
            Method: {method}
            Path: {p}
            # With reservations on, the burst is the reservation: a request beyond it gets API
            # Gateway's 429 instead of a Lambda throttle, which API Gateway answers with a 500.
            RouteSettings:
              ThrottlingRateLimit: {rate}
              ThrottlingBurstLimit: !If [Reserve, {reserved}, {burst}]{auth}''' for i, p in enumerate(paths))
    return f'''  {lid}Function:
    Type: AWS::Serverless::Function{AFTER_MIGRATION}
    Metadata:
      BuildMethod: rust-cargolambda
      BuildProperties:
        Binary: {binary}
    Properties:
      FunctionName: !Sub "${{AWS::StackName}}-{binary}"
      Description: "{method} {', '.join(paths)}"
      MemorySize: {memory}
      Timeout: {timeout}
      ReservedConcurrentExecutions: !If [Reserve, {reserved}, !Ref "AWS::NoValue"]
      LoggingConfig:
        LogFormat: JSON
      Policies: [{policies}]{env}
{canary(f"{lid}Http5xxAlarm", f"{lid}ErrorsAlarm")}
      Events:
{events}
{log_resources(lid, binary)}
  # Count this function's answers from the handler's one "handled" line per request (a
  # handler's 500 is a successful invocation, invisible to Lambda's Errors): every 5xx but the
  # service's 503 into its own metric, which pages and rolls a canary back; the 503s into the
  # service's one, which pages at a higher rate (ApiUnavailableRateAlarm).
{metric_filter(f"{lid}Http5xxFilter", lid, PAGING_5XX, f"Http5xx-{binary}")}
{metric_filter(f"{lid}Http503Filter", lid, "{ $.fields.status = 503 }", UNAVAILABLE)}
{alarm(f"{lid}Http5xxAlarm", f"{binary}: over {ROUTE_PERCENT}% of its answers 5xx other than 503 in 5 minutes (at least {ROUTE_REQUESTS} requests and {ROUTE_ERRORS} such answers; from its log; rolls a canary back)",
       function_percentage(binary, OWN, f"Http5xx-{binary}", None, "5xx percent (503 apart)"), 1, ROUTE_PERCENT, "GreaterThanThreshold")}
{push_filters(lid) + chr(10) if binary in PUSHERS else ""}{lambda_alarms(lid, binary, throttles=True, duration=True)}'''


# The lines the service writes (shared/api/src/aws_push.rs, push.rs, websocket.rs;
# shared/service/src/sweep.rs) when a post to a WebSocket connection, a reply to one or a
# publish to the bus fails, or the sweep cannot end a game: none of these fails the request, so
# these lines are all there is to count them by.
PUSH_FAILED = ["push: the management API refused a post", "push: cannot post to a connection",
               "push: no AWS credentials", "push: cannot read the subscribers", "push: cut off at its budget"]
REPLY_FAILED = ["websocket: the management API refused the reply", "websocket: cannot post the reply"]
EVENTS_FAILED = ["push: EventBridge refused PutEvents", "push: cannot publish to EventBridge", "push: EventBridge refused an entry"]
SWEEP_GAME_FAILED = ["sweep: cannot record the timeout", "sweep: cannot expire the open game"]


def messages(texts):
    """A filter pattern matching the lines whose message is one of `texts`."""
    return "{ " + " || ".join(f'($.fields.message = "{t}")' for t in texts) + " }"


def push_filters(lid):
    """The filters counting a function's failed posts to connections and publishes to the bus
    (into the service's PushFailures and EventBridgeFailures)."""
    return "\n".join([metric_filter(f"{lid}PushFailuresFilter", lid, messages(PUSH_FAILED), "PushFailures"),
                      metric_filter(f"{lid}EventBridgeFailuresFilter", lid, messages(EVENTS_FAILED), "EventBridgeFailures")])


# A function's 5xx (other than 503) or invocation errors page and roll its canary back above
# this percentage of its invocations in five minutes, once there were this many invocations and
# errors. Under the canary's 10%: a new version failing every request it gets is caught.
ROUTE_PERCENT, ROUTE_REQUESTS, ROUTE_ERRORS = 5, 20, 3
PAGING_5XX = "{ ($.fields.status >= 500) && ($.fields.status != 503) }"


def function_percentage(binary, namespace, name, dimension, label):
    """The metric lines of metric `name` as a percentage of `binary`'s invocations."""
    failed = stat("failed", namespace, name, dimension)
    invocations = stat("invocations", "AWS/Lambda", "Invocations", lambda_dimension(binary))
    return percentage([failed, invocations], "FILL(failed, 0)", "FILL(invocations, 0)", label, ROUTE_REQUESTS, ROUTE_ERRORS)


def lambda_dimension(binary):
    """The dimension of `binary`'s function in AWS/Lambda (all its versions and aliases)."""
    return f'{{ Name: FunctionName, Value: !Sub "${{AWS::StackName}}-{binary}" }}'


def metric_filter(lid, logs, pattern, name, value='"1"'):
    """A metric filter on `logs`' log group adding `value` to metric `name` for each line matching
    `pattern`: 1 (a count: 0 for a minute with lines but no match), or a field of the line such
    as `$.fields.backlog` (a gauge: no value for such a minute, which would pull its minimum to
    0)."""
    default = "\n          DefaultValue: 0" if value == '"1"' else ""
    return f"""  {lid}:
    Type: AWS::Logs::MetricFilter
    Properties:
      LogGroupName: !Ref {logs}Logs
      FilterPattern: '{pattern}'
      MetricTransformations:
        - MetricNamespace: {OWN}
          MetricName: {name}
          MetricValue: {value}{default}
          Unit: Count"""


def log_resources(lid, binary):
    return f'''  {lid}Logs:
    Type: AWS::Logs::LogGroup
    Properties:
      LogGroupName: !Sub "/aws/lambda/${{{lid}Function}}"
      RetentionInDays: !Ref LogRetentionDays'''


def lambda_alarms(lid, binary, throttles, duration, every_error=False):
    """`binary`'s alarms on Lambda's metrics: invocation errors (a percentage of its invocations,
    or with `every_error` any one), and optionally throttles and p99 duration."""
    function = lambda_dimension(binary)
    if every_error:
        errors = alarm(f"{lid}ErrorsAlarm", f"{binary}: invocation errors (failed cold starts, crashes, timeouts)",
                       metric("AWS/Lambda", "Errors", function, "Sum", 60), 1, 1, "GreaterThanOrEqualToThreshold")
    else:
        errors = alarm(f"{lid}ErrorsAlarm", f"{binary}: over {ROUTE_PERCENT}% of its invocations failed in 5 minutes (at least {ROUTE_REQUESTS} invocations and {ROUTE_ERRORS} errors: failed cold starts, crashes, timeouts; rolls a canary back)",
                       function_percentage(binary, "AWS/Lambda", "Errors", function, "errors percent"), 1, ROUTE_PERCENT, "GreaterThanThreshold")
    out = [errors]
    if throttles:
        out.append(alarm(f"{lid}ThrottlesAlarm", f"{binary}: throttled invocations (reserved or account concurrency reached)",
                         metric("AWS/Lambda", "Throttles", function, "Sum", 300), 1, 1, "GreaterThanOrEqualToThreshold"))
    if duration:
        out.append(alarm(f"{lid}DurationAlarm", f"{binary}: p99 duration over 1 s for 15 minutes",
                         metric("AWS/Lambda", "Duration", function, "p99", 300), 3, 1000, "GreaterThanThreshold"))
    return "".join(a + "\n" for a in out)


def plain_function(lid, binary, description, memory, timeout, reserved, environment="", policy="DbConnectAppPolicy", push=False,
                   rollback=None):
    """A function no HTTP route invokes (migrate, sweep): its block, connecting as `policy`'s
    user (and allowed to push when `push`); with `rollback` (alarms) updated after the
    migrations and moved to a new version by a canary those alarms roll back."""
    policies = f"!Ref {policy}, !Ref PushPolicy" if push else f"!Ref {policy}"
    shifted = f"\n{canary(*rollback)}" if rollback else ""
    return f'''  {lid}Function:
    Type: AWS::Serverless::Function{AFTER_MIGRATION if rollback else ""}
    Metadata:
      BuildMethod: rust-cargolambda
      BuildProperties:
        Binary: {binary}
    Properties:
      FunctionName: !Sub "${{AWS::StackName}}-{binary}"
      Description: {description}
      MemorySize: {memory}
      Timeout: {timeout}
      ReservedConcurrentExecutions: !If [Reserve, {reserved}, !Ref "AWS::NoValue"]
      LoggingConfig:
        LogFormat: JSON
{environment}      Policies: [{policies}]{shifted}'''


# Every function but migrate (which is the migration step) is updated only once the schema is
# migrated, and its live alias, which is all anything invokes, moves to the new version by a
# canary that its alarms roll back.
AFTER_MIGRATION = "\n    DependsOn: [SchemaMigration]"


def canary(*alarms):
    """The properties that move a function's live alias to its new version by TrafficShifting,
    rolled back by `alarms`."""
    refs = ", ".join(f"!Ref {a}" for a in alarms)
    return f"""      DeploymentPreference:
        Type: !Ref TrafficShifting
        Alarms: [{refs}]"""


# The owner applies the migrations, then grants the application role its rows.
MIGRATE_ENVIRONMENT = """      Environment:
        Variables:
          DB_USER: !Ref DbUser
          DB_APP_USER: !Ref DbAppUser
"""
MIGRATE = f'''{plain_function("Migrate", "migrate", "Applies the database migrations; SchemaMigration invokes each new version before the API functions update.", 512, 120, MIGRATE_RESERVED, MIGRATE_ENVIRONMENT, "DbConnectOwnerPolicy")}
{log_resources("Migrate", "migrate")}
{lambda_alarms("Migrate", "migrate", throttles=False, duration=False, every_error=True)}'''


AUTHORIZER = f'''  AdminAuthorizerFunction:
    Type: AWS::Serverless::Function{AFTER_MIGRATION}
    Metadata:
      BuildMethod: rust-cargolambda
      BuildProperties:
        Binary: admin-authorizer
    Properties:
      FunctionName: !Sub "${{AWS::StackName}}-admin-authorizer"
      Description: "The /_gm/* routes' request authoriser: the admin session cookie's ID token against the user pool's keys, issuer, audience, expiry and admin group."
      MemorySize: 256
      Timeout: 5
      ReservedConcurrentExecutions: !If [Reserve, {AUTHORIZER_RESERVED}, !Ref "AWS::NoValue"]
      LoggingConfig:
        LogFormat: JSON
{OUTSIDE_VPC}
{OIDC_ENV}
{canary("AdminAuthorizerErrorsAlarm")}
{log_resources("AdminAuthorizer", "admin-authorizer")}
{lambda_alarms("AdminAuthorizer", "admin-authorizer", throttles=False, duration=False)}'''


SWEEP_RESERVED = 1

# The sweep: EventBridge Scheduler invokes it every minute; one instance at a time (a reserved
# concurrency of 1 whenever reservations are on; each run sweeps timeouts SWEEP_BATCH games at a
# time until none is left or SWEEP_BUDGET_SECONDS have passed, well under its 55 s timeout, one
# transaction per game, so an overlapping run only finds less to do). Each run logs the games
# still overdue (`backlog` on its "swept" line): the metric SweepBacklog.
SWEEP_ENVIRONMENT = """      Environment:
        Variables:
          SWEEP_BATCH: "100"
          SWEEP_BUDGET_SECONDS: "30"
          OPEN_GAME_EXPIRY_SECONDS: "604800"
"""
SWEEP = f'''{plain_function("Sweep", "sweep", "Ends abandoned games (timeouts past the deadline, open games nobody joined); run every minute.", 1769, 55, SWEEP_RESERVED, SWEEP_ENVIRONMENT, push=True,
                        rollback=["SweepErrorsAlarm"])}
  SweepSchedulerRole:
    Type: AWS::IAM::Role
    Properties:
      AssumeRolePolicyDocument:
        Version: "2012-10-17"
        Statement:
          - Effect: Allow
            Principal: {{ Service: scheduler.amazonaws.com }}
            Action: sts:AssumeRole
            Condition: {{ StringEquals: {{ "aws:SourceAccount": !Ref "AWS::AccountId" }} }}
      Policies:
        - PolicyName: invoke-sweep
          PolicyDocument:
            Version: "2012-10-17"
            Statement:
              - Effect: Allow
                Action: lambda:InvokeFunction
                Resource: [!Ref SweepFunction.Alias]
  # After the sweep's log group (see SchemaMigration).
  SweepSchedule:
    Type: AWS::Scheduler::Schedule
    DependsOn: [SweepLogs]
    Properties:
      Description: Runs the sweep every minute.
      ScheduleExpression: rate(1 minute)
      FlexibleTimeWindow: {{ Mode: "OFF" }}
      State: ENABLED
      Target:
        Arn: !Ref SweepFunction.Alias
        RoleArn: !GetAtt SweepSchedulerRole.Arn
        RetryPolicy: {{ MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60 }}
{log_resources("Sweep", "sweep")}
{push_filters("Sweep")}
{metric_filter("SweepGameFailuresFilter", "Sweep", messages(SWEEP_GAME_FAILED), "SweepGameFailures")}
{metric_filter("SweepBacklogFilter", "Sweep", messages(["swept"]), "SweepBacklog", "$.fields.backlog")}
  # A sweep that stops running (the schedule disabled or deleted, its role broken, the function
  # throttled) writes nothing and fails nothing: only its missing invocations tell.
{alarm("SweepHeartbeatAlarm", "sweep: not invoked for 5 minutes (scheduled every minute): abandoned games are not ended",
       metric("AWS/Lambda", "Invocations", lambda_dimension("sweep"), "Sum", 300), 1, 1, "LessThanThreshold", missing="breaching")}
  # Timeouts the sweep leaves behind: every run for 5 minutes ended with games still overdue (it
  # cannot keep up, or some games cannot be ended), so players wait past their deadlines.
{alarm("SweepBacklogAlarm", "sweep: every run for 5 minutes left games past their deadline (the backlog is not draining)",
       metric(OWN, "SweepBacklog", None, "Minimum", 300), 1, 1, "GreaterThanOrEqualToThreshold")}
{alarm("SweepErrorsAlarm", "sweep: 3 or more failures in 5 minutes (runs that failed, and games it could not end)",
       total([stat("failed", "AWS/Lambda", "Errors", lambda_dimension("sweep")), stat("games", OWN, "SweepGameFailures")],
             "FILL(failed, 0) + FILL(games, 0)", "sweep failures"), 1, 3, "GreaterThanOrEqualToThreshold")}'''


def ws_route(lid, key, operation, authorised=False):
    """A route of the WebSocket API to the ws function; `authorised`: through the request
    authoriser (the $connect route)."""
    auth = "CUSTOM\n      AuthorizerId: !Ref WsAuthorizer" if authorised else "NONE"
    return f'''  {lid}:
    Type: AWS::ApiGatewayV2::Route
    Properties:
      ApiId: !Ref WsApi
      RouteKey: {key}
      AuthorizationType: {auth}
      OperationName: {operation}
      Target: !Sub "integrations/${{WsIntegration}}"'''


def interface_endpoint(lid, service):
    """An interface endpoint for `service` in both private subnets, private DNS on."""
    return f'''  {lid}:
    Type: AWS::EC2::VPCEndpoint
    Properties:
      VpcEndpointType: Interface
      ServiceName: !Sub "com.amazonaws.${{AWS::Region}}.{service}"
      VpcId: !Ref Vpc
      SubnetIds: [!Ref PrivateSubnetA, !Ref PrivateSubnetB]
      SecurityGroupIds: [!Ref EndpointSecurityGroup]
      PrivateDnsEnabled: true'''


WS_API = "{ Name: ApiId, Value: !Ref WsApi }"
# Push as clients and the bus's consumers see it. A post or a publish that fails never fails a
# move (clients fall back to polling), so these page on a count that a flaky connection or two
# does not reach. PutEventsFailedEntriesCount counts the entries EventBridge refused inside a
# PutEvents it answered 200; it has no dimension, so it counts every bus of the account in the
# region. The service also logs each such entry (its FailedEntryCount), so the two see the same
# refusals: the alarm takes the larger, not the sum.
PUSH_ALARMS = "\n".join([
    alarm("WsApiErrorsAlarm", "WebSocket API: over 10% of connects and messages failed in 5 minutes (at least 20 and 5 failures): the ws function's errors and refusals, or its invocation failing",
          percentage([stat("integration", "AWS/ApiGateway", "IntegrationError", WS_API), stat("execution", "AWS/ApiGateway", "ExecutionError", WS_API),
                      stat("connects", "AWS/ApiGateway", "ConnectCount", WS_API), stat("messages", "AWS/ApiGateway", "MessageCount", WS_API)],
                     "FILL(integration, 0) + FILL(execution, 0)", "FILL(connects, 0) + FILL(messages, 0)", "errors percent", 20, 5), 1, 10, "GreaterThanThreshold"),
    alarm("PushFailuresAlarm", "Push: 10 or more posts to connections failed in each of 2 periods of 5 minutes (from the functions' logs): clients fall back to polling",
          metric(OWN, "PushFailures", None, "Sum", 300), 2, 10, "GreaterThanOrEqualToThreshold"),
    alarm("EventBridgeFailuresAlarm", "EventBridge: 3 or more moves not published in 5 minutes (PutEvents failed or entries refused, from the functions' logs; or entries refused account-wide, whichever counts more)",
          total([stat("logged", OWN, "EventBridgeFailures"), stat("refused", "AWS/Events", "PutEventsFailedEntriesCount")],
                "MAX([FILL(logged, 0), FILL(refused, 0)])", "moves not published"), 1, 3, "GreaterThanOrEqualToThreshold"),
])


# --- Push (docs/API.md "Push"): the WebSocket API clients subscribe on, its $connect authorised
# with the player's token (the ws-authorizer function, outside the VPC: it fetches the pool's
# keys), its routes served by the ws function; the bus every committed move is published to;
# the grant to post and publish; an interface endpoint for events in the private subnets. No
# endpoint for execute-api: it serves private REST APIs only, and with its private DNS every
# execute-api host in the VPC would resolve to it, the WebSocket API's management calls
# included; they go out through the NAT gateway (PushEgress). ---
WS = f'''  EventBus:
    Type: AWS::Events::EventBus
    Properties:
      Name: !Sub "${{AWS::StackName}}-moves"
  PushPolicy:
    Type: AWS::IAM::ManagedPolicy
    Properties:
      Description: Post to the WebSocket API's connections and publish moves to the bus
      PolicyDocument:
        Version: "2012-10-17"
        Statement:
          - Effect: Allow
            Action: execute-api:ManageConnections
            Resource: !Sub "arn:${{AWS::Partition}}:execute-api:${{AWS::Region}}:${{AWS::AccountId}}:${{WsApi}}/live/POST/@connections/*"
          - Effect: Allow
            Action: events:PutEvents
            Resource: !GetAtt EventBus.Arn
  EndpointSecurityGroup:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: The interface endpoints, reachable on 443 from the functions only
      VpcId: !Ref Vpc
      SecurityGroupIngress:
        - IpProtocol: tcp
          FromPort: 443
          ToPort: 443
          SourceSecurityGroupId: !Ref FunctionSecurityGroup
{interface_endpoint("EventsEndpoint", "events")}
  WsApi:
    Type: AWS::ApiGatewayV2::Api
    Properties:
      Name: !Sub "${{AWS::StackName}}-push"
      Description: "Push: clients subscribe to their games' moves (docs/API.md, Push)"
      ProtocolType: WEBSOCKET
      RouteSelectionExpression: $request.body.action
      Tags:
        stage: !Ref StageName
  # $connect only: a WebSocket authoriser runs once per connection, and its context (the
  # caller's identity claims) reaches every route of it. The token comes in ?token= (browsers
  # cannot set headers on a WebSocket); a connection without one is refused before the function.
  WsAuthorizer:
    Type: AWS::ApiGatewayV2::Authorizer
    Properties:
      ApiId: !Ref WsApi
      Name: player-token
      AuthorizerType: REQUEST
      AuthorizerUri: !Sub "arn:${{AWS::Partition}}:apigateway:${{AWS::Region}}:lambda:path/2015-03-31/functions/${{WsAuthorizerFunctionAliaslive}}/invocations"
      IdentitySource: [route.request.querystring.token]
  WsAuthorizerPermission:
    Type: AWS::Lambda::Permission
    Properties:
      Action: lambda:InvokeFunction
      FunctionName: !Ref WsAuthorizerFunction.Alias
      Principal: apigateway.amazonaws.com
      SourceArn: !Sub "arn:${{AWS::Partition}}:execute-api:${{AWS::Region}}:${{AWS::AccountId}}:${{WsApi}}/authorizers/${{WsAuthorizer}}"
  WsIntegration:
    Type: AWS::ApiGatewayV2::Integration
    Properties:
      ApiId: !Ref WsApi
      IntegrationType: AWS_PROXY
      IntegrationUri: !Sub "arn:${{AWS::Partition}}:apigateway:${{AWS::Region}}:lambda:path/2015-03-31/functions/${{WsFunctionAliaslive}}/invocations"
  WsPermission:
    Type: AWS::Lambda::Permission
    Properties:
      Action: lambda:InvokeFunction
      FunctionName: !Ref WsFunction.Alias
      Principal: apigateway.amazonaws.com
      SourceArn: !Sub "arn:${{AWS::Partition}}:execute-api:${{AWS::Region}}:${{AWS::AccountId}}:${{WsApi}}/*"
{ws_route("WsConnectRoute", "$connect", "Connect", authorised=True)}
{ws_route("WsDisconnectRoute", "$disconnect", "Disconnect")}
{ws_route("WsDefaultRoute", "$default", "Message")}
  WsAccessLogs:
    Type: AWS::Logs::LogGroup
    Properties:
      RetentionInDays: !Ref LogRetentionDays
  # Deployed on every change to the routes (AutoDeploy), once they exist.
  WsStage:
    Type: AWS::ApiGatewayV2::Stage
    DependsOn: [WsConnectRoute, WsDisconnectRoute, WsDefaultRoute]
    Properties:
      ApiId: !Ref WsApi
      StageName: live
      AutoDeploy: true
      AccessLogSettings:
        DestinationArn: !GetAtt WsAccessLogs.Arn
        Format: '{{"requestId":"$context.requestId","routeKey":"$context.routeKey","eventType":"$context.eventType","connectionId":"$context.connectionId","status":"$context.status","integrationLatency":"$context.integrationLatency","error":"$context.error.message","authorizerError":"$context.authorizer.error","sub":"$context.authorizer.sub"}}'
      DefaultRouteSettings:
        ThrottlingBurstLimit: 100
        ThrottlingRateLimit: 50
      Tags:
        stage: !Ref StageName
  WsFunction:
    Type: AWS::Serverless::Function{AFTER_MIGRATION}
    Metadata:
      BuildMethod: rust-cargolambda
      BuildProperties:
        Binary: ws
    Properties:
      FunctionName: !Sub "${{AWS::StackName}}-ws"
      Description: "The WebSocket API's $connect, $disconnect and $default: records connections, answers subscriptions"
      MemorySize: 512
      Timeout: 5
      ReservedConcurrentExecutions: !If [Reserve, {WS_RESERVED}, !Ref "AWS::NoValue"]
      LoggingConfig:
        LogFormat: JSON
      Policies: [!Ref DbConnectAppPolicy, !Ref PushPolicy]
{canary("WsErrorsAlarm")}
{log_resources("Ws", "ws")}
{metric_filter("WsPushFailuresFilter", "Ws", messages(PUSH_FAILED + REPLY_FAILED), "PushFailures")}
{lambda_alarms("Ws", "ws", throttles=True, duration=True)}
{PUSH_ALARMS}
  WsAuthorizerFunction:
    Type: AWS::Serverless::Function{AFTER_MIGRATION}
    Metadata:
      BuildMethod: rust-cargolambda
      BuildProperties:
        Binary: ws-authorizer
    Properties:
      FunctionName: !Sub "${{AWS::StackName}}-ws-authorizer"
      Description: "The WebSocket API's $connect authoriser: the player's token (?token=) against the pool's keys, issuer, audiences and expiry."
      MemorySize: 256
      Timeout: 5
      ReservedConcurrentExecutions: !If [Reserve, {AUTHORIZER_RESERVED}, !Ref "AWS::NoValue"]
      LoggingConfig:
        LogFormat: JSON
{OUTSIDE_VPC}
      Environment:
        Variables:
          WORDGAME_JWT_ISSUER: !Ref JwtIssuer
          WORDGAME_JWT_AUDIENCE: !Join [",", !Ref JwtAudience]
{canary("WsAuthorizerErrorsAlarm")}
{log_resources("WsAuthorizer", "ws-authorizer")}
{lambda_alarms("WsAuthorizer", "ws-authorizer", throttles=False, duration=False)}'''


def widget(title, metrics, x, y, stat="Sum", width=12):
    import json
    return {
        "type": "metric", "x": x, "y": y, "width": width, "height": 6,
        "properties": {"title": title, "region": "${AWS::Region}", "stat": stat, "period": 300, "metrics": metrics},
    }


def dashboard():
    import json
    api = "${HttpApi}"
    widgets = [
        widget("API requests, 4xx, 5xx", [["AWS/ApiGateway", "Count", "ApiId", api], [".", "4xx", ".", "."], [".", "5xx", ".", "."]], 0, 0),
        widget("API latency p50 / p99 (ms)", [["AWS/ApiGateway", "Latency", "ApiId", api, {"stat": "p50"}], ["...", {"stat": "p99"}]], 12, 0),
        widget("Answers 5xx but 503 per function, and all 503s (from the logs)",
               [["wordgame/${AWS::StackName}", f"Http5xx-{f[1]}"] for f in FUNCTIONS] + [["wordgame/${AWS::StackName}", UNAVAILABLE]], 0, 6),
        widget("Lambda errors and throttles (all functions)", [["AWS/Lambda", "Errors"], [".", "Throttles"]], 12, 6),
        widget("RDS Proxy client and database connections",
               [["AWS/RDS", "ClientConnections", "ProxyName", "${DbProxy}"], [".", "DatabaseConnections", ".", "."]], 0, 12, stat="Maximum"),
        widget("RDS Proxy borrow latency (us)", [["AWS/RDS", "DatabaseConnectionsBorrowLatency", "ProxyName", "${DbProxy}"]], 12, 12, stat="Average"),
        widget("Aurora CPU % and ACU", [["AWS/RDS", "CPUUtilization", "DBClusterIdentifier", "${DbCluster}"],
                                        [".", "ServerlessDatabaseCapacity", ".", ".", {"yAxis": "right"}]], 0, 18, stat="Maximum"),
        widget("Push: failed posts and publishes; sweep runs", [["wordgame/${AWS::StackName}", "PushFailures"], [".", "EventBridgeFailures"],
                                                                ["AWS/Lambda", "Invocations", "FunctionName", "${AWS::StackName}-sweep", {"yAxis": "right"}]], 0, 24),
        widget("WebSocket API connects, messages and errors", [["AWS/ApiGateway", "ConnectCount", "ApiId", "${WsApi}"], [".", "MessageCount", ".", "."],
                                                              [".", "IntegrationError", ".", "."], [".", "ExecutionError", ".", "."]], 12, 24),
        widget("Aurora freeable memory and deadlocks", [["AWS/RDS", "FreeableMemory", "DBClusterIdentifier", "${DbCluster}"],
                                                        [".", "Deadlocks", ".", ".", {"yAxis": "right"}]], 12, 18, stat="Minimum"),
    ]
    body = json.dumps({"widgets": widgets}, separators=(",", ":"))
    return f'''  Dashboard:
    Type: AWS::CloudWatch::Dashboard
    Properties:
      DashboardName: !Sub "${{AWS::StackName}}-{'${StageName}'}"
      DashboardBody: !Sub '{body}'
'''


OUTPUTS = '''Outputs:
  ApiUrl:
    Description: The HTTP API's base URL.
    Value: !Sub "https://${HttpApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}"
  PushUrl:
    Description: "The WebSocket API clients connect to for push: wss://…/live?token=ID_OR_ACCESS_TOKEN (docs/API.md, Push)."
    Value: !Sub "wss://${WsApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}/live"
  ApiDomainTarget:
    Condition: HasDomain
    Description: The regional domain name to point DomainName's DNS alias (or CNAME) at.
    Value: !GetAtt ApiDomain.RegionalDomainName
  DbProxyEndpoint:
    Description: RDS Proxy endpoint the functions connect to.
    Value: !GetAtt DbProxy.Endpoint
  DbMasterSecretArn:
    Description: The master secret RDS manages and rotates (read by RDS Proxy only).
    Value: !GetAtt DbCluster.MasterUserSecret.SecretArn
  LexiconLayerArn:
    Description: The lexicon layer version the functions use.
    Value: !Ref LexiconLayer
  DashboardName:
    Description: The CloudWatch dashboard.
    Value: !Ref Dashboard
  AlarmTopicInUse:
    Description: The SNS topic every alarm notifies (subscribe a pager or a chat channel to it).
    Value: !If [GivenAlarmTopic, !Ref AlarmTopicArn, !Ref AlarmTopic]
'''


def render():
    parts = [HEAD]
    for f in FUNCTIONS:
        parts.append(function_block(*f))
    parts.append(MIGRATE)
    parts.append(AUTHORIZER)
    parts.append(SWEEP)
    parts.append(WS)
    parts.append(dashboard())
    return "\n".join(p.rstrip("\n") + "\n" for p in parts) + "\n" + OUTPUTS


def main():
    path = pathlib.Path(__file__).resolve().parent / "template.yaml"
    text = render()
    if "--check" in sys.argv[1:]:
        if path.read_text() != text:
            print("infra/template.yaml is not what infra/generate.py writes: run python3 infra/generate.py", file=sys.stderr)
            sys.exit(1)
        return
    path.write_text(text)


if __name__ == "__main__":
    main()
