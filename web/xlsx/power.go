package xlsx

import (
	"fmt"

	"capplan/planner"
)

// powerByUse writes the rows that price power by use (docs/method.md,
// "Power by use"), after the measured draw: the idle draw used (typed,
// else the GPU log's when the planner used it), the box's measured service
// rate the busy time follows from, whether power is priced by use, and the
// energy above idle a request. The power line and V_local read them.
func (b *book) powerByUse(s *sheet) {
	pu := b.r.Result.SelfHosted.Power
	// The GPU log's idle draw is no input of the workbook: written as the
	// figure the planner used, when it used the log's.
	logIdle := `""`
	if pu.IdleWatts != nil && pu.IdleSource != "typed" {
		logIdle = planner.DisplayInput(*pu.IdleWatts)
	}
	src := pu.IdleSource
	if src == "" {
		src = "none known"
	}
	row := s.next()
	s.add("Idle power draw used (W), "+src, fx(b.st.num, fmt.Sprintf(`IF(SH_Power_Idle_Watts="",%s,SH_Power_Idle_Watts)`, logIdle), opt(pu.IdleWatts)))
	b.name("Power_Idle_Watts_Used", s, 2, row)
	// The box's measured service: the closed-loop ceiling's successful
	// in-objective rate (planner.BusyHours).
	service := pu.ServiceRate
	if c := b.r.Result.Capacity; service == nil && c.CeilingRate != nil && c.InObjectiveShare != nil {
		service = planner.F(*c.CeilingRate * *c.InObjectiveShare)
	}
	row = s.next()
	s.add("Measured service per box (successful in-objective req/s at the closed-loop ceiling): busy time = requests / this / 3,600",
		fx(b.st.rate, `IF(OR(Ceiling_Rate="",Capacity_Share=""),"",Ceiling_Rate*Capacity_Share)`, opt(service)))
	b.name("Power_Service_Rate", s, 2, row)
	row = s.next()
	s.add(excelize_bold(b, "Power priced by use (idle watts for idle time, measured watts for busy time)"),
		fx(0, `AND(NOT(`+powerInRent()+`),Power_Idle_Watts_Used<>"",N(Power_Watts_Used)>0,N(Power_Idle_Watts_Used)<=N(Power_Watts_Used),N(Power_Service_Rate)>0)`, pu.ByUse),
		nil, v(b.st.wrap, "as computed on export: "+pu.Text))
	b.name("Power_By_Use", s, 2, row)
	row = s.next()
	s.add("Energy above idle a request (in V_local when priced by use)",
		fx(b.st.perReq, fmt.Sprintf(`IF(Power_By_Use,%s,0)`, roundSig(b.energyPerRequest())), money(pu.EnergyPerRequest)))
	b.name("Power_Energy_Per_Request", s, 2, row)
}

// energyPerRequest is the formula of the busy time's power above idle for
// one request, tax counted, before rounding: (measured - idle) W x
// 1 / service rate / 3,600 h / 1000 x price x PUE.
func (b *book) energyPerRequest() string {
	f := fmt.Sprintf(`IF(N(Power_Service_Rate)<=0,0,(N(Power_Watts_Used)-N(Power_Idle_Watts_Used))/Power_Service_Rate/3600/1000*%s*IF(SH_PUE="",1,SH_PUE))`,
		b.shMoney("SH_Power_Price_Per_kWh", b.r.Inputs.SelfHosted.PowerPricePerKWh))
	if b.shTaxed("power") {
		f = "(" + f + ")*" + shTaxFactor("power")
	}
	return f
}
