package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/riskbatch/riskbatch/cellfiles"
	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/pipeline"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/riskbatch/riskbatch/serve"
)

// serveCommand is `riskbatch serve`: the page and HTTP API of package
// serve, with the evaluation of a file wired to runEval, the code of
// `riskbatch eval` (serveEval).
func serveCommand(stdout, stderr io.Writer, evOpts ...evaluate.Option) *cli.Command {
	return &cli.Command{
		Name:      "serve",
		Usage:     "a local web page and HTTP API over the same evaluator (default http://127.0.0.1:8421)",
		UsageText: "riskbatch serve [--port N] [--listen ADDR] [--token T] [--max-upload SIZE] [--open]",
		Description: "Starts a web server on this machine and prints its address: a page to evaluate a file, one\n" +
			"release at a time and the column reference, and the HTTP API (POST /api/eval, POST /api/row,\n" +
			"GET /api/columns, GET /healthz; see docs/serve.md). It listens on loopback only unless --listen\n" +
			"names another address, which then needs a token on every request (--token, or one generated\n" +
			"and printed). Stop it with Ctrl-C.",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "port", Value: 8421, Usage: "the port to listen on (0: any free port)"},
			&cli.StringFlag{Name: "listen", Usage: "the address to listen on, HOST or HOST:PORT (default 127.0.0.1); beyond loopback a token is required"},
			&cli.StringFlag{Name: "token", Usage: "the token every request must carry (Authorization: Bearer T or ?token=T); generated when --listen is not loopback"},
			&cli.StringFlag{Name: "max-upload", Value: readers.FormatSize(serve.DefaultMaxUpload), Usage: "the largest request body, a size such as 64MiB or 1GB; larger uploads are answered 413"},
			&cli.IntFlag{Name: "workers", Value: runtime.NumCPU(), Usage: "evaluations run at once; further requests are answered 503 with Retry-After"},
			&cli.DurationFlag{Name: "timeout", Value: serve.DefaultTimeout, Usage: "the time limit of one request's evaluation"},
			&cli.BoolFlag{Name: "open", Usage: "open the page in the browser"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("serve", "serve takes no file; upload files on its page or to POST /api/eval")
			}
			return runServe(c, stdout, stderr, evOpts)
		},
	}
}

// runServe listens, prints the address and serves until Ctrl-C or SIGTERM.
func runServe(c *cli.Context, stdout, stderr io.Writer, evOpts []evaluate.Option) error {
	host, port := "127.0.0.1", strconv.Itoa(c.Int("port"))
	if l := c.String("listen"); l != "" {
		host = l
		if h, p, err := net.SplitHostPort(l); err == nil {
			host = h
			if !c.IsSet("port") {
				port = p
			}
		}
	}
	maxUpload, err := readers.ParseLimit(c.String("max-upload"), true)
	if err != nil || maxUpload <= 0 {
		return usagef("serve", "--max-upload %s: give a size such as 256MiB", c.String("max-upload"))
	}
	token := c.String("token")
	generated := false
	if token == "" && !serve.IsLoopback(host) {
		if token, err = serve.NewToken(); err != nil {
			return cli.Exit("serve: "+err.Error(), exitUsage)
		}
		generated = true
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return cli.Exit("serve: "+err.Error(), exitUsage)
	}
	addr := ln.Addr().String()
	if h, _, _ := net.SplitHostPort(addr); h != host && !net.ParseIP(host).Equal(net.ParseIP(h)) {
		_, p, _ := net.SplitHostPort(addr)
		addr = net.JoinHostPort(host, p) // the name given, as the Host header will carry it
	}
	srv, err := serve.New(serve.Config{Addr: addr, Token: token, MaxUpload: maxUpload, Workers: c.Int("workers"),
		Timeout: c.Duration("timeout"), EvalFile: serveEval(evOpts...), Template: serveTemplate, Log: stderr})
	if err != nil {
		ln.Close()
		return cli.Exit(err.Error(), exitUsage)
	}
	url := "http://" + addr + "/"
	if token != "" {
		url += "?token=" + token
	}
	fmt.Fprintf(stdout, "riskbatch: serving %s (Ctrl-C to stop)\n", url)
	if generated {
		fmt.Fprintln(stdout, "riskbatch: the token was generated for this run; every request needs it (?token= or Authorization: Bearer)")
	}
	if c.Bool("open") {
		if err := openBrowser(url); err != nil {
			fmt.Fprintf(stderr, "riskbatch: --open: %v; open %s yourself\n", err, url)
		}
	}
	// One soft memory limit for the process, set here rather than by each
	// evaluation (their runs overlap): what Parquet output needs for each
	// of --workers runs (pipeline.ProcessMemoryLimit), unless GOMEMLIMIT
	// sets one; the previous limit comes back when the server stops.
	if os.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(pipeline.ProcessMemoryLimit(c.Int("workers"))))
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return cli.Exit("serve: "+err.Error(), exitUsage)
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	hs.Shutdown(shut)
	return nil
}

// openBrowser opens url in the desktop's browser.
func openBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	return cmd.Start()
}

// serveEval returns the function that evaluates the file of a request
// with the code of `riskbatch eval`: its flags parsed by the same definitions (evalFlags,
// evalConfigFrom) and the same run (runEval), writing req.Output. Files
// named in cells may be only the request's uploads (uploadedOnly). Row
// errors (exit status 1) are a result like any other; a refused input
// (exit status 2) is a serve.InputError with eval's message. evOpts are
// added to the evaluator's options (runWith).
func serveEval(evOpts ...evaluate.Option) func(ctx context.Context, req serve.EvalRequest) error {
	return func(ctx context.Context, req serve.EvalRequest) error {
		return serveEvalRequest(ctx, req, evOpts)
	}
}

// serveEvalRequest is serveEval's function.
func serveEvalRequest(ctx context.Context, req serve.EvalRequest, evOpts []evaluate.Option) error {
	var stderr bytes.Buffer
	args := []string{"riskbatch", "eval", "--output", req.Output, "--format", req.Format, "--quiet"}
	for _, p := range req.Priors {
		args = append(args, "--priors", p)
	}
	args = append(args, req.Flags...)
	args = append(args, "--", req.Input)
	app := &cli.App{
		Name: "riskbatch", Writer: io.Discard, ErrWriter: &stderr,
		ExitErrHandler: func(*cli.Context, error) {},
		Commands: []*cli.Command{{
			Name:  "eval",
			Flags: evalFlags(),
			OnUsageError: func(_ *cli.Context, err error, _ bool) error {
				return usagef("eval", "%v", err)
			},
			Action: func(c *cli.Context) error {
				cfg, err := evalConfigFrom(c, io.Discard, &stderr)
				if err != nil {
					return err
				}
				cfg.ctx = ctx
				cfg.evalOptions = evOpts
				cfg.progress = req.Progress // nil: the page asked for none
				cfg.cellFiles = func(l *cellfiles.Loader) evaluate.DataLoader {
					return uploadedOnly{names: req.DataFiles, loader: l}
				}
				return runEval(cfg)
			},
		}},
	}
	err := app.RunContext(ctx, args)
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var exit cli.ExitCoder
	if errors.As(err, &exit) {
		switch exit.ExitCode() {
		case exitRowErrors:
			return nil
		case exitInterrupted: // the server is stopping (Ctrl-C, SIGTERM)
			return errors.New("interrupted")
		}
	}
	return &serve.InputError{Msg: strings.TrimPrefix(err.Error(), "riskbatch: ")}
}

// uploadedOnly lets cells name only the files uploaded with the table:
// riskbatch serve reads no other file of its machine for a request.
type uploadedOnly struct {
	names  []string
	loader *cellfiles.Loader
}

// OpenData opens ref if it is the name of an uploaded file.
func (u uploadedOnly) OpenData(source, ref string) (evaluate.DataTable, error) {
	name := strings.TrimSpace(ref)
	if !slices.Contains(u.names, name) {
		return nil, fmt.Errorf("%s is not a file uploaded with the table; a cell may name only those (field data)", name)
	}
	return u.loader.OpenData(source, name)
}

// serveTemplate writes the workbook of `riskbatch template` to path.
func serveTemplate(ctx context.Context, path string) error {
	var stderr bytes.Buffer
	if code := run([]string{"riskbatch", "template", "--quiet", "-o", path}, nil, io.Discard, &stderr); code != exitOK {
		return errors.New(strings.TrimSpace(stderr.String()))
	}
	return nil
}
