package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	gtext "github.com/yuin/goldmark/text"
)

// strikeNode is a "~~strike~~" span.
type strikeNode struct{ ast.BaseInline }

var kindStrike = ast.NewNodeKind("dshtestStrike")

func (n *strikeNode) Kind() ast.NodeKind { return kindStrike }

func (n *strikeNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// strikeDelims matches "~~" runs only: upstream's lexer (marked, GFM) reads
// a single "~" literally (presenters.md §3.4). The delimiter rules are
// CommonMark's, so "~~ s ~~" (a space inside) stays literal too.
type strikeDelims struct{}

func (strikeDelims) IsDelimiter(b byte) bool { return b == '~' }

func (strikeDelims) CanOpenCloser(opener, closer *parser.Delimiter) bool {
	return opener.Char == closer.Char && opener.OriginalLength == 2 && closer.OriginalLength == 2
}

func (strikeDelims) OnMatch(consumes int) ast.Node { return &strikeNode{} }

// strikeParser is the inline parser of "~~" delimiters.
type strikeParser struct{}

func (strikeParser) Trigger() []byte { return []byte{'~'} }

func (strikeParser) Parse(parent ast.Node, block gtext.Reader, pc parser.Context) ast.Node {
	before := block.PrecendingCharacter()
	line, segment := block.PeekLine()
	node := parser.ScanDelimiter(line, before, 1, strikeDelims{})
	if node == nil || before == '~' {
		return nil
	}
	if node.OriginalLength != 2 {
		// Literal tildes: a text node, so no later "~~" pairs with them.
		block.Advance(node.OriginalLength)
		return ast.NewTextSegment(segment.WithStop(segment.Start + node.OriginalLength))
	}
	node.Segment = segment.WithStop(segment.Start + node.OriginalLength)
	block.Advance(node.OriginalLength)
	pc.PushDelimiter(node)
	return node
}

func (strikeParser) CloseBlock(ast.Node, parser.Context) {}
