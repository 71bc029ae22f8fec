package benchmarks

import (
	"math/rand/v2"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dshtest/dshtest/history"
	"github.com/dshtest/dshtest/terminal"
	"github.com/dshtest/dshtest/transcript"
)

// BenchmarkMount measures a mount: the model replays the stored log (and
// primes its live projector) and draws the first screen. Each op mounts the
// next of the size's sessions. naive/ is upstream's rebuildTranscript:
// project the whole log and render every item of the document.
func BenchmarkMount(b *testing.B) {
	for _, n := range sizes {
		b.Run(sizeName(n), func(b *testing.B) {
			f := fixtureFor(b, n)
			i := 0
			cpu := startCPU()
			for b.Loop() {
				terminal.New(config(f.sessions[i%len(f.sessions)].stored)).Screen()
				i++
			}
			cpu.report(b, n)
		})
	}
	for _, n := range sizes {
		b.Run("naive/"+sizeName(n), func(b *testing.B) {
			f := fixtureFor(b, n)
			s := settings(f.sessions[0].stored)
			i := 0
			cpu := startCPU()
			for b.Loop() {
				naiveRebuild(f.sessions[i%len(f.sessions)].stored, s, height-2)
				i++
			}
			cpu.report(b, n)
		})
	}
}

// BenchmarkLiveAppend measures one live event on a model mounted on N
// events: EventMsg and the next screen. Every op appends a new event of a
// session's tail; when the tail runs out the next session is mounted with
// the timer stopped. The first live event after a mount primes the live
// projector with the whole log (one projection pass, as BenchmarkMount's
// replay), so it too is delivered with the timer stopped. naive/ rebuilds
// the whole transcript and renders the whole document per event.
func BenchmarkLiveAppend(b *testing.B) {
	for _, n := range sizes {
		b.Run(sizeName(n), func(b *testing.B) {
			f := fixtureFor(b, n)
			// mount mounts session si and delivers its first live event.
			mount := func(si int) *terminal.Model {
				m := terminal.New(config(f.sessions[si].stored))
				m.Screen()
				m.Update(terminal.EventMsg{Event: f.sessions[si].tail[0]})
				m.Screen()
				return m
			}
			si, k := 0, 1
			m := mount(si)
			cpu := startCPU()
			for b.Loop() {
				if k == len(f.sessions[si].tail) {
					b.StopTimer()
					cpu.stop()
					si, k = (si+1)%len(f.sessions), 1
					m = mount(si)
					cpu.start()
					b.StartTimer()
				}
				m.Update(terminal.EventMsg{Event: f.sessions[si].tail[k]})
				m.Screen()
				k++
			}
			cpu.report(b, 0)
		})
	}
	for _, n := range sizes {
		b.Run("naive/"+sizeName(n), func(b *testing.B) {
			f := fixtureFor(b, n)
			s := settings(f.sessions[0].stored)
			si, k := 0, 0
			cpu := startCPU()
			for b.Loop() {
				if k == len(f.sessions[si].tail) {
					si, k = (si+1)%len(f.sessions), 0
				}
				naiveRebuild(f.sessions[si].all[:n+k+1], s, height-2)
				k++
			}
			cpu.report(b, 0)
		})
	}
}

// BenchmarkToggleReasoning measures Ctrl+R and the next screen on a model
// mounted on N events. naive/ is what upstream did on a toggle: project the
// whole log and render the whole document with the other setting.
func BenchmarkToggleReasoning(b *testing.B) {
	for _, n := range sizes {
		b.Run(sizeName(n), func(b *testing.B) {
			log := fixtureFor(b, n).sessions[0].stored
			m := terminal.New(config(log))
			m.Screen()
			cpu := startCPU()
			for b.Loop() {
				m.Update(ctrlR)
				m.Screen()
			}
			cpu.report(b, 0)
		})
	}
	for _, n := range sizes {
		b.Run("naive/"+sizeName(n), func(b *testing.B) {
			log := fixtureFor(b, n).sessions[0].stored
			s := settings(log)
			cpu := startCPU()
			for b.Loop() {
				s.HideReasoning = !s.HideReasoning
				naiveRebuild(log, s, height-2)
			}
			cpu.report(b, 0)
		})
	}
}

// BenchmarkResize measures a resize (tea.WindowSizeMsg, alternating between
// 100×40 and 80×30) and the next screen on a model mounted on N events.
// naive/ keeps the transcript and re-renders every item at the new width.
func BenchmarkResize(b *testing.B) {
	resize := [2]tea.WindowSizeMsg{{Width: width2, Height: height2}, {Width: width, Height: height}}
	for _, n := range sizes {
		b.Run(sizeName(n), func(b *testing.B) {
			log := fixtureFor(b, n).sessions[0].stored
			m := terminal.New(config(log))
			m.Screen()
			i := 0
			cpu := startCPU()
			for b.Loop() {
				m.Update(resize[i%2])
				m.Screen()
				i++
			}
			cpu.report(b, 0)
		})
	}
	for _, n := range sizes {
		b.Run("naive/"+sizeName(n), func(b *testing.B) {
			log := fixtureFor(b, n).sessions[0].stored
			t := transcript.Project(log, transcript.Options{})
			s := settings(log)
			i := 0
			cpu := startCPU()
			for b.Loop() {
				s.Width = resize[i%2].Width
				naiveRender(t, s, resize[i%2].Height-2)
				i++
			}
			cpu.report(b, 0)
		})
	}
}

// pageSeqs returns a fixed pseudo-random sequence of beforeSeq values in
// [0, n), the same for the product and its baseline.
func pageSeqs(n int) []int64 {
	r := rand.New(rand.NewPCG(7, uint64(n)))
	seqs := make([]int64, 4096)
	for i := range seqs {
		seqs[i] = r.Int64N(int64(n))
	}
	return seqs
}

// BenchmarkHistoryPage measures one session.history page of 50 messages
// before a random seq, on a log indexed once (outside the timer). naive/ is
// history.ScanPage, the spec's scan of the log per page.
func BenchmarkHistoryPage(b *testing.B) {
	for _, n := range historySizes {
		b.Run(sizeName(n), func(b *testing.B) {
			log := historyLog(b, n)
			h := history.New(log)
			seqs := pageSeqs(len(log))
			i, total := 0, 0
			cpu := startCPU()
			for b.Loop() {
				total += len(h.Page(seqs[i%len(seqs)], historyMessages).Events)
				i++
			}
			cpu.report(b, 0)
			if total == 0 {
				b.Fatal("every page was empty")
			}
		})
	}
	for _, n := range historySizes {
		b.Run("naive/"+sizeName(n), func(b *testing.B) {
			log := historyLog(b, n)
			seqs := pageSeqs(len(log))
			i, total := 0, 0
			cpu := startCPU()
			for b.Loop() {
				total += len(history.ScanPage(log, seqs[i%len(seqs)], historyMessages).Events)
				i++
			}
			cpu.report(b, 0)
			if total == 0 {
				b.Fatal("every page was empty")
			}
		})
	}
}
