package main

import (
	"io"
	"strings"
	"time"

	"github.com/charmbracelet/x/vt"
)

// A chunk is output read from view's terminal, with the time it arrived.
type chunk struct {
	at   time.Time
	data []byte
}

// screen is view's terminal decoded: what a frame shows is read from its
// cells, never from the raw bytes. Bubble Tea's renderer writes only the
// cells that changed since the last frame, with cursor moves over the ones
// that did not, so a word on the screen is often not in the bytes that
// drew it: "tools expanded" over "tools collapsed" one column to the left
// may be sent as "expan", a move over the "d" already there, and "ed".
type screen struct {
	em      *vt.Emulator
	height  int
	drained chan struct{} // closed once the answers' reader is done
}

func newScreen(width, height int) *screen {
	s := &screen{em: vt.NewEmulator(width, height), height: height, drained: make(chan struct{})}
	// The emulator answers the program's queries on a pipe that blocks
	// until read; view gets no answers, as from the bench before.
	go func() {
		io.Copy(io.Discard, s.em)
		close(s.drained)
	}()
	return s
}

// feed applies output to the screen.
func (s *screen) feed(c chunk) { s.em.Write(c.data) }

// status is the text of the screen's last row, view's status line.
func (s *screen) status() string {
	rows := strings.Split(s.em.String(), "\n")
	if len(rows) < s.height {
		return ""
	}
	return rows[s.height-1]
}

// close ends the answers' reader, then the emulator: the emulator's Close
// and Read share a flag without a lock, so they must not overlap.
func (s *screen) close() {
	if pw, ok := s.em.InputPipe().(io.Closer); ok {
		pw.Close()
		<-s.drained
		s.em.Close()
	}
}

// settled reports whether the screen drawn since a mark is complete, and
// when its last byte arrived. chunks are the output read since the mark;
// shown is whether the screen shows what the frame must (true when any
// output will do). The screen is complete once it shows that, there was
// output, and nothing more has arrived for quiet up to now: Bubble Tea
// flushes a frame in one burst at its frame rate, so a frame is a burst
// that draws what the key changes, and its end is the burst's last byte,
// not the end of the quiet wait.
func settled(chunks []chunk, shown bool, quiet time.Duration, now time.Time) (end time.Time, ok bool) {
	if len(chunks) == 0 || !shown {
		return time.Time{}, false
	}
	last := chunks[len(chunks)-1].at
	if now.Sub(last) < quiet {
		return time.Time{}, false
	}
	return last, true
}
