package harness

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dshtest/dshtest/internal/ground/jsonobj"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/surface"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/terminal/display"
)

// DefaultClock is the frozen instant every scenario starts at: upstream's
// fixture clock, 2026-07-21 14:40:00 written as UTC (terminal.md §9.4).
const DefaultClock int64 = 1784644800000

// SessionID is the session id every scenario's terminal shows.
const SessionID = "main-session"

type scriptKey struct{}

// script is one scenario's state: the session log, the frozen clock, the
// labels, the conversation cursor and the mounted terminal.
type script struct {
	suite *Suite
	name  string

	now    int64
	sess   *surface.Session
	labels map[string]int64

	// The conversation cursor: the current turn and step, the open chunk
	// stream, and the tool/call seq of each call id.
	turn, step  int64
	stream      *stream
	calls       map[string]int64
	compactions int
	open        *openCompaction

	view view
	term *terminal.Model
	// mountN is the number of events the terminal was mounted on; the
	// events after it reached the terminal live, through filter.
	mountN int
	filter func(*sessionlog.Event) bool

	snapshots map[string]bool
	// mismatches are the snapshots that differed from their fixtures.
	mismatches []Mismatch
}

// view is everything besides the log that a mounted terminal renders with.
type view struct {
	width, height int
	scheme        display.Scheme
	hideReasoning bool
	tools         display.ToolMode
	eager         bool
	presenter     string // "" or "upstream-bash"
	maxToolLines  int
}

func newScript(s *Suite, name string) *script {
	st := &script{suite: s, name: name, now: DefaultClock, labels: map[string]int64{},
		calls: map[string]int64{}, snapshots: map[string]bool{}}
	st.sess = surface.NewSession(st.clock)
	return st
}

func (s *script) clock() int64 { return s.now }

// events returns the log.
func (s *script) events() []sessionlog.Event { return s.sess.Events() }

// nextSeq is the seq the next append gets.
func (s *script) nextSeq() int64 { return int64(s.sess.Len()) }

func getScript(ts *testscript.TestScript) *script {
	st, _ := ts.Value(scriptKey{}).(*script)
	if st == nil {
		ts.Fatalf("harness: no scenario state (Params.Setup did not run)")
	}
	return st
}

// runVerb runs a verb body with testscript's negation rules: without "!"
// an error fails the scenario; with "!" the verb must fail, and its error
// goes to stderr (one line) for a following stderr check. A failing
// appending verb must leave the log as it was.
func runVerb(ts *testscript.TestScript, neg bool, verb string, body func(s *script) error) {
	s := getScript(ts)
	// Reset stdout and stderr so that checks see only this verb's output.
	ts.Stdout()
	ts.Stderr()
	before := s.sess.Len()
	err := body(s)
	switch {
	case err == nil && neg:
		ts.Fatalf("%s: unexpected success", verb)
	case err != nil && !neg:
		ts.Fatalf("%v", err)
	case err != nil:
		fmt.Fprintln(ts.Stderr(), err)
		if s.sess.Len() != before {
			ts.Fatalf("%s: a rejected verb changed the log (%d events, was %d)", verb, s.sess.Len(), before)
		}
	}
}

// label stores seq under name (also as the environment variable NAME, so
// "$NAME" works inside raw JSON).
func (s *script) label(ts *testscript.TestScript, name string, seq int64) error {
	if name == "" {
		return nil
	}
	if !validLabel(name) {
		return fmt.Errorf("--as %q: a label is a letter followed by letters, digits or '_'", name)
	}
	if _, dup := s.labels[name]; dup {
		return fmt.Errorf("--as %q: label already used", name)
	}
	s.labels[name] = seq
	ts.Setenv(name, strconv.FormatInt(seq, 10))
	return nil
}

func validLabel(name string) bool {
	for i, c := range name {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return name != ""
}

// seqArg resolves a seq argument: a number or a label.
func (s *script) seqArg(verb, arg string) (int64, error) {
	if n, err := strconv.ParseInt(arg, 10, 64); err == nil {
		return n, nil
	}
	if n, ok := s.labels[arg]; ok {
		return n, nil
	}
	return 0, fmt.Errorf("%s: %q is neither a seq nor a label", verb, arg)
}

// event returns the event at seq.
func (s *script) event(verb string, seq int64) (*sessionlog.Event, error) {
	evs := s.events()
	if seq < 0 || seq >= int64(len(evs)) {
		return nil, fmt.Errorf("%s: no event at seq %d (the log has %d)", verb, seq, len(evs))
	}
	return &evs[seq], nil
}

// append appends events as one step: they are first appended to a scratch
// copy of the session, so that if any is rejected none enters the log and
// the error is the session's own. Accepted events reach a mounted terminal
// through the live path.
func (s *script) append(evs ...sessionlog.Event) ([]sessionlog.Event, error) {
	if len(evs) > 1 {
		scratch, err := surface.Load(s.events(), s.clock)
		if err != nil {
			return nil, fmt.Errorf("harness: reload the log: %w", err)
		}
		for _, e := range evs {
			if _, err := scratch.Append(e); err != nil {
				return nil, err
			}
		}
	}
	out := make([]sessionlog.Event, 0, len(evs))
	for _, e := range evs {
		got, err := s.sess.Append(e)
		if err != nil {
			return out, err
		}
		out = append(out, got)
		s.deliver(got)
	}
	return out, nil
}

// deliver sends an appended event to the mounted terminal.
func (s *script) deliver(e sessionlog.Event) {
	if s.term == nil {
		return
	}
	if s.filter != nil && !s.filter(&e) {
		return
	}
	s.update(terminal.EventMsg{Event: e})
}

// appendLabelled appends evs and labels the event at index at (negative
// counts from the end) with the --as flag's value.
func (s *script) appendLabelled(ts *testscript.TestScript, p parsed, at int, evs ...sessionlog.Event) ([]sessionlog.Event, error) {
	name, _ := p.get("as")
	if name != "" {
		if !validLabel(name) {
			return nil, fmt.Errorf("--as %q: a label is a letter followed by letters, digits or '_'", name)
		}
		if _, dup := s.labels[name]; dup {
			return nil, fmt.Errorf("--as %q: label already used", name)
		}
	}
	out, err := s.append(evs...)
	if err != nil {
		return out, err
	}
	if at < 0 {
		at += len(out)
	}
	if err := s.label(ts, name, out[at].Seq); err != nil {
		return out, err
	}
	return out, nil
}

// mustJSON marshals v without HTML escaping.
func mustJSON(v any) json.RawMessage {
	b, err := jsonobj.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("harness: marshal %T: %v", v, err))
	}
	return b
}
