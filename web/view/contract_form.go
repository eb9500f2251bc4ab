package view

// Val is what a field shows: as the user typed it when the form comes back
// refused, else the stored value.
func (v ContractEditView) Val(name, stored string) string {
	if v.Form != nil {
		return v.Form.Get(name)
	}
	return stored
}
