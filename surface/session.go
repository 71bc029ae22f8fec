package surface

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/dshtest/dshtest/sessionlog"
)

// Session is an append-only event log together with its surface (log.md
// §1.4): every append is validated against the current surface before it is
// pushed, so the log always folds.
//
// A Session is not safe for concurrent use. Listeners run synchronously on
// the appending goroutine.
type Session struct {
	clock      sessionlog.Clock
	events     []sessionlog.Event
	surface    *Surface
	listeners  []*listener
	publishing bool
}

type listener struct {
	fn     func(sessionlog.Event)
	active bool
}

// NewSession returns an empty session. clock must not be nil.
func NewSession(clock sessionlog.Clock) *Session {
	return &Session{clock: clock, surface: New(0)}
}

// Load mounts a stored log as it is: it runs the load-time checks
// (ValidateLog) and folds the surface, and appends nothing. The session
// keeps events (the slice, not a copy); the caller must not change it
// afterwards. Errors are *sessionlog.Error with the spec's texts.
func Load(events []sessionlog.Event, clock sessionlog.Clock) (*Session, error) {
	if err := ValidateLog(events); err != nil {
		return nil, err
	}
	s := &Session{clock: clock, surface: New(0)}
	for i := range events {
		if err := s.surface.Apply(&events[i]); err != nil {
			return nil, err
		}
	}
	s.events = events[:len(events):len(events)]
	return s, nil
}

// Resume is Load followed by the seed marker of log.md §1.4.4: it appends
// session/end-seed {} unless the log already ends with one. An empty log
// counts as a seed that does not end with one.
func Resume(events []sessionlog.Event, clock sessionlog.Clock) (*Session, error) {
	s, err := Load(events, clock)
	if err != nil {
		return nil, err
	}
	if n := len(events); n > 0 && events[n-1].Type == sessionlog.TypeSessionEndSeed {
		return s, nil
	}
	if _, err := s.Append(sessionlog.Event{Type: sessionlog.TypeSessionEndSeed, Data: json.RawMessage(`{}`)}); err != nil {
		return nil, fmt.Errorf("resume: %w", err)
	}
	return s, nil
}

// Append stamps e with seq = len(log) and time = clock(), validates it and,
// if it passes, pushes it and then notifies the listeners. The Seq and Time
// e carries are ignored.
//
// Validation runs before the push, in this order: the envelope (type, data
// present and lossless JSON), the legacy type, the message shape (subject
// "session event at seq N"), unknown types without ignorable, and the
// surface fold. A rejected event never enters the log and changes nothing;
// errors are *sessionlog.Error with the spec's texts. An Append from inside a
// listener fails with "session append cannot reenter while another append
// is being published".
//
// The raw fields of e are copied (an empty one reads as absent); the
// returned Event is the one pushed.
func (s *Session) Append(e sessionlog.Event) (sessionlog.Event, error) {
	if s.publishing {
		return sessionlog.Event{}, eventErrorf(int64(len(s.events)), "session append cannot reenter while another append is being published")
	}
	e.Seq = int64(len(s.events))
	e.Time = s.clock()
	e.Data = cloneRaw(e.Data)
	e.SurfaceOp = cloneRaw(e.SurfaceOp)
	e.SourceEventSeqs = cloneRaw(e.SourceEventSeqs)
	msg, ok := readPayload(&e, false)
	if !ok {
		return sessionlog.Event{}, eventErrorf(e.Seq, "session event at seq %d has an invalid event envelope", e.Seq)
	}
	if e.Type == sessionlog.TypeLegacyHeaderDelta {
		return sessionlog.Event{}, eventErrorf(e.Seq, "session event at seq %d uses unsupported legacy request/header-delta format", e.Seq)
	}
	if err := checkMessage(&e, &msg, func() string { return fmt.Sprintf("session event at seq %d", e.Seq) }); err != nil {
		return sessionlog.Event{}, err
	}
	if err := checkKnown(&e); err != nil {
		return sessionlog.Event{}, err
	}
	plan, err := s.surface.Validate(&e)
	if err != nil {
		return sessionlog.Event{}, err
	}
	if err := s.surface.Commit(plan); err != nil {
		return sessionlog.Event{}, err
	}
	s.events = append(s.events, e)
	s.publish(e)
	return e, nil
}

func (s *Session) publish(e sessionlog.Event) {
	if len(s.listeners) == 0 {
		return
	}
	s.publishing = true
	defer func() { s.publishing = false }()
	for _, l := range s.listeners { // a snapshot: Subscribe and cancel copy
		if l.active {
			l.fn(e)
		}
	}
}

// Subscribe registers fn to be called with each event after it is pushed.
// Listeners run in subscription order. cancel removes fn; it is idempotent
// and takes effect at once, even during a publish.
func (s *Session) Subscribe(fn func(sessionlog.Event)) (cancel func()) {
	l := &listener{fn: fn, active: true}
	s.listeners = append(s.listeners[:len(s.listeners):len(s.listeners)], l)
	return func() {
		if !l.active {
			return
		}
		l.active = false
		kept := make([]*listener, 0, len(s.listeners))
		for _, x := range s.listeners {
			if x != l {
				kept = append(kept, x)
			}
		}
		s.listeners = kept
	}
}

// Events returns the log. It is a read-only view: the caller must not
// change it or the events' raw fields. Later appends do not change a view
// already returned.
func (s *Session) Events() []sessionlog.Event { return s.events[:len(s.events):len(s.events)] }

// Len returns the number of events in the log.
func (s *Session) Len() int { return len(s.events) }

// Surface returns the session's surface. It is owned by the session:
// callers may read it but must not Apply or Commit.
func (s *Session) Surface() *Surface { return s.surface }

// DeriveMessages returns the model's view of the current surface (log.md
// §7).
func (s *Session) DeriveMessages() []ModelMessage { return s.surface.DeriveMessages() }

// cloneRaw copies a raw field; an empty one reads as absent.
func cloneRaw(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	return bytes.Clone(raw)
}
