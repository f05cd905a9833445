package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// dpAccountingScript runs dp_accounting's PLD accountant (Google's
// differential-privacy library, python/dp_accounting) on the DP-SGD rows
// of the CSV file named by its first argument (columns noise_multiplier,
// sample_rate, steps), as the accountant table's sweep asks riskbatch:
// from_gaussian_mechanism(σ, sampling_prob=q) on its default grid of 1e-4
// with connect-the-dots (pessimistic, add/remove), self_compose(steps),
// then δ(0) and ε(1e-5). It prints the wall and CPU seconds of the whole
// loop (the imports and the interpreter's start are not counted).
const dpAccountingScript = `import csv, json, sys, time
from dp_accounting.pld import privacy_loss_distribution as pld
rows = list(csv.DictReader(open(sys.argv[1])))
w0, c0 = time.perf_counter(), time.process_time()
for r in rows:
    p = pld.from_gaussian_mechanism(float(r['noise_multiplier']), sampling_prob=float(r['sample_rate']), use_connect_dots=True)
    p = p.self_compose(int(r['steps']))
    p.get_delta_for_epsilon(0)
    p.get_epsilon_for_delta(1e-5)
print(json.dumps([time.perf_counter() - w0, time.process_time() - c0]))
`

// dpAccountingTimes runs dpAccountingScript with python on input, with
// dp_accounting's sources at src (the python/dp_accounting folder of
// google/differential-privacy), and returns its wall and CPU time for all
// rows. The script is written to dir.
func dpAccountingTimes(python, src, dir, input string) (wall, cpu time.Duration, err error) {
	script := filepath.Join(dir, "dp_accounting_sweep.py")
	if err := os.WriteFile(script, []byte(dpAccountingScript), 0o644); err != nil {
		return 0, 0, err
	}
	cmd := exec.Command(python, script, input)
	cmd.Env = append(os.Environ(), "PYTHONPATH="+src)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return 0, 0, fmt.Errorf("dp_accounting (%s with PYTHONPATH=%s): %w", python, src, err)
	}
	var secs [2]float64
	if err := json.Unmarshal(out, &secs); err != nil {
		return 0, 0, fmt.Errorf("dp_accounting: %v: %s", err, out)
	}
	return time.Duration(secs[0] * float64(time.Second)), time.Duration(secs[1] * float64(time.Second)), nil
}
