package properties

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/jsonl"
)

// packContainer writes events in upstream's persistence container (log.md
// §1.3): a session header line, and each run of three or more consecutive
// assistant/chunk deltas of one block as one packed row
// (text-chunks, reasoning-chunks, tool-call-chunks).
func packContainer(events []sessionlog.Event) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"type":"session","version":0,"id":"prop-session","createdAt":%d,"cwd":"/w","delegationDepth":0}`+"\n",
		firstTime(events))
	type member struct {
		turn, step json.RawMessage
		chunk      map[string]json.RawMessage
	}
	decode := func(e *sessionlog.Event) (member, string, bool) {
		if e.Type != sessionlog.TypeAssistantChunk || e.SurfaceOp != nil || e.SourceEventSeqs != nil || e.Ignorable {
			return member{}, "", false
		}
		var d struct {
			Turn, Step json.RawMessage
			Chunk      map[string]json.RawMessage
		}
		if json.Unmarshal(e.Data, &d) != nil {
			return member{}, "", false
		}
		// Only payloads the expansion rebuilds byte for byte pack.
		var typ string
		_ = json.Unmarshal(d.Chunk["type"], &typ)
		m := member{d.Turn, d.Step, d.Chunk}
		var want []byte
		switch typ {
		case "text-delta", "reasoning-delta":
			want = fmt.Appendf(nil, `{"turn":%s,"step":%s,"chunk":{"type":"%s","index":%s,"text":%s}}`,
				d.Turn, d.Step, typ, d.Chunk["index"], d.Chunk["text"])
		case "tool-call-delta":
			name := ""
			if n, ok := d.Chunk["name"]; ok {
				name = `,"name":` + string(n)
			}
			want = fmt.Appendf(nil, `{"turn":%s,"step":%s,"chunk":{"type":"tool-call-delta","index":%s,"id":%s%s,"argumentsDelta":%s}}`,
				d.Turn, d.Step, d.Chunk["index"], d.Chunk["id"], name, d.Chunk["argumentsDelta"])
		default:
			return member{}, "", false
		}
		if !bytes.Equal(want, e.Data) {
			return member{}, "", false
		}
		key := fmt.Sprintf("%s|%s|%s|%s|%s|%s", typ, d.Turn, d.Step, d.Chunk["index"], d.Chunk["id"], d.Chunk["name"])
		return m, key, true
	}
	for i := 0; i < len(events); {
		_, key, ok := decode(&events[i])
		j := i + 1
		for ok && j < len(events) {
			if _, k, ok2 := decode(&events[j]); !ok2 || k != key {
				break
			}
			j++
		}
		if !ok || j-i < 3 {
			line, err := jsonl.AppendEvent(nil, &events[i])
			if err != nil {
				return nil, err
			}
			b.Write(line)
			b.WriteByte('\n')
			i++
			continue
		}
		first, _, _ := decode(&events[i])
		var typ string
		_ = json.Unmarshal(first.chunk["type"], &typ)
		row := map[string]string{"text-delta": "text-chunks", "reasoning-delta": "reasoning-chunks", "tool-call-delta": "tool-call-chunks"}[typ]
		var dts, members []string
		for k := i; k < j; k++ {
			m, _, _ := decode(&events[k])
			if k > i {
				dts = append(dts, fmt.Sprint(events[k].Time-events[k-1].Time))
			}
			if typ == "tool-call-delta" {
				members = append(members, string(m.chunk["argumentsDelta"]))
			} else {
				members = append(members, string(m.chunk["text"]))
			}
		}
		fmt.Fprintf(&b, `{"type":"%s","seq0":%d,"time0":%d,"data":{"turn":%s,"step":%s,"index":%s,"dt":[%s],`,
			row, events[i].Seq, events[i].Time, first.turn, first.step, first.chunk["index"], strings.Join(dts, ","))
		if typ == "tool-call-delta" {
			fmt.Fprintf(&b, `"id":%s,`, first.chunk["id"])
			if n, ok := first.chunk["name"]; ok {
				fmt.Fprintf(&b, `"name":%s,`, n)
			}
			fmt.Fprintf(&b, `"args":[%s]}}`+"\n", strings.Join(members, ","))
		} else {
			fmt.Fprintf(&b, `"texts":[%s]}}`+"\n", strings.Join(members, ","))
		}
		i = j
	}
	return b.Bytes(), nil
}

func firstTime(events []sessionlog.Event) int64 {
	if len(events) == 0 {
		return 0
	}
	return events[0].Time
}

// checkContainer: the same log in upstream's container form (header line,
// packed chunk rows) decodes to the same events, byte for byte.
func checkContainer(s *subject) error {
	data, err := packContainer(s.events)
	if err != nil {
		return err
	}
	log, err := jsonl.ParseLog(data, "container.jsonl")
	if err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	if log.Header == nil {
		return fmt.Errorf("the header line was not recognised")
	}
	if len(log.Events) != len(s.events) {
		return fmt.Errorf("decoded %d events, want %d", len(log.Events), len(s.events))
	}
	for i := range s.events {
		x, y := &s.events[i], &log.Events[i]
		if x.Type != y.Type || x.Seq != y.Seq || x.Time != y.Time || x.Ignorable != y.Ignorable ||
			!bytes.Equal(x.Data, y.Data) || !rawEqual(x.SurfaceOp, y.SurfaceOp) || !rawEqual(x.SourceEventSeqs, y.SourceEventSeqs) {
			return fmt.Errorf("seq %d differs after packing:\n was %s\n now %s", x.Seq, line(x), line(y))
		}
	}
	return nil
}

var plainText = regexp.MustCompile(`^[A-Za-z .\n]+$`)
