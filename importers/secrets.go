package importers

import (
	"regexp"
	"strings"
)

// Result files record the command that ran them (genai-bench's
// experiment_metadata.cmd, AIPerf's and vLLM's configurations), and a
// command line can carry an API key or a bearer token. The importers keep
// the fields they need and never a credential: a string copied from such a
// file goes through MaskSecrets, and a key named like a credential is not
// read at all (docs/ARCHITECTURE.md, "Importers").

// Masked replaces a credential.
const Masked = "***"

var (
	// --api-key VALUE, --api-key=VALUE, --hf-token X, --secret ..., and
	// the same flags quoted.
	secretFlag = regexp.MustCompile(`(?i)(--?[a-z0-9_-]*(?:api[_-]?key|access[_-]?key|account[_-]?key|token|secret|password|passwd|credentials?)(?:\s+|=))("[^"]*"|'[^']*'|\S+)`)
	// Authorization: Bearer X, Bearer X, api_key=X in a URL or header text.
	secretBearer = regexp.MustCompile(`(?i)(bearer\s+|authorization\s*[:=]\s*(?:bearer\s+|basic\s+)?)([A-Za-z0-9._~+/=-]+)`)
	secretAssign = regexp.MustCompile(`(?i)((?:api[_-]?key|access[_-]?token|token|secret|password)\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s&,;]+)`)
	// keys that look like provider keys wherever they appear
	secretShape = regexp.MustCompile(`\b(sk-[A-Za-z0-9_-]{8,}|sk_[A-Za-z0-9_-]{8,}|hf_[A-Za-z0-9]{16,}|ghp_[A-Za-z0-9]{20,}|nvapi-[A-Za-z0-9_-]{16,}|AKIA[0-9A-Z]{16})\b`)
	secretKey   = regexp.MustCompile(`(?i)(^|[_-])(api[_-]?key|apikey|token|access[_-]?token|auth|authorization|password|passwd|secret|credentials?|account[_-]?key|sas[_-]?token)($|[_-])`)
)

// MaskSecrets returns s with every credential it recognises replaced by
// Masked, and how many it replaced.
func MaskSecrets(s string) (string, int) {
	n := 0
	repl := func(re *regexp.Regexp) {
		s = re.ReplaceAllStringFunc(s, func(m string) string {
			sub := re.FindStringSubmatch(m)
			if len(sub) < 3 || sub[2] == Masked || strings.Trim(sub[2], `"'`) == Masked {
				return m
			}
			n++
			return sub[1] + Masked
		})
	}
	repl(secretFlag)
	repl(secretBearer)
	repl(secretAssign)
	s = secretShape.ReplaceAllStringFunc(s, func(string) string { n++; return Masked })
	return s, n
}

// isSecretKey tells a key named like a credential: api_key, hf_token,
// authorization, auth_config, password. Counts such as total_tokens and
// the tokenizer are not.
func isSecretKey(k string) bool { return secretKey.MatchString(k) }
