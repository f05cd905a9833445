package main

import "runtime/debug"

// The version and revision a release build stamps into the binary:
//
//	go build -ldflags "-X main.version=v1.2.0 -X main.revision=0123456789ab" ./cmd/riskbatch
//
// (.ci/release does). The linker can only set package-level strings; they
// are never assigned at run time. Empty in any other build, whose
// --version reads the build information instead.
var (
	version  string
	revision string
)

// stamp is the version and revision stamped at link time.
type stamp struct{ version, revision string }

// versionText is what --version prints. A release binary prints the
// version and revision it was stamped with (see version), and the Go
// version. Any other binary prints the module version and the
// version-control revision the binary was built from, as the Go toolchain
// recorded them in the build information, and the Go version. A binary
// built with `go build` or `go run` inside the repository has the version
// "(devel)" (Go 1.24 and later put a pseudo-version such as
// v0.0.0-20260501120000-0123456789ab+dirty there when it can read the
// repository); a binary built with -buildvcs=false, or outside a
// repository, records no revision, and the text says so.
func versionText(s stamp, info *debug.BuildInfo, ok bool) string {
	goVersion := ""
	if ok && info != nil && info.GoVersion != "" {
		goVersion = ", " + info.GoVersion
	}
	if s.version != "" {
		text := "riskbatch " + s.version
		if s.revision != "" {
			text += ", revision " + s.revision
		}
		return text + goVersion
	}
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
	return text + goVersion
}

// buildVersion is versionText of the running binary.
func buildVersion() string {
	info, ok := debug.ReadBuildInfo()
	return versionText(stamp{version, revision}, info, ok)
}
