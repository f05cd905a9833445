package main

import "runtime/debug"

// versionText is what --version prints: the module version and the
// version-control revision the binary was built from, as the Go toolchain
// recorded them in the build information, and the Go version. A binary
// built with `go build` or `go run` inside the repository has the version
// "(devel)" (Go 1.24 and later put a pseudo-version such as
// v0.0.0-20260501120000-0123456789ab+dirty there when it can read the
// repository); a binary built with -buildvcs=false, or outside a
// repository, records no revision, and the text says so.
func versionText(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "riskbatch (no build information recorded in this binary)"
	}
	version := info.Main.Version
	if version == "" || version == "(devel)" {
		version = "(devel)"
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	text := "riskbatch " + version
	if rev := settings["vcs.revision"]; rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		text += ", revision " + rev
		if t := settings["vcs.time"]; t != "" {
			text += " of " + t
		}
		if settings["vcs.modified"] == "true" {
			text += " with uncommitted changes"
		}
	} else {
		text += ", no revision recorded (built with -buildvcs=false or outside a git repository)"
	}
	if info.GoVersion != "" {
		text += ", " + info.GoVersion
	}
	return text
}

// buildVersion is versionText of the running binary.
func buildVersion() string { return versionText(debug.ReadBuildInfo()) }
