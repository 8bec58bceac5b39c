// Package redacttest helps tests check that nothing a command could print
// holds a secret: it lists every string a value holds.
package redacttest

import "reflect"

// Strings returns every string v holds, however deep, through exported
// fields, pointers, slices and maps (keys too).
func Strings(v any) []string {
	return walk(reflect.ValueOf(v), nil)
}

func walk(v reflect.Value, out []string) []string {
	switch v.Kind() {
	case reflect.String:
		out = append(out, v.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			out = walk(v.Elem(), out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				out = walk(v.Field(i), out)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			out = walk(v.Index(i), out)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			out = walk(v.MapIndex(k), walk(k, out))
		}
	}
	return out
}
