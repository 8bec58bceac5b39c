package spans

import (
	"strconv"
	"strings"
)

// Azure Monitor Application Insights' telemetry as its queries return it
// (the requests and dependencies tables, one row a span: "id",
// "operation_Id", "operation_ParentId", "name", "timestamp", "duration" in
// milliseconds, "success", "resultCode", "itemType", and
// "customDimensions", the span's attributes as its OpenTelemetry exporter
// writes them, a JSON object or its text), and as a Log Analytics
// workspace keeps it (AppRequests, AppDependencies: "Id", "OperationId",
// "ParentId", "Name", "TimeGenerated", "DurationMs", "Success",
// "ResultCode", "Type", "Properties"). The operation is the trace; a parent
// that is the operation itself names none; a row that did not succeed is
// an error, its result code its message; a request is a server's span.

// isAppInsightsRow reports whether m is a row of Application Insights'
// requests or dependencies.
func isAppInsightsRow(m map[string]any) bool {
	_, op := m["operation_Id"]
	_, id := m["id"]
	_, wop := m["OperationId"]
	_, wid := m["Id"]
	return op && id || wop && wid
}

// appInsightsFields are the columns of a row, classic and workspace-based,
// that say what the span is, by what flatSpan reads.
var appInsightsFields = map[string]string{
	"id": "span_id", "Id": "span_id", "operation_Id": "trace_id", "OperationId": "trace_id",
	"operation_ParentId": "parent_id", "ParentId": "parent_id", "name": "name", "Name": "name",
	"timestamp": "start_time", "TimeGenerated": "start_time",
}

// appInsightsRow rewrites a row of Application Insights as the flat span
// it is.
func appInsightsRow(m map[string]any) map[string]any {
	rec := map[string]any{}
	for k, v := range m {
		if f, ok := appInsightsFields[k]; ok {
			rec[f] = v
		}
	}
	if rec["parent_id"] == rec["trace_id"] || rec["parent_id"] == "" {
		delete(rec, "parent_id")
	}
	attrs := map[string]any{}
	for _, k := range []string{"customDimensions", "Properties"} {
		switch d := pythonDict(m[k]).(type) {
		case map[string]any:
			for a, v := range d {
				attrs[a] = v
			}
		}
	}
	rec["attributes"] = attrs
	if t := firstText(m, []string{"itemType", "Type"}); strings.EqualFold(t, "request") || t == "AppRequests" {
		rec["kind"] = "server"
	}
	if ok, isBool := appInsightsSuccess(first(m, []string{"success", "Success"})); isBool && !ok {
		rec["status_code"] = "ERROR"
		if code := firstText(m, []string{"resultCode", "ResultCode"}); code != "" {
			rec["status_message"] = "result code " + code
		}
	}
	endAfterMillis(rec, first(m, []string{"duration", "DurationMs"}))
	return rec
}

// appInsightsSuccess reads a row's success, a boolean or its text
// ("True", "False" in an export).
func appInsightsSuccess(v any) (ok, isBool bool) {
	switch t := v.(type) {
	case bool:
		return t, true
	case string:
		b, err := strconv.ParseBool(strings.ToLower(strings.TrimSpace(t)))
		return b, err == nil
	}
	return false, false
}
