/*
 * Kernel equivalence: the level loops of tests/spec.bats and
 * tests/spec2.bats, in process.
 */
#include "xmlsniff.h"
#include "unit.h"
#include "kern.h"

void
kern_spec(void)
{
}
