package transcript_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/dshtest/dshtest/internal/testkit/sessiongen"
	"github.com/dshtest/dshtest/transcript"
)

// deepSame is SameItem as a whole-item reflect.DeepEqual, the revisions
// aside: the rule SameItem keeps.
func deepSame(a, b *transcript.Item) bool {
	x, y := *a, *b
	x.Rev, y.Rev = 0, 0
	return reflect.DeepEqual(x, y)
}

// TestSameItemIsDeepEqual: SameItem answers as deepSame on pairs of items
// of generated logs of every shape: the same item of two projections, an
// item and a copy with a revision or one field changed, and unrelated
// items. And it compares every field of Item but Rev: a field added to
// Item must be added to it too.
func TestSameItemIsDeepEqual(t *testing.T) {
	want := map[string]bool{"ID": true, "Kind": true, "Rev": true, "Prompt": true, "Context": true, "SessionRef": true,
		"Step": true, "Footer": true, "Tool": true, "Notice": true, "Marker": true, "Shell": true}
	it := reflect.TypeFor[transcript.Item]()
	for i := range it.NumField() {
		if name := it.Field(i).Name; !want[name] {
			t.Errorf("Item has a field %s that SameItem does not compare", name)
		}
	}
	if it.NumField() != len(want) {
		t.Errorf("Item has %d fields, SameItem compares %d", it.NumField(), len(want))
	}
	r := rand.New(rand.NewPCG(5, 6))
	pairs, same := 0, 0
	for _, sh := range sessiongen.Shapes() {
		cfg, ok := sh.Config(3000)
		if !ok {
			continue
		}
		log := sessiongen.Generate(3, cfg)
		a := transcript.Project(log, transcript.Options{}).Items
		b := transcript.Project(log, transcript.Options{}).Items // equal values, not the same pointers
		check := func(x, y *transcript.Item) {
			t.Helper()
			pairs++
			got, wantSame := transcript.SameItem(x, y), deepSame(x, y)
			if got != wantSame {
				t.Fatalf("%s: SameItem(%+v, %+v) = %v, DeepEqual says %v", sh, *x, *y, got, wantSame)
			}
			if got {
				same++
			}
		}
		for k := range a {
			check(&a[k], &b[k])
			c := b[k]
			c.Rev = r.Uint64()
			check(&a[k], &c)
			d := b[k]
			switch r.IntN(4) {
			case 0:
				d.ID.Seq++
			case 1:
				d.Kind++
			case 2:
				if d.Step != nil {
					s := *d.Step
					s.Settled = !s.Settled
					d.Step = &s
				} else if d.Tool != nil {
					tc := *d.Tool
					tc.IsError = !tc.IsError
					d.Tool = &tc
				}
			case 3:
				d.Notice, d.Marker = &transcript.Notice{Text: "x"}, nil
			}
			check(&a[k], &d)
			j := r.IntN(len(a))
			check(&a[k], &b[j])
		}
	}
	if pairs < 1000 || same < pairs/4 || same > pairs*3/4 {
		t.Errorf("%d pairs, %d the same: too few, or too one-sided to tell", pairs, same)
	}
}
