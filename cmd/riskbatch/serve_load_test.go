package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"math/rand"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/riskbatch/riskbatch/internal/benchinput"
	"github.com/riskbatch/riskbatch/internal/testenv"
	"github.com/riskbatch/riskbatch/internal/testfiles/readback"
)

// TestServeLoad (RISKBATCH_LONG_TESTS=1) runs riskbatch serve in a child
// process on loopback and sends it 40 uploads of the sample and 4 of a
// 200,000-row CSV file at once; a client answered 503 waits and tries
// again. Every answer must be the file riskbatch eval writes (compared by
// SHA-256); the test reports the latencies (p50, p95) and the server's
// peak resident memory. It is bounded: 44 requests, 15 minutes.
func TestServeLoad(t *testing.T) {
	testenv.SkipUnlessLong(t, "a load test of minutes")
	dir := t.TempDir()
	small := filepath.Join(dir, "releases.csv")
	if err := os.WriteFile(small, readSample(t, "releases.csv"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.csv")
	if err := benchinput.WriteCSV(big, benchinput.ClosedForm(), 200_000); err != nil {
		t.Fatal(err)
	}
	want := map[string][32]byte{}
	for _, in := range []string{small, big} {
		out := filepath.Join(dir, "cli-"+filepath.Base(in))
		if code, stderr := riskbatchShared(t, "eval", in, "-o", out, "-q"); code > exitRowErrors {
			t.Fatalf("eval %s: %d %s", in, code, stderr)
		}
		want[in] = fileHash(t, out)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperProcess$", "--", "serve", "--port", "0", "--workers", "2", "--timeout", "10m")
	cmd.Env = append(os.Environ(), "RISKBATCH_HELPER_PROCESS=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("serve printed no address: %v %s", err, stderr.String())
	}
	m := regexp.MustCompile(`serving (http://127\.0\.0\.1:\d+/)`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("serve printed %q", line)
	}
	base := m[1]

	type result struct {
		input    string
		latency  time.Duration
		attempts int
		err      error
	}
	var jobs []string
	for i := 0; i < 40; i++ {
		jobs = append(jobs, small)
	}
	for i := 0; i < 4; i++ {
		jobs = append(jobs, big)
	}
	results := make([]result, len(jobs))
	var wg sync.WaitGroup
	client := &http.Client{}
	for i, in := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewSource(int64(i)))
			start := time.Now()
			r := result{input: in}
			for {
				r.attempts++
				status, sum, err := postFile(ctx, client, base+"api/eval", in)
				if err != nil {
					r.err = err
					break
				}
				if status == http.StatusServiceUnavailable {
					select {
					case <-time.After(time.Duration(100+rng.Intn(400)) * time.Millisecond):
						continue
					case <-ctx.Done():
						r.err = ctx.Err()
					}
					break
				}
				if status != 200 {
					r.err = fmt.Errorf("status %d", status)
				} else if sum != want[in] {
					r.err = fmt.Errorf("the answer differs from riskbatch eval's output")
				}
				break
			}
			r.latency = time.Since(start)
			results[i] = r
		}()
	}
	wg.Wait()
	peak := peakRSS(cmd.Process.Pid)
	lat := map[string][]time.Duration{}
	for _, r := range results {
		if r.err != nil {
			t.Errorf("%s: %v", filepath.Base(r.input), r.err)
		}
		lat[filepath.Base(r.input)] = append(lat[filepath.Base(r.input)], r.latency)
	}
	for name, ls := range lat {
		slices.Sort(ls)
		t.Logf("%d × %s: p50 %v, p95 %v, max %v (waiting included)", len(ls), name, ls[len(ls)/2].Round(time.Millisecond),
			ls[(len(ls)*95+99)/100-1].Round(time.Millisecond), ls[len(ls)-1].Round(time.Millisecond))
	}
	t.Logf("the server's peak RSS: %s", peak)
}

// postFile uploads path to url (format csv) and returns the status and
// the SHA-256 of the answer's body, read as it streams.
func postFile(ctx context.Context, client *http.Client, url, path string) (int, [32]byte, error) {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			pw.CloseWithError(err)
			return
		}
		defer f.Close()
		part, err := mw.CreateFormFile("file", filepath.Base(path))
		if err == nil {
			_, err = io.Copy(part, f)
		}
		if err == nil {
			err = mw.WriteField("format", "csv")
		}
		if err == nil {
			err = mw.Close()
		}
		pw.CloseWithError(err)
	}()
	req, err := http.NewRequestWithContext(ctx, "POST", url, pr)
	if err != nil {
		return 0, [32]byte{}, err
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := client.Do(req)
	if err != nil {
		return 0, [32]byte{}, err
	}
	defer resp.Body.Close()
	h := sha256.New()
	if _, err := io.Copy(h, resp.Body); err != nil {
		return 0, [32]byte{}, err
	}
	var sum [32]byte
	copy(sum[:], h.Sum(nil))
	return resp.StatusCode, sum, nil
}

func fileHash(t *testing.T, path string) [32]byte {
	t.Helper()
	return sha256.Sum256(readback.ReadFile(t, path))
}

// peakRSS is a process's peak resident memory (VmHWM of /proc/PID/status),
// or a note saying it could not be read.
func peakRSS(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "unknown here (" + err.Error() + ")"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "unknown (no VmHWM)"
}
