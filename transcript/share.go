package transcript

import "sync"

// Texts shares the long texts of several projections of one log: a text
// decoded by one is handed to the others as the same string, so that a
// log's texts are held once however many projections, and checks, read
// them. dshtest repro holds two transcripts of the log (live and replay)
// and the texts it checks them against; on a log of long prompts each
// held its own copy of every text.
//
// Texts are kept for as long as the Texts is; share one among the
// projections of one log only. A Texts is safe for concurrent use; a nil
// *Texts shares nothing.
type Texts struct {
	mu sync.Mutex
	m  map[string]string
}

// shareMin is the least length of a text worth sharing: a shorter one
// costs less to hold twice than to look up.
const shareMin = 4 << 10

// NewTexts returns an empty Texts.
func NewTexts() *Texts { return &Texts{m: map[string]string{}} }

// Share returns the text equal to s that t holds, holding s if it holds
// none.
func (t *Texts) Share(s string) string {
	if t == nil || len(s) < shareMin {
		return s
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if held, ok := t.m[s]; ok {
		return held
	}
	t.m[s] = s
	return s
}

// ShareBlocks shares the text of each block, in place.
func (t *Texts) ShareBlocks(blocks []Block) {
	if t == nil {
		return
	}
	for i := range blocks {
		blocks[i].Text = t.Share(blocks[i].Text)
	}
}

// share shares the texts of a freshly decoded event, in place.
func (t *Texts) share(d *trDecoded) {
	if t == nil {
		return
	}
	switch it := &d.item; {
	case it.Prompt != nil:
		it.Prompt.Text = t.Share(it.Prompt.Text)
	case it.Context != nil:
		it.Context.Text = t.Share(it.Context.Text)
	}
	t.ShareBlocks(d.blocks)
	d.call.Arguments = t.Share(d.call.Arguments)
	for i := range d.result.Result {
		d.result.Result[i].Text = t.Share(d.result.Result[i].Text)
	}
}
