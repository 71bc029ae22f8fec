package terminal

import (
	"github.com/dshtest/dshtest/transcript"
)

// stepIndex finds, per turn, the first step with a visible body, which is
// what hidden mode folds the turn's other steps into (terminal.md §3.2). It
// is updated from a projector's Change, so a live append costs only what
// changed, and it memoises each turn's answer until one of its steps
// changes.
type stepIndex struct {
	order  []stepRef           // step items, ascending index
	byTurn map[int64][]int     // item indices of each turn's steps, ascending
	memo   map[int64]firstStep // per turn
}

type stepRef struct {
	idx  int
	turn int64
}

// firstStep is a turn's first step with a visible body, with reasoning
// shown and hidden; -1 when there is none.
type firstStep struct {
	shown, hidden int
}

func newStepIndex(items []transcript.Item) *stepIndex {
	x := &stepIndex{byTurn: map[int64][]int{}, memo: map[int64]firstStep{}}
	x.add(items, 0)
	return x
}

func (x *stepIndex) add(items []transcript.Item, from int) {
	for i := from; i < len(items); i++ {
		if items[i].Kind != transcript.KindStep || items[i].Step == nil {
			continue
		}
		turn := items[i].Step.Turn
		x.order = append(x.order, stepRef{idx: i, turn: turn})
		x.byTurn[turn] = append(x.byTurn[turn], i)
		delete(x.memo, turn)
	}
}

// update applies a projector Change: items at From and later are re-read;
// the turns of dirty steps are recomputed on demand.
func (x *stepIndex) update(items []transcript.Item, ch transcript.Change) {
	for len(x.order) > 0 && x.order[len(x.order)-1].idx >= ch.From {
		ref := x.order[len(x.order)-1]
		x.order = x.order[:len(x.order)-1]
		idxs := x.byTurn[ref.turn]
		x.byTurn[ref.turn] = idxs[:len(idxs)-1]
		delete(x.memo, ref.turn)
	}
	for _, i := range ch.Dirty {
		if i < len(items) && items[i].Kind == transcript.KindStep && items[i].Step != nil {
			delete(x.memo, items[i].Step.Turn)
		}
	}
	x.add(items, ch.From)
}

// isCont reports whether step item i is a folded continuation.
func (x *stepIndex) isCont(items []transcript.Item, i int, reasoning bool) bool {
	turn := items[i].Step.Turn
	f, ok := x.memo[turn]
	if !ok {
		f = firstStep{shown: -1, hidden: -1}
		for _, j := range x.byTurn[turn] {
			text, r := blockPresence(items[j].Step)
			if f.hidden < 0 && text {
				f.hidden = j
			}
			if f.shown < 0 && (text || r) {
				f.shown = j
			}
			if f.hidden >= 0 && f.shown >= 0 {
				break
			}
		}
		x.memo[turn] = f
	}
	if reasoning {
		return f.shown != i
	}
	return f.hidden != i
}
