package planner

import "fmt"

// RowNeed is a figure a row lacks that the lead types into the row's own
// figures (docs/method.md, "Path"): the memory headroom the objective
// needs of a counted row, or whether the ceiling row saw an OOM or a
// restart. The headline and the path point at that row's form with it
// rather than at the matrix as a whole.
type RowNeed struct {
	// Row is the row's key (RowKey): its file's sha256 and its index.
	Row string `json:"row"`
	// Load is the row's load in words: "8 concurrent streams".
	Load string `json:"load"`
	// Figure is what it lacks: "memory headroom" or "OOM or restart".
	Figure string `json:"figure"`
	// Rows is how many counted rows lack the figure (this one included).
	Rows int `json:"rows"`
	// Action is the step in a few words, for the path's next step: "Type
	// the memory headroom of load 8 concurrent streams".
	Action string `json:"action"`
	// Text says what to do in a sentence: "type the memory headroom of
	// load 8 concurrent streams (sweep.json row 3) in its row's figures,
	// or import the GPU log".
	Text string `json:"text"`
}

// FindRowNeed is the first row figure the report waits for, nil when
// none: the lowest counted row not judged for want of its memory headroom
// (it blocks the envelope from its load up), else the ceiling row without
// its headroom or without a record of an OOM or restart (the exit check
// wants both there). deviceKnown says whether the contract gives the
// device's memory, so a typed peak memory would do.
func FindRowNeed(r *Result, deviceKnown bool) *RowNeed {
	var first *RowResult
	n := 0
	for i := range r.Matrix {
		rr := &r.Matrix[i]
		if !rr.Counted || rr.Verdict.State != VerdictNotJudged || !lacksHeadroom(rr.Verdict) {
			continue
		}
		n++
		if first == nil {
			first = rr
		}
	}
	if first != nil {
		return headroomNeed(first, n, deviceKnown)
	}
	if r.Envelope.CeilingRow == nil {
		return nil
	}
	rr := &r.Matrix[*r.Envelope.CeilingRow]
	o := r.Objective
	if o.MinHeadroom != nil && rr.MemoryHeadroom == nil {
		return headroomNeed(rr, 1, deviceKnown)
	}
	if o.NoOOM && !rr.Row.Observed.OOMRecorded() {
		at := loadText(rr.Row.LoadKind, rr.Load)
		return &RowNeed{Row: RowKey(rr.Row), Load: at, Figure: "OOM or restart", Rows: 1,
			Action: "Record whether load " + at + " saw an OOM or a restart",
			Text:   fmt.Sprintf("record whether the ceiling row, load %s (%s), saw an out-of-memory error or a worker restart: tick what the server showed, or that it showed neither", at, rowPlace(*rr))}
	}
	return nil
}

func lacksHeadroom(v Verdict) bool {
	for _, m := range v.Missing {
		if m == "memory headroom" {
			return true
		}
	}
	return false
}

func headroomNeed(rr *RowResult, rows int, deviceKnown bool) *RowNeed {
	at := loadText(rr.Row.LoadKind, rr.Load)
	what := "the memory headroom"
	if deviceKnown {
		what = "the memory headroom (or the peak memory)"
	}
	text := fmt.Sprintf("type %s of load %s (%s) in its row's figures, or import the GPU log of the run", what, at, rowPlace(*rr))
	if rows > 1 {
		text += fmt.Sprintf("; %d more counted %s lack it", rows-1, plural(rows-1, "row", "rows"))
	}
	return &RowNeed{Row: RowKey(rr.Row), Load: at, Figure: "memory headroom", Rows: rows,
		Action: "Type the memory headroom of load " + at, Text: text}
}

// rowPlace is where a row was read: "sweep.json row 3".
func rowPlace(rr RowResult) string {
	if rr.Source.File == "" {
		return fmt.Sprintf("row %d", rr.Row.Index)
	}
	return fmt.Sprintf("%s row %d", rr.Source.File, rr.Row.Index)
}
