package harness

import (
	"fmt"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dshtest/dshtest/internal/ground/jsonobj"
	"github.com/dshtest/dshtest/internal/logbuild"
	"github.com/dshtest/dshtest/sessionlog"
)

// stream is the chunk stream of the current step: the seqs of its chunks
// (an assistant message that settles the step cites them) and its blocks.
type stream struct {
	turn, step int64
	seqs       []int64
	blocks     []string // block type by index
}

// verbStream is the stream verb.
//
//	stream [--reasoning] TEXT... [--as NAME]
//
// Streams provider chunks for the current step: assistant/chunk events
// with a block-start (blockType "text", or "reasoning" with --reasoning)
// when the open block has the other type or none is open, then one
// text-delta (or reasoning-delta) per TEXT. A snapshot may be taken
// mid-stream; a later assistant settles the step and cites every chunk
// seq. --as labels the last chunk.
//
// Example:
//
//	step 1
//	stream --reasoning 'Checking the '
//	clock +1000
//	stream 'The result ' 'is ready.'
//	snapshot mid-stream
func verbStream(ts *testscript.TestScript, neg bool, args []string) {
	runVerb(ts, neg, "stream", func(s *script) error {
		p, err := parseArgs("stream", args, flagSpec{bools: []string{"reasoning"}, values: []string{"as"}})
		if err != nil {
			return err
		}
		if len(p.pos) == 0 {
			return fmt.Errorf("usage: stream [--reasoning] TEXT... [--as NAME]")
		}
		st := s.stream
		if st == nil || st.turn != s.turn || st.step != s.step {
			st = &stream{turn: s.turn, step: s.step}
		}
		blockType := "text"
		if p.has("reasoning") {
			blockType = "reasoning"
		}
		var evs []sessionlog.Event
		index := len(st.blocks) - 1
		blocks := st.blocks
		if index < 0 || blocks[index] != blockType {
			index = len(blocks)
			blocks = append(blocks[:len(blocks):len(blocks)], blockType)
			evs = append(evs, chunkEvent(s, logbuild.BlockStart(index, blockType)))
		}
		for _, a := range p.pos {
			t, err := textArg(ts, "stream", a)
			if err != nil {
				return err
			}
			evs = append(evs, chunkEvent(s, logbuild.Delta(blockType, index, t)))
		}
		out, err := s.appendLabelled(ts, p, -1, evs...)
		if err != nil {
			return err
		}
		st.blocks = blocks
		for _, e := range out {
			st.seqs = append(st.seqs, e.Seq)
		}
		s.stream = st
		return nil
	})
}

// chunkEvent is assistant/chunk {turn, step, chunk} in the current step.
func chunkEvent(s *script, c jsonobj.Object) sessionlog.Event {
	return logOnly(sessionlog.TypeAssistantChunk, logbuild.Chunk(s.turn, s.step, c))
}
