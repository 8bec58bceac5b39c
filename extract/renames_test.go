package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestRenames: a name the task or an agent gives with underscores (user_id)
// that a later agent writes joined by case (userId), or the other way
// round, is renamed there, and the steps after that write the new
// spelling carry it; so too a name that ends in an id shortened to its
// initials in code (user_id as uid). Spellings that differ in case alone
// (a brand's, a constant's), an agent's own change of spelling, a tool's
// record keys, the same letters in prose,
// a spelling a tool printed before the step writes it (the codebase's
// convention, in a coding agent's session), and an exported field or a
// type a language spells with a capital (Go's UserID tagged user_id)
// rename nothing. The shapes are a MetaGPT-like team's spec, design and
// code, as its messages write them, and a coding agent's session as an
// OpenAI chat transcript gives it.
func TestRenames(t *testing.T) {
	const task = "Build POST /api/v1/items. The body has the fields user_id and title, and each summary its created_at."
	say := func(agent, c string) run.Step { return run.Step{Agent: agent, Content: c, Kind: run.KindMessage} }
	for _, tc := range []struct {
		name  string
		steps []run.Step
		want  []Rename
	}{
		{"a design renames the task's field, code carries it", []run.Step{
			say("ProductManager", "P0: the body carries user_id and title."),
			say("Architect", "class ItemCreate(BaseModel):\n    userId: int"),
			say("Engineer", "item = Item(owner=body.userId)"),
		}, []Rename{{Step: 1, From: "user_id", To: "userId", Offset: 33, Task: true, Carried: []int32{2}}}},
		{"code maps the field to a new name", []run.Step{
			say("Engineer", "return [OrderSummary(userId=r.user_id) for r in rows]"),
			say("QaEngineer", "assert r.json()[0][\"userId\"] == 7"),
		}, []Rename{{Step: 0, From: "user_id", To: "userId", Offset: 21, Task: true, Carried: []int32{1}}}},
		{"code shortens the task's field to its initials, a test carries it", []run.Step{
			say("Architect", "class Profile {\n    +int user_id\n}"),
			say("Engineer", "return {\"uid\": self.uid, \"title\": self.title}"),
			say("QaEngineer", "assert res.get_json()[\"uid\"] == 7"),
		}, []Rename{{Step: 1, From: "user_id", To: "uid", Offset: 9, Task: true, Carried: []int32{2}}}},
		{"a short word another agent wrote before is no rename", []run.Step{
			say("ProductManager", "Each account row also keeps a uid for the legacy system."),
			say("Engineer", "legacy = row[\"uid\"]"),
		}, nil},
		{"nor a member of an object that a step only reads", []run.Step{
			say("ProductManager", "P0: restock.py PRODUCT_ID runs ./order.sh with the product_id"),
			say("Engineer", "```python\nproc = subprocess.Popen([\"./order.sh\", product_id])\nlog.info(\"started %d\", proc.pid)\nlog.info(\"%s %d\", product_id, proc.wait())\n```"),
			say("QaEngineer", "```python\nproc.pid = 4242\nassert restock.restock(\"P-100\", 40) == 0\n```"),
		}, nil},
		{"nor the same letters in prose", []run.Step{
			say("ProductManager", "P0: each event carries its device_id."),
			say("Engineer", "The helper did what the design asks."),
		}, nil},
		{"nor one the same agent first wrote the long name of", []run.Step{
			say("Engineer", "def load(row_id): ..."),
			say("Engineer", "rid = row_id"),
		}, nil},
		{"code renames a name the design chose", []run.Step{
			say("Architect", "class Cart {\n    +int item_count\n}"),
			say("Engineer", "cart.itemCount += 1"),
			say("QaEngineer", "assert cart.itemCount == 2"),
		}, []Rename{{Step: 1, From: "item_count", To: "itemCount", Offset: 5, Carried: []int32{2}}}},
		{"the name kept", []run.Step{
			say("Architect", "class ItemCreate(BaseModel):\n    user_id: int"),
			say("Engineer", "Item(owner=body.user_id)"),
		}, nil},
		{"case alone differs", []run.Step{
			say("Researcher", "It runs on MacOS and on iOS."),
			say("Writer", "Available for macOS."),
		}, nil},
		{"a constant of the same words", []run.Step{
			say("Engineer", "USER_ID = 7\nprint(USER_ID)"),
		}, nil},
		{"an agent changes its own spelling", []run.Step{
			say("Engineer", "def load(item_count): ..."),
			say("Engineer", "def load(itemCount): ..."),
		}, nil},
		{"a spelling a tool printed first is followed, not made", []run.Step{
			{Agent: "assistant", Content: `bash({"command": "cat src/orders.js"})`, Kind: run.KindToolCall},
			{Agent: "tool", Content: "return rows.map((o) => ({ id: o.id, createdAt: o.createdAt }));", Kind: run.KindToolResult},
			say("assistant", "s.replace('id: o.id', 'id: o.id, createdAt: o.createdAt.toISOString()')"),
			say("assistant", "listOrders now returns createdAt."),
		}, nil},
		{"an exported field named for the key it is written as", []run.Step{
			say("Architect", "type ItemCreate struct {\n    UserID int `json:\"user_id\"`\n}"),
			say("Engineer", "owner := body.UserID"),
		}, nil},
		{"a tool's record keys", []run.Step{
			{Agent: "tool", Content: `{"userId": 7, "title": "pen"}`, Kind: run.KindToolResult},
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &run.Run{Question: task, Steps: tc.steps}
			for i := range r.Steps {
				r.Steps[i].Index = i
			}
			assert.Equal(t, tc.want, Run(r).Renames)
		})
	}
}

// TestFileRenames: a file the task requires by name that a step replaces
// with a new file of the same kind, which later steps carry while none
// names the required one again, is renamed there; a step that adds a
// file beside the required one, or one the design named before, renames
// nothing. The shape is a MetaGPT-like team's design, task list, code,
// review and summary.
func TestFileRenames(t *testing.T) {
	const task = "Write a to-do service with FastAPI. The deploy runs `uvicorn app:app`, so the entry point must be app.py."
	say := func(agent, c string) run.Step { return run.Step{Agent: agent, Content: c, Kind: run.KindMessage} }
	design := say("Architect", "## File list\n- app.py\n- store.py\n- test_app.py")
	for _, tc := range []struct {
		name  string
		steps []run.Step
		want  []Rename
	}{
		{"code written under another name, carried", []run.Step{
			design,
			say("Engineer", "## Code: main.py\n```python\napp = FastAPI()\n```"),
			say("Engineer", "## Code Review: main.py\nLGTM"),
		}, []Rename{{Step: 1, From: "app.py", To: "main.py", Offset: 9, Task: true, Carried: []int32{2}}}},
		{"a helper beside the required file", []run.Step{
			design,
			say("Engineer", "## Code: helpers.py\n```python\ndef slug(s): ...\n```"),
			say("Engineer", "## Code: app.py\n```python\nfrom helpers import slug\n```"),
			say("Engineer", "## Code Review: helpers.py\nLGTM"),
		}, nil},
		{"a file the design named", []run.Step{
			design,
			say("Engineer", "## Code: store.py\n```python\nclass Store: ...\n```"),
			say("Engineer", "## Code Review: store.py\nLGTM"),
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, renamesAfterTask(task, tc.steps))
		})
	}
}

// TestCallSwaps: a call whose arguments a step writes in another order
// than the task or another agent first wrote them, which a later step
// carries, swaps them there; the same order, an agent's own reordering, a
// call given values, and a swap no later step carries swap nothing. The
// shape is a MetaGPT-like team's PRD, design call flow and task list.
func TestCallSwaps(t *testing.T) {
	const task = "Write a ledger with transfer(source, target, amount) that moves money from source to target."
	say := func(agent, c string) run.Step { return run.Step{Agent: agent, Content: c, Kind: run.KindMessage} }
	for _, tc := range []struct {
		name  string
		steps []run.Step
		want  []Rename
	}{
		{"a call flow swaps the task's arguments, the task list carries it", []run.Step{
			say("Architect", "```mermaid\nsequenceDiagram\n    A->>L: transfer(target, source, amount)\n```"),
			say("ProjectManager", "- api.py: calls transfer(target, source, amount)"),
		}, []Rename{{Step: 0, From: "transfer(source, target, amount)", To: "transfer(target, source, amount)", Offset: 38, Task: true, Carried: []int32{1}}}},
		{"the same order", []run.Step{
			say("Architect", "A->>L: transfer(source, target, amount)"),
			say("ProjectManager", "- api.py: calls transfer(source, target, amount)"),
		}, nil},
		{"an agent's own reordering", []run.Step{
			say("Engineer", "def pair(left, right): ..."),
			say("Engineer", "pair(right, left)"),
			say("Engineer", "pair(right, left)"),
		}, nil},
		{"a call given values", []run.Step{
			say("QaEngineer", "ledger.transfer(\"B\", \"A\", 30)"),
			say("QaEngineer", "ledger.transfer(\"B\", \"A\", 30)"),
		}, nil},
		{"a swap no later step carries", []run.Step{
			say("Architect", "A->>L: transfer(target, source, amount)"),
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, renamesAfterTask(task, tc.steps))
		})
	}
}

// renamesAfterTask returns the renames read in a run of the task, given
// by the user, and then steps, with their steps counted from the first of
// steps.
func renamesAfterTask(task string, steps []run.Step) []Rename {
	r := &run.Run{Question: task, Steps: append([]run.Step{{Agent: "user", Content: task, Kind: run.KindUser}}, steps...)}
	for i := range r.Steps {
		r.Steps[i].Index = i
	}
	var got []Rename
	for _, rn := range Run(r).Renames {
		rn.Step--
		for k := range rn.Carried {
			rn.Carried[k]--
		}
		got = append(got, rn)
	}
	return got
}
