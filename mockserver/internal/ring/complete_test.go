package ring

import (
	"slices"
	"testing"
)

func TestRingComplete(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		before func(r *Ring[int]) // after entry 1 was Put as -1, before Complete(1)
		kept   bool
		want   []int
	}{
		{"still held: in place", func(r *Ring[int]) { r.Add(2) }, true, []int{1, 2}},
		{"came round: appended as the newest", func(r *Ring[int]) { r.Add(2); r.Add(3); r.Add(4) }, true, []int{4, 1}},
		{"reset: forgotten", func(r *Ring[int]) { r.Reset(); r.Add(2) }, false, []int{2}},
		{"reset with the ring full again: forgotten", func(r *Ring[int]) { r.Reset(); r.Add(2); r.Add(3); r.Add(4) }, false, []int{3, 4}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := New[int](2)
			pos := r.Put(-1)
			tt.before(r)
			if kept := r.Complete(pos, 1); kept != tt.kept {
				t.Errorf("Complete = %v, want %v", kept, tt.kept)
			}
			if got := r.List(); !slices.Equal(got, tt.want) {
				t.Errorf("list %v, want %v", got, tt.want)
			}
		})
	}
	if New[int](2).Complete(5, 1) {
		t.Error("a position never answered is completed")
	}
}
