package planner

import "fmt"

// Route is one model route sharing the box. A resident route keeps its
// model loaded; a switched route loads it on demand (unloading another) and
// pays a cold start.
type Route struct {
	Name      string `json:"name"`
	Model     string `json:"model"`
	Residency string `json:"residency"` // "resident" or "switched"
	// ColdStartS is the load time of a switched route, seconds.
	ColdStartS          *float64 `json:"cold_start_s"`
	MemoryBudgetGiB     *float64 `json:"memory_budget_gib"`
	AdmittedConcurrency *int     `json:"admitted_concurrency"`
	QueuePolicy         string   `json:"queue_policy"`
	Owner               string   `json:"owner"`
	OverloadOutcome     string   `json:"overload_outcome"`
}

// Residency is the fit check of the routes on one device: resident routes
// all at once plus the largest switched route (only one is loaded at a time)
// against the device memory less the objective's headroom.
type Residency struct {
	Routes      []Route  `json:"routes"`
	ResidentGiB float64  `json:"resident_gib"`
	SwitchedGiB float64  `json:"switched_gib"` // the largest switched budget
	TotalGiB    float64  `json:"total_gib"`
	DeviceGiB   *float64 `json:"device_gib"`
	Headroom    float64  `json:"headroom"` // the fraction kept free
	UsableGiB   *float64 `json:"usable_gib"`
	// Fits is nil when it cannot be judged (no device memory, a route
	// without budget).
	Fits    *bool    `json:"fits"`
	Reasons []string `json:"reasons"`
}

// CheckResidency sums the memory the routes need at once (every resident
// route plus the largest switched one) and checks it against the device
// memory less the headroom the objective keeps free. The usable memory is
// given whenever the device memory is known, routes or not.
func CheckResidency(routes []Route, deviceGiB *float64, o Objective) Residency {
	res := Residency{Routes: routes, DeviceGiB: deviceGiB}
	if o.MinHeadroom != nil {
		res.Headroom = *o.MinHeadroom
	}
	if deviceGiB != nil {
		res.UsableGiB = F(*deviceGiB * (1 - res.Headroom))
	}
	if len(routes) == 0 {
		why := "no routes recorded: one resident model"
		if deviceGiB != nil {
			why += fmt.Sprintf("; %s GiB usable (%s GiB less %s headroom)", fmtNum(*res.UsableGiB), fmtNum(*deviceGiB), fmtPct(res.Headroom))
		}
		res.Reasons = append(res.Reasons, why)
		return res
	}
	judgeable := true
	for _, rt := range routes {
		if rt.MemoryBudgetGiB == nil {
			judgeable = false
			res.Reasons = append(res.Reasons, fmt.Sprintf("route %s has no memory budget", rt.Name))
			continue
		}
		switch rt.Residency {
		case "switched":
			res.SwitchedGiB = max(res.SwitchedGiB, *rt.MemoryBudgetGiB)
			if rt.ColdStartS == nil {
				res.Reasons = append(res.Reasons, fmt.Sprintf("switched route %s has no cold-start time", rt.Name))
			}
		default:
			res.ResidentGiB += *rt.MemoryBudgetGiB
		}
	}
	res.TotalGiB = res.ResidentGiB + res.SwitchedGiB
	if deviceGiB == nil {
		res.Reasons = append(res.Reasons, "device memory is not in the contract")
		return res
	}
	if !judgeable {
		return res
	}
	res.Fits = boolp(res.TotalGiB <= *res.UsableGiB+1e-9)
	rel := "within the"
	verb := "fits"
	if !*res.Fits {
		rel, verb = "more than the", "does not fit"
	}
	res.Reasons = append(res.Reasons, fmt.Sprintf("%s: resident %s GiB + largest switched %s GiB = %s GiB, %s %s GiB usable (%s GiB less %s headroom)",
		verb, fmtNum(res.ResidentGiB), fmtNum(res.SwitchedGiB), fmtNum(res.TotalGiB), rel, fmtNum(*res.UsableGiB), fmtNum(*deviceGiB), fmtPct(res.Headroom)))
	return res
}
