/*
 * Kernel equivalence: the sweeps of tests/dense.bats, every kernel level
 * against the reference, in process.
 */
#include "xmlsniff.h"
#include "unit.h"

void
kern_dense(void)
{
}
