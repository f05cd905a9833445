package main

import "strconv"

func itoa(i int) string                    { return strconv.Itoa(i) }
func parseFloat(s string) (float64, error) { return strconv.ParseFloat(s, 64) }
