#!/usr/bin/env bash
# Deploys the stack in the order docs/OPERATIONS.md ("Deploy order") gives, from this checkout:
# build, check, then either the first create (with DataProtection off, so that a failed create
# rolls back and deletes everything) followed at once by an update that turns DataProtection on,
# or an update (DataProtection on). The migrations run inside the deploy (custom resource
# SchemaMigration) before any function's new code is published; each function's live alias then
# moves to its new version by TrafficShifting (canary), rolled back by its 5xx or error alarm.
#
#   scripts/deploy.sh STACK Key=Value ...     e.g. scripts/deploy.sh wordgame-staging \
#       StageName=staging JwtIssuer=https://cognito-idp.REGION.amazonaws.com/POOL JwtAudience=CLIENT \
#       AdminHostedUi=https://PREFIX.auth.REGION.amazoncognito.com AdminClientId=ADMIN_CLIENT \
#       AlarmEmail=oncall@example.org
#
# Key=Value pairs go to `sam deploy --parameter-overrides` (parameters: infra/template.yaml).
# AlarmEmail (or AlarmTopicArn) is required: without it no alarm reaches anyone, and an update
# without it would unsubscribe the address the last deploy set.
# Needs the AWS SAM CLI, the AWS CLI and credentials for the target account and region.
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,17p' "$0"; exit 2; }
stack="$1"; shift
paged=""
for pair in "$@"; do
  case "$pair" in AlarmEmail=?*|AlarmTopicArn=?*) paged=yes ;; esac
done
[ -n "$paged" ] || { echo "give AlarmEmail=ADDRESS (or AlarmTopicArn=ARN): without it no alarm reaches anyone" >&2; exit 2; }
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

python3 infra/generate.py --check
scripts/build-lambdas.sh
sam validate --lint --template-file infra/template.yaml
sam build --template-file infra/template.yaml

deploy() {
  sam deploy --stack-name "$stack" --capabilities CAPABILITY_IAM CAPABILITY_AUTO_EXPAND \
    --resolve-s3 --no-fail-on-empty-changeset --parameter-overrides "$@"
}

status="$(aws cloudformation describe-stacks --stack-name "$stack" --query 'Stacks[0].StackStatus' \
  --output text 2>/dev/null || echo NONE)"
case "$status" in
  NONE)
    echo "first create of $stack (DataProtection=off until it succeeds)"
    deploy "$@" DataProtection=off
    echo "created; turning DataProtection on"
    deploy "$@" DataProtection=on
    ;;
  ROLLBACK_COMPLETE)
    echo "$stack failed its first create and rolled back; delete it (aws cloudformation delete-stack --stack-name $stack) and run again" >&2
    exit 1
    ;;
  *_IN_PROGRESS)
    echo "$stack is $status; wait for it to settle" >&2
    exit 1
    ;;
  *)
    echo "update of $stack ($status)"
    deploy "$@" DataProtection=on
    ;;
esac
aws cloudformation describe-stacks --stack-name "$stack" --query 'Stacks[0].Outputs' --output table
