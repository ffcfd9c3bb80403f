package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// Option adjusts a tool built by New.
type Option func(*Definition)

// Writes marks a tool as one that changes something: its calls need
// approval and are skipped after an earlier failure in the same reply.
func Writes() Option { return func(d *Definition) { d.Writes = true } }

// NoApproval marks a writing tool whose calls are not asked about (see
// Definition.AutoApproved).
func NoApproval() Option { return func(d *Definition) { d.AutoApproved = true } }

// NeverAutoApproved marks a writing tool whose every call a person must
// approve (see Definition.NeverAutoApproved).
func NeverAutoApproved() Option {
	return func(d *Definition) { d.Writes, d.NeverAutoApproved = true, true }
}

// NotServed keeps the tool out of what agent serve offers (see
// Definition.NotServed).
func NotServed() Option { return func(d *Definition) { d.NotServed = true } }

// OnDemand offers the tool by name only until first called (see
// Definition.OnDemand).
func OnDemand() Option { return func(d *Definition) { d.OnDemand = true } }

// Acts says what the tool's calls do (see Definition.Action).
func Acts(a Action) Option { return func(d *Definition) { d.Action = a } }

// Timeout sets the tool's own time limit.
func Timeout(t time.Duration) Option { return func(d *Definition) { d.Timeout = t } }

// New builds a Tool from a typed argument struct, the way the MCP Go SDK
// does: the parameters are inferred once, here, from A's fields, so the
// schema the model sees and the struct the code reads cannot drift apart.
//
// Field tags:
//
//	json:"name"            parameter name; ",omitempty" makes it optional
//	jsonschema:"text"      description shown to the model
//	enum:"a,b,c"           allowed values (makes a string field an Enum)
//	verbatim:"true"        keep the value as written (file content)
//	path:"true"            the value is a project path (Param.Path)
//
// Field types: string, int, bool (or pointers to them, for optional
// parameters whose absence matters), and anything else is a JSON value.
// New panics when A is not a struct or a field has no json name: that is a
// programming error at the wiring line, not a runtime condition.
func New[A any](name, description string, fn func(context.Context, A) (Result, error), opts ...Option) Tool {
	var zero A
	t := reflect.TypeOf(zero)
	if t == nil || t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("tools.New(%q): argument type must be a struct", name))
	}
	def := Definition{Name: name, Description: strings.TrimSpace(description)}
	fields := make(map[string]int, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag, opt, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "" || tag == "-" {
			panic(fmt.Sprintf("tools.New(%q): field %s needs a json name", name, f.Name))
		}
		p := Param{
			Name:        tag,
			Description: f.Tag.Get("jsonschema"),
			Required:    !strings.Contains(opt, "omitempty"),
			Verbatim:    f.Tag.Get("verbatim") == "true",
			Path:        f.Tag.Get("path") == "true",
			Kind:        kindOf(f.Type),
		}
		if e := f.Tag.Get("enum"); e != "" {
			p.Kind = Enum
			p.Enum = strings.Split(e, ",")
		}
		def.Params = append(def.Params, p)
		fields[tag] = i
	}
	for _, o := range opts {
		o(&def)
	}
	return &typedTool[A]{def: def, fields: fields, fn: fn}
}

func kindOf(t reflect.Type) Kind {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return String
	case reflect.Int, reflect.Int64, reflect.Int32:
		return Integer
	case reflect.Bool:
		return Boolean
	default:
		return JSON
	}
}

type typedTool[A any] struct {
	def    Definition
	fields map[string]int
	fn     func(context.Context, A) (Result, error)
}

func (t *typedTool[A]) Definition() Definition { return t.def }

// Execute fills an A from the validated values and calls the function.
// Validation has already given every value its Go type; a mismatch here
// would be a bug in this package, reported as an error Result.
func (t *typedTool[A]) Execute(ctx context.Context, in Input) (Result, error) {
	var a A
	v := reflect.ValueOf(&a).Elem()
	for name, val := range in.Values {
		i, ok := t.fields[name]
		if !ok {
			continue
		}
		if err := assign(v.Field(i), val); err != nil {
			return Errorf(CodeSchemaInvalid, "parameter %s: %v", name, err), nil
		}
	}
	return t.fn(ctx, a)
}

func assign(dst reflect.Value, val any) error {
	if dst.Kind() == reflect.Pointer {
		p := reflect.New(dst.Type().Elem())
		if err := assign(p.Elem(), val); err != nil {
			return err
		}
		dst.Set(p)
		return nil
	}
	src := reflect.ValueOf(val)
	if src.IsValid() && src.Type().AssignableTo(dst.Type()) {
		dst.Set(src)
		return nil
	}
	if src.IsValid() && src.Type().ConvertibleTo(dst.Type()) && src.Kind() == dst.Kind() {
		dst.Set(src.Convert(dst.Type()))
		return nil
	}
	if src.IsValid() && src.CanInt() && dst.CanInt() {
		dst.SetInt(src.Int())
		return nil
	}
	// JSON values: re-decode into the field's own type.
	b, err := json.Marshal(val)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, dst.Addr().Interface())
}
