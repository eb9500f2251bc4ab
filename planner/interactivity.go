package planner

import (
	"fmt"
	"math"
	"strconv"
)

// Interactivity: an output-speed floor per user in tok/s/user, as the
// market states it (docs/method.md, "Interactivity"). Output speed per
// user is 1 / ITL, the time between output tokens after the first, as
// InferenceX plots it; TPOT including the first token is a figure of its
// own. A floor of 20 tok/s/user is ITL at most 50 ms: the objective keeps
// it in TPOTMax with TPOTAsSpeed set, and the matrix, the goodput and the
// confidence bounds judge it against the row's ITL.

// SpeedDefinition names the definition of output speed every figure uses.
const SpeedDefinition = "output speed per user = 1/ITL (time between output tokens after the first), as InferenceX plots it; TPOT including the first token is not used"

// tpotCriterionLabel is the label of the objective's TPOT bound: "TPOT",
// or "output speed (as ITL)" when it was given as a speed.
func tpotCriterionLabel(o Objective) string {
	if o.TPOTAsSpeed {
		return speedLabel + " (as ITL)"
	}
	return "TPOT"
}

// tpotStat is the figure the objective's TPOT bound is judged against:
// the row's ITL when the bound was given as an output speed, else its TPOT.
func tpotStat(r Row, o Objective) Stat {
	if o.TPOTAsSpeed {
		return r.ITL
	}
	return r.TPOT
}

// OutputSpeed is the output speed per user, tok/s/user, of a time between
// output tokens in seconds: 1 / ITL.
func OutputSpeed(tpotS float64) float64 { return 1 / tpotS }

// TPOTForSpeed is the TPOT bound, in seconds, of an output-speed floor in
// tok/s/user: 1 / speed. Zero, a negative speed, NaN or infinity are
// refused in the user's words.
func TPOTForSpeed(speed float64) (float64, error) {
	if math.IsNaN(speed) || math.IsInf(speed, 0) || !(speed > 0) {
		return 0, fmt.Errorf("an output speed per user must be a positive number of tokens per second (20 tok/s/user is TPOT at most 50 ms), got %s", speedWords(speed))
	}
	return 1 / speed, nil
}

// speedWords writes a refused speed as typed: "0", "-5", "NaN".
func speedWords(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return fmtNum(v)
}

// fmtSpeed writes a speed for the objective's text: to 9 significant
// figures, so 1 / (1 / 30) reads 30.
func fmtSpeed(v float64) string {
	return strconv.FormatFloat(roundSig(v, 9), 'f', -1, 64)
}

func roundSig(v float64, sig int) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	p := math.Pow(10, float64(sig-1-int(math.Floor(math.Log10(math.Abs(v))))))
	return math.Round(v*p) / p
}

// speedLabel is the label Loosened gives a TPOT bound typed as a speed.
const speedLabel = "output speed"

func tpotLabel(prev, next Objective) string {
	if prev.TPOTAsSpeed || next.TPOTAsSpeed {
		return speedLabel
	}
	return "TPOT"
}

// SpeedAgrees reports whether a typed TPOT bound and a typed output speed
// state the same bound (within 0.1 %, what typing 3 figures allows), for a
// form where both were filled in.
func SpeedAgrees(tpotS, speed float64) bool {
	return speed > 0 && tpotS > 0 && math.Abs(tpotS*speed-1) <= 1e-3
}

// Interactivity is the objective's TPOT bound both ways, the way it was
// given first: "at least 20 tok/s/user at p95 (TPOT at most 50 ms)" or
// "TPOT at most 50 ms at p95 (at least 20 tok/s/user)"; "" when the
// objective bounds no TPOT.
func (o Objective) Interactivity() string {
	if o.TPOTMax == nil || !(*o.TPOTMax > 0) {
		return ""
	}
	p := "p" + fmtNum(o.Percentile)
	speed := "at least " + DisplayNumber(roundSig(OutputSpeed(*o.TPOTMax), 9), 0) + " tok/s/user"
	tpot := "TPOT at most " + displayMS(*o.TPOTMax)
	if o.TPOTAsSpeed {
		return speed + " at " + p + " (" + tpot + ")"
	}
	return tpot + " at " + p + " (" + speed + ")"
}

// displayMS writes a TPOT bound in ms by the display rule: 50 ms, 33.3 ms.
func displayMS(s float64) string {
	return DisplayNumber(roundSig(s*1000, 9), 0) + " ms"
}
