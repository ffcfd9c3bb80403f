package prompt

// wildmatch reports whether text matches the gitignore glob pattern. It is a
// port of git's wildmatch.c with WM_PATHNAME set: `*`, `?` and bracket
// expressions never match a slash, while `**` between slashes (or at either
// end) matches across folders. Porting git's own algorithm, rather than
// translating globs to regular expressions, is what makes the corner cases
// ("**" not bounded by slashes, "[!...]", "[[:alpha:]]", escapes, a
// literal first "]" in a class) agree with `git check-ignore`.
func wildmatch(pattern, text string) bool {
	return dowild(pattern, 0, text, 0) == wmMatch
}

// Results of dowild, as in git: the two abort values prune the search
// when no later position of a `*` can succeed.
const (
	wmMatch = iota
	wmNoMatch
	wmAbortAll
	wmAbortToStarStar
)

func dowild(pat string, pi int, text string, ti int) int {
	start := pi
	for ; pi < len(pat); pi, ti = pi+1, ti+1 {
		pc := pat[pi]
		if ti >= len(text) && pc != '*' {
			return wmAbortAll
		}
		var tc byte
		if ti < len(text) {
			tc = text[ti]
		}
		switch pc {
		case '\\':
			// A literal match with the next character; a trailing
			// backslash matches nothing.
			pi++
			if pi >= len(pat) || tc != pat[pi] {
				return wmNoMatch
			}
		case '?':
			if tc == '/' {
				return wmNoMatch
			}
		case '*':
			matchSlash := false
			pi++
			if pi < len(pat) && pat[pi] == '*' {
				prev := pi - 2
				for pi < len(pat) && pat[pi] == '*' {
					pi++
				}
				if (prev < start || pat[prev] == '/') &&
					(pi == len(pat) || pat[pi] == '/' ||
						(pat[pi] == '\\' && pi+1 < len(pat) && pat[pi+1] == '/')) {
					// "**/" also matches zero folders.
					if pi < len(pat) && pat[pi] == '/' && dowild(pat, pi+1, text, ti) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				}
			}
			if pi == len(pat) {
				// A trailing "**" matches everything; a trailing "*"
				// only what has no more slashes.
				if !matchSlash && indexByteFrom(text, ti, '/') >= 0 {
					return wmNoMatch
				}
				return wmMatch
			}
			if !matchSlash && pat[pi] == '/' {
				// One star followed by a slash matches the rest of
				// this folder name.
				s := indexByteFrom(text, ti, '/')
				if s < 0 {
					return wmNoMatch
				}
				ti = s // the loop's increments consume the slash
				continue
			}
			for {
				if ti >= len(text) {
					break
				}
				if !isGlobSpecial(pat[pi]) {
					// Skip ahead to the next occurrence of the
					// literal that follows the star.
					want := pat[pi]
					for ti < len(text) && (matchSlash || text[ti] != '/') && text[ti] != want {
						ti++
					}
					if ti >= len(text) || text[ti] != want {
						if matchSlash {
							return wmAbortAll
						}
						return wmAbortToStarStar
					}
				}
				m := dowild(pat, pi, text, ti)
				if m != wmNoMatch {
					if !matchSlash || m != wmAbortToStarStar {
						return m
					}
				} else if !matchSlash && text[ti] == '/' {
					return wmAbortToStarStar
				}
				ti++
			}
			return wmAbortAll
		case '[':
			var ok bool
			var r int
			pi, ok, r = matchClass(pat, pi, tc)
			if r != wmMatch {
				return r
			}
			if !ok || tc == '/' {
				return wmNoMatch
			}
		default:
			if tc != pc {
				return wmNoMatch
			}
		}
	}
	if ti < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

// matchClass matches tc against the bracket expression starting at
// pat[pi] == '['. It returns the index of the closing ']', whether tc is
// in the class (negation applied), and wmAbortAll for a malformed class.
func matchClass(pat string, pi int, tc byte) (int, bool, int) {
	at := func(i int) byte {
		if i < len(pat) {
			return pat[i]
		}
		return 0
	}
	pi++
	pc := at(pi)
	if pc == '^' {
		pc = '!'
	}
	negated := pc == '!'
	if negated {
		pi++
		pc = at(pi)
	}
	var prev byte
	matched := false
	for {
		if pc == 0 {
			return pi, false, wmAbortAll
		}
		switch {
		case pc == '\\':
			pi++
			pc = at(pi)
			if pc == 0 {
				return pi, false, wmAbortAll
			}
			if tc == pc {
				matched = true
			}
		case pc == '-' && prev != 0 && at(pi+1) != 0 && at(pi+1) != ']':
			pi++
			pc = at(pi)
			if pc == '\\' {
				pi++
				pc = at(pi)
				if pc == 0 {
					return pi, false, wmAbortAll
				}
			}
			if tc <= pc && tc >= prev {
				matched = true
			}
			pc = 0 // so that prev becomes 0: "a-c-e" is not two ranges
		case pc == '[' && at(pi+1) == ':':
			s := pi + 2
			j := s
			for j < len(pat) && pat[j] != ']' {
				j++
			}
			if j >= len(pat) {
				return j, false, wmAbortAll
			}
			if j-s-1 < 0 || pat[j-1] != ':' {
				// No ":]": an ordinary '[' in the set.
				if tc == '[' {
					matched = true
				}
				pc = '['
				break
			}
			in, known := charClass(pat[s:j-1], tc)
			if !known {
				return j, false, wmAbortAll
			}
			if in {
				matched = true
			}
			pi = j
			pc = 0
		default:
			if tc == pc {
				matched = true
			}
		}
		prev = pc
		pi++
		pc = at(pi)
		if pc == ']' {
			break
		}
	}
	return pi, matched != negated, wmMatch
}

// charClass reports whether c is in the POSIX class name, and whether the
// name is known.
func charClass(name string, c byte) (in, known bool) {
	isUpper := c >= 'A' && c <= 'Z'
	isLower := c >= 'a' && c <= 'z'
	isDigit := c >= '0' && c <= '9'
	isAlpha := isUpper || isLower
	isPrint := c >= 0x20 && c < 0x7f
	isSpace := c == ' ' || (c >= '\t' && c <= '\r')
	switch name {
	case "alnum":
		return isAlpha || isDigit, true
	case "alpha":
		return isAlpha, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return isDigit, true
	case "graph":
		return isPrint && c != ' ', true
	case "lower":
		return isLower, true
	case "print":
		return isPrint, true
	case "punct":
		return isPrint && c != ' ' && !isAlpha && !isDigit, true
	case "space":
		return isSpace, true
	case "upper":
		return isUpper, true
	case "xdigit":
		return isDigit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'), true
	}
	return false, false
}

func isGlobSpecial(c byte) bool {
	return c == '*' || c == '?' || c == '[' || c == '\\'
}

func indexByteFrom(s string, from int, c byte) int {
	for i := from; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}
