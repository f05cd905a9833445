package main

import (
	"fmt"
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/riskbatch/riskbatch/readers"
)

// limitsCategory groups the limit flags in the help.
const limitsCategory = "Limits on input files (raise one when a genuine file is refused)"

// limitFlags are the flags that set readers.Limits, shared by eval and
// priors; their defaults are readers.DefaultLimits.
func limitFlags() []cli.Flag {
	def := readers.DefaultLimits()
	var flags []cli.Flag
	for _, l := range readers.LimitSettings() {
		v := *l.Field(&def)
		value := strconv.FormatInt(v, 10)
		usage := l.Usage
		if l.Size {
			value = readers.FormatSize(v)
			usage += "; a size such as 512KiB, 16MiB, 2GB"
		}
		flags = append(flags, &cli.StringFlag{Name: l.Name, Value: value, Usage: usage + ", or none", Category: limitsCategory})
	}
	return flags
}

// limitsFrom reads the limit flags. An error names the flag.
func limitsFrom(c *cli.Context) (readers.Limits, error) {
	var lim readers.Limits
	for _, l := range readers.LimitSettings() {
		if !c.IsSet(l.Name) {
			continue // the default
		}
		s := c.String(l.Name)
		v, err := readers.ParseLimit(s, l.Size)
		if err != nil {
			return readers.Limits{}, cli.Exit(fmt.Sprintf("--%s: %v", l.Name, err), exitUsage)
		}
		*l.Field(&lim) = v
	}
	return lim, nil
}
