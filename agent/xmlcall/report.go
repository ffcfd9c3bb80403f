package xmlcall

// ReportCall is a call of a Report.
type ReportCall struct {
	Name   string            `json:"name"`
	ID     string            `json:"id"`
	Params map[string]string `json:"params"`
}

// ReportError is an error of a Report.
type ReportError struct {
	Code    string `json:"code"`
	Name    string `json:"name,omitempty"`
	ID      string `json:"id,omitempty"`
	Message string `json:"message"`
}

// Report is what a parse found, as agent parse prints it in JSON: the
// calls with their arguments, and the errors with their codes.
type Report struct {
	Calls  []ReportCall  `json:"calls"`
	Errors []ReportError `json:"errors"`
}

// NewReport is the report of the calls and errors a parse found.
func NewReport(calls []Call, errs []*Error) Report {
	out := Report{Calls: []ReportCall{}, Errors: []ReportError{}}
	for _, c := range calls {
		out.Calls = append(out.Calls, ReportCall{Name: c.Name, ID: c.ID, Params: c.Args()})
	}
	for _, e := range errs {
		out.Errors = append(out.Errors, ReportError{Code: e.Code, Name: e.Name, ID: e.ID, Message: e.Message})
	}
	return out
}
