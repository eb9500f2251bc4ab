package planner

// ParseObjective reads an objective in the syntax
// "success>=99%,ttft_p95<=2s,e2e_p95<=15s[,tpot_p95<=0.1s][,itl_p95<=50ms][,headroom>=10%][,no_oom]".
func ParseObjective(s string) (Objective, error) {
	return Objective{}, nil
}

// Loosened reports whether next is looser than prev, naming each loosened term.
func Loosened(prev, next Objective) (bool, []string) {
	return false, nil
}
