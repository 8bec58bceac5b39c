package root

import (
	"runtime/debug"
	"strings"
)

// version describes the build: the module version (a tag when installed
// with go install ...@vX, "(devel)" when built from a checkout) and the VCS
// revision the go command stamped, with its time and whether the tree had
// uncommitted changes.
func version(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "unknown (no build information)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, at string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	var parts []string
	if rev != "" {
		parts = append(parts, "revision "+rev)
	}
	if at != "" {
		parts = append(parts, at)
	}
	if modified {
		parts = append(parts, "with uncommitted changes")
	}
	if len(parts) == 0 {
		// go run and builds with -buildvcs=false stamp no revision;
		// a tagged install names its commit in the version.
		parts = append(parts, "revision not recorded")
	}
	return v + " (" + strings.Join(parts, ", ") + ") " + info.GoVersion
}
