package sessionlog

import (
	"encoding/json"
	"strings"
)

// Message is a user, assistant or tool-result message (log.md §3). Content
// blocks and Source are kept open: unknown block types and source kinds
// decode without loss.
type Message struct {
	ID      string          `json:"id"`
	Role    string          `json:"role"`
	Content []ContentBlock  `json:"content"`
	Source  json.RawMessage `json:"source"`
}

// ContentBlock is one block of a message. Only the fields of the known block
// types are decoded; Raw keeps the block as it was logged.
type ContentBlock struct {
	Type string `json:"type"`
	// Text is set for "text" and "reasoning" blocks.
	Text string `json:"text,omitempty"`
	// ID, Name and Arguments are set for "tool-call" blocks. Arguments is the
	// raw JSON string the model produced.
	ID        string `json:"id,omitempty"`
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
	// ToolCallID, Content and IsError are set for "tool-result" blocks.
	ToolCallID string         `json:"toolCallId,omitempty"`
	Content    []ContentBlock `json:"content,omitempty"`
	IsError    bool           `json:"isError,omitempty"`
}

// Source is the decoded common part of a MessageSource.
type Source struct {
	Kind     string `json:"kind"`
	Plugin   string `json:"plugin,omitempty"`
	CallID   string `json:"callId,omitempty"`
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model,omitempty"`
}

// DecodeSource decodes the common fields of a message source. Fields of the
// wrong JSON type read as empty.
func DecodeSource(raw json.RawMessage) Source {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return Source{}
	}
	str := func(k string) string {
		var s string
		_ = json.Unmarshal(m[k], &s)
		return s
	}
	return Source{Kind: str("kind"), Plugin: str("plugin"), CallID: str("callId"),
		Provider: str("provider"), Model: str("model")}
}

// ContentText concatenates blocks with no separator, as terminal.md §2.1
// defines: text and reasoning give their text, a tool call gives
// name(arguments), a tool result its nested content, and an unknown block
// "[<type>]".
func ContentText(blocks []ContentBlock) string {
	if len(blocks) == 1 { // most content is one block: no copy
		switch bl := &blocks[0]; bl.Type {
		case "text", "reasoning":
			return bl.Text
		case "tool-result":
			return ContentText(bl.Content)
		}
	}
	var b strings.Builder
	appendContentText(&b, blocks)
	return b.String()
}

func appendContentText(b *strings.Builder, blocks []ContentBlock) {
	for _, bl := range blocks {
		switch bl.Type {
		case "text", "reasoning":
			b.WriteString(bl.Text)
		case "tool-call":
			b.WriteString(bl.Name)
			b.WriteByte('(')
			b.WriteString(bl.Arguments)
			b.WriteByte(')')
		case "tool-result":
			appendContentText(b, bl.Content)
		default:
			b.WriteByte('[')
			b.WriteString(bl.Type)
			b.WriteByte(']')
		}
	}
}

// TurnStep is the {turn, step} pair most payloads carry.
type TurnStep struct {
	Turn int64 `json:"turn"`
	Step int64 `json:"step"`
}

// AssistantMessageData is the payload of assistant/message.
type AssistantMessageData struct {
	TurnStep
	Message     Message         `json:"message"`
	Usage       json.RawMessage `json:"usage,omitempty"`
	Interrupted bool            `json:"interrupted,omitempty"`
}

// SteeringMessageData is the payload of steering/message (older logs).
type SteeringMessageData struct {
	Turn    int64   `json:"turn"`
	Message Message `json:"message"`
}

// ToolCallData is the payload of tool/call.
type ToolCallData struct {
	TurnStep
	CallID    string `json:"callId"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolResultData is the payload of tool/result.
type ToolResultData struct {
	TurnStep
	Message Message         `json:"message"`
	Error   json.RawMessage `json:"error,omitempty"`
	Meta    json.RawMessage `json:"meta,omitempty"`
}

// ChunkData is the payload of assistant/chunk.
type ChunkData struct {
	TurnStep
	Chunk StreamChunk `json:"chunk"`
}

// StreamChunk is one provider stream chunk (log.md §2.1).
type StreamChunk struct {
	Type           string        `json:"type"`
	Index          int           `json:"index"`
	BlockType      string        `json:"blockType,omitempty"`
	Text           string        `json:"text,omitempty"`
	ID             string        `json:"id,omitempty"`
	Name           string        `json:"name,omitempty"`
	ArgumentsDelta string        `json:"argumentsDelta,omitempty"`
	Block          *ContentBlock `json:"block,omitempty"`
}

// TurnStartData is the payload of turn/start; Trigger is older-only.
type TurnStartData struct {
	Turn    int64           `json:"turn"`
	Trigger json.RawMessage `json:"trigger,omitempty"`
}

// TurnEndData is the payload of turn/end.
type TurnEndData struct {
	Turn   int64     `json:"turn"`
	Reason EndReason `json:"reason"`
}

// EndReason is turn/end's reason. The set of kinds is open.
type EndReason struct {
	Kind    string   `json:"kind"`
	Step    *int64   `json:"step,omitempty"`
	Failure *Failure `json:"failure,omitempty"`
	Message string   `json:"message,omitempty"`
	Code    string   `json:"code,omitempty"`
}

// Failure is an error description carried by turn/end and llm/retry.
type Failure struct {
	Message string `json:"message"`
	Code    string `json:"code,omitempty"`
}

// RetryData is the payload of llm/retry. MaxRetries is absent in "always"
// mode.
type RetryData struct {
	TurnStep
	Provider   string  `json:"provider"`
	Mode       string  `json:"mode"`
	PolicyKey  string  `json:"policyKey"`
	Retry      int64   `json:"retry"`
	MaxRetries *int64  `json:"maxRetries,omitempty"`
	DelayMs    int64   `json:"delayMs"`
	Failure    Failure `json:"failure"`
}

// CompactionStartData is the payload of compaction/start and compact/start.
// A nil Turn means a standalone (manual) transaction.
type CompactionStartData struct {
	CompactionID    string `json:"compactionId,omitempty"`
	SourceCommandID string `json:"sourceCommandId,omitempty"`
	Turn            *int64 `json:"turn"`
}

// CompactionEndData is the payload of compaction/end and compact/end.
type CompactionEndData struct {
	CompactionID    string `json:"compactionId,omitempty"`
	SourceCommandID string `json:"sourceCommandId,omitempty"`
	Turn            *int64 `json:"turn"`
	Error           string `json:"error,omitempty"`
}

// Range is an inclusive {start, end} seq range.
type Range struct {
	Start int64 `json:"start"`
	End   int64 `json:"end"`
}

// CompactionSummaryData is the payload of compaction/summary and
// compact/summary.
type CompactionSummaryData struct {
	CompactionID       string          `json:"compactionId,omitempty"`
	SourceCommandID    string          `json:"sourceCommandId,omitempty"`
	Summary            []ContentBlock  `json:"summary"`
	RawOutput          []ContentBlock  `json:"rawOutput,omitempty"`
	LLMStreamCall      bool            `json:"llmStreamCall,omitempty"`
	ShadowedRange      Range           `json:"shadowedRange"`
	ShadowedSeqs       []int64         `json:"shadowedSeqs"`
	ShadowedTokenCount int64           `json:"shadowedTokenCount"`
	Provider           string          `json:"provider"`
	Model              string          `json:"model"`
	MaxTokens          *int64          `json:"maxTokens,omitempty"`
	Usage              json.RawMessage `json:"usage,omitempty"`
}

// CompactionPruneData is the payload of compaction/prune (newer only).
type CompactionPruneData struct {
	ShadowedRange      Range   `json:"shadowedRange"`
	ShadowedSeqs       []int64 `json:"shadowedSeqs"`
	ShadowedTokenCount int64   `json:"shadowedTokenCount"`
}

// CheckpointPreamble opens every compaction checkpoint (log.md §9.4).
const CheckpointPreamble = "This is an automatically generated checkpoint condensing an earlier span of the conversation to free up context. Treat the captured context as established background and build on it without restating it. Continue the task directly from the messages that follow, without acknowledging this checkpoint."
