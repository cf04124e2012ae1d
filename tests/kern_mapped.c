/*
 * Kernel equivalence: the sweeps of tests/mapped.bats, every kernel level
 * against the reference, in process.
 */
#include "xmlsniff.h"
#include "unit.h"

void
kern_mapped(void)
{
}
