package view

import (
	"strings"
	"testing"
)

// On the demo, where the hosted API is cheaper in the expected scenario,
// the recommendation's form (as its lazy part serves it) explains keep /
// change / stop and names the costlier choice before anything is saved.
// (Its refusal of "keep" without a justification is tested in web.)
func TestRecommendationFormNamesTheCostlierChoice(t *testing.T) {
	v := demoReport(t)
	body := renderHTML(t, RecommendationFormBody(v, WithStoredValues(v, MoneyForm{})))
	form := between(body, `data-testid="recommendation-form"`, "</form>")
	for _, want := range []string{`data-testid="decision-choices"`, "<dt>keep</dt>", "<dt>change</dt>", "<dt>stop</dt>", "keep is the costlier choice"} {
		if !strings.Contains(form, want) {
			t.Errorf("the recommendation form lacks %q before saving", want)
		}
	}
}
