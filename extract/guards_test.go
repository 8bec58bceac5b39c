package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestGuards: a task's or policy's condition on an action ("apply only if
// the plan destroys nothing", "delete ... unless it carries the tag
// retain=true") is read with the action's verb and the forbidden state,
// and each later tool result that speaks of the state says whether it
// shows it (with the name it shows it beside) or only its absence. A
// word of no mark ("unless it is urgent") sets no guard.
func TestGuards(t *testing.T) {
	call := func(name, args string) run.Step {
		return run.Step{Agent: "agent", Kind: run.KindToolCall, Content: name + "(" + args + ")",
			Extra: &run.Extra{ToolCalls: []run.ToolCall{{Name: name, Arguments: args}}}}
	}
	result := func(s string) run.Step { return run.Step{Agent: "tool", Kind: run.KindToolResult, Content: s} }
	user := func(s string) run.Step { return run.Step{Agent: "user", Kind: run.KindUser, Content: s} }
	for _, tt := range []struct {
		name  string
		steps []run.Step
		want  []Guard
	}{
		{"only if a state is absent, shown then absent", []run.Step{
			user("Raise the instance class. Run the plan first and apply only if the plan destroys nothing."),
			call("run_command", `{"command": "terraform plan"}`),
			result("-/+ destroy and then create replacement\nPlan: 1 to add, 0 to change, 1 to destroy."),
			call("run_command", `{"command": "terraform plan"}`),
			result("Plan: 1 to add, 0 to change, 0 to destroy."),
		}, []Guard{{Step: 0, Text: "Run the plan first and apply only if the plan destroys nothing.", Verb: "apply", State: "destroy",
			Seen: []GuardSeen{{Step: 2, Shows: true}, {Step: 2, Shows: true}, {Step: 4}}}}},
		{"only if a state is absent, its verb in another form", []run.Step{
			user("Run the formatter in check mode and commit only if it modifies nothing."),
			call("run_command", `{"command": "black --check ."}`),
			result("would reformat app.py\n1 file would be modified."),
		}, []Guard{{Step: 0, Text: "Run the formatter in check mode and commit only if it modifies nothing.", Verb: "commit", State: "modif",
			Seen: []GuardSeen{{Step: 2, Shows: true, Object: "app.py"}}}}},
		{"unless a listing shows a tag beside a name", []run.Step{
			user("Clean up: delete every bucket with the prefix tmp- unless it carries the tag retain=true."),
			call("run_command", `{"command": "get-tags"}`),
			result("== tmp-build-cache\nTAGSET\towner\tci\n== tmp-etl-staging\nTAGSET\tretain\ttrue"),
		}, []Guard{{Step: 0, Text: "Clean up: delete every bucket with the prefix tmp- unless it carries the tag retain=true.", Verb: "delete", State: "retain=true",
			Seen: []GuardSeen{{Step: 2, Shows: true, Object: "tmp-etl-staging"}}}}},
		{"unless a status", []run.Step{
			user("Cancel the order unless its status is shipped."),
			call("get_order", `{"id": "W-1"}`),
			result(`{"id": "W-1", "status": "shipped"}`),
		}, []Guard{{Step: 0, Text: "Cancel the order unless its status is shipped.", Verb: "cancel", State: "shipped",
			Seen: []GuardSeen{{Step: 2, Shows: true, Object: "w-1"}}}}},
		{"one environment only, another shown", []run.Step{
			user("Scale the web tier to 4 instances and apply it to staging only."),
			call("shell", `{"command": "terraform workspace show"}`),
			result("prod"),
			call("shell", `{"command": "terraform workspace select staging"}`),
			result(`Switched to workspace "staging".`),
		}, []Guard{{Step: 0, Text: "Scale the web tier to 4 instances and apply it to staging only.", Verb: "apply", State: "other than staging", Allowed: "staging",
			Seen: []GuardSeen{{Step: 2, Shows: true}, {Step: 4}}}}},
		{"a device's path names no environment", []run.Step{
			user("Deploy the web service to staging only."),
			call("shell", `{"command": "df -h /"}`),
			result("Filesystem      Size  Used Avail Use% Mounted on\n/dev/sda1        50G   21G   29G  42% /"),
			call("shell", `{"command": "ls /srv/releases/dev-2024/"}`),
			result("web-1.4.tar.gz"),
		}, []Guard{{Step: 0, Text: "Deploy the web service to staging only.", Verb: "deploy", State: "other than staging", Allowed: "staging"}}},
		{"another environment in a host's name", []run.Step{
			user("Deploy the web service to staging only."),
			call("shell", `{"command": "kubectl config current-context"}`),
			result("arn:aws:eks:eu-west-1:1234:cluster/web-prod"),
		}, []Guard{{Step: 0, Text: "Deploy the web service to staging only.", Verb: "deploy", State: "other than staging", Allowed: "staging",
			Seen: []GuardSeen{{Step: 2, Shows: true}}}}},
		{"a script's name and prose name no environment", []run.Step{
			user("Deploy the web service to staging only."),
			call("shell", `{"command": "npm test"}`),
			result("\n> web@1.0.0 test\n> jest\n\nPASS src/app.test.js"),
			call("shell", `{"command": "npm run preview"}`),
			result("Stage 1/2: build\nThe preview server is live at http://localhost:4173"),
		}, []Guard{{Step: 0, Text: "Deploy the web service to staging only.", Verb: "deploy", State: "other than staging", Allowed: "staging"}}},
		{"another environment as a key's value or a listing's current entry", []run.Step{
			user("Deploy the web service to staging only."),
			call("shell", `{"command": "cat deploy.json"}`),
			result(`{"environment": "production", "replicas": 2}`),
			call("shell", `{"command": "kubectl config view --minify"}`),
			result("current-context: web-prod\nclusters: 1"),
			call("shell", `{"command": "terraform workspace list"}`),
			result("  default\n* prod"),
			call("shell", `{"command": "printenv"}`),
			result("HOME=/root\nAPP_ENV=dev"),
		}, []Guard{{Step: 0, Text: "Deploy the web service to staging only.", Verb: "deploy", State: "other than staging", Allowed: "staging",
			Seen: []GuardSeen{{Step: 2, Shows: true}, {Step: 4, Shows: true}, {Step: 6, Shows: true}, {Step: 8, Shows: true}}}}},
		{"a step required before any destructive change", []run.Step{
			user("Runbook: split users.full_name in two. 1) Take a dump of the users table with pg_dump to /backups/users.sql before any destructive change. 2) Drop full_name."),
		}, []Guard{{Step: 0, Text: "1) Take a dump of the users table with pg_dump to /backups/users.sql before any destructive change.", Requires: "dump", Destructive: true}}},
		{"a step required before an action", []run.Step{
			user("Make a snapshot of the disk before deleting the volume."),
		}, []Guard{{Step: 0, Text: "Make a snapshot of the disk before deleting the volume.", Requires: "snapshot", Verb: "deleting"}}},
		{"a dry run required before applying", []run.Step{
			user("Run a dry-run of the migration before applying it to production."),
		}, []Guard{{Step: 0, Text: "Run a dry-run of the migration before applying it to production.", Requires: "dry run", Verb: "applying"}}},
		{"a confirmation required before an action is the confirmation policy's", []run.Step{
			user("Make a confirmation of the order with the user before cancelling it."),
		}, nil},
		{"before with no step taken", []run.Step{
			user("Read the notes before deleting anything."),
		}, nil},
		{"unless of no mark", []run.Step{
			user("Close the ticket unless it is urgent."),
			call("get_ticket", `{"id": "T-1"}`),
			result(`{"priority": "urgent"}`),
		}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rf := Run(&run.Run{Question: tt.steps[0].Content, Steps: tt.steps})
			assert.Equal(t, tt.want, rf.Guards)
		})
	}
}

// TestGuardActsOnTheVerbsForms: a required step guards a call that
// writes any form of the action's verb, or the noun of its act, and no
// other word that begins like it.
func TestGuardActsOnTheVerbsForms(t *testing.T) {
	g := Guard{Requires: "snapshot", Verb: "deleting"}
	for _, tt := range []struct {
		call string
		want bool
	}{
		{"delete_volume", true},
		{"volume_deletes", true},
		{"schedule_deletion", true},
		{"deliver_report", false},
		{"get_volume", false},
	} {
		t.Run(tt.call, func(t *testing.T) {
			assert.Equal(t, tt.want, g.Acts(Call{Name: tt.call}))
		})
	}
}
