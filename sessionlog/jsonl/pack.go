package jsonl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dshtest/dshtest/sessionlog"
)

// AppendPacked appends events to dst as upstream's persistence backend
// writes them with packChunks on (containers.md §5): each run of three or
// more consecutive assistant/chunk deltas of one block is one packed row
// (text-chunks, reasoning-chunks, tool-call-chunks), every other event one
// line. Only a delta whose payload the row's expansion rebuilds byte for
// byte is packed, so the decoder reads back the same events.
func AppendPacked(dst []byte, events []sessionlog.Event) ([]byte, error) {
	b := bytes.NewBuffer(dst)
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
			line, err := AppendEvent(b.AvailableBuffer(), &events[i])
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
		fmt.Fprintf(b, `{"type":"%s","seq0":%d,"time0":%d,"data":{"turn":%s,"step":%s,"index":%s,"dt":[%s],`,
			row, events[i].Seq, events[i].Time, first.turn, first.step, first.chunk["index"], strings.Join(dts, ","))
		if typ == "tool-call-delta" {
			fmt.Fprintf(b, `"id":%s,`, first.chunk["id"])
			if n, ok := first.chunk["name"]; ok {
				fmt.Fprintf(b, `"name":%s,`, n)
			}
			fmt.Fprintf(b, `"args":[%s]}}`+"\n", strings.Join(members, ","))
		} else {
			fmt.Fprintf(b, `"texts":[%s]}}`+"\n", strings.Join(members, ","))
		}
		i = j
	}
	return b.Bytes(), nil
}
