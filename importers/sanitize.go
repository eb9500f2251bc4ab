package importers

import "bytes"

// sanitizer rewrites the bare NaN, Infinity and -Infinity tokens that Python
// writes (not valid JSON) into the strings "NaN", "Infinity" and
// "-Infinity", so encoding/json can read the document; num decodes them
// back. It works on chunks, keeping its state between them.
// Any other bare word starting with N or I is quoted too and then fails as a
// string where a number was expected.
type sanitizer struct {
	inStr bool // inside a JSON string
	esc   bool // the previous byte was a backslash inside a string
	inTok bool // inside a quoted bare word
	minus bool // a '-' outside a string is held back
}

func (s *sanitizer) transform(out, in []byte) []byte {
	for i := 0; i < len(in); i++ {
		c := in[i]
		if s.esc {
			s.esc = false
			out = append(out, c)
			continue
		}
		if s.inStr {
			rest := in[i:]
			q := bytes.IndexByte(rest, '"')
			if q < 0 {
				q = len(rest)
			}
			if b := bytes.IndexByte(rest[:q], '\\'); b >= 0 {
				out = append(out, rest[:b+1]...)
				i += b
				s.esc = true
				continue
			}
			if q == len(rest) {
				return append(out, rest...)
			}
			out = append(out, rest[:q+1]...)
			i += q
			s.inStr = false
			continue
		}
		if s.inTok {
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
				out = append(out, c)
				continue
			}
			out = append(out, '"')
			s.inTok = false
		}
		if s.minus {
			s.minus = false
			if c == 'I' {
				out = append(out, '"', '-', 'I')
				s.inTok = true
				continue
			}
			out = append(out, '-')
		}
		switch c {
		case '"':
			s.inStr = true
			out = append(out, c)
		case 'N', 'I':
			out = append(out, '"', c)
			s.inTok = true
		case '-':
			s.minus = true
		default:
			out = append(out, c)
		}
	}
	return out
}
