package ring

import (
	"slices"
	"testing"
)

func TestRing(t *testing.T) {
	t.Parallel()
	r := New[int](4)
	if got := r.List(); got == nil || len(got) != 0 {
		t.Fatalf("empty list = %#v", got)
	}
	for i := 1; i <= 3; i++ {
		r.Add(i)
	}
	if got := r.List(); !slices.Equal(got, []int{1, 2, 3}) {
		t.Fatalf("before full: %v", got)
	}
	for i := 4; i <= 10; i++ {
		r.Add(i)
	}
	if got := r.List(); !slices.Equal(got, []int{7, 8, 9, 10}) {
		t.Fatalf("after wrapping: %v", got)
	}
	for _, tt := range []struct {
		after int
		want  []int
	}{{0, []int{7, 8, 9, 10}}, {8, []int{9, 10}}, {10, []int{}}, {6, []int{7, 8, 9, 10}}} {
		if got := r.After(func(v int) bool { return v > tt.after }); !slices.Equal(got, tt.want) {
			t.Errorf("after %d: %v, want %v", tt.after, got, tt.want)
		}
	}
	r.Reset()
	if got := r.List(); len(got) != 0 || cap(r.entries) != 0 {
		t.Fatalf("after reset: %v (cap %d)", got, cap(r.entries))
	}
	r.Add(11)
	if got := r.List(); !slices.Equal(got, []int{11}) {
		t.Fatalf("after reset and add: %v", got)
	}
}

// An append to a full ring costs the same as to an empty one: no copy of
// the journal.
func BenchmarkRingAppendFull(b *testing.B) {
	for _, fill := range []int{0, 100_000} {
		b.Run(map[int]string{0: "empty", 100_000: "full"}[fill], func(b *testing.B) {
			r := New[*struct{}](100_000)
			for range fill {
				r.Add(&struct{}{})
			}
			ev := &struct{}{}
			b.ReportAllocs()
			for b.Loop() {
				r.Add(ev)
			}
		})
	}
}
