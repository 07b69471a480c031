// Package lazy holds values made on first use.
//
// sync.OnceValue does the same, but a package-level
//
//	var v = sync.OnceValue(f)
//
// is a call, run by the package's init on every start of the hook binary:
// it allocates and touches the init's code page even when nothing reads v.
// A Value is a composite literal, which the linker lays out as data, so
// declaring one runs no code.
package lazy

import "sync"

// Value is the result of New, made by the first Get.
type Value[T any] struct {
	New  func() T
	once sync.Once
	v    T
}

// Get returns New's result, calling New once.
func (l *Value[T]) Get() T {
	l.once.Do(l.make)
	return l.v
}

func (l *Value[T]) make() { l.v = l.New() }
