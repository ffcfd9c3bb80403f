package catalog

import "testing"

func TestGroupDigits(t *testing.T) {
	for n, want := range map[int]string{0: "0", 12: "12", 1234: "1,234", 6144: "6,144", 1234567: "1,234,567", -9876: "-9,876"} {
		if got := groupDigits(n); got != want {
			t.Errorf("groupDigits(%d) = %q, want %q", n, got, want)
		}
	}
}
