package sessiongen

import (
	"encoding/json"
	"strings"

	"github.com/dshtest/dshtest/internal/ground/jsonobj"
	"github.com/dshtest/dshtest/internal/logbuild"
	"github.com/dshtest/dshtest/sessionlog"
)

// This file writes compactions, prunes and other replacements of the surface.

// ranges computes, for the current surface, which node indices may start
// and which may end a replaced range without splitting a call from its
// result.
func (g *gen) ranges(nodes []int64) (okStart, okEnd []bool) {
	n := len(nodes)
	callAt := map[string]int{}
	for i, seq := range nodes {
		for _, c := range g.meta[seq].calls {
			callAt[c] = i
		}
	}
	// crossStart[a]: some pair has call < a <= result. crossEnd[b]: call <= b < result.
	diffS := make([]int, n+2)
	for i, seq := range nodes {
		m := g.meta[seq]
		if m.callID == "" {
			continue
		}
		ci, ok := callAt[m.callID]
		if !ok || ci >= i {
			continue
		}
		// Starts in (ci, i] and ends in [ci, i) split the pair.
		diffS[ci+1]++
		diffS[i+1]--
	}
	okStart = make([]bool, n)
	okEnd = make([]bool, n)
	run := 0
	for a := range n {
		run += diffS[a]
		okStart[a] = run == 0
	}
	// An end b splits a pair when ci <= b < ri, i.e. when start b+1 does.
	for b := range n {
		okEnd[b] = b == n-1 || okStart[b+1]
	}
	return okStart, okEnd
}

func (g *gen) summaryText() string {
	return "Summary " + SummaryCanary + " " + ModelOnlyCanary + " " + g.txt.sentence()
}

func (g *gen) compactionStart(turn *int64, cmd string) (id string, seq int64) {
	var turnV any
	if turn != nil {
		turnV = *turn
	}
	if g.older {
		return "", g.logOnly(sessionlog.TypeCompactStart, logbuild.Tx{Older: true}.Start(turnV))
	}
	id = g.uuid()
	return id, g.logOnly(sessionlog.TypeCompactionStart, logbuild.Tx{CompactionID: id, SourceCommandID: cmd}.Start(turnV))
}

func (g *gen) compactionEnd(id, cmd string, turn *int64, errText string) {
	var turnV any
	if turn != nil {
		turnV = *turn
	}
	tx := logbuild.Tx{Older: g.older, CompactionID: id, SourceCommandID: cmd}
	var failure *string
	if errText != "" {
		failure = &errText
	}
	g.tick(0, 10)
	g.logOnly(logbuild.Compaction(g.older).End, tx.End(turnV, failure))
}

// compact writes a compaction transaction over surface indices a..b, or a
// failed one when fail is set. turn nil is standalone.
func (g *gen) compact(turn *int64, a, b int, fail bool) {
	cmd := ""
	if turn == nil && !g.older && g.chance(0.5) {
		g.cmdN++
		cmd = logbuild.GenCommandID(g.cmdN)
	}
	g.tick(0, 50)
	id, startSeq := g.compactionStart(turn, cmd)
	if turn == nil && g.chance(0.3) {
		// Unrelated events may land while the summary is written.
		g.tick(100, 2000)
		g.todo()
	}
	g.tick(1000, 30000)
	if fail {
		g.compactionEnd(id, cmd, turn, "compaction failed: "+g.failureText())
		return
	}
	nodes := g.nodes()
	shadowed := append([]int64(nil), nodes[a:b+1]...)
	var tokens int64
	for _, s := range shadowed {
		tokens += g.meta[s].tokens + 50
	}
	summary := []jsonobj.Object{logbuild.TextBlock(g.summaryText())}
	if g.chance(0.2) {
		summary = append(summary, logbuild.TextBlock(g.txt.sentence()))
	}
	sd := logbuild.Summary{Summary: summary, Shadowed: shadowed, Start: shadowed[0], End: shadowed[len(shadowed)-1],
		Tokens: tokens, Provider: logbuild.DefaultProvider, Model: g.model}
	if !g.older && g.chance(0.5) {
		sd.RawOutput, sd.LLMStreamCall = summary, true
	}
	if g.chance(0.3) {
		sd.MaxTokens, sd.Usage = 8192, g.usage()
	}
	tx := logbuild.Tx{Older: g.older, CompactionID: id, SourceCommandID: cmd}
	sumSeq := g.logOnly(logbuild.Compaction(g.older).Summary, tx.Data(sd))

	content := logbuild.CheckpointContent(summary)
	src := logbuild.CheckpointSources(startSeq, sumSeq, shadowed)
	g.tick(0, 2)
	g.replace(sessionlog.TypeUserMessage,
		logbuild.UserMessage(g.msgID(), content, json.RawMessage(sessionlog.CompactCheckpointSource(id, cmd))),
		shadowed[0], shadowed[len(shadowed)-1], src, &nodeMeta{tokens: tokensOf(g.summaryText()) + 60})
	g.compactionEnd(id, cmd, turn, "")
}

// autoCompaction is the in-turn path: a prune pass, then (unless pruning
// was enough) a head-anchored compaction owned by the turn.
func (g *gen) autoCompaction(t int64) {
	pruned := g.prunePass()
	if pruned && g.chance(0.5) {
		return
	}
	nodes := g.nodes()
	_, okEnd := g.ranges(nodes)
	var ends []int
	for b := range nodes {
		if okEnd[b] {
			ends = append(ends, b)
		}
	}
	fail := g.chance(0.15)
	if len(ends) == 0 {
		if !fail {
			return
		}
		ends = []int{0}
	}
	b := ends[g.intn(len(ends))]
	g.compact(&t, 0, b, fail)
}

// chainCompaction is Config.Chain's compaction: head-anchored, owned by
// turn t, over the whole surface up to its last node that ends a range
// without splitting a call from its result. The surface's first node is
// the previous chain compaction's checkpoint, so each checkpoint shadows
// the one before it.
func (g *gen) chainCompaction(t int64) {
	nodes := g.nodes()
	_, okEnd := g.ranges(nodes)
	for b := len(nodes) - 1; b >= 0; b-- {
		if okEnd[b] {
			g.compact(&t, 0, b, false)
			return
		}
	}
}

// manualCompaction is the standalone /compact path over a mid-range span,
// which may hold an earlier checkpoint (re-compaction).
func (g *gen) manualCompaction(fail bool) {
	nodes := g.nodes()
	a, b, ok := g.pickRange(nodes)
	if !ok {
		if !fail {
			return
		}
		a, b = 0, 0
	}
	g.compact(nil, a, b, fail)
}

// pickRange picks a replaceable span of the surface.
func (g *gen) pickRange(nodes []int64) (a, b int, ok bool) {
	okStart, okEnd := g.ranges(nodes)
	var starts []int
	for i := range nodes {
		if okStart[i] {
			starts = append(starts, i)
		}
	}
	if len(starts) == 0 {
		return 0, 0, false
	}
	a = starts[g.intn(len(starts))]
	var ends []int
	for i := a; i < len(nodes); i++ {
		if okEnd[i] {
			ends = append(ends, i)
		}
	}
	if len(ends) == 0 {
		return 0, 0, false
	}
	return a, ends[g.intn(len(ends))], true
}

// prunePass is the pruner (log.md §11): every tool/result on the surface
// whose text exceeds the threshold is replaced by its pruned copy, preceded
// in the newer vocabulary by compaction/prune.
func (g *gen) prunePass() bool {
	did := false
	for _, seq := range g.nodes() {
		m := g.meta[seq]
		if m.typ != sessionlog.TypeToolResult || m.data == nil {
			continue
		}
		prunedText, ok := logbuild.DefaultPruneConfig().Prune(m.text)
		if !ok {
			continue
		}
		g.tick(0, 10)
		if !g.older {
			g.logOnly(sessionlog.TypeCompactionPrune, logbuild.PruneRecord(seq, m.tokens))
		}
		g.tick(0, 2)
		g.replace(sessionlog.TypeToolResult, m.data(prunedText), seq, seq, []int64{seq},
			&nodeMeta{callID: m.callID, text: prunedText, data: m.data, tokens: tokensOf(prunedText)})
		did = true
	}
	return did
}

// foreignReplacement is another plugin's replacement of a span: model-only,
// silent in the transcript, not a checkpoint.
func (g *gen) foreignReplacement() {
	nodes := g.nodes()
	a, b, ok := g.pickRange(nodes)
	if !ok {
		return
	}
	shadowed := append([]int64(nil), nodes[a:b+1]...)
	src := shadowed
	if g.chance(0.3) && g.sess.Len() > 0 {
		src = append([]int64{int64(g.intn(g.sess.Len()))}, shadowed...)
		src = dedupe(src)
	}
	g.tick(10, 500)
	plugin := pick(g, []string{"other", "memory-compressor"})
	g.replace(sessionlog.TypeUserMessage, logbuild.UserMessage(g.msgID(),
		[]jsonobj.Object{logbuild.TextBlock("Replaced by " + plugin + " " + ModelOnlyCanary + " " + strings.TrimSpace(g.txt.sentence()))},
		logbuild.PluginSource(plugin)),
		shadowed[0], shadowed[len(shadowed)-1], src, &nodeMeta{tokens: 20})
}

func dedupe(xs []int64) []int64 {
	seen := map[int64]bool{}
	out := xs[:0:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
