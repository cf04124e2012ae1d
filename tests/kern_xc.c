#include "xmlsniff.h"
#include "unit.h"
#include "kern.h"

void
kern_xc(void)
{
}
