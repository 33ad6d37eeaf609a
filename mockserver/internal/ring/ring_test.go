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

func TestRingReplace(t *testing.T) {
	t.Parallel()
	r := New[int](3)
	a := r.Put(1)
	b := r.Put(2)
	if !r.Replace(a, 10) || !slices.Equal(r.List(), []int{10, 2}) {
		t.Fatalf("replace before full: %v", r.List())
	}
	c, d := r.Put(3), r.Put(4) // 4 overwrites 10
	if r.Replace(a, 11) {
		t.Fatalf("replaced an overwritten entry: %v", r.List())
	}
	for _, tt := range []struct {
		pos  uint64
		v    int
		want []int
	}{{b, 20, []int{20, 3, 4}}, {c, 30, []int{20, 30, 4}}, {d, 40, []int{20, 30, 40}}} {
		if !r.Replace(tt.pos, tt.v) || !slices.Equal(r.List(), tt.want) {
			t.Fatalf("replace %d: %v, want %v", tt.pos, r.List(), tt.want)
		}
	}
	for i := 5; i <= 9; i++ { // wrap round again: d's slot is overwritten by 7
		r.Put(i)
	}
	if r.Replace(d, 41) || !slices.Equal(r.List(), []int{7, 8, 9}) {
		t.Fatalf("after wrapping: %v", r.List())
	}
	r.Reset()
	e := r.Put(100)
	if r.Replace(c, 31) || r.Replace(e+1, 0) || !r.Replace(e, 101) || !slices.Equal(r.List(), []int{101}) {
		t.Fatalf("after reset: %v", r.List())
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
