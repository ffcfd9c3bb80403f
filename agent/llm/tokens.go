package llm

import (
	"unicode"
	"unicode/utf8"
)

// EstimateTokens estimates what s costs in tokens, from its bytes, for the
// common tokenizers, erring high. Bytes/4 holds for English prose and
// code but undercounts two kinds of text this agent sees often: CJK (a
// character of three bytes is a token or more) and minified JSON or other
// dense punctuation (most punctuation is a token of its own). So letters
// and spaces weigh a quarter, digits a third (numbers are cut in groups of
// three), ASCII punctuation a half, CJK characters 1.25, emoji two and
// other characters a half. It lives here, beside the request, so that the
// context budget and the fake servers of llmtest count alike.
func EstimateTokens(s string) int {
	// Counted in quarters of a token (twelfths for digits) to stay in
	// integers.
	var quarters, twelfths int
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == ' ', c == '\t', c == '\n', c == '\r':
				quarters++
			case c >= '0' && c <= '9':
				twelfths += 4
			default:
				quarters += 2
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r >= 0x1F000:
			quarters += 8
		case isCJK(r):
			quarters += 5
		default:
			quarters += 2
		}
	}
	return (quarters*3 + twelfths + 11) / 12
}

// isCJK reports the scripts whose characters are a token or more each.
func isCJK(r rune) bool {
	return r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r) ||
		r >= 0x3000 && r <= 0x303F || r >= 0xFF00 && r <= 0xFFEF)
}

// MessageOverhead is what each message costs beyond its text (role
// markers, separators) in the chat formats.
const MessageOverhead = 4

// EstimateRequest estimates the prompt of a whole request: the system
// prompt and every message, each with its overhead, and each image by
// DefaultImageTokens.
func EstimateRequest(req Request) int { return EstimateRequestWith(req, nil) }

// EstimateRequestWith is EstimateRequest with the model's rule for
// images (ImageSpec.Tokens; nil for DefaultImageTokens).
func EstimateRequestWith(req Request, imageTokens func(width, height int) int) int {
	if imageTokens == nil {
		imageTokens = DefaultImageTokens
	}
	n := EstimateTokens(req.System) + MessageOverhead
	for _, m := range req.Messages {
		n += EstimateTokens(m.Text) + MessageOverhead
		for _, img := range m.Images {
			n += imageTokens(img.Width, img.Height)
		}
	}
	return n
}
