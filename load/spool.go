package load

import (
	"io"
	"os"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/container"
	"github.com/dshtest/dshtest/sessionlog/reader"
)

// Spool copies a log that cannot be read twice (standard input) to a
// temporary file, whose path it returns for Open; the caller removes it.
// A log is read more than once (a held file, history's page) and SQLite,
// zip and Zstandard need random access: a file on disk serves them all and
// keeps the text out of memory. The copy stops at the text cap
// (opts.MaxTextBytes; compressed bytes are fewer than the text they hold):
// a longer stream is refused with the text limit named, as every form is,
// and no file is left on any error. name is what refusals call the log.
func Spool(r io.Reader, name string, opts reader.Options) (string, error) {
	return spool(r, name, opts, createSpool)
}

// createSpool makes the temporary file of a spool.
func createSpool() (*os.File, error) { return os.CreateTemp("", "dshtest-stdin-*") }

// spool is Spool with the temporary file made by create, which a Stdin
// makes under its lock, so that a Stdin closed at any moment (an
// interrupt) removes a copy still in progress, or has none made.
func spool(r io.Reader, name string, opts reader.Options, create func() (*os.File, error)) (string, error) {
	refuse := func(err error) (string, error) {
		return "", sessionlog.Refuse(sessionlog.LayerInput, sessionlog.Pos{Path: name, Seq: -1}, "cannot read standard input: "+err.Error(), err)
	}
	tmp, err := create()
	if err != nil {
		return refuse(err)
	}
	drop := func() { tmp.Close(); os.Remove(tmp.Name()) }
	c := container.NewTextCap(r, container.Options{MaxText: opts.MaxTextBytes}.TextLimit())
	if _, err := io.Copy(tmp, c); err != nil {
		drop()
		if c.Over() {
			return "", container.TextTooLong(sessionlog.Pos{Path: name, Seq: -1}, c.Limit())
		}
		return refuse(err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return refuse(err)
	}
	return tmp.Name(), nil
}
