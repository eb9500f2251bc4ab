package planner

import (
	"fmt"
	"strings"
)

// WarningSentence says a warning in a sentence a reader takes in without
// its code: for a difference from the contract, the file's value and the
// contract's ("The file's model is llama-3-8b; the contract names
// llama-3-70b."); for the others, what happened, from the warning's own
// message. It is the one place a code becomes words: the imports list,
// the API's answer to an upload and the command line say warnings through
// it.
func WarningSentence(w Warning) string {
	if w.File != "" && w.Contract != "" {
		if f, ok := warningSentences[w.Code]; ok {
			return f(w)
		}
	}
	lead, ok := warningLeads[w.Code]
	msg := strings.TrimSpace(w.Message)
	switch {
	case msg == "":
		return upperFirst(CodeWords(w.Code)) + "."
	case ok:
		return lead + ": " + sentenceEnd(msg)
	}
	return upperFirst(sentenceEnd(msg))
}

// warningSentences say the differences from the contract with the file's
// value and the contract's.
var warningSentences = map[string]func(w Warning) string{
	"model-mismatch": func(w Warning) string {
		return fmt.Sprintf("The file's model is %s; the contract names %s.", w.File, w.Contract)
	},
	"tool-mismatch": func(w Warning) string {
		return fmt.Sprintf("The file was written by %s; the contract names %s.", w.File, w.Contract)
	},
	"load-kind-mismatch": func(w Warning) string {
		return fmt.Sprintf("The file sets its load as %s; the contract's rows are %s.", loadKindWords(w.File), loadKindWords(w.Contract))
	},
	"workload-mismatch": func(w Warning) string {
		return fmt.Sprintf("The file's %s are %s; the contract's are %s.", w.Figure, w.File, w.Contract)
	},
	"identical-prompts": func(w Warning) string {
		return "Every prompt in the file is the same (a prefix-cache best case); the contract promises varied prompts."
	},
	"few-requests": func(w Warning) string {
		return fmt.Sprintf("The row has %s successful requests; the contract's %s needs at least %s.", w.File, w.Figure, w.Contract)
	},
	"short-row": func(w Warning) string {
		return fmt.Sprintf("The row ran %s; the contract's rows run %s.", w.File, w.Contract)
	},
}

// warningLeads open the sentence of a warning whose message says the
// detail: what it means for the row first.
var warningLeads = map[string]string{
	"no-tokens":         "Requests with no output tokens count as failed",
	"errors":            "Some requests failed",
	"incomplete":        "Some requests were cut off at the end of the run",
	"rate-mismatch":     "The achieved rate is not the rate asked",
	"warmup-included":   "The warm-up is in the figures",
	"load-unknown":      "The row states no load level",
	"telemetry-partial": "The GPU log covers only part of the row",
}

// CodeWords is a warning code in words: "planned-row-missing" reads
// "planned row missing".
func CodeWords(code string) string { return strings.ReplaceAll(code, "-", " ") }

// loadKindWords is a load kind as a reader says it.
func loadKindWords(k string) string {
	switch LoadKind(k) {
	case LoadConcurrency:
		return "concurrent streams"
	case LoadRate:
		return "a request rate"
	case LoadSynchronous:
		return "one request at a time"
	case LoadThroughput:
		return "everything at once (throughput)"
	}
	return k
}

// sentenceEnd ends s with a full stop unless it ends with one already.
func sentenceEnd(s string) string {
	if strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") {
		return s
	}
	return s + "."
}
