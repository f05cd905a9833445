package writers

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// TempPrefix begins the name of every temporary file or folder riskbatch
// makes beside an output: ".riskbatch-tmp-PID-HOST-RANDOM", where PID is
// the writing process and HOST a short hash of its machine's name. A run
// killed before it could clean up leaves such entries behind; the next run
// writing to the same folder removes them (see removeStale).
const TempPrefix = ".riskbatch-tmp-"

// staleAge is the age past which a temporary entry is removed although
// this machine cannot tell whether its process still runs: it was made on
// another machine (a shared folder), or its name does not say by whom.
const staleAge = 24 * time.Hour

// tempPattern is the os.CreateTemp pattern of this process's temporary
// entries.
func tempPattern() string {
	return TempPrefix + strconv.Itoa(os.Getpid()) + "-" + hostTag() + "-*"
}

// hostTag is a short hash of the machine's name: with it a run tells its
// own machine's temporary entries, whose process it can check, from those
// another machine made in a shared folder.
func hostTag() string {
	name, _ := os.Hostname()
	h := fnv.New32a()
	h.Write([]byte(name))
	return fmt.Sprintf("%08x", h.Sum32())
}

// createTemp creates a temporary file in dir, after removing the temporary
// entries that killed runs left there.
func createTemp(dir string) (*os.File, error) {
	removeStale(dir, time.Now())
	return os.CreateTemp(dir, tempPattern())
}

// removeStale removes from dir the temporary entries (files and folders
// named TempPrefix…) that runs killed before they could clean up left
// behind: those made on this machine by a process that no longer runs,
// and those older than staleAge that this machine cannot check. An entry
// of a process that still runs is never removed, however old. Errors are
// ignored: the cleanup is a courtesy and must not stop the run.
func removeStale(dir string, now time.Time) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	names, _ := d.Readdirnames(-1)
	_ = d.Close()
	for _, name := range names {
		if !strings.HasPrefix(name, TempPrefix) {
			continue
		}
		path := filepath.Join(dir, name)
		fi, err := os.Lstat(path)
		if err != nil || !staleTemp(name, fi.ModTime(), now) {
			continue
		}
		_ = os.RemoveAll(path)
	}
}

// staleTemp reports whether the temporary entry name, last modified at
// modified, was left by a run that is over.
func staleTemp(name string, modified, now time.Time) bool {
	pid, host, ok := tempOwner(name)
	if ok && host == hostTag() {
		return pid != os.Getpid() && processGone(pid)
	}
	return now.Sub(modified) > staleAge
}

// tempOwner reads the process number and machine tag from a temporary
// entry's name.
func tempOwner(name string) (pid int, host string, ok bool) {
	rest, found := strings.CutPrefix(name, TempPrefix)
	if !found {
		return 0, "", false
	}
	pidText, rest, found := strings.Cut(rest, "-")
	if !found {
		return 0, "", false
	}
	host, _, found = strings.Cut(rest, "-")
	pid, err := strconv.Atoi(pidText)
	if !found || err != nil || pid <= 0 || len(host) != 8 {
		return 0, "", false
	}
	return pid, host, true
}
