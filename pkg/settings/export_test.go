package settings

// SetStepHook makes f run between the steps of every write (see testHook)
// until the returned function restores the previous hook. The steps, in
// order, are in Steps.
func SetStepHook(f func(step string) error) (restore func()) {
	prev := testHook
	testHook = f
	return func() { testHook = prev }
}

// Steps are the points SetStepHook's function is called at, in order.
var Steps = []string{stepRead, stepPrepared, stepBackedUp, stepChecked, stepSwapped, stepDone}
