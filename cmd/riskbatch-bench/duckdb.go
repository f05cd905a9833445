package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// duckDBScript runs the statements given as a JSON array in its first
// argument, all of them in turn, as many times as its second argument
// says, in one in-memory DuckDB connection, and prints the least wall
// time and the least CPU time (user and system, every thread of the
// process) one round took, in seconds.
const duckDBScript = `import { createRequire } from 'module'
const require = createRequire(process.env.RISKBATCH_NODE_MODULES + '/')
const { DuckDBInstance } = require('@duckdb/node-api')
const con = await (await DuckDBInstance.create(':memory:')).connect()
const statements = JSON.parse(process.argv[2])
const rounds = Number(process.argv[3])
let wall = Infinity, cpu = Infinity
for (let i = 0; i < rounds; i++) {
  const t0 = performance.now(), c0 = process.cpuUsage()
  for (const s of statements) await con.runAndReadAll(s)
  const c = process.cpuUsage(c0)
  wall = Math.min(wall, performance.now() - t0)
  cpu = Math.min(cpu, (c.user + c.system) / 1e6)
}
console.log(JSON.stringify([wall / 1000, cpu]))
`

// duckDBSeconds runs the statements in DuckDB, rounds times, and returns
// the least wall time and the least CPU time the statements took
// together, as measured inside node (its start and DuckDB's are not
// counted), or zeros when DuckDB for Node.js is absent. DuckDB runs through its Node.js package: node on PATH and
// RISKBATCH_NODE_MODULES naming a node_modules folder where
// `npm install @duckdb/node-api` was run. The script is written to dir.
func duckDBSeconds(dir string, statements []string, rounds int) (wall, cpu float64, err error) {
	modules := os.Getenv("RISKBATCH_NODE_MODULES")
	node, lookErr := exec.LookPath("node")
	if lookErr != nil || modules == "" {
		fmt.Fprintln(os.Stderr, "riskbatch-bench: DuckDB for Node.js is absent (node, RISKBATCH_NODE_MODULES): no DuckDB times")
		return 0, 0, nil
	}
	script := filepath.Join(dir, "duckdb.mjs")
	if err := os.WriteFile(script, []byte(duckDBScript), 0o644); err != nil {
		return 0, 0, err
	}
	arg, err := json.Marshal(statements)
	if err != nil {
		return 0, 0, err
	}
	cmd := exec.Command(node, script, string(arg), fmt.Sprint(max(rounds, 1)))
	cmd.Stderr = os.Stderr
	outb, err := cmd.Output()
	if err != nil {
		return 0, 0, fmt.Errorf("DuckDB: %w", err)
	}
	var secs [2]float64
	if err := json.Unmarshal(outb, &secs); err != nil {
		return 0, 0, fmt.Errorf("DuckDB: %v: %s", err, outb)
	}
	return secs[0], secs[1], nil
}

// sqlString is s as an SQL string literal.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
