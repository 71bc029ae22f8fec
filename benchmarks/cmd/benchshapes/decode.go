package main

import (
	"fmt"
	"io"

	"github.com/dshtest/dshtest/sessionlog/reader"
)

// decode is the floor's decode pass (benchshapes -decode FILE): the log
// read through the one reading path every command uses, and nothing else
// done with it. It prints the number of events read.
func decode(path string, w io.Writer) error {
	s, err := reader.Open(path, reader.Options{})
	if err != nil {
		return err
	}
	n := 0
	for s.Next() {
		n++
	}
	if err := s.Err(); err != nil {
		s.Close()
		return err
	}
	if err := s.Close(); err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, n)
	return err
}
